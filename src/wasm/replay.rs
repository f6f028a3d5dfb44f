//! Conformance replay: one vector/case line in, one checker line out.
//!
//! Pure core code (no wasm-bindgen): the wasm CLI (`npx lians-score replay`)
//! calls it through the binding. It belongs in the core next to the native
//! CLI so that both print byte-identical lines from one implementation.

use crate::api;
use crate::json::{self, Object, Value};
use crate::{Error, ErrorCode, Result};

use super::pending::write_compact;

/// The float a non-finite marker string stands for (`"NaN"`, `"Infinity"`,
/// `"-Infinity"`), per the vector README; any other value is kept.
fn decode_marker(v: &Value) -> Value {
    match v.as_str() {
        Some("NaN") => Value::Float(f64::NAN),
        Some("Infinity") => Value::Float(f64::INFINITY),
        Some("-Infinity") => Value::Float(f64::NEG_INFINITY),
        _ => v.clone(),
    }
}

fn decode_fields(input: &Value, fields: &[&str]) -> Value {
    match input {
        Value::Object(o) => {
            let mut out = Object::with_capacity(o.len());
            for (k, v) in o.iter() {
                let decoded = match k.as_str() {
                    Some(name) if fields.contains(&name) => decode_marker(v),
                    _ => v.clone(),
                };
                out.push_unique(k.clone(), decoded);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

fn error_value(e: &Error) -> Value {
    let mut o = Object::new();
    o.push_unique("error", Value::str(e.code.as_str()));
    Value::Object(o)
}

fn wrap(key: &str, result: Result<Value>) -> Value {
    match result {
        Ok(v) => {
            let mut o = Object::new();
            o.push_unique(key, v);
            Value::Object(o)
        }
        Err(e) => error_value(&e),
    }
}

fn field<'a>(v: &'a Value, key: &str) -> &'a Value {
    static NULL: Value = Value::Null;
    v.get(key).unwrap_or(&NULL)
}

/// The `actual` value for one scoring vector (`fn` + `input`).
pub fn scoring_actual(fn_name: &str, input: &Value) -> Result<Value> {
    Ok(match fn_name {
        "score_memory" => {
            let input = decode_fields(input, &["importance", "base_relevance"]);
            api::score_memory(&input).unwrap_or_else(|e| error_value(&e))
        }
        "tokenize_for_scoring" => wrap("tokens", api::tokenize_for_scoring(field(input, "value"))),
        "rank_position_score" => {
            let input = decode_fields(input, &["position", "total", "input_score"]);
            wrap(
                "score",
                api::rank_position_score(field(&input, "position"), field(&input, "total"), field(&input, "input_score")),
            )
        }
        "stable_score_key" => {
            let candidates = match field(input, "candidates") {
                Value::Array(items) => {
                    Value::Array(items.iter().map(|c| decode_fields(c, &["final_score"])).collect())
                }
                other => other.clone(),
            };
            let ids = api::sort_candidates(&candidates).map(|sorted| match sorted {
                Value::Array(items) => Value::Array(items.iter().map(|c| field(c, "id").clone()).collect()),
                other => other,
            });
            wrap("order", ids)
        }
        "detect_risk_tags" => wrap("tags", api::detect_risk_tags(field(input, "content"))),
        "evaluate" => api::evaluate_admission(input).unwrap_or_else(|e| error_value(&e)),
        other => {
            return Err(Error::new(ErrorCode::InvalidValue, "/fn", format!("unknown fn {other:?}")));
        }
    })
}

/// One vector line → one `{"id":…,"actual":…}` line (without newline).
/// `Ok(None)` for a blank line.
pub fn scoring_line(line: &str) -> Result<Option<String>> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    let vector = json::parse(line)?;
    let id = vector.get("id").cloned().ok_or_else(|| Error::new(ErrorCode::MissingField, "/id", "vector has no id"))?;
    let fn_name = vector
        .get("fn")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::new(ErrorCode::MissingField, "/fn", "vector has no fn"))?;
    let actual = scoring_actual(fn_name, field(&vector, "input"))?;
    let mut out = Object::with_capacity(2);
    out.push_unique("id", id);
    out.push_unique("actual", actual);
    Ok(Some(write_compact(&Value::Object(out))))
}
