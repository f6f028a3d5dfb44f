//! Datetimes as the reference sees them.
//!
//! The reference passes Python `datetime`s around: naive ones mean UTC,
//! aware ones keep their own UTC offset (which `isoformat()` prints back
//! unchanged, `+05:30` stays `+05:30`), and comparisons are by absolute
//! instant. JavaScript's `Date` drops the offset, and chrono's `DateTime`
//! prints offsets differently, so this module keeps exactly what Python
//! keeps: the wall-clock fields, and the offset (or none).
//!
//! Parsing accepts exactly what CPython 3.12's `datetime.fromisoformat` (its C
//! implementation, which the reference runs) accepts, and reads it the same
//! way: calendar dates `YYYY-MM-DD` / `YYYYMMDD` and week dates `YYYY-Www[-D]` /
//! `YYYYWww[D]`, then optionally any one character and a time
//! `HH[[:]MM[[:]SS[{.,:}f…]]]` with an optional `Z` or `±HH[[:]MM[[:]SS[.f…]]]`
//! offset; fractions are truncated to microseconds, an offset of zero whole
//! seconds is UTC (`-00:00:00.5` included: CPython drops the fraction), and C's
//! quirks are kept (a trailing NUL ends the string, `12:34:56:789` is a
//! fraction, text after a 7+-digit fraction is skipped before an offset). A
//! date alone means midnight naive. [`PyDateTime::parse_py`] also applies
//! CPython's rule for a lone surrogate (accepted only as the separator).
//! Checked against CPython on 1,000,000 generated strings (tests/oracle/README.md).

use chrono::{Datelike, NaiveDate};

use crate::py::string::PyStr;
use crate::{Error, ErrorCode, Result};

const MICROS_PER_SEC: i64 = 1_000_000;
const MICROS_PER_DAY: i64 = 86_400 * MICROS_PER_SEC;

/// A Python `datetime`: wall-clock time plus an optional UTC offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PyDateTime {
    /// Wall-clock time as microseconds since 0001-01-01T00:00:00 (proleptic Gregorian).
    local_micros: i64,
    /// UTC offset in microseconds; `None` for a naive datetime.
    offset_micros: Option<i64>,
}

impl PyDateTime {
    /// Parse an ISO-8601 datetime (see the module docs for the accepted forms).
    pub fn parse(text: &str) -> Result<PyDateTime> {
        parse_iso(text).ok_or_else(|| invalid_datetime(text))
    }

    /// [`PyDateTime::parse`] of a Python `str` that may hold lone surrogates
    /// (JSON `\ud800`): CPython accepts one only as the date-time separator
    /// (its `_sanitize_isoformat_str` turns a surrogate at code point 7, 8 or
    /// 10, the first found, into `T`); any other makes the string invalid.
    pub fn parse_py(text: &PyStr) -> Result<PyDateTime> {
        if let Some(s) = text.as_str() {
            return PyDateTime::parse(s);
        }
        let mut cps: Vec<u32> = text.code_points().collect();
        let surrogate = |cp: u32| (0xD800..=0xDFFF).contains(&cp);
        if let Some(&i) = [7usize, 8, 10]
            .iter()
            .take_while(|&&i| i <= cps.len())
            .find(|&&i| cps.get(i).is_some_and(|&c| surrogate(c)))
        {
            cps[i] = 'T' as u32;
        }
        match cps.iter().map(|&c| char::from_u32(c)).collect::<Option<String>>() {
            Some(clean) => PyDateTime::parse(&clean),
            None => Err(invalid_datetime(&text.to_str_lossy())),
        }
    }

    /// Build from calendar fields (used by tests and generators).
    #[allow(clippy::too_many_arguments)] // Python's datetime(year, ..., microsecond, tzinfo)
    pub fn from_fields(
        year: i32,
        month: u32,
        day: u32,
        hour: u32,
        minute: u32,
        second: u32,
        micro: u32,
        offset_micros: Option<i64>,
    ) -> Option<PyDateTime> {
        let date = NaiveDate::from_ymd_opt(year, month, day)?;
        if !(1..=9999).contains(&year) || hour > 23 || minute > 59 || second > 59 || micro > 999_999 {
            return None;
        }
        if let Some(off) = offset_micros {
            if off.abs() >= MICROS_PER_DAY {
                return None;
            }
        }
        let days = date.num_days_from_ce() as i64 - 1;
        let local_micros = days * MICROS_PER_DAY
            + (hour as i64 * 3600 + minute as i64 * 60 + second as i64) * MICROS_PER_SEC
            + micro as i64;
        Some(PyDateTime { local_micros, offset_micros })
    }

    /// True for a datetime without a UTC offset.
    pub fn is_naive(&self) -> bool {
        self.offset_micros.is_none()
    }

    /// Python's `dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)`.
    pub fn naive_as_utc(self) -> PyDateTime {
        PyDateTime { local_micros: self.local_micros, offset_micros: Some(self.offset_micros.unwrap_or(0)) }
    }

    /// The absolute instant, in microseconds since 0001-01-01T00:00:00Z
    /// (naive values are taken as UTC).
    pub fn instant_micros(&self) -> i64 {
        self.local_micros - self.offset_micros.unwrap_or(0)
    }

    /// Python `timestamp()` after naive→UTC: integer microseconds since the
    /// Unix epoch divided by 10^6, correctly rounded.
    pub fn timestamp(&self) -> f64 {
        const EPOCH_FROM_CE: i64 = 719_162 * MICROS_PER_DAY;
        micros_to_seconds(self.instant_micros() - EPOCH_FROM_CE)
    }

    /// Python `datetime.isoformat()` (after naive→UTC, as the scorer prints it):
    /// `YYYY-MM-DDTHH:MM:SS[.ffffff]±HH:MM[:SS[.ffffff]]`.
    pub fn isoformat_utc_if_naive(&self) -> String {
        self.write_isoformat(true)
    }

    /// Python `datetime.isoformat()`: as [`PyDateTime::isoformat_utc_if_naive`],
    /// but a naive datetime stays naive (no offset).
    ///
    /// ```
    /// use lians_score_core::PyDateTime;
    /// assert_eq!(PyDateTime::parse("2026-08-01 12:00").unwrap().isoformat(), "2026-08-01T12:00:00");
    /// assert_eq!(PyDateTime::parse("2026-08-01T12:00Z").unwrap().isoformat(), "2026-08-01T12:00:00+00:00");
    /// ```
    pub fn isoformat(&self) -> String {
        self.write_isoformat(self.offset_micros.is_some())
    }

    fn write_isoformat(&self, with_offset: bool) -> String {
        let mut out = String::with_capacity(32);
        let days = self.local_micros.div_euclid(MICROS_PER_DAY);
        let rem = self.local_micros.rem_euclid(MICROS_PER_DAY);
        let date = NaiveDate::from_num_days_from_ce_opt((days + 1) as i32).unwrap_or(NaiveDate::MIN);
        let secs = rem / MICROS_PER_SEC;
        let micro = rem % MICROS_PER_SEC;
        out.push_str(&format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            date.year(),
            date.month(),
            date.day(),
            secs / 3600,
            (secs / 60) % 60,
            secs % 60
        ));
        if micro != 0 {
            out.push_str(&format!(".{:06}", micro));
        }
        if !with_offset {
            return out;
        }
        let off = self.offset_micros.unwrap_or(0);
        let sign = if off < 0 { '-' } else { '+' };
        let abs = off.abs();
        let off_secs = abs / MICROS_PER_SEC;
        let off_micro = abs % MICROS_PER_SEC;
        out.push_str(&format!("{}{:02}:{:02}", sign, off_secs / 3600, (off_secs / 60) % 60));
        if off_secs % 60 != 0 || off_micro != 0 {
            out.push_str(&format!(":{:02}", off_secs % 60));
            if off_micro != 0 {
                out.push_str(&format!(".{:06}", off_micro));
            }
        }
        out
    }
}

impl std::str::FromStr for PyDateTime {
    type Err = crate::Error;
    /// [`PyDateTime::parse`].
    fn from_str(text: &str) -> Result<PyDateTime> {
        PyDateTime::parse(text)
    }
}

/// `timedelta.total_seconds()` for a difference of instants: the integer
/// microseconds divided by 10^6, correctly rounded (Python int / int).
pub fn seconds_between(later: &PyDateTime, earlier: &PyDateTime) -> f64 {
    micros_to_seconds(later.instant_micros() - earlier.instant_micros())
}

/// Exact `micros / 10**6` rounded once: build the exact decimal text and let
/// the (correctly rounding) float parser do the rounding. `as f64` first
/// would round twice for spans beyond 2^53 µs (~285 years). Within 2^53 µs
/// both operands are exact doubles, and IEEE division rounds the exact
/// quotient once: the same double, without the text (a batch computes one
/// per candidate).
fn micros_to_seconds(micros: i64) -> f64 {
    if micros.unsigned_abs() <= 1 << 53 {
        return micros as f64 / 1e6;
    }
    micros_to_seconds_text(micros)
}

fn micros_to_seconds_text(micros: i64) -> f64 {
    let neg = micros < 0;
    let abs = micros.unsigned_abs();
    let text = format!("{}{}.{:06}", if neg { "-" } else { "" }, abs / 1_000_000, abs % 1_000_000);
    crate::py::float::parse_f64(&text).unwrap_or(0.0)
}

fn invalid_datetime(text: &str) -> Error {
    Error::new(
        ErrorCode::InvalidDatetime,
        "",
        format!("not an ISO-8601 datetime (Python datetime.fromisoformat): {:?}", truncate_for_message(text)),
    )
}

fn truncate_for_message(text: &str) -> String {
    text.chars().take(64).collect()
}

// ---------------------------------------------------------------- fromisoformat
//
// A port of CPython 3.12's C `datetime.fromisoformat` (`Modules/_datetimemodule.c`:
// `_find_isoformat_datetime_separator`, `parse_isoformat_date`, `iso_to_ymd`,
// `parse_hh_mm_ss_ff`, `parse_isoformat_time`, `tzinfo_from_isoformat_results`), which
// is what the reference runs (`_pydatetime.py` states the same grammar but differs in
// corners, e.g. `12:34:56:789`). It reads the UTF-8 bytes of the string as C does,
// including its NUL terminator: `at` gives 0 past the end, so an embedded or final
// NUL ends a component exactly where C stops.

/// The byte at `i`, or the terminating NUL past the end.
#[inline]
fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// C `parse_digits`: `n` ASCII digits at `*p` (advancing it), else `None`.
fn parse_digits(b: &[u8], p: &mut usize, n: usize) -> Option<i64> {
    let mut v = 0i64;
    for _ in 0..n {
        let d = at(b, *p).wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + d as i64;
        *p += 1;
    }
    Some(v)
}

/// C `_find_isoformat_datetime_separator` (byte index; `None` for its -1).
/// The caller guarantees at least 7 code points, hence `b.len() >= 7`.
fn find_separator(b: &[u8]) -> Option<usize> {
    let len = b.len();
    if len == 7 {
        return Some(7);
    }
    if at(b, 4) == b'-' {
        if at(b, 5) != b'W' {
            return Some(10); // YYYY-MM-DD
        }
        if len > 8 && at(b, 8) == b'-' {
            if len == 9 {
                return None;
            }
            // YYYY-Www-D (10) or YYYY-Www-HH (8): a digit at 10 means a hyphen separator at 8.
            return Some(if len > 10 && at(b, 10).is_ascii_digit() { 8 } else { 10 });
        }
        return Some(8); // YYYY-Www
    }
    if at(b, 4) == b'W' {
        // YYYYWww (7) or YYYYWwwd (8): decided by the length of the digit run from 7.
        let mut idx = 7;
        while idx < len && at(b, idx).is_ascii_digit() {
            idx += 1;
        }
        if idx < 9 {
            return Some(idx);
        }
        return Some(if idx % 2 == 0 { 7 } else { 8 });
    }
    Some(8) // YYYYMMDD
}

/// Proleptic Gregorian ordinal of a date (0001-01-01 is 1), as C `ymd_to_ord`.
fn ymd_to_ord(year: i64, month: i64, day: i64) -> i64 {
    const BEFORE: [i64; 13] = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let y = year - 1;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    y * 365 + y / 4 - y / 100 + y / 400 + BEFORE[month as usize] + (month > 2 && leap) as i64 + day
}

/// C `iso_to_ymd`: an ISO year, week and weekday as `(year, month, day)`; the
/// year may come out as 0 or 10000 (refused later, as CPython's constructor does).
fn iso_to_ymd(year: i64, week: i64, day: i64) -> Option<(i64, i64, i64)> {
    if !(1..=9999).contains(&year) {
        return None;
    }
    let first_day = ymd_to_ord(year, 1, 1);
    let first_weekday = (first_day + 6) % 7; // 0 = Monday
    if week <= 0 || week >= 53 {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        if !(week == 53 && (first_weekday == 3 || (first_weekday == 2 && leap))) {
            return None;
        }
    }
    if !(1..=7).contains(&day) {
        return None;
    }
    let mut monday = first_day - first_weekday;
    if first_weekday > 3 {
        monday += 7;
    }
    let date = NaiveDate::from_num_days_from_ce_opt((monday + (week - 1) * 7 + day - 1) as i32)?;
    Some((date.year() as i64, date.month() as i64, date.day() as i64))
}

/// C `parse_isoformat_date` over the first `len` bytes (`len` = the separator's index).
fn parse_date(b: &[u8], len: usize) -> Option<(i64, i64, i64)> {
    let mut p = 0;
    let year = parse_digits(b, &mut p, 4)?;
    let dash = at(b, p) == b'-';
    p += dash as usize;
    if at(b, p) == b'W' {
        p += 1;
        let week = parse_digits(b, &mut p, 2)?;
        let mut day = 1;
        if p < len {
            if dash {
                let c = at(b, p);
                p += 1;
                if c != b'-' {
                    return None;
                }
            }
            day = parse_digits(b, &mut p, 1)?;
        }
        return iso_to_ymd(year, week, day);
    }
    let month = parse_digits(b, &mut p, 2)?;
    if dash {
        let c = at(b, p);
        p += 1;
        if c != b'-' {
            return None;
        }
    }
    let day = parse_digits(b, &mut p, 2)?;
    Some((year, month, day))
}

/// The outcome of C `parse_hh_mm_ss_ff`: the fields, and whether it stopped
/// before a NUL (C's return value 1; a time then needs a UTC offset after it).
struct Hms {
    fields: [i64; 4],
    trailing: bool,
}

/// C `parse_hh_mm_ss_ff` from `p` to `end`: `HH[:?MM[:?SS]][{.,:}f+]`, where the
/// separator after `HH` decides whether `:` is required, up to 6 fraction digits
/// are read (a shorter fraction is scaled) and further digits skipped; `None`
/// for C's negative codes.
fn parse_hms(b: &[u8], mut p: usize, end: usize) -> Option<Hms> {
    let mut fields = [0i64; 4];
    let mut has_separator = true;
    for i in 0..3 {
        fields[i] = parse_digits(b, &mut p, 2)?;
        let c = at(b, p);
        p += 1;
        if i == 0 {
            has_separator = c == b':';
        }
        if p >= end {
            return Some(Hms { fields, trailing: c != 0 });
        } else if has_separator && c == b':' {
            continue;
        } else if c == b'.' || c == b',' {
            break;
        } else if !has_separator {
            p -= 1;
        } else {
            return None;
        }
    }
    // The fraction (here p < end).
    let to_parse = (end - p).min(6);
    let mut micro = parse_digits(b, &mut p, to_parse)?;
    for _ in to_parse..6 {
        micro *= 10;
    }
    fields[3] = micro;
    while at(b, p).is_ascii_digit() {
        p += 1;
    }
    Some(Hms { fields, trailing: at(b, p) != 0 })
}

/// C `parse_isoformat_time` from `start` to the end: the time fields and the
/// UTC offset (`None`: naive) as `(seconds, microseconds)`, both signed.
#[allow(clippy::type_complexity)]
fn parse_time(b: &[u8], start: usize) -> Option<([i64; 4], Option<(i64, i64)>)> {
    let end = b.len();
    // The first `Z`, `+` or `-` (C's do-while reads the first byte even when empty).
    let mut tz = start;
    loop {
        if matches!(at(b, tz), b'Z' | b'+' | b'-') {
            break;
        }
        tz += 1;
        if tz >= end {
            break;
        }
    }
    let time = parse_hms(b, start, tz)?;
    if tz == end {
        // No offset: anything after the time is an error.
        return (!time.trailing).then_some((time.fields, None));
    }
    if at(b, tz) == b'Z' {
        return (at(b, tz + 1) == 0).then_some((time.fields, Some((0, 0))));
    }
    let sign = if at(b, tz) == b'-' { -1 } else { 1 };
    let off = parse_hms(b, tz + 1, end)?;
    if off.trailing {
        return None;
    }
    let [h, m, s, us] = off.fields;
    Some((time.fields, Some((sign * (h * 3600 + m * 60 + s), sign * us))))
}

/// `datetime.fromisoformat(text)` as CPython 3.12's C implementation reads it:
/// `YYYY-MM-DD`, `YYYYMMDD`, `YYYY-Www[-D]`, `YYYYWww[D]`, optionally followed by
/// any one character and a time `HH[[:]MM[[:]SS[{.,}f…]]]` with an optional `Z` or
/// `±HH[[:]MM[[:]SS[.f…]]]` offset (fractions truncated to microseconds). An offset
/// whose whole seconds are 0 is UTC (its fraction dropped, as CPython does); every
/// other offset must be strictly within 24 hours, and the fields in range.
fn parse_iso(text: &str) -> Option<PyDateTime> {
    if text.chars().count() < 7 {
        return None;
    }
    let b = text.as_bytes();
    let sep = find_separator(b)?;
    let (year, month, day) = parse_date(b, sep)?;
    let (time, offset) = if b.len() > sep {
        // The separator is one character of 1 to 4 UTF-8 bytes (C reads its lead byte).
        let width = match at(b, sep) {
            c if c & 0x80 == 0 => 1,
            c if c & 0xF0 == 0xE0 => 3,
            c if c & 0xF0 == 0xF0 => 4,
            _ => 2,
        };
        parse_time(b, sep + width)?
    } else {
        ([0; 4], None)
    };
    let offset_micros = offset.map(|(secs, us)| if secs == 0 { 0 } else { secs * MICROS_PER_SEC + us });
    let field = |v: i64| u32::try_from(v).ok();
    let [hour, minute, second, micro] = time;
    PyDateTime::from_fields(
        i32::try_from(year).ok()?,
        field(month)?,
        field(day)?,
        field(hour)?,
        field(minute)?,
        field(second)?,
        field(micro)?,
        offset_micros,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iso(s: &str) -> String {
        PyDateTime::parse(s).unwrap().isoformat_utc_if_naive()
    }

    #[test]
    fn isoformat_matches_python() {
        assert_eq!(iso("2026-08-01T01:02:03.0045+00:00"), "2026-08-01T01:02:03.004500+00:00");
        assert_eq!(iso("2026-01-01T00:00:00-02:59:45"), "2026-01-01T00:00:00-02:59:45");
        assert_eq!(iso("0005-01-02T03:04:05.000060-05:00"), "0005-01-02T03:04:05.000060-05:00");
        assert_eq!(iso("2026-01-01T00:00:00Z"), "2026-01-01T00:00:00+00:00");
        assert_eq!(iso("2026-07-01T12:30:00"), "2026-07-01T12:30:00+00:00");
        assert_eq!(iso("2026-07-01"), "2026-07-01T00:00:00+00:00");
        assert_eq!(iso("1999-12-31T14:30:00-09:30"), "1999-12-31T14:30:00-09:30");
        assert_eq!(iso("2026-01-01T00:00:00.1234567+05:30"), "2026-01-01T00:00:00.123456+05:30");
        // An offset of 0 whole seconds is UTC, its fraction dropped (CPython's C fromisoformat).
        assert_eq!(iso("2026-01-01T00:00:00+00:00:00.5"), "2026-01-01T00:00:00+00:00");
        assert_eq!(iso("2026-01-01T00:00:00-00:00:00.5"), "2026-01-01T00:00:00+00:00");
        assert_eq!(iso("2026-01-01T00:00:00-00:00:01.5"), "2026-01-01T00:00:00-00:00:01.500000");
    }

    #[test]
    fn reads_what_cpython_fromisoformat_reads() {
        // Each expected value is CPython 3.12.1's `datetime.fromisoformat(s).isoformat()` (None: ValueError).
        let cases: [(&str, Option<&str>); 40] = [
            ("2026-W01-1", Some("2025-12-29T00:00:00")),
            ("2026W011T12", Some("2025-12-29T12:00:00")),
            ("2026W01", Some("2025-12-29T00:00:00")),
            ("2026-W53", Some("2026-12-28T00:00:00")),
            ("2020-W53", Some("2020-12-28T00:00:00")),
            ("2026-W01-8", None),
            ("20260101T123456", Some("2026-01-01T12:34:56")),
            ("2026-01-01T12", Some("2026-01-01T12:00:00")),
            ("2026-01-01T12+05", Some("2026-01-01T12:00:00+05:00")),
            ("2026-01-01T12-05:00", Some("2026-01-01T12:00:00-05:00")),
            ("2026-01-01T12:34+0530", Some("2026-01-01T12:34:00+05:30")),
            ("2026-01-01T12:34+05:99", Some("2026-01-01T12:34:00+06:39")),
            ("2026-01-01T12:34+99:00", None),
            ("2026-01-01T12:34+23:59:59.999999", Some("2026-01-01T12:34:00+23:59:59.999999")),
            ("2026-01-01T12:34+05:30:00.123456789", Some("2026-01-01T12:34:00+05:30:00.123456")),
            ("2026-01-01T12:34-00:00:00.5", Some("2026-01-01T12:34:00+00:00")),
            ("2026-01-01T00:00:00-00:00:00.000001", Some("2026-01-01T00:00:00+00:00")),
            ("2026-01-01T12:34-00:00:01.5", Some("2026-01-01T12:34:00-00:00:01.500000")),
            ("2026-01-01\u{e9}12:00", Some("2026-01-01T12:00:00")),
            ("2026-01-01\u{0}12:00", Some("2026-01-01T12:00:00")),
            ("2026-01-01T12:34:56\u{0}", Some("2026-01-01T12:34:56")),
            ("2026-01-01T12:34:56+05:00\u{0}", Some("2026-01-01T12:34:56+05:00")),
            ("2026-01-01T12:34:56:789", Some("2026-01-01T12:34:56.789000")),
            ("2026-01-01T12:34:56,5", Some("2026-01-01T12:34:56.500000")),
            ("2026-01-01T12:34:56.+05:00", Some("2026-01-01T12:34:56+05:00")),
            ("2026-01-01T12:34:56.1234567abc+05:00", Some("2026-01-01T12:34:56.123456+05:00")),
            ("2026-01-01T12:34:56.0000001", Some("2026-01-01T12:34:56")),
            ("2026-01-01T12:34z", None),
            ("2026-01-01T12:34Zjunk", None),
            ("2026-01-01T12:34:56.", None),
            ("2026-01-01T1234567", None),
            ("2026-01-01T12:3456", None),
            ("2026-01-01T1234:56", None),
            ("2026-01-01T24:00", None),
            ("2026-01-01T", None),
            ("2026-01-01T12:34:56+0", None),
            ("2026-01-01 12:34:56+05:30:00.5x", None),
            ("2026-0101", None),
            ("0000-01-01", None),
            ("\u{ff12}\u{ff10}\u{ff12}\u{ff16}-01-01", None),
        ];
        for (text, want) in cases {
            let got = PyDateTime::parse(text).ok().map(|t| t.isoformat());
            assert_eq!(got.as_deref(), want, "{text:?}");
        }
        // A lone surrogate is accepted only as the separator (CPython turns it into `T`).
        let wtf8 = |b: &[u8]| PyStr::from_wtf8(b.to_vec());
        let sep = PyDateTime::parse_py(&wtf8(b"2026-01-01\xed\xa0\x8012:00")).unwrap();
        assert_eq!(sep.isoformat(), "2026-01-01T12:00:00");
        assert!(PyDateTime::parse_py(&wtf8(b"2026-01-01T12:34:56.1234567\xed\xa0\x80+05:00")).is_err());
    }

    #[test]
    fn rejects_garbage() {
        for bad in [
            "",
            "2026",
            "2026-13-01",
            "2026-02-30T00:00:00",
            "2026-01-01T24:00:00",
            "2026-01-01T00:00:00+24:00",
            "2026-01-01X",
            "2026-01-01T00:00:00 ",
            "10000-01-01",
        ] {
            assert!(PyDateTime::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn instants_compare_across_offsets() {
        let a = PyDateTime::parse("2026-01-01T05:30:00+05:30").unwrap();
        let b = PyDateTime::parse("2026-01-01T00:00:00").unwrap();
        assert_eq!(a.instant_micros(), b.instant_micros());
        assert_eq!(seconds_between(&a, &b), 0.0);
        let c = PyDateTime::parse("2026-01-01T12:00:00Z").unwrap();
        assert_eq!(seconds_between(&c, &b), 43200.0);
        assert_eq!(PyDateTime::parse("1970-01-01T00:00:00Z").unwrap().timestamp(), 0.0);
        assert_eq!(PyDateTime::parse("1969-12-31T23:59:59.5").unwrap().timestamp(), -0.5);
    }

    /// The division within 2^53 µs rounds as the exact decimal text does.
    #[test]
    fn micros_division_equals_decimal_text() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let check = |m: i64| assert_eq!(micros_to_seconds(m).to_bits(), micros_to_seconds_text(m).to_bits(), "{m}");
        for m in [0, 1, -1, 999_999, 1_000_001, (1 << 53) - 1, 1 << 53, -(1 << 53), 86_400_000_000 * 3650] {
            check(m);
        }
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = (x >> (11 + (x % 40))) as i64;
            check(m);
            check(-m);
        }
    }
}
