//! UTF-8 from the UTF-16 code units of a JavaScript string (issue #32).
//!
//! In Node the JS wrapper copies a string's units into wasm memory with one
//! native write (`Buffer.prototype.ucs2Write`), which costs far less than
//! V8's UTF-8 encoding of a two-byte string; [`to_utf8`] transcodes them in
//! one pass into a buffer that grows when the text needs more than 1.25 bytes
//! a unit, and stops at a lone surrogate (the caller then reads the string
//! itself, as before).
//!
//! In wasm with SIMD128 the pass reads sixteen units at a time: sixteen
//! ASCII units are one test and one narrowing store. A block without a
//! surrogate is written eight units at a time: eight ASCII units one
//! narrowing 8-byte store; else every unit's UTF-8 (1, 2 or 3 bytes) and its
//! offset are computed for the eight lanes at once (no tables), then stored in
//! order, 4 bytes a unit (each store's bytes past its unit are overwritten by
//! the next). A block with a surrogate, and the last units, are written one
//! code point at a time with one 4-byte store (`word`). Round 11 (strs): the
//! lane-parallel blocks took the batch's transcode from ~85 M to ~42 M
//! instructions (BENCHMARKS.md, "Round 11: strs").

use core::mem::MaybeUninit;

/// The UTF-8 of `units`, or `None` if they hold a lone surrogate.
#[inline(never)]
pub fn to_utf8(units: &[u16]) -> Option<String> {
    let mut out: Vec<u8> = Vec::with_capacity(units.len() + units.len() / 4 + 32);
    let mut i = 0;
    loop {
        let written = encode(units, &mut i, out.spare_capacity_mut())?;
        // SAFETY: `encode` initialized that many bytes of the spare capacity, whole code points
        // of UTF-8 (it stops at a lone surrogate).
        unsafe { out.set_len(out.len() + written) };
        if i == units.len() {
            debug_assert!(core::str::from_utf8(&out).is_ok());
            return Some(unsafe { String::from_utf8_unchecked(out) });
        }
        // Out of room: at most 3 bytes a unit for the rest.
        out.reserve((units.len() - i) * 3 + 32);
    }
}

/// The UTF-8 of a unit that is not a surrogate as one word: its bytes
/// little-endian in the low 24 bits (first byte lowest; bytes past its length
/// are don't-care), its UTF-8 length in the top byte.
#[inline(always)]
fn word(u: u32) -> u32 {
    let t0 = (u & 0x3F) | 0x80;
    if u < 0x80 {
        u | 1 << 24
    } else if u < 0x800 {
        ((u >> 6) | 0xC0) | t0 << 8 | 2 << 24
    } else {
        ((u >> 12) | 0xE0) | (((u >> 6) & 0x3F) | 0x80) << 8 | t0 << 16 | 3 << 24
    }
}

/// Write the UTF-8 of `units[*at..]` to `out` while there is room, moving
/// `*at` past what was written: the bytes written, whole code points (up to 3
/// bytes past them may be overwritten too); `None` at a lone surrogate.
fn encode(units: &[u16], at: &mut usize, out: &mut [MaybeUninit<u8>]) -> Option<usize> {
    let (mut i, mut o) = (*at, 0);
    // The constants in locals (black_box): LLVM would rematerialize each `v128.const` in the
    // loop, and V8 builds one with several instructions each time (as in `utf8::blocks::check`).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let [not_ascii, zero, not_short, high, x3f, x80, xc0, xe0, three] = {
        use core::arch::wasm32::*;
        core::hint::black_box([0xFF80, 0, 0xF800, 0xD800, 0x3F, 0x80, 0xC0, 0xE0, 3].map(|c| u16x8_splat(c)))
    };
    'units: while i < units.len() {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if i + 16 <= units.len() && o + 16 <= out.len() {
            use core::arch::wasm32::*;
            // SAFETY: units[i..i + 16] is in bounds; v128_load reads unaligned.
            let (a, b) = unsafe {
                let p = units.as_ptr().add(i).cast::<v128>();
                (v128_load(p), v128_load(p.add(1)))
            };
            if !v128_any_true(v128_and(v128_or(a, b), not_ascii)) {
                // Sixteen ASCII units: one narrowing 16-byte store.
                // SAFETY: out[o..o + 16] is in bounds; the store is unaligned.
                unsafe { v128_store(out.as_mut_ptr().add(o).cast::<v128>(), u8x16_narrow_i16x8(a, b)) };
                i += 16;
                o += 16;
                continue;
            }
            // Else, with no surrogate among them and room for 3 bytes a unit (and the last
            // 4-byte store), eight units at a time: eight ASCII ones narrowed and stored; else
            // each unit's UTF-8 (its first two bytes, then its last) and its offset (the sum
            // of the lengths before it) for the eight lanes at once, then one 4-byte store a
            // unit, in order (the bytes past a unit's length are overwritten by the next).
            let surrogate = |x: v128| u16x8_eq(v128_and(x, not_short), high);
            if o + 52 <= out.len() && !v128_any_true(v128_or(surrogate(a), surrogate(b))) {
                let p = out.as_mut_ptr().cast::<u8>();
                for x in [a, b] {
                    let ascii = u16x8_eq(v128_and(x, not_ascii), zero);
                    if u16x8_all_true(ascii) {
                        // SAFETY: out[o..o + 8] is in bounds; the store is unaligned.
                        unsafe { v128_store64_lane::<0>(u8x16_narrow_i16x8(x, x), p.add(o).cast::<u64>()) };
                        o += 8;
                        continue;
                    }
                    let short = u16x8_eq(v128_and(x, not_short), zero);
                    let s6 = u16x8_shr(x, 6);
                    let last = v128_or(v128_and(x, x3f), x80);
                    // The first two bytes: 0xE0 | u >> 12, 0x80 | (u >> 6) & 0x3F (3 bytes);
                    // 0xC0 | u >> 6, `last` (2 bytes); u (1 byte).
                    let three_bytes =
                        v128_or(v128_or(u16x8_shr(x, 12), xe0), i16x8_shl(v128_or(v128_and(s6, x3f), x80), 8));
                    let two_bytes = v128_or(v128_or(s6, xc0), i16x8_shl(last, 8));
                    let first = v128_bitselect(v128_bitselect(x, two_bytes, ascii), three_bytes, short);
                    // Each unit's length, 3 + (-1 if ASCII) + (-1 if under 0x800), the running
                    // sums of the lengths (`end`), and each unit's offset.
                    let len = i16x8_add(i16x8_add(ascii, short), three);
                    let mut end = i16x8_add(len, i16x8_shuffle::<7, 8, 9, 10, 11, 12, 13, 14>(zero, len));
                    end = i16x8_add(end, i16x8_shuffle::<6, 7, 8, 9, 10, 11, 12, 13>(zero, end));
                    end = i16x8_add(end, i16x8_shuffle::<4, 5, 6, 7, 8, 9, 10, 11>(zero, end));
                    let at = i16x8_sub(end, len);
                    let lo = i16x8_shuffle::<0, 8, 1, 9, 2, 10, 3, 11>(first, last);
                    let hi = i16x8_shuffle::<4, 12, 5, 13, 6, 14, 7, 15>(first, last);
                    // SAFETY: out[o..o + 28] is in bounds (o + 52 <= out.len() at the check, at
                    // most 24 bytes written since), each store is 4 bytes at an offset of at most
                    // 21 (3 bytes for each unit before it); the stores are unaligned.
                    unsafe {
                        let q = p.add(o);
                        v128_store32_lane::<0>(lo, q.add(u16x8_extract_lane::<0>(at) as usize).cast::<u32>());
                        v128_store32_lane::<1>(lo, q.add(u16x8_extract_lane::<1>(at) as usize).cast::<u32>());
                        v128_store32_lane::<2>(lo, q.add(u16x8_extract_lane::<2>(at) as usize).cast::<u32>());
                        v128_store32_lane::<3>(lo, q.add(u16x8_extract_lane::<3>(at) as usize).cast::<u32>());
                        v128_store32_lane::<0>(hi, q.add(u16x8_extract_lane::<4>(at) as usize).cast::<u32>());
                        v128_store32_lane::<1>(hi, q.add(u16x8_extract_lane::<5>(at) as usize).cast::<u32>());
                        v128_store32_lane::<2>(hi, q.add(u16x8_extract_lane::<6>(at) as usize).cast::<u32>());
                        v128_store32_lane::<3>(hi, q.add(u16x8_extract_lane::<7>(at) as usize).cast::<u32>());
                    }
                    o += u16x8_extract_lane::<7>(end) as usize;
                }
                i += 16;
                continue;
            }
        }
        // Else one code point at a time (one 4-byte store each) while they are not ASCII, or
        // one (a block with a surrogate, the last units).
        loop {
            let Some(&u) = units.get(i) else { break 'units };
            let Some(d) = out.get_mut(o..o + 4) else { break 'units };
            let u = u as u32;
            let (w, read, len) = if u & 0xF800 != 0xD800 {
                let w = word(u);
                (w, 1, (w >> 24) as usize)
            } else {
                // A surrogate: a pair, or a lone one (the caller reads the string itself).
                let lo = *units.get(i + 1).filter(|&&lo| u < 0xDC00 && lo & 0xFC00 == 0xDC00)? as u32;
                let c = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                let b = |shift: u32| ((c >> shift) & 0x3F) | 0x80;
                ((c >> 18) | 0xF0 | b(12) << 8 | b(6) << 16 | b(0) << 24, 2, 4)
            };
            // SAFETY: d is four writable bytes; the store is unaligned.
            unsafe { d.as_mut_ptr().cast::<u32>().write_unaligned(w.to_le()) };
            i += read;
            o += len;
            if !matches!(units.get(i), Some(&u) if u >= 0x80) {
                break;
            }
        }
    }
    *at = i;
    Some(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(units: &[u16]) {
        match String::from_utf16(units) {
            Ok(s) => assert_eq!(to_utf8(units).as_deref(), Some(s.as_str()), "{units:04x?}"),
            Err(_) => assert_eq!(to_utf8(units), None, "{units:04x?}"),
        }
    }

    #[test]
    fn words_are_the_utf8() {
        for u in (0..=0xFFFFu16).filter(|u| !(0xD800..0xE000).contains(u)) {
            let w = word(u as u32);
            let s = char::from_u32(u as u32).unwrap().to_string();
            assert_eq!((w >> 24) as usize, s.len());
            assert_eq!(&w.to_le_bytes()[..s.len()], s.as_bytes(), "{u:04x}");
        }
    }

    #[test]
    fn every_kind_at_every_lane_and_at_the_end() {
        let kinds: [&[u16]; 13] = [
            &[0x7F],
            &[0xD7FF],
            &[0xE000],
            &[0xE9],
            &[0x7FF],
            &[0x80],
            &[0x800],
            &[0x6771],
            &[0xFFFF],
            &[0xD83D, 0xDE00],
            &[0xFFFD],
            &[0xD800],
            &[0xDC00],
        ];
        for k in 0..40 {
            for ch in kinds {
                for fill in [0x61u16, 0x6771, 0xE9] {
                    let mut units = vec![fill; k];
                    units.extend_from_slice(ch);
                    for tail in [0, 1, 7, 8, 15, 16, 40 - k] {
                        let mut u = units.clone();
                        u.extend(std::iter::repeat_n(0x62, tail));
                        check(&u);
                    }
                }
            }
        }
    }

    #[test]
    fn random_texts() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pieces: [&[u16]; 14] = [
            &[0x61],
            &[0x22],
            &[0x5C],
            &[0x7F],
            &[0xE9],
            &[0x7FF],
            &[0x800],
            &[0x6771, 0x4EAC],
            &[0xFFFD],
            &[0xFFFF],
            &[0xD83D, 0xDE00],
            &[0xD800],
            &[0xDFFF],
            &[0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20],
        ];
        for round in 0..30000 {
            let mut units: Vec<u16> = Vec::new();
            for _ in 0..next() % 60 {
                let p = pieces[(next() % pieces.len() as u64) as usize];
                // Most texts without lone surrogates (the fast path).
                if round % 4 != 0 && p.len() == 1 && (0xD800..0xE000).contains(&p[0]) {
                    continue;
                }
                units.extend_from_slice(p);
            }
            check(&units);
        }
    }
}
