//! The shortest round-trip digits of a double (David Gay's dtoa, mode 0):
//! a fast path in `u128` arithmetic, the exact one on [`ExactDec`] where the
//! fast one cannot decide.

#[allow(unused_imports)]
use super::*;

/// `x = m · 2^e` exactly (`m < 2^53`), for finite `x ≥ 0`.
pub(super) fn decode(x: f64) -> (u64, i32) {
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
pub(super) fn shortest_digits(x: f64, ties_even: bool) -> (Digits, i32) {
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
pub(super) fn shortest_fast(m: u64, e: i32, ties_even: bool) -> Option<(u64, i32)> {
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
    // max/min, not `clamp`: lo <= hi here, and `Ord::clamp`'s panic would pull
    // i128's Debug into the wasm (issue #32 round 7: size).
    let r = (xt as i128 + up as i128).max(lo).min(hi);
    u64::try_from(r).ok().map(|r| (r, good))
}

/// 10^0 ..= 10^22 as 128-bit integers.
pub(super) const POW10_U128: [u128; 23] = {
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
pub(super) fn shortest_exact(m: u64, e: i32, ties_even: bool) -> (u64, i32) {
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
    ((xt + up as i128).max(lo).min(hi) as u64, top - k)
}
