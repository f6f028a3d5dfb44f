//! Datetimes as the reference sees them.
//!
//! The reference passes Python `datetime`s around: naive ones mean UTC,
//! aware ones keep their own UTC offset (which `isoformat()` prints back
//! unchanged, `+05:30` stays `+05:30`), and comparisons are by absolute
//! instant. JavaScript's `Date` drops the offset, and chrono's `DateTime`
//! prints offsets differently, so this module keeps exactly what Python
//! keeps: the wall-clock fields, and the offset (or none).
//!
//! Parsing accepts what reaches the reference through pydantic and
//! `datetime.fromisoformat`: `YYYY-MM-DD[(T|t| )HH:MM[:SS[.f+]]][Z|z|±HH[:]MM[:SS[.ffffff]]]`,
//! where a date alone means midnight naive and fractions beyond 6 digits are
//! truncated. Calendar arithmetic is delegated to chrono.

use chrono::{Datelike, NaiveDate};

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
        parse_iso(text).ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidDatetime,
                "",
                format!("not an ISO-8601 datetime: {:?}", truncate_for_message(text)),
            )
        })
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
/// would round twice for spans beyond 2^53 µs (~285 years).
fn micros_to_seconds(micros: i64) -> f64 {
    let neg = micros < 0;
    let abs = micros.unsigned_abs();
    let text = format!("{}{}.{:06}", if neg { "-" } else { "" }, abs / 1_000_000, abs % 1_000_000);
    crate::py::float::parse_f64(&text).unwrap_or(0.0)
}

fn truncate_for_message(text: &str) -> String {
    text.chars().take(64).collect()
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn digits(&mut self, n: usize) -> Option<u32> {
        let s = self.b.get(self.i..self.i + n)?;
        let mut v = 0u32;
        for &c in s {
            if !c.is_ascii_digit() {
                return None;
            }
            v = v * 10 + (c - b'0') as u32;
        }
        self.i += n;
        Some(v)
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    /// `.f+` or `,f+`: up to 6 digits kept, the rest truncated.
    fn fraction(&mut self) -> Option<u32> {
        if !(self.eat(b'.') || self.eat(b',')) {
            return Some(0);
        }
        let start = self.i;
        let mut v = 0u32;
        while let Some(c) = self.peek() {
            if !c.is_ascii_digit() {
                break;
            }
            if self.i - start < 6 {
                v = v * 10 + (c - b'0') as u32;
            }
            self.i += 1;
        }
        let n = self.i - start;
        if n == 0 {
            return None;
        }
        for _ in n..6 {
            v *= 10;
        }
        Some(v)
    }
}

fn parse_iso(text: &str) -> Option<PyDateTime> {
    let mut c = Cursor { b: text.as_bytes(), i: 0 };
    let year = c.digits(4)? as i32;
    if !c.eat(b'-') {
        return None;
    }
    let month = c.digits(2)?;
    if !c.eat(b'-') {
        return None;
    }
    let day = c.digits(2)?;
    if c.i == c.b.len() {
        return PyDateTime::from_fields(year, month, day, 0, 0, 0, 0, None);
    }
    match c.peek()? {
        b'T' | b't' | b' ' => c.i += 1,
        _ => return None,
    }
    let hour = c.digits(2)?;
    if !c.eat(b':') {
        return None;
    }
    let minute = c.digits(2)?;
    let (mut second, mut micro) = (0, 0);
    if c.eat(b':') {
        second = c.digits(2)?;
        micro = c.fraction()?;
    }
    let offset = match c.peek() {
        None => None,
        Some(b'Z') | Some(b'z') => {
            c.i += 1;
            Some(0)
        }
        Some(sign @ (b'+' | b'-')) => {
            c.i += 1;
            let oh = c.digits(2)? as i64;
            let colon = c.eat(b':');
            let om = c.digits(2)? as i64;
            let mut os = 0i64;
            let mut ou = 0i64;
            if colon && c.eat(b':') {
                os = c.digits(2)? as i64;
                ou = c.fraction()? as i64;
            }
            if om > 59 || os > 59 {
                return None;
            }
            let total = ((oh * 3600 + om * 60 + os) * MICROS_PER_SEC) + ou;
            Some(if sign == b'-' { -total } else { total })
        }
        Some(_) => return None,
    };
    if c.i != c.b.len() {
        return None;
    }
    PyDateTime::from_fields(year, month, day, hour, minute, second, micro, offset)
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
        assert_eq!(iso("2026-01-01T00:00:00+00:00:00.5"), "2026-01-01T00:00:00+00:00:00.500000");
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
}
