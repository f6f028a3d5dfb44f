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
//! 1. **Pairing** (`recall-audit.md` §1): `memories[i]` and `receipt.results[i]` have the same
//!    `id`, `score` and deep-equal `score_breakdown`, and `score` is
//!    `final_score`.
//! 2. **The scorer call, rebuilt** (`recall-audit.md` §2): `score_memory` with purpose
//!    `recall`, the memory's whole content, verbatim metadata, stored
//!    importance, source, times, `superseded_by`, the safety status and risk
//!    tags of `metadata._admission`, `receipt.reference_time`, and the query
//!    the result was scored with: the variant of `fusion.strongest_scope` in
//!    the audit's own plan of the query (`planner`), else the plan's only
//!    variant. The response's `query_variants` are not bound, so they are
//!    compared with the plan and never used.
//! 3. **Exact checks** (`recall-audit.md` §3): the six retrieval-independent components, the
//!    three gates, the seven component reasons, the recall weights, the
//!    reference time, purpose, policy version and scoring limits.
//! 4. **Interval checks** (`recall-audit.md` §4): the retrieval score `b` is not in the
//!    response. Each of `relevance_score`, `quality_score` (the scorer's
//!    final) and the hybrid rank score `H = round6(0.8·b + 0.2·quality)` is
//!    a non-decreasing step function of `b`, so the `b` that reproduce each
//!    bound value form an interval, computed exactly (`interval`). The
//!    result is consistent when the three intersect; the intersection is
//!    reported as `retrieval_score`: the retrieval score the server must
//!    have used. When they do not intersect, the value whose interval is
//!    empty or disjoint from both others is blamed (`relevance_inconsistent`,
//!    `quality_inconsistent`, `blend_inconsistent`); when only one pair is
//!    disjoint, both of its members are.
//! 5. **Fusion and stages** (`recall-audit.md` §5): `fusion.strongest_input_score == H`, the
//!    fused score within 1e-6 of its formula, the stage chain, and every
//!    `rank-calibration-v1` record.
//! 6. **The server's rules** (`rules`, every field with the rule that
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
//! smoothing), the exact per-facet ranks behind a rounded rrf (only that
//! distinct ranks give them, `replay`), the similarities and the graph
//! behind MMR and graph proximity (only what their bound values imply), the
//! fields the receipt does not bind (per result, [`UNBOUND`]), and the candidate set ([`CANNOT_AUDIT`], stated in
//! every report). Nor does it check integrity or authorship: that is
//! [`crate::receipt::verify_recall_receipt`] and the Evidence Pack.
//!
//! # Errors and findings
//! Findings are data ([`Audit`]). Input that cannot be audited at all (not
//! JSON, not a recall response body, a field the scorer needs with the wrong
//! type) is a typed [`crate::Error`] with a JSON pointer. Numbers are read by
//! lexeme from the raw text, as the verifiers read them.
//!
//! # Limits
//! The input caps are the JSON façade's, not the audit's:
//! [`crate::api::audit_recall`] (what the CLIs and the wasm API call) caps
//! the text, the options, the query and, through [`Admit`], each memory and
//! its metadata, at the point where the audit reaches it (so a cap never
//! hides an earlier error). [`audit_recall`] applies none. What bounds the
//! audit's own work is part of the algorithm and stays here: the parser's
//! nesting limit (512), at most four planned query variants (the policy's
//! `max_query_variants`, one scorer run per result), keyed deep equality for
//! objects over 32 keys, at most 16 bound items echoed in a finding, and
//! stage positions counted up to `max(results, 200)`.
//!
//! # Where each part is
//! | file | job |
//! |---|---|
//! | `mod.rs` | the pipeline: parse, read the envelope, the query, the response-level rules, each result |
//! | `response.rs` | the envelope (memories, receipt, results, reference time), the query to score with, the query-hash and count checks |
//! | `result.rs` | one result: pairing (`recall-audit.md` §1), the scorer call rebuilt (§2), then the steps below |
//! | `rederive.rs` | exact checks (§3) and interval checks (§4) against the scorer run |
//! | `interval.rs` | level sets of monotone step functions, by bisection over doubles |
//! | `stages.rs` | fusion, stage chain and rank-calibration records (`recall-audit.md` §5) |
//! | `rules.rs`, `planner.rs` | the server's own rules (6.) and its query planner |
//! | `report.rs` | [`Audit`], [`ResultAudit`], [`Check`], [`AuditCode`] and their one printer each |
//! | `value.rs` | numbers by value and Python `==` on JSON values |

mod interval;
mod planner;
mod rederive;
mod replay;
mod report;
mod request;
mod response;
mod result;
mod rules;
mod shown;
mod stages;
mod value;

use crate::json::{self, Value};
use crate::Result;
use response::Response;
use result::Context;

pub use interval::Interval;
pub use replay::{fused_rrf, rank_tuples};
pub use report::{Audit, AuditCode, Check, ResultAudit, CANNOT_AUDIT, MAX_FAILED_PER_CODE, PROVES};
pub use request::{AuditOptions, AuditRequest, CONTROL_FILTERS, REQUEST_KEYS};
pub use shown::UNBOUND;

/// A check the caller runs on each memory before the audit scores it: the
/// memory (its `metadata` moved out, as `null`), its metadata (`null` when
/// absent) and the memory's JSON pointer (`/memories/<i>`). An error stops
/// the audit with that error. The JSON façade passes its input caps
/// (`crate::api::audit_recall`); [`audit_recall`] passes none.
pub type Admit<'a> = &'a mut dyn FnMut(&Value, &Value, &str) -> Result<()>;

/// Audit a `POST /v1/recall` response body given as raw text. `query` is
/// the query the client sent; when `None`, `query_variants[0]` is used if it
/// hashes to `receipt.query_sha256` (in fast/standard mode it is the raw query).
///
/// No input caps apply here beyond the parser's nesting limit: the cost is
/// linear in the text. For untrusted input of any size, call
/// `crate::api::audit_recall`, which applies the documented caps
/// (`crate::api::limits`) first.
pub fn audit_recall(wire: &str, query: Option<&str>) -> Result<Audit> {
    audit_recall_with(wire, query, &mut |_, _, _| Ok(()))
}

/// [`audit_recall`], running `admit` on each memory before it is scored.
pub fn audit_recall_with(wire: &str, query: Option<&str>, admit: Admit<'_>) -> Result<Audit> {
    let options = AuditOptions { query: query.map(str::to_string), ..AuditOptions::default() };
    audit_recall_options(wire, &options, admit)
}

/// Audit a recall response body with the request the client sent
/// (`options.request`: its query, `k`, mode, filters, `as_of`, ..., and
/// when it was sent and received) as evidence; `admit` runs on each memory
/// before it is scored.
pub fn audit_recall_options(wire: &str, options: &AuditOptions, admit: Admit<'_>) -> Result<Audit> {
    let given = match (&options.query, options.request.as_ref().and_then(|r| r.query.as_ref())) {
        (Some(q), Some(r)) if q != r => {
            return Err(crate::Error::new(
                crate::ErrorCode::InvalidValue,
                "/request/query",
                "the query option and request.query differ",
            ))
        }
        (Some(q), _) | (None, Some(q)) => Some(q.as_str()),
        (None, None) => None,
    };
    let mut doc = json::parse(wire)?;
    // Each memory's metadata moves (not copies) into its scorer input.
    let metadatas = response::take_metadata(&mut doc);
    let response = Response::read(&doc)?;
    let (query, query_source) = response.query(given)?;
    let mut checks = response.checks(&query, query_source);
    let rules = server_rules(&response, &query, options.request.as_ref(), &mut checks);
    if let Some(request) = &options.request {
        request::request_checks(response.receipt, request, rules.context, response.memories.len(), &mut checks);
    }
    request::reference_time_checks(
        &response.reference_time,
        &response.reference_text,
        rules.as_of_null,
        options,
        response.memories,
        &mut checks,
    );
    replay::replay(response.memories, &metadatas, &rules, &mut checks);
    shown::rules(response.memories, &metadatas, rules.filters.as_ref(), rules.context, &mut checks);
    let ctx = Context {
        reference_text: response.reference_text.clone(),
        reference_time: response.reference_time,
        rules,
        limits_json: rederive::scoring_limits_json(),
        weights_json: rederive::recall_weights_json(),
    };
    let mut metadatas = metadatas.into_iter();
    let mut audited = Vec::with_capacity(response.memories.len().min(response.results.len()));
    for (i, (memory, result)) in response.memories.iter().zip(response.results).enumerate() {
        let metadata = metadatas.next().unwrap_or(Value::Null);
        let unbound = shown::cannot_audit(memory, &metadata);
        let mut r = result::audit_result(&ctx, i, memory, metadata, result, admit)?;
        r.cannot_audit = unbound;
        audited.push(r);
    }
    let mut audit = Audit { query_source, checks, results: audited };
    audit.bound();
    Ok(audit)
}

/// The stage replays ([`replay`]) alone, on `memories` (recall-body
/// memories with their `score_breakdown`) and `metadatas` (each memory's
/// metadata), under a plan of `scopes` (facet order) and `candidate_floor`:
/// the checks they add. For the differential test against the reference's
/// own stage functions (`tests/audit_stages.rs`).
#[doc(hidden)]
pub fn replay_checks(memories: &[Value], metadatas: &[Value], scopes: &[&str], candidate_floor: i64) -> Vec<Check> {
    const KNOWN: [&str; 4] = ["episodic", "temporal", "relational", "typed"];
    let scopes: Vec<&'static str> =
        scopes.iter().map(|s| KNOWN.iter().copied().find(|k| k == s).unwrap_or("unknown")).collect();
    let rules = rules::Rules {
        policy: Some(rules::Policy {
            mode: "deep".to_string(),
            strategy: "adaptive".to_string(),
            max_variants: scopes.len() as i64,
            candidate_floor,
            k_max: 200,
        }),
        plan: planner::QueryPlan { variants: scopes.iter().map(|s| s.to_string()).collect(), scopes },
        context: false,
        filters: None,
        as_of_null: true,
        results: memories.len(),
    };
    let mut checks = Vec::new();
    replay::replay(memories, metadatas, &rules, &mut checks);
    checks
}

/// The server's own rules that bind the response as a whole (the policy,
/// the query plan, `as_of`, order, duplicates, stage positions: see
/// [`rules`]), checked into `checks`; returns what the per-result rules share.
fn server_rules(
    response: &Response<'_>,
    query: &str,
    request: Option<&AuditRequest>,
    checks: &mut Vec<report::Check>,
) -> rules::Rules {
    let receipt = response.receipt;
    let schema = receipt.get("schema").and_then(Value::as_str).and_then(crate::contract::schema);
    let context =
        schema.is_some_and(|s| s.wire == crate::contract::Wire::Context) || receipt.get("retrieval_policy").is_some();
    let policy = rules::policy(receipt, context, checks);
    let plan = rules::plan(policy.as_ref(), query);
    let rules = rules::Rules {
        policy,
        plan,
        context,
        // What the client sent when given (the receipt's copy is checked
        // against it), else the receipt's copy.
        filters: match (context, request) {
            (true, _) => None,
            (false, Some(r)) => Some(r.filters.clone().unwrap_or_default()),
            (false, None) => receipt.get("filters").and_then(Value::as_object).cloned(),
        },
        as_of_null: receipt.get("as_of").map_or(true, Value::is_null),
        results: response.memories.len(),
    };
    rules::query_variants(response.body, &rules, checks);
    rules::as_of(receipt, checks);
    rules::order(response.memories, &rules, checks);
    rules::positions(response.memories, checks);
    rules
}
