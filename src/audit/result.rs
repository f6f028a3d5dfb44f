//! One returned result: `recall-audit.md` §1 pairing, §2 the scorer call rebuilt from the
//! memory, then the re-derivation ([`super::rederive`]) and the server's
//! per-result rules ([`super::rules::result_rules`]).

use super::report::{AuditCode, Check, ResultAudit};
use super::rules;
use super::value::{bound, number, py_eq};
use super::{rederive, stages, Admit};
use crate::json::{Object, Value};
use crate::py::time::PyDateTime;
use crate::receipt::report::pointer;
use crate::scoring::{self, ScoreInput};
use crate::{Error, Result};

/// What every result's audit shares.
pub(super) struct Context {
    /// `receipt.reference_time` as sent.
    pub(super) reference_text: String,
    /// `receipt.reference_time`, parsed: the scorer's reference time.
    pub(super) reference_time: PyDateTime,
    /// The server's rules and the audit's plan of the query.
    pub(super) rules: rules::Rules,
    /// The scorer's limits as a breakdown binds them.
    pub(super) limits_json: Value,
    /// The recall weights as a breakdown binds them.
    pub(super) weights_json: Value,
}

/// The audit of result `i`: `memory` (its metadata moved out into
/// `metadata`) against `result`, the receipt's copy. `admit` sees the
/// memory first (the caller's input caps).
pub(super) fn audit_result(
    ctx: &Context,
    i: usize,
    memory: &Value,
    metadata: Value,
    result: &Value,
    admit: Admit<'_>,
) -> Result<ResultAudit> {
    let mp = format!("/memories/{i}");
    let mem = memory.as_object().ok_or_else(|| Error::wrong_type(mp.as_str(), "an object", memory.type_name()))?;
    admit(memory, &metadata, &mp)?;
    let mut audit = ResultAudit {
        id: bound(mem.get("id")),
        rank: i + 1,
        query_variant: None,
        retrieval_score: None,
        checks: Vec::new(),
    };
    let breakdown = mem.get("score_breakdown").and_then(Value::as_object);
    audit.checks.push(pairing(mem, breakdown, result, &mp, i));

    let bp = pointer(&mp, "score_breakdown");
    let Some(bd) = breakdown else {
        audit.checks.push(
            Check::new("score_breakdown", AuditCode::BreakdownMissing, false, bp.as_str())
                .values(bound(mem.get("score_breakdown")), Value::Null)
                .message("no score_breakdown object: the scores cannot be re-derived"),
        );
        return Ok(audit);
    };

    let mut input = scorer_input(ctx, mem, metadata, &mp)?;
    // The query the result was scored with: the planned variant of the
    // fusion record's strongest scope, else the plan's first (the query
    // itself). Never a variant taken from the response: it is not bound.
    let variant = rules::scored_variant(&ctx.rules, bd);
    input.query = Some(ctx.rules.plan.variants.get(variant.unwrap_or(0)).cloned().unwrap_or_default());
    let (scored, lexical) = scoring::score_memory_with_lexical(&input);
    let retrieval = rederive::rederive(ctx, bd, &bp, &scored, lexical, &mut audit.checks);
    audit.query_variant = variant;
    audit.retrieval_score = retrieval;
    rules::result_rules(&ctx.rules, bd, &bp, retrieval.map(|i| i.hi), &mut audit.checks);
    stages::finish_positions(&mut audit.checks, audit.rank, ctx.rules.context);
    Ok(audit)
}

/// `recall-audit.md` §1: `memories[i]` and `receipt.results[i]` have the same `id`, `score`
/// and deep-equal `score_breakdown`, and `score` is `final_score`.
fn pairing(mem: &Object, breakdown: Option<&Object>, result: &Value, mp: &str, i: usize) -> Check {
    let rp = format!("/receipt/results/{i}");
    let mut problems: Vec<&str> = Vec::new();
    let same = |key: &str| {
        matches!((mem.get(key), result.get(key)), (Some(a), Some(b)) if py_eq(a, b))
            || (mem.get(key).is_none() && result.get(key).is_none())
    };
    if !same("id") || mem.get("id").is_none() {
        problems.push("id");
    }
    if !same("score") || number(mem.get("score")).is_none() {
        problems.push("score");
    }
    if !same("score_breakdown") {
        problems.push("score_breakdown");
    }
    if let Some(bd) = breakdown {
        if number(mem.get("score")) != number(bd.get("final_score")) || number(bd.get("final_score")).is_none() {
            problems.push("score vs final_score");
        }
    }
    if problems.is_empty() {
        Check::new("pairing", AuditCode::PairingMismatch, true, mp).message(format!("matches {rp}"))
    } else {
        Check::new("pairing", AuditCode::PairingMismatch, false, mp)
            .message(format!("{} differ(s) from {rp}", problems.join(", ")))
    }
}

/// The scorer call the server made for this memory (`recall-audit.md` §2), with a numeric
/// base relevance (0.0) so the relevance reason takes its retrieval form.
fn scorer_input(ctx: &Context, memory: &Object, metadata: Value, mp: &str) -> Result<ScoreInput> {
    let content = opt_string(memory.get("content"), pointer(mp, "content"))?.unwrap_or_default();
    let mut input = ScoreInput::new(content, ctx.reference_time);
    input.metadata = match metadata {
        Value::Null => Object::new(),
        Value::Object(o) => o,
        other => return Err(Error::wrong_type(pointer(mp, "metadata"), "an object or null", other.type_name())),
    };
    if let Some(importance) = memory.get("importance") {
        input.importance = importance.clone();
    }
    input.source = opt_string(memory.get("source"), pointer(mp, "source"))?;
    input.event_time = opt_datetime(memory.get("event_time"), pointer(mp, "event_time"))?;
    input.valid_from = opt_datetime(memory.get("valid_from"), pointer(mp, "valid_from"))?;
    input.valid_to = opt_datetime(memory.get("valid_to"), pointer(mp, "valid_to"))?;
    input.superseded = memory.get("superseded_by").is_some_and(|v| !v.is_null());
    input.purpose = Value::str("recall");
    input.base_relevance = Some(Value::Float(0.0));
    if let Some(Value::Object(admission)) = input.metadata.get("_admission") {
        input.safety_status = match admission.get("action").and_then(Value::as_str) {
            Some("review" | "held_for_review" | "pending") => String::from("review_needed"),
            Some(action) => action.to_string(),
            None => String::from("safe"),
        };
        input.risk_tags = match admission.get("risk_tags") {
            Some(Value::Array(tags)) => tags.iter().filter_map(|t| t.as_str().map(str::to_string)).collect(),
            _ => Vec::new(),
        };
    }
    Ok(input)
}

/// An optional string member (absent or `null`: `None`).
fn opt_string(v: Option<&Value>, path: String) -> Result<Option<String>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.to_str_lossy().into_owned())),
        Some(other) => Err(Error::wrong_type(path, "a string or null", other.type_name())),
    }
}

/// An optional datetime member (absent or `null`: `None`).
fn opt_datetime(v: Option<&Value>, path: String) -> Result<Option<PyDateTime>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Str(s)) => PyDateTime::parse(&s.to_str_lossy()).map(Some).map_err(|e| e.under(&path)),
        Some(other) => Err(Error::wrong_type(path, "an ISO-8601 datetime string or null", other.type_name())),
    }
}
