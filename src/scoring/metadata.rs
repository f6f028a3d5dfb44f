//! Metadata rules: the public-metadata-present test and the bounded
//! flattening of metadata into text for query matching (spec `scoring-admission.md` §3.6, §3.7).
//!
//! Both depend on the *document's* key order (the first 64 keys as written)
//! and on Python's `str()` of values (`True`, `1.0` vs `1`, `1e-07`), which
//! is why metadata travels as a [`crate::json::Value`] parsed from raw text
//! rather than as a JavaScript object.

use std::borrow::Cow;

use crate::json::{self, Object, PyStr, Value};
use crate::py::float;

/// Flattened-text budget in code points.
pub const METADATA_CHARS: usize = 4096;
/// Walked-value budget.
pub const METADATA_ITEMS: usize = 64;
/// Deepest walked depth (the root mapping is depth 0).
pub const METADATA_DEPTH: usize = 4;
/// Per-value cap in code points.
pub const METADATA_VALUE_CHARS: usize = 512;

/// Keys that steer scoring and are never public evidence nor flattened.
pub const SCORING_CONTROL_KEYS: [&str; 3] = ["materiality", "source_trust", "trust_level"];

/// A metadata mapping as the scorer reads it, in place: an owned
/// [`Object`], or an object of a parsed [`json::Doc`] (the batch reads a
/// candidate's `metadata` there, without an owned copy). Both have unique
/// keys in document order (the parser keeps a duplicate key's first position
/// and last value, as Python's `dict` does).
#[derive(Clone, Copy)]
pub enum Meta<'a> {
    /// An owned object.
    Value(&'a Object),
    /// An object in a parsed document: the node and its members.
    Doc(json::Ref<'a>, json::Members<'a>),
}

impl<'a> From<&'a Object> for Meta<'a> {
    fn from(o: &'a Object) -> Meta<'a> {
        Meta::Value(o)
    }
}

impl<'a> Meta<'a> {
    fn len(self) -> usize {
        match self {
            Meta::Value(o) => o.len(),
            Meta::Doc(_, m) => m.len(),
        }
    }

    /// The `i`th key's WTF-8 bytes.
    fn key(self, i: usize) -> &'a [u8] {
        match self {
            Meta::Value(o) => o.members()[i].0.as_bytes(),
            Meta::Doc(_, m) => m.at(i).0.as_bytes(),
        }
    }

    /// The value of `key`, if present (from a document, an owned copy: only
    /// the scoring-control keys are read this way, and they are seldom there).
    pub(crate) fn get(self, key: &str) -> Option<Cow<'a, Value>> {
        match self {
            Meta::Value(o) => o.get(key).map(Cow::Borrowed),
            Meta::Doc(_, m) => m.get(key).map(|r| Cow::Owned(r.to_value())),
        }
    }
}

fn is_hidden_key(b: &[u8]) -> bool {
    b.first() == Some(&b'_') || SCORING_CONTROL_KEYS.iter().any(|k| k.as_bytes() == b)
}

/// Public metadata present: among the first 64 top-level keys (document
/// order), some key does not start with `_` and is not a scoring-control key.
pub fn public_metadata_present(metadata: &Object) -> bool {
    public_present(Meta::Value(metadata))
}

/// [`public_metadata_present`] of a [`Meta`].
pub fn public_present(metadata: Meta<'_>) -> bool {
    (0..metadata.len().min(METADATA_ITEMS)).any(|i| !is_hidden_key(metadata.key(i)))
}

/// The flattening, written straight into `out` (the pieces joined by one space).
struct Flattener<'o> {
    out: &'o mut String,
    chars: i64,
    items: i64,
}

impl Flattener<'_> {
    fn append(&mut self, s: &str) {
        if self.chars <= 0 {
            return;
        }
        let cap = (self.chars as usize).min(METADATA_VALUE_CHARS);
        let end = crate::text::char_offset(s, cap);
        let piece = &s[..end];
        if !piece.is_empty() {
            self.chars -= crate::text::char_count(piece) as i64 + 1;
            // `" ".join(parts)`: every piece is non-empty.
            if !self.out.is_empty() {
                self.out.push(' ');
            }
            self.out.push_str(piece);
        }
    }

    fn exhausted(&self) -> bool {
        self.items <= 0 || self.chars <= 0
    }

    /// A mapping's first 64 entries, sorted by key (code-point order); hidden
    /// keys are skipped without consuming an item; values walk one level deeper.
    fn walk_entries(&mut self, o: &Object, depth: usize) {
        // A stable binary insertion sort (at most 64 entries): the same order
        // as `sort_by`, without a second instantiation of the std stable sort
        // in the wasm (3.5 KB raw; the other one is `rank::sort_candidates`).
        let mut entries: Vec<&(PyStr, Value)> = Vec::with_capacity(o.len().min(METADATA_ITEMS));
        for e in o.members().iter().take(METADATA_ITEMS) {
            let at = entries.partition_point(|x| x.0 <= e.0);
            entries.insert(at, e);
        }
        for (key, value) in entries {
            if self.exhausted() {
                break;
            }
            if is_hidden_key(key.as_bytes()) {
                continue;
            }
            self.append(&key.to_str_lossy());
            self.walk(value, depth + 1);
        }
    }

    fn walk(&mut self, v: &Value, depth: usize) {
        if self.exhausted() || depth > METADATA_DEPTH {
            return;
        }
        self.items -= 1;
        match v {
            Value::Null => self.append("null"),
            Value::Bool(b) => self.append(if *b { "True" } else { "False" }),
            Value::Int(digits) => self.append(digits),
            Value::Float(f) => self.append(&float::repr(*f)),
            Value::Str(s) => self.append(&s.to_str_lossy()),
            Value::Object(o) => self.walk_entries(o, depth),
            Value::Array(items) => {
                for item in items.iter().take(METADATA_ITEMS) {
                    if self.exhausted() {
                        break;
                    }
                    self.walk(item, depth + 1);
                }
            }
        }
    }
}

/// `metadata_text`: the bounded, sorted, space-joined flattening of public
/// metadata (spec `scoring-admission.md` §3.7). At most 4,096 code points.
pub fn metadata_text(metadata: &Object) -> String {
    let mut out = String::new();
    metadata_text_into(Meta::Value(metadata), &mut out);
    out
}

/// [`metadata_text`] of a [`Meta`], written to `out` (cleared first: a
/// reused buffer).
pub fn metadata_text_into(metadata: Meta<'_>, out: &mut String) {
    out.clear();
    // A document's object is flattened from an owned copy (only when the
    // query still has unmatched tokens after the content).
    let owned;
    let o = match metadata {
        Meta::Value(o) => o,
        Meta::Doc(r, _) => match r.to_value() {
            Value::Object(o) => {
                owned = o;
                &owned
            }
            _ => return,
        },
    };
    let mut f = Flattener { out, chars: METADATA_CHARS as i64, items: METADATA_ITEMS as i64 };
    // walk(metadata, 0): the root mapping consumes one item like any container.
    f.items -= 1;
    f.walk_entries(o, 0);
    // The reference then cuts the joined text to 4,096 code points: never
    // anything to cut. Each piece is appended while `chars` > 0 and has at most
    // `chars` code points, and `chars` drops by its count + 1, so it ends >= -1:
    // the pieces and their separators hold at most 4,096 + 1 - 1 code points.
    debug_assert!(f.chars >= -1 && f.out.chars().count() <= METADATA_CHARS);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(members: Vec<(&str, Value)>) -> Object {
        let mut o = Object::new();
        for (k, v) in members {
            o.insert(k, v);
        }
        o
    }

    fn arr(items: Vec<Value>) -> Value {
        Value::Array(items)
    }

    #[test]
    fn spec_example_scalars_and_lists() {
        let nested = arr(vec![
            Value::int(1),
            arr(vec![Value::int(2), arr(vec![Value::int(3), arr(vec![Value::int(4), arr(vec![Value::int(5)])])])]),
        ]);
        let m = obj(vec![
            ("b", Value::int(1)),
            ("a", Value::Bool(true)),
            ("_x", Value::str("h")),
            ("trust_level", Value::str("z")),
            ("c", Value::Null),
            ("d", Value::Float(1.0)),
            ("e", Value::str("")),
            ("f", nested),
        ]);
        assert_eq!(metadata_text(&m), "a True b 1 c null d 1.0 e f 1 2 3");
    }

    #[test]
    fn spec_example_depth() {
        let deep = obj(vec![("f", Value::int(1))]);
        let e = obj(vec![("e", Value::Object(deep))]);
        let d = obj(vec![("d", Value::Object(e))]);
        let c = obj(vec![("c", Value::Object(d))]);
        let b = obj(vec![("b", Value::Object(c))]);
        let a = obj(vec![("a", Value::Object(b))]);
        assert_eq!(metadata_text(&a), "a b c d e");
    }

    #[test]
    fn spec_example_nested_control_keys() {
        let inner = obj(vec![("materiality", Value::str("high")), ("n", Value::str("ok"))]);
        let m = obj(vec![("a", arr(vec![Value::Object(inner)]))]);
        assert_eq!(metadata_text(&m), "a n ok");
    }

    #[test]
    fn seventy_flat_keys_stop_after_63_pairs() {
        let mut m = Object::new();
        for i in 0..70 {
            m.insert(format!("k{:02}", i).as_str(), Value::int(i));
        }
        let text = metadata_text(&m);
        assert_eq!(text.split(' ').count(), 63 * 2);
    }

    #[test]
    fn public_presence_rule() {
        assert!(!public_metadata_present(&Object::new()));
        assert!(public_metadata_present(&obj(vec![("note", Value::Null)])));
        assert!(public_metadata_present(&obj(vec![("", Value::int(1))])));
        assert!(!public_metadata_present(&obj(vec![("_a", Value::Null), ("trust_level", Value::Null)])));
        let mut m = Object::new();
        for i in 0..64 {
            m.insert(format!("_{i}").as_str(), Value::Null);
        }
        m.insert("public", Value::Null);
        assert!(!public_metadata_present(&m));
    }
}
