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

// The string type lives below both this model and the datetime parser
// (py::string); json re-exports it from here as `json::PyStr`.
pub(crate) use crate::py::string::lossy;
pub use crate::py::string::{CodePoints, PyStr};

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
}
