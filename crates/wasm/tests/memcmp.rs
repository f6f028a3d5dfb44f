//! The wasm build's `memcmp` (crates/wasm/src/mem.rs), natively: its sign is
//! that of `[u8]`'s `Ord` on every length 0-40, every position of the first
//! difference (in the words and in the tail), every offset (unaligned reads),
//! and bytes on both sides of 0x80 (compared unsigned).

#[path = "../src/mem.rs"]
mod mem;

#[test]
fn memcmp_is_the_slice_order() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut cases = 0;
    for len in 0..=40usize {
        for offset in 0..8usize {
            for diff in 0..=len {
                for (x, y) in [(0x00u8, 0xFFu8), (0x7F, 0x80), (b'a', b'b'), (0xC3, 0x9F)] {
                    let mut a: Vec<u8> = (0..offset + len).map(|_| next() as u8).collect();
                    let mut b = a.clone();
                    if diff < len {
                        a[offset + diff] = x;
                        b[offset + diff] = y;
                    }
                    let (sa, sb) = (&a[offset..], &b[offset..]);
                    for (p, q) in [(sa, sb), (sb, sa)] {
                        // SAFETY: both slices are `len` bytes long.
                        let got = unsafe { mem::memcmp(p.as_ptr(), q.as_ptr(), len) };
                        assert_eq!(
                            got.signum(),
                            p.cmp(q) as i32,
                            "len {len} offset {offset} diff {diff} {x:#x}/{y:#x}"
                        );
                        if diff < len {
                            assert_eq!(got, i32::from(p[diff]) - i32::from(q[diff]));
                        }
                        cases += 1;
                    }
                }
            }
        }
    }
    assert!(cases > 50_000);
    // n = 0 reads nothing (dangling pointers are fine).
    assert_eq!(unsafe { mem::memcmp(std::ptr::NonNull::dangling().as_ptr(), std::ptr::null(), 0) }, 0);
}
