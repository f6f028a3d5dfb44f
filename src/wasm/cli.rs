//! Helpers for the package's `lians-score` CLI (js/cli.mjs): each mirrors a
//! native command (src/bin/lians-score/commands.rs) so that, given the same
//! input, the wasm CLI prints the same bytes and exits with the same status.
//! Not part of the documented JS API.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::interop::{error, js_error};
use crate::json::{self, Object, Value};
use crate::{api, receipt, ErrorCode};

/// Exit status for inputs that failed or a verification that found failures.
const INVALID: u32 = 1;

fn pair(output: String, status: u32) -> JsValue {
    let out = Array::new();
    out.push(&JsValue::from_str(&output));
    out.push(&JsValue::from_f64(status as f64));
    out.into()
}

fn usage(message: String) -> JsValue {
    js_error(&error(ErrorCode::InvalidValue, "", message))
}

fn error_value(e: &crate::Error) -> Value {
    let mut o = Object::new();
    o.push_unique("error", Value::str(e.code.as_str()));
    o.push_unique("message", Value::str(e.message.as_str()));
    o.push_unique("path", Value::str(e.path.as_str()));
    Value::Object(o)
}

/// `score`: `text` is one JSON document (an object, or an array of inputs)
/// or JSON Lines. Returns `[output lines, exit status]`; a JSONL line that
/// is not JSON throws (a usage-level error, exit 2 natively).
#[wasm_bindgen(js_name = cliScore, skip_typescript)]
pub fn cli_score(text: &str, name: &str, label: &str) -> Result<JsValue, JsValue> {
    let call: fn(&Value) -> crate::Result<Value> = match name {
        "score_memory" => api::score_memory,
        "evaluate" => api::evaluate_admission,
        "tokenize_for_scoring" => api::tokenize_for_scoring,
        "detect_risk_tags" => api::detect_risk_tags,
        "rescore_review_item" => api::rescore_review_item,
        "sort_candidates" => api::sort_candidates,
        other => return Err(usage(format!("unknown function {other:?}"))),
    };
    let inputs: Vec<Value> = match json::parse(text) {
        Ok(Value::Array(items)) if name != "sort_candidates" => items,
        Ok(one) => vec![one],
        Err(whole) => {
            let mut items = Vec::new();
            for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let item = json::parse(line)
                    .map_err(|e| usage(format!("{label}: {whole}; as JSONL, line {}: {e}", n + 1)))?;
                items.push(item);
            }
            items
        }
    };
    let mut status = 0;
    let mut output = String::new();
    for input in &inputs {
        let out = call(input).unwrap_or_else(|e| {
            status = INVALID;
            error_value(&e)
        });
        output.push_str(&json::to_json_string(&out));
        output.push('\n');
    }
    Ok(pair(output, status))
}

/// Build a `given`/`options` object from CLI flags: `ops` is a flat list of
/// `key, value` pairs where the value is JSON text; the key `""` merges the
/// members of a `--given FILE` object (its JSON text) in order.
fn options(ops: Vec<String>) -> Result<Value, JsValue> {
    let mut o = Object::new();
    for kv in ops.chunks(2) {
        let [key, value] = kv else { return Err(usage("odd option list".into())) };
        let parsed = json::parse(value).map_err(|e| usage(e.to_string()))?;
        if key.is_empty() {
            let Value::Object(g) = parsed else { return Err(usage("--given must be a JSON object".into())) };
            for (k, v) in g.iter() {
                o.insert(k.clone(), v.clone());
            }
        } else {
            o.insert(key.as_str(), parsed);
        }
    }
    Ok(Value::Object(o))
}

fn report_pair(report: &receipt::Report) -> JsValue {
    let status = if report.valid { 0 } else { INVALID };
    pair(format!("{}\n", json::to_json_string(&report.to_json())), status)
}

/// `verify`: `kind` is `recall`, `context` or `""` (detect from the schema,
/// as natively: a `lians.context-receipt*` schema is context, anything else recall).
#[wasm_bindgen(js_name = cliVerify, skip_typescript)]
pub fn cli_verify(kind: &str, wire: &str, ops: Vec<String>) -> Result<JsValue, JsValue> {
    let given = options(ops)?;
    let kind = if kind.is_empty() { detect_kind(wire) } else { kind };
    let report = match kind {
        "recall" => receipt::verify_recall_receipt(wire, &given),
        "context" => receipt::verify_context_receipt(wire, &given),
        other => return Err(usage(format!("--kind must be recall or context, not {other:?}"))),
    };
    Ok(report_pair(&report))
}

fn detect_kind(wire: &str) -> &'static str {
    let parsed = json::parse(wire).ok();
    let schema = parsed
        .as_ref()
        .and_then(|v| v.get("receipt").or(Some(v)))
        .and_then(|r| r.get("schema"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if schema.starts_with("lians.context-receipt") {
        "context"
    } else {
        "recall"
    }
}

/// `verify-pack`.
#[wasm_bindgen(js_name = cliVerifyPack, skip_typescript)]
pub fn cli_verify_pack(wire: &str, ops: Vec<String>) -> Result<JsValue, JsValue> {
    let options = options(ops)?;
    Ok(report_pair(&receipt::verify_evidence_pack(wire, &options)))
}
