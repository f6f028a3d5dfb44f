//! The JSON-shaped façade over the core: every function takes and returns
//! [`Value`]s with the Lians API's snake_case field names. The CLI and the
//! wasm binding call only these, so both speak exactly the same language,
//! and a second binding (PyO3, a C ABI) would need nothing else.
//!
//! Every entry point first applies the input caps of [`crate::limits`]
//! (typed `too_large` / `nesting_too_deep` errors); JSON text should enter
//! through [`crate::limits::parse_input`].

use crate::admission::{self, WriteRequest};
use crate::json::{Object, Value};
use crate::limits::{self, Caps};
use crate::py::float::round6;
use crate::py::time::PyDateTime;
use crate::rank;
use crate::score::{self, ScoreInput, COMPONENTS, SCORING_POLICY_VERSION};
use crate::text;
use crate::{Error, ErrorCode, Result};

/// `score_memory(**input)`: input is an object with the reference's keyword
/// arguments (`content`, `reference_time`, optional `metadata`, `importance`,
/// `source`, `event_time`, `valid_from`, `valid_to`, `superseded`, `query`,
/// `base_relevance`, `safety_status`, `risk_tags`, `verified_trust_level`,
/// `query_tokens`, `purpose`). Returns the breakdown object (spec §5).
pub fn score_memory(input: &Value) -> Result<Value> {
    limits::check_api_input(input)?;
    let input = ScoreInput::from_json(input)?;
    Ok(score::score_memory(&input).to_json())
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

/// `evaluate(content, source, mode, blocked_sources)`: input object
/// `{content, source?, mode? = "monitor", blocked_sources? = []}`; returns
/// `{action, risk_tags, reasons}`. `blocked_sources` is an array used as
/// given, or a string normalized like the server's comma-separated setting.
pub fn evaluate_admission(input: &Value) -> Result<Value> {
    limits::check_api_input(input)?;
    let obj = input.as_object().ok_or_else(|| Error::wrong_type("", "an object", input.type_name()))?;
    let content = required_str(obj.get("content"), "/content")?;
    let source = optional_str(obj.get("source"), "/source")?;
    let mode = optional_str(obj.get("mode"), "/mode")?.unwrap_or_else(|| "monitor".to_string());
    let blocked = match obj.get("blocked_sources") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Str(s)) => admission::normalize_blocked_sources(&s.to_str_lossy()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| required_str(Some(v), &format!("/blocked_sources/{i}")))
            .collect::<Result<Vec<_>>>()?,
        Some(other) => return Err(Error::wrong_type("/blocked_sources", "an array of strings or a string", other.type_name())),
    };
    Ok(admission::evaluate(&content, source.as_deref(), &mode, &blocked).to_json())
}

/// Re-score a review-queue item (`PendingAdmissionOut`, optionally with the
/// write's `importance` and `metadata`, which the list route does not return).
///
/// Returns `{held, approved, trusted_review, trusted_review_risk_tags, inputs,
/// drift}`: the admission breakdown as held (safety `review_needed`), as the
/// reviewer's approval would store it (safety `approved`, the item's tags),
/// and on the trusted-review path (safety `approved`, tags re-detected from
/// the content, so injection-like text stays ineligible); `drift` compares
/// the held re-score with the stored `score_breakdown` and names known causes.
pub fn rescore_review_item(item: &Value) -> Result<Value> {
    limits::check_api_input(item)?;
    let obj = item.as_object().ok_or_else(|| Error::wrong_type("", "an object", item.type_name()))?;
    let content = required_str(obj.get("content"), "/content")?;
    let event_text = required_str(obj.get("event_time"), "/event_time")?;
    let event_time = PyDateTime::parse(&event_text).map_err(|e| e.under("/event_time"))?;
    let source = optional_str(obj.get("source"), "/source")?;
    let risk_tags: Vec<String> = match obj.get("risk_tags") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| required_str(Some(v), &format!("/risk_tags/{i}")))
            .collect::<Result<_>>()?,
        Some(other) => return Err(Error::wrong_type("/risk_tags", "an array of strings", other.type_name())),
    };
    let importance_supplied = obj.get("importance").is_some();
    let metadata = match obj.get("metadata") {
        None | Some(Value::Null) => None,
        Some(Value::Object(o)) => Some(o.clone()),
        Some(other) => return Err(Error::wrong_type("/metadata", "an object or null", other.type_name())),
    };
    let metadata_supplied = metadata.is_some();
    let request = WriteRequest {
        content: content.clone(),
        event_time,
        source,
        metadata: metadata.unwrap_or_default(),
        importance: obj.get("importance").cloned().unwrap_or(Value::Float(0.5)),
    };
    let (_, held) = admission::attach(&request, "review", &risk_tags, None, None);
    let (_, approved) = admission::attach(&request, "admit", &risk_tags, Some("approved"), Some("approved"));
    let fresh: Vec<String> = admission::detect_risk_tags(&content).into_iter().map(String::from).collect();
    let (_, trusted) = admission::attach(&request, "admit", &fresh, Some("approved"), Some("approved"));
    let held_json = held.to_json();

    let mut inputs = Object::new();
    inputs.push_unique("importance_supplied", Value::Bool(importance_supplied));
    inputs.push_unique("metadata_supplied", Value::Bool(metadata_supplied));

    let drift = match obj.get("score_breakdown") {
        Some(Value::Object(stored)) => drift(stored, &held_json, importance_supplied, metadata_supplied),
        _ => Value::Null,
    };

    let mut out = Object::new();
    out.push_unique("held", held_json);
    out.push_unique("approved", approved.to_json());
    out.push_unique("trusted_review", trusted.to_json());
    out.push_unique("trusted_review_risk_tags", strings(fresh));
    out.push_unique("inputs", Value::Object(inputs));
    out.push_unique("drift", drift);
    Ok(Value::Object(out))
}

/// Compare a stored breakdown with the held re-score, by key (Postgres
/// JSONB reorders keys), numbers after rounding to 6 places, and explain the
/// differences where a known cause accounts for them:
///
/// * `missing-inputs`: the list route returns neither `importance` nor the
///   caller metadata (spec §11.1); they feed importance, confidence and
///   stability (and so `final_score`, when eligibility agrees).
/// * `reference-time-offset`: same instant, different offset text (§11.2).
/// * `policy-version`: scores from another policy are not comparable, so
///   every difference counts as explained by it.
///
/// Anything left is listed in `unexplained_fields` with an `unexplained` cause.
fn drift(stored: &Object, rescored: &Value, importance_supplied: bool, metadata_supplied: bool) -> Value {
    let keys = COMPONENTS.iter().copied().chain([
        "final_score",
        "eligible",
        "safety_eligible",
        "temporal_eligible",
        "purpose",
        "weights",
        "scoring_limits",
        "reasons",
        "reference_time",
        "scoring_policy_version",
    ]);
    let fields: Vec<&str> = keys
        .filter(|key| match (rescored.get(key), stored.get(key)) {
            (Some(a), Some(b)) => !same_value(a, b),
            (None, None) => false,
            _ => true,
        })
        .collect();
    let mut unexplained: Vec<&str> = fields.clone();
    let mut causes: Vec<Value> = Vec::new();
    let mut cause = |code: &str, text: String| {
        let mut c = Object::new();
        c.push_unique("code", Value::str(code));
        c.push_unique("text", Value::str(text));
        causes.push(Value::Object(c));
    };
    let num = |o: Option<&Value>| match o {
        Some(Value::Float(f)) => Some(*f),
        Some(Value::Int(d)) => d.parse::<f64>().ok(),
        _ => None,
    };

    const INPUT_FED: [&str; 3] = ["importance_score", "confidence_score", "stability_score"];
    if !(importance_supplied && metadata_supplied) && unexplained.iter().any(|f| INPUT_FED.contains(f)) {
        let missing = match (importance_supplied, metadata_supplied) {
            (false, false) => "importance and caller metadata are",
            (false, true) => "importance is",
            _ => "caller metadata is",
        };
        let mut text = format!(
            "{missing} not in the GET /v1/admissions response (spec §11.1): re-scored with {} and {}.",
            if importance_supplied { "the given importance" } else { "importance 0.5" },
            if metadata_supplied { "the given metadata" } else { "metadata {}" },
        );
        if let (false, Some(a), Some(b)) = (metadata_supplied, num(stored.get("confidence_score")), num(rescored.get("confidence_score"))) {
            if (round6(a - b) - 0.15).abs() < 1e-9 {
                text.push_str(" Stored confidence is 0.15 higher: the original write had public metadata.");
            }
        }
        cause("missing-inputs", text);
        unexplained.retain(|f| !INPUT_FED.contains(f));
        if stored.get("eligible") == rescored.get("eligible") {
            unexplained.retain(|f| *f != "final_score");
        }
    }
    if unexplained.contains(&"reference_time") {
        let instant = |v: Option<&Value>| v.and_then(Value::as_str).and_then(|t| PyDateTime::parse(t).ok()).map(|t| t.instant_micros());
        let (a, b) = (instant(stored.get("reference_time")), instant(rescored.get("reference_time")));
        if a.is_some() && a == b {
            let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
            cause(
                "reference-time-offset",
                format!(
                    "reference_time written with a different offset ({} stored vs {}): the list returns event_time normalised to UTC (spec §11.2). Same instant.",
                    text(stored.get("reference_time")),
                    text(rescored.get("reference_time"))
                ),
            );
            unexplained.retain(|f| *f != "reference_time");
        }
    }
    if fields.contains(&"scoring_policy_version") {
        let stored_version = stored.get("scoring_policy_version").map(json_text).unwrap_or_else(|| "null".into());
        cause(
            "policy-version",
            format!("stored with scoring policy {stored_version}; the client implements \"{SCORING_POLICY_VERSION}\". Scores from another policy version are not comparable."),
        );
        unexplained.clear();
    }
    if !unexplained.is_empty() {
        cause("unexplained", format!("not explained by a known cause: {}.", unexplained.join(", ")));
    }
    let mut o = Object::new();
    o.push_unique("drifted", Value::Bool(!fields.is_empty()));
    o.push_unique("fields", strings(&fields));
    o.push_unique("explained", Value::Bool(unexplained.is_empty()));
    o.push_unique("unexplained_fields", strings(&unexplained));
    o.push_unique("causes", Value::Array(causes));
    Value::Object(o)
}

fn json_text(v: &Value) -> String {
    crate::json::to_json_string(v)
}

fn same_value(a: &Value, b: &Value) -> bool {
    let num = |v: &Value| match v {
        Value::Float(f) => Some(*f),
        Value::Int(d) => d.parse::<f64>().ok(),
        _ => None,
    };
    match (num(a), num(b)) {
        (Some(x), Some(y)) => round6(x) == round6(y),
        _ => match (a, b) {
            (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q)),
            // By key: JSONB storage reorders object keys.
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.iter().any(|(k2, v2)| k2 == k && same_value(v, v2)))
            }
            _ => a == b,
        },
    }
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
    let items = candidates
        .as_array()
        .ok_or_else(|| Error::wrong_type("", "an array of candidates", candidates.type_name()))?;
    rank::sort_candidates(items).map(Value::Array)
}

// ---------------------------------------------------------------- receipts

/// Verify a `lians.recall-receipt.v2` from the raw response body (or bare
/// receipt) text; returns the report object ([`crate::receipt::Report::to_json`]).
/// Findings are report data; only input over [`crate::limits`] is an error.
pub fn verify_recall_receipt(wire: &str, given: &Value) -> Result<Value> {
    receipt_limits(wire, given, "the recall response")?;
    Ok(crate::receipt::verify_recall_receipt(wire, given).to_json())
}

/// Verify a `lians.context-receipt.v2` from the raw response body (or bare receipt) text.
pub fn verify_context_receipt(wire: &str, given: &Value) -> Result<Value> {
    receipt_limits(wire, given, "the context response")?;
    Ok(crate::receipt::verify_context_receipt(wire, given).to_json())
}

/// Verify an Evidence Pack v2 from its raw JSON text.
pub fn verify_evidence_pack(wire: &str, options: &Value) -> Result<Value> {
    receipt_limits(wire, options, "the evidence pack")?;
    Ok(crate::receipt::verify_evidence_pack(wire, options).to_json())
}

/// Verify any JSON document's canonical hash (kind `canonical`).
pub fn verify_canonical(wire: &str, given: &Value) -> Result<Value> {
    receipt_limits(wire, given, "the document")?;
    Ok(crate::receipt::verify_canonical(wire, given).to_json())
}

/// Audit a recall response (raw `POST /v1/recall` body text): re-derive the
/// server's scores ([`crate::audit`]). `options` is `{query?}` (the query the
/// client sent; null or absent: `query_variants[0]` when it hashes to the
/// receipt's `query_sha256`). Returns the report object
/// ([`crate::audit::Audit::to_json`]); findings are report data, input that
/// cannot be audited is an error.
pub fn audit_recall(wire: &str, options: &Value) -> Result<Value> {
    receipt_limits(wire, options, "the recall response")?;
    Ok(crate::audit::audit_recall_value(wire, options)?.into_json())
}

fn receipt_limits(wire: &str, given: &Value, what: &str) -> Result<()> {
    limits::check_text(wire, what)?;
    limits::check_given(given).map_err(|e| e.under("/given"))
}

fn strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Value {
    Value::Array(items.into_iter().map(|s| Value::str(s.as_ref())).collect())
}

fn required_str(v: Option<&Value>, path: &str) -> Result<String> {
    match v {
        Some(Value::Str(s)) => Ok(s.to_str_lossy().into_owned()),
        Some(other) => Err(Error::wrong_type(path, "a string", other.type_name())),
        None => Err(Error::new(ErrorCode::MissingField, path, format!("`{}` is required", path.trim_start_matches('/')))),
    }
}

fn optional_str(v: Option<&Value>, path: &str) -> Result<Option<String>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        other => required_str(other, path).map(Some),
    }
}
