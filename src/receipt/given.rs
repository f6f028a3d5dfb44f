//! What the caller also holds (the conformance `given` object), read with
//! type checks. A wrong type becomes a failed `invalid_given` check, never a
//! panic; absent or null fields mean "not checked".
//!
//! An unknown field name is a failed `invalid_given` check too (fail
//! closed): `{ public_key }`, `{ trustedPublicKey }` or `{ expected_hash }`
//! would otherwise pin nothing and let a re-signed pack or a rewritten
//! receipt verify. The message names the field meant when the name is a
//! near miss, a camelCase spelling or a common synonym ([`suggest`]).

use super::report::{pointer, CheckCode, ReportBuilder};
use crate::json::{PyStr, Value};

/// Neighbour metadata as the caller holds it: the JSON text received (parsed
/// with the same lexeme-preserving parser), or an already-parsed value.
#[derive(Clone, Debug)]
pub enum MetadataInput {
    Text(PyStr),
    Value(Value),
}

/// Per-memory neighbour inputs: memory id → [(position, input)].
pub type PerNeighbor<T> = Vec<(PyStr, Vec<(PyStr, T)>)>;

/// The typed `given` / `options` object.
#[derive(Clone, Debug, Default)]
pub struct Given {
    pub query: Option<PyStr>,
    /// memory id → content (None = the caller holds no plaintext).
    pub contents: Vec<(PyStr, Option<PyStr>)>,
    /// memory id → position → content or null.
    pub neighbor_contents: PerNeighbor<Option<PyStr>>,
    /// memory id → position → metadata.
    pub neighbor_metadata: PerNeighbor<MetadataInput>,
    pub context_text: Option<PyStr>,
    /// The recall response body or bare recall receipt (text, or a parsed value).
    pub recall_wire: Option<MetadataInput>,
    pub expected_sha256: Option<PyStr>,
    pub trusted_public_key: Option<PyStr>,
    pub expected_key_id: Option<PyStr>,
    pub allow_unsigned: bool,
    /// The body's content hashes are privacy-minimal HMACs: skip comparing
    /// the body's own contents with them (reported as skipped).
    pub privacy_minimal: bool,
    pub include_canonical: bool,
}

fn bad(report: &mut ReportBuilder, field: &str, expected: &str, got: &Value) {
    report.fail(
        CheckCode::InvalidGiven,
        &pointer("/given", field),
        format!("given.{field} must be {expected}, got {}", got.type_name()),
    );
}

fn string(report: &mut ReportBuilder, given: &Value, field: &str) -> Option<PyStr> {
    match given.get(field) {
        None | Some(Value::Null) => None,
        Some(Value::Str(s)) => Some(s.clone()),
        Some(other) => {
            bad(report, field, "a string", other);
            None
        }
    }
}

fn boolean(report: &mut ReportBuilder, given: &Value, field: &str) -> bool {
    match given.get(field) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            bad(report, field, "a boolean", other);
            false
        }
    }
}

fn text_or_null(v: &Value) -> Result<Option<PyStr>, ()> {
    match v {
        Value::Null => Ok(None),
        Value::Str(s) => Ok(Some(s.clone())),
        _ => Err(()),
    }
}

/// Every field name the `given` / `options` reader knows.
pub const FIELDS: &[&str] = &[
    "query",
    "contents",
    "neighbor_contents",
    "neighbor_metadata",
    "context_text",
    "recall_wire",
    "expected_sha256",
    "trusted_public_key",
    "expected_key_id",
    "allow_unsigned",
    "privacy_minimal",
    "include_canonical",
];

/// Words of a field name: camelCase and snake_case split, lowercased, with
/// synonyms folded (`hash`, `digest`, `sha` → `sha256`; `pubkey` → `public`, `key`; ...).
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars().take(64) {
        if c == '_' || c == '-' || c == ' ' || c == '.' {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        // ASCII case only (field names are ASCII; Unicode case tables would
        // cost the wasm build kilobytes).
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    let mut folded = Vec::with_capacity(out.len());
    for w in out {
        match w.as_str() {
            "hash" | "digest" | "sha" | "checksum" => folded.push("sha256".to_string()),
            "pubkey" => {
                folded.push("public".to_string());
                folded.push("key".to_string());
            }
            "keyid" | "kid" => {
                folded.push("key".to_string());
                folded.push("id".to_string());
            }
            "pk" => folded.push("public".to_string()),
            "neighbour" | "neighbours" | "neighbors" => folded.push("neighbor".to_string()),
            "content" => folded.push("contents".to_string()),
            "canonicals" => folded.push("canonical".to_string()),
            _ => folded.push(w),
        }
    }
    folded
}

/// Levenshtein distance of two short names (at most 64 chars each are read).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().take(64).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The known field an unknown name most likely means: the one sharing the
/// most words with it (camelCase split, synonyms folded: `trustedPublicKey`,
/// `public_key`, `trusted_key` → `trusted_public_key`; `expected_hash`,
/// `receipt_sha256` → `expected_sha256`; `key_id` → `expected_key_id`),
/// else one within a small edit distance (`qeury` → `query`).
pub fn suggest(name: &str) -> Option<&'static str> {
    let w = words(name);
    let mut best: Option<(usize, usize, &'static str)> = None;
    for &field in FIELDS {
        let fw = words(field);
        let shared = w.iter().filter(|x| fw.contains(x)).count();
        if shared == 0 {
            continue;
        }
        let d = distance(&w.join("_"), field);
        if best.map_or(true, |(s, bd, _)| shared > s || shared == s && d < bd) {
            best = Some((shared, d, field));
        }
    }
    if let Some((_, _, field)) = best {
        return Some(field);
    }
    let joined = w.join("_");
    FIELDS.iter().map(|&f| (distance(&joined, f), f)).filter(|&(d, f)| d <= 2.max(f.len() / 4)).min().map(|(_, f)| f)
}

/// An `invalid_given` failure for each member of `given` that is not a known field.
fn unknown_fields(report: &mut ReportBuilder, given: &Value) {
    let Value::Object(o) = given else { return };
    for (k, _) in o.iter() {
        let name = k.to_str_lossy();
        if FIELDS.contains(&name.as_ref()) {
            continue;
        }
        let hint = match suggest(&name) {
            Some(f) => format!(": did you mean `{f}`?"),
            None => format!(" (known fields: {})", FIELDS.join(", ")),
        };
        // A long name is shown (and pointed at) by its first 64 characters.
        let shown: String = name.chars().take(64).collect();
        let at = if shown.len() < name.len() { "/given".to_string() } else { pointer("/given", &name) };
        let more = if shown.len() < name.len() { "..." } else { "" };
        report.fail(
            CheckCode::InvalidGiven,
            &at,
            format!("unknown field {shown:?}{more}{hint} (an unknown field would pin nothing, so it fails)"),
        );
    }
}

impl Given {
    /// Whether the caller pins the string field `name` (a contract
    /// [`Bind::Pinned`](crate::contract::fields::Bind::Pinned) name); false
    /// for a name that is no pin.
    pub fn pins(&self, name: &str) -> bool {
        match name {
            "expected_sha256" => self.expected_sha256.is_some(),
            "trusted_public_key" => self.trusted_public_key.is_some(),
            "expected_key_id" => self.expected_key_id.is_some(),
            "query" => self.query.is_some(),
            "context_text" => self.context_text.is_some(),
            _ => false,
        }
    }

    /// Read `given`. `null` is an empty given; any other non-object is an
    /// `invalid_given` failure (and nothing is checked).
    pub fn read(given: &Value, report: &mut ReportBuilder) -> Given {
        let mut g = Given::default();
        match given {
            Value::Null => return g,
            Value::Object(_) => {}
            other => {
                report.fail(
                    CheckCode::InvalidGiven,
                    "/given",
                    format!("given must be an object, got {}", other.type_name()),
                );
                return g;
            }
        }
        unknown_fields(report, given);
        g.query = string(report, given, "query");
        g.context_text = string(report, given, "context_text");
        g.expected_sha256 = string(report, given, "expected_sha256");
        g.trusted_public_key = string(report, given, "trusted_public_key");
        g.expected_key_id = string(report, given, "expected_key_id");
        g.allow_unsigned = boolean(report, given, "allow_unsigned");
        g.include_canonical = boolean(report, given, "include_canonical");
        g.privacy_minimal = boolean(report, given, "privacy_minimal");
        match given.get("recall_wire") {
            None | Some(Value::Null) => {}
            Some(Value::Str(s)) => g.recall_wire = Some(MetadataInput::Text(s.clone())),
            Some(v @ Value::Object(_)) => g.recall_wire = Some(MetadataInput::Value(v.clone())),
            Some(other) => bad(report, "recall_wire", "a string (the response text)", other),
        }
        match given.get("contents") {
            None | Some(Value::Null) => {}
            Some(Value::Object(o)) => {
                for (id, v) in o.iter() {
                    match text_or_null(v) {
                        Ok(t) => g.contents.push((id.clone(), t)),
                        Err(()) => report.fail(
                            CheckCode::InvalidGiven,
                            &pointer("/given/contents", &id.to_str_lossy()),
                            format!("a content must be a string or null, got {}", v.type_name()),
                        ),
                    }
                }
            }
            Some(other) => bad(report, "contents", "an object {memory_id: content}", other),
        }
        match given.get("neighbor_contents") {
            None | Some(Value::Null) => {}
            Some(Value::Object(o)) => {
                for (id, positions) in o.iter() {
                    let base = pointer("/given/neighbor_contents", &id.to_str_lossy());
                    let Value::Object(positions) = positions else {
                        report.fail(
                            CheckCode::InvalidGiven,
                            &base,
                            format!("must be an object {{position: content}}, got {}", positions.type_name()),
                        );
                        continue;
                    };
                    let mut list = Vec::new();
                    for (pos, v) in positions.iter() {
                        match text_or_null(v) {
                            Ok(t) => list.push((pos.clone(), t)),
                            Err(()) => report.fail(
                                CheckCode::InvalidGiven,
                                &pointer(&base, &pos.to_str_lossy()),
                                format!("a neighbour content must be a string or null, got {}", v.type_name()),
                            ),
                        }
                    }
                    g.neighbor_contents.push((id.clone(), list));
                }
            }
            Some(other) => bad(report, "neighbor_contents", "an object {memory_id: {position: content}}", other),
        }
        match given.get("neighbor_metadata") {
            None | Some(Value::Null) => {}
            Some(Value::Object(o)) => {
                for (id, positions) in o.iter() {
                    let base = pointer("/given/neighbor_metadata", &id.to_str_lossy());
                    let Value::Object(positions) = positions else {
                        report.fail(
                            CheckCode::InvalidGiven,
                            &base,
                            format!(
                                "must be an object {{position: metadata JSON text}}, got {}",
                                positions.type_name()
                            ),
                        );
                        continue;
                    };
                    let mut list = Vec::new();
                    for (pos, v) in positions.iter() {
                        let m = match v {
                            Value::Str(s) => MetadataInput::Text(s.clone()),
                            other => MetadataInput::Value(other.clone()),
                        };
                        list.push((pos.clone(), m));
                    }
                    g.neighbor_metadata.push((id.clone(), list));
                }
            }
            Some(other) => bad(report, "neighbor_metadata", "an object {memory_id: {position: JSON text}}", other),
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_fail_with_a_hint() {
        for (name, meant) in [
            ("public_key", "trusted_public_key"),
            ("trustedPublicKey", "trusted_public_key"),
            ("trusted_key", "trusted_public_key"),
            ("key_id", "expected_key_id"),
            ("expectedKeyId", "expected_key_id"),
            ("expected_hash", "expected_sha256"),
            ("expectedSha256", "expected_sha256"),
            ("receipt_sha256", "expected_sha256"),
            ("qeury", "query"),
            ("allowUnsigned", "allow_unsigned"),
            ("privacyMinimal", "privacy_minimal"),
            ("neighbour_contents", "neighbor_contents"),
        ] {
            assert_eq!(suggest(name), Some(meant), "{name}");
            let mut o = crate::json::Object::new();
            o.insert(name, Value::str("x"));
            let mut report = ReportBuilder::new();
            Given::read(&Value::Object(o), &mut report);
            let report = report.finish();
            assert!(!report.valid, "{name}");
            let c = &report.checks[0];
            assert_eq!((c.code, c.pointer.as_str()), (CheckCode::InvalidGiven, format!("/given/{name}").as_str()));
            assert!(c.message.contains(&format!("did you mean `{meant}`?")), "{}", c.message);
        }
        assert_eq!(suggest("zzzzzz"), None);
        // Known fields pass (null is "not given").
        let mut o = crate::json::Object::new();
        for f in FIELDS {
            o.insert(*f, Value::Null);
        }
        let mut report = ReportBuilder::new();
        Given::read(&Value::Object(o), &mut report);
        let report = report.finish();
        assert!(report.valid && report.checks.is_empty());
    }
}
