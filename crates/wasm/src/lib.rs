//! The WebAssembly binding: the only module that knows about JavaScript.
//!
//! Stateless camelCase functions over the JSON-level façade ([`lians_score::api`])
//! and the receipt verifiers. Inputs are plain JS data or JSON text; outputs
//! are plain JS data with the Lians API's snake_case field names. Every
//! failure is thrown as a JS `Error` with `code` (stable snake_case) and
//! `path` properties (see [`interop::js_error`]).
//!
//! Receipts, response bodies and Evidence Packs are accepted **only as raw
//! JSON text** (or its UTF-8 bytes): hashing needs each number's lexeme,
//! which `JSON.parse` throws away.
//!
//! Hand-checked TypeScript declarations live in `js/index.d.ts`; the
//! generated ones are not shipped.
//!
//! With the cargo feature `verify-only` (the `lians-score/verify` npm entry,
//! `dist/verify`) only the verifiers, `canonicalJson`, `sha256Hex` and the
//! internal `crateVersion`/`replayReceiptsLine` are exported; every other
//! export carries `#[cfg(not(feature = "verify-only"))]`.
//!
//! The exports only the npm CLI (`js/cli.mjs`) and the conformance replays use
//! (`cliRun`, `cliScore`, `replayScoringLine`, `replayReceiptsLine`) need the
//! cargo feature `js-cli`: scripts/build.sh turns it on for `dist/cli` (the
//! CLI's own Node build) and `dist/verify` (its replay proves that build), not
//! for the library's builds (`dist/web`, `dist/node`, `dist/bundler`: the
//! `.wasm` that `init()` fetches is 12 KB gzip smaller without the CLI's
//! grammar, commands and JSON Lines paths).

// Natively this crate is empty (`cargo build --workspace` compiles it).
#![cfg(target_arch = "wasm32")]

#[cfg(all(feature = "js-cli", not(feature = "verify-only")))]
mod cli;
mod interop;

/// The heap allocator of the wasm build: talc instead of Rust's default
/// dlmalloc (2.2 KB gzip smaller, as fast on the issue #15 workloads; see
/// BENCHMARKS.md). The module is single-threaded.
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use wasm_bindgen::prelude::*;

use interop::{input_value, js_error, options_value, to_js, wire_text};
use lians_score::api;
use lians_score::json::{self, Value};
use lians_score::receipt;
use lians_score::Error;

type JsResult = Result<JsValue, JsValue>;

fn out(result: Result<Value, Error>) -> JsResult {
    match result {
        Ok(v) => Ok(to_js(&v)),
        Err(e) => Err(js_error(&e)),
    }
}

fn arg(v: &JsValue) -> Result<Value, JsValue> {
    input_value(v).map_err(|e| js_error(&e))
}

/// `score_memory(**input)`: the breakdown object.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = scoreMemory, skip_typescript)]
pub fn score_memory(input: JsValue) -> JsResult {
    out(api::score_memory(&arg(&input)?))
}

/// Batch `score_memory` ([`lians_score::scoring::batch`]): `shared` (object, JSON text or
/// null) holds the common keyword arguments, `candidates` is JSON Lines or
/// JSON-array text (fastest) or an array of plain objects; `options.output`
/// is `"compact"` (default: typed-array columns), `"full"` (an array of
/// breakdown objects, or `{error,message,path}` for a failed candidate) or
/// `"jsonl"` (the CLI's lines as one string).
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = scoreCandidates, skip_typescript)]
pub fn score_candidates(shared: JsValue, candidates: JsValue, options: JsValue) -> JsResult {
    use js_sys::{Float64Array, Uint8Array};
    let shared = interop::options_value(&shared)?;
    let options = interop::options_value(&options)?;
    let output = match options.get("output") {
        None | Some(Value::Null) => "compact".to_string(),
        Some(Value::Str(s)) => s.to_str_lossy().into_owned(),
        Some(other) => return Err(js_error(&Error::wrong_type("/options/output", "a string", other.type_name()))),
    };
    if !matches!(output.as_str(), "compact" | "full" | "jsonl") {
        return Err(js_error(&interop::error(
            lians_score::ErrorCode::InvalidValue,
            "/options/output",
            format!("output must be \"compact\", \"full\" or \"jsonl\", got {output:?}"),
        )));
    }
    let batch = if candidates.is_string() {
        interop::check_js_string(&candidates, lians_score::api::limits::MAX_TEXT_BYTES, "/candidates")
            .map_err(|e| js_error(&e))?;
        let text = interop::js_json_text(&candidates);
        api::score_candidates_text(&shared, &text)
    } else if let Some(items) = candidates.dyn_ref::<js_sys::Array>() {
        if items.length() as usize > lians_score::api::limits::MAX_ARRAY_ITEMS {
            return Err(js_error(&interop::error(
                lians_score::ErrorCode::TooLarge,
                "/candidates",
                "too many candidates",
            )));
        }
        // Each candidate is converted as scoreMemory converts its argument;
        // one that cannot be converted gets its error row.
        api::score_candidates_read(&shared, items.iter().map(|item| interop::from_js(&item)))
    } else {
        Err(Error::wrong_type("/candidates", "JSON Lines or JSON text, or an array of objects", "another type"))
    }
    .map_err(|e| js_error(&e))?;
    match output.as_str() {
        "jsonl" => return Ok(JsValue::from_str(&batch.to_jsonl())),
        "full" => {
            let arr = js_sys::Array::new_with_length(batch.results.len() as u32);
            for (i, r) in batch.results.iter().enumerate() {
                let v = match r {
                    Ok(b) => b.to_json(),
                    Err(e) => e.to_json(),
                };
                arr.set(i as u32, to_js(&v));
            }
            return Ok(arr.into());
        }
        _ => {}
    }
    let n = batch.results.len();
    let mut finals = Vec::with_capacity(n);
    let mut flags = [Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n)];
    let mut comps: Vec<Vec<f64>> = (0..7).map(|_| Vec::with_capacity(n)).collect();
    let errors = js_sys::Array::new();
    for (i, r) in batch.results.iter().enumerate() {
        match r {
            Ok(b) => {
                finals.push(b.final_score);
                flags[0].push(b.eligible() as u8);
                flags[1].push(b.safety_eligible as u8);
                flags[2].push(b.temporal_eligible as u8);
                for (k, c) in comps.iter_mut().enumerate() {
                    c.push(lians_score::py::float::round6(b.components[k]));
                }
            }
            Err(e) => {
                finals.push(f64::NAN);
                for f in flags.iter_mut() {
                    f.push(0);
                }
                for c in comps.iter_mut() {
                    c.push(f64::NAN);
                }
                errors.push(&to_js(&e.to_json_at(i)));
            }
        }
    }
    let set = |o: &js_sys::Object, k: &str, v: &JsValue| {
        let _ = js_sys::Reflect::set(o, &JsValue::from_str(k), v);
    };
    let result = js_sys::Object::new();
    set(&result, "count", &JsValue::from_f64(n as f64));
    set(&result, "errors", &errors);
    set(&result, "final_score", &Float64Array::from(&finals[..]));
    for (name, f) in ["eligible", "safety_eligible", "temporal_eligible"].iter().zip(&flags) {
        set(&result, name, &Uint8Array::from(&f[..]));
    }
    let components = js_sys::Object::new();
    for (name, c) in lians_score::scoring::COMPONENTS.iter().zip(&comps) {
        set(&components, name, &Float64Array::from(&c[..]));
    }
    set(&result, "components", &components);
    Ok(result.into())
}

/// `tokenize_for_scoring(value)`: array of tokens.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = tokenizeForScoring, skip_typescript)]
pub fn tokenize_for_scoring(value: JsValue) -> JsResult {
    // A bare string is the value itself, not JSON text.
    let value = if value.is_string() {
        interop::check_js_string(&value, lians_score::api::limits::MAX_STRING_BYTES, "").map_err(|e| js_error(&e))?;
        Value::Str(interop::js_string_to_pystr(&value))
    } else {
        arg(&value)?
    };
    out(api::tokenize_for_scoring(&value))
}

/// `detect_risk_tags(content)`: array of tags.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = detectRiskTags, skip_typescript)]
pub fn detect_risk_tags(content: JsValue) -> JsResult {
    out(api::detect_risk_tags(&content_arg(&content)?))
}

/// A content argument: a bare string is the content itself, not JSON text.
#[cfg(not(feature = "verify-only"))]
fn content_arg(content: &JsValue) -> Result<Value, JsValue> {
    if content.is_string() {
        interop::check_js_string(content, lians_score::api::limits::MAX_STRING_BYTES, "").map_err(|e| js_error(&e))?;
        Ok(Value::Str(interop::js_string_to_pystr(content)))
    } else {
        arg(content)
    }
}

/// `risk_spans(content)`: `[{tag, start, end, text}]`, offsets in UTF-16
/// code units (`content.slice(start, end) === text`).
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = riskSpans, skip_typescript)]
pub fn risk_spans(content: JsValue) -> JsResult {
    out(api::risk_spans(&content_arg(&content)?, lians_score::admission::Offsets::Utf16))
}

/// `is_too_vague(content)`: a boolean.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = isTooVague, skip_typescript)]
pub fn is_too_vague(content: JsValue) -> JsResult {
    out(api::is_too_vague(&content_arg(&content)?))
}

/// Admission `evaluate`: `{action, risk_tags, reasons}`.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = evaluateAdmission, skip_typescript)]
pub fn evaluate_admission(input: JsValue) -> JsResult {
    out(api::evaluate_admission(&arg(&input)?))
}

/// Re-score one review-queue item.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = rescoreReviewItem, skip_typescript)]
pub fn rescore_review_item(item: JsValue) -> JsResult {
    out(api::rescore_review_item(&arg(&item)?))
}

/// `rank_position_score(position, total, input_score)` (rank-calibration-v1).
/// Arguments are taken as values (a string is a literal string argument, as
/// Python's lenient `float()` reads it, not JSON text).
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = rankPositionScore, skip_typescript)]
pub fn rank_position_score(position: JsValue, total: JsValue, input_score: JsValue) -> JsResult {
    let conv = |v: &JsValue| interop::from_js(v).map_err(|e| js_error(&e));
    out(api::rank_position_score(&conv(&position)?, &conv(&total)?, &conv(&input_score)?))
}

/// Sort candidates by the stable score key; returns the sorted array.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = sortCandidates, skip_typescript)]
pub fn sort_candidates(candidates: JsValue) -> JsResult {
    out(api::sort_candidates(&arg(&candidates)?))
}

/// PyJSON canonical text (spec §1) of JSON text or plain JS data.
#[wasm_bindgen(js_name = canonicalJson, skip_typescript)]
pub fn canonical_json(input: JsValue) -> JsResult {
    let value = arg(&input)?;
    Ok(JsValue::from_str(&json::canonical(&value)))
}

/// SHA-256 (lowercase hex) of a string's UTF-8 bytes, or of raw bytes.
#[wasm_bindgen(js_name = sha256Hex, skip_typescript)]
pub fn sha256_hex(input: JsValue) -> JsResult {
    if let Some(bytes) = input.dyn_ref::<js_sys::Uint8Array>() {
        interop::check_bytes(bytes, "the input").map_err(|e| js_error(&e))?;
        return Ok(JsValue::from_str(&receipt::sha256_hex(&bytes.to_vec())));
    }
    if !input.is_string() {
        return Err(js_error(&Error::wrong_type("", "a string or Uint8Array", "another type")));
    }
    interop::check_js_string(&input, lians_score::api::limits::MAX_TEXT_BYTES, "").map_err(|e| js_error(&e))?;
    let s = interop::js_string_to_pystr(&input);
    if s.has_lone_surrogates() {
        return Err(js_error(&interop::error(
            lians_score::ErrorCode::InvalidValue,
            "",
            "the string holds a lone surrogate, which has no UTF-8 encoding (the server cannot hash it either)",
        )));
    }
    Ok(JsValue::from_str(&receipt::sha256_hex(s.as_bytes())))
}

fn wire(v: &JsValue, what: &str) -> Result<String, JsValue> {
    wire_text(v, what).map_err(|e| js_error(&e))
}

/// Verify a `lians.recall-receipt.v2` from the raw response body (or bare receipt) text.
#[wasm_bindgen(js_name = verifyRecallReceipt, skip_typescript)]
pub fn verify_recall_receipt(wire_json: JsValue, given: JsValue) -> JsResult {
    let text = wire(&wire_json, "the recall response")?;
    let given = options_value(&given)?;
    // api:: applies the limits (wire text, given) before verifying.
    out(api::verify_recall_receipt(&text, &given))
}

/// Verify a `lians.context-receipt.v2` from the raw response body (or bare receipt) text.
#[wasm_bindgen(js_name = verifyContextReceipt, skip_typescript)]
pub fn verify_context_receipt(wire_json: JsValue, given: JsValue) -> JsResult {
    let text = wire(&wire_json, "the context response")?;
    let given = options_value(&given)?;
    // api:: applies the limits (wire text, given) before verifying.
    out(api::verify_context_receipt(&text, &given))
}

/// Verify an Evidence Pack v2 from its raw JSON text.
#[wasm_bindgen(js_name = verifyEvidencePack, skip_typescript)]
pub fn verify_evidence_pack(wire_json: JsValue, options: JsValue) -> JsResult {
    let text = wire(&wire_json, "the evidence pack")?;
    let options = options_value(&options)?;
    out(api::verify_evidence_pack(&text, &options))
}

/// Audit a recall response: re-derive the server's scores from the raw
/// `POST /v1/recall` body text ([`lians_score::audit`]). `options` is `{query?}`.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = auditRecall, skip_typescript)]
pub fn audit_recall(wire_json: JsValue, options: JsValue) -> JsResult {
    let text = wire(&wire_json, "the recall response")?;
    let options = options_value(&options)?;
    // api:: applies the limits (wire text, options) before auditing.
    // The report holds thousands of values: to_js builds it with one JSON.parse.
    out(api::audit_recall(&text, &options))
}

/// CLI: one scoring vector line → its `{"id","actual"}` checker line (no
/// newline), or `undefined` for a blank line: exactly what the native
/// `lians-score replay` prints for that line (same [`lians_score::cli::replay`] code).
#[cfg(all(feature = "js-cli", not(feature = "verify-only")))]
#[wasm_bindgen(js_name = replayScoringLine, skip_typescript)]
pub fn replay_scoring_line(line: &str) -> Option<String> {
    if line.trim().is_empty() {
        return None;
    }
    Some(lians_score::cli::replay::scoring_line(line))
}

/// CLI: one receipt case line → its checker line (no newline), or
/// `undefined` for a blank line, as the native `lians-score verify-replay`.
/// A line that is not a case throws.
#[cfg(feature = "js-cli")]
#[wasm_bindgen(js_name = replayReceiptsLine, skip_typescript)]
pub fn replay_receipts_line(line: &str) -> Result<Option<String>, JsValue> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    let case = json::parse(line).map_err(|e| js_error(&e))?;
    let row = receipt::replay::replay_case(&case)
        .map_err(|message| js_error(&interop::error(lians_score::ErrorCode::InvalidValue, "", message)))?;
    Ok(Some(json::to_json_string(&row)))
}

/// The crate version (equals the npm package version).
#[wasm_bindgen(js_name = crateVersion, skip_typescript)]
pub fn crate_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
