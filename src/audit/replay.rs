//! Stage replays across the results: each ranking stage's algorithm, as the
//! reference runs it (`_fuse_recall_rankings`, `mmr_rerank`, `_mmr_select`,
//! `_cross_encoder_plan`, `_rerank_by_proximity` and `entity_distances`),
//! re-run on the values the body binds, instead of a range per result.
//!
//! What each replay establishes (restated from the reference in
//! `docs/audit.md`, "Stage replays"):
//! - **fusion**: `normalized_rrf_score = round6(Σ w_f/(60 + r_f) / ceiling)`
//!   over the result's scopes, with `w` 1.25 for the first planned facet and
//!   1.0 for the others, each rank `r_f` in `1..=candidate_floor`, **and the
//!   ranks distinct within each facet across the returned results** (one
//!   facet ranks each memory once). The audit searches the rank tuples of
//!   each result (bounded work) and a distinct assignment across results.
//! - **mmr-rerank**: the first pick is the largest input (every similarity
//!   is 0 before anything is selected); each later pick is the argmax, and
//!   an item's similarity to the selected set only grows once an embedded
//!   item is selected (0 before), so from the second pick on no pick whose
//!   own similarity is ≥ 0 has a larger objective than an earlier pick.
//! - **mmr-selection**: written only with λ < 1, one λ for the server; the
//!   first record is `{lambda: λ, selection_objective: λ,
//!   normalized_relevance: 1.0, max_selected_similarity: 0.0}`; from the
//!   second record on (argmax picks; similarity starts at 0.0 and only
//!   grows), objectives do not increase along a facet's selection; `normalized_relevance` in
//!   [0, 1], similarity ≥ 0, objective = λ·rel − (1 − λ)·sim.
//! - **cross-encoder**: one model; every returned row was evaluated (the
//!   window is at least `k`); positions follow `raw_model_score` descending.
//! - **graph-proximity**: `entity` is `str(metadata[entity_key])` (null
//!   without one) and then no distance; distance in 0..=3 (BFS depth 3);
//!   0 exactly for the anchor itself.

use super::planner::collapse_whitespace;
use super::report::{AuditCode, Check};
use super::rules::Rules;
use super::value::number;
use crate::json::Value;
use crate::py::float::round6;
use crate::receipt::report::pointer;

/// Inner-loop steps allowed per result when enumerating rank tuples.
const TUPLE_BUDGET: usize = 50_000;
/// Rank tuples kept per result (more: the result is not constraining).
const MAX_TUPLES: usize = 64;
/// Search nodes allowed for the distinct assignment across results.
const ASSIGN_BUDGET: usize = 200_000;

fn stage_ptr(i: usize, j: usize) -> String {
    format!("/memories/{i}/score_breakdown/ranking_stages/{j}")
}

fn int_of(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Int(d) => d.parse().ok(),
        _ => None,
    }
}

/// One stage record of a result: (result index, stage index, record).
type Rec<'a> = (usize, usize, &'a Value);

/// Every record of stage `name` in the body, by result.
fn records<'a>(memories: &'a [Value], name: &str) -> Vec<Rec<'a>> {
    let mut out = Vec::new();
    for (i, m) in memories.iter().enumerate() {
        let stages = m.get("score_breakdown").and_then(|b| b.get("ranking_stages")).and_then(Value::as_array);
        for (j, s) in stages.unwrap_or(&[]).iter().enumerate() {
            if s.get("stage").and_then(Value::as_str) == Some(name) {
                out.push((i, j, s));
            }
        }
    }
    out
}

/// No scope twice in the plan (at most four: a scan, no hash set).
fn distinct(scopes: &[&str]) -> bool {
    scopes.iter().enumerate().all(|(i, s)| !scopes[..i].contains(s))
}

/// One replay's check: passed at `ok_at`, or failed at the problem's pointer
/// with its message (out of line: the wasm build is size-bound).
#[inline(never)]
pub(super) fn push(
    checks: &mut Vec<Check>,
    name: &str,
    code: AuditCode,
    problem: Option<(String, String)>,
    ok_at: &str,
) {
    match problem {
        None => checks.push(Check::new(name, code, true, ok_at)),
        Some((at, m)) => checks.push(Check::new(name, code, false, at).message(m)),
    }
}

/// Run every stage replay on the body; `metadatas[i]` is memory i's metadata.
pub(super) fn replay(memories: &[Value], metadatas: &[Value], rules: &Rules, checks: &mut Vec<Check>) {
    fusion(memories, rules, checks);
    if !rules.context {
        mmr_rerank(memories, checks);
    }
    mmr_selection(memories, rules, checks);
    cross_encoder(memories, checks);
    graph(memories, metadatas, rules, checks);
}

// ------------------------------------------------------------------ fusion

/// The rank tuples of one fused result: `None` when the search ran out of
/// budget or found more than [`MAX_TUPLES`] (the result does not constrain).
struct Tuples {
    facets: Vec<usize>,
    found: Option<Vec<Vec<u32>>>,
    feasible: bool,
}

/// Python's accumulation: `score += w/(60 + r)` in facet order from 0.0,
/// then `round(score / ceiling, 6)`.
pub fn fused_rrf(weights: &[f64], ranks: &[u32], ceiling: f64) -> f64 {
    let mut score = 0.0f64;
    for (w, r) in weights.iter().zip(ranks) {
        score += w / (60.0 + *r as f64);
    }
    round6(score / ceiling)
}

/// All rank tuples `r ∈ 1..=floor` over `weights` (facet order) that give
/// `target`; bounded by `TUPLE_BUDGET`.
pub fn rank_tuples(weights: &[f64], floor: u32, ceiling: f64, target: f64) -> (Option<Vec<Vec<u32>>>, bool) {
    let m = weights.len();
    let mut out: Vec<Vec<u32>> = Vec::new();
    let mut steps = 0usize;
    let mut ranks = vec![1u32; m];
    let mut overflow = false;
    // Bounds of the rest: all rank 1 (max) and all rank floor (min).
    let rest_max: Vec<f64> = (0..=m).map(|s| weights[s.min(m)..].iter().map(|w| w / 61.0).sum()).collect();
    let rest_min: Vec<f64> =
        (0..=m).map(|s| weights[s.min(m)..].iter().map(|w| w / (60.0 + floor as f64)).sum()).collect();
    let slack = 2e-6;
    #[allow(clippy::too_many_arguments)]
    fn go(
        d: usize,
        partial: f64,
        weights: &[f64],
        floor: u32,
        ceiling: f64,
        target: f64,
        ranks: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
        steps: &mut usize,
        overflow: &mut bool,
        rest: (&[f64], &[f64]),
        slack: f64,
    ) {
        let m = weights.len();
        if *overflow {
            return;
        }
        if d + 1 == m {
            // The last facet: g(r) is non-increasing in r; binary search the
            // first r with g(r) <= target, then walk while g(r) == target.
            let mut base = 0.0f64;
            for (w, q) in weights.iter().zip(ranks.iter()).take(d) {
                base += w / (60.0 + *q as f64);
            }
            let g = |r: u32| round6((base + weights[d] / (60.0 + r as f64)) / ceiling);
            let (mut lo, mut hi) = (1u32, floor + 1);
            while lo < hi {
                *steps += 1;
                let mid = lo + (hi - lo) / 2;
                if g(mid) <= target {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            let mut r = lo;
            while r <= floor && g(r) == target {
                *steps += 1;
                ranks[d] = r;
                if out.len() >= MAX_TUPLES {
                    *overflow = true;
                    return;
                }
                out.push(ranks.clone());
                r += 1;
            }
            return;
        }
        for r in 1..=floor {
            *steps += 1;
            if *steps > TUPLE_BUDGET {
                *overflow = true;
                return;
            }
            let p = partial + weights[d] / (60.0 + r as f64);
            if (p + rest.0[d + 1]) / ceiling < target - slack {
                break; // larger ranks only lower it
            }
            if (p + rest.1[d + 1]) / ceiling > target + slack {
                continue;
            }
            ranks[d] = r;
            go(d + 1, p, weights, floor, ceiling, target, ranks, out, steps, overflow, rest, slack);
        }
    }
    if m == 0 {
        return (Some(out), false);
    }
    go(
        0,
        0.0,
        weights,
        floor,
        ceiling,
        target,
        &mut ranks,
        &mut out,
        &mut steps,
        &mut overflow,
        (&rest_max, &rest_min),
        slack,
    );
    if overflow {
        (None, true)
    } else {
        let feasible = !out.is_empty();
        (Some(out), feasible)
    }
}

fn fusion(memories: &[Value], rules: &Rules, checks: &mut Vec<Check>) {
    let Some(policy) = &rules.policy else { return };
    let scopes_plan = &rules.plan.scopes;
    if scopes_plan.len() < 2 || !distinct(scopes_plan) {
        return;
    }
    let weights: Vec<f64> = (0..scopes_plan.len()).map(|i| if i == 0 { 1.25 } else { 1.0 }).collect();
    let ceiling = weights.iter().sum::<f64>() / 61.0;
    let floor = policy.candidate_floor.clamp(1, 400) as u32;
    let mut all: Vec<(usize, Tuples)> = Vec::new();
    let mut infeasible: Option<usize> = None;
    for (i, m) in memories.iter().enumerate() {
        let Some(f) = m.get("score_breakdown").and_then(|b| b.get("fusion")) else { continue };
        let Some(Value::Float(target)) = f.get("normalized_rrf_score") else { continue };
        let Some(scopes) = f.get("scopes").and_then(Value::as_array) else { continue };
        let mut facets: Vec<usize> = Vec::new();
        for s in scopes {
            match s.as_str().and_then(|s| scopes_plan.iter().position(|p| *p == s)) {
                Some(x) if !facets.contains(&x) => facets.push(x),
                _ => {
                    facets.clear();
                    break;
                }
            }
        }
        if facets.is_empty() {
            continue; // reported by the fusion record's own rule
        }
        // At most four: insertion order by facet index.
        for a in 1..facets.len() {
            let mut b = a;
            while b > 0 && facets[b - 1] > facets[b] {
                facets.swap(b - 1, b);
                b -= 1;
            }
        }
        let w: Vec<f64> = facets.iter().map(|&x| weights[x]).collect();
        let (found, feasible) = rank_tuples(&w, floor, ceiling, *target);
        if found.is_some() && !feasible && infeasible.is_none() {
            infeasible = Some(i);
        }
        all.push((i, Tuples { facets, found, feasible }));
    }
    if all.is_empty() {
        return;
    }
    let problem = infeasible.map(|i| {
        (
            format!("/memories/{i}/score_breakdown/fusion/normalized_rrf_score"),
            "no facet ranks give this normalized_rrf_score".to_string(),
        )
    });
    push(checks, "fusion_replay", AuditCode::FusionInconsistent, problem, "/memories");
    // A distinct assignment: each facet ranks each memory once.
    // The most constrained results first (bucketed by their number of tuples, at most MAX_TUPLES).
    let mut constrained: Vec<(usize, &Tuples)> = Vec::new();
    for size in 1..=MAX_TUPLES {
        for (i, t) in all.iter().filter(|(_, t)| t.feasible && t.found.as_ref().is_some_and(|f| f.len() == size)) {
            constrained.push((*i, t));
        }
    }
    // (facet, rank) taken: one bit each.
    let width = floor as usize + 1;
    let mut used = vec![false; scopes_plan.len() * width];
    let mut nodes = 0usize;
    let mut deepest = 0usize;
    fn assign(
        d: usize,
        items: &[(usize, &Tuples)],
        used: &mut (Vec<bool>, usize),
        nodes: &mut usize,
        deepest: &mut usize,
    ) -> Option<bool> {
        let Some((_, t)) = items.get(d) else { return Some(true) };
        *deepest = (*deepest).max(d);
        let w = used.1;
        for ranks in t.found.iter().flatten() {
            *nodes += 1;
            if *nodes > ASSIGN_BUDGET {
                return None;
            }
            let slot = |x: usize| t.facets[x] * w + ranks[x] as usize;
            if (0..ranks.len()).any(|x| used.0[slot(x)]) {
                continue;
            }
            for x in 0..ranks.len() {
                used.0[slot(x)] = true;
            }
            let r = assign(d + 1, items, used, nodes, deepest);
            for x in 0..ranks.len() {
                used.0[slot(x)] = false;
            }
            match r {
                Some(false) => {}
                other => return other,
            }
        }
        Some(false)
    }
    let mut used = (std::mem::take(&mut used), width);
    let result = assign(0, &constrained, &mut used, &mut nodes, &mut deepest);
    let problem = (result == Some(false)).then(|| {
        let i = constrained.get(deepest).map(|(i, _)| *i).unwrap_or(0);
        (
            format!("/memories/{i}/score_breakdown/fusion/normalized_rrf_score"),
            "no distinct ranks per facet give these normalized_rrf_scores".to_string(),
        )
    });
    push(checks, "fusion_ranks", AuditCode::FusionInconsistent, problem, "/memories");
}

// -------------------------------------------------------------- mmr-rerank

/// The records by position (`1..=max(len, 200)`; out of range: left out,
/// they fail their own checks), in position order, and whether a position
/// repeats (linear: one slot per position).
fn by_position<'a>(recs: &[Rec<'a>]) -> (Vec<(i64, Rec<'a>)>, bool) {
    let width = recs.len().max(200) + 1;
    let mut slots: Vec<Option<Rec<'a>>> = vec![None; width];
    let mut repeated = false;
    for r in recs {
        if let Some(p) = int_of(r.2.get("position")).and_then(|p| usize::try_from(p).ok()).filter(|p| *p < width) {
            repeated |= slots[p].is_some();
            slots[p] = Some(*r);
        }
    }
    let out = slots.into_iter().enumerate().filter_map(|(p, r)| r.map(|r| (p as i64, r))).collect();
    (out, repeated)
}

fn mmr_rerank(memories: &[Value], checks: &mut Vec<Check>) {
    let recs = records(memories, "mmr-rerank");
    if recs.is_empty() {
        return;
    }
    let (ordered, _) = by_position(&recs);
    let mut problem: Option<(String, String)> = None;
    let max_rel = recs.iter().filter_map(|r| number(r.2.get("input_relevance"))).fold(f64::NEG_INFINITY, f64::max);
    if let Some((1, (i, j, first))) = ordered.first().copied() {
        let rel = number(first.get("input_relevance"));
        if !rel.is_some_and(|r| r >= max_rel) {
            problem = Some((
                pointer(&stage_ptr(i, j), "input_relevance"),
                "the first MMR pick is not the largest input".into(),
            ));
        }
    }
    if problem.is_none() {
        // The smallest objective picked so far (from the second pick on).
        let mut lowest: Option<f64> = None;
        for (p, (i, j, s)) in &ordered {
            if *p < 2 {
                continue;
            }
            let (obj, sim) = (number(s.get("selection_objective")), number(s.get("max_selected_similarity")));
            let Some(o) = obj else {
                problem = Some((pointer(&stage_ptr(*i, *j), "selection_objective"), "no objective".into()));
                break;
            };
            // An item's similarity only grows once an embedded item is
            // selected; before that it is the default 0, so a pick whose
            // own similarity is negative may score above an earlier pick.
            if sim.is_some_and(|x| x >= 0.0) && lowest.is_some_and(|l| o > l + 1e-6) {
                problem =
                    Some((pointer(&stage_ptr(*i, *j), "selection_objective"), "not the argmax order of MMR".into()));
                break;
            }
            lowest = Some(lowest.map_or(o, |l| l.min(o)));
        }
    }
    push(checks, "mmr_rerank_replay", AuditCode::StageReplayMismatch, problem, "/memories");
}

// ----------------------------------------------------------- mmr-selection

fn mmr_selection(memories: &[Value], rules: &Rules, checks: &mut Vec<Check>) {
    let recs = records(memories, "mmr-selection");
    if recs.is_empty() {
        return;
    }
    let mut problem: Option<(String, String)> = None;
    let lam0 = number(recs[0].2.get("lambda"));
    for (i, j, s) in &recs {
        let sp = stage_ptr(*i, *j);
        let f = |k: &str| number(s.get(k));
        let (lam, obj, rel, sim) =
            (f("lambda"), f("selection_objective"), f("normalized_relevance"), f("max_selected_similarity"));
        let bad = |k: &str, m: &str| Some((pointer(&sp, k), m.to_string()));
        let p = if !lam.is_some_and(|l| l < 1.0) {
            bad("lambda", "mmr-selection with λ ≥ 1")
        } else if lam != lam0 {
            bad("lambda", "two λ in one body")
        } else if !rel.is_some_and(|r| (0.0..=1.0).contains(&r)) {
            bad("normalized_relevance", "normalized relevance outside [0, 1]")
        } else if !sim.is_some_and(|s| s >= 0.0) {
            bad("max_selected_similarity", "a negative similarity")
        } else if let (Some(l), Some(o), Some(r), Some(x)) = (lam, obj, rel, sim) {
            // Each of λ, rel, sim and the objective is bound rounded to 6 places.
            let tol = 5e-7 * (1.0 + l.abs() + (1.0 - l).abs() + r.abs() + x.abs()) + 1e-9;
            if (o - (l * r - (1.0 - l) * x)).abs() > tol {
                bad("selection_objective", "not λ·relevance − (1 − λ)·similarity")
            } else if int_of(s.get("position")) == Some(1)
                && !(r == 1.0 && x == 0.0 && Some(o) == Some(round6(l)) && s.get("lambda").is_some())
            {
                bad("selection_objective", "not the first record of _mmr_select")
            } else {
                None
            }
        } else {
            bad("selection_objective", "missing values")
        };
        if p.is_some() {
            problem = p;
            break;
        }
    }
    // Objectives along one facet's selection do not increase.
    let plan_unique = distinct(&rules.plan.scopes);
    if problem.is_none() && plan_unique && !rules.context {
        let scope = |i: usize| {
            memories[i]
                .get("score_breakdown")
                .and_then(|b| b.get("fusion"))
                .and_then(|f| f.get("strongest_scope"))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let mut groups: Vec<(Option<String>, Vec<Rec<'_>>)> = Vec::new();
        for r in &recs {
            let key = scope(r.0);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, v)) => v.push(*r),
                None => groups.push((key, vec![*r])),
            }
        }
        'groups: for (_, group) in &groups {
            let (ordered, repeated) = by_position(group);
            let mut previous: Option<f64> = None;
            for (p, (i, j, s)) in &ordered {
                // The first record is the pool's top, not an argmax pick.
                if *p < 2 {
                    continue;
                }
                let o = number(s.get("selection_objective")).unwrap_or(f64::NAN);
                if let Some(po) = previous {
                    if repeated || o > po {
                        problem = Some((
                            pointer(&stage_ptr(*i, *j), "selection_objective"),
                            "not the argmax order of MMR selection".into(),
                        ));
                        break 'groups;
                    }
                }
                previous = Some(o);
            }
        }
    }
    push(checks, "mmr_selection_replay", AuditCode::StageReplayMismatch, problem, "/memories");
}

// ----------------------------------------------------------- cross-encoder

fn cross_encoder(memories: &[Value], checks: &mut Vec<Check>) {
    let recs = records(memories, "cross-encoder");
    if recs.is_empty() {
        return;
    }
    let mut problem: Option<(String, String)> = None;
    let model0 = recs[0].2.get("model");
    for (i, j, s) in &recs {
        let sp = stage_ptr(*i, *j);
        let bad = |k: &str, m: &str| Some((pointer(&sp, k), m.to_string()));
        let p = if !s.get("model").and_then(Value::as_str).is_some_and(|m| !m.is_empty()) || s.get("model") != model0 {
            bad("model", "not one model")
        } else if s.get("evaluated") != Some(&Value::Bool(true)) {
            bad("evaluated", "a returned row not evaluated")
        } else if !number(s.get("raw_model_score")).is_some_and(f64::is_finite) {
            bad("raw_model_score", "no raw_model_score")
        } else {
            None
        };
        if p.is_some() {
            problem = p;
            break;
        }
    }
    if problem.is_none() {
        let (ordered, _) = by_position(&recs);
        let mut previous: Option<f64> = None;
        for (_, (i, j, s)) in &ordered {
            let raw = number(s.get("raw_model_score")).unwrap_or(f64::NAN);
            if previous.is_some_and(|p| raw > p) {
                problem =
                    Some((pointer(&stage_ptr(*i, *j), "raw_model_score"), "not by raw_model_score descending".into()));
                break;
            }
            previous = Some(raw);
        }
    }
    push(checks, "cross_encoder_replay", AuditCode::StageReplayMismatch, problem, "/memories");
}

// --------------------------------------------------------- graph proximity

/// Python `str(v)` of a JSON scalar (`None` for containers, which the audit
/// does not render).
pub(super) fn py_str(v: &Value) -> Option<String> {
    Some(match v {
        Value::Null => "None".to_string(),
        Value::Bool(true) => "True".to_string(),
        Value::Bool(false) => "False".to_string(),
        Value::Int(d) => d.to_string(),
        Value::Float(x) => crate::py::float::repr(*x),
        Value::Str(s) => s.to_str_lossy().into_owned(),
        _ => return None,
    })
}

fn graph(memories: &[Value], metadatas: &[Value], rules: &Rules, checks: &mut Vec<Check>) {
    let recs = records(memories, "graph-proximity");
    if recs.is_empty() {
        return;
    }
    let mut problem: Option<(String, String)> = None;
    for (i, j, s) in &recs {
        let sp = stage_ptr(*i, *j);
        let bad = |k: &str, m: &str| Some((pointer(&sp, k), m.to_string()));
        let entity = s.get("entity");
        let distance = s.get("distance");
        let anchor = s.get("anchor").and_then(py_str).map(|a| collapse_whitespace(&a));
        let dist = match distance {
            Some(Value::Null) => Some(None),
            Some(Value::Int(d)) => d.parse::<i64>().ok().filter(|d| (0..=3).contains(d)).map(Some),
            _ => None,
        };
        // The entity as the server reads it from the returned metadata.
        let key = s.get("entity_key").and_then(Value::as_str);
        let meta_val = key.and_then(|k| metadatas.get(*i).and_then(|m| m.get(k)));
        let expected_entity: Option<Option<String>> = match meta_val {
            None | Some(Value::Null) => Some(None),
            Some(v) => py_str(v).map(Some),
        };
        let truthy = meta_val.is_some_and(Value::truthy);
        let p = if dist.is_none() {
            bad("distance", "not null or 0..=3")
        } else if matches!(entity, None | Some(Value::Null)) && dist != Some(None) {
            bad("distance", "a distance without an entity")
        } else if !truthy && dist != Some(None) {
            bad("distance", "a distance without metadata[entity_key]")
        } else if key.is_some()
            && expected_entity.as_ref().is_some_and(|e| e.as_deref() != entity.and_then(Value::as_str))
        {
            bad("entity", "not str(metadata[entity_key])")
        } else {
            let canon = entity.and_then(Value::as_str).map(collapse_whitespace);
            let same = matches!((&canon, &anchor), (Some(e), Some(a)) if e == a);
            match dist {
                Some(Some(0)) if !same && anchor.is_some() => bad("distance", "distance 0 off the anchor"),
                Some(d) if same && truthy && d != Some(0) => bad("distance", "the anchor is at distance 0"),
                _ => None,
            }
        };
        if p.is_some() {
            problem = p;
            break;
        }
    }
    let _ = rules;
    push(checks, "graph_replay", AuditCode::StageReplayMismatch, problem, "/memories");
}
