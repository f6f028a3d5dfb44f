//! Python float semantics the reference depends on.
//!
//! * [`repr`]: `str(float)` / `repr(float)` text (shortest round-trip digits,
//!   Python's switch between fixed and exponent notation).
//! * [`round6`]: `round(x, 6)`, correctly rounded from the exact binary value.
//! * [`sum_py312`]: CPython 3.12's `sum()` of floats (Neumaier compensated
//!   summation), which decides the sixth decimal of some final scores.
//! * [`parse_py_float`]: `float(str)` with Python's leniency (Py-space
//!   stripping, `_` digit grouping, non-ASCII decimal digits, nan/inf
//!   spellings).
//! * [`clamp01`]: the scorer's `clamp` with Python's `max`/`min` tie
//!   semantics (never returns `-0.0`).
//!
//! This module knows nothing about JSON (the `json` printer depends on it, not
//! the other way round); `float(v)` and `clamp(v)` of a JSON value are
//! [`crate::json::Value::py_float`] and [`crate::json::Value::clamp01`].

use crate::py::unicode;

/// Python `repr(x)` for a float: `0.0`, `-0.0`, `1e-07`, `1e+16`,
/// `9999999999999998.0`, `1.2345678901234568e+17`, `nan`, `inf`, `-inf`.
pub fn repr(x: f64) -> String {
    let mut out = String::new();
    write_repr(x, &mut out);
    out
}

/// Append Python `repr(x)` to `out`.
pub fn write_repr(x: f64, out: &mut String) {
    if x.is_nan() {
        out.push_str("nan");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "inf" } else { "-inf" });
        return;
    }
    if x == 0.0 {
        out.push_str(if x.is_sign_negative() { "-0.0" } else { "0.0" });
        return;
    }
    if write_repr_short_fixed(x, out) {
        return;
    }
    write_repr_general(x, out);
}

/// Fast path of [`write_repr`] for the floats the scorer prints most (scores
/// rounded to 6 places, weights, small amounts): `1e-4 ≤ |x| < 1e8` with at
/// most 6 fractional digits. For the smallest `d ≤ 6` such that `n / 10^d`
/// (a correctly rounded division, i.e. exactly what parsing the decimal
/// `n·10^-d` gives) equals `x`, that decimal is a round-tripping string with
/// the fewest significant digits, and the only one of that length (so it is
/// what repr prints, no tie to break): `n ± 1` differ from it by `10^-d ≥
/// 10^-6`, far more than the spacing of doubles below 1e8 (≤ 1.5·10^-8), so
/// they cannot round to `x`. In this range `x·10^6` is far below 2^53 and its rounding error is
/// under 0.02, so `n6 = round(x·10^6)` is the only 6-place candidate, and a
/// shorter decimal `n·10^-d` that parses to `x` is the same number, so `n` is
/// `n6` without its trailing zeros: one multiplication finds `d`. Python
/// prints this range in fixed notation with at least one fractional digit.
/// Returns false (writing nothing) when the fast path does not apply.
fn write_repr_short_fixed(x: f64, out: &mut String) -> bool {
    let a = x.abs();
    if !(1e-4..1e8).contains(&a) {
        return false;
    }
    let n6 = (a * 1e6).round();
    if n6 / 1e6 != a {
        return false;
    }
    let (mut n, mut d) = (n6 as u64, 6);
    while d > 0 && n % 10 == 0 {
        n /= 10;
        d -= 1;
    }
    let (int, frac) = (n / 10u64.pow(d as u32), n % 10u64.pow(d as u32));
    if x < 0.0 {
        out.push('-');
    }
    let mut buf = itoa_u64(int);
    out.push_str(buf.as_str());
    out.push('.');
    if d == 0 {
        out.push('0');
    } else {
        buf = itoa_u64(frac);
        for _ in buf.as_str().len()..d {
            out.push('0');
        }
        out.push_str(buf.as_str());
    }
    true
}

/// Decimal digits of `v` in a stack buffer.
struct Digits {
    buf: [u8; 20],
    start: usize,
}

impl Digits {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[self.start..]).unwrap_or("")
    }
}

fn itoa_u64(mut v: u64) -> Digits {
    let mut d = Digits { buf: [b'0'; 20], start: 20 };
    loop {
        d.start -= 1;
        d.buf[d.start] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            return d;
        }
    }
}

/// The general [`write_repr`] for finite non-zero `x` (any magnitude).
pub fn write_repr_general(x: f64, out: &mut String) {
    // `{:e}` prints the shortest round-trip digits: "d[.ddd]e<exp>".
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    if let Some(even) = tie_to_even(x.abs(), &digits, exp) {
        digits = even;
    }
    let n = digits.len() as i32;
    let decpt = exp + 1;
    if x < 0.0 {
        out.push('-');
    }
    if -4 < decpt && decpt <= 16 {
        if decpt <= 0 {
            out.push_str("0.");
            for _ in 0..(-decpt) {
                out.push('0');
            }
            out.push_str(&digits);
        } else if decpt < n {
            out.push_str(&digits[..decpt as usize]);
            out.push('.');
            out.push_str(&digits[decpt as usize..]);
        } else {
            out.push_str(&digits);
            for _ in 0..(decpt - n) {
                out.push('0');
            }
            out.push_str(".0");
        }
    } else {
        out.push_str(&digits[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let e = exp.unsigned_abs();
        if e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
    }
}

/// Python's repr (David Gay's dtoa, mode 0) breaks an exact tie between two
/// shortest digit strings to the even last digit; Rust's `{:e}` may pick the
/// odd one (`1250457562980053.25` → Python `…053.2`, Rust `…053.3`). Given
/// Rust's shortest `digits` (value `digits × 10^(exp-n+1)`) for `x > 0`,
/// return the even alternative when `x` lies exactly halfway and the
/// alternative also round-trips.
fn tie_to_even(x: f64, digits: &str, exp: i32) -> Option<String> {
    let n = digits.len();
    if n == 0 || n > 17 || digits.as_bytes()[n - 1] % 2 == 0 {
        return None;
    }
    let d: u64 = digits.parse().ok()?;
    let q = exp - n as i32 + 1;
    // x = m · 2^e exactly.
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if biased == 0 { (frac, -1074) } else { (frac | (1u64 << 52), biased - 1075) };
    // Split v into (v', twos, fives) with v' coprime to 10.
    fn split(mut v: u64) -> (u64, i32, i32) {
        let (mut twos, mut fives) = (0, 0);
        while v != 0 && v % 2 == 0 {
            v /= 2;
            twos += 1;
        }
        while v != 0 && v % 5 == 0 {
            v /= 5;
            fives += 1;
        }
        (v, twos, fives)
    }
    let (m1, a1, b1) = split(m);
    for (twice, alt) in [(2 * d - 1, d - 1), (2 * d + 1, d + 1)] {
        // x == twice/2 · 10^q  ⇔  m · 2^(e+1) == twice · 2^q · 5^q
        let (r1, a2, b2) = split(twice);
        if m1 == r1 && a1 + e + 1 == a2 + q && b1 == b2 + q {
            let alt_s = alt.to_string();
            if alt_s.len() != n || alt_s.ends_with('0') {
                continue;
            }
            let back: f64 = format!("{alt_s}e{q}").parse().ok()?;
            if back == x {
                return Some(alt_s);
            }
        }
    }
    None
}

/// Python `round(x, 6)`: the decimal with 6 places nearest to the exact
/// binary value of `x` (ties to even only on exact ties), as the nearest
/// double. Rust's `{:.6}` formatting is exact, so formatting and parsing back
/// gives the same result (verified against CPython on 702k values, spec §3.2).
pub fn round6(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    // Fast path (no formatting): for |x·10⁶| < 2³⁰ the product `s` is within
    // half an ulp (≤ 2⁻²³) of the exact x·10⁶, so unless its fraction is
    // within 1e-6 of one half, `s.round()` is the integer nearest to the
    // exact value, i.e. the 6-place decimal Python picks; and n / 10⁶ (both
    // exact doubles, one correctly rounded division) is the double nearest
    // to that decimal, as Python returns. Near-ties and large magnitudes
    // take the exact path below.
    let s = x * 1e6;
    if s.abs() < (1u64 << 30) as f64 {
        let frac = s - s.floor();
        if (frac - 0.5).abs() > 1e-6 {
            let r = s.round() / 1e6;
            // Python keeps the sign of zero: round(-1e-9, 6) == -0.0.
            return if r == 0.0 {
                if x.is_sign_negative() {
                    -0.0
                } else {
                    0.0
                }
            } else {
                r
            };
        }
    }
    round6_exact(x)
}

/// [`round6`] by exact decimal formatting (Rust's `{:.6}` is exact) and
/// parsing back: the reference method, used for near-ties and large values.
pub fn round6_exact(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let r: f64 = format!("{:.6}", x).parse().unwrap_or(x);
    // Python keeps the sign of zero: round(-1e-9, 6) == -0.0.
    if r == 0.0 {
        return if x.is_sign_negative() { -0.0 } else { 0.0 };
    }
    r
}

/// CPython 3.12 `sum(values)` for floats (start value int 0): Neumaier
/// compensated summation (spec §6.3). For an empty input returns `0.0`
/// (Python would return the int 0; callers never sum nothing).
pub fn sum_py312(values: &[f64]) -> f64 {
    let mut iter = values.iter().copied();
    let mut f = match iter.next() {
        Some(first) => first,
        None => return 0.0,
    };
    let mut c = 0.0f64;
    for p in iter {
        let t = f + p;
        if f.abs() >= p.abs() {
            c += (f - t) + p;
        } else {
            c += (p - t) + f;
        }
        f = t;
    }
    if c != 0.0 && c.is_finite() {
        f += c;
    }
    f
}

/// The outcome of Python `float(v)` for a JSON value ([`crate::json::Value::py_float`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PyFloat {
    /// The float value.
    Ok(f64),
    /// `float()` raises TypeError or ValueError (the scorer maps this to 0.0).
    Invalid,
    /// `float(int)` raises OverflowError: the integer is too large for a double.
    Overflow,
}

/// Python `float(int)`: correctly rounded (round-half-even), OverflowError
/// when the result would be infinite.
pub fn int_to_f64(digits: &str) -> PyFloat {
    match digits.parse::<f64>() {
        Ok(f) if f.is_finite() => PyFloat::Ok(f),
        Ok(_) => PyFloat::Overflow,
        Err(_) => PyFloat::Invalid,
    }
}

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
fn parse_decimal_literal(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut clean = String::with_capacity(b.len());
    let mut i = 0;
    let mut mantissa_digits = 0;
    // integer part
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        if b[i] == b'_' {
            if !(i > 0 && b[i - 1].is_ascii_digit() && i + 1 < b.len() && b[i + 1].is_ascii_digit()) {
                return None;
            }
        } else {
            clean.push(b[i] as char);
            mantissa_digits += 1;
        }
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        clean.push('.');
        i += 1;
        let start = i;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            if b[i] == b'_' {
                if !(i > start && b[i - 1].is_ascii_digit() && i + 1 < b.len() && b[i + 1].is_ascii_digit()) {
                    return None;
                }
            } else {
                clean.push(b[i] as char);
                mantissa_digits += 1;
            }
            i += 1;
        }
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
        let start = i;
        let mut exp_digits = 0;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            if b[i] == b'_' {
                if !(i > start && b[i - 1].is_ascii_digit() && i + 1 < b.len() && b[i + 1].is_ascii_digit()) {
                    return None;
                }
            } else {
                clean.push(b[i] as char);
                exp_digits += 1;
            }
            i += 1;
        }
        if exp_digits == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    clean.parse::<f64>().ok()
}

/// The scorer's `clamp` on a double: NaN and ±infinity give 0.0; otherwise
/// `min(1.0, max(0.0, x))` with Python's tie rules, so `-0.0` gives `+0.0`.
pub fn clamp01(x: f64) -> f64 {
    if !x.is_finite() {
        return 0.0;
    }
    let y = if x > 0.0 { x } else { 0.0 };
    if y < 1.0 {
        y
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_fixed_is_general_on_rounded_scores() {
        // Every 6-place value in [0, 1] and its neighbours after round6 (what
        // the batch's compact columns print), plus edge cases.
        let check = |v: f64| {
            let (mut a, mut b) = (String::new(), String::new());
            write_repr(v, &mut a);
            if v.is_finite() && v != 0.0 {
                write_repr_general(v, &mut b);
            } else {
                b = a.clone();
            }
            assert_eq!(a, b, "{v:e}");
        };
        for k in 0..=1_000_000u32 {
            let v = k as f64 / 1e6;
            check(v);
            check(round6(v + 3e-7));
            check(round6(v - 4e-7));
        }
        for v in [-0.0, 1e-5, 5e-5, 0.1 + 0.2, 1.0 - 1e-12, 1.5, 2.0, -0.5, f64::NAN, f64::INFINITY, 1e-300] {
            check(v);
        }
    }

    #[test]
    fn repr_matches_python() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (0.1, "0.1"),
            (1.5, "1.5"),
            (0.0001, "0.0001"),
            (1.5e-5, "1.5e-05"),
            (1e-7, "1e-07"),
            (-1e-7, "-1e-07"),
            (1e16, "1e+16"),
            (9999999999999998.0, "9999999999999998.0"),
            (1.2345678901234568e17, "1.2345678901234568e+17"),
            (123456789.0, "123456789.0"),
            (1e22, "1e+22"),
            (1e300, "1e+300"),
            (5e-324, "5e-324"),
            (100000.0, "100000.0"),
            (0.30000000000000004, "0.30000000000000004"),
            // Exact ties between two shortest strings go to the even digit.
            // (-1250457562980053.2 parses to the double -1250457562980053.25.)
            (-1250457562980053.2, "-1250457562980053.2"),
            (f64::NAN, "nan"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
        ];
        for (x, want) in cases {
            assert_eq!(repr(*x), *want, "repr({x:e})");
        }
    }

    #[test]
    fn round6_is_python_round() {
        assert_eq!(round6(1.0 / 128.0), 0.007812);
        assert_eq!(round6(127.0 / 128.0), 0.992188);
        assert_eq!(round6(5e-7), 0.0);
        assert_eq!(round6(0.9999995), 1.0);
        assert_eq!(round6(0.6154), 0.6154);
        assert_eq!(round6(2.0 / 3.0), 0.666667);
        assert!(round6(-1e-9).is_sign_negative());
    }

    #[test]
    fn sum_is_cpython_312_neumaier() {
        // Spec §6.3: compensated summation can differ from left-to-right.
        let xs = [0.1, 0.2, 0.3];
        let naive: f64 = xs.iter().sum();
        assert_eq!(naive, 0.6000000000000001);
        assert_eq!(sum_py312(&xs), 0.6);
        assert_eq!(sum_py312(&[1e100, 1.0, -1e100]), 1.0);
        assert_eq!(sum_py312(&[0.5]), 0.5);
    }

    #[test]
    fn float_parsing_is_lenient_like_python() {
        assert_eq!(parse_py_float("1e-1"), Some(0.1));
        assert_eq!(parse_py_float(" 0.9 "), Some(0.9));
        assert_eq!(parse_py_float("1_0"), Some(10.0));
        assert_eq!(parse_py_float("1__0"), None);
        assert_eq!(parse_py_float("_1"), None);
        assert_eq!(parse_py_float("1_"), None);
        assert_eq!(parse_py_float("1_.5"), None);
        assert_eq!(parse_py_float("\u{FF10}.\u{FF15}"), Some(0.5));
        assert_eq!(parse_py_float("\u{0661}.\u{0665}"), Some(1.5));
        assert_eq!(parse_py_float(".5"), Some(0.5));
        assert_eq!(parse_py_float("5."), Some(5.0));
        assert_eq!(parse_py_float("."), None);
        assert_eq!(parse_py_float("abc"), None);
        assert_eq!(parse_py_float(""), None);
        assert!(parse_py_float("-NaN").unwrap().is_nan());
        assert_eq!(parse_py_float("+Infinity"), Some(f64::INFINITY));
        assert_eq!(parse_py_float("-inf"), Some(f64::NEG_INFINITY));
        assert_eq!(parse_py_float("infinit"), None);
        // CPython strips only C-isspace ASCII: U+001C-001F make float() raise (oracle finding).
        assert_eq!(parse_py_float("\x1c1\x1f"), None);
        assert_eq!(parse_py_float("\x1f0.7"), None);
        assert_eq!(parse_py_float("0.7\x1c"), None);
        assert_eq!(parse_py_float("\t\n\x0b\x0c\r 0.7 \u{85}\u{a0}\u{3000}"), Some(0.7));
        assert_eq!(parse_py_float("1e5_0"), Some(1e50));
        assert_eq!(parse_py_float("0x10"), None);
    }

    #[test]
    fn clamp_has_python_tie_semantics() {
        assert!(clamp01(-0.0).is_sign_positive());
        assert_eq!(clamp01(f64::INFINITY), 0.0);
        assert_eq!(clamp01(f64::NAN), 0.0);
        assert_eq!(clamp01(1.5), 1.0);
        assert_eq!(clamp01(0.25), 0.25);
    }
}
