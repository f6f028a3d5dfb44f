//! Level sets of monotone step functions of the retrieval score.
//!
//! Each quantity the audit checks against the unknown retrieval score `b`
//! (the relevance component, the scorer's final score, the 0.8/0.2 blend) is
//! `round6(g(b))` for a non-decreasing `g` on [0, 1], so the set of `b` that
//! reproduces a bound 6-place value is a closed interval. [`level_set_near`]
//! finds it exactly, by bisection over the ordered bit patterns of the
//! doubles in [0, 1] (at most 63 steps per end), evaluating `g` with the
//! same float operations the server ran. No tolerance is involved.
//!
//! The bisection never calls `round6` itself: "`round6(x)` ≥ the 6-place
//! decimal D" is decided exactly on the binary value of `x` with integer
//! arithmetic ([`rounds_to_at_least`]), the same half-even rule Python's
//! `round(x, 6)` applies, without formatting or allocating.

use std::cmp::Ordering;

use crate::py::float::clamp_to;

/// A closed interval `[lo, hi]` of retrieval scores (`lo <= hi`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The smallest retrieval score in the interval.
    pub lo: f64,
    /// The largest retrieval score in the interval.
    pub hi: f64,
}

impl Interval {
    /// The intersection, or `None` when the intervals are disjoint.
    pub fn intersect(self, other: Interval) -> Option<Interval> {
        let lo = self.lo.max(other.lo);
        let hi = self.hi.min(other.hi);
        (lo <= hi).then_some(Interval { lo, hi })
    }

    /// The double halfway between the ends (an end itself when they are adjacent).
    pub fn mid(self) -> f64 {
        let m = self.lo + (self.hi - self.lo) / 2.0;
        clamp_to(m, self.lo, self.hi)
    }
}

const ONE_BITS: u64 = 0x3FF0_0000_0000_0000; // 1.0; 0.0 is 0

fn at(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// The 6-place decimal `k / 10⁶` a bound value stands for: `Some(k)` when
/// `target` is exactly the double Python's `round(·, 6)` returns for it.
pub fn six_place(target: f64) -> Option<i64> {
    if !target.is_finite() || !(0.0..=1e9).contains(&target) {
        return None;
    }
    let k = (target * 1e6).round();
    // k and 1e6 are exact doubles, so k / 1e6 is the correctly rounded
    // (nearest) double to the decimal, which is what round() returns.
    (k / 1e6 == target).then_some(k as i64)
}

/// `round(x, 6) >= k / 10⁶` for a finite `x >= 0`, decided exactly: the
/// correctly rounded 6-place decimal of `x` (ties to even on the exact
/// binary value) is at least `k` millionths iff `x > (k − ½)/10⁶`, or
/// `x == (k − ½)/10⁶` and `k` is even. Compares `x · 2·10⁶` with `2k − 1`
/// as integers: `x = m·2^e`, `2·10⁶ = 15625·2⁷`.
pub fn rounds_to_at_least(x: f64, k: i64) -> bool {
    if k <= 0 {
        return x >= 0.0 || x.is_nan();
    }
    if x.is_nan() || x <= 0.0 {
        return false;
    }
    if x.is_infinite() {
        return true;
    }
    // Fast path: one rounded product (relative error <= 2^-53) decides
    // unless x·2·10⁶ is within 2^-50 (relative) of 2k − 1.
    let c = (2 * k - 1) as f64;
    let y = x * 2e6;
    let margin = c * (1.0 / (1u64 << 50) as f64);
    if y > c + margin {
        return true;
    }
    if y < c - margin {
        return false;
    }
    let bits = x.to_bits();
    let exp_bits = ((bits >> 52) & 0x7FF) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp_bits == 0 { (frac, -1074) } else { (frac | (1u64 << 52), exp_bits - 1075) };
    let a = m as u128 * 15_625; // < 2^67
    let c = (2 * k as u128).saturating_sub(1); // < 2^64
    let s = e + 7; // x·2·10⁶ = a · 2^s
    let ord = if s >= 0 {
        if s > 60 {
            Ordering::Greater
        } else {
            (a << s).cmp(&c)
        }
    } else {
        let shift = (-s) as u32;
        if shift > 60 {
            // a · 2^s < 2^67 · 2^-61 = 64; c may be larger or smaller.
            if shift >= 128 || c.leading_zeros() < shift {
                Ordering::Less
            } else {
                a.cmp(&(c << shift))
            }
        } else {
            a.cmp(&(c << shift))
        }
    };
    match ord {
        Ordering::Greater => true,
        Ordering::Equal => k % 2 == 0,
        Ordering::Less => false,
    }
}

/// [`level_set_near`] without a guess.
#[cfg(test)]
pub fn level_set(g: impl Fn(f64) -> f64, target: f64) -> Option<Interval> {
    level_set_near(g, target, None)
}

/// The smallest bit pattern in `[a, z]` where `pred` holds (`pred(z)` holds;
/// `pred` is monotone false → true over the doubles).
fn first_true(pred: impl Fn(f64) -> bool, mut a: u64, mut z: u64) -> u64 {
    while a < z {
        let m = a + (z - a) / 2;
        if pred(at(m)) {
            z = m;
        } else {
            a = m + 1;
        }
    }
    z
}

/// `{b ∈ [0, 1] : round6(g(b)) == target}` for a non-decreasing `g` with
/// values ≥ 0, or `None` when no double in [0, 1] reproduces `target` (it is
/// skipped by a step, out of `g`'s range, or not a 6-place value).
///
/// `guess` is an estimate of the interval (e.g. from the inverse of the
/// formula without rounding): when it brackets an end, the bisection starts
/// from it (about 35 steps instead of 63); when it does not, from all of
/// [0, 1]. The answer is the same either way.
pub fn level_set_near(g: impl Fn(f64) -> f64, target: f64, guess: Option<(f64, f64)>) -> Option<Interval> {
    let k = six_place(target)?;
    let ge = |b: f64| rounds_to_at_least(g(b), k); // round6(g(b)) >= target
    let gt = |b: f64| rounds_to_at_least(g(b), k + 1); // round6(g(b)) > target
    if !ge(1.0) || gt(0.0) {
        return None;
    }
    let bracket = guess
        .filter(|(a, z)| a.is_finite() && z.is_finite() && a <= z)
        .map(|(a, z)| (clamp_to(a, 0.0, 1.0).to_bits(), clamp_to(z, 0.0, 1.0).to_bits()));
    // lo: the smallest b with round6(g(b)) >= target.
    let lo = if ge(0.0) {
        0
    } else {
        match bracket {
            Some((a, z)) if !ge(at(a)) && ge(at(z)) => first_true(ge, a, z),
            _ => first_true(ge, 0, ONE_BITS),
        }
    };
    // hi: the largest b with round6(g(b)) <= target (just below the first b above it).
    let hi = if !gt(1.0) {
        ONE_BITS
    } else {
        match bracket {
            Some((a, z)) if !gt(at(a)) && gt(at(z)) => first_true(gt, a, z) - 1,
            _ => first_true(gt, 0, ONE_BITS) - 1,
        }
    };
    if lo > hi || !ge(at(lo)) || gt(at(lo)) {
        return None;
    }
    Some(Interval { lo: at(lo), hi: at(hi) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::float::round6;

    #[test]
    fn the_exact_predicate_agrees_with_round6() {
        // Near every tie and away from them, including exact binary ties
        // (multiples of 1/128 are 7-place decimals ending in 5).
        let mut x = 0.0f64;
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for i in 0..400_000u64 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            x = match i % 4 {
                0 => (seed % 1_000_001) as f64 / 1e6 + ((seed >> 40) % 3) as f64 * 5e-7 - 5e-7,
                1 => f64::from_bits(x.to_bits().wrapping_add((seed % 5).wrapping_sub(2))).abs(),
                2 => (seed % 129) as f64 / 128.0,
                _ => (seed >> 11) as f64 / (1u64 << 53) as f64,
            };
            if !(0.0..=1.0).contains(&x) {
                continue;
            }
            let r = round6(x);
            let k = six_place(r).unwrap();
            assert!(rounds_to_at_least(x, k), "{x:e} rounds to {r}");
            assert!(!rounds_to_at_least(x, k + 1), "{x:e} rounds to {r}");
            assert!(rounds_to_at_least(x, k - 1) || k == 0);
            checked += 1;
        }
        assert!(checked > 300_000);
        assert!(rounds_to_at_least(0.0, 0) && !rounds_to_at_least(0.0, 1));
        assert!(rounds_to_at_least(5e-324, 0) && !rounds_to_at_least(5e-324, 1));
        assert!(rounds_to_at_least(1.0, 1_000_000) && !rounds_to_at_least(1.0, 1_000_001));
        assert_eq!(six_place(0.1234567), None);
        assert_eq!(six_place(0.378742), Some(378742));
    }

    #[test]
    fn blend_level_set_is_about_a_microunit_wide() {
        let q = 0.670412;
        let g = |b: f64| 0.8 * b + 0.2 * q;
        let f = |b: f64| round6(g(b));
        let i = level_set(g, 0.378742).unwrap();
        assert!(i.hi - i.lo < 1.3e-6 && i.hi > i.lo, "{i:?}");
        assert_eq!(f(i.lo), 0.378742);
        assert_eq!(f(i.hi), 0.378742);
        assert!(f(f64::from_bits(i.lo.to_bits() - 1)) < 0.378742);
        assert!(f(f64::from_bits(i.hi.to_bits() + 1)) > 0.378742);
    }

    #[test]
    fn saturated_and_unreachable() {
        let g = |b: f64| 0.8 * b + 0.2 * 0.5;
        assert_eq!(level_set(g, 0.9).map(|i| i.hi), Some(1.0));
        assert_eq!(level_set(g, 0.1).map(|i| i.lo), Some(0.0));
        assert_eq!(level_set(g, 0.95), None);
        assert_eq!(level_set(g, 0.05), None);
        assert_eq!(level_set(g, f64::NAN), None);
        assert_eq!(level_set(g, 0.5000005), None);
        // A constant function: everything or nothing.
        assert_eq!(level_set(|_| 0.5, 0.5), Some(Interval { lo: 0.0, hi: 1.0 }));
        assert_eq!(level_set(|_| 0.5, 0.4), None);
    }

    #[test]
    fn a_guess_never_changes_the_answer() {
        let q = 0.582659;
        let g = |b: f64| 0.8 * b + 0.2 * q;
        let exact = level_set(g, 0.252864).unwrap();
        let center = (0.252864 - 0.2 * q) / 0.8;
        for (a, z) in [
            (center - 7e-7, center + 7e-7),
            (0.0, 1.0),
            (0.9, 0.95),
            (0.1, 0.2),
            (center, center),
            (f64::NAN, 1.0),
            (0.5, 0.4),
        ] {
            assert_eq!(level_set_near(g, 0.252864, Some((a, z))), Some(exact), "guess {a} {z}");
        }
    }
}
