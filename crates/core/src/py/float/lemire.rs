//! Eisel–Lemire: `w · 10^q` as the nearest double from one or two 64×64-bit
//! products, for [`crate::py::float::parse_f64`]'s literals outside Clinger's
//! fast path (large exponents, long mantissas).
//!
//! The algorithm is Rust core's `dec2flt::lemire::compute_float` (after
//! fast_float; Lemire, "Number Parsing at a Gigabyte per Second", 2021),
//! statement for statement, with the same 128-bit truncated powers of five
//! `5^-342 ..= 5^308`. The difference is where the table comes from: core
//! compiles its 10.4 KB table into the binary (~8 KB gzip of high-entropy
//! data, the budget the wasm build cannot pay); here it is computed on first
//! use ([`std::sync::OnceLock`]) from exact big-integer arithmetic, by the
//! very definition of fast_float's generator script:
//!
//! * `q ≥ 0`: `5^q` (repeated ×5) shifted so its top bit is bit 127,
//!   truncated to 128 bits;
//! * `q < 0`: with `z` the bit length of `5^-q`, `b = z + 127` for
//!   `q ≥ -27`, else `b = 2z + 128`: `⌊2^b / 5^-q⌋ + 1` truncated to its
//!   top 128 bits. `⌊2^b / 5^k⌋ = ⌊2^N / 5^k⌋ >> (N - b)` for any `N ≥ b`,
//!   and `⌊2^N / 5^k⌋` is `⌊2^N / 5^(k-1)⌋` floor-divided by 5, so one
//!   running quotient gives every entry.
//!
//! A unit test pins the generated table (all 651 entries, FNV-1a) to the
//! output of fast_float's own Python generator. [`compute_float`] returns
//! `None` where the algorithm cannot decide (its error bound reaches the
//! rounding boundary); the caller then takes the exact path.

use std::sync::OnceLock;

/// The smallest and largest `q` of the table: below, every `w < 2^64` times
/// `10^q` is under half the smallest subnormal; above, over `f64::MAX`.
const SMALLEST_POWER_OF_TEN: i64 = -342;
const LARGEST_POWER_OF_TEN: i64 = 308;
/// f64: explicit mantissa bits, `-(exponent bias)`, the biased exponent of
/// infinity, and the `q` range where `w · 5^q` can be an exact tie.
const MANTISSA_EXPLICIT_BITS: i32 = 52;
const MINIMUM_EXPONENT: i32 = -1023;
const INFINITE_POWER: i32 = 0x7FF;
const MIN_EXPONENT_ROUND_TO_EVEN: i64 = -4;
const MAX_EXPONENT_ROUND_TO_EVEN: i64 = 23;

/// `5^q` for `q` in `-342..=308`, 128-bit truncated (see the module doc),
/// index `q + 342`.
fn powers_of_five() -> &'static [u128] {
    static TABLE: OnceLock<Vec<u128>> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

/// Little-endian 32-bit limbs, exact.
type Big = Vec<u32>;

fn mul5(v: &mut Big) {
    let mut carry = 0u64;
    for l in v.iter_mut() {
        let t = *l as u64 * 5 + carry;
        *l = t as u32;
        carry = t >> 32;
    }
    if carry != 0 {
        v.push(carry as u32);
    }
}

fn div5(v: &mut Big) {
    let mut rem = 0u64;
    for l in v.iter_mut().rev() {
        let t = (rem << 32) | *l as u64;
        *l = (t / 5) as u32;
        rem = t % 5;
    }
    while v.last() == Some(&0) {
        v.pop();
    }
}

fn bit_len(v: &Big) -> u32 {
    v.last().map_or(0, |&top| 32 * (v.len() as u32 - 1) + (32 - top.leading_zeros()))
}

/// Bit `i` of `v` (0 past its end).
fn bit(v: &Big, i: u32) -> bool {
    v.get((i / 32) as usize).is_some_and(|&l| (l >> (i % 32)) & 1 == 1)
}

/// The low 128 bits of `v >> s`.
fn bits_at(v: &Big, s: u32) -> u128 {
    let (word, sh) = ((s / 32) as usize, (s % 32) as i32);
    (0..5).fold(0u128, |acc, k| {
        let l = v.get(word + k).copied().unwrap_or(0) as u128;
        let pos = 32 * k as i32 - sh;
        acc | if pos < 0 {
            l >> -pos
        } else if pos < 128 {
            l << pos
        } else {
            0
        }
    })
}

/// The top 128 bits of `v`: shifted left (zeros in) when it has fewer,
/// truncated when it has more.
fn top128(v: &Big) -> u128 {
    let len = bit_len(v);
    if len <= 128 {
        bits_at(v, 0) << (128 - len)
    } else {
        bits_at(v, len - 128)
    }
}

/// `(v >> s) + 1`, truncated to its top 128 bits when it has more (kept
/// as it is when it has fewer).
fn shr_add1_top128(v: &Big, s: u32) -> u128 {
    let len = bit_len(v) - s;
    if len <= 128 {
        return bits_at(v, s).checked_add(1).unwrap_or(1 << 127);
    }
    // The +1 reaches the kept bits only through a run of ones below them.
    let cut = len - 128;
    let top = bits_at(v, s + cut);
    if (s..s + cut).all(|i| bit(v, i)) {
        top.checked_add(1).unwrap_or(1 << 127)
    } else {
        top
    }
}

fn build_table() -> Vec<u128> {
    let count = (LARGEST_POWER_OF_TEN - SMALLEST_POWER_OF_TEN + 1) as usize;
    let mut table = vec![0u128; count];
    let zero = (-SMALLEST_POWER_OF_TEN) as usize;
    let mut p: Big = vec![1];
    for entry in &mut table[zero..] {
        *entry = top128(&p);
        mul5(&mut p);
    }
    // N ≥ the largest b: 2 · bit_len(5^342) + 128 = 2 · 795 + 128.
    const N: u32 = 1728;
    let mut x: Big = vec![0; (N / 32 + 1) as usize];
    x[(N / 32) as usize] = 1 << (N % 32);
    let mut p: Big = vec![1];
    for k in 1..=zero {
        div5(&mut x);
        mul5(&mut p);
        let z = bit_len(&p); // 5^k is no power of two: the smallest z with 2^z ≥ 5^k
        let b = if k <= 27 { z + 127 } else { 2 * z + 128 };
        table[zero - k] = shr_add1_top128(&x, N - b);
    }
    table
}

/// `w · 10^q` correctly rounded, as the bits of a non-negative double
/// (infinity on overflow), or `None` when the 128-bit product cannot decide
/// (then the exact path must). Rust core's `compute_float::<f64>`.
pub(crate) fn compute_float(q: i64, w: u64) -> Option<u64> {
    if w == 0 || q < SMALLEST_POWER_OF_TEN {
        return Some(0);
    }
    if q > LARGEST_POWER_OF_TEN {
        return Some((INFINITE_POWER as u64) << 52);
    }
    let lz = w.leading_zeros();
    let w = w << lz;
    let (lo, hi) = product_approx(q, w, MANTISSA_EXPLICIT_BITS as u32 + 3);
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        // The truncated power's error may have carried across the halfway bit.
        return None;
    }
    let upperbit = (hi >> 63) as i32;
    let shift = upperbit + 64 - MANTISSA_EXPLICIT_BITS - 3;
    let mut mantissa = hi >> shift;
    let mut power2 = power(q as i32) + upperbit - lz as i32 - MINIMUM_EXPONENT;
    if power2 <= 0 {
        if -power2 + 1 >= 64 {
            return Some(0);
        }
        // Subnormal.
        mantissa >>= -power2 + 1;
        mantissa += mantissa & 1;
        mantissa >>= 1;
        let e = (mantissa >= (1u64 << MANTISSA_EXPLICIT_BITS)) as u64;
        return Some((mantissa & ((1u64 << MANTISSA_EXPLICIT_BITS) - 1)) | (e << 52));
    }
    // An exact tie (only possible when w · 5^q is exact) rounds to even.
    if lo <= 1
        && (MIN_EXPONENT_ROUND_TO_EVEN..=MAX_EXPONENT_ROUND_TO_EVEN).contains(&q)
        && mantissa & 3 == 1
        && (mantissa << shift) == hi
    {
        mantissa &= !1u64;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if mantissa >= (2u64 << MANTISSA_EXPLICIT_BITS) {
        mantissa = 1u64 << MANTISSA_EXPLICIT_BITS;
        power2 += 1;
    }
    mantissa &= !(1u64 << MANTISSA_EXPLICIT_BITS);
    if power2 >= INFINITE_POWER {
        return Some((INFINITE_POWER as u64) << 52);
    }
    Some(mantissa | ((power2 as u64) << 52))
}

/// `⌊log2(10^q)⌋ + 63`-ish: core's `power`.
fn power(q: i32) -> i32 {
    (q.wrapping_mul(152_170 + 65536) >> 16) + 63
}

/// The high 128 bits of `w · 5^q` (normalized `w`), refined by the second
/// product only when the first leaves the needed `precision` bits in doubt.
fn product_approx(q: i64, w: u64, precision: u32) -> (u64, u64) {
    let mask = u64::MAX >> precision;
    let t = powers_of_five()[(q - SMALLEST_POWER_OF_TEN) as usize];
    let (hi5, lo5) = ((t >> 64) as u64, t as u64);
    let first = w as u128 * hi5 as u128;
    let (mut first_lo, mut first_hi) = (first as u64, (first >> 64) as u64);
    if first_hi & mask == mask {
        let second_hi = ((w as u128 * lo5 as u128) >> 64) as u64;
        first_lo = first_lo.wrapping_add(second_hi);
        if second_hi > first_lo {
            first_hi += 1;
        }
    }
    (first_lo, first_hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated table, entry for entry, is fast_float's (and core's):
    /// FNV-1a 64 over the 651 entries' 16 big-endian bytes each, as printed by
    /// fast_float's generator script (`script/table_generation.py`, run with
    /// CPython 3.12 on this machine), and three entries spelled out.
    #[test]
    fn table_is_fast_floats() {
        let t = powers_of_five();
        assert_eq!(t.len(), 651);
        assert_eq!(t[0], 0xeef453d6923bd65a_113faa2906a13b3f); // 5^-342
        assert_eq!(t[342], 1 << 127); // 5^0
        assert_eq!(t[650], 0x8e679c2f5e44ff8f_570f09eaa7ea7648); // 5^308
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for e in t {
            for byte in e.to_be_bytes() {
                h ^= byte as u64;
                h = h.wrapping_mul(0x100_0000_01b3);
            }
        }
        assert_eq!(h, 0x00e3_a885_ecaf_4ed7);
    }

    /// Where it decides, it is Rust core's reader; it decides almost always.
    #[test]
    fn compute_float_is_rusts_parser() {
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut undecided, mut total) = (0, 0);
        for i in 0..400_000u32 {
            let r = next();
            let w = match i % 4 {
                0 => r,
                1 => r % 100_000_000_000_000_000,
                2 => (r % (1 << 54)).max(1),
                _ => r >> (r % 64),
            };
            let q = (next() % 700) as i64 - 360;
            total += 1;
            match compute_float(q, w) {
                Some(bits) => {
                    let t = format!("{w}e{q}");
                    assert_eq!(bits, t.parse::<f64>().unwrap().to_bits(), "{t}");
                }
                None => undecided += 1,
            }
        }
        assert!(undecided * 1000 < total, "{undecided} of {total} undecided");
    }
}
