//! Rounding and the scorer's float arithmetic: `round(x, 6)` ([`round6`],
//! [`round6_exact`]), CPython 3.12's `sum()` ([`sum_py312`]), [`clamp_to`],
//! [`clamp01`].

#[allow(unused_imports)]
use super::*;

/// Python `round(x, 6)`: the decimal with 6 places nearest to the exact
/// binary value of `x` (ties to even only on exact ties), as the nearest
/// double. Rust's `{:.6}` formatting is exact, so formatting and parsing back
/// gives the same result (verified against CPython on 702k values, spec `scoring-admission.md` §3.2).
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
/// compensated summation (spec `scoring-admission.md` §6.3). For an empty input returns `0.0`
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
