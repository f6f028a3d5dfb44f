//! Rules the body itself shows: every non-control filter holds on every
//! result's metadata as the server compares it; no derived clause below its
//! `_parent`; `_retrieval_scopes` is the fusion record's `scopes`; and, per
//! result, what the receipt does not bind ([`UNBOUND`]).

use super::replay::{push, py_str};
use super::report::{AuditCode, Check};
use super::request::CONTROL_FILTERS;
use super::value::{number, py_eq};
use crate::json::{Object, Value};
use crate::receipt::report::pointer;
use crate::scoring::rank::BLEND_REASON;

/// Memory fields the score depends on that `receipt.results[i]` does not
/// bind: the audit scores with the body's copy, so a server could change
/// them together with the scores. Listed per result in `cannot_audit`.
pub const UNBOUND: [&str; 6] = ["importance", "metadata", "valid_from", "valid_to", "superseded_by", "ingestion_time"];

/// The structured keys of the keyed fact path (`_STRUCTURED_KEYS`).
const STRUCTURED: [&str; 7] = ["ticker", "metric", "entity", "instrument", "cusip", "isin", "field"];

/// The unbound fields present on memory `m` (`metadata._admission` named
/// apart: it sets the safety status).
pub(super) fn cannot_audit(m: &Value, metadata: &Value) -> Vec<&'static str> {
    let mut out: Vec<&'static str> =
        UNBOUND.iter().copied().filter(|k| m.get(k).is_some() || (*k == "metadata" && !metadata.is_null())).collect();
    if metadata.get("_admission").is_some() {
        out.push("metadata._admission");
    }
    out
}

/// Does metadata value `got` pass the server's equality against `str(val)`?
/// The working set compares `metadata.get(key) == str(val)` (a string); the
/// SQL paths compare the JSON value as text (`->>` on PostgreSQL), which a
/// number or boolean passes when its JSON text is `str(val)`.
fn holds(got: Option<&Value>, want: &str) -> bool {
    match got {
        Some(Value::Str(s)) => s.to_str_lossy() == want,
        Some(Value::Int(d)) => &**d == want,
        Some(Value::Float(x)) => crate::py::float::repr(*x) == want,
        Some(Value::Bool(b)) => (if *b { "true" } else { "false" }) == want,
        _ => false,
    }
}

fn keyed(m: &Value) -> bool {
    let tail = m.get("score_breakdown").and_then(|b| b.get("reasons")).and_then(Value::as_array).and_then(|r| r.get(7));
    tail.and_then(Value::as_str) != Some(BLEND_REASON)
}

/// Run the rules on the body (`metadatas[i]`: memory i's metadata).
pub(super) fn rules(
    memories: &[Value],
    metadatas: &[Value],
    filters: Option<&Object>,
    context: bool,
    checks: &mut Vec<Check>,
) {
    if !context {
        if let Some(f) = filters {
            filter_rule(memories, metadatas, f, checks);
        }
        derived(memories, metadatas, checks);
    }
    scopes(memories, metadatas, checks);
}

fn filter_rule(memories: &[Value], metadatas: &[Value], filters: &Object, checks: &mut Vec<Check>) {
    let mut problem: Option<(String, Value, String)> = None;
    let null = Value::Null;
    'results: for (i, m) in memories.iter().enumerate() {
        let meta = metadatas.get(i).unwrap_or(&null);
        let on_keyed = keyed(m);
        for (k, v) in filters.iter() {
            let key = k.to_str_lossy();
            if CONTROL_FILTERS.contains(&key.as_ref()) {
                continue;
            }
            if on_keyed {
                // compute_predicate_key: structured keys, str() both sides.
                if !STRUCTURED.contains(&key.as_ref()) || v.is_null() {
                    continue;
                }
                let ok = matches!((meta.get(&key).and_then(py_str), py_str(v)), (Some(a), Some(b)) if a == b);
                if !ok {
                    problem = Some((
                        pointer(&pointer(&format!("/memories/{i}"), "metadata"), &key),
                        v.clone(),
                        key.into_owned(),
                    ));
                    break 'results;
                }
                continue;
            }
            let Some(want) = py_str(v) else { continue };
            if !holds(meta.get(&key), &want) {
                problem =
                    Some((pointer(&pointer(&format!("/memories/{i}"), "metadata"), &key), v.clone(), key.into_owned()));
                break 'results;
            }
        }
    }
    let problem = problem.map(|(at, _want, key)| {
        let key: String = key.chars().take(64).collect();
        (at, format!("fails filter {key:?}"))
    });
    push(checks, "filters_hold", AuditCode::FilterViolation, problem, "/memories");
}

/// The hybrid score a result was ranked with before any stage: the first
/// stage's input, else `final_score` (results without fusion only).
fn hybrid(m: &Value) -> Option<f64> {
    let bd = m.get("score_breakdown")?;
    if bd.get("fusion").is_some() {
        return None;
    }
    match bd.get("ranking_stages").and_then(Value::as_array).and_then(|s| s.first()) {
        Some(s) => number(s.get("input_score")),
        None => number(bd.get("final_score")),
    }
}

/// `_collapse_derived` keeps a clause only when its parent is not already
/// kept above it in the hybrid order: a clause returned with its parent
/// ranked strictly above it (without fusion) cannot come from the server.
fn derived(memories: &[Value], metadatas: &[Value], checks: &mut Vec<Check>) {
    // The same map type as the duplicate-id rule's (one monomorphisation in the wasm).
    let mut by_id: std::collections::HashMap<&[u8], usize> = std::collections::HashMap::new();
    for (i, m) in memories.iter().enumerate() {
        if let Some(Value::Str(id)) = m.get("id") {
            if !by_id.contains_key(id.as_bytes()) {
                by_id.insert(id.as_bytes(), i);
            }
        }
    }
    let mut problem: Option<usize> = None;
    let mut any = false;
    for (i, m) in memories.iter().enumerate() {
        let Some(parent) = metadatas.get(i).and_then(|md| md.get("_parent")).filter(|p| p.truthy()) else { continue };
        any = true;
        let Some(&pi) = py_str(parent).and_then(|p| by_id.get(p.as_bytes()).copied()).as_ref() else { continue };
        if let (Some(hc), Some(hp)) = (hybrid(m), hybrid(&memories[pi])) {
            if hp > hc {
                problem = Some(i);
                break;
            }
        }
    }
    if !any {
        return;
    }
    let problem = problem.map(|i| {
        let m = "a derived clause below its _parent";
        (format!("/memories/{i}/metadata/_parent"), m.to_string())
    });
    push(checks, "derived_clauses", AuditCode::DerivedClauseReturned, problem, "/memories");
}

/// `metadata._retrieval_scopes` is the fusion record's `scopes` (both come
/// from one sorted set in `_fuse_recall_rankings`).
fn scopes(memories: &[Value], metadatas: &[Value], checks: &mut Vec<Check>) {
    let mut problem: Option<usize> = None;
    let mut any = false;
    for (i, m) in memories.iter().enumerate() {
        let Some(f) = m.get("score_breakdown").and_then(|b| b.get("fusion")).and_then(|f| f.get("scopes")) else {
            continue;
        };
        any = true;
        let got = metadatas.get(i).and_then(|md| md.get("_retrieval_scopes"));
        if !got.is_some_and(|g| py_eq(g, f)) {
            problem = Some(i);
            break;
        }
    }
    if !any {
        return;
    }
    let problem = problem.map(|i| {
        let m = "not fusion.scopes";
        (format!("/memories/{i}/metadata/_retrieval_scopes"), m.to_string())
    });
    push(checks, "retrieval_scopes", AuditCode::RetrievalScopesMismatch, problem, "/memories");
}
