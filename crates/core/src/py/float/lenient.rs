//! Python `float(str)` ([`parse_py_float`]): the leniency (Py-space
//! stripping, `_` grouping, non-ASCII digits, nan/inf spellings) in front of
//! [`parse_f64`].

#[allow(unused_imports)]
use super::*;
use crate::py::unicode;

/// Python `float(s)` for a string; `None` where Python raises ValueError.
///
/// Python (`_PyUnicode_TransformDecimalAndSpaceToASCII`) first maps every
/// *non-ASCII* Unicode decimal digit to its ASCII digit and every non-ASCII
/// Py-space to U+0020, keeping ASCII as is; it then strips the surrounding
/// ASCII whitespace of C `isspace` (U+0020 and U+0009–000D only: U+001C–001F
/// are Py-spaces for `str.strip()` but not here, so `float("\x1f0.7")`
/// raises), and accepts `[sign](nan|inf|infinity)` in any case, or a decimal
/// literal in which a single `_` may stand between two digits.
pub fn parse_py_float(s: &str) -> Option<f64> {
    let mut ascii = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            ascii.push(c);
        } else if let Some(d) = unicode::decimal_value(c) {
            ascii.push((b'0' + d) as char);
        } else if unicode::is_py_space(c) {
            ascii.push(' ');
        } else {
            return None;
        }
    }
    let t = ascii.trim_matches(|c: char| c == ' ' || ('\t'..='\r').contains(&c));
    if t.is_empty() {
        return None;
    }
    let (neg, body) = match t.as_bytes()[0] {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = body.to_ascii_lowercase();
    let value = match lower.as_str() {
        "nan" => f64::NAN,
        "inf" | "infinity" => f64::INFINITY,
        _ => parse_decimal_literal(body)?,
    };
    Some(if neg { -value } else { value })
}

/// `digits [. digits] [e [sign] digits]` (either side of `.` may be empty,
/// not both), `_` only between two digits. Returns the correctly rounded double.
pub(super) fn parse_decimal_literal(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut clean = String::with_capacity(b.len());
    let mut i = 0;
    let mut mantissa_digits = digit_run(b, &mut i, &mut clean)?;
    if i < b.len() && b[i] == b'.' {
        clean.push('.');
        i += 1;
        mantissa_digits += digit_run(b, &mut i, &mut clean)?;
    }
    if mantissa_digits == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        clean.push('e');
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            clean.push(b[i] as char);
            i += 1;
        }
        if digit_run(b, &mut i, &mut clean)? == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    parse_f64(&clean)
}

/// The digits from `b[*i]` on, `_` allowed only between two digits, appended
/// to `clean` without the `_`s; advances `*i` past them and returns how many
/// digits there were (`None` for a misplaced `_`).
pub(super) fn digit_run(b: &[u8], i: &mut usize, clean: &mut String) -> Option<usize> {
    let (start, mut digits) = (*i, 0);
    while *i < b.len() && (b[*i].is_ascii_digit() || b[*i] == b'_') {
        if b[*i] == b'_' {
            if !(*i > start && b[*i - 1].is_ascii_digit() && *i + 1 < b.len() && b[*i + 1].is_ascii_digit()) {
                return None;
            }
        } else {
            clean.push(b[*i] as char);
            digits += 1;
        }
        *i += 1;
    }
    Some(digits)
}
