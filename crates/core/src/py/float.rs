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
//! * [`parse_f64`]: the one correctly rounded decimal reader; with
//!   [`int_str`] (`str(int(x))`) and [`RustDisplay`] (the reports' Rust-style
//!   float text) the float printing and reading of the whole crate, in exact
//!   decimal arithmetic without tables, so the wasm carries neither core's
//!   float formatting (Grisu/Dragon) nor its parser's compiled-in
//!   power-of-five table (`parse_f64`'s Eisel–Lemire step computes the same
//!   table at first use, `py::lemire`).
//!
//! **The decimal reader is this module's, not core's, by measurement**
//! (BENCHMARKS.md, "Numbers"): Rust core's `str::parse::<f64>` would add
//! 13.5 KB gzip to the wasm (its power-of-five table and slow path), past the
//! 200 KB budget. `parse_f64` runs core's fast algorithms (Clinger, then
//! Eisel–Lemire on a table computed at first use) and falls back to its own
//! exact decimal arithmetic only where they cannot decide; it is correctly
//! rounded for every length and exponent (any number of digits, 800 kept
//! plus a sticky digit) and linear in its input. It is proven against CPython's
//! `float()` and `json.loads` by `tests/numbers/` (offline 10,000,000
//! adversarial spellings, 200,000 per CI run). Every number path of the
//! crate reads through it: JSON float lexemes and integers (`int_to_f64`),
//! Python `float(str)` ([`parse_py_float`]), the seconds of a time delta
//! (`py::time`), the wasm and review conversions of integers.
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

/// `x = m · 2^e` exactly (`m < 2^53`), for finite `x ≥ 0`.
fn decode(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), biased - 1075)
    }
}

/// Python's repr digits (David Gay's dtoa, mode 0) of a finite `x > 0`: the
/// shortest decimal that reads back as `x` (round-half-even reading: the
/// halfway points to the neighbouring doubles belong to `x` when its
/// mantissa is even), and of those the nearest to `x`, an exact tie going to
/// the even last digit (to the larger one with `ties_even` false, as Rust's
/// own float formatting does). Returns the digits (no trailing zero) and the
/// decimal exponent of the first one (`x ≈ d.ddd × 10^exp`).
///
/// Exact decimal arithmetic, no tables: the halfway points `L < x < H` are
/// written out exactly; for k = 1, 2, ... significant places (counted from
/// the first place of `H`) the k-place decimals inside the interval are
/// `lo..=hi`, and the first k where that range is not empty is the shortest
/// length; the answer is `x` rounded to k places (half-even), clamped into it.
fn shortest_digits(x: f64, ties_even: bool) -> (Digits, i32) {
    let (m, e) = decode(x);
    let (mut r, pos) = match shortest_fast(m, e, ties_even) {
        Some(found) => found,
        None => shortest_exact(m, e, ties_even),
    };
    let mut zeros = 0;
    while r != 0 && r % 10 == 0 {
        r /= 10;
        zeros += 1;
    }
    let d = itoa_u64(r);
    let n = (d.buf.len() - d.start) as i32;
    (d, pos + zeros + n - 1)
}

/// [`shortest_exact`] in 128-bit integers, for the doubles where that is
/// exact: normal, not a power of two (whose interval is lopsided), and
/// `2^-69 ≤ ulp ≤ 1`, i.e. about `7.6e-6 ≤ x < 2^53`. The interval ends
/// `(2m ± 1) · 2^(e-1)` and `x = 2m · 2^(e-1)`, scaled by `10^-pos` for a
/// last place `10^pos < 1` (at most `10^22 · 2^54 < 2^128`), are divided
/// by `2^(1-e)` (a shift) or, for `pos ≥ 0`, by `2^(1-e) · 10^pos`, with
/// the very rules of [`shortest_exact`]. `None` elsewhere.
///
/// The places are found by bisection (about four probes), not one by one.
fn shortest_fast(m: u64, e: i32, ties_even: bool) -> Option<(u64, i32)> {
    use std::cmp::Ordering;
    if m <= 1 << 52 || !(-69..=0).contains(&e) {
        return None;
    }
    let s = (1 - e) as u32;
    let mask = (1u128 << s) - 1;
    // a / (2^s · 10^p) for a < 2^128 (p = 0) or a < 2^64 (p > 0): the
    // quotient, and the remainder against half the divisor.
    let div = |a: u128, p: u32| -> (u128, Ordering, bool) {
        let (q1, r1) = (a >> s, a & mask);
        let (q, r2) = if p == 0 { (q1, 0) } else { (q1 / POW10_U128[p as usize], q1 % POW10_U128[p as usize]) };
        let r = (r2 << s) | r1;
        let den = (1u128 << s) * POW10_U128[p as usize];
        (q, (2 * r).cmp(&den), r == 0)
    };
    let inclusive = m % 2 == 0;
    let m2 = 2 * m as u128;
    let factor = |pos: i32| if pos < 0 { (POW10_U128[(-pos) as usize], 0) } else { (1, pos as u32) };
    // The candidates lo..=hi for a last place 10^pos (empty when lo > hi).
    let range = |pos: i32| -> (i128, i128) {
        let (f, p) = factor(pos);
        let (ht, _, h_exact) = div((m2 + 1) * f, p);
        let (lt, _, l_exact) = div((m2 - 1) * f, p);
        let hi = if !h_exact || inclusive { ht as i128 } else { ht as i128 - 1 };
        let lo = if !l_exact || !inclusive { lt as i128 + 1 } else { lt as i128 };
        (lo, hi)
    };
    // A place that has candidates only if every lower one has (multiples of
    // 10^p are multiples of 10^(p-1)): the shortest is the highest such
    // place, found by bisection between `good`, where the interval (as wide
    // as 2^e >= 10^good) must hold one, and `bad`, above the first digit
    // (floor(log10 2^(e+52)) <= floor(log10 x) <= that + 1, and one place spare).
    let mut good = (((e as i64) * 78913) >> 18) as i32 - 1;
    let mut bad = ((((e + 52) as i64) * 78913) >> 18) as i32 + 3;
    let (lo, hi) = range(good);
    if lo > hi {
        return None;
    }
    let (mut lo, mut hi) = (lo, hi);
    while bad - good > 1 {
        let mid = (good + bad).div_euclid(2);
        let (l, h) = range(mid);
        if l <= h {
            (good, lo, hi) = (mid, l, h);
        } else {
            bad = mid;
        }
    }
    let (f, p) = factor(good);
    let (xt, vs_half, _) = div(m2 * f, p);
    let up = match vs_half {
        Ordering::Greater => true,
        Ordering::Equal => !ties_even || xt % 2 == 1,
        Ordering::Less => false,
    };
    let r = (xt as i128 + up as i128).clamp(lo, hi);
    u64::try_from(r).ok().map(|r| (r, good))
}

/// 10^0 ..= 10^22 as 128-bit integers.
const POW10_U128: [u128; 23] = {
    let mut t = [1u128; 23];
    let mut i = 1;
    while i < 23 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// [`shortest_digits`] by exact decimal arithmetic, for every double: the
/// nearest shortest decimal as an integer `r` (trailing zeros allowed) and
/// the place `10^pos` of its last digit.
fn shortest_exact(m: u64, e: i32, ties_even: bool) -> (u64, i32) {
    // The gap below a power of two is half the gap above (not below the
    // smallest normal, whose lower neighbour is a subnormal as far away).
    let low_gap = if m == 1u64 << 52 && e > -1074 { 1 } else { 2 };
    let inclusive = m % 2 == 0;
    let xd = ExactDec::of(4 * m, e - 2);
    let hd = ExactDec::of(4 * m + 2, e - 2);
    let ld = ExactDec::of(4 * m - low_gap, e - 2);
    let top = hd.dp;
    let mut k = 1;
    let (lo, hi) = loop {
        let (ht, h_rest) = hd.places(top, k);
        let hi = if h_rest || inclusive { ht } else { ht - 1 };
        let (lt, l_rest) = ld.places(top, k);
        let lo = if l_rest || !inclusive { lt + 1 } else { lt };
        if lo <= hi || k >= 20 {
            break (lo, hi);
        }
        k += 1;
    };
    let (xt, _) = xd.places(top, k);
    let up = match xd.rest_vs_half(top, k) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => !ties_even || xt % 2 == 1,
        std::cmp::Ordering::Less => false,
    };
    ((xt + up as i128).clamp(lo, hi) as u64, top - k)
}

/// An exact decimal: `0.d₀d₁d₂… × 10^dp`, digits `0..=9`, the first and
/// last non-zero (empty for zero).
struct ExactDec {
    d: Vec<u8>,
    dp: i32,
}

impl ExactDec {
    /// The exact decimal of `n · 2^q`.
    fn of(n: u64, q: i32) -> ExactDec {
        let d: Vec<u8> = itoa_u64(n).as_str().bytes().map(|b| b - b'0').collect();
        let mut x = ExactDec { dp: d.len() as i32, d };
        let mut q = q;
        while q > 0 {
            let s = q.min(59);
            x.mul_pow2(s as u32);
            q -= s;
        }
        while q < 0 {
            let s = (-q).min(59);
            x.div_pow2(s as u32);
            q += s;
        }
        while x.d.last() == Some(&0) {
            x.d.pop();
        }
        x
    }

    /// `self · 2^s`, `s ≤ 59` (9 · 2^59 plus a carry below 2^60 fits a u64).
    fn mul_pow2(&mut self, s: u32) {
        let mut carry = 0u64;
        for digit in self.d.iter_mut().rev() {
            let v = ((*digit as u64) << s) + carry;
            *digit = (v % 10) as u8;
            carry = v / 10;
        }
        let mut head = Vec::new();
        while carry > 0 {
            head.push((carry % 10) as u8);
            carry /= 10;
        }
        self.dp += head.len() as i32;
        head.reverse();
        head.extend_from_slice(&self.d);
        self.d = head;
    }

    /// `self / 2^s`, `s ≤ 59`, exactly (the quotient of a decimal by a power
    /// of two ends after at most `s` more places).
    fn div_pow2(&mut self, s: u32) {
        let mask = (1u64 << s) - 1;
        let mut out = Vec::with_capacity(self.d.len() + s as usize);
        let (mut rem, mut i) = (0u64, 0);
        loop {
            match self.d.get(i) {
                Some(&digit) => rem = rem * 10 + digit as u64,
                None if rem == 0 => break,
                None => rem *= 10,
            }
            i += 1;
            let q = rem >> s;
            rem &= mask;
            if out.is_empty() && q == 0 {
                self.dp -= 1;
            } else {
                out.push(q as u8);
            }
        }
        self.d = out;
    }

    /// Index in `d` of the place `10^(top - k - 1)`, the first one after the
    /// `k` places that start at `10^(top - 1)`.
    fn cut(&self, top: i32, k: i32) -> i32 {
        k + self.dp - top
    }

    /// The `k` places from `10^(top - 1)` down as an integer, and whether
    /// any non-zero digit follows them.
    fn places(&self, top: i32, k: i32) -> (i128, bool) {
        let cut = self.cut(top, k);
        let mut v = 0i128;
        for i in cut - k..cut {
            let digit = if i >= 0 { self.d.get(i as usize).copied().unwrap_or(0) } else { 0 };
            v = v * 10 + digit as i128;
        }
        (v, self.d.len() as i32 > cut.max(0))
    }

    /// What follows the `k` places from `10^(top - 1)`, against one half of
    /// the last of them.
    fn rest_vs_half(&self, top: i32, k: i32) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        // Before the first digit (cut < 0) the next place is a leading zero.
        let cut = self.cut(top, k);
        match self.d.get(usize::try_from(cut).unwrap_or(usize::MAX)) {
            Some(&5) if self.d.len() as i32 == cut + 1 => Equal,
            Some(&digit) if digit >= 5 => Greater,
            _ => Less,
        }
    }
}

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
/// numbers). Otherwise Eisel–Lemire (`py::lemire`, its power-of-five
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
fn read_decimal(s: &str, approx: bool) -> Option<f64> {
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
fn fast_path(w: u64, n: i64, dp: i64) -> Option<f64> {
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
fn lemire_path(w: u64, n: i64, dp: i64) -> Option<f64> {
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
fn magnitude(digits: Vec<u8>, dp: i64) -> f64 {
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
fn ldexp(m: f64, e: i32) -> f64 {
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

/// [`round6`] by exact arithmetic: the reference method, used for
/// near-ties and large values. With `x = m · 2^e`: for `e ≥ -19` the spacing
/// of doubles at `x` is above 10⁻⁶, so the 6-place decimal nearest to `x`
/// (at most 5·10⁻⁷ away) has `x` as its nearest double; below, `x·10⁶ =
/// m·10⁶ / 2^-e` with `m·10⁶ < 2^73`, rounded half-even to the integer `q <
/// 2^53`, and `q / 10⁶` (one correctly rounded division of two exact
/// doubles) is the double nearest to the decimal `q·10⁻⁶`, as Python returns.
pub fn round6_exact(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let (m, e) = decode(x.abs());
    if e >= -19 {
        return x;
    }
    let n = m as u128 * 1_000_000;
    let k = (-e) as u32;
    let q = if k >= 100 {
        0
    } else {
        let (q, rem, half) = (n >> k, n & ((1u128 << k) - 1), 1u128 << (k - 1));
        q + (rem > half || (rem == half && q % 2 == 1)) as u128
    };
    let r = q as f64 / 1e6;
    // Python keeps the sign of zero: round(-1e-9, 6) == -0.0.
    if x.is_sign_negative() {
        -r
    } else {
        r
    }
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

/// `x.clamp(lo, hi)` (NaN stays NaN) without the panic `f64::clamp`
/// carries for `lo > hi` (and the float `Debug` printer its message pulls
/// into the wasm): the same two steps, so `hi` wins then.
pub fn clamp_to(x: f64, lo: f64, hi: f64) -> f64 {
    let x = if x < lo { lo } else { x };
    if x > hi {
        hi
    } else {
        x
    }
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
fn digit_run(b: &[u8], i: &mut usize, clean: &mut String) -> Option<usize> {
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

    /// The previous implementation (Rust's `{:e}` shortest digits with the
    /// even-tie fix, `{:.6}`, `{:.0}`), kept here as the oracle of the
    /// table-free exact arithmetic that replaced it.
    mod formatted {
        pub fn repr(x: f64) -> String {
            let sci = format!("{:e}", x.abs());
            let (mantissa, exp) = sci.split_once('e').unwrap();
            let exp: i32 = exp.parse().unwrap();
            let mut digits: String = mantissa.chars().filter(|c| *c != '.').collect();
            if let Some(even) = tie_to_even(x.abs(), &digits, exp) {
                digits = even;
            }
            let n = digits.len() as i32;
            let decpt = exp + 1;
            let mut out = String::new();
            if x < 0.0 {
                out.push('-');
            }
            if -4 < decpt && decpt <= 16 {
                if decpt <= 0 {
                    out.push_str("0.");
                    out.push_str(&"0".repeat((-decpt) as usize));
                    out.push_str(&digits);
                } else if decpt < n {
                    out.push_str(&digits[..decpt as usize]);
                    out.push('.');
                    out.push_str(&digits[decpt as usize..]);
                } else {
                    out.push_str(&digits);
                    out.push_str(&"0".repeat((decpt - n) as usize));
                    out.push_str(".0");
                }
            } else {
                out.push_str(&digits[..1]);
                if n > 1 {
                    out.push('.');
                    out.push_str(&digits[1..]);
                }
                out.push_str(&format!("e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs()));
            }
            out
        }

        fn tie_to_even(x: f64, digits: &str, exp: i32) -> Option<String> {
            let n = digits.len();
            if n == 0 || n > 17 || digits.as_bytes()[n - 1] % 2 == 0 {
                return None;
            }
            let d: u64 = digits.parse().ok()?;
            let q = exp - n as i32 + 1;
            let (m, e) = super::decode(x);
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

        pub fn round6(x: f64) -> f64 {
            let r: f64 = format!("{:.6}", x).parse().unwrap_or(x);
            if r == 0.0 {
                return if x.is_sign_negative() { -0.0 } else { 0.0 };
            }
            r
        }

        pub fn int_str(x: f64) -> String {
            let s = format!("{:.0}", x);
            if s == "-0" {
                "0".to_string()
            } else {
                s
            }
        }
    }

    #[test]
    fn exact_arithmetic_matches_rust_formatting() {
        let check = |x: f64| {
            if !x.is_finite() {
                assert_eq!(RustDisplay(x).to_string(), format!("{x}"));
                return;
            }
            if x != 0.0 {
                let mut got = String::new();
                write_repr_general(x, &mut got);
                assert_eq!(got, formatted::repr(x), "repr of {:#x}", x.to_bits());
            }
            let (a, b) = (round6_exact(x), formatted::round6(x));
            assert!(
                a == b && a.is_sign_negative() == b.is_sign_negative(),
                "round6 of {:#x}: {a:e} vs {b:e}",
                x.to_bits()
            );
            assert_eq!(RustDisplay(x).to_string(), format!("{x}"), "display of {:#x}", x.to_bits());
            if x.fract() == 0.0 {
                assert_eq!(int_str(x), formatted::int_str(x), "int of {:#x}", x.to_bits());
            }
        };
        // Random bit patterns (every exponent, subnormals included).
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..400_000 {
            check(f64::from_bits(next()));
        }
        // Powers of two (the asymmetric gap), their neighbours, subnormal edges.
        for b in 0..2047u64 {
            for d in [-2i64, -1, 0, 1, 2] {
                let bits = (b << 52) as i64 + d;
                if bits > 0 {
                    check(f64::from_bits(bits as u64));
                    check(-f64::from_bits(bits as u64));
                }
            }
        }
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0] {
            check(x);
        }
        for bits in [1u64, 2, 3, (1 << 52) - 1, 1 << 52, (1 << 52) + 1, 0x7FEF_FFFF_FFFF_FFFF] {
            check(f64::from_bits(bits));
        }
        // Short decimals and their neighbours (ties, round-trip edges), and
        // exact halves of the sixth decimal place.
        for _ in 0..200_000 {
            let r = next();
            let digits = (r % 100_000_000) as f64;
            let exp = ((r >> 32) % 60) as i32 - 30;
            let x = digits * 10f64.powi(exp);
            check(x);
            check(f64::from_bits(x.to_bits() + 1));
            check(f64::from_bits(x.to_bits().saturating_sub(1)));
            let half = ((r >> 8) % 10_000_000) as f64 + 0.5;
            check(half / 1e6);
            check((r % (1 << 40)) as f64 / (1u64 << 41) as f64);
        }
        check(-1250457562980053.2);
        check(1250457562980053.2);
        check(1e23);
        check(9007199254740993.0);
    }

    #[test]
    fn shortest_fast_is_shortest_exact() {
        let mut state = 0xD1B5_4A32_D192_ED03u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut fast, mut total) = (0, 0);
        let mut check = |x: f64| {
            let (m, e) = decode(x);
            for ties_even in [true, false] {
                total += 1;
                if let Some(got) = shortest_fast(m, e, ties_even) {
                    fast += 1;
                    let want = shortest_exact(m, e, ties_even);
                    // The same decimal: equal after stripping trailing zeros.
                    let norm = |(mut r, mut pos): (u64, i32)| {
                        while r != 0 && r % 10 == 0 {
                            r /= 10;
                            pos += 1;
                        }
                        (r, pos)
                    };
                    assert_eq!(norm(got), norm(want), "{x:e} ties_even={ties_even}");
                }
            }
        };
        for _ in 0..300_000 {
            // Random doubles across the fast range (and a little beyond it).
            let exp = 1023 - 25 + next() % 80;
            check(f64::from_bits((exp << 52) | (next() & ((1 << 52) - 1))));
            check(f64::from_bits(next() & !(1 << 63)).abs().min(f64::MAX));
        }
        // Short decimals, integers, their neighbours, and halfway-ish values.
        for i in 1..200_000u64 {
            for x in [i as f64, i as f64 / 1e3, i as f64 / 1e6, i as f64 * 1e9, 1.0 / i as f64, i as f64 + 0.5] {
                check(x);
                check(f64::from_bits(x.to_bits() + 1));
                check(f64::from_bits(x.to_bits() - 1));
            }
        }
        assert!(fast > total / 3, "the fast path ran for only {fast} of {total}");
    }

    #[test]
    fn short_mantissas_are_rusts_parser() {
        // Up to 19 significant digits at the scales just past Clinger's fast
        // path (Eisel-Lemire's exact-product range), with and without a point.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..400_000 {
            let r = next();
            let n = 1 + (r % 19) as u32;
            let digits = (next() % 10u64.pow(n)).max(1);
            let e = (next() % 60) as i64 - 35;
            for t in [format!("{digits}e{e}"), format!("0.{digits:0>19}e{e}"), format!("{digits}.5e{e}")] {
                assert_eq!(parse_f64(&t).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{t}");
            }
        }
    }

    #[test]
    fn parse_f64_is_rusts_parser() {
        let check = |t: &str| {
            let want = t.parse::<f64>().ok();
            let got = parse_f64(t);
            assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{t}");
            // The exact path alone, which the faster paths now mostly spare.
            assert_eq!(read_decimal(t, false).map(f64::to_bits), want.map(f64::to_bits), "exact path: {t}");
        };
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Every double's repr, general and short, and its neighbours' halfway points.
        for _ in 0..60_000 {
            let x = f64::from_bits(next() & !(1 << 63));
            if !x.is_finite() {
                continue;
            }
            check(&repr(x));
            check(&format!("{x:e}"));
            check(&format!("{:.17e}", x));
            check(&format!("{:.25e}", x));
            // The exact halfway point to the next double up, and just around it.
            if f64::from_bits(x.to_bits() + 1).is_finite() {
                let (m, e) = decode(x);
                let h = ExactDec::of(2 * m + 1, e - 1);
                let ds: String = h.d.iter().map(|d| (b'0' + d) as char).collect();
                let base = format!("0.{ds}e{}", h.dp);
                check(&base);
                check(&format!("0.{ds}1e{}", h.dp));
                let mut lower = h.d.clone();
                let last = lower.len() - 1;
                lower[last] -= 1;
                let ls: String = lower.iter().map(|d| (b'0' + d) as char).collect();
                check(&format!("0.{ls}9999e{}", h.dp));
            }
        }
        // Random literals of the grammar's alphabet (and some of its errors).
        let alphabet = b"0123456789012345678900.eE+-";
        for _ in 0..300_000 {
            let r = next();
            let len = 1 + (r % 30) as usize;
            let t: String =
                (0..len).map(|k| alphabet[((r >> (k * 2 % 60)) as usize + k * 7) % alphabet.len()] as char).collect();
            check(&t);
        }
        for t in [
            "0",
            "-0",
            "+0",
            "0.0",
            "1",
            "1.",
            ".5",
            "-.5",
            "1e5",
            "1E+5",
            "1e-5",
            "1e",
            "1e+",
            ".",
            "",
            "-",
            "e5",
            "1e400",
            "-1e400",
            "1e-400",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "4.9406564584124654e-324",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "9007199254740993",
            "9007199254740992.5",
            "123456789012345678901234567890",
            "0.000000000000000000000000000001e30",
            "1e99999999999999999999",
            "1e-99999999999999999999",
            "00000001.5000000000000000000000000000000001",
        ] {
            check(t);
        }
        let long = format!("0.{}1e-300", "0".repeat(2000));
        check(&long);
        let long = format!("2.{}1e-308", "2".repeat(1500));
        check(&long);
        // Halfway between the two largest doubles' neighbours, with a tail past 800 digits.
        let h = ExactDec::of(2 * ((1u64 << 53) - 1) + 1, 971 - 1);
        let ds: String = h.d.iter().map(|d| (b'0' + d) as char).collect();
        check(&format!("0.{ds}e{}", h.dp));
        let h = ExactDec::of(3, -1076);
        let ds: String = h.d.iter().map(|d| (b'0' + d) as char).collect();
        check(&format!("0.{ds}e{}", h.dp));
        check(&format!("0.{ds}{}1e{}", "0".repeat(900), h.dp));
    }

    /// Digits past the 800th must only nudge the value (a sticky digit at
    /// the 801st place), never move the digits kept: `0.7` then 850 zeros
    /// then `1` once read as 0.71 (the trailing zeros of the kept 800 digits
    /// were dropped before the sticky `1` was appended). Issue #20 class 2.
    #[test]
    fn long_mantissas_keep_their_place() {
        for zeros in [798usize, 799, 800, 801, 850, 2000] {
            for (head, want) in [("0.7", 0.7), ("0.872751", 0.872751), ("1", 1.0), ("12345", 12345.0)] {
                let t = format!("{head}{}{}1", if head.contains('.') { "" } else { "." }, "0".repeat(zeros));
                assert_eq!(parse_f64(&t), Some(want), "{head} + {zeros} zeros + 1");
                assert_eq!(parse_py_float(&t), Some(want), "float() of {head} + {zeros} zeros + 1");
                assert_eq!(read_decimal(&t, false), Some(want), "exact path: {head} + {zeros} zeros + 1");
                let e = format!("{t}e-5");
                assert_eq!(parse_f64(&e).map(f64::to_bits), e.parse::<f64>().ok().map(f64::to_bits), "{e}");
                assert_eq!(read_decimal(&e, false).map(f64::to_bits), e.parse::<f64>().ok().map(f64::to_bits), "{e}");
            }
        }
        // A halfway point between two doubles, then zeros past the 800th
        // digit, then a 1: above the halfway point, so it rounds up (and
        // exactly halfway, without the 1, to even).
        let h = ExactDec::of(2 * (1u64 << 52) + 1, -53);
        let ds: String = h.d.iter().map(|d| (b'0' + d) as char).collect();
        for zeros in [0usize, 700, 800, 900] {
            for tail in ["", "1"] {
                let t = format!("0.{ds}{}{tail}e{}", "0".repeat(zeros), h.dp);
                assert_eq!(parse_f64(&t).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{t}");
                assert_eq!(read_decimal(&t, false).map(f64::to_bits), t.parse::<f64>().ok().map(f64::to_bits), "{t}");
            }
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
