//! Level sets of monotone step functions of the retrieval score.
//!
//! Each quantity the audit checks against the unknown retrieval score `b`
//! (the relevance component, the scorer's final score, the 0.8/0.2 blend) is
//! a non-decreasing function of `b` on [0, 1] that ends in a `round6`, so
//! the set of `b` that reproduces a bound 6-place value is a closed
//! interval. [`level_set`] finds it exactly, by bisection over the ordered
//! bit patterns of the doubles in [0, 1] (at most 63 steps per end), with
//! the same float operations the server ran. No tolerance is involved.

/// A closed interval `[lo, hi]` of retrieval scores (`lo <= hi`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub lo: f64,
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
        m.clamp(self.lo, self.hi)
    }
}

const ONE_BITS: u64 = 0x3FF0_0000_0000_0000; // 1.0; 0.0 is 0

fn at(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// `{b ∈ [0, 1] : f(b) == target}` for a non-decreasing `f`, or `None` when
/// no double in [0, 1] reproduces `target` (it is skipped by a step, or out
/// of `f`'s range). A non-finite target never matches.
pub fn level_set(f: impl Fn(f64) -> f64, target: f64) -> Option<Interval> {
    if !target.is_finite() {
        return None;
    }
    // lo: the smallest b with f(b) >= target.
    if f(1.0) < target {
        return None;
    }
    let (mut a, mut z) = (0u64, ONE_BITS);
    if f(0.0) >= target {
        z = 0;
    }
    while a < z {
        let m = a + (z - a) / 2;
        if f(at(m)) >= target {
            z = m;
        } else {
            a = m + 1;
        }
    }
    let lo = z;
    // hi: the largest b with f(b) <= target.
    if f(0.0) > target {
        return None;
    }
    let (mut a, mut z) = (0u64, ONE_BITS);
    if f(1.0) <= target {
        a = ONE_BITS;
    }
    while a < z {
        let m = a + (z - a).div_ceil(2);
        if f(at(m)) <= target {
            a = m;
        } else {
            z = m - 1;
        }
    }
    let hi = a;
    if lo > hi || f(at(lo)) != target {
        return None;
    }
    Some(Interval { lo: at(lo), hi: at(hi) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::float::round6;

    #[test]
    fn blend_level_set_is_about_a_microunit_wide() {
        let q = 0.670412;
        let f = |b: f64| round6(0.8 * b + 0.2 * q);
        let i = level_set(f, 0.378742).unwrap();
        assert!(i.hi - i.lo < 1.3e-6 && i.hi > i.lo, "{i:?}");
        assert_eq!(f(i.lo), 0.378742);
        assert_eq!(f(i.hi), 0.378742);
        assert!(f(f64::from_bits(i.lo.to_bits() - 1)) < 0.378742);
        assert!(f(f64::from_bits(i.hi.to_bits() + 1)) > 0.378742);
    }

    #[test]
    fn saturated_and_unreachable() {
        let f = |b: f64| round6(0.8 * b + 0.2 * 0.5);
        assert_eq!(level_set(f, 0.9).map(|i| i.hi), Some(1.0));
        assert_eq!(level_set(f, 0.1).map(|i| i.lo), Some(0.0));
        assert_eq!(level_set(f, 0.95), None);
        assert_eq!(level_set(f, 0.05), None);
        assert_eq!(level_set(f, f64::NAN), None);
        // A constant function: everything or nothing.
        assert_eq!(level_set(|_| 0.5, 0.5), Some(Interval { lo: 0.0, hi: 1.0 }));
        assert_eq!(level_set(|_| 0.5, 0.4), None);
    }
}
