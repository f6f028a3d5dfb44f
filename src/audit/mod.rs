//! Recall audit: re-derive the server's scores from a recall response
//! (`recall-audit.md`, refining `ranking-receipts.md` §7 and §9.4).
//!
//! # Why
//! A receipt hash proves that the response was not changed after the server
//! hashed it, and a signature proves who hashed it. Neither proves that the
//! server **followed its published scoring rules**: a server that mis-scores
//! and then hashes honestly passes both. The audit closes that gap for the
//! deterministic part of recall. It needs only the raw `POST /v1/recall`
//! response body and the query the client sent.
//!
//! # What it checks, per returned result
//! 1. **Pairing** (§1): `memories[i]` and `receipt.results[i]` have the same
//!    `id`, `score` and deep-equal `score_breakdown`, and `score` is
//!    `final_score`.
//! 2. **The scorer call, rebuilt** (§2): `score_memory` with purpose
//!    `recall`, the memory's whole content, verbatim metadata, stored
//!    importance, source, times, `superseded_by`, the safety status and risk
//!    tags of `metadata._admission`, `receipt.reference_time`, and the query
//!    the result was scored with: the variant of `fusion.strongest_scope` in
//!    the audit's own plan of the query ([`planner`]), else the plan's only
//!    variant. The response's `query_variants` are not bound, so they are
//!    compared with the plan and never used.
//! 3. **Exact checks** (§3): the six retrieval-independent components, the
//!    three gates, the seven component reasons, the recall weights, the
//!    reference time, purpose, policy version and scoring limits.
//! 4. **Interval checks** (§4): the retrieval score `b` is not in the
//!    response. Each of `relevance_score`, `quality_score` (the scorer's
//!    final) and the hybrid rank score `H = round6(0.8·b + 0.2·quality)` is
//!    a non-decreasing step function of `b`, so the `b` that reproduce each
//!    bound value form an interval, computed exactly ([`interval`]). The
//!    result is consistent when the three intersect; the intersection is
//!    reported as `retrieval_score`: the retrieval score the server must
//!    have used. When they do not intersect, the value whose interval is
//!    empty or disjoint from both others is blamed (`relevance_inconsistent`,
//!    `quality_inconsistent`, `blend_inconsistent`); when only one pair is
//!    disjoint, both of its members are.
//! 5. **Fusion and stages** (§5): `fusion.strongest_input_score == H`, the
//!    fused score within 1e-6 of its formula, the stage chain, and every
//!    `rank-calibration-v1` record.
//! 6. **The server's rules** ([`rules`], every field with the rule that
//!    bounds it in `docs/audit.md`): the policy is one the server resolves
//!    (else `not_auditable`); `query_variants` are the plan;
//!    `reference_time == as_of` when set; the order is `stable_score_key`'s;
//!    no id twice; every result eligible; stage records of the kinds the
//!    server writes, with their method, in its order, allowed by `filters`;
//!    the reasons after the component reasons; fusion only with two or more
//!    planned facets and its values in their range; `candidate_count` and
//!    `position` consistent with the returned results and the policy's caps.
//!
//! The cost is linear in the body: one scorer run per result (the plan has
//! at most four variants and the result names its own), keyed deep equality
//! for large objects, bounded look-ups in the fusion record.
//!
//! # What it cannot audit
//! The retrieval score itself (embeddings, BM25, recency, neighbour
//! smoothing), the per-facet ranks behind a rounded rrf, the MMR and graph
//! objectives, and the candidate set ([`report::CANNOT_AUDIT`], stated in
//! every report). Nor does it check integrity or authorship: that is
//! [`crate::receipt::verify_recall_receipt`] and the Evidence Pack.
//!
//! # Errors and findings
//! Findings are data ([`Audit`]). Input that cannot be audited at all (not
//! JSON, over the [`crate::api::limits`] caps, not a recall response body, a
//! field the scorer needs with the wrong type) is a typed [`Error`] with a
//! JSON pointer. Numbers are read by lexeme from the raw text, as the
//! verifiers read them.

pub mod interval;
pub mod planner;
pub mod report;
pub mod rules;

use std::collections::HashMap;

use crate::api::limits::{self, Caps};
use crate::json::{self, Object, PyStr, Value};
use crate::py::float::{clamp01, int_to_f64, round6, sum_py312, PyFloat};
use crate::py::time::PyDateTime;
use crate::receipt::report::pointer;
use crate::receipt::sha256_hex;
use crate::scoring::components::relevance_with_base;
use crate::scoring::metadata;
use crate::scoring::rank::{self, RANKING_WEIGHTS, RANK_CALIBRATION};
use crate::scoring::{self, ScoreInput, Scored, RECALL_WEIGHTS, SCORING_POLICY_VERSION};
use crate::text;
use crate::{Error, ErrorCode, Result};

pub use interval::Interval;
pub use report::{codes, Audit, Check, ResultAudit, CANNOT_AUDIT, PROVES};

/// The six components that do not depend on the retrieval score, with their
/// index in [`scoring::COMPONENTS`] order.
const EXACT_COMPONENTS: [(usize, &str); 6] = [
    (0, "importance_score"),
    (1, "confidence_score"),
    (2, "trust_score"),
    (3, "freshness_score"),
    (5, "stability_score"),
    (6, "safety_score"),
];

/// The adaptive-fusion weights (§9.6): rrf, strongest input, support.
const FUSION_WEIGHTS: (f64, f64, f64) = (0.72, 0.18, 0.10);

/// Audit a `POST /v1/recall` response body given as raw text. `query` is
/// the query the client sent; when `None`, `query_variants[0]` is used if it
/// hashes to `receipt.query_sha256` (in fast/standard mode it is the raw query).
pub fn audit_recall(wire: &str, query: Option<&str>) -> Result<Audit> {
    limits::check_text(wire, "the recall response")?;
    if let Some(q) = query {
        if q.len() > limits::MAX_STRING_BYTES {
            return Err(Error::new(
                ErrorCode::TooLarge,
                "/query",
                format!("the query is {} bytes; the limit is {} bytes", q.len(), limits::MAX_STRING_BYTES),
            ));
        }
    }
    let mut doc = json::parse(wire)?;
    // Each memory's metadata moves (not copies) into its scorer input.
    let mut metadatas = take_metadata(&mut doc);
    let body = doc.as_object().ok_or_else(|| Error::wrong_type("", "a recall response object", doc.type_name()))?;
    let memories = match body.get("memories") {
        Some(Value::Array(m)) => m.as_slice(),
        Some(other) => return Err(Error::wrong_type("/memories", "an array", other.type_name())),
        None => return Err(Error::new(
            ErrorCode::MissingField,
            "/memories",
            "the audit needs the whole recall response body (memories with content and metadata), not a bare receipt",
        )),
    };
    let receipt = match body.get("receipt") {
        Some(r @ Value::Object(_)) => r,
        Some(other) => return Err(Error::wrong_type("/receipt", "an object", other.type_name())),
        None => return Err(Error::new(ErrorCode::MissingField, "/receipt", "the response has no receipt")),
    };
    let results = match receipt.get("results") {
        Some(Value::Array(r)) => r.as_slice(),
        Some(other) => return Err(Error::wrong_type("/receipt/results", "an array", other.type_name())),
        None => return Err(Error::new(ErrorCode::MissingField, "/receipt/results", "the receipt has no results")),
    };
    let reference_text = match receipt.get("reference_time") {
        Some(Value::Str(s)) => s.to_str_lossy().into_owned(),
        Some(other) => {
            return Err(Error::wrong_type("/receipt/reference_time", "an ISO-8601 datetime string", other.type_name()))
        }
        None => {
            return Err(Error::new(
                ErrorCode::MissingField,
                "/receipt/reference_time",
                "the receipt has no reference_time (lians.recall-receipt.v1 cannot be audited)",
            ))
        }
    };
    let reference_time = PyDateTime::parse(&reference_text).map_err(|e| e.under("/receipt/reference_time"))?;
    let variants: Vec<String> = match body.get("query_variants") {
        Some(Value::Array(items)) => items.iter().map(|v| v.as_str().map(str::to_string).unwrap_or_default()).collect(),
        _ => Vec::new(),
    };

    let mut checks = Vec::new();
    let bound_query_sha = receipt.get("query_sha256");
    let query_matches = |q: &str| {
        bound_query_sha.and_then(Value::as_str).is_some_and(|h| h.eq_ignore_ascii_case(&sha256_hex(q.as_bytes())))
    };
    let (query, query_source) = match query {
        Some(q) => (q.to_string(), "given"),
        None => match variants.first() {
            Some(v) if query_matches(v) => (v.clone(), "query_variants/0"),
            _ => {
                return Err(Error::new(
                    ErrorCode::MissingField,
                    "/query",
                    "give the query the client sent: query_variants[0] does not hash to receipt.query_sha256",
                ))
            }
        },
    };
    let sha = sha256_hex(query.as_bytes());
    checks.push(
        Check::new("query_sha256", codes::QUERY_MISMATCH, query_matches(&query), "/receipt/query_sha256")
            .values(bound_query_sha.cloned().unwrap_or(Value::Null), Value::str(sha))
            .note(if query_source == "given" {
                "SHA-256 of the given query"
            } else {
                "SHA-256 of query_variants[0], used as the query"
            }),
    );
    checks.push(
        Check::new("result_count", codes::PAIRING_MISMATCH, memories.len() == results.len(), "/memories")
            .values(Value::int(memories.len() as i64), Value::int(results.len() as i64))
            .message("memories.length vs receipt.results.length"),
    );

    // The server's own rules (the policy, the query plan, as_of, order,
    // duplicates, stage positions): see `rules`.
    let context = receipt.get("schema").and_then(Value::as_str) == Some("lians.context-receipt.v2")
        || receipt.get("retrieval_policy").is_some();
    let policy = rules::policy(receipt, context, &mut checks);
    let plan = rules::plan(policy.as_ref(), &query);
    let rules = rules::Rules {
        policy,
        plan,
        context,
        filters: if context { None } else { receipt.get("filters").and_then(Value::as_object).cloned() },
        as_of_null: receipt.get("as_of").map_or(true, Value::is_null),
        results: memories.len(),
    };
    rules::query_variants(body, &rules, &mut checks);
    rules::as_of(receipt, &mut checks);
    rules::order(memories, &rules, &mut checks);
    rules::positions(memories, &mut checks);

    let ctx = Context {
        reference_text,
        reference_time,
        rules,
        limits_json: scoring_limits_json(),
        weights_json: recall_weights_json(),
    };
    let mut audited = Vec::with_capacity(memories.len().min(results.len()));
    for (i, (memory, result)) in memories.iter().zip(results).enumerate() {
        let metadata = metadatas.get_mut(i).map(|m| std::mem::replace(m, Value::Null)).unwrap_or(Value::Null);
        let mut one = audit_result(&ctx, i, memory, metadata, result)?;
        finish_positions(&mut one, ctx.rules.context);
        audited.push(one);
    }
    Ok(Audit { query_source, checks, results: audited })
}

/// Move each memory's `metadata` out of the parsed body (leaving `null`),
/// in memory order; a memory without one gives `null`. The pairing checks
/// never look at metadata, so the scorer can own it without a copy.
fn take_metadata(doc: &mut Value) -> Vec<Value> {
    fn take(v: &mut Value, key: &str) -> Option<Value> {
        let Value::Object(o) = v else { return None };
        let mut members = std::mem::take(o).into_members();
        let out = members
            .iter_mut()
            .find(|(k, _)| k.as_bytes() == key.as_bytes())
            .map(|(_, v)| std::mem::replace(v, Value::Null));
        *o = Object::from_unique(members);
        out
    }
    let Some(mut memories) = take(doc, "memories") else { return Vec::new() };
    let out = match &mut memories {
        Value::Array(items) => items.iter_mut().map(|m| take(m, "metadata").unwrap_or(Value::Null)).collect(),
        _ => Vec::new(),
    };
    // Put the memories back where they were.
    if let Value::Object(o) = doc {
        let mut members = std::mem::take(o).into_members();
        if let Some(slot) = members.iter_mut().find(|(k, _)| k.as_bytes() == b"memories") {
            slot.1 = memories;
        }
        *o = Object::from_unique(members);
    }
    out
}

/// What every result's audit shares.
struct Context {
    reference_text: String,
    reference_time: PyDateTime,
    rules: rules::Rules,
    limits_json: Value,
    weights_json: Value,
}

fn recall_weights_json() -> Value {
    let mut weights = Object::with_capacity(7);
    for (name, w) in RECALL_WEIGHTS {
        weights.push_unique(name, Value::Float(w));
    }
    Value::Object(weights)
}

fn scoring_limits_json() -> Value {
    let mut o = Object::with_capacity(6);
    o.push_unique("text_sample_chars", Value::int(text::TEXT_SAMPLE_CHARS as i64));
    o.push_unique("token_cap", Value::int(text::TOKEN_CAP as i64));
    o.push_unique("metadata_chars", Value::int(metadata::METADATA_CHARS as i64));
    o.push_unique("metadata_items", Value::int(metadata::METADATA_ITEMS as i64));
    o.push_unique("metadata_depth", Value::int(metadata::METADATA_DEPTH as i64));
    o.push_unique("metadata_value_chars", Value::int(metadata::METADATA_VALUE_CHARS as i64));
    Value::Object(o)
}

/// A JSON number as a double (bools and other types are not numbers).
fn number(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Float(f) => Some(*f),
        Value::Int(d) => match int_to_f64(d) {
            PyFloat::Ok(f) => Some(f),
            _ => None,
        },
        _ => None,
    }
}

fn bound(v: Option<&Value>) -> Value {
    v.cloned().unwrap_or(Value::Null)
}

/// Python `==` on JSON values: `1 == 1.0`, objects by key, NaN never equal.
fn py_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            matches!((number(Some(a)), number(Some(b))), (Some(x), Some(y)) if x == y)
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| py_eq(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() {
                return false;
            }
            // Small objects (breakdowns) by scan, same position first; large
            // ones through an index, so a hostile body cannot make the
            // comparison quadratic (keys are unique after parsing).
            if x.len() <= 32 {
                return x.members().iter().zip(y.members()).all(|((k, v), (k2, w))| {
                    let w = if k == k2 { Some(w) } else { y.get_py(k) };
                    w.is_some_and(|w| py_eq(v, w))
                });
            }
            let ys = y.members();
            let index: HashMap<&[u8], usize> = ys.iter().enumerate().map(|(i, (k, _))| (k.as_bytes(), i)).collect();
            x.iter().all(|(k, v)| index.get(k.as_bytes()).is_some_and(|&i| py_eq(v, &ys[i].1)))
        }
        _ => a == b,
    }
}

trait GetPy {
    fn get_py(&self, key: &PyStr) -> Option<&Value>;
}

impl GetPy for Object {
    fn get_py(&self, key: &PyStr) -> Option<&Value> {
        self.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

fn opt_string(v: Option<&Value>, path: String) -> Result<Option<String>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.to_str_lossy().into_owned())),
        Some(other) => Err(Error::wrong_type(path, "a string or null", other.type_name())),
    }
}

fn opt_datetime(v: Option<&Value>, path: String) -> Result<Option<PyDateTime>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Str(s)) => PyDateTime::parse(&s.to_str_lossy()).map(Some).map_err(|e| e.under(&path)),
        Some(other) => Err(Error::wrong_type(path, "an ISO-8601 datetime string or null", other.type_name())),
    }
}

/// The scorer call the server made for this memory (§2), with a numeric
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

fn audit_result(ctx: &Context, i: usize, memory: &Value, metadata: Value, result: &Value) -> Result<ResultAudit> {
    let mp = format!("/memories/{i}");
    let rp = format!("/receipt/results/{i}");
    let mem = memory.as_object().ok_or_else(|| Error::wrong_type(mp.as_str(), "an object", memory.type_name()))?;
    limits::check_value(memory, &mp, "a memory", &Caps::INPUT)?;
    if let md @ Value::Object(_) = &metadata {
        limits::check_value(md, &pointer(&mp, "metadata"), "metadata", &Caps::METADATA)?;
    }
    let mut audit = ResultAudit {
        id: bound(mem.get("id")),
        rank: i + 1,
        query_variant: None,
        retrieval_score: None,
        checks: Vec::new(),
    };

    // §1 pairing.
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
    let breakdown = mem.get("score_breakdown").and_then(Value::as_object);
    if let Some(bd) = breakdown {
        if number(mem.get("score")) != number(bd.get("final_score")) || number(bd.get("final_score")).is_none() {
            problems.push("score vs final_score");
        }
    }
    let pairing = if problems.is_empty() {
        Check::new("pairing", codes::PAIRING_MISMATCH, true, mp.as_str()).message(format!("matches {rp}"))
    } else {
        Check::new("pairing", codes::PAIRING_MISMATCH, false, mp.as_str())
            .message(format!("{} differ(s) from {rp}", problems.join(", ")))
    };
    audit.checks.push(pairing);

    let bp = pointer(&mp, "score_breakdown");
    let Some(bd) = breakdown else {
        audit.checks.push(
            Check::new("score_breakdown", codes::BREAKDOWN_MISSING, false, bp.as_str())
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
    let (checks, retrieval, _) = rederive(ctx, bd, &bp, &scored, lexical);
    audit.query_variant = variant;
    audit.retrieval_score = retrieval;
    audit.checks.extend(checks);
    rules::result_rules(&ctx.rules, bd, &bp, retrieval.map(|i| i.hi), &mut audit.checks);
    Ok(audit)
}

/// The exact, interval, fusion and stage checks of one breakdown against
/// one scorer run. Returns the checks, the retrieval-score interval, and
/// whether every query-dependent check passed (to pick a query variant).
fn rederive(
    ctx: &Context,
    bd: &Object,
    bp: &str,
    scored: &Scored,
    lexical: Option<f64>,
) -> (Vec<Check>, Option<Interval>, bool) {
    let mut checks = Vec::with_capacity(24);
    let at = |key: &str| pointer(bp, key);

    // §3 exact checks.
    for (idx, name) in EXACT_COMPONENTS {
        let rederived = round6(scored.components[idx]);
        let ok = number(bd.get(name)) == Some(rederived);
        checks.push(
            Check::new(name, codes::COMPONENT_MISMATCH, ok, at(name))
                .values(bound(bd.get(name)), Value::Float(rederived)),
        );
    }
    let gates = [
        ("eligible", scored.eligible()),
        ("safety_eligible", scored.safety_eligible),
        ("temporal_eligible", scored.temporal_eligible),
    ];
    for (name, value) in gates {
        let ok = bd.get(name) == Some(&Value::Bool(value));
        checks
            .push(Check::new(name, codes::GATE_MISMATCH, ok, at(name)).values(bound(bd.get(name)), Value::Bool(value)));
    }
    let reasons: Vec<Value> = scored.reasons.iter().map(|r| Value::str(r.as_str())).collect();
    let bound_reasons = match bd.get("reasons") {
        Some(Value::Array(items)) => Value::Array(items.iter().take(7).cloned().collect()),
        other => bound(other),
    };
    let reasons_ok = bound_reasons.as_array() == Some(reasons.as_slice());
    checks.push(
        Check::new("reasons", codes::REASON_MISMATCH, reasons_ok, at("reasons"))
            .values(bound_reasons, Value::Array(reasons))
            .message("the first 7 (component) reasons"),
    );
    let mut ranking_weights = Object::with_capacity(2);
    for (k, w) in RANKING_WEIGHTS {
        ranking_weights.push_unique(k, Value::Float(w));
    }
    let policy: [(&str, Value); 6] = [
        ("weights", ctx.weights_json.clone()),
        ("ranking_weights", Value::Object(ranking_weights)),
        ("reference_time", Value::str(ctx.reference_text.as_str())),
        ("purpose", Value::str("recall")),
        ("scoring_policy_version", Value::str(SCORING_POLICY_VERSION)),
        ("scoring_limits", ctx.limits_json.clone()),
    ];
    for (name, expected) in policy {
        let got = bound(bd.get(name));
        let ok = py_eq(&got, &expected) && !got.is_null();
        checks.push(Check::new(name, codes::POLICY_MISMATCH, ok, at(name)).values(got, expected));
    }

    // §4 interval checks.
    let eligible = scored.eligible();
    let rel_u = |b: f64| match lexical {
        Some(lex) => relevance_with_base(b, lex),
        None => scored.components[4],
    };
    let f_rel = |b: f64| round6(rel_u(b));
    let f_q = |b: f64| {
        let mut values = scored.components;
        values[4] = rel_u(b);
        scoring::weighted_final(&values, &RECALL_WEIGHTS, eligible)
    };
    // The unrounded forms the bisection evaluates: the same operations in the
    // same order as `weighted_final` (products in RECALL_WEIGHTS order, then
    // CPython's sum), with the six constant products computed once.
    let mut products = [0.0f64; 7];
    for (slot, (name, w)) in products.iter_mut().zip(RECALL_WEIGHTS) {
        let idx = scoring::COMPONENTS.iter().position(|c| *c == name).unwrap_or(0);
        *slot = scored.components[idx] * w;
    }
    let rel_slot = RECALL_WEIGHTS.iter().position(|(n, _)| *n == "relevance_score").unwrap_or(0);
    let g_q = |b: f64| {
        if !eligible {
            return 0.0;
        }
        let mut p = products;
        p[rel_slot] = rel_u(b) * RECALL_WEIGHTS[rel_slot].1;
        clamp01(sum_py312(&p))
    };
    let stages: &[Value] = bd.get("ranking_stages").and_then(Value::as_array).unwrap_or(&[]);
    let (h_key, h_value) = if bd.contains_key("pre_fusion_score") {
        (at("pre_fusion_score"), bd.get("pre_fusion_score"))
    } else if let Some(first) = stages.first() {
        (pointer(&pointer(&at("ranking_stages"), "0"), "input_score"), first.get("input_score"))
    } else {
        (at("final_score"), bd.get("final_score"))
    };
    let r = number(bd.get("relevance_score"));
    let q = number(bd.get("quality_score"));
    let h = number(h_value);
    let g_h = |b: f64| RANKING_WEIGHTS[0].1 * clamp01(b) + RANKING_WEIGHTS[1].1 * clamp01(q.unwrap_or(0.0));
    let f_h = |b: f64| round6(g_h(b));
    // Guesses from the formulas without rounding (±half a unit in the 6th
    // place, widened a little): they only shorten the bisection.
    const HALF: f64 = 5e-7 + 2e-8;
    let rest: f64 = products.iter().enumerate().filter(|(i, _)| *i != rel_slot).map(|(_, p)| p).sum();
    let w_rel = RECALL_WEIGHTS[rel_slot].1;
    let guess = |center: f64, slope: f64| Some((center - HALF / slope, center + HALF / slope));
    let rel_guess = |t: f64| lexical.and_then(|lex| guess((t - 0.3 * lex) / 0.7, 0.7));
    let q_guess = |t: f64| lexical.and_then(|lex| guess(((t - rest) / w_rel - 0.3 * lex) / 0.7, w_rel * 0.7));
    let h_guess = |t: f64| {
        guess((t - RANKING_WEIGHTS[1].1 * clamp01(q.unwrap_or(0.0))) / RANKING_WEIGHTS[0].1, RANKING_WEIGHTS[0].1)
    };
    let i_rel = r.and_then(|r| interval::level_set_near(rel_u, r, rel_guess(r)));
    let i_q = q.and_then(|q| interval::level_set_near(g_q, q, q_guess(q)));
    let i_h = if q.is_some() { h.and_then(|h| interval::level_set_near(g_h, h, h_guess(h))) } else { None };
    let both = |a: Option<Interval>, b: Option<Interval>| a.and_then(|a| b.and_then(|b| a.intersect(b)));
    let mut retrieval = both(both(i_rel, i_q), i_h);
    // Verify the chosen retrieval score explicitly (the functions are
    // monotone, so this holds; it guards the reasoning, not the arithmetic).
    if let Some(i) = retrieval {
        let holds = |b: f64| Some(f_rel(b)) == r && Some(f_q(b)) == q && Some(f_h(b)) == h;
        retrieval = [i.lo, i.mid(), i.hi].into_iter().find(|b| holds(*b)).map(|_| i);
    }
    // Blame: an empty interval, or one disjoint from both others; failing
    // that, both members of a disjoint pair.
    let sets = [i_rel, i_q, i_h];
    let mut blamed = [false; 3];
    if retrieval.is_none() {
        for k in 0..3 {
            let others = (0..3).filter(|&j| j != k);
            blamed[k] = match sets[k] {
                None => true,
                Some(s) => {
                    others.clone().any(|j| sets[j].is_some())
                        && others.filter_map(|j| sets[j]).all(|o| s.intersect(o).is_none())
                }
            };
        }
        if !blamed.iter().any(|b| *b) {
            for k in 0..3 {
                blamed[k] = (0..3).any(|j| j != k && both(sets[k], sets[j]).is_none());
            }
        }
    }
    // Re-derived values at the retrieval score the *other* two imply: the
    // one nearest to the checked value's own interval, if it has one.
    let implied = |own: usize, a: usize, b: usize| {
        let i = retrieval.or_else(|| both(sets[a], sets[b]))?;
        Some(match sets[own] {
            Some(o) => crate::py::float::clamp_to(o.mid(), i.lo, i.hi),
            None => i.mid(),
        })
    };
    let num_or_null = |v: Option<f64>| v.map(Value::Float).unwrap_or(Value::Null);
    checks.push(
        Check::new("relevance_score", codes::RELEVANCE_INCONSISTENT, !blamed[0], at("relevance_score"))
            .values(bound(bd.get("relevance_score")), num_or_null(implied(0, 1, 2).map(f_rel)))
            .interval(i_rel)
            .note(match lexical {
                Some(lex) => {
                    // Python's repr (the crate's own printer, not Rust's Display).
                    let lex = crate::py::float::repr(lex);
                    format!("round6(0.7·b + 0.3·{lex}) (lexical overlap {lex})")
                }
                None => "no query: neutral relevance".to_string(),
            }),
    );
    checks.push(
        Check::new("quality_score", codes::QUALITY_INCONSISTENT, !blamed[1], at("quality_score"))
            .values(bound(bd.get("quality_score")), num_or_null(implied(1, 0, 2).map(f_q)))
            .interval(i_q)
            .message("the scorer's gated, weighted final score"),
    );
    checks.push(
        Check::new("blend", codes::BLEND_INCONSISTENT, !blamed[2], h_key)
            .values(bound(h_value), num_or_null(if q.is_some() { implied(2, 0, 1).map(f_h) } else { None }))
            .interval(i_h)
            .message("the hybrid rank score round6(0.8·b + 0.2·quality_score)"),
    );
    let query_ok = reasons_ok && retrieval.is_some();

    // §5 fusion and stages.
    fusion_and_stages(bd, bp, h, &mut checks);
    (checks, retrieval, query_ok)
}

fn fusion_and_stages(bd: &Object, bp: &str, h: Option<f64>, checks: &mut Vec<Check>) {
    let sp = pointer(bp, "ranking_stages");
    let stages: &[Value] = match bd.get("ranking_stages") {
        Some(Value::Array(items)) => items,
        Some(other) => {
            checks.push(
                Check::new("stage_chain", codes::STAGE_CHAIN_BROKEN, false, sp.as_str())
                    .values(other.clone(), Value::Null)
                    .message("ranking_stages is not an array"),
            );
            &[]
        }
        None => &[],
    };
    let fusion_stage = stages.iter().position(|s| s.get("stage").and_then(Value::as_str) == Some("adaptive-fusion"));
    match bd.get("fusion") {
        Some(Value::Object(fusion)) => {
            let fp = pointer(bp, "fusion");
            let strongest = number(fusion.get("strongest_input_score"));
            checks.push(
                Check::new(
                    "fusion_strongest_input",
                    codes::FUSION_INCONSISTENT,
                    strongest.is_some() && strongest == h,
                    pointer(&fp, "strongest_input_score"),
                )
                .values(bound(fusion.get("strongest_input_score")), h.map(Value::Float).unwrap_or(Value::Null))
                .message("fusion.strongest_input_score equals the hybrid score (pre_fusion_score)"),
            );
            let rrf = number(fusion.get("normalized_rrf_score"));
            let support = number(fusion.get("facet_support"));
            let count = number(fusion.get("facet_count")).filter(|c| *c > 0.0);
            let expected = match (rrf, strongest, support, count) {
                (Some(rrf), Some(s), Some(sup), Some(n)) => {
                    Some(round6(FUSION_WEIGHTS.0 * rrf + FUSION_WEIGHTS.1 * s + FUSION_WEIGHTS.2 * (sup / n)))
                }
                _ => None,
            };
            let (ptr, got, fields_ok) = match fusion_stage.and_then(|j| stages.get(j).map(|s| (j, s))) {
                Some((j, stage)) => {
                    let stp = pointer(&sp, &j.to_string());
                    // The record's own keys are checked by `rules`; the
                    // stage repeats each of them (bounded: 7 look-ups).
                    let fields_ok = rules::FUSION_KEYS
                        .iter()
                        .all(|k| matches!((fusion.get(k), stage.get(k)), (Some(v), Some(w)) if py_eq(v, w)));
                    (pointer(&stp, "output_score"), stage.get("output_score"), fields_ok)
                }
                None => (sp.clone(), None, false),
            };
            let out = number(got);
            let close = matches!((out, expected), (Some(o), Some(e)) if (o - e).abs() <= 1e-6 + 1e-12);
            checks.push(
                Check::new("fusion", codes::FUSION_INCONSISTENT, close && fields_ok, ptr)
                    .values(bound(got), expected.map(Value::Float).unwrap_or(Value::Null))
                    .message(if fields_ok || fusion_stage.is_none() {
                        "round6(0.72·normalized_rrf_score + 0.18·strongest_input_score + 0.10·facet_support/facet_count), within 1e-6 (the bound rrf is rounded)"
                    } else {
                        "the adaptive-fusion stage does not repeat the fusion fields"
                    }),
            );
        }
        Some(other) => checks.push(
            Check::new("fusion", codes::FUSION_INCONSISTENT, false, pointer(bp, "fusion"))
                .values(other.clone(), Value::Null)
                .message("fusion is not an object"),
        ),
        None => {
            if let Some(j) = fusion_stage {
                checks.push(
                    Check::new("fusion", codes::FUSION_INCONSISTENT, false, pointer(&sp, &j.to_string()))
                        .message("an adaptive-fusion stage without a fusion record"),
                );
            }
        }
    }

    // The stage chain: each input is the previous output, rounded and
    // clamped; the first previous is the hybrid score; final is the last output.
    if !stages.is_empty() || bd.contains_key("pre_fusion_score") {
        let mut prev = h;
        let mut broken: Option<(String, Value, Value, String)> = None;
        for (j, stage) in stages.iter().enumerate() {
            let stp = pointer(&sp, &j.to_string());
            let input = number(stage.get("input_score"));
            let expected = prev.map(|p| round6(clamp01(p)));
            if broken.is_none() && (input.is_none() || input != expected) {
                broken = Some((
                    pointer(&stp, "input_score"),
                    bound(stage.get("input_score")),
                    expected.map(Value::Float).unwrap_or(Value::Null),
                    format!("stage {j} input is not the previous output"),
                ));
            }
            prev = number(stage.get("output_score"));
        }
        let fin = number(bd.get("final_score"));
        if broken.is_none() && (fin.is_none() || fin != prev) {
            broken = Some((
                pointer(bp, "final_score"),
                bound(bd.get("final_score")),
                prev.map(Value::Float).unwrap_or(Value::Null),
                "final_score is not the last stage's output".to_string(),
            ));
        }
        let check = match broken {
            None => Check::new("stage_chain", codes::STAGE_CHAIN_BROKEN, true, sp.as_str())
                .values(bound(bd.get("final_score")), prev.map(Value::Float).unwrap_or(Value::Null))
                .message(format!("{} stage(s) chained from the hybrid score to final_score", stages.len())),
            Some((p, b, r, m)) => {
                Check::new("stage_chain", codes::STAGE_CHAIN_BROKEN, false, p).values(b, r).message(m)
            }
        };
        checks.push(check);
    }

    // rank-calibration-v1 records.
    let last_calibration =
        stages.iter().rposition(|s| s.get("method").and_then(Value::as_str) == Some(RANK_CALIBRATION));
    for (j, stage) in stages.iter().enumerate() {
        if stage.get("method").and_then(Value::as_str) != Some(RANK_CALIBRATION) {
            continue;
        }
        let stp = pointer(&sp, &j.to_string());
        let name = format!("calibration:{}", stage.get("stage").and_then(Value::as_str).unwrap_or("?"));
        let input = stage.get("input_score");
        let expected = calibrated(stage.get("position"), stage.get("candidate_count"), input);
        let got = number(stage.get("output_score"));
        checks.push(
            Check::new(name.as_str(), codes::CALIBRATION_MISMATCH, got.is_some() && got == expected, pointer(&stp, "output_score"))
                .values(bound(stage.get("output_score")), expected.map(Value::Float).unwrap_or(Value::Null))
                .message("rank_position_score(position − 1, candidate_count, input_score); the input itself when candidate_count is 1"),
        );
        if Some(j) == last_calibration {
            // Filled in by the caller, who knows the result's place.
            checks.push(
                Check::new("calibration_position", codes::CALIBRATION_MISMATCH, true, pointer(&stp, "position"))
                    .values(bound(stage.get("position")), Value::Null),
            );
        }
    }
}

/// The calibrated output a `rank-calibration-v1` record must carry.
fn calibrated(position: Option<&Value>, count: Option<&Value>, input: Option<&Value>) -> Option<f64> {
    let (Some(Value::Int(p)), Some(Value::Int(n)), Some(input)) = (position, count, input) else { return None };
    let (p, n) = (p.parse::<i64>().ok()?, n.parse::<i64>().ok()?);
    number(Some(input))?;
    if n == 1 {
        return number(Some(input));
    }
    rank::rank_position_score(&Value::int(p.checked_sub(1)?), &Value::int(n), input).ok()
}

/// Complete the `calibration_position` checks with each result's place
/// (a context body's results are the included subset of the recall's,
/// re-sorted after learning: there the range check of `rules` applies).
fn finish_positions(audit: &mut ResultAudit, context: bool) {
    let rank = audit.rank as i64;
    for c in audit.checks.iter_mut().filter(|c| c.name == "calibration_position") {
        let ok = context || matches!(&c.bound, Value::Int(d) if d.parse::<i64>().ok() == Some(rank));
        c.status = if ok { crate::receipt::Status::Passed } else { crate::receipt::Status::Failed };
        c.rederived = Value::int(rank);
        c.message = "the last rank-calibration stage's position is the result's place in the response".to_string();
    }
}

/// [`audit_recall`] with the options object of the JSON façade:
/// `{query?: string}`.
pub fn audit_recall_value(wire: &str, options: &Value) -> Result<Audit> {
    let query = match options.get("query") {
        None | Some(Value::Null) => None,
        Some(Value::Str(s)) => Some(s.to_str_lossy().into_owned()),
        Some(other) => return Err(Error::wrong_type("/query", "a string", other.type_name())),
    };
    match options {
        Value::Null => {}
        Value::Object(o) => {
            // Fail closed: a misspelled option (`Query`, `qeury`, `q`) would
            // otherwise be ignored and the audit run without the query.
            if let Some((k, _)) = o.iter().find(|(k, _)| k.to_str_lossy() != "query") {
                let name: String = k.to_str_lossy().chars().take(64).collect();
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    pointer("", &name),
                    format!("unknown audit option {name:?}: the only option is `query`"),
                ));
            }
        }
        other => return Err(Error::wrong_type("", "an options object or null", other.type_name())),
    }
    audit_recall(wire, query.as_deref())
}
