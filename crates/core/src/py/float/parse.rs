//! Reading: [`parse_f64`], the crate's one correctly rounded decimal reader
//! (Clinger's fast path, then Eisel–Lemire (`lemire`), then exact
//! arithmetic), and Python `float(int)` ([`int_to_f64`]).

#[allow(unused_imports)]
use super::*;

/// A decimal literal `[+-]digits[.digits][(e|E)[+-]digits]` (digits on
/// either side of the point may be missing, not both) as the nearest double,
/// ties to even, overflowing to ±infinity: what `str::parse::<f64>` returns
/// for that syntax (and `None` for anything else, `inf`/`nan` included).
/// Every caller passes text already checked to be such a literal (a JSON
/// number, an integer's digits, a cleaned Python float literal); this is the
/// crate's one decimal reader, so that the wasm build carries none of
/// core's (its 10 KB power-of-five table).
///
/// Up to 19 significant digits forming an integer `w ≤ 2^53` scaled by
/// `10^p`, `|p| ≤ 22`, take one correctly rounded multiplication or
/// division of two exact doubles (Clinger's fast path: JSON's usual
/// numbers). Otherwise Eisel–Lemire (`py::float::lemire`, its power-of-five
/// table computed on first use) on the first 19 digits, with the `w` /
/// `w + 1` agreement check past 19 digits; where that cannot decide (more
/// than 19 digits straddling a halfway point, or a product whose truncation
/// error reaches the halfway bit), exact decimal arithmetic: the value is
/// halved or doubled into `[1/2, 1)`, then its top 53 bits (fewer for
/// subnormals) are the mantissa, rounded half-even on the exact rest.
/// Significant digits
/// past the 800th are replaced by one sticky `1` at the 801st place when any
/// of them is non-zero (the 800 kept digits stay as they are, trailing zeros
/// included): the exact value and the shortened one then lie strictly between
/// the same two multiples of the 800th place, and no double or halfway point
/// between two (at most 767 significant digits) lies strictly between those.
pub fn parse_f64(s: &str) -> Option<f64> {
    read_decimal(s, true)
}

/// [`parse_f64`]; with `approx` false straight to the exact path after
/// Clinger's (what the tests compare the faster paths against).
pub(super) fn read_decimal(s: &str, approx: bool) -> Option<f64> {
    let b = s.as_bytes();
    let neg = b.first() == Some(&b'-');
    let mut i = matches!(b.first(), Some(b'-' | b'+')) as usize;
    // One pass over the syntax: the first 19 significant digits as `w`, the
    // count `n` of significant digits (no leading zeros) and the decimal
    // exponent `dp` of the point after them (value = 0.digits × 10^dp).
    let (mut w, mut n, mut dp) = (0u64, 0i64, 0i64);
    let (mut seen, mut point) = (false, false);
    let digits_start = i;
    while i < b.len() {
        match b[i] {
            c @ b'0'..=b'9' => {
                seen = true;
                if n == 0 && c == b'0' {
                    dp -= point as i64;
                } else if n >= 19 {
                    // Past the digits `w` keeps: only counted (a tight loop,
                    // for long mantissas).
                    let start = i;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    n += (i - start) as i64;
                    dp += if point { 0 } else { (i - start) as i64 };
                    continue;
                } else {
                    if n < 19 {
                        w = w * 10 + (c - b'0') as u64;
                    }
                    n += 1;
                    dp += !point as i64;
                }
            }
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    let digits_end = i;
    if !seen {
        return None;
    }
    if i < b.len() {
        if b[i] != b'e' && b[i] != b'E' {
            return None;
        }
        i += 1;
        let eneg = b.get(i) == Some(&b'-');
        i += matches!(b.get(i), Some(b'-' | b'+')) as usize;
        let start = i;
        let mut e: i64 = 0;
        while let Some(c @ b'0'..=b'9') = b.get(i).copied() {
            e = (e * 10 + (c - b'0') as i64).min(1 << 40);
            i += 1;
        }
        if i == start || i != b.len() {
            return None;
        }
        dp += if eneg { -e } else { e };
    }
    let a = if n == 0 {
        0.0
    } else if let Some(a) = fast_path(w, n, dp).or_else(|| if approx { lemire_path(w, n, dp) } else { None }) {
        a
    } else {
        // The significant digits again, for the exact path.
        let mut digits: Vec<u8> = Vec::with_capacity(n.min(801) as usize);
        let mut sticky = false;
        for &c in &b[digits_start..digits_end] {
            if c == b'.' || (digits.is_empty() && c == b'0') {
                continue;
            }
            if digits.len() < 800 {
                digits.push(c - b'0');
            } else if c != b'0' {
                sticky = true;
            }
        }
        if sticky {
            // The 801st place, after all 800 kept digits (zeros included).
            digits.push(1);
        } else {
            while digits.last() == Some(&0) {
                digits.pop();
            }
        }
        magnitude(digits, dp)
    };
    Some(if neg { -a } else { a })
}

/// Clinger's fast path: `n ≤ 19` significant digits forming `w ≤ 2^53`,
/// times `10^p` with `|p| ≤ 22`: one correctly rounded operation on two
/// exact doubles.
pub(super) fn fast_path(w: u64, n: i64, dp: i64) -> Option<f64> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ];
    let p = dp - n;
    if n > 19 || w > 1 << 53 || !(-22..=22).contains(&p) {
        return None;
    }
    let w = w as f64;
    Some(if p >= 0 { w * POW10[p as usize] } else { w / POW10[(-p) as usize] })
}

/// Eisel–Lemire ([`super::lemire`]) on the first 19 significant digits `w`
/// and their scale `10^q`. With at most 19 digits that is the value itself.
/// With more, the value lies in `[w · 10^q, (w + 1) · 10^q)` (the digits
/// past the 19th are a fraction of its last unit), and rounding is
/// monotonic: when both ends read as the same double, so does the value
/// (the check of core's `parse_number`). `None` when the algorithm cannot
/// decide or the ends differ: the exact path decides.
pub(super) fn lemire_path(w: u64, n: i64, dp: i64) -> Option<f64> {
    let q = dp - n.min(19);
    let bits = super::lemire::compute_float(q, w)?;
    // w has 19 digits here, so w + 1 ≤ 10^19 < 2^64.
    if n > 19 && super::lemire::compute_float(q, w + 1)? != bits {
        return None;
    }
    Some(f64::from_bits(bits))
}

/// The double nearest to `0.digits × 10^dp` (digits without leading or
/// trailing zeros; empty for zero).
pub(super) fn magnitude(digits: Vec<u8>, dp: i64) -> f64 {
    if digits.is_empty() {
        return 0.0;
    }
    if dp > 310 {
        return f64::INFINITY;
    }
    if dp < -324 {
        return 0.0;
    }
    let mut x = ExactDec { d: digits, dp: dp as i32 };
    // value = x · 2^e2; bring x into [1/2, 1).
    let mut e2: i32 = 0;
    while x.dp > 0 {
        let s = (3 * x.dp).clamp(1, 59);
        x.div_pow2(s as u32);
        e2 += s;
    }
    while x.dp < 0 || x.d[0] < 5 {
        let s = if x.dp < 0 { (-3 * x.dp).min(59) } else { 1 };
        x.mul_pow2(s as u32);
        e2 -= s;
    }
    // value = 0.5..1 × 2^e2 = m · 2^(e2 - bits) with 2^(bits-1) <= m < 2^bits.
    if e2 > 1024 {
        return f64::INFINITY;
    }
    let bits = (e2 + 1074).min(53);
    if bits < 0 {
        return 0.0;
    }
    let mut q = bits;
    while q > 0 {
        let s = q.min(59);
        x.mul_pow2(s as u32);
        q -= s;
    }
    while x.d.last() == Some(&0) {
        x.d.pop();
    }
    // Integer part (≤ 2^53) and the rest against one half.
    let int_len = x.dp.max(0) as usize;
    let mut m = 0u64;
    for i in 0..int_len {
        m = m * 10 + x.d.get(i).copied().unwrap_or(0) as u64;
    }
    let up = match x.rest_vs_half(x.dp, x.dp) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => m % 2 == 1,
        std::cmp::Ordering::Less => false,
    };
    let m = m + up as u64;
    // m · 2^(e2 - bits); m may have carried to 2^53 (or a subnormal to the
    // smallest normal), which the multiplication by a power of two keeps exact.
    let e = e2 - bits;
    if e > 971 || (e == 971 && m >= 1 << 53) {
        return f64::INFINITY;
    }
    ldexp(m as f64, e)
}

/// `m · 2^e` for an integer `m < 2^54` whose result is a double (no rounding).
pub(super) fn ldexp(m: f64, e: i32) -> f64 {
    let mut x = m;
    let mut e = e;
    while e > 0 {
        let s = e.min(1000);
        x *= f64::from_bits(((1023 + s) as u64) << 52);
        e -= s;
    }
    // Every step is exact: each intermediate is m · 2^k between m and the
    // (representable) result.
    while e < 0 {
        let s = (-e).min(1022);
        x /= f64::from_bits(((1023 + s) as u64) << 52);
        e += s;
    }
    x
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
    match parse_f64(digits) {
        Some(f) if f.is_finite() => PyFloat::Ok(f),
        Some(_) => PyFloat::Overflow,
        None => PyFloat::Invalid,
    }
}
