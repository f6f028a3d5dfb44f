//! SHA-256 as the reference writes it: 64 lowercase hex digits.
//!
//! A leaf module: [`crate::json::canonical_sha256`] and the receipt verifier
//! both use it (so `json` does not depend on `receipt`).

use std::cell::RefCell;
use std::rc::Rc;

use sha2::{Digest, Sha256};

/// A SHA-256 outside this crate that the functions here use, when one is set
/// ([`set_host`]), for messages of at least [`Host::min_len`] bytes: the wasm
/// binding hands in the JavaScript host's synchronous one (`node:crypto`,
/// OpenSSL/BoringSSL with the CPU's SHA instructions: a few instructions a
/// byte against ~58 for sha2 in wasm). Shorter messages, and every message
/// when none is set, are hashed here (sha2; the 4-lane SIMD128 multi-buffer
/// code for [`sha256_hex_each`]). SHA-256 is SHA-256: the digests are the same.
///
/// A host that fails (returns `None`/`false`) is dropped ([`set_host`]`(None)`)
/// and the message is hashed here: a failing host costs time, never a result.
pub trait Host {
    /// The digest of `bytes`.
    fn digest(&self, bytes: &[u8]) -> Option<[u8; 32]>;
    /// The next piece of a streamed message (a new stream starts after [`Host::finish`]).
    fn update(&self, bytes: &[u8]) -> bool;
    /// The digest of the pieces since the last `finish`; the stream is closed either way.
    fn finish(&self) -> Option<[u8; 32]>;
    /// Messages shorter than this are hashed here (the host's per-call cost is higher).
    fn min_len(&self) -> usize;
}

thread_local! {
    // An `Rc`: a call takes its own handle ([`host`]) and holds no borrow of the cell while
    // the host (or a feed) runs, so a nested [`set_host`] (a failing host dropped inside a
    // printer's feed) cannot find the cell borrowed.
    static HOST: RefCell<Option<Rc<dyn Host>>> = const { RefCell::new(None) };
}

/// Set (or with `None` remove) the [`Host`] SHA-256.
pub fn set_host(host: Option<Box<dyn Host>>) {
    HOST.set(host.map(Rc::from));
}

/// The host set now, if any (a handle: the cell is not borrowed past this call).
fn host() -> Option<Rc<dyn Host>> {
    HOST.with_borrow(Option::clone)
}

/// The host's digest of `bytes` when a host is set and `bytes` is long enough for it;
/// a host that fails is dropped.
fn host_digest(bytes: &[u8]) -> Option<[u8; 32]> {
    let (tried, digest) = match host() {
        Some(h) if bytes.len() >= h.min_len() => (true, h.digest(bytes)),
        _ => (false, None),
    };
    if tried && digest.is_none() {
        set_host(None);
    }
    digest
}

/// SHA-256 of `bytes` as 64 lowercase hex digits.
///
/// ```
/// assert_eq!(
///     lians_score_core::hash::sha256_hex(b""),
///     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
/// );
/// ```
#[inline(never)]
pub fn sha256_hex(bytes: &[u8]) -> String {
    match host_digest(bytes) {
        Some(d) => hex(&d),
        None => sha2_hex(&mut |sink| sink(bytes)),
    }
}

/// What hands a message, piece by piece, to the sink it is given.
type Feed<'a> = dyn FnMut(&mut dyn FnMut(&[u8])) + 'a;

/// sha2's SHA-256 of the pieces `feed` hands out: the one place sha2's code
/// is instantiated (every call site of its generic code costs wasm size).
#[inline(never)]
fn sha2_hex(feed: &mut Feed<'_>) -> String {
    let mut h = Sha256::new();
    feed(&mut |b| h.update(b));
    hex(h.finalize().as_slice())
}

/// [`sha256_hex`] of the bytes `feed` hands to its callback, piece by piece
/// (the canonical text of a large value is hashed without being kept).
///
/// With a [`Host`] the pieces are kept until they reach its `min_len` (then
/// streamed to it) and `feed` is called a second time if the host fails.
pub fn sha256_hex_fed(mut feed: impl FnMut(&mut dyn FnMut(&[u8]))) -> String {
    fed(&mut feed)
}

/// [`sha256_hex_fed`], not generic (one copy in the wasm).
#[inline(never)]
fn fed(feed: &mut Feed<'_>) -> String {
    let hosted = host().map(|h| {
        let (min, mut kept, mut streaming, mut ok) = (h.min_len(), Vec::new(), false, true);
        feed(&mut |b| {
            if streaming {
                ok = ok && h.update(b);
            } else if kept.len() + b.len() < min {
                kept.extend_from_slice(b);
            } else {
                streaming = true;
                ok = (kept.is_empty() || h.update(&kept)) && h.update(b);
            }
        });
        match streaming {
            false => Ok(sha2_hex(&mut |sink| sink(&kept))),
            true => h.finish().filter(|_| ok).map(|d| hex(&d)).ok_or(()),
        }
    });
    match hosted {
        Some(Ok(hex)) => return hex,
        Some(Err(())) => set_host(None),
        None => {}
    }
    sha2_hex(feed)
}

fn hex(digest: &[u8]) -> String {
    let mut out = String::with_capacity(64);
    for &b in digest {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 15) as usize] as char);
    }
    out
}

/// SHA256-TEXT (spec `ranking-receipts.md` §1.5): the hash of the UTF-8 bytes of `text`.
pub fn sha256_text(text: &str) -> String {
    sha256_hex(text.as_bytes())
}

/// [`sha256_hex`] of each message, in order: the same strings as
/// `messages.iter().map(|m| sha256_hex(m))`.
///
/// In the wasm build (compiled with SIMD128) independent messages are hashed
/// four at a time, one per 32-bit lane of a SIMD128 vector: about 2.5× fewer
/// instructions than one at a time (BENCHMARKS.md), for the receipt
/// verifier's content hashes. Elsewhere (native: SHA-NI where present) one
/// at a time.
///
/// The four lanes are used with a [`Host`] too: for a verification's
/// contents they cost about what the host's calls do in CPU time, and
/// fewer instructions (BENCHMARKS.md "Round 10: hash").
pub fn sha256_hex_each(messages: &[&[u8]]) -> Vec<String> {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if messages.len() > 1 {
        return lanes::hash_each::<Simd>(messages).iter().map(hex_of_state).collect();
    }
    messages.iter().map(|m| sha256_hex(m)).collect()
}

/// The digest of a final state, as 64 lowercase hex digits.
#[cfg_attr(not(any(test, all(target_arch = "wasm32", target_feature = "simd128"))), allow(dead_code))]
fn hex_of_state(state: &[u32; 8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(64);
    for w in state {
        for b in w.to_be_bytes() {
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        }
    }
    out
}

/// Multi-buffer SHA-256: four messages in flight, one per lane; a lane that
/// finishes its message takes the next; the last message alone finishes on
/// the scalar compression function (one lane of four would cost more).
#[cfg_attr(not(any(test, all(target_arch = "wasm32", target_feature = "simd128"))), allow(dead_code))]
mod lanes {
    pub(super) const H0: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

    /// Four SHA-256 states and their compression function.
    pub(super) trait Four {
        fn new() -> Self;
        /// Compress one block into each lane.
        fn compress(&mut self, blocks: [&[u8; 64]; 4]);
        fn lane(&self, j: usize) -> [u32; 8];
        fn set_lane(&mut self, j: usize, state: [u32; 8]);
    }

    /// The scalar compression function (sha2's).
    pub(super) fn compress1(state: &mut [u32; 8], block: &[u8; 64]) {
        sha2::compress256(state, &[*sha2::digest::generic_array::GenericArray::from_slice(block)]);
    }

    /// Blocks of a message after padding (0x80, zeros, the 64-bit bit length).
    fn blocks(len: usize) -> usize {
        (len + 8) / 64 + 1
    }

    /// Block `k` of the padded message `m` (`buf` holds it when it is not a plain slice of `m`).
    fn block<'a>(m: &'a [u8], k: usize, buf: &'a mut [u8; 64]) -> &'a [u8; 64] {
        let start = k * 64;
        if let Some(b) = m.get(start..start + 64) {
            if let Ok(b) = b.try_into() {
                return b;
            }
        }
        *buf = [0; 64];
        let rest = m.get(start..).unwrap_or(&[]);
        buf[..rest.len()].copy_from_slice(rest);
        if start <= m.len() {
            buf[m.len() - start] = 0x80;
        }
        if k + 1 == blocks(m.len()) {
            buf[56..].copy_from_slice(&((m.len() as u64) << 3).to_be_bytes());
        }
        buf
    }

    /// The final state of each message.
    pub(super) fn hash_each<F: Four>(messages: &[&[u8]]) -> Vec<[u32; 8]> {
        let mut out = vec![[0u32; 8]; messages.len()];
        let mut four = F::new();
        // (message, next block) per lane; None: idle.
        let mut lane: [Option<(usize, usize)>; 4] = [None; 4];
        let mut next = 0;
        loop {
            for (j, l) in lane.iter_mut().enumerate() {
                if l.is_none() && next < messages.len() {
                    *l = Some((next, 0));
                    four.set_lane(j, H0);
                    next += 1;
                }
            }
            let busy = lane.iter().filter(|l| l.is_some()).count();
            if busy == 0 {
                return out;
            }
            if busy == 1 {
                // The last message: finish it one block at a time.
                for (j, l) in lane.iter_mut().enumerate() {
                    if let Some((i, k)) = l.take() {
                        let mut state = four.lane(j);
                        let mut buf = [0; 64];
                        for k in k..blocks(messages[i].len()) {
                            compress1(&mut state, block(messages[i], k, &mut buf));
                        }
                        out[i] = state;
                    }
                }
                return out;
            }
            let zero = [0u8; 64];
            let mut bufs = [[0u8; 64]; 4];
            let [b0, b1, b2, b3] = &mut bufs;
            let pick = |l: Option<(usize, usize)>, buf| l.map(|(i, k)| (messages[i], k, buf));
            four.compress([
                pick(lane[0], b0).map_or(&zero, |(m, k, b)| block(m, k, b)),
                pick(lane[1], b1).map_or(&zero, |(m, k, b)| block(m, k, b)),
                pick(lane[2], b2).map_or(&zero, |(m, k, b)| block(m, k, b)),
                pick(lane[3], b3).map_or(&zero, |(m, k, b)| block(m, k, b)),
            ]);
            for (j, l) in lane.iter_mut().enumerate() {
                if let Some((i, k)) = *l {
                    if k + 1 == blocks(messages[i].len()) {
                        out[i] = four.lane(j);
                        *l = None;
                    } else {
                        *l = Some((i, k + 1));
                    }
                }
            }
        }
    }
}

/// The four lanes in wasm SIMD128 vectors: word `i` of the four states in one `v128`.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use core::arch::wasm32::*;

    use super::lanes::{Four, H0};

    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];

    pub(super) struct Simd([v128; 8]);

    #[inline(always)]
    fn rotr(v: v128, n: u32) -> v128 {
        v128_or(u32x4_shr(v, n), u32x4_shl(v, 32 - n))
    }

    impl Four for Simd {
        fn new() -> Simd {
            Simd(H0.map(|x| u32x4_splat(x)))
        }

        fn compress(&mut self, b: [&[u8; 64]; 4]) {
            let mut w = [u32x4_splat(0); 64];
            for (i, wi) in w.iter_mut().take(16).enumerate() {
                let be = |b: &[u8; 64]| u32::from_be_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
                *wi = u32x4(be(b[0]), be(b[1]), be(b[2]), be(b[3]));
            }
            for t in 16..64 {
                let (w15, w2) = (w[t - 15], w[t - 2]);
                let s0 = v128_xor(v128_xor(rotr(w15, 7), rotr(w15, 18)), u32x4_shr(w15, 3));
                let s1 = v128_xor(v128_xor(rotr(w2, 17), rotr(w2, 19)), u32x4_shr(w2, 10));
                w[t] = u32x4_add(u32x4_add(w[t - 16], s0), u32x4_add(w[t - 7], s1));
            }
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = self.0;
            for (wt, kt) in w.iter().zip(K) {
                let s1 = v128_xor(v128_xor(rotr(e, 6), rotr(e, 11)), rotr(e, 25));
                let ch = v128_xor(g, v128_and(e, v128_xor(f, g)));
                let t1 = u32x4_add(u32x4_add(h, s1), u32x4_add(ch, u32x4_add(*wt, u32x4_splat(kt))));
                let s0 = v128_xor(v128_xor(rotr(a, 2), rotr(a, 13)), rotr(a, 22));
                let maj = v128_or(v128_and(a, b), v128_and(c, v128_or(a, b)));
                h = g;
                g = f;
                f = e;
                e = u32x4_add(d, t1);
                d = c;
                c = b;
                b = a;
                a = u32x4_add(t1, u32x4_add(s0, maj));
            }
            for (s, v) in self.0.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                *s = u32x4_add(*s, v);
            }
        }

        fn lane(&self, j: usize) -> [u32; 8] {
            self.0.map(|v| {
                let l = [
                    u32x4_extract_lane::<0>(v),
                    u32x4_extract_lane::<1>(v),
                    u32x4_extract_lane::<2>(v),
                    u32x4_extract_lane::<3>(v),
                ];
                l[j & 3]
            })
        }

        fn set_lane(&mut self, j: usize, state: [u32; 8]) {
            for (v, x) in self.0.iter_mut().zip(state) {
                let mut l = [
                    u32x4_extract_lane::<0>(*v),
                    u32x4_extract_lane::<1>(*v),
                    u32x4_extract_lane::<2>(*v),
                    u32x4_extract_lane::<3>(*v),
                ];
                l[j & 3] = x;
                *v = u32x4(l[0], l[1], l[2], l[3]);
            }
        }
    }
}
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use simd::Simd;

#[cfg(test)]
mod tests {
    use super::lanes::{self, compress1, Four, H0};
    use super::*;

    /// Four lanes computed one at a time: the multi-buffer schedule on its own.
    struct Soft([[u32; 8]; 4]);

    impl Four for Soft {
        fn new() -> Soft {
            Soft([H0; 4])
        }
        fn compress(&mut self, blocks: [&[u8; 64]; 4]) {
            for (s, b) in self.0.iter_mut().zip(blocks) {
                compress1(s, b);
            }
        }
        fn lane(&self, j: usize) -> [u32; 8] {
            self.0[j]
        }
        fn set_lane(&mut self, j: usize, state: [u32; 8]) {
            self.0[j] = state;
        }
    }

    #[test]
    fn multi_buffer_equals_one_at_a_time() {
        // Deterministic pseudo-random bytes and lengths (xorshift).
        let mut x: u64 = 0x9e3779b97f4a7c15;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let data: Vec<u8> = (0..300_000).map(|_| rnd() as u8).collect();
        let mut sets: Vec<Vec<usize>> = vec![vec![], vec![0], vec![0, 0], (0..300).collect(), (0..300).rev().collect()];
        sets.push(vec![250_000, 3, 64, 55, 56, 63, 119, 120]); // one long message and short ones
        sets.push(vec![1, 2, 3, 200_000, 5]);
        for _ in 0..20 {
            let n = (rnd() % 40) as usize;
            sets.push((0..n).map(|_| (rnd() % if rnd() % 8 == 0 { 20_000 } else { 300 }) as usize).collect());
        }
        for lens in sets {
            let msgs: Vec<&[u8]> =
                lens.iter().enumerate().map(|(i, &n)| &data[(i * 7919) % 1000..(i * 7919) % 1000 + n]).collect();
            let want: Vec<String> = msgs.iter().map(|m| sha256_hex(m)).collect();
            let got: Vec<String> = lanes::hash_each::<Soft>(&msgs).iter().map(hex_of_state).collect();
            assert_eq!(got, want, "lengths {lens:?}");
            assert_eq!(sha256_hex_each(&msgs), want);
        }
    }

    /// A host SHA-256 (sha2 underneath) that counts its calls and fails the `fail_at`-th.
    struct Counting {
        calls: std::rc::Rc<std::cell::Cell<usize>>,
        fail_at: usize,
        stream: RefCell<Sha256>,
    }

    impl Counting {
        fn call(&self) -> bool {
            self.calls.set(self.calls.get() + 1);
            self.calls.get() != self.fail_at
        }
    }

    impl Host for Counting {
        fn digest(&self, bytes: &[u8]) -> Option<[u8; 32]> {
            self.call().then(|| Sha256::digest(bytes).into())
        }
        fn update(&self, bytes: &[u8]) -> bool {
            self.stream.borrow_mut().update(bytes);
            self.call()
        }
        fn finish(&self) -> Option<[u8; 32]> {
            let digest = std::mem::take(&mut *self.stream.borrow_mut()).finalize().into();
            self.call().then_some(digest)
        }
        fn min_len(&self) -> usize {
            100
        }
    }

    #[test]
    fn a_host_hashes_long_messages_and_a_failing_one_is_dropped() {
        let long = vec![7u8; 300_000];
        let short = [b"abc".as_slice(), &long[..99]];
        let all = [&long[..100], &long[..], short[0], short[1]];
        let want_each: Vec<String> = all.iter().map(|m| hex(&Sha256::digest(m))).collect();
        let fed = |sink: &mut dyn FnMut(&[u8])| long.chunks(65_536).chain(short).for_each(&mut *sink);
        let want_fed = hex(&Sha256::digest([&long[..], short[0], short[1]].concat()));
        // fail_at 0: never fails; else the n-th host call fails, and the host is dropped.
        for fail_at in [0, 1, 2, 3, 5, 7] {
            let calls = std::rc::Rc::new(std::cell::Cell::new(0));
            let host = Counting { calls: calls.clone(), fail_at, stream: RefCell::default() };
            set_host(Some(Box::new(host)));
            assert_eq!(sha256_hex(short[1]), want_each[3], "short: not the host");
            assert_eq!(calls.get(), 0);
            assert_eq!(sha256_hex_fed(|sink| sink(short[0])), hex(&Sha256::digest(short[0])));
            assert_eq!(calls.get(), 0, "a short stream is kept and hashed here");
            assert_eq!(sha256_hex_each(&all), want_each, "fail at {fail_at}");
            assert_eq!(sha256_hex_fed(fed), want_fed, "fail at {fail_at}");
            assert_eq!(sha256_hex(&long), want_each[1], "fail at {fail_at}");
            let n = calls.get();
            let dropped = HOST.with_borrow(Option::is_none);
            assert_eq!(dropped, fail_at != 0 && fail_at <= n, "fail at {fail_at}, {n} calls");
            if fail_at == 0 {
                // each: natively one at a time through sha256_hex (the wasm's four lanes never call the host)
                assert_eq!(n, 2 + 8 + 1, "each: two long messages; fed: 7 pieces and finish; one");
            }
            set_host(None);
        }
    }

    /// A host that fails while a fed message is streaming to it is dropped by a nested call
    /// (here: a digest asked for inside the feed): the cell is not borrowed then (it was, and
    /// `set_host(None)` panicked), and both digests are still right.
    #[test]
    fn a_host_dropped_inside_a_feed_does_not_panic() {
        let long = vec![9u8; 1_000];
        let want = hex(&Sha256::digest(&long));
        let calls = std::rc::Rc::new(std::cell::Cell::new(0));
        // the first host call (the nested digest) fails: the host is dropped from inside the feed
        let host = Counting { calls: calls.clone(), fail_at: 1, stream: RefCell::default() };
        set_host(Some(Box::new(host)));
        let mut nested = String::new();
        let outer = sha256_hex_fed(|sink| {
            nested = sha256_hex(&long);
            sink(&long);
        });
        assert_eq!((outer, nested), (want.clone(), want));
        assert!(HOST.with_borrow(Option::is_none), "the failing host is dropped");
        set_host(None);
    }
}
