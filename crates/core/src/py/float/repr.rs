//! Printing: Python `repr(float)` ([`repr`], [`write_repr`]: a fixed-notation
//! fast path for the scorer's short values, the general layout), `str(int(x))`
//! ([`int_str`]) and the reports' Rust-style text ([`RustDisplay`]).

#[allow(unused_imports)]
use super::*;

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
pub(super) fn write_repr_short_fixed(x: f64, out: &mut String) -> bool {
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
pub(super) struct Digits {
    pub(super) buf: [u8; 20],
    pub(super) start: usize,
}

impl Digits {
    pub(super) fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[self.start..]).unwrap_or("")
    }
}

pub(super) fn itoa_u64(mut v: u64) -> Digits {
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
    let (digits, exp) = shortest_digits(x.abs(), true);
    let digits = digits.as_str();
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
            out.push_str(digits);
        } else if decpt < n {
            out.push_str(&digits[..decpt as usize]);
            out.push('.');
            out.push_str(&digits[decpt as usize..]);
        } else {
            out.push_str(digits);
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
        out.push_str(itoa_u64(e as u64).as_str());
    }
}

/// Rust's `{}` (`Display`) text of an `f64`, which the verification
/// reports' messages have always printed: the shortest round-trip digits
/// (an exact tie rounded up, not to even), in plain decimal notation (no
/// exponent, no `.0` after an integer), `NaN`, `inf`, `-inf`, `-0`. Printed
/// here so that the wasm build carries no second float printer.
#[derive(Clone, Copy, Debug)]
pub struct RustDisplay(pub f64);

impl std::fmt::Display for RustDisplay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = self.0;
        if x.is_nan() {
            return f.write_str("NaN");
        }
        if x.is_sign_negative() {
            f.write_str("-")?;
        }
        let a = x.abs();
        if a.is_infinite() {
            return f.write_str("inf");
        }
        if a == 0.0 {
            return f.write_str("0");
        }
        let (digits, exp) = shortest_digits(a, false);
        let digits = digits.as_str();
        let (n, decpt) = (digits.len() as i32, exp + 1);
        if decpt <= 0 {
            f.write_str("0.")?;
            for _ in 0..-decpt {
                f.write_str("0")?;
            }
            f.write_str(digits)
        } else if decpt < n {
            f.write_str(&digits[..decpt as usize])?;
            f.write_str(".")?;
            f.write_str(&digits[decpt as usize..])
        } else {
            f.write_str(digits)?;
            for _ in 0..decpt - n {
                f.write_str("0")?;
            }
            Ok(())
        }
    }
}

/// Python `str(int(x))` for an integral finite double (`-0.0` gives "0").
pub fn int_str(x: f64) -> String {
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    let (m, e) = decode(x.abs());
    if e <= 0 {
        out.push_str(itoa_u64(m >> (-e).min(63)).as_str());
    } else {
        let d = ExactDec::of(m, e);
        for i in 0..d.dp {
            out.push((b'0' + d.d.get(i as usize).copied().unwrap_or(0)) as char);
        }
    }
    out
}
