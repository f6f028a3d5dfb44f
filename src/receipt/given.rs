//! What the caller also holds (the conformance `given` object), read with
//! type checks. A wrong type becomes a failed `invalid_given` check, never a
//! panic; absent or null fields mean "not checked".

use super::report::{codes, pointer, Report};
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

fn bad(report: &mut Report, field: &str, expected: &str, got: &Value) {
    report.fail(
        codes::INVALID_GIVEN,
        &pointer("/given", field),
        format!("given.{field} must be {expected}, got {}", got.type_name()),
    );
}

fn string(report: &mut Report, given: &Value, field: &str) -> Option<PyStr> {
    match given.get(field) {
        None | Some(Value::Null) => None,
        Some(Value::Str(s)) => Some(s.clone()),
        Some(other) => {
            bad(report, field, "a string", other);
            None
        }
    }
}

fn boolean(report: &mut Report, given: &Value, field: &str) -> bool {
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

impl Given {
    /// Read `given`. `null` is an empty given; any other non-object is an
    /// `invalid_given` failure (and nothing is checked).
    pub fn read(given: &Value, report: &mut Report) -> Given {
        let mut g = Given::default();
        match given {
            Value::Null => return g,
            Value::Object(_) => {}
            other => {
                report.fail(
                    codes::INVALID_GIVEN,
                    "/given",
                    format!("given must be an object, got {}", other.type_name()),
                );
                return g;
            }
        }
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
                            codes::INVALID_GIVEN,
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
                            codes::INVALID_GIVEN,
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
                                codes::INVALID_GIVEN,
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
                            codes::INVALID_GIVEN,
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
