//! Python's `str`: code points, lone surrogates included, stored as WTF-8.
//!
//! The string type of the JSON model ([`crate::json::Value::Str`], object
//! keys) and of the datetime parser ([`crate::py::time`]); it lives here, below
//! both, so neither module depends on the other for it.

use std::borrow::Cow;
use std::fmt;

/// A Python `str`: a sequence of code points that may include lone
/// surrogates, stored as WTF-8 bytes. Byte order of WTF-8 equals code-point
/// order, so `Ord` sorts keys the way Python's `sorted()` does.
///
/// Text without lone surrogates (nearly all) is kept as a `str`, so reading
/// it back ([`PyStr::as_str`], [`PyStr::to_str_lossy`]) costs nothing; only
/// text with lone surrogates is kept as raw WTF-8 bytes.
#[derive(Clone)]
pub struct PyStr {
    repr: Repr,
}

#[derive(Clone)]
enum Repr {
    /// Valid UTF-8.
    Utf8(Box<str>),
    /// WTF-8 with at least one lone surrogate.
    Wtf8(Box<[u8]>),
}

impl Default for PyStr {
    fn default() -> PyStr {
        PyStr { repr: Repr::Utf8(Box::from("")) }
    }
}

impl PartialEq for PyStr {
    fn eq(&self, other: &PyStr) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for PyStr {}

impl PartialOrd for PyStr {
    fn partial_cmp(&self, other: &PyStr) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PyStr {
    fn cmp(&self, other: &PyStr) -> std::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl std::hash::Hash for PyStr {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state)
    }
}

impl PyStr {
    /// Wrap WTF-8 bytes. The caller guarantees the bytes are well-formed
    /// WTF-8 (UTF-8 that may also encode surrogate code points, never a
    /// surrogate pair).
    pub fn from_wtf8(bytes: Vec<u8>) -> PyStr {
        match String::from_utf8(bytes) {
            Ok(s) => PyStr::from(s),
            Err(e) => PyStr { repr: Repr::Wtf8(e.into_bytes().into_boxed_slice()) },
        }
    }

    /// The WTF-8 bytes (equal to UTF-8 when there are no lone surrogates).
    pub fn as_bytes(&self) -> &[u8] {
        match &self.repr {
            Repr::Utf8(s) => s.as_bytes(),
            Repr::Wtf8(b) => b,
        }
    }

    /// The text, if it has no lone surrogates.
    pub fn as_str(&self) -> Option<&str> {
        match &self.repr {
            Repr::Utf8(s) => Some(s),
            Repr::Wtf8(_) => None,
        }
    }

    /// The text with each lone surrogate replaced by U+FFFD.
    pub fn to_str_lossy(&self) -> Cow<'_, str> {
        match &self.repr {
            Repr::Utf8(s) => Cow::Borrowed(s),
            Repr::Wtf8(bytes) => Cow::Owned(lossy(bytes)),
        }
    }

    /// True when the string holds a lone surrogate (not valid UTF-8).
    pub fn has_lone_surrogates(&self) -> bool {
        matches!(self.repr, Repr::Wtf8(_))
    }

    /// True for the empty string.
    pub fn is_empty(&self) -> bool {
        self.as_bytes().is_empty()
    }

    /// Code points (surrogates included), decoded from WTF-8.
    pub fn code_points(&self) -> CodePoints<'_> {
        CodePoints { bytes: self.as_bytes(), pos: 0 }
    }
}

/// WTF-8 bytes as text, each lone surrogate replaced by U+FFFD.
pub(crate) fn lossy(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for cp in (CodePoints { bytes, pos: 0 }) {
        out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
    }
    out
}

/// Iterator over the code points of WTF-8 bytes.
pub struct CodePoints<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Iterator for CodePoints<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let b = self.bytes;
        let i = self.pos;
        let b0 = *b.get(i)? as u32;
        let (cp, len) = if b0 < 0x80 {
            (b0, 1)
        } else if b0 < 0xE0 {
            (((b0 & 0x1F) << 6) | (b[i + 1] as u32 & 0x3F), 2)
        } else if b0 < 0xF0 {
            (((b0 & 0x0F) << 12) | ((b[i + 1] as u32 & 0x3F) << 6) | (b[i + 2] as u32 & 0x3F), 3)
        } else {
            (
                ((b0 & 0x07) << 18)
                    | ((b[i + 1] as u32 & 0x3F) << 12)
                    | ((b[i + 2] as u32 & 0x3F) << 6)
                    | (b[i + 3] as u32 & 0x3F),
                4,
            )
        };
        self.pos = i + len;
        Some(cp)
    }
}

impl From<String> for PyStr {
    fn from(s: String) -> PyStr {
        PyStr { repr: Repr::Utf8(s.into_boxed_str()) }
    }
}

impl From<&str> for PyStr {
    fn from(s: &str) -> PyStr {
        PyStr::from(s.to_string())
    }
}

impl fmt::Debug for PyStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.to_str_lossy(), f)
    }
}

impl fmt::Display for PyStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_str_lossy())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogate_reads_lossily() {
        // "a" + U+D800 (WTF-8 ED A0 80) + "b"
        let s = PyStr::from_wtf8(vec![b'a', 0xED, 0xA0, 0x80, b'b']);
        assert!(s.has_lone_surrogates());
        assert_eq!(s.as_str(), None);
        assert_eq!(s.to_str_lossy(), "a\u{FFFD}b");
        assert_eq!(s.code_points().collect::<Vec<_>>(), vec![0x61, 0xD800, 0x62]);
    }

    #[test]
    fn wtf8_order_is_code_point_order() {
        let bmp_high = PyStr::from("\u{FF01}");
        let astral = PyStr::from("\u{1F600}");
        let surrogate = PyStr::from_wtf8(vec![0xED, 0xA0, 0x80]);
        let e000 = PyStr::from("\u{E000}");
        assert!(bmp_high < astral);
        assert!(surrogate < e000);
        assert!(PyStr::from("Z") < PyStr::from("z"));
    }
}
