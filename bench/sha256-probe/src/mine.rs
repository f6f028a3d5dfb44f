const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];
const H0: [u32; 8] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

pub fn compress(state: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = [0u32; 16];
    for (i, c) in block.chunks_exact(4).enumerate() {
        w[i] = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    macro_rules! r {
        ($a:ident,$b:ident,$c:ident,$d:ident,$e:ident,$f:ident,$g:ident,$h:ident,$i:expr) => {
            let t1 = $h.wrapping_add($e.rotate_right(6) ^ $e.rotate_right(11) ^ $e.rotate_right(25))
                .wrapping_add($g ^ ($e & ($f ^ $g)))
                .wrapping_add(K[$i]).wrapping_add(w[$i & 15]);
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add($a.rotate_right(2) ^ $a.rotate_right(13) ^ $a.rotate_right(22))
                .wrapping_add(($a & $b) | ($c & ($a | $b)));
        };
    }
    macro_rules! s {
        ($i:expr) => {{
            let w15 = w[($i + 1) & 15];
            let w2 = w[($i + 14) & 15];
            let s0 = w15.rotate_right(7) ^ w15.rotate_right(18) ^ (w15 >> 3);
            let s1 = w2.rotate_right(17) ^ w2.rotate_right(19) ^ (w2 >> 10);
            w[$i & 15] = w[$i & 15].wrapping_add(s0).wrapping_add(w[($i + 9) & 15]).wrapping_add(s1);
        }};
    }
    macro_rules! eight {
        ($i:expr) => {
            r!(a, b, c, d, e, f, g, h, $i);
            r!(h, a, b, c, d, e, f, g, $i + 1);
            r!(g, h, a, b, c, d, e, f, $i + 2);
            r!(f, g, h, a, b, c, d, e, $i + 3);
            r!(e, f, g, h, a, b, c, d, $i + 4);
            r!(d, e, f, g, h, a, b, c, $i + 5);
            r!(c, d, e, f, g, h, a, b, $i + 6);
            r!(b, c, d, e, f, g, h, a, $i + 7);
        };
    }
    eight!(0); eight!(8);
    for j in [16usize, 32, 48] {
        // rounds j..j+16 with schedule computed in place
        let base = j;
        macro_rules! rs { ($a:ident,$b:ident,$c:ident,$d:ident,$e:ident,$f:ident,$g:ident,$h:ident,$k:expr) => {
            s!($k);
            let t1 = $h.wrapping_add($e.rotate_right(6) ^ $e.rotate_right(11) ^ $e.rotate_right(25))
                .wrapping_add($g ^ ($e & ($f ^ $g)))
                .wrapping_add(K[base + $k]).wrapping_add(w[$k & 15]);
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add($a.rotate_right(2) ^ $a.rotate_right(13) ^ $a.rotate_right(22))
                .wrapping_add(($a & $b) | ($c & ($a | $b)));
        }; }
        rs!(a, b, c, d, e, f, g, h, 0); rs!(h, a, b, c, d, e, f, g, 1); rs!(g, h, a, b, c, d, e, f, 2); rs!(f, g, h, a, b, c, d, e, 3);
        rs!(e, f, g, h, a, b, c, d, 4); rs!(d, e, f, g, h, a, b, c, 5); rs!(c, d, e, f, g, h, a, b, 6); rs!(b, c, d, e, f, g, h, a, 7);
        rs!(a, b, c, d, e, f, g, h, 8); rs!(h, a, b, c, d, e, f, g, 9); rs!(g, h, a, b, c, d, e, f, 10); rs!(f, g, h, a, b, c, d, e, 11);
        rs!(e, f, g, h, a, b, c, d, 12); rs!(d, e, f, g, h, a, b, c, 13); rs!(c, d, e, f, g, h, a, b, 14); rs!(b, c, d, e, f, g, h, a, 15);
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

pub fn digest(data: &[u8]) -> [u8; 32] {
    let mut st = H0;
    let mut blocks = data.chunks_exact(64);
    for b in &mut blocks {
        compress(&mut st, b.try_into().unwrap());
    }
    let rest = blocks.remainder();
    let mut last = [0u8; 128];
    last[..rest.len()].copy_from_slice(rest);
    last[rest.len()] = 0x80;
    let n = if rest.len() < 56 { 64 } else { 128 };
    last[n - 8..n].copy_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for b in last[..n].chunks_exact(64) {
        compress(&mut st, b.try_into().unwrap());
    }
    let mut out = [0u8; 32];
    for (o, s) in out.chunks_exact_mut(4).zip(st) {
        o.copy_from_slice(&s.to_be_bytes());
    }
    out
}

pub fn compress_rolled(state: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = [0u32; 64];
    for (i, c) in block.chunks_exact(4).enumerate() {
        w[i] = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
    }
    for t in 16..64 {
        let w15 = w[t - 15];
        let w2 = w[t - 2];
        let s0 = w15.rotate_right(7) ^ w15.rotate_right(18) ^ (w15 >> 3);
        let s1 = w2.rotate_right(17) ^ w2.rotate_right(19) ^ (w2 >> 10);
        w[t] = w[t - 16].wrapping_add(s0).wrapping_add(w[t - 7]).wrapping_add(s1);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for t in 0..64 {
        let t1 = h.wrapping_add(e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25))
            .wrapping_add(g ^ (e & (f ^ g)))
            .wrapping_add(K[t]).wrapping_add(w[t]);
        let t2 = (a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22)).wrapping_add((a & b) | (c & (a | b)));
        h = g; g = f; f = e; e = d.wrapping_add(t1); d = c; c = b; b = a; a = t1.wrapping_add(t2);
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}
pub fn digest_with(data: &[u8], compress: fn(&mut [u32; 8], &[u8; 64])) -> [u8; 32] {
    let mut st = H0;
    let mut blocks = data.chunks_exact(64);
    for b in &mut blocks {
        compress(&mut st, b.try_into().unwrap());
    }
    let rest = blocks.remainder();
    let mut last = [0u8; 128];
    last[..rest.len()].copy_from_slice(rest);
    last[rest.len()] = 0x80;
    let n = if rest.len() < 56 { 64 } else { 128 };
    last[n - 8..n].copy_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for b in last[..n].chunks_exact(64) {
        compress(&mut st, b.try_into().unwrap());
    }
    let mut out = [0u8; 32];
    for (o, s) in out.chunks_exact_mut(4).zip(st) {
        o.copy_from_slice(&s.to_be_bytes());
    }
    out
}

#[cfg(target_feature = "simd128")]
pub fn compress_simd(state: &mut [u32; 8], block: &[u8; 64]) {
    use core::arch::wasm32::*;
    let be = |i: usize| u32::from_be_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]]);
    // w[0..4], w[4..8], ...
    let mut x = [
        u32x4(be(0), be(1), be(2), be(3)),
        u32x4(be(4), be(5), be(6), be(7)),
        u32x4(be(8), be(9), be(10), be(11)),
        u32x4(be(12), be(13), be(14), be(15)),
    ];
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    #[inline(always)]
    fn rotr(v: v128, n: u32) -> v128 { v128_or(u32x4_shr(v, n), u32x4_shl(v, 32 - n)) }
    #[inline(always)]
    fn k4(i: usize) -> v128 { u32x4(K[i], K[i + 1], K[i + 2], K[i + 3]) }
    macro_rules! r {
        ($a:ident,$b:ident,$c:ident,$d:ident,$e:ident,$f:ident,$g:ident,$h:ident,$wk:expr) => {
            let t1 = $h.wrapping_add($e.rotate_right(6) ^ $e.rotate_right(11) ^ $e.rotate_right(25))
                .wrapping_add($g ^ ($e & ($f ^ $g)))
                .wrapping_add($wk);
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add($a.rotate_right(2) ^ $a.rotate_right(13) ^ $a.rotate_right(22))
                .wrapping_add(($a & $b) | ($c & ($a | $b)));
        };
    }
    for q in 0..16 {
        let v = x[q & 3];
        let wk = u32x4_add(v, k4(q * 4));
        let (w0, w1, w2, w3) = (u32x4_extract_lane::<0>(wk), u32x4_extract_lane::<1>(wk), u32x4_extract_lane::<2>(wk), u32x4_extract_lane::<3>(wk));
        if q % 2 == 0 {
            r!(a, b, c, d, e, f, g, h, w0); r!(h, a, b, c, d, e, f, g, w1); r!(g, h, a, b, c, d, e, f, w2); r!(f, g, h, a, b, c, d, e, w3);
        } else {
            r!(e, f, g, h, a, b, c, d, w0); r!(d, e, f, g, h, a, b, c, w1); r!(c, d, e, f, g, h, a, b, w2); r!(b, c, d, e, f, g, h, a, w3);
        }
        if q < 12 {
            // next schedule quad: W[t..t+4] for t = 16 + 4q, from x[q&3]=W[t-16..], x[(q+1)&3]=W[t-12..], x[(q+2)&3]=W[t-8..], x[(q+3)&3]=W[t-4..]
            let w16 = x[q & 3];
            let w12 = x[(q + 1) & 3];
            let w8 = x[(q + 2) & 3];
            let w4 = x[(q + 3) & 3];
            // W[t-15..t-11] = lanes 1..3 of w16, lane 0 of w12
            let w15 = i32x4_shuffle::<1, 2, 3, 4>(w16, w12);
            // W[t-7..t-3] = lanes 1..3 of w8, lane 0 of w4
            let w7 = i32x4_shuffle::<1, 2, 3, 4>(w8, w4);
            let s0 = v128_xor(v128_xor(rotr(w15, 7), rotr(w15, 18)), u32x4_shr(w15, 3));
            let mut t = u32x4_add(u32x4_add(w16, s0), w7);
            // sigma1 of W[t-2], W[t-1] (lanes 2,3 of w4) for lanes 0,1
            let w2 = i32x4_shuffle::<2, 3, 2, 3>(w4, w4);
            let s1 = v128_xor(v128_xor(rotr(w2, 17), rotr(w2, 19)), u32x4_shr(w2, 10));
            let s1 = i32x4_shuffle::<0, 1, 4, 4>(s1, u32x4_splat(0));
            t = u32x4_add(t, s1);
            // lanes 2,3 need sigma1 of new lanes 0,1
            let n01 = i32x4_shuffle::<0, 1, 0, 1>(t, t);
            let s1b = v128_xor(v128_xor(rotr(n01, 17), rotr(n01, 19)), u32x4_shr(n01, 10));
            let s1b = i32x4_shuffle::<4, 4, 2, 3>(s1b, u32x4_splat(0));
            t = u32x4_add(t, s1b);
            x[q & 3] = t;
        }
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

/// 4 independent blocks, one per lane (rolled: small code).
#[cfg(target_feature = "simd128")]
pub fn compress4(state: &mut [core::arch::wasm32::v128; 8], blocks: [&[u8; 64]; 4]) {
    use core::arch::wasm32::*;
    #[inline(always)]
    fn rotr(v: v128, n: u32) -> v128 { v128_or(u32x4_shr(v, n), u32x4_shl(v, 32 - n)) }
    let mut w = [u32x4_splat(0); 64];
    for i in 0..16 {
        let be = |b: &[u8; 64]| u32::from_be_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
        w[i] = u32x4(be(blocks[0]), be(blocks[1]), be(blocks[2]), be(blocks[3]));
    }
    for t in 16..64 {
        let w15 = w[t - 15];
        let w2 = w[t - 2];
        let s0 = v128_xor(v128_xor(rotr(w15, 7), rotr(w15, 18)), u32x4_shr(w15, 3));
        let s1 = v128_xor(v128_xor(rotr(w2, 17), rotr(w2, 19)), u32x4_shr(w2, 10));
        w[t] = u32x4_add(u32x4_add(w[t - 16], s0), u32x4_add(w[t - 7], s1));
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for t in 0..64 {
        let s1 = v128_xor(v128_xor(rotr(e, 6), rotr(e, 11)), rotr(e, 25));
        let ch = v128_xor(g, v128_and(e, v128_xor(f, g)));
        let t1 = u32x4_add(u32x4_add(h, s1), u32x4_add(ch, u32x4_add(w[t], u32x4_splat(K[t]))));
        let s0 = v128_xor(v128_xor(rotr(a, 2), rotr(a, 13)), rotr(a, 22));
        let maj = v128_or(v128_and(a, b), v128_and(c, v128_or(a, b)));
        h = g; g = f; f = e; e = u32x4_add(d, t1); d = c; c = b; b = a; a = u32x4_add(t1, u32x4_add(s0, maj));
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = u32x4_add(*s, v);
    }
}
/// Hash 4 equal-length messages (for the measurement).
#[cfg(target_feature = "simd128")]
pub fn digest4_same_len(data: [&[u8]; 4]) -> [[u8; 32]; 4] {
    use core::arch::wasm32::*;
    let mut st = H0.map(|x| u32x4_splat(x));
    let n = data[0].len();
    let full = n / 64;
    for i in 0..full {
        let blk = |k: usize| -> &[u8; 64] { data[k][64 * i..64 * i + 64].try_into().unwrap() };
        compress4(&mut st, [blk(0), blk(1), blk(2), blk(3)]);
    }
    let pad = |d: &[u8]| { let rest = &d[full * 64..]; let mut last = [0u8; 128]; last[..rest.len()].copy_from_slice(rest); last[rest.len()] = 0x80; let m = if rest.len() < 56 { 64 } else { 128 }; last[m - 8..m].copy_from_slice(&((d.len() as u64) * 8).to_be_bytes()); (last, m) };
    let p = [pad(data[0]), pad(data[1]), pad(data[2]), pad(data[3])];
    let mut o = 0;
    while o < p[0].1 {
        let blk = |k: usize| -> &[u8; 64] { p[k].0[o..o + 64].try_into().unwrap() };
        compress4(&mut st, [blk(0), blk(1), blk(2), blk(3)]);
        o += 64;
    }
    let mut out = [[0u8; 32]; 4];
    for (j, s) in st.iter().enumerate() {
        let lanes = [u32x4_extract_lane::<0>(*s), u32x4_extract_lane::<1>(*s), u32x4_extract_lane::<2>(*s), u32x4_extract_lane::<3>(*s)];
        for k in 0..4 { out[k][4 * j..4 * j + 4].copy_from_slice(&lanes[k].to_be_bytes()); }
    }
    out
}
