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

use std::collections::{HashMap, HashSet};

use super::planner::{self, QueryPlan};
use super::report::{codes, Check};
use crate::json::{self, Object, Value};
use crate::py::float::{clamp01, round6};
use crate::py::time::PyDateTime;
use crate::rank::{SortKey, BLEND_REASON, RANK_CALIBRATION};
use crate::receipt::report::pointer;

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

/// §2.2: the policy (`receipt.policy`, or `retrieval_policy` of a context
/// receipt) is one `_resolve_recall_policy` writes. Returns it when the
/// fields the audit needs (mode, strategy, max_query_variants,
/// candidate_floor) are usable; otherwise reports `not_auditable`.
pub fn policy(receipt: &Value, context: bool, checks: &mut Vec<Check>) -> Option<Policy> {
    let key = if context { "retrieval_policy" } else { "policy" };
    let pp = pointer("/receipt", key);
    let Some(p) = receipt.get(key).and_then(Value::as_object) else {
        checks.push(
            Check::new("policy", codes::NOT_AUDITABLE, false, pp.as_str())
                .values(receipt.get(key).cloned().unwrap_or(Value::Null), Value::Null)
                .message("no policy object: the query plan, fusion and counts cannot be re-derived"),
        );
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
    let mut field = |name: &str, ok: bool, code: &'static str, expected: Value, what: &str| {
        checks.push(
            Check::new(format!("policy.{name}"), code, ok, pointer(&pp, name))
                .values(p.get(name).cloned().unwrap_or(Value::Null), expected)
                .message(what.to_string()),
        );
    };
    field("mode", m != 0, codes::NOT_AUDITABLE, Value::Null, "mode is fast, deep or reconstruct");
    field(
        "strategy",
        strategy_ok,
        codes::NOT_AUDITABLE,
        Value::Null,
        "fast: standard or adaptive; deep and reconstruct: adaptive",
    );
    field(
        "max_query_variants",
        mqv_ok,
        codes::NOT_AUDITABLE,
        Value::Null,
        "1 with the standard strategy, 1–4 with adaptive, 4 in reconstruct mode",
    );
    field(
        "candidate_floor",
        kmax.is_some(),
        codes::NOT_AUDITABLE,
        Value::Null,
        "min(200, max(20, 2k)) fast, min(200, max(80, 6k)) deep, min(200, max(120, 8k)) reconstruct, for a k in 1–200",
    );
    field(
        "candidate_cap",
        int_of(p.get("candidate_cap")) == Some(CANDIDATE_CAP),
        codes::POLICY_MISMATCH,
        Value::int(CANDIDATE_CAP),
        "the scoring cap is 400",
    );
    let scored = mqv.map(|n| CANDIDATE_CAP * n);
    field(
        "max_scored_candidates",
        scored.is_some() && int_of(p.get("max_scored_candidates")) == scored,
        codes::POLICY_MISMATCH,
        scored.map(Value::int).unwrap_or(Value::Null),
        "400 × max_query_variants",
    );
    field(
        "policy_version",
        p.get("policy_version").and_then(Value::as_str) == Some("lians-recall-policy-v3"),
        codes::POLICY_MISMATCH,
        Value::str("lians-recall-policy-v3"),
        "lians-recall-policy-v3",
    );
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
        Value::Array(items) if items.len() > 16 => Value::str(format!("{} variants", items.len())),
        other => other.clone(),
    };
    checks.push(
        Check::new("query_variants", codes::QUERY_VARIANTS_MISMATCH, ok, "/query_variants")
            .values(shown, planned)
            .message("the variants the server's planner produces from the query, mode and max_query_variants"),
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
    checks.push(
        Check::new("as_of", codes::AS_OF_MISMATCH, ok, "/receipt/reference_time")
            .values(bound_ref.cloned().unwrap_or(Value::Null), expected.map(Value::str).unwrap_or(Value::Null))
            .message("with as_of set the server scores at reference_time = as_of"),
    );
}

/// No id twice, the returned order is `stable_score_key`'s, and the result
/// count is within the policy's `k`.
pub fn order(memories: &[Value], rules: &Rules, checks: &mut Vec<Check>) {
    let mut seen: HashSet<String> = HashSet::with_capacity(memories.len());
    let mut dup: Option<usize> = None;
    for (i, m) in memories.iter().enumerate() {
        let id = json::to_json_string(m.get("id").unwrap_or(&Value::Null));
        if !seen.insert(id) && dup.is_none() {
            dup = Some(i);
        }
    }
    checks.push(match dup {
        None => Check::new("unique_ids", codes::DUPLICATE_RESULT, true, "/memories"),
        Some(i) => Check::new("unique_ids", codes::DUPLICATE_RESULT, false, pointer(&format!("/memories/{i}"), "id"))
            .values(memories[i].get("id").cloned().unwrap_or(Value::Null), Value::Null)
            .message("this memory id was already returned: the server fuses and ranks each memory once"),
    });
    let mut previous: Option<SortKey> = None;
    let mut broken: Option<(String, String)> = None;
    for (i, m) in memories.iter().enumerate() {
        let mp = format!("/memories/{i}");
        match SortKey::of(m, &mp) {
            Ok(key) => {
                if let Some(p) = &previous {
                    if broken.is_none() && p.order(&key) != std::cmp::Ordering::Less {
                        broken = Some((
                            mp.clone(),
                            format!("result {} should come before result {i} (stable_score_key)", i + 1),
                        ));
                    }
                }
                previous = Some(key);
            }
            Err(e) => {
                if broken.is_none() {
                    broken = Some((e.path.clone(), e.message.clone()));
                }
                previous = None;
            }
        }
    }
    checks.push(match broken {
        None => Check::new("order", codes::ORDER_VIOLATION, true, "/memories"),
        Some((p, m)) => Check::new("order", codes::ORDER_VIOLATION, false, p).message(m),
    });
    if let Some(p) = &rules.policy {
        let n = memories.len() as i64;
        checks.push(
            Check::new("result_limit", codes::CANDIDATE_COUNT_MISMATCH, n <= p.k_max, "/memories")
                .values(Value::int(n), Value::int(p.k_max))
                .message("more results than the k that policy.candidate_floor allows"),
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
    let mut seen: HashMap<(usize, i64), usize> = HashMap::new();
    let mut broken: Option<String> = None;
    for (i, m) in memories.iter().enumerate() {
        let stages = m.get("score_breakdown").and_then(|b| b.get("ranking_stages")).and_then(Value::as_array);
        for (j, s) in stages.unwrap_or(&[]).iter().enumerate() {
            let Some(kind) = stage_kind(s).filter(|&k| STAGES[k].1 == RANK_CALIBRATION && k != 0) else { continue };
            let Some(p) = int_of(s.get("position")) else { continue };
            if seen.insert((kind, p), i).is_some() && broken.is_none() {
                broken = Some(format!("/memories/{i}/score_breakdown/ranking_stages/{j}/position"));
            }
        }
    }
    checks.push(match broken {
        None => Check::new("stage_positions", codes::CANDIDATE_COUNT_MISMATCH, true, "/memories"),
        Some(p) => Check::new("stage_positions", codes::CANDIDATE_COUNT_MISMATCH, false, p)
            .message("two results hold the same position of one ranking stage"),
    });
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
    // Eligibility: the server drops ineligible candidates on every path.
    for gate in ["eligible", "safety_eligible", "temporal_eligible"] {
        let ok = bd.get(gate) == Some(&Value::Bool(true));
        if !ok || gate == "eligible" {
            checks.push(
                Check::new(format!("returned_{gate}"), codes::INELIGIBLE_RETURNED, ok, pointer(bp, gate))
                    .values(bd.get(gate).cloned().unwrap_or(Value::Null), Value::Bool(true))
                    .message("the server never returns an ineligible candidate"),
            );
        }
    }

    let sp = pointer(bp, "ranking_stages");
    let stages: &[Value] = bd.get("ranking_stages").and_then(Value::as_array).unwrap_or(&[]);
    let filters = rules.filters.as_ref();
    let filter_str = |k: &str| filters.and_then(|f| f.get(k)).and_then(Value::as_str);
    let mut last_kind: Option<usize> = None;
    let mut expected_reasons: Vec<Value> = Vec::with_capacity(stages.len() + 1);
    let mut kinds_ok = true;
    for (j, stage) in stages.iter().enumerate() {
        let stp = pointer(&sp, &j.to_string());
        let kind = stage_kind(stage);
        let method = stage.get("method").and_then(Value::as_str);
        let problem = match kind {
            None => Some("a stage kind the server does not write".to_string()),
            Some(k) if method != Some(STAGES[k].1) => {
                Some(format!("{} records carry method {}", STAGES[k].0, STAGES[k].1))
            }
            Some(k) if last_kind.is_some_and(|l| l >= k) => {
                Some(format!("{} cannot run after {}", STAGES[k].0, STAGES[last_kind.unwrap_or(0)].0))
            }
            Some(3) if !rules.context && filter_str("_rerank") != Some("mmr") => {
                Some("mmr-rerank runs only when filters._rerank is \"mmr\"".to_string())
            }
            Some(4) if !rules.context && !filters.and_then(|f| f.get("_near_entity")).is_some_and(Value::truthy) => {
                Some("graph-proximity runs only with filters._near_entity".to_string())
            }
            Some(5) if !rules.context => Some("reviewed-outcome learning runs only in /v1/context".to_string()),
            Some(2)
                if stages.iter().any(|s| stage_kind(s) == Some(0))
                    && !stages.iter().any(|s| stage_kind(s) == Some(1)) =>
            {
                Some("the cross-encoder and facet MMR selection are alternatives on a single facet".to_string())
            }
            _ => None,
        };
        if let Some(k) = kind {
            last_kind = Some(k);
            expected_reasons.push(Value::str(STAGES[k].2));
        }
        if let Some(message) = problem {
            kinds_ok = false;
            checks.push(
                Check::new(format!("stage_kind:{j}"), codes::STAGE_UNKNOWN, false, stp.as_str())
                    .values(stage.get("stage").cloned().unwrap_or(Value::Null), Value::Null)
                    .message(message),
            );
        }
        // candidate_count and position of rank-calibrated stages.
        if kind.is_some_and(|k| STAGES[k].1 == RANK_CALIBRATION) && method == Some(RANK_CALIBRATION) {
            let k = kind.unwrap_or(0);
            let fused = bd.contains_key("fusion");
            let count = int_of(stage.get("candidate_count"));
            let pos = int_of(stage.get("position"));
            let n = rules.results as i64;
            let (ok, what) = if k == 0 && fused {
                let cap = rules.policy.as_ref().map(|p| p.candidate_floor).unwrap_or(200);
                (
                    count.is_some_and(|c| (1..=cap).contains(&c)),
                    "facet MMR selection ranks at most candidate_floor candidates",
                )
            } else if rules.context {
                let cap = rules.policy.as_ref().map(|p| p.k_max).unwrap_or(200);
                (
                    count.is_some_and(|c| c >= n && c <= cap),
                    "the stage ranked the recall's results: at least the included ones, at most k",
                )
            } else {
                (count == Some(n), "the stage ranked the returned results: candidate_count is their number")
            };
            let ok = ok && pos.is_some_and(|p| count.is_some_and(|c| (1..=c).contains(&p)));
            checks.push(
                Check::new(
                    format!("candidate_count:{j}"),
                    codes::CANDIDATE_COUNT_MISMATCH,
                    ok,
                    pointer(&stp, "candidate_count"),
                )
                .values(
                    stage.get("candidate_count").cloned().unwrap_or(Value::Null),
                    if rules.context { Value::Null } else { Value::int(n) },
                )
                .message(format!("{what}; 1 ≤ position ≤ candidate_count")),
            );
        }
        if matches!(kind, Some(3 | 4)) && method == Some(RANK_CALIBRATION) {
            if let Some((ok, message)) = stage_details(rules, kind.unwrap_or(0), stage) {
                checks.push(
                    Check::new(format!("stage_details:{j}"), codes::STAGE_UNKNOWN, ok, stp.as_str())
                        .values(stage.get("stage").cloned().unwrap_or(Value::Null), Value::Null)
                        .message(message),
                );
            }
        }
        if kind == Some(5) && method == Some(LEARNING_METHOD) {
            let ok = learning_output(stage).is_some_and(|(e, o)| (o - e).abs() <= 1e-6 + 1e-12);
            checks.push(
                Check::new(format!("learning:{j}"), codes::CALIBRATION_MISMATCH, ok, pointer(&stp, "output_score"))
                    .values(
                        stage.get("output_score").cloned().unwrap_or(Value::Null),
                        learning_output(stage).map(|(e, _)| Value::Float(e)).unwrap_or(Value::Null),
                    )
                    .message("round6(clamp01(input + average_reward·confidence·0.12 ± 0.02·support)), within 1e-6"),
            );
        }
    }
    if kinds_ok {
        checks.push(
            Check::new("stage_kinds", codes::STAGE_UNKNOWN, true, sp.as_str())
                .values(Value::int(stages.len() as i64), Value::Null),
        );
    }

    // Reasons after the seven component reasons: the blend reason (not on
    // the keyed path), then one per stage, in stage order.
    let bound_tail: Vec<Value> = match bd.get("reasons") {
        Some(Value::Array(items)) => items.iter().skip(7).cloned().collect(),
        _ => Vec::new(),
    };
    let keyed = bound_tail.first().and_then(Value::as_str) != Some(BLEND_REASON);
    let mut expected = Vec::with_capacity(expected_reasons.len() + 1);
    if !keyed {
        expected.push(Value::str(BLEND_REASON));
    }
    expected.extend(expected_reasons);
    let tail_ok = bound_tail == expected;
    checks.push(
        Check::new("stage_reasons", codes::REASON_MISMATCH, tail_ok, pointer(bp, "reasons"))
            .values(
                if tail_ok {
                    Value::int(bound_tail.len() as i64)
                } else {
                    Value::Array(bound_tail.into_iter().take(16).collect())
                },
                if tail_ok { Value::Null } else { Value::Array(expected) },
            )
            .message("the blend reason (not on the keyed path), then each stage's reason in order"),
    );
    if keyed {
        // The keyed fact path: no as_of, a structured filter key, one hit,
        // no stages, scored with retrieval 1.0.
        let filter_ok = filters.is_some_and(|f| KEYED_FILTERS.iter().any(|k| f.contains_key(k)));
        let ok = rules.as_of_null
            && !rules.context
            && filter_ok
            && rules.results == 1
            && stages.is_empty()
            && !bd.contains_key("fusion")
            && retrieval_hi.map_or(true, |h| h == 1.0);
        checks.push(
            Check::new("keyed_path", codes::BLEND_INCONSISTENT, ok, pointer(bp, "reasons"))
                .message("without the blend reason, the result must be the keyed path's single hit (no as_of, a structured filter, retrieval 1.0, no stages)"),
        );
    }

    fusion_rules(rules, bd, bp, checks);
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
/// from the stage's own input and the request's filters: `(ok, rule)`.
fn stage_details(rules: &Rules, kind: usize, stage: &Value) -> Option<(bool, String)> {
    let f = |k: &str| match stage.get(k) {
        Some(Value::Float(x)) => Some(*x),
        Some(Value::Int(d)) => d.parse::<f64>().ok(),
        _ => None,
    };
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
        return Some((
            ok,
            "mmr-rerank: lambda = round6(clamp(float(filters._mmr_lambda or 0.5))) < 1, input_relevance = input_score, \
             selection_objective = λ·input − (1 − λ)·max_selected_similarity (within 1e-6), no similarity at position 1"
                .to_string(),
        ));
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
    Some((
        ok,
        "graph-proximity: proximity_bonus = round6(1/(1 + distance)) (0.0 when unreachable), combined_objective = \
         round6(input_score + bonus), anchor = filters._near_entity, entity_key = filters._near_key (default ticker)"
            .to_string(),
    ))
}

/// The learning stage's expected output and its bound output.
fn learning_output(stage: &Value) -> Option<(f64, f64)> {
    let f = |k: &str| match stage.get(k)? {
        Value::Float(x) => Some(*x),
        Value::Int(d) => d.parse().ok(),
        _ => None,
    };
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
            checks.push(
                Check::new("fusion_present", codes::FUSION_INCONSISTENT, false, bp)
                    .values(Value::Null, Value::int(facets))
                    .message("with two or more planned facets every result carries a fusion record"),
            );
        }
        return;
    };
    let Some(f) = fusion.as_object() else { return }; // reported by the fusion check
    let mut problems: Vec<(String, String)> = Vec::new();
    let mut problem =
        |key: &str, m: String| problems.push((if key.is_empty() { fp.clone() } else { pointer(&fp, key) }, m));
    if rules.policy.as_ref().is_some_and(|p| p.strategy != "adaptive") || facets < 2 {
        problem("facet_count", format!("the policy plans {facets} facet(s): fusion runs only with two or more"));
    }
    if f.len() != FUSION_KEYS.len() || !FUSION_KEYS.iter().all(|k| f.contains_key(k)) {
        problem("", format!("the fusion record has exactly the keys {}", FUSION_KEYS.join(", ")));
    }
    if f.get("method").and_then(Value::as_str) != Some(FUSION_METHOD) {
        problem("method", format!("method is {FUSION_METHOD}"));
    }
    let count = int_of(f.get("facet_count"));
    if count != Some(facets) {
        problem("facet_count", format!("facet_count is the number of planned facets ({facets})"));
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
        _ => problem(
            "scopes",
            "scopes are the sorted, distinct planned scopes that found the memory, the strongest among them"
                .to_string(),
        ),
    }
    let n_scopes = scopes.as_ref().map(|s| s.len() as i64);
    if support.is_none() || support != n_scopes || !support.is_some_and(|s| s >= 1 && s <= facets) {
        problem("facet_support", "facet_support is the number of scopes, 1 ≤ facet_support ≤ facet_count".to_string());
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
            problems.push((
                pointer(&fp, "normalized_rrf_score"),
                format!(
                    "with these scopes and candidate_floor the rrf lies in [{}, {}]",
                    crate::py::float::repr(lo),
                    crate::py::float::repr(hi)
                ),
            ));
        }
    }
    if let Some(x) = f.get("strongest_input_score") {
        if !matches!(x, Value::Float(v) if (0.0..=1.0).contains(v)) {
            problems.push((pointer(&fp, "strongest_input_score"), "strongest_input_score is in [0, 1]".to_string()));
        }
    }
    match problems.into_iter().next() {
        None => checks.push(Check::new("fusion_record", codes::FUSION_INCONSISTENT, true, fp.as_str())),
        Some((p, m)) => checks.push(Check::new("fusion_record", codes::FUSION_INCONSISTENT, false, p).message(m)),
    }
}
