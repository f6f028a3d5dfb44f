//! SHA-256 in wasm, measured (issue #15, BENCHMARKS.md "SHA-256 in wasm: what pays"): a standalone
//! module, not part of the package and built by no script. Each export hashes the first `len` bytes
//! of BUF (filled by run.mjs) into OUT with one variant: sha2 0.10 (its soft back end, what the
//! package ships), a hand-unrolled scalar, a rolled scalar, a SIMD128 message schedule and a 4-lane
//! multi-buffer (4 independent messages, one per lane). run.mjs checks every variant against
//! node:crypto, then runs one N times for callgrind:
//!   cargo build --release --target wasm32-unknown-unknown                       (scalar variants)
//!   RUSTFLAGS="-C target-feature=+simd128" cargo build --release --target wasm32-unknown-unknown --target-dir target-simd
//!   node run.mjs check 0 WASM; valgrind --tool=callgrind node --single-threaded --no-liftoff \
//!     --no-wasm-lazy-compilation run.mjs h_four N WASM      (difference of two N = N calls)
#![allow(static_mut_refs)]
use sha2::{Digest, Sha256};
static mut BUF: [u8; 1 << 20] = [0; 1 << 20];
static mut OUT: [u8; 32] = [0; 32];
#[no_mangle] pub extern "C" fn buf() -> *mut u8 { core::ptr::addr_of_mut!(BUF) as *mut u8 }
#[no_mangle] pub extern "C" fn out() -> *mut u8 { core::ptr::addr_of_mut!(OUT) as *mut u8 }
#[no_mangle] pub extern "C" fn h_sha2(len: usize) { unsafe { let d = Sha256::digest(&BUF[..len]); OUT.copy_from_slice(&d); } }
#[no_mangle] pub extern "C" fn h_mine(len: usize) { unsafe { let d = mine::digest(&BUF[..len]); OUT.copy_from_slice(&d); } }
mod mine;
#[no_mangle] pub extern "C" fn h_rolled(len: usize) { unsafe { let d = mine::digest_with(&BUF[..len], mine::compress_rolled); OUT.copy_from_slice(&d); } }
#[cfg(target_feature = "simd128")]
#[no_mangle] pub extern "C" fn h_simd(len: usize) { unsafe { let d = mine::digest_with(&BUF[..len], mine::compress_simd); OUT.copy_from_slice(&d); } }
/// 4 messages of len/4 bytes each (quarters of the buffer); OUT = digest of the first.
#[cfg(target_feature = "simd128")]
#[no_mangle] pub extern "C" fn h_four(len: usize) { unsafe { let q = len / 4; let d = mine::digest4_same_len([&BUF[..q], &BUF[q..2 * q], &BUF[2 * q..3 * q], &BUF[3 * q..4 * q]]); OUT.copy_from_slice(&d[0]); } }
#[cfg(target_feature = "simd128")]
#[no_mangle] pub extern "C" fn h_four_check(len: usize, k: usize) { unsafe { let q = len / 4; let d = mine::digest4_same_len([&BUF[..q], &BUF[q..2 * q], &BUF[2 * q..3 * q], &BUF[3 * q..4 * q]]); OUT.copy_from_slice(&d[k]); } }
