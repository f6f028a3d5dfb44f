//! Metadata rules: the public-metadata-present test and the bounded
//! flattening of metadata into text for query matching (spec `scoring-admission.md` §3.6, §3.7).
//!
//! Both depend on the *document's* key order (the first 64 keys as written)
//! and on Python's `str()` of values (`True`, `1.0` vs `1`, `1e-07`), which
//! is why metadata travels as a [`crate::json::Value`] parsed from raw text
//! rather than as a JavaScript object.

use crate::json::{Object, PyStr, Value};
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

fn is_hidden_key(key: &PyStr) -> bool {
    let b = key.as_bytes();
    b.first() == Some(&b'_') || SCORING_CONTROL_KEYS.iter().any(|k| k.as_bytes() == b)
}

/// Public metadata present: among the first 64 top-level keys (document
/// order), some key does not start with `_` and is not a scoring-control key.
pub fn public_metadata_present(metadata: &Object) -> bool {
    metadata.iter().take(METADATA_ITEMS).any(|(k, _)| !is_hidden_key(k))
}

struct Flattener {
    parts: Vec<String>,
    chars: i64,
    items: i64,
}

impl Flattener {
    fn append(&mut self, s: &str) {
        if self.chars <= 0 {
            return;
        }
        let cap = (self.chars as usize).min(METADATA_VALUE_CHARS);
        let end = crate::text::char_offset(s, cap);
        let piece = &s[..end];
        if !piece.is_empty() {
            self.chars -= crate::text::char_count(piece) as i64 + 1;
            self.parts.push(piece.to_string());
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
            if is_hidden_key(key) {
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
    let mut f = Flattener { parts: Vec::new(), chars: METADATA_CHARS as i64, items: METADATA_ITEMS as i64 };
    // walk(metadata, 0): the root mapping consumes one item like any container.
    f.items -= 1;
    f.walk_entries(metadata, 0);
    let joined = f.parts.join(" ");
    // Always a no-op (chars ≥ −1 bounds the joined length), kept for fidelity.
    match joined.char_indices().nth(METADATA_CHARS) {
        Some((i, _)) => joined[..i].to_string(),
        None => joined,
    }
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
