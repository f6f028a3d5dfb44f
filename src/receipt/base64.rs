//! Strict base64 (standard alphabet, padded), as Python's
//! `base64.b64decode(s, validate=True)` accepts it: only `A-Z a-z 0-9 + /`,
//! length a multiple of 4, `=` padding only at the end (at most two).
//! Non-zero unused bits in the last quantum are accepted, as Python does.

/// Decode, or None if `s` is not strict base64.
pub fn decode_strict(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() % 4 != 0 {
        return None;
    }
    let pad = b.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 || (pad > 0 && b.len() < 4) {
        return None;
    }
    let body = &b[..b.len() - pad];
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for &c in body {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::decode_strict;

    #[test]
    fn strict() {
        assert_eq!(decode_strict("aGk=").unwrap(), b"hi");
        assert_eq!(decode_strict("aGV5").unwrap(), b"hey");
        assert_eq!(decode_strict("").unwrap(), b"");
        assert!(decode_strict("aGk").is_none());
        assert!(decode_strict("aG=k").is_none());
        assert!(decode_strict("a===").is_none());
        assert!(decode_strict("aGk=\n").is_none());
        assert!(decode_strict("aG-_").is_none());
        assert_eq!(decode_strict("HR0KHIwe3Q5NrCaXPFCtn5lHVPYx5x2+OxJQy3neIT8=").unwrap().len(), 32);
    }
}
