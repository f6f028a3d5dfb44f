//! The JSON data model shared by the scorer and the receipt verifier.
//!
//! It is Python's view of a JSON document as `json.loads` builds it, which is
//! richer than JavaScript's and than `serde_json::Value`'s defaults:
//!
//! * **Integers and floats are different types.** `1` is an `int` and `1.0` a
//!   `float`; Python prints them differently (`1` / `1.0`), so they flatten,
//!   tokenize and hash differently. Integers have arbitrary size and are kept
//!   as exact decimal text.
//! * **Object key order is insertion order**, and a duplicate key keeps the
//!   position of its first occurrence with the value of its last (what
//!   `dict(pairs)` does).
//! * **Strings may hold lone surrogates** (`"\ud800"` is a valid Python
//!   string). [`PyStr`] stores WTF-8, so such strings survive unchanged into
//!   canonical printing and hashing, while scoring reads them lossily (a lone
//!   surrogate and U+FFFD are both one non-word code point, so scores agree).

use std::borrow::Cow;
use std::fmt;

/// A string value (`Value::str`), so `"recall".into()` builds one.
impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::str(s)
    }
}

/// A JSON value as CPython's `json.loads` would build it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `None`.
    Null,
    /// `True` / `False`.
    Bool(bool),
    /// A Python `int`: optional `-` then decimal digits without leading zeros
    /// (`-0` is normalised to `0`).
    Int(Box<str>),
    /// A Python `float` (may be NaN or infinite: `NaN`, `Infinity`, `1e400`).
    Float(f64),
    /// A Python `str` (may hold lone surrogates).
    Str(PyStr),
    /// A Python `list`.
    Array(Vec<Value>),
    /// A Python `dict` (insertion-ordered).
    Object(Object),
}

impl Value {
    /// Python's type name, for error messages ("str", "int", "dict", ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// A string value.
    pub fn str(s: impl Into<String>) -> Value {
        Value::Str(PyStr::from(s.into()))
    }

    /// An integer value from a machine integer.
    pub fn int(i: i64) -> Value {
        Value::Int(i.to_string().into_boxed_str())
    }

    /// The members, if this is an object.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The string, if this is a string without lone surrogates.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => s.as_str(),
            _ => None,
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Python truthiness: `""`, `0`, `0.0`, `-0.0`, `False`, `[]`, `{}` and
    /// `None` are false. NaN is true.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Int(digits) => &**digits != "0",
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Array(a) => !a.is_empty(),
            Value::Object(o) => !o.is_empty(),
        }
    }

    /// Look up a member of an object (None for non-objects).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|o| o.get(key))
    }
}

/// A JSON object: members in insertion order, keys unique.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object {
    members: Vec<(PyStr, Value)>,
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object { members: Vec::new() }
    }

    /// An empty object with room for `n` members.
    pub fn with_capacity(n: usize) -> Object {
        Object { members: Vec::with_capacity(n) }
    }

    /// Build from members that are already unique (callers that may see
    /// duplicates use [`Object::insert`]).
    pub fn from_unique(members: Vec<(PyStr, Value)>) -> Object {
        Object { members }
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// True when there are no members.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The members in order.
    pub fn iter(&self) -> impl Iterator<Item = (&PyStr, &Value)> {
        self.members.iter().map(|(k, v)| (k, v))
    }

    /// The members as a slice, in order.
    pub fn members(&self) -> &[(PyStr, Value)] {
        &self.members
    }

    /// The members, by value.
    pub fn into_members(self) -> Vec<(PyStr, Value)> {
        self.members
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.members.iter().find(|(k, _)| k.as_bytes() == key.as_bytes()).map(|(_, v)| v)
    }

    /// True when `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Python `d[key] = value`: replaces the value in place if the key exists
    /// (keeping its position), else appends. Linear in the object size; the
    /// parser uses its own index for large objects.
    pub fn insert(&mut self, key: impl Into<PyStr>, value: Value) {
        let key = key.into();
        if let Some(slot) = self.members.iter_mut().find(|(k, _)| *k == key) {
            slot.1 = value;
        } else {
            self.members.push((key, value));
        }
    }

    /// Append without checking for an existing key (caller guarantees uniqueness).
    pub fn push_unique(&mut self, key: impl Into<PyStr>, value: Value) {
        self.members.push((key.into(), value));
    }

    /// Python `d.pop(key, None)`.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let pos = self.members.iter().position(|(k, _)| k.as_bytes() == key.as_bytes())?;
        Some(self.members.remove(pos).1)
    }
}

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
    fn truthiness_follows_python() {
        assert!(!Value::Null.truthy());
        assert!(!Value::int(0).truthy());
        assert!(!Value::Float(-0.0).truthy());
        assert!(Value::Float(f64::NAN).truthy());
        assert!(!Value::str("").truthy());
        assert!(Value::str(" ").truthy());
        assert!(!Value::Array(vec![]).truthy());
        assert!(!Value::Object(Object::new()).truthy());
    }

    #[test]
    fn duplicate_insert_keeps_first_position_last_value() {
        let mut o = Object::new();
        o.insert("a", Value::int(1));
        o.insert("b", Value::int(2));
        o.insert("a", Value::int(3));
        let keys: Vec<_> = o.iter().map(|(k, _)| k.to_string()).collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(o.get("a"), Some(&Value::int(3)));
    }

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
