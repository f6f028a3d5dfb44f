//! `memcmp` for the wasm build (issue #32 item 3: "a word-at-a-time
//! `memcmp`"). compiler_builtins' weak `memcmp`, which every `==` on strings
//! and byte slices longer than a few bytes calls, compares byte by byte
//! (~4 wasm instructions a byte). This strong definition replaces it in the
//! link: eight bytes a step, then the tail byte by byte. The result's sign is
//! the C one: that of the first differing byte (as unsigned) of `a` minus
//! that of `b`; 0 when the `n` bytes are equal.

/// # Safety
/// As C's `memcmp`: `a` and `b` readable for `n` bytes (any alignment; not
/// read at all when `n` is 0).
#[cfg_attr(target_arch = "wasm32", no_mangle)]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    let mut i = 0;
    while n - i >= 8 {
        // SAFETY: i + 8 <= n (i <= n throughout): both ranges are readable (caller's contract).
        let (x, y) = unsafe { (a.add(i).cast::<u64>().read_unaligned(), b.add(i).cast::<u64>().read_unaligned()) };
        if x != y {
            // Little-endian: the first differing byte is the lowest one of x ^ y.
            let k = i + ((x ^ y).trailing_zeros() / 8) as usize;
            // SAFETY: k < i + 8 <= n.
            return unsafe { i32::from(*a.add(k)) - i32::from(*b.add(k)) };
        }
        i += 8;
    }
    while i < n {
        // SAFETY: i < n.
        let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
        i += 1;
    }
    0
}
