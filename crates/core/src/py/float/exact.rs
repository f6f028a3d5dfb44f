//! [`ExactDec`]: exact decimal arithmetic on digit vectors, shared by the
//! printer's exact path, [`int_str`] and the reader's exact fallback.

#[allow(unused_imports)]
use super::*;

/// An exact decimal: `0.d₀d₁d₂… × 10^dp`, digits `0..=9`, the first and
/// last non-zero (empty for zero).
pub(super) struct ExactDec {
    pub(super) d: Vec<u8>,
    pub(super) dp: i32,
}

impl ExactDec {
    /// The exact decimal of `n · 2^q`.
    pub(super) fn of(n: u64, q: i32) -> ExactDec {
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
    pub(super) fn mul_pow2(&mut self, s: u32) {
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
    pub(super) fn div_pow2(&mut self, s: u32) {
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
    pub(super) fn cut(&self, top: i32, k: i32) -> i32 {
        k + self.dp - top
    }

    /// The `k` places from `10^(top - 1)` down as an integer, and whether
    /// any non-zero digit follows them.
    pub(super) fn places(&self, top: i32, k: i32) -> (i128, bool) {
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
    pub(super) fn rest_vs_half(&self, top: i32, k: i32) -> std::cmp::Ordering {
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
