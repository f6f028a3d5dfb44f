//! UTF-8 text from JavaScript, read once: validating bytes and finding
//! U+FFFD in one pass (issue #32).
//!
//! - [`check`]: is this UTF-8, and does it hold U+FFFD? [`validate`]: the
//!   same pass without the U+FFFD search. The bytes entries of the wasm
//!   binding (`Uint8Array`/`ArrayBuffer` bodies, candidates) read their input
//!   with [`string_from_utf8`] (that is [`validate`]) instead of
//!   `String::from_utf8` (about six wasm instructions a byte on the batch's
//!   mixed-script text, more than scoring one of its candidates' content).
//! - [`has_replacement_char`]: only U+FFFD, for text already known to be
//!   UTF-8 (a JS string as wasm-bindgen converts it: it writes U+FFFD for a
//!   lone surrogate, so only then does the binding look at the UTF-16).
//!
//! In wasm with SIMD128 (the shipped builds), [`check`] reads sixteen bytes
//! at a time: a block of ASCII costs a bitmask test, any other block the
//! lookup-table validation of Keiser and Lemire ("Validating UTF-8 in less
//! than one instruction per byte", 2021; the simdjson/simdutf tables), three
//! `i8x16.swizzle`s and a few shifts and masks per block. Elsewhere it is
//! `std::str::from_utf8` and the SWAR scan. The block algorithm is also
//! compiled natively for the tests (a plain `[u8; 16]` model of the same
//! lane operations), so the code that runs in wasm is the code tested
//! against `std` on every short sequence and on random text.

/// Why bytes are not UTF-8: the length of the longest valid prefix, as
/// [`std::str::Utf8Error::valid_up_to`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Invalid {
    /// Bytes before the first invalid sequence.
    pub valid_up_to: usize,
}

/// Is `b` UTF-8 (`Err` with where it stops being so), and if it is, does it
/// hold U+FFFD (`EF BF BD`)? One pass (see the module header).
pub fn check(b: &[u8]) -> Result<bool, Invalid> {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        match blocks::check::<wasm::Lanes, true>(b) {
            Some(replacement) => Ok(replacement),
            None => Err(first_invalid(b)),
        }
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        match std::str::from_utf8(b) {
            Ok(_) => Ok(has_replacement_char(b)),
            Err(e) => Err(Invalid { valid_up_to: e.valid_up_to() }),
        }
    }
}

/// `String::from_utf8` through [`check`]'s one pass: the bytes, moved (not
/// copied) into a `String`, or where they stop being UTF-8.
pub fn string_from_utf8(bytes: Vec<u8>) -> Result<String, Invalid> {
    validate(&bytes)?;
    // SAFETY: `check` returned Ok, so `bytes` is valid UTF-8 (tested against
    // `std::str::from_utf8` below: every sequence of up to four bytes, and random text).
    Ok(unsafe { String::from_utf8_unchecked(bytes) })
}

/// Is `b` UTF-8? [`check`] without the U+FFFD search (the bytes entries do
/// not need it: about a fifth of the work of a non-ASCII block).
pub fn validate(b: &[u8]) -> Result<(), Invalid> {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        match blocks::check::<wasm::Lanes, false>(b) {
            Some(_) => Ok(()),
            None => Err(first_invalid(b)),
        }
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        match std::str::from_utf8(b) {
            Ok(_) => Ok(()),
            Err(e) => Err(Invalid { valid_up_to: e.valid_up_to() }),
        }
    }
}

/// Where `b` stops being UTF-8 (the slow path after a failed [`check`]).
#[cfg_attr(not(all(target_arch = "wasm32", target_feature = "simd128")), allow(dead_code))]
fn first_invalid(b: &[u8]) -> Invalid {
    Invalid { valid_up_to: std::str::from_utf8(b).err().map_or(b.len(), |e| e.valid_up_to()) }
}

/// Does UTF-8 text hold U+FFFD (`EF BF BD`)? (The wasm binding asks this
/// of every JS string of JSON text: wasm-bindgen's conversion writes U+FFFD
/// for a lone surrogate.) Eight bytes at a time: the
/// lowest flagged byte of the SWAR test is exact, and `EF` is rare in text
/// (U+F000..U+FFFF), so this costs about one wasm instruction per byte
/// (`str::contains` with a char: about ten; `String.prototype.isWellFormed`
/// in V8 about as many for a two-byte string).
pub fn has_replacement_char(b: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let at = |i: usize| b.get(i..i + 3) == Some(&[0xEF, 0xBF, 0xBD][..]);
    let mut i = 0;
    // wasm: sixteen bytes at a time with SIMD128, each `EF` then checked.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::*;
        let ef = u8x16_splat(0xEF);
        while i + 16 <= b.len() {
            // SAFETY: b[i..i + 16] is in bounds; v128_load reads unaligned.
            let v = unsafe { v128_load(b.as_ptr().add(i).cast::<v128>()) };
            let mut hits = u8x16_bitmask(u8x16_eq(v, ef));
            while hits != 0 {
                if at(i + hits.trailing_zeros() as usize) {
                    return true;
                }
                hits &= hits - 1;
            }
            i += 16;
        }
    }
    while let Some(chunk) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0; 8]));
        let x = w ^ (LO * 0xEF);
        let mut hits = x.wrapping_sub(LO) & !x & HI;
        while hits != 0 {
            let j = i + (hits.trailing_zeros() / 8) as usize;
            if at(j) {
                return true;
            }
            // Past this byte: borrows only flag bytes above a true hit.
            hits &= hits - 1;
        }
        i += 8;
    }
    (i..b.len()).any(at)
}

/// The sixteen-lane operations the block validation needs.
#[cfg_attr(not(any(test, all(target_arch = "wasm32", target_feature = "simd128"))), allow(dead_code))]
trait Lanes: Copy {
    fn load(b: &[u8; 16]) -> Self;
    fn splat(x: u8) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    /// Each lane's high four bits, as 0..16 (`low` is the splat of 0x0F).
    fn high_nibble(self, low: Self) -> Self;
    /// Unsigned saturating `self - o`, lane by lane.
    fn sub_sat(self, o: Self) -> Self;
    /// `table[idx[i]]` for lanes holding 0..16.
    fn lookup(table: Self, idx: Self) -> Self;
    /// The sixteen bytes ending `N` bytes before `self`'s end, taking the first `N` from `prev`'s end.
    fn prev<const N: usize>(self, prev: Self) -> Self;
    /// The lanes equal to `x`, as bits.
    fn eq_mask(self, x: Self) -> u32;
    /// The lanes with the top bit set, as bits.
    fn high_mask(self) -> u32;
    fn any(self) -> bool;
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm {
    use core::arch::wasm32::*;

    #[derive(Clone, Copy)]
    pub struct Lanes(v128);

    impl super::Lanes for Lanes {
        #[inline(always)]
        fn load(b: &[u8; 16]) -> Self {
            // SAFETY: sixteen readable bytes; v128_load reads unaligned.
            Lanes(unsafe { v128_load(b.as_ptr().cast::<v128>()) })
        }
        #[inline(always)]
        fn splat(x: u8) -> Self {
            Lanes(u8x16_splat(x))
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            Lanes(v128_and(self.0, o.0))
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            Lanes(v128_or(self.0, o.0))
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            Lanes(v128_xor(self.0, o.0))
        }
        #[inline(always)]
        fn high_nibble(self, low: Self) -> Self {
            // A 16-bit shift and the mask already in a local: `i8x16.shr_u`
            // has no x64 instruction, and V8 builds its own mask each time.
            Lanes(v128_and(u16x8_shr(self.0, 4), low.0))
        }
        #[inline(always)]
        fn sub_sat(self, o: Self) -> Self {
            Lanes(u8x16_sub_sat(self.0, o.0))
        }
        #[inline(always)]
        fn lookup(table: Self, idx: Self) -> Self {
            Lanes(u8x16_swizzle(table.0, idx.0))
        }
        #[inline(always)]
        fn prev<const N: usize>(self, prev: Self) -> Self {
            // Lanes 16 - N .. 32 - N of prev ++ self.
            Lanes(match N {
                1 => u8x16_shuffle::<15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30>(prev.0, self.0),
                2 => u8x16_shuffle::<14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29>(prev.0, self.0),
                _ => u8x16_shuffle::<13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28>(prev.0, self.0),
            })
        }
        #[inline(always)]
        fn eq_mask(self, x: Self) -> u32 {
            u8x16_bitmask(u8x16_eq(self.0, x.0)) as u32
        }
        #[inline(always)]
        fn high_mask(self) -> u32 {
            u8x16_bitmask(self.0) as u32
        }
        #[inline(always)]
        fn any(self) -> bool {
            v128_any_true(self.0)
        }
    }
}

/// The lane model of the tests: the same operations on a `[u8; 16]`.
#[cfg(test)]
mod model {
    #[derive(Clone, Copy)]
    pub struct Lanes([u8; 16]);

    fn map(a: [u8; 16], f: impl Fn(usize, u8) -> u8) -> Lanes {
        Lanes(std::array::from_fn(|i| f(i, a[i])))
    }

    impl super::Lanes for Lanes {
        fn load(b: &[u8; 16]) -> Self {
            Lanes(*b)
        }
        fn splat(x: u8) -> Self {
            Lanes([x; 16])
        }
        fn and(self, o: Self) -> Self {
            map(self.0, |i, x| x & o.0[i])
        }
        fn or(self, o: Self) -> Self {
            map(self.0, |i, x| x | o.0[i])
        }
        fn xor(self, o: Self) -> Self {
            map(self.0, |i, x| x ^ o.0[i])
        }
        fn high_nibble(self, low: Self) -> Self {
            // As wasm does it: a 16-bit shift (the byte above shifts its low bits in), then the mask.
            let mut out = [0u8; 16];
            for k in 0..8 {
                let w = u16::from_le_bytes([self.0[2 * k], self.0[2 * k + 1]]) >> 4;
                let [lo, hi] = w.to_le_bytes();
                out[2 * k] = lo & low.0[2 * k];
                out[2 * k + 1] = hi & low.0[2 * k + 1];
            }
            Lanes(out)
        }
        fn sub_sat(self, o: Self) -> Self {
            map(self.0, |i, x| x.saturating_sub(o.0[i]))
        }
        fn lookup(table: Self, idx: Self) -> Self {
            map(idx.0, |_, j| table.0.get(j as usize).copied().unwrap_or(0))
        }
        fn prev<const N: usize>(self, prev: Self) -> Self {
            map(self.0, |i, _| if i < N { prev.0[16 - N + i] } else { self.0[i - N] })
        }
        fn eq_mask(self, x: Self) -> u32 {
            (0..16).filter(|&i| self.0[i] == x.0[i]).fold(0, |m, i| m | 1 << i)
        }
        fn high_mask(self) -> u32 {
            (0..16).filter(|&i| self.0[i] >= 0x80).fold(0, |m, i| m | 1 << i)
        }
        fn any(self) -> bool {
            self.0.iter().any(|&x| x != 0)
        }
    }
}

/// The block validation (Keiser and Lemire's "lookup" algorithm).
#[cfg_attr(not(any(test, all(target_arch = "wasm32", target_feature = "simd128"))), allow(dead_code))]
mod blocks {
    use super::Lanes;

    // One bit per kind of error, for a pair of bytes (the first, the second).
    const TOO_SHORT: u8 = 1 << 0; // 11______ 0_______ or 11______ 11______
    const TOO_LONG: u8 = 1 << 1; // 0_______ 10______
    const OVERLONG_3: u8 = 1 << 2; // 11100000 100_____
    const TOO_LARGE: u8 = 1 << 3; // 11110100 1001____ and above
    const SURROGATE: u8 = 1 << 4; // 11101101 101_____
    const OVERLONG_2: u8 = 1 << 5; // 1100000_ 10______
    const TOO_LARGE_1000: u8 = 1 << 6; // 11110101 1000____ and above
    const OVERLONG_4: u8 = 1 << 6; // 11110000 1000____
    const TWO_CONTS: u8 = 1 << 7; // 10______ 10______
    const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

    /// By the first byte's high nibble.
    const BYTE_1_HIGH: [u8; 16] = [
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TOO_SHORT | OVERLONG_2,
        TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
    ];
    /// By the first byte's low nibble.
    const BYTE_1_LOW: [u8; 16] = [
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
        CARRY | OVERLONG_2,
        CARRY,
        CARRY,
        CARRY | TOO_LARGE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
    ];
    /// By the second byte's high nibble.
    const BYTE_2_HIGH: [u8; 16] = [
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
    ];
    /// A block ending in these (or more) is cut inside a sequence: the last
    /// byte ≥ C0, the one before ≥ E0, the one before that ≥ F0.
    const INCOMPLETE: [u8; 16] = [255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0xEF, 0xDF, 0xBF];

    /// The constants of [`step`], made once per call. Passed through
    /// `black_box` so that they stay in locals: LLVM would otherwise
    /// rematerialize each `v128.const` inside the loop, and V8 builds a
    /// 128-bit constant with several instructions each time.
    #[derive(Clone, Copy)]
    struct Consts<L> {
        byte_1_high: L,
        byte_1_low: L,
        byte_2_high: L,
        incomplete: L,
        low: L,
        third: L,
        fourth: L,
        high: L,
        ef: L,
        zero: L,
    }

    /// The validation state between blocks.
    struct State<L> {
        error: L,
        prev: L,
        replacement: bool,
    }

    /// `Some(holds U+FFFD)` if `b` is UTF-8, else `None`.
    #[inline(always)]
    pub fn check<L: Lanes, const FFFD: bool>(b: &[u8]) -> Option<bool> {
        let c = core::hint::black_box(Consts {
            byte_1_high: L::load(&BYTE_1_HIGH),
            byte_1_low: L::load(&BYTE_1_LOW),
            byte_2_high: L::load(&BYTE_2_HIGH),
            incomplete: L::load(&INCOMPLETE),
            low: L::splat(0x0F),
            third: L::splat(0xE0 - 0x80),
            fourth: L::splat(0xF0 - 0x80),
            high: L::splat(0x80),
            ef: L::splat(0xEF),
            zero: L::splat(0),
        });
        let mut s = State { error: c.zero, prev: c.zero, replacement: false };
        // Two blocks a step (one loop test for both), then one.
        let mut pairs = b.chunks_exact(32);
        let mut at = 0;
        for pair in &mut pairs {
            let (lo, hi) = pair.split_at(16);
            let lo: &[u8; 16] = lo.try_into().unwrap_or(&[0; 16]);
            let hi: &[u8; 16] = hi.try_into().unwrap_or(&[0; 16]);
            step::<L, FFFD>(&c, &mut s, L::load(lo), b, at);
            step::<L, FFFD>(&c, &mut s, L::load(hi), b, at + 16);
            at += 32;
        }
        let mut chunks = pairs.remainder().chunks_exact(16);
        for chunk in &mut chunks {
            let block: &[u8; 16] = chunk.try_into().unwrap_or(&[0; 16]);
            step::<L, FFFD>(&c, &mut s, L::load(block), b, at);
            at += 16;
        }
        // The tail, padded with zeros (ASCII: a sequence cut by the end fails as TOO_SHORT).
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut block = [0u8; 16];
            block[..rest.len()].copy_from_slice(rest);
            step::<L, FFFD>(&c, &mut s, L::load(&block), b, at);
        }
        // A sequence cut by the end of a last full block.
        (!s.error.or(s.prev.sub_sat(c.incomplete)).any()).then_some(s.replacement)
    }

    #[inline(always)]
    fn step<L: Lanes, const FFFD: bool>(c: &Consts<L>, s: &mut State<L>, v: L, b: &[u8], at: usize) {
        if v.high_mask() == 0 {
            // ASCII: only a sequence cut at the end of the last block is an error.
            s.error = s.error.or(s.prev.sub_sat(c.incomplete));
        } else {
            let prev1 = v.prev::<1>(s.prev);
            let special = L::lookup(c.byte_1_high, prev1.high_nibble(c.low))
                .and(L::lookup(c.byte_1_low, prev1.and(c.low)))
                .and(L::lookup(c.byte_2_high, v.high_nibble(c.low)));
            // A third or fourth byte of a sequence must be a continuation byte.
            let third = v.prev::<2>(s.prev).sub_sat(c.third);
            let fourth = v.prev::<3>(s.prev).sub_sat(c.fourth);
            let must23 = third.or(fourth).and(c.high);
            s.error = s.error.or(must23.xor(special));
            // U+FFFD: each EF of the block, checked in the text.
            let mut hits = if FFFD { v.eq_mask(c.ef) } else { 0 };
            while hits != 0 {
                let i = at + hits.trailing_zeros() as usize;
                s.replacement |= b.get(i..i + 3) == Some(&[0xEF, 0xBF, 0xBD][..]);
                hits &= hits - 1;
            }
        }
        s.prev = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block validation (as wasm runs it, on the lane model) against std.
    fn model_check(b: &[u8]) -> Option<bool> {
        let found = blocks::check::<model::Lanes, true>(b);
        assert_eq!(blocks::check::<model::Lanes, false>(b).is_some(), found.is_some(), "{b:02x?}");
        found
    }

    fn expect(b: &[u8]) -> Option<bool> {
        std::str::from_utf8(b).ok().map(|s| s.contains('\u{FFFD}'))
    }

    #[test]
    fn every_short_sequence() {
        // Every sequence of 1 and 2 bytes, and of 3 and 4 bytes over the
        // interesting byte values, at each offset of a block and across blocks.
        let mut interesting: Vec<u8> = vec![0x00, 0x41, 0x7F, 0xBD, 0xBF, 0xEF, 0xFF];
        interesting.extend([0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE]);
        interesting.extend([0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8]);
        let mut seqs: Vec<Vec<u8>> = Vec::new();
        for a in 0..=255u8 {
            seqs.push(vec![a]);
            for c in 0..=255u8 {
                seqs.push(vec![a, c]);
            }
        }
        for &a in &interesting {
            for &c in &interesting {
                for &d in &interesting {
                    seqs.push(vec![a, c, d]);
                }
            }
        }
        // Every lane of a block, the last lanes before a boundary and the first after it.
        for seq in &seqs {
            for pad in 0usize..=17 {
                let mut b = vec![b'x'; pad];
                b.extend_from_slice(seq);
                assert_eq!(model_check(&b), expect(&b), "{b:02x?}");
                // And with more text after it (the sequence not at the end).
                let mut c = b.clone();
                c.extend_from_slice("é abcdefghijklmnopq".as_bytes());
                assert_eq!(model_check(&c), expect(&c), "{c:02x?}");
            }
        }
        // Four bytes: each lead (and a few others) before three interesting bytes,
        // inside a block and across a block boundary.
        for a in [0x41, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5] {
            for &c in &interesting {
                for &d in &interesting {
                    for &e in &interesting {
                        for pad in [0usize, 5, 12, 13, 14, 15] {
                            let mut b = vec![b'x'; pad];
                            b.extend_from_slice(&[a, c, d, e]);
                            b.push(b'y');
                            assert_eq!(model_check(&b), expect(&b), "{b:02x?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn random_text_and_corruptions() {
        // A small xorshift: deterministic.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pieces =
            ["a", "bc ", "é", "Größe", "東京", "नमस्ते", "\u{FFFD}", "\u{10348}", "\u{EFBF}", "\u{FFFE}", "\u{7FF}"];
        for _ in 0..3000 {
            let mut s = String::new();
            for _ in 0..next() % 40 {
                s.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            let mut b = s.into_bytes();
            assert_eq!(model_check(&b), expect(&b));
            assert_eq!(
                check(&b),
                std::str::from_utf8(&b).map(|s| s.contains('\u{FFFD}')).map_err(|_| Invalid { valid_up_to: 0 })
            );
            if !b.is_empty() {
                let i = (next() % b.len() as u64) as usize;
                b[i] = next() as u8;
                assert_eq!(model_check(&b), expect(&b), "{b:02x?}");
                let t = (next() % b.len() as u64) as usize;
                b.truncate(t);
                assert_eq!(model_check(&b), expect(&b), "{b:02x?}");
                match (check(&b), std::str::from_utf8(&b)) {
                    (Ok(r), Ok(s)) => assert_eq!(r, s.contains('\u{FFFD}')),
                    (Err(e), Err(f)) => assert_eq!(e.valid_up_to, f.valid_up_to()),
                    (x, y) => panic!("{x:?} {y:?} {b:02x?}"),
                }
            }
        }
    }

    #[test]
    fn string_from_utf8_moves_or_reports() {
        assert_eq!(string_from_utf8(b"ok \xC3\xA9".to_vec()).as_deref(), Ok("ok é"));
        assert_eq!(string_from_utf8(b"ok \xC3".to_vec()), Err(Invalid { valid_up_to: 3 }));
        assert_eq!(first_invalid(b"ab\xFFcd"), Invalid { valid_up_to: 2 });
    }

    #[test]
    fn replacement_char_at_every_offset() {
        for n in 0..40 {
            for filler in ["x", "\u{EFBF}", "\u{00EF}", "\u{FFFE}"] {
                let plain = filler.repeat(n);
                assert!(!has_replacement_char(plain.as_bytes()), "{n} {filler:?}");
                assert_eq!(model_check(plain.as_bytes()), Some(false));
                for at in 0..=n {
                    let s = format!("{}\u{FFFD}{}", filler.repeat(at), filler.repeat(n - at));
                    assert!(has_replacement_char(s.as_bytes()), "{n} {at} {filler:?}");
                    assert_eq!(model_check(s.as_bytes()), Some(true));
                }
            }
        }
    }
}
