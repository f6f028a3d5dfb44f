//! SHA-256 as the reference writes it: 64 lowercase hex digits.
//!
//! A leaf module: [`crate::json::canonical_sha256`] and the receipt verifier
//! both use it (so `json` does not depend on `receipt`).

use sha2::{Digest, Sha256};

/// SHA-256 of `bytes` as 64 lowercase hex digits.
///
/// ```
/// assert_eq!(
///     lians_score_core::hash::sha256_hex(b""),
///     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
/// );
/// ```
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 15) as usize] as char);
    }
    out
}

/// SHA256-TEXT (spec §1.5): the hash of the UTF-8 bytes of `text`.
pub fn sha256_text(text: &str) -> String {
    sha256_hex(text.as_bytes())
}
