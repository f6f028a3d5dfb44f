//! The JSON-shaped façade over the core: every function takes and returns
//! [`Value`]s with the Lians API's snake_case field names. The CLI and the
//! wasm binding call only these, so both speak exactly the same language,
//! and a second binding (PyO3, a C ABI) would need nothing else.
//!
//! Every entry point first applies the input caps of [`crate::api::limits`]
//! (typed `too_large` / `nesting_too_deep` errors); JSON text should enter
//! through [`crate::api::limits::parse_input`].

pub mod limits;

use crate::admission;
use crate::args::{optional_str, required_str};
use crate::json::Value;
use crate::scoring::ScoreInput;
use crate::scoring::{batch, rank};
use crate::text;
use crate::{Error, ErrorCode, Result};
use limits::Caps;

/// `score_memory(**input)`: input is an object with the reference's keyword
/// arguments (`content`, `reference_time`, optional `metadata`, `importance`,
/// `source`, `event_time`, `valid_from`, `valid_to`, `superseded`, `query`,
/// `base_relevance`, `safety_status`, `risk_tags`, `verified_trust_level`,
/// `query_tokens`, `purpose`). Returns the breakdown object (spec `scoring-admission.md` §5).
pub fn score_memory(input: &Value) -> Result<Value> {
    Ok(score_memory_scored(input)?.to_json())
}

/// [`score_memory`] before its result is built: the scorer's
/// [`Scored`](crate::scoring::Scored), whose `to_json` is the breakdown
/// object and `write_json` the same object as JSON text (a binding prints it
/// without building the [`Value`]).
pub fn score_memory_scored(input: &Value) -> Result<crate::scoring::Scored> {
    limits::check_api_input(input)?;
    let input = ScoreInput::from_json(input)?;
    Ok(crate::scoring::score_memory(&input))
}

/// The input caps of the batch entry points: each candidate and `shared` as
/// one `score_memory` input, the text as any text input.
const BATCH_CAPS: batch::InputCaps = batch::InputCaps {
    value: limits::check_api_input,
    text: limits::check_text,
    within_text_bytes: limits::WITHIN_CAPS_TEXT_BYTES,
    max_items: limits::MAX_ARRAY_ITEMS,
};

/// Batch `score_memory` over candidates given as JSON values
/// ([`crate::scoring::batch`]): each result byte-identical to
/// [`score_memory`] on `shared`'s members followed by the candidate's.
pub fn score_candidates(shared: &Value, candidates: &[Value]) -> Result<batch::Batch> {
    batch::score_candidates(&BATCH_CAPS, shared, candidates)
}

/// Batch `score_memory` over a JSON array text or JSON Lines
/// ([`batch::score_candidates_text`]).
pub fn score_candidates_text(shared: &Value, candidates: &str) -> Result<batch::Batch> {
    batch::score_candidates_text(&BATCH_CAPS, shared, candidates)
}

/// Batch `score_memory` over candidates a binding converted itself (an
/// `Err` item keeps its error row; the binding bounds the count).
pub fn score_candidates_read(
    shared: &Value,
    candidates: impl IntoIterator<Item = Result<Value>>,
) -> Result<batch::Batch> {
    batch::score_candidates_read(&BATCH_CAPS, shared, candidates)
}

/// `tokenize_for_scoring(value)`: returns an array of strings.
pub fn tokenize_for_scoring(value: &Value) -> Result<Value> {
    limits::check_value(value, "", "the value", &Caps::INPUT)?;
    Ok(strings(text::tokenize_value(value)))
}

/// `detect_risk_tags(content)`: returns an array of tag strings.
pub fn detect_risk_tags(content: &Value) -> Result<Value> {
    limits::check_value(content, "", "the content", &Caps::INPUT)?;
    let content = required_str(Some(content), "")?;
    Ok(strings(admission::detect_risk_tags(&content)))
}

/// `risk_spans(content)`: where the admission detectors match,
/// `[{tag, start, end, text}]` with offsets in `units` ([`admission::risk_spans`]).
pub fn risk_spans(content: &Value, units: admission::Offsets) -> Result<Value> {
    limits::check_value(content, "", "the content", &Caps::INPUT)?;
    let content = required_str(Some(content), "")?;
    Ok(admission::risk_spans_json(&content, &admission::risk_spans(&content), units))
}

/// `is_too_vague(content)`: a boolean.
pub fn is_too_vague(content: &Value) -> Result<Value> {
    limits::check_value(content, "", "the content", &Caps::INPUT)?;
    let content = required_str(Some(content), "")?;
    Ok(Value::Bool(admission::is_too_vague(&content)))
}

/// `evaluate(content, source, mode, blocked_sources)`: input object
/// `{content, source?, mode? = "monitor", blocked_sources? = []}`; returns
/// `{action, risk_tags, reasons}`. `blocked_sources` is an array used as
/// given, or a string normalized like the server's comma-separated setting.
pub fn evaluate_admission(input: &Value) -> Result<Value> {
    limits::check_api_input(input)?;
    let obj = input.as_object().ok_or_else(|| Error::wrong_type("", "an object", input.type_name()))?;
    let content = required_str(obj.get("content"), "/content")?;
    // Source and block list keep lone surrogates: they are compared and echoed.
    let source = match obj.get("source") {
        None | Some(Value::Null) => None,
        Some(Value::Str(s)) => Some(s.clone()),
        Some(other) => return Err(Error::wrong_type("/source", "a string", other.type_name())),
    };
    let mode = optional_str(obj.get("mode"), "/mode")?.unwrap_or_else(|| "monitor".to_string());
    let blocked = match obj.get("blocked_sources") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Str(s)) => admission::normalize_blocked_sources(s),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Str(s) => Ok(s.clone()),
                other => Err(Error::wrong_type(format!("/blocked_sources/{i}"), "a string", other.type_name())),
            })
            .collect::<Result<Vec<_>>>()?,
        Some(other) => {
            return Err(Error::wrong_type("/blocked_sources", "an array of strings or a string", other.type_name()))
        }
    };
    Ok(admission::evaluate_wtf8(&content, source.as_ref(), &mode, &blocked).to_json())
}

/// Re-score a review-queue item (`PendingAdmissionOut`, optionally with the
/// write's `importance` and `metadata`, which the list route does not return).
///
/// Returns `{held, approved, trusted_review, trusted_review_risk_tags, inputs,
/// drift}` ([`crate::admission::review`]): the admission breakdown as held (safety
/// `review_needed`), as the reviewer's approval would store it (safety
/// `approved`, the item's tags), and on the trusted-review path (safety
/// `approved`, tags re-detected from the content); `inputs` says which
/// importance and metadata properties were used and whether each was
/// supplied, inferred from the stored `score_breakdown`, or a default;
/// `drift` compares the held re-score with the stored breakdown.
pub fn rescore_review_item(item: &Value) -> Result<Value> {
    limits::check_api_input(item)?;
    let item = crate::admission::review::ReviewItem::from_json(item)?;
    Ok(crate::admission::review::rescore(&item).to_json())
}

/// `rank_position_score(position, total, input_score)` (rank-calibration-v1).
pub fn rank_position_score(position: &Value, total: &Value, input: &Value) -> Result<Value> {
    for v in [position, total, input] {
        limits::check_value(v, "", "the argument", &Caps::INPUT)?;
    }
    rank::rank_position_score(position, total, input).map(Value::Float)
}

/// Sort candidates `[{id, event_time, created_at, final_score?}]` by the
/// stable key (final desc, event desc, created desc, id asc); returns the sorted array.
pub fn sort_candidates(candidates: &Value) -> Result<Value> {
    limits::check_value(candidates, "", "the candidates", &Caps::INPUT)?;
    let items =
        candidates.as_array().ok_or_else(|| Error::wrong_type("", "an array of candidates", candidates.type_name()))?;
    rank::sort_candidates(items).map(Value::Array)
}

// ---------------------------------------------------------------- receipts

// Each is the typed API's function printed by the one report printer
// ([`crate::VerificationReport::to_json`]); the typed API applies the input
// caps ([`limits::check_receipt_input`], once per call).

/// Verify a `lians.recall-receipt.v2` from the raw response body (or bare
/// receipt) text; returns the report object ([`crate::VerificationReport::to_json`]).
/// Findings are report data; only input over [`crate::api::limits`] is an error.
pub fn verify_recall_receipt(wire: &str, given: &Value) -> Result<Value> {
    crate::verify_recall_receipt(wire, given).map(|r| r.to_json())
}

/// Verify a `lians.context-receipt.v2` from the raw response body (or bare receipt) text.
pub fn verify_context_receipt(wire: &str, given: &Value) -> Result<Value> {
    crate::verify_context_receipt(wire, given).map(|r| r.to_json())
}

/// Verify an Evidence Pack v2 from its raw JSON text.
pub fn verify_evidence_pack(wire: &str, options: &Value) -> Result<Value> {
    crate::verify_evidence_pack(wire, options).map(|r| r.to_json())
}

/// Verify any JSON document's canonical hash (kind `canonical`).
pub fn verify_canonical(wire: &str, given: &Value) -> Result<Value> {
    crate::verify_canonical(wire, given).map(|r| r.to_json())
}

/// Audit a recall response (raw `POST /v1/recall` body text): re-derive the
/// server's scores ([`crate::audit`]). `options` is `{query?, request?,
/// cache_ttl_seconds?, clock_skew_seconds?}`: the query the client sent
/// (null or absent: `request.query`, else `query_variants[0]` when it hashes
/// to the receipt's `query_sha256`) and the request it sent
/// ([`crate::audit::AuditRequest`]). Returns the report object
/// ([`crate::audit::Audit::to_json`]); findings are report data, input that
/// cannot be audited is an error.
///
/// The caps: the wire text and `options` as a receipt's, the query as one
/// string, each memory as an API input and its metadata as `metadata`
/// ([`limits`]); the audit itself applies none.
pub fn audit_recall(wire: &str, options: &Value) -> Result<Value> {
    receipt_limits(wire, options, "the recall response")?;
    let options = audit_options(options)?;
    let query = options.query.as_ref().or(options.request.as_ref().and_then(|r| r.query.as_ref()));
    if let Some(q) = query {
        if q.len() > limits::MAX_STRING_BYTES {
            return Err(Error::new(
                ErrorCode::TooLarge,
                "/query",
                format!("the query is {} bytes; the limit is {} bytes", q.len(), limits::MAX_STRING_BYTES),
            ));
        }
    }
    let mut caps = |memory: &Value, metadata: &Value, at: &str| {
        limits::check_value(memory, at, "a memory", &Caps::INPUT)?;
        if let Value::Object(_) = metadata {
            limits::check_value(metadata, &format!("{at}/metadata"), "metadata", &Caps::METADATA)?;
        }
        Ok(())
    };
    Ok(crate::audit::audit_recall_options(wire, &options, &mut caps)?.into_json())
}

/// The audit's options (`docs/audit.md`): `{query?, request?,
/// cache_ttl_seconds?, clock_skew_seconds?}` or `null`. Unknown keys fail
/// closed, in the options and in the request.
fn audit_options(options: &Value) -> Result<crate::audit::AuditOptions> {
    const NAMES: [&str; 4] = ["query", "request", "cache_ttl_seconds", "clock_skew_seconds"];
    let mut out = crate::audit::AuditOptions::default();
    let o = match options {
        Value::Null => return Ok(out),
        Value::Object(o) => o,
        other => return Err(Error::wrong_type("", "an options object or null", other.type_name())),
    };
    // Fail closed: a misspelled option (`Query`, `qeury`, `q`) would
    // otherwise be ignored and the audit run without it.
    if let Some((k, _)) = o.iter().find(|(k, _)| !NAMES.contains(&k.to_str_lossy().as_ref())) {
        let name: String = k.to_str_lossy().chars().take(64).collect();
        return Err(Error::new(
            ErrorCode::InvalidValue,
            crate::receipt::report::pointer("", &name),
            format!(
                "unknown audit option {name:?}: the options are query, request, cache_ttl_seconds, clock_skew_seconds"
            ),
        ));
    }
    out.query = match options.get("query") {
        None | Some(Value::Null) => None,
        Some(Value::Str(s)) => Some(s.to_str_lossy().into_owned()),
        Some(other) => return Err(Error::wrong_type("/query", "a string", other.type_name())),
    };
    out.request = match options.get("request") {
        None | Some(Value::Null) => None,
        Some(r) => Some(crate::audit::AuditRequest::from_json(r, "/request")?),
    };
    for (name, slot) in
        [("cache_ttl_seconds", &mut out.cache_ttl_seconds), ("clock_skew_seconds", &mut out.clock_skew_seconds)]
    {
        match options.get(name) {
            None | Some(Value::Null) => {}
            Some(v @ (Value::Int(_) | Value::Float(_))) => {
                let x = match v {
                    Value::Float(x) => *x,
                    Value::Int(d) => match crate::py::float::int_to_f64(d) {
                        crate::py::float::PyFloat::Ok(x) => x,
                        _ => f64::NAN,
                    },
                    _ => f64::NAN,
                };
                if !(0.0..=86_400.0).contains(&x) {
                    return Err(Error::new(ErrorCode::InvalidValue, format!("/{name}"), "seconds in 0..=86400"));
                }
                *slot = x;
            }
            Some(other) => return Err(Error::wrong_type(format!("/{name}"), "a number of seconds", other.type_name())),
        }
    }
    Ok(out)
}

/// The receipt entry points' input caps ([`limits::check_receipt_input`]).
pub(crate) fn receipt_limits(wire: &str, given: &Value, what: &str) -> Result<()> {
    limits::check_receipt_input(wire, given, what)
}

fn strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Value {
    Value::Array(items.into_iter().map(|s| Value::str(s.as_ref())).collect())
}
