//! lians-score-wasm: the WebAssembly binding of `lians_score`, the `.wasm`
//! of the npm package (built by `scripts/build.sh` with wasm-pack into
//! `dist/`; never published to crates.io).
//!
//! **Exports only.** Every `#[wasm_bindgen]` function here converts its
//! arguments, calls one library function and converts the result: the JSON
//! façade `lians_score::api` (the one place that applies the input caps),
//! the batch scorer `lians_score::scoring::batch` (its output modes and
//! compact columns are library types), the CLI (`lians_score::cli`). No
//! rule, cap or output shape is decided here.
//!
//! **Why a crate of its own**: the library stays a plain Rust crate with no
//! `wasm-bindgen` dependency (native users, the CLI, the benches never
//! compile it), and what the npm package exports is exactly this crate's
//! public functions. Natively this crate is empty.
//!
//! **Conversions live in one module**, `interop`: JS values → `Value`
//! (budgeted, cycle- and depth-checked, lone surrogates kept), raw JSON text
//! and bytes, results → JS (`to_js`, one `JSON.parse` of the printed text),
//! and the one error type `interop::JsErr` (`From<lians_score::Error>`, so
//! `?` works; thrown as a JS `Error` named `LiansScoreError` with `code` and
//! `path`). Inputs are plain JS data or JSON text; outputs are plain JS data
//! with the Lians API's snake_case field names. Results are built by `to_js`,
//! not serde-wasm-bindgen: measured again for issue #23 (BENCHMARKS.md,
//! "serde-wasm-bindgen, measured again"), serializing the typed results made
//! `scoreMemory` 17 % cheaper (verification: no change) for +2.2 KB gzip, but
//! the typed `ScoreBreakdown` is not the wire object (`purpose` is echoed as
//! any JSON value, the typed field is a `String`), so outputs would change.
//!
//! Receipts, response bodies and Evidence Packs are accepted **only as raw
//! JSON text** (or its UTF-8 bytes): hashing needs each number's lexeme,
//! which `JSON.parse` throws away.
//!
//! Hand-checked TypeScript declarations live in `js/index.d.ts`; the
//! generated ones are not shipped.
//!
//! **Feature gates** (`lib.rs` gates the exports, `interop.rs` the four
//! converters only the full build calls; the Rust API is the same):
//! - `verify-only` (the `lians-score/verify` npm entry, `dist/verify`, ~46 %
//!   smaller): only the verifiers, `canonicalJson`, `sha256Hex` and the
//!   internal `crateVersion`/`replayReceiptsLine` are exported; every other
//!   export carries `#[cfg(not(feature = "verify-only"))]`.
//! - `js-cli`: the exports only the npm CLI (`js/cli.mjs`) and the
//!   conformance replays use (`cliRun`, `cliScore`, `replayScoringLine`,
//!   `replayReceiptsLine`). `scripts/build.sh` turns it on for `dist/cli`
//!   (the CLI's own Node build) and `dist/verify` (its replay proves that
//!   build), not for the library's builds (`dist/web`, `dist/node`,
//!   `dist/bundler`: the `.wasm` that `init()` fetches is 12 KB gzip smaller
//!   without the CLI's grammar, commands and JSON Lines paths).
//! - `lean` (`dist/web-lean`, what a plain `init()` of the browser entry
//!   fetches): every library export but `auditRecall`, whose request-aware
//!   audit is ~38 KB gzip; `init({ audit: true })` fetches the full build.

// Natively this crate is empty (`cargo build --workspace` compiles it).
#![cfg(target_arch = "wasm32")]

#[cfg(all(feature = "js-cli", not(feature = "verify-only")))]
mod cli;
mod interop;
mod mem;

/// The heap allocator of the wasm build: talc instead of Rust's default
/// dlmalloc (2.2 KB gzip smaller when it was adopted; see the CHANGELOG).
/// The module is single-threaded.
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use wasm_bindgen::prelude::*;

use interop::{input_value, options_value, output, wire_text, JsResult};
use lians_score::api;
use lians_score::json;
use lians_score::receipt;
#[cfg(not(feature = "verify-only"))]
use {interop::to_js, lians_score::scoring::batch, lians_score::Error};

/// `score_memory(**input)`: the breakdown object.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = scoreMemory, skip_typescript)]
pub fn score_memory(input: JsValue) -> JsResult {
    // The breakdown printed straight to JSON text (no `Value`), one JSON.parse.
    Ok(interop::scored_to_js(&scored(&input)?))
}

/// [`api::score_memory_scored`] of a `scoreMemory` argument (shared by both exports).
#[cfg(not(feature = "verify-only"))]
#[inline(never)]
fn scored(input: &JsValue) -> Result<lians_score::scoring::Scored, Error> {
    api::score_memory_scored(&input_value(input)?)
}

/// Internal (js/node.cjs, issue #32 round 12): [`score_memory`] with the breakdown left in wasm
/// memory as numbers ([`interop::packed`]), which the Node entry builds into the same object. Not
/// in the lean and verify-only builds.
#[cfg(not(any(feature = "verify-only", feature = "lean")))]
#[wasm_bindgen(js_name = __lians_score_memory, skip_typescript)]
pub fn score_memory_packed(input: JsValue) -> JsResult {
    Ok(interop::packed::scored(scored(&input)?))
}

/// Batch `score_memory` ([`lians_score::scoring::batch`]): `shared` (object, JSON text or
/// null) holds the common keyword arguments, `candidates` is JSON Lines or
/// JSON-array text or its UTF-8 bytes (fastest) or an array of plain objects; `options.output`
/// ([`batch::Output`]) is `"compact"` (default: typed-array columns,
/// [`batch::Columns`]), `"full"` (an array of breakdown objects, or
/// `{error,message,path}` for a failed candidate) or `"jsonl"` (the CLI's
/// lines as one string).
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = scoreCandidates, skip_typescript)]
pub fn score_candidates(shared: JsValue, candidates: JsValue, options: JsValue) -> JsResult {
    let shared = options_value(&shared)?;
    let output = batch::Output::from_options(&options_value(&options)?)?;
    let batch = score_batch(&shared, &candidates)?;
    match output {
        batch::Output::Jsonl => Ok(JsValue::from_str(&batch.to_jsonl())),
        batch::Output::Full => {
            let arr = js_sys::Array::new_with_length(batch.results.len() as u32);
            for (i, r) in batch.results.iter().enumerate() {
                let v = match r {
                    Ok(b) => b.to_json(),
                    Err(e) => e.to_json(),
                };
                arr.set(i as u32, to_js(&v));
            }
            Ok(arr.into())
        }
        batch::Output::Compact => Ok(interop::columns_to_js(&batch.columns())),
    }
}

/// The batch call of [`score_candidates`] for its `candidates` argument
/// (one error exit, not one per branch).
#[cfg(not(feature = "verify-only"))]
fn score_batch(shared: &json::Value, candidates: &JsValue) -> Result<batch::Batch, Error> {
    if candidates.is_string() {
        api::score_candidates_text(shared, &interop::json_text(candidates, "/candidates")?)
    } else if candidates.is_instance_of::<js_sys::Uint8Array>() || candidates.is_instance_of::<js_sys::ArrayBuffer>() {
        // The text's UTF-8 bytes: no UTF-16 → UTF-8 conversion on the way in (issue #32).
        api::score_candidates_text(shared, &wire_text(candidates, "the candidates")?)
    } else if let Some(items) = candidates.dyn_ref::<js_sys::Array>() {
        // Each candidate is converted as scoreMemory converts its argument;
        // one that cannot be converted gets its error row.
        api::score_candidates_read(shared, interop::candidate_items(items)?)
    } else {
        Err(Error::wrong_type(
            "/candidates",
            "JSON Lines or JSON text (or its UTF-8 bytes), or an array of objects",
            "another type",
        ))
    }
}

/// `tokenize_for_scoring(value)`: array of tokens.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = tokenizeForScoring, skip_typescript)]
pub fn tokenize_for_scoring(value: JsValue) -> JsResult {
    output(api::tokenize_for_scoring(&interop::value_arg(&value)?))
}

/// `detect_risk_tags(content)`: array of tags.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = detectRiskTags, skip_typescript)]
pub fn detect_risk_tags(content: JsValue) -> JsResult {
    output(api::detect_risk_tags(&interop::value_arg(&content)?))
}

/// `risk_spans(content)`: `[{tag, start, end, text}]`, offsets in UTF-16
/// code units (`content.slice(start, end) === text`).
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = riskSpans, skip_typescript)]
pub fn risk_spans(content: JsValue) -> JsResult {
    let content = interop::value_arg(&content)?;
    output(api::risk_spans(&content, lians_score::admission::Offsets::Utf16))
}

/// `is_too_vague(content)`: a boolean.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = isTooVague, skip_typescript)]
pub fn is_too_vague(content: JsValue) -> JsResult {
    output(api::is_too_vague(&interop::value_arg(&content)?))
}

/// Admission `evaluate`: `{action, risk_tags, reasons}`.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = evaluateAdmission, skip_typescript)]
pub fn evaluate_admission(input: JsValue) -> JsResult {
    output(api::evaluate_admission(&input_value(&input)?))
}

/// Re-score one review-queue item.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = rescoreReviewItem, skip_typescript)]
pub fn rescore_review_item(item: JsValue) -> JsResult {
    output(api::rescore_review_item(&input_value(&item)?))
}

/// `rank_position_score(position, total, input_score)` (rank-calibration-v1).
/// Arguments are taken as values (a string is a literal string argument, as
/// Python's lenient `float()` reads it, not JSON text).
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = rankPositionScore, skip_typescript)]
pub fn rank_position_score(position: JsValue, total: JsValue, input_score: JsValue) -> JsResult {
    use interop::from_js;
    output(api::rank_position_score(&from_js(&position)?, &from_js(&total)?, &from_js(&input_score)?))
}

/// Sort candidates by the stable score key; returns the sorted array.
#[cfg(not(feature = "verify-only"))]
#[wasm_bindgen(js_name = sortCandidates, skip_typescript)]
pub fn sort_candidates(candidates: JsValue) -> JsResult {
    output(api::sort_candidates(&input_value(&candidates)?))
}

/// PyJSON canonical text (spec `ranking-receipts.md` §1) of JSON text or plain JS data.
#[wasm_bindgen(js_name = canonicalJson, skip_typescript)]
pub fn canonical_json(input: JsValue) -> JsResult {
    Ok(JsValue::from_str(&json::canonical(&input_value(&input)?)))
}

/// SHA-256 (lowercase hex) of a string's UTF-8 bytes, or of raw bytes.
#[wasm_bindgen(js_name = sha256Hex, skip_typescript)]
pub fn sha256_hex(input: JsValue) -> JsResult {
    Ok(JsValue::from_str(&receipt::sha256_hex(interop::hash_input(&input)?.as_bytes())))
}

/// Verify a `lians.recall-receipt.v2` from the raw response body (or bare receipt) text.
#[wasm_bindgen(js_name = verifyRecallReceipt, skip_typescript)]
pub fn verify_recall_receipt(wire_json: JsValue, given: JsValue) -> JsResult {
    let text = wire_text(&wire_json, "the recall response")?;
    let given = options_value(&given)?;
    // api:: applies the limits (wire text, given) before verifying.
    output(api::verify_recall_receipt(&text, &given))
}

/// Verify a `lians.context-receipt.v2` from the raw response body (or bare receipt) text.
#[wasm_bindgen(js_name = verifyContextReceipt, skip_typescript)]
pub fn verify_context_receipt(wire_json: JsValue, given: JsValue) -> JsResult {
    let text = wire_text(&wire_json, "the context response")?;
    let given = options_value(&given)?;
    // api:: applies the limits (wire text, given) before verifying.
    output(api::verify_context_receipt(&text, &given))
}

/// Verify an Evidence Pack v2 from its raw JSON text.
#[wasm_bindgen(js_name = verifyEvidencePack, skip_typescript)]
pub fn verify_evidence_pack(wire_json: JsValue, options: JsValue) -> JsResult {
    let text = wire_text(&wire_json, "the evidence pack")?;
    let options = options_value(&options)?;
    output(api::verify_evidence_pack(&text, &options))
}

/// Audit a recall response: re-derive the server's scores from the raw
/// `POST /v1/recall` body text ([`lians_score::audit`]). `options` is `{query?}`.
/// Not in the `lean` build (the browser's default wasm; nothing else in the
/// binding reaches the audit, so the whole of it drops out with this export).
#[cfg(not(any(feature = "verify-only", feature = "lean")))]
#[wasm_bindgen(js_name = auditRecall, skip_typescript)]
pub fn audit_recall(wire_json: JsValue, options: JsValue) -> JsResult {
    let text = wire_text(&wire_json, "the recall response")?;
    let options = options_value(&options)?;
    // api:: applies the limits (wire text, options) before auditing.
    // The report holds thousands of values: to_js builds it with one JSON.parse.
    output(api::audit_recall(&text, &options))
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
pub fn replay_receipts_line(line: &str) -> JsResult<Option<String>> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    let case = json::parse(line)?;
    let row = receipt::replay::replay_case(&case)
        .map_err(|message| interop::error(lians_score::ErrorCode::InvalidValue, "", message))?;
    Ok(Some(json::to_json_string(&row)))
}

/// The JavaScript host's synchronous SHA-256 (js/limits.mjs `hostSha256`:
/// `node:crypto`), which `lians_score::hash` uses for messages of at least
/// `min_len` bytes (issue #32 round 10). The views it is handed are wasm
/// memory, valid for the call only; a call that throws makes the wasm drop
/// the host and hash with its own SHA-256 (`hash::Host`).
#[wasm_bindgen]
extern "C" {
    type HostSha256;
    #[wasm_bindgen(method, catch)]
    fn digest(this: &HostSha256, bytes: &[u8], out: &mut [u8]) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn update(this: &HostSha256, bytes: &[u8]) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn finish(this: &HostSha256, out: &mut [u8]) -> Result<(), JsValue>;
}

struct HostSha(HostSha256, usize);

impl lians_score::hash::Host for HostSha {
    fn digest(&self, bytes: &[u8]) -> Option<[u8; 32]> {
        let mut out = [0; 32];
        self.0.digest(bytes, &mut out).ok().map(|()| out)
    }
    fn update(&self, bytes: &[u8]) -> bool {
        self.0.update(bytes).is_ok()
    }
    fn finish(&self) -> Option<[u8; 32]> {
        let mut out = [0; 32];
        self.0.finish(&mut out).ok().map(|()| out)
    }
    fn min_len(&self) -> usize {
        self.1
    }
}

/// Hand the wasm the host's SHA-256 (`undefined`: none) and the shortest
/// message it takes: the JS entries call it after each instantiation. Not
/// an API function (js/names.mjs `INTERNAL_NAMES`).
#[wasm_bindgen(js_name = setHostSha256, skip_typescript)]
pub fn set_host_sha256(host: JsValue, min_len: u32) {
    let host = host.is_object().then(|| HostSha(host.unchecked_into(), min_len as usize));
    lians_score::hash::set_host(host.map(|h| Box::new(h) as Box<dyn lians_score::hash::Host>));
}

/// Internal (js/node.cjs, issue #32): register `(string, memory, address) =>
/// bytes written`, which writes a string's UTF-16 units into wasm memory
/// (`Buffer.prototype.ucs2Write`): long strings are then copied in by their
/// units and transcoded in the wasm (`interop::staging`). Not in the lean
/// and verify-only builds (browsers have no native UTF-16 copy).
#[cfg(not(any(feature = "verify-only", feature = "lean")))]
#[wasm_bindgen(js_name = __lians_utf16, skip_typescript)]
pub fn utf16_writer(writer: JsValue) {
    interop::staging::set_writer(writer)
}

/// The crate version (equals the npm package version).
#[wasm_bindgen(js_name = crateVersion, skip_typescript)]
pub fn crate_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
