//! The server's own rules that bound a recall response beyond the scorer:
//! the execution policy, the query plan, `as_of`, the returned order,
//! eligibility, the stage records it writes and their counts (the reference's
//! `memory_service.recall_memories`, `_resolve_recall_policy`,
//! `_fuse_recall_rankings`, `ranking.hybrid_recall`,
//! `apply_ordered_ranking_stage`, `mmr_rerank`, `_rerank_by_proximity`,
//! `assemble_context`; `ranking-receipts.md` §2.2, §9).
//!
//! Each function adds [`Check`]s, one per rule, with the pointer of the
//! field that breaks it. What each rule is, and why it holds for every
//! response a Lians 0.5.0 server writes, is listed in `docs/audit.md`
//! ("The server's rules").

use std::borrow::Cow;
use std::collections::HashMap;

use super::planner::{self, QueryPlan};
use super::report::{AuditCode, Check};
use crate::json::{self, Object, Value};
use crate::py::float::{clamp01, round6};
use crate::py::time::PyDateTime;
use crate::receipt::report::pointer;
use crate::scoring::rank::{SortKey, BLEND_REASON, RANK_CALIBRATION};

/// The fusion method and its record's keys.
pub const FUSION_METHOD: &str = "weighted-reciprocal-rank-fusion-v1";
pub const FUSION_KEYS: [&str; 7] = [
    "method",
    "facet_support",
    "facet_count",
    "scopes",
    "normalized_rrf_score",
    "strongest_input_score",
    "strongest_scope",
];
/// The learning stage's method (context only).
pub const LEARNING_METHOD: &str = "bounded-reviewed-outcomes-v1";
/// The reciprocal-rank constant of the fusion.
const RRF_K: f64 = 60.0;
/// `candidate_cap` and the per-variant `max_scored_candidates`.
const CANDIDATE_CAP: i64 = 400;

/// The stage kinds the server writes, in the only order they can run
/// (facet MMR selection inside hybrid recall, fusion, the cross-encoder,
/// request-level MMR, graph proximity, then context learning), with their
/// method and the reason each appends.
pub const STAGES: [(&str, &str, &str); 6] = [
    ("mmr-selection", RANK_CALIBRATION, "configured maximal marginal relevance selection applied"),
    ("adaptive-fusion", FUSION_METHOD, "adaptive query facets combined with weighted reciprocal-rank fusion"),
    ("cross-encoder", RANK_CALIBRATION, "cross-encoder relevance reranking applied"),
    ("mmr-rerank", RANK_CALIBRATION, "maximal marginal relevance diversity reranking applied"),
    ("graph-proximity", RANK_CALIBRATION, "graph proximity reranking applied"),
    ("reviewed-outcome-learning", LEARNING_METHOD, "bounded reviewed-outcome learning adjustment applied"),
];

/// Filter keys that route a recall without `as_of` to the keyed fact path.
const KEYED_FILTERS: [&str; 7] = ["ticker", "metric", "entity", "instrument", "cusip", "isin", "field"];

/// The resolved execution policy, as far as the audit uses it.
#[derive(Clone, Debug)]
pub struct Policy {
    pub mode: String,
    pub strategy: String,
    pub max_variants: i64,
    pub candidate_floor: i64,
    /// The largest request `k` this `candidate_floor` allows.
    pub k_max: i64,
}

/// What every result's rules share.
#[derive(Clone, Debug)]
pub struct Rules {
    /// None when the policy is missing or not one the server writes.
    pub policy: Option<Policy>,
    /// The planner's variants for the query under the policy (the query
    /// alone when the policy cannot be read).
    pub plan: QueryPlan,
    /// A `lians.context-receipt.v2` body (results are the included subset).
    pub context: bool,
    /// `receipt.filters` (recall receipts), control keys included.
    pub filters: Option<Object>,
    /// `receipt.as_of` is null.
    pub as_of_null: bool,
    /// The number of returned results.
    pub results: usize,
}

fn int_of(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Int(d) => d.parse().ok(),
        _ => None,
    }
}

/// The largest `k` for which `min(200, max(lo, m·k)) == floor`, or None when
/// no `k` in 1..=200 gives `floor`.
fn k_max(floor: i64, lo: i64, m: i64) -> Option<i64> {
    (1..=200i64).rev().find(|k| (lo.max(m * k)).min(200) == floor)
}

/// `ranking-receipts.md` §2.2: the policy (`receipt.policy`, or `retrieval_policy` of a context
/// receipt) is one `_resolve_recall_policy` writes. Returns it when the
/// fields the audit needs (mode, strategy, max_query_variants,
/// candidate_floor) are usable; otherwise reports `not_auditable`.
pub fn policy(receipt: &Value, context: bool, checks: &mut Vec<Check>) -> Option<Policy> {
    let key = if context { "retrieval_policy" } else { "policy" };
    let pp = pointer("/receipt", key);
    let Some(p) = receipt.get(key).and_then(Value::as_object) else {
        let bound = receipt.get(key).cloned().unwrap_or(Value::Null);
        rule(checks, "policy", AuditCode::NotAuditable, false, pp, bound, Value::Null, "no policy object");
        return None;
    };
    let mode = p.get("mode").and_then(Value::as_str).unwrap_or("").to_string();
    let strategy = p.get("strategy").and_then(Value::as_str).unwrap_or("").to_string();
    let mqv = int_of(p.get("max_query_variants"));
    let floor = int_of(p.get("candidate_floor"));
    let (lo, m) = match mode.as_str() {
        "fast" => (20, 2),
        "deep" => (80, 6),
        "reconstruct" => (120, 8),
        _ => (0, 0),
    };
    let strategy_ok = match mode.as_str() {
        "fast" => strategy == "standard" || strategy == "adaptive",
        "deep" | "reconstruct" => strategy == "adaptive",
        _ => false,
    };
    let mqv_ok = match (mode.as_str(), strategy.as_str(), mqv) {
        ("fast", "standard", Some(1)) => true,
        ("fast", "adaptive", Some(n)) | ("deep", _, Some(n)) => (1..=4).contains(&n),
        ("reconstruct", _, Some(4)) => true,
        _ => false,
    };
    let kmax = floor.and_then(|f| if m == 0 { None } else { k_max(f, lo, m) });
    let scored = mqv.map(|n| CANDIDATE_CAP * n);
    let fields: [(&str, &str, bool, AuditCode, Value); 7] = [
        ("mode", "policy.mode", m != 0, AuditCode::NotAuditable, Value::Null),
        ("strategy", "policy.strategy", strategy_ok, AuditCode::NotAuditable, Value::Null),
        ("max_query_variants", "policy.max_query_variants", mqv_ok, AuditCode::NotAuditable, Value::Null),
        ("candidate_floor", "policy.candidate_floor", kmax.is_some(), AuditCode::NotAuditable, Value::Null),
        (
            "candidate_cap",
            "policy.candidate_cap",
            int_of(p.get("candidate_cap")) == Some(CANDIDATE_CAP),
            AuditCode::PolicyMismatch,
            Value::int(CANDIDATE_CAP),
        ),
        (
            "max_scored_candidates",
            "policy.max_scored_candidates",
            scored.is_some() && int_of(p.get("max_scored_candidates")) == scored,
            AuditCode::PolicyMismatch,
            scored.map(Value::int).unwrap_or(Value::Null),
        ),
        (
            "policy_version",
            "policy.policy_version",
            p.get("policy_version").and_then(Value::as_str) == Some("lians-recall-policy-v3"),
            AuditCode::PolicyMismatch,
            Value::str("lians-recall-policy-v3"),
        ),
    ];
    for (key, name, ok, code, expected) in fields {
        let bound = p.get(key).cloned().unwrap_or(Value::Null);
        rule(checks, name, code, ok, pointer(&pp, key), bound, expected, "not a policy the server resolves");
    }
    if m == 0 || !strategy_ok || !mqv_ok {
        return None;
    }
    let (Some(max_variants), Some(candidate_floor), Some(k_max)) = (mqv, floor, kmax) else { return None };
    Some(Policy { mode, strategy, max_variants, candidate_floor, k_max })
}

/// The plan the server searched with: one facet, the raw query, with the
/// standard strategy; else `plan_query(query, max_query_variants, mode)`.
pub fn plan(policy: Option<&Policy>, query: &str) -> QueryPlan {
    match policy {
        Some(p) if p.strategy == "adaptive" => planner::plan_query(query, p.max_variants, &p.mode),
        _ => QueryPlan { variants: vec![query.to_string()], scopes: vec!["episodic"] },
    }
}

/// `query_variants` (not bound by the receipt) equal the plan.
pub fn query_variants(body: &Object, rules: &Rules, checks: &mut Vec<Check>) {
    let Some(bound) = body.get("query_variants") else { return };
    let planned = Value::Array(rules.plan.variants.iter().map(|v| Value::str(v.as_str())).collect());
    let ok = match bound {
        Value::Array(items) => {
            items.len() == rules.plan.variants.len()
                && items.iter().zip(&rules.plan.variants).all(|(a, b)| a.as_str() == Some(b.as_str()))
        }
        _ => false,
    };
    // Report the bound list only when it is small (a hostile list is not echoed).
    let shown = match bound {
        Value::Array(items) if items.len() > 16 => Value::int(items.len() as i64),
        other => other.clone(),
    };
    let at = String::from("/query_variants");
    rule(
        checks,
        "query_variants",
        AuditCode::QueryVariantsMismatch,
        ok,
        at,
        shown,
        planned,
        "not the server's plan of the query",
    );
}

/// `reference_time` is `as_of` (naive → `+00:00`) when `as_of` is set.
pub fn as_of(receipt: &Value, checks: &mut Vec<Check>) {
    let (bound_ref, as_of) = (receipt.get("reference_time"), receipt.get("as_of"));
    let expected = match as_of {
        None | Some(Value::Null) => return,
        Some(Value::Str(s)) => PyDateTime::parse(&s.to_str_lossy()).ok().map(|d| d.isoformat_utc_if_naive()),
        Some(_) => None,
    };
    let ok = matches!((bound_ref.and_then(Value::as_str), &expected), (Some(r), Some(e)) if r == e);
    let (bound, expected) =
        (bound_ref.cloned().unwrap_or(Value::Null), expected.map(Value::str).unwrap_or(Value::Null));
    let at = String::from("/receipt/reference_time");
    rule(checks, "as_of", AuditCode::AsOfMismatch, ok, at, bound, expected, "reference_time is not as_of");
}

/// No id twice, the returned order is `stable_score_key`'s, and the result
/// count is within the policy's `k`.
pub fn order(memories: &[Value], rules: &Rules, checks: &mut Vec<Check>) {
    let ids: Vec<Cow<'_, [u8]>> = memories
        .iter()
        .map(|m| match m.get("id") {
            Some(Value::Str(id)) => Cow::Borrowed(id.as_bytes()),
            other => Cow::Owned(json::to_json_string(other.unwrap_or(&Value::Null)).into_bytes()),
        })
        .collect();
    let mut seen: HashMap<&[u8], usize> = HashMap::with_capacity(ids.len());
    let mut dup: Option<usize> = None;
    for (i, id) in ids.iter().enumerate() {
        if seen.insert(id, i).is_some() && dup.is_none() {
            dup = Some(i);
        }
    }
    let at = |i: usize| pointer("/memories", &i.to_string());
    let (ptr, bound) = match dup {
        None => (String::from("/memories"), Value::Null),
        Some(i) => (pointer(&at(i), "id"), memories[i].get("id").cloned().unwrap_or(Value::Null)),
    };
    rule(
        checks,
        "unique_ids",
        AuditCode::DuplicateResult,
        dup.is_none(),
        ptr,
        bound,
        Value::Null,
        "a memory id returned twice",
    );
    let mut previous: Option<SortKey> = None;
    let mut broken: Option<(String, &'static str)> = None;
    for (i, m) in memories.iter().enumerate() {
        let mp = at(i);
        match SortKey::of(m, &mp) {
            Ok(key) => {
                if broken.is_none() && previous.as_ref().is_some_and(|p| p.order(&key) != std::cmp::Ordering::Less) {
                    broken = Some((mp, "not in stable_score_key order"));
                }
                previous = Some(key);
            }
            Err(e) => {
                if broken.is_none() {
                    broken = Some((e.path, "a time that cannot be ordered"));
                }
                previous = None;
            }
        }
    }
    let ok = broken.is_none();
    let (ptr, m) = broken.unwrap_or((String::from("/memories"), ""));
    rule(checks, "order", AuditCode::OrderViolation, ok, ptr, Value::Null, Value::Null, m);
    if let Some(p) = &rules.policy {
        let n = memories.len() as i64;
        let (at, bound, most) = (String::from("/memories"), Value::int(n), Value::int(p.k_max));
        rule(
            checks,
            "result_limit",
            AuditCode::CandidateCountMismatch,
            n <= p.k_max,
            at,
            bound,
            most,
            "more results than the policy's k",
        );
    }
}

fn stage_kind(stage: &Value) -> Option<usize> {
    let name = stage.get("stage").and_then(Value::as_str)?;
    STAGES.iter().position(|(s, _, _)| *s == name)
}

/// Positions of each post-cut rank-calibration stage kind are distinct
/// across the results (the stage ranks one list).
pub fn positions(memories: &[Value], checks: &mut Vec<Check>) {
    // Positions above max(results, 200) fail their own range check.
    let width = memories.len().max(200) + 1;
    let mut seen = vec![false; STAGES.len() * width];
    let mut broken: Option<String> = None;
    // Graph proximity: (combined objective, bonus) by position.
    let mut graph: Vec<Option<(f64, f64)>> = Vec::new();
    for (i, m) in memories.iter().enumerate() {
        let stages = m.get("score_breakdown").and_then(|b| b.get("ranking_stages")).and_then(Value::as_array);
        for (j, s) in stages.unwrap_or(&[]).iter().enumerate() {
            let Some(kind) = stage_kind(s).filter(|&k| STAGES[k].1 == RANK_CALIBRATION && k != 0) else { continue };
            let Some(p) = int_of(s.get("position")).and_then(|p| usize::try_from(p).ok()).filter(|p| *p < width) else {
                continue;
            };
            if kind == 4 {
                let f = |k: &str| super::value::number(s.get(k)).unwrap_or(f64::NAN);
                graph.resize(width, None);
                graph[p] = Some((f("combined_objective"), f("proximity_bonus")));
            }
            let slot = &mut seen[kind * width + p];
            if *slot && broken.is_none() {
                let sp = pointer(&pointer(&pointer("/memories", &i.to_string()), "score_breakdown"), "ranking_stages");
                broken = Some(pointer(&pointer(&sp, &j.to_string()), "position"));
            }
            *slot = true;
        }
    }
    let ok = broken.is_none();
    let ptr = broken.unwrap_or_else(|| String::from("/memories"));
    let m = "two results at one position of a stage";
    rule(checks, "stage_positions", AuditCode::CandidateCountMismatch, ok, ptr, Value::Null, Value::Null, m);
    // `_rerank_by_proximity` orders by score + bonus (descending), and runs
    // only when some result gets a bonus.
    if !graph.is_empty() {
        let mut previous = f64::INFINITY;
        let (mut ordered, mut bonus) = (true, false);
        for (combined, b) in graph.into_iter().flatten() {
            ordered &= combined <= previous;
            bonus |= b > 0.0;
            previous = combined;
        }
        let ok = ordered && bonus;
        let m = "graph-proximity order is not by combined_objective, or no result got a bonus";
        rule(
            checks,
            "graph_order",
            AuditCode::StageUnknown,
            ok,
            String::from("/memories"),
            Value::Null,
            Value::Null,
            m,
        );
    }
}

/// The fusion-facing part of the plan for one result: the index of the
/// variant it was scored with (`None`: the first, with no fusion).
pub fn scored_variant(rules: &Rules, bd: &Object) -> Option<usize> {
    let scope = bd.get("fusion")?.get("strongest_scope")?.as_str()?;
    rules.plan.scopes.iter().position(|s| *s == scope)
}

/// Per result: eligible, the stage kinds (method, order, allowed by the
/// request), the stage reasons, the keyed path, the fusion record's
/// bounds, and each calibrated stage's `candidate_count`.
pub fn result_rules(rules: &Rules, bd: &Object, bp: &str, retrieval_hi: Option<f64>, checks: &mut Vec<Check>) {
    eligibility(bd, bp, checks);
    let stages: &[Value] = bd.get("ranking_stages").and_then(Value::as_array).unwrap_or(&[]);
    let stage_reasons = stage_rules(rules, bd, bp, stages, checks);
    reasons(rules, bd, bp, stages, stage_reasons, retrieval_hi, checks);
    fusion_rules(rules, bd, bp, checks);
}

/// Eligibility: the server drops ineligible candidates on every path.
fn eligibility(bd: &Object, bp: &str, checks: &mut Vec<Check>) {
    for gate in ["eligible", "safety_eligible", "temporal_eligible"] {
        let ok = bd.get(gate) == Some(&Value::Bool(true));
        if !ok || gate == "eligible" {
            let bound = bd.get(gate).cloned().unwrap_or(Value::Null);
            let m = "the server never returns an ineligible candidate";
            rule(
                checks,
                "returned_eligible",
                AuditCode::IneligibleReturned,
                ok,
                pointer(bp, gate),
                bound,
                Value::Bool(true),
                m,
            );
        }
    }
}

/// Each stage record: a kind the server writes, with its method, in its
/// order, allowed by the request; the counts and details of calibrated and
/// learning stages; request-level MMR present when asked for. Returns the
/// reason each stage appends, in stage order.
fn stage_rules(rules: &Rules, bd: &Object, bp: &str, stages: &[Value], checks: &mut Vec<Check>) -> Vec<Value> {
    let sp = pointer(bp, "ranking_stages");
    let filters = rules.filters.as_ref();
    let mut last_kind: Option<usize> = None;
    let mut expected_reasons: Vec<Value> = Vec::with_capacity(stages.len() + 1);
    let mut kinds_ok = true;
    for (j, stage) in stages.iter().enumerate() {
        let stp = pointer(&sp, &j.to_string());
        let kind = stage_kind(stage);
        let method = stage.get("method").and_then(Value::as_str);
        let problem = stage_problem(rules, stages, kind, method, last_kind);
        if let Some(k) = kind {
            last_kind = Some(k);
            expected_reasons.push(Value::str(STAGES[k].2));
        }
        if let Some(message) = problem {
            kinds_ok = false;
            let bound = stage.get("stage").cloned().unwrap_or(Value::Null);
            rule(checks, "stage_kind", AuditCode::StageUnknown, false, stp.clone(), bound, Value::Null, message);
        }
        stage_values(rules, bd, &stp, stage, kind, method, checks);
    }
    // Request-level MMR runs on every recall with `_rerank: "mmr"`, more
    // than one result and λ < 1: its stage cannot be missing.
    let rerank = filters.and_then(|f| f.get("_rerank")).and_then(Value::as_str);
    let mmr_asked = rerank == Some("mmr") && rules.results > 1 && mmr_lambda(filters) < 1.0;
    if !rules.context && mmr_asked && !stages.iter().any(|s| stage_kind(s) == Some(3)) {
        kinds_ok = false;
        let m = "no mmr-rerank stage, though filters._rerank = mmr";
        let (at, expected) = (sp.clone(), Value::str("mmr-rerank"));
        rule(checks, "stage_kind", AuditCode::StageUnknown, false, at, Value::Null, expected, m);
    }
    if kinds_ok {
        let bound = Value::int(stages.len() as i64);
        rule(checks, "stage_kinds", AuditCode::StageUnknown, true, sp, bound, Value::Null, "");
    }
    expected_reasons
}

/// Why a stage of `kind` (`None`: not a kind the server writes) with
/// `method`, after a stage of `last_kind`, breaks the server's rules.
fn stage_problem(
    rules: &Rules,
    stages: &[Value],
    kind: Option<usize>,
    method: Option<&str>,
    last_kind: Option<usize>,
) -> Option<&'static str> {
    let filters = rules.filters.as_ref();
    let filter_str = |k: &str| filters.and_then(|f| f.get(k)).and_then(Value::as_str);
    match kind {
        None => Some("a stage kind the server does not write"),
        Some(k) if method != Some(STAGES[k].1) => Some("not this stage's method"),
        Some(k) if last_kind.is_some_and(|l| l >= k) => Some("out of the server's stage order"),
        Some(3) if !rules.context && filter_str("_rerank") != Some("mmr") => {
            Some("mmr-rerank without filters._rerank = mmr")
        }
        Some(4) if !rules.context && !filters.and_then(|f| f.get("_near_entity")).is_some_and(Value::truthy) => {
            Some("graph-proximity without filters._near_entity")
        }
        Some(5) if !rules.context => Some("learning runs only in /v1/context"),
        Some(2)
            if stages.iter().any(|s| stage_kind(s) == Some(0)) && !stages.iter().any(|s| stage_kind(s) == Some(1)) =>
        {
            Some("cross-encoder and facet MMR selection without fusion")
        }
        _ => None,
    }
}

/// The values of one stage record (at `stp`) the server's rules bound: a
/// calibrated stage's `candidate_count` and `position`, MMR and graph
/// details, the learning stage's output.
fn stage_values(
    rules: &Rules,
    bd: &Object,
    stp: &str,
    stage: &Value,
    kind: Option<usize>,
    method: Option<&str>,
    checks: &mut Vec<Check>,
) {
    if kind.is_some_and(|k| STAGES[k].1 == RANK_CALIBRATION) && method == Some(RANK_CALIBRATION) {
        let k = kind.unwrap_or(0);
        let fused = bd.contains_key("fusion");
        let count = int_of(stage.get("candidate_count"));
        let pos = int_of(stage.get("position"));
        let n = rules.results as i64;
        let cap = |f: fn(&Policy) -> i64| rules.policy.as_ref().map(f).unwrap_or(200);
        let ok = match count {
            Some(c) if k == 0 && fused => (1..=cap(|p| p.candidate_floor)).contains(&c),
            Some(c) if rules.context => c >= n && c <= cap(|p| p.k_max),
            _ => count == Some(n),
        };
        let ok = ok && pos.is_some_and(|p| count.is_some_and(|c| (1..=c).contains(&p)));
        let bound = stage.get("candidate_count").cloned().unwrap_or(Value::Null);
        let expected = if rules.context { Value::Null } else { Value::int(n) };
        let (at, m) = (pointer(stp, "candidate_count"), "not the ranked list's size, or position out of range");
        rule(checks, "candidate_count", AuditCode::CandidateCountMismatch, ok, at, bound, expected, m);
    }
    if matches!(kind, Some(3 | 4)) && method == Some(RANK_CALIBRATION) {
        if let Some(ok) = stage_details(rules, kind.unwrap_or(0), stage) {
            let bound = stage.get("stage").cloned().unwrap_or(Value::Null);
            let m = "not what the server writes from the stage input and the filters";
            rule(checks, "stage_details", AuditCode::StageUnknown, ok, stp.to_string(), bound, Value::Null, m);
        }
    }
    if kind == Some(5) && method == Some(LEARNING_METHOD) {
        let ok = learning_output(stage).is_some_and(|(e, o)| (o - e).abs() <= 1e-6 + 1e-12);
        let bound = stage.get("output_score").cloned().unwrap_or(Value::Null);
        let expected = learning_output(stage).map(|(e, _)| Value::Float(e)).unwrap_or(Value::Null);
        let at = pointer(stp, "output_score");
        let m = "off bounded-reviewed-outcomes-v1";
        rule(checks, "learning", AuditCode::CalibrationMismatch, ok, at, bound, expected, m);
    }
}

/// Reasons after the seven component reasons: the blend reason (not on
/// the keyed path), then one per stage (`stage_reasons`), in stage order.
/// Without the blend reason, the result must be on the keyed fact path.
fn reasons(
    rules: &Rules,
    bd: &Object,
    bp: &str,
    stages: &[Value],
    stage_reasons: Vec<Value>,
    retrieval_hi: Option<f64>,
    checks: &mut Vec<Check>,
) {
    let bound_tail: Vec<Value> = match bd.get("reasons") {
        Some(Value::Array(items)) => items.iter().skip(7).cloned().collect(),
        _ => Vec::new(),
    };
    let keyed = bound_tail.first().and_then(Value::as_str) != Some(BLEND_REASON);
    let mut expected = Vec::with_capacity(stage_reasons.len() + 1);
    if !keyed {
        expected.push(Value::str(BLEND_REASON));
    }
    expected.extend(stage_reasons);
    let tail_ok = bound_tail == expected;
    let (bound, expected) = if tail_ok {
        (Value::int(bound_tail.len() as i64), Value::Null)
    } else {
        (Value::Array(bound_tail.into_iter().take(16).collect()), Value::Array(expected))
    };
    let m = "not the blend reason then one reason per stage";
    rule(checks, "stage_reasons", AuditCode::ReasonMismatch, tail_ok, pointer(bp, "reasons"), bound, expected, m);
    if keyed {
        // The keyed fact path: no as_of, a structured filter key, one hit,
        // no stages, scored with retrieval 1.0.
        let filter_ok = rules.filters.as_ref().is_some_and(|f| KEYED_FILTERS.iter().any(|k| f.contains_key(k)));
        let ok = rules.as_of_null
            && !rules.context
            && filter_ok
            && rules.results == 1
            && stages.is_empty()
            && !bd.contains_key("fusion")
            && retrieval_hi.map_or(true, |h| h == 1.0);
        let m = "no blend reason outside the keyed path";
        let at = pointer(bp, "reasons");
        rule(checks, "keyed_path", AuditCode::BlendInconsistent, ok, at, Value::Null, Value::Null, m);
    }
}

/// `float(filters.get("_mmr_lambda", 0.5))` (0.5 when `float()` raises),
/// then `min(1.0, max(0.0, λ))` as Python evaluates it (NaN → 0.0).
fn mmr_lambda(filters: Option<&Object>) -> f64 {
    let raw = match filters.and_then(|f| f.get("_mmr_lambda")) {
        None => 0.5,
        Some(Value::Float(x)) => *x,
        Some(Value::Int(d)) => match crate::py::float::int_to_f64(d) {
            crate::py::float::PyFloat::Ok(x) => x,
            _ => 0.5,
        },
        Some(Value::Bool(b)) => *b as u8 as f64,
        Some(Value::Str(t)) => crate::py::float::parse_py_float(&t.to_str_lossy()).unwrap_or(0.5),
        Some(_) => 0.5,
    };
    if raw.is_nan() {
        0.0
    } else {
        raw.clamp(0.0, 1.0)
    }
}

/// The details `mmr_rerank` and `_rerank_by_proximity` write, re-derived
/// from the stage's own input and the request's filters (docs/audit.md).
fn stage_details(rules: &Rules, kind: usize, stage: &Value) -> Option<bool> {
    let f = |k: &str| super::value::number(stage.get(k));
    let input = f("input_score")?;
    let filters = if rules.context { None } else { rules.filters.as_ref() };
    if kind == 3 {
        // mmr-rerank: λ from filters, input_relevance = the input, the first
        // pick has no similarity, objective = λ·rel − (1 − λ)·sim (sim rounded).
        let sim = f("max_selected_similarity");
        let obj = f("selection_objective");
        let lam = f("lambda");
        let mut ok = f("input_relevance") == Some(input) && sim.is_some_and(|s| (-1.0..=1.0).contains(&s));
        if let (Some(l), Some(s), Some(o)) = (lam, sim, obj) {
            ok &= (o - (l * input - (1.0 - l) * s)).abs() <= 1e-6 + 1e-12;
        } else {
            ok = false;
        }
        if int_of(stage.get("position")) == Some(1) {
            ok &= sim == Some(0.0);
        }
        if filters.is_some() {
            let expected = mmr_lambda(filters);
            ok &= expected < 1.0 && lam == Some(round6(expected));
        }
        return Some(ok);
    }
    // graph-proximity: bonus 1/(1 + distance) (0 when unreachable), combined
    // = input + bonus, anchor and key from the filters.
    let bonus = match stage.get("distance") {
        Some(Value::Null) => Some(0.0),
        Some(Value::Int(d)) => d.parse::<i64>().ok().filter(|d| *d >= 0).map(|d| 1.0 / (1.0 + d as f64)),
        _ => None,
    };
    let mut ok = matches!(bonus, Some(b) if f("proximity_bonus") == Some(round6(b)) && f("combined_objective") == Some(round6(input + b)));
    if let Some(fl) = filters {
        ok &= matches!((stage.get("anchor"), fl.get("_near_entity")), (Some(a), Some(e)) if a == e);
        let key = fl.get("_near_key").cloned().unwrap_or(Value::str("ticker"));
        ok &= stage.get("entity_key") == Some(&key);
    }
    Some(ok)
}

/// Push one rule's check: out of line, so each rule costs a call rather
/// than an inlined copy of the builder (the wasm build is size-bound).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn rule(
    checks: &mut Vec<Check>,
    name: &'static str,
    code: AuditCode,
    ok: bool,
    at: String,
    bound: Value,
    rederived: Value,
    message: &'static str,
) {
    checks.push(Check::new(name, code, ok, at).values(bound, rederived).message(message));
}

/// The learning stage's expected output and its bound output.
fn learning_output(stage: &Value) -> Option<(f64, f64)> {
    let f = |k: &str| super::value::number(stage.get(k));
    let uses = int_of(stage.get("completed_uses"))?;
    let (input, avg, conf, support, out) =
        (f("input_score")?, f("average_reward")?, f("confidence")?, f("support")?, f("output_score")?);
    if support != round6(uses.clamp(0, 10) as f64 / 10.0) {
        return None;
    }
    let mut learned = input + avg * conf * 0.12;
    if avg != 0.0 {
        learned += if avg > 0.0 { 0.02 } else { -0.02 } * support;
    }
    Some((round6(clamp01(learned)), out))
}

/// The fusion record: only with two or more planned facets (and then on
/// every result), its method, counts, scopes and rrf within the bounds the
/// planned facets and `candidate_floor` allow.
fn fusion_rules(rules: &Rules, bd: &Object, bp: &str, checks: &mut Vec<Check>) {
    let facets = rules.plan.variants.len() as i64;
    let fp = pointer(bp, "fusion");
    let Some(fusion) = bd.get("fusion") else {
        if facets > 1 && rules.policy.is_some() {
            let m = "no fusion record with several planned facets";
            rule(
                checks,
                "fusion_present",
                AuditCode::FusionInconsistent,
                false,
                bp.to_string(),
                Value::Null,
                Value::int(facets),
                m,
            );
        }
        return;
    };
    let Some(f) = fusion.as_object() else { return }; // reported by the fusion check
    let mut problems: Vec<(String, &str)> = Vec::new();
    let mut problem =
        |key: &str, m: &'static str| problems.push((if key.is_empty() { fp.clone() } else { pointer(&fp, key) }, m));
    if rules.policy.as_ref().is_some_and(|p| p.strategy != "adaptive") || facets < 2 {
        problem("facet_count", "fusion with fewer than two planned facets");
    }
    if f.len() != FUSION_KEYS.len() || !FUSION_KEYS.iter().all(|k| f.contains_key(k)) {
        problem("", "not the fusion record's keys");
    }
    if f.get("method").and_then(Value::as_str) != Some(FUSION_METHOD) {
        problem("method", "not the fusion method");
    }
    let count = int_of(f.get("facet_count"));
    if count != Some(facets) {
        problem("facet_count", "not the number of planned facets");
    }
    let support = int_of(f.get("facet_support"));
    let scopes: Option<Vec<&str>> =
        f.get("scopes").and_then(Value::as_array).and_then(|a| a.iter().map(Value::as_str).collect());
    let strongest = f.get("strongest_scope").and_then(Value::as_str);
    match &scopes {
        Some(s)
            if !s.is_empty()
                && s.windows(2).all(|w| w[0] < w[1])
                && s.iter().all(|x| rules.plan.scopes.contains(x))
                && strongest.is_some_and(|x| s.contains(&x)) => {}
        _ => problem("scopes", "not sorted, distinct planned scopes holding strongest_scope"),
    }
    let n_scopes = scopes.as_ref().map(|s| s.len() as i64);
    if support.is_none() || support != n_scopes || !support.is_some_and(|s| s >= 1 && s <= facets) {
        problem("facet_support", "not the number of scopes");
    }
    // rrf = Σ w_f/(60 + rank_f) / (Σ all w / 61), each rank in 1..=candidate_floor.
    if let (Some(s), Some(p)) = (&scopes, &rules.policy) {
        let ceiling: f64 = rules.plan.scopes.iter().map(|x| planner::scope_weight(x)).sum::<f64>() / (RRF_K + 1.0);
        let w: f64 = s.iter().map(|x| planner::scope_weight(x)).sum();
        let hi = round6(w / (RRF_K + 1.0) / ceiling);
        let lo = round6(w / (RRF_K + p.candidate_floor as f64) / ceiling);
        let rrf = match f.get("normalized_rrf_score") {
            Some(Value::Float(x)) => Some(*x),
            _ => None,
        };
        if !rrf.is_some_and(|r| r >= lo && r <= hi) {
            problem("normalized_rrf_score", "out of the range these scopes and candidate_floor allow");
        }
    }
    if let Some(x) = f.get("strongest_input_score") {
        if !matches!(x, Value::Float(v) if (0.0..=1.0).contains(v)) {
            problems.push((pointer(&fp, "strongest_input_score"), "not in [0, 1]"));
        }
    }
    let ok = problems.is_empty();
    let (ptr, m) = problems.into_iter().next().unwrap_or((fp, ""));
    rule(checks, "fusion_record", AuditCode::FusionInconsistent, ok, ptr, Value::Null, Value::Null, m);
}
