//! Conformance replay: one recorded vector line in, one checker line out.
//!
//! The vector files in `shared/conformance/scoring` record the reference's
//! calls (README there); `check_scoring.py` judges lines of the form
//! `{"id": ..., "actual": ...}`. The native CLI and the wasm package both
//! call [`scoring_line`], so their outputs are byte-identical by construction.

use crate::api;
use crate::json::{self, Object, Value};
use crate::Error;

/// Fields that carry the `"NaN"` / `"Infinity"` / `"-Infinity"` markers
/// for non-finite floats, per function.
fn decode_marker(v: &Value) -> Value {
    match v.as_str() {
        Some("NaN") => Value::Float(f64::NAN),
        Some("Infinity") => Value::Float(f64::INFINITY),
        Some("-Infinity") => Value::Float(f64::NEG_INFINITY),
        _ => v.clone(),
    }
}

fn with_markers_decoded(input: &Object, fields: &[&str]) -> Object {
    let mut out = input.clone();
    for f in fields {
        if let Some(v) = input.get(f) {
            out.insert(*f, decode_marker(v));
        }
    }
    out
}

/// The checker's error row: [`Error::to_json`] without `path` (a vector
/// records only that the reference raised).
fn error_value(e: &Error) -> Value {
    let mut row = e.to_json();
    if let Value::Object(o) = &mut row {
        o.remove("path");
    }
    row
}

fn wrap(key: &str, v: Value) -> Value {
    let mut o = Object::new();
    o.push_unique(key, v);
    Value::Object(o)
}

/// Run one vector (already parsed) and return its `actual` value.
pub fn run_vector(vector: &Value) -> Value {
    let null = Value::Null;
    let fun = vector.get("fn").and_then(Value::as_str).unwrap_or("");
    let empty = Object::new();
    let input = vector.get("input").and_then(Value::as_object).unwrap_or(&empty);
    let result = match fun {
        "score_memory" => {
            let decoded = with_markers_decoded(input, &["importance", "base_relevance"]);
            api::score_memory(&Value::Object(decoded))
        }
        "tokenize_for_scoring" => {
            api::tokenize_for_scoring(input.get("value").unwrap_or(&null)).map(|t| wrap("tokens", t))
        }
        "rank_position_score" => {
            let d = with_markers_decoded(input, &["position", "total", "input_score"]);
            api::rank_position_score(
                d.get("position").unwrap_or(&null),
                d.get("total").unwrap_or(&null),
                d.get("input_score").unwrap_or(&null),
            )
            .map(|s| wrap("score", s))
        }
        "stable_score_key" => {
            let candidates: Vec<Value> = input
                .get("candidates")
                .and_then(Value::as_array)
                .unwrap_or(&[])
                .iter()
                .map(|c| match c.as_object() {
                    Some(o) => Value::Object(with_markers_decoded(o, &["final_score"])),
                    None => c.clone(),
                })
                .collect();
            api::sort_candidates(&Value::Array(candidates)).map(|sorted| {
                let ids = match sorted {
                    Value::Array(items) => items.iter().map(|c| c.get("id").cloned().unwrap_or(Value::Null)).collect(),
                    _ => Vec::new(),
                };
                wrap("order", Value::Array(ids))
            })
        }
        "detect_risk_tags" => api::detect_risk_tags(input.get("content").unwrap_or(&null)).map(|t| wrap("tags", t)),
        "risk_spans" => api::risk_spans(input.get("content").unwrap_or(&null), crate::admission::Offsets::CodePoints)
            .map(|s| wrap("spans", s)),
        "is_too_vague" => api::is_too_vague(input.get("content").unwrap_or(&null)).map(|v| wrap("vague", v)),
        "fromisoformat" => match input.get("text") {
            Some(Value::Str(s)) => crate::PyDateTime::parse_py(s).map(|t| wrap("isoformat", Value::str(t.isoformat()))),
            other => Err(Error::wrong_type("/input/text", "a string", other.unwrap_or(&null).type_name())),
        },
        "evaluate" => api::evaluate_admission(&Value::Object(input.clone())),
        other => Err(Error::new(crate::ErrorCode::InvalidValue, "/fn", format!("unknown fn {other:?}"))),
    };
    result.unwrap_or_else(|e| error_value(&e))
}

/// One vector line (JSON text) in, one checker line (compact JSON, no
/// trailing newline) out. A line that is not JSON yields an `error` actual.
pub fn scoring_line(line: &str) -> String {
    let (id, actual) = match json::parse(line) {
        Ok(vector) => (vector.get("id").cloned().unwrap_or(Value::Null), run_vector(&vector)),
        Err(e) => (Value::Null, error_value(&e)),
    };
    let mut o = Object::new();
    o.push_unique("id", id);
    o.push_unique("actual", actual);
    json::to_json_string(&Value::Object(o))
}
