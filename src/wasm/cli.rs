//! Glue for the package's `lians-score` CLI (js/cli.mjs): the command logic
//! is [`crate::cli`], shared with the native CLI, so given the same input
//! both print the same bytes and exit with the same status. Not part of the
//! documented JS API.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::interop::js_error;
use crate::cli::{self, Outcome};
use crate::json::Value;

fn pair(outcome: Outcome) -> JsValue {
    let out = Array::new();
    out.push(&JsValue::from_str(&outcome.output));
    out.push(&JsValue::from_f64(outcome.status as f64));
    out.into()
}

/// `ops` is a flat list of `key, JSON text` pairs (key `""` merges `--given`).
fn options(ops: &[String]) -> Result<Value, JsValue> {
    if ops.len() % 2 != 0 {
        return Err(js_error(&crate::Error::new(crate::ErrorCode::InvalidValue, "", "odd option list")));
    }
    cli::options(ops.chunks(2).map(|kv| (kv[0].as_str(), kv[1].as_str()))).map_err(|e| js_error(&e))
}

/// `score`: returns `[output, exit status]`; a usage-level problem throws.
#[wasm_bindgen(js_name = cliScore, skip_typescript)]
pub fn cli_score(text: &str, name: &str, label: &str) -> Result<JsValue, JsValue> {
    cli::score(text, name, label).map(pair).map_err(|e| js_error(&e))
}

/// `verify`: `kind` is `recall`, `context` or `""` (detect from the schema).
#[wasm_bindgen(js_name = cliVerify, skip_typescript)]
pub fn cli_verify(kind: &str, wire: &str, ops: Vec<String>) -> Result<JsValue, JsValue> {
    let given = options(&ops)?;
    let kind = (!kind.is_empty()).then_some(kind);
    cli::verify(wire, kind, &given).map(pair).map_err(|e| js_error(&e))
}

/// `audit`: `query` is `undefined` for none.
#[wasm_bindgen(js_name = cliAudit, skip_typescript)]
pub fn cli_audit(wire: &str, query: Option<String>) -> JsValue {
    pair(cli::audit(wire, query.as_deref()))
}

/// `verify-pack`.
#[wasm_bindgen(js_name = cliVerifyPack, skip_typescript)]
pub fn cli_verify_pack(wire: &str, ops: Vec<String>) -> Result<JsValue, JsValue> {
    Ok(pair(cli::verify_pack(wire, &options(&ops)?)))
}
