//! The audit report: findings as data.

use super::interval::Interval;
use crate::json::{Object, Value};
use crate::receipt::CheckStatus as Status;

/// Declares [`AuditCode`] from one table: the variants, their wire strings,
/// [`AuditCode::ALL`] and [`AuditCode::as_str`] cannot disagree.
macro_rules! audit_codes {
    ($($(#[$doc:meta])* $variant:ident = $wire:literal,)*) => {
        /// A failure code of the recall audit: each check's `code` and the
        /// report's `failures`. Stable: the wire strings ([`AuditCode::as_str`])
        /// are part of the public API (`docs/audit.md`, `AuditFailure` in
        /// `js/index.d.ts`); new codes may be added.
        #[non_exhaustive]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum AuditCode {
            $($(#[$doc])* $variant,)*
        }

        impl AuditCode {
            /// Every code, in documentation order.
            pub const ALL: [AuditCode; [$($wire),*].len()] = [$(AuditCode::$variant),*];

            /// The code as it appears in a report (`"pairing_mismatch"`, ...).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(AuditCode::$variant => $wire,)*
                }
            }
        }
    };
}

audit_codes! {
    /// `memories[i]` and `receipt.results[i]` do not describe the same
    /// result (count, `id`, `score`, deep-equal `score_breakdown`), or the
    /// public `score` is not `score_breakdown.final_score`.
    PairingMismatch = "pairing_mismatch",
    /// The query the audit scored with does not hash to `receipt.query_sha256`.
    QueryMismatch = "query_mismatch",
    /// A result has no `score_breakdown` object: nothing to re-derive.
    BreakdownMissing = "breakdown_missing",
    /// One of the six retrieval-independent components differs.
    ComponentMismatch = "component_mismatch",
    /// `eligible`, `safety_eligible` or `temporal_eligible` differs.
    GateMismatch = "gate_mismatch",
    /// One of the first seven (component) reasons differs.
    ReasonMismatch = "reason_mismatch",
    /// `weights`, `reference_time`, `purpose`, `scoring_policy_version` or
    /// `scoring_limits` is not what the recall scorer binds.
    PolicyMismatch = "policy_mismatch",
    /// No retrieval score consistent with the rest reproduces `relevance_score`.
    RelevanceInconsistent = "relevance_inconsistent",
    /// No retrieval score consistent with the rest reproduces `quality_score`
    /// as the scorer's final score.
    QualityInconsistent = "quality_inconsistent",
    /// No retrieval score consistent with the rest reproduces the hybrid rank
    /// score `round6(0.8·b + 0.2·quality_score)`.
    BlendInconsistent = "blend_inconsistent",
    /// Adaptive fusion: `strongest_input_score`, the fused score or the
    /// stage's copy of the fusion fields is wrong.
    FusionInconsistent = "fusion_inconsistent",
    /// A stage's `input_score` is not the previous output (the first
    /// previous being the hybrid score), or `final_score` is not the last output.
    StageChainBroken = "stage_chain_broken",
    /// A `rank-calibration-v1` stage's output is not `rank_position_score`
    /// of its position, count and input, or the last one's `position` is
    /// not the result's place in the response.
    CalibrationMismatch = "calibration_mismatch",
    /// A stage record of a kind the server does not write, without its
    /// `method`, out of the server's stage order, or not allowed by the
    /// request (`filters`) and the policy.
    StageUnknown = "stage_unknown",
    /// A returned result is not `eligible` (or not `safety_eligible` /
    /// `temporal_eligible`): the server drops ineligible candidates on
    /// every recall path.
    IneligibleReturned = "ineligible_returned",
    /// The response's `query_variants` (not bound by the receipt) differ
    /// from what the server's planner produces from the query, mode and policy.
    QueryVariantsMismatch = "query_variants_mismatch",
    /// Something the audit needs in order to re-derive a score (the
    /// policy that drives the query planner) is missing or is not one the
    /// server writes: that part is reported as not auditable, never as
    /// consistent.
    NotAuditable = "not_auditable",
    /// `receipt.as_of` is set and `receipt.reference_time` is not that instant
    /// as the server writes it (the server scores at `reference = as_of`).
    AsOfMismatch = "as_of_mismatch",
    /// The returned order is not the server's ordering rule (`stable_score_key`:
    /// final score desc, event time desc, ingestion time desc, id asc).
    OrderViolation = "order_violation",
    /// A memory id is returned more than once.
    DuplicateResult = "duplicate_result",
    /// A rank-calibration stage's `candidate_count` or `position` is not
    /// consistent with the returned results and the policy's caps.
    CandidateCountMismatch = "candidate_count_mismatch",
    /// The receipt's copy of a request field (`filters`, `as_of`, the
    /// policy resolved from `mode`, `strategy`, `max_query_variants`, `k`,
    /// `include_context`) is not what the client sent (`request` option).
    RequestMismatch = "request_mismatch",
    /// `reference_time` is not `as_of`, lies outside `[sent − cache TTL −
    /// skew, received + skew]`, or (without `as_of`) is before a returned
    /// memory's `ingestion_time`.
    ReferenceTimeInconsistent = "reference_time_inconsistent",
    /// A ranking stage (mmr-rerank, mmr-selection, cross-encoder, graph
    /// proximity) is not what the reference's algorithm writes on the bound values.
    StageReplayMismatch = "stage_replay_mismatch",
    /// A returned memory's metadata fails a (non-control) filter of the
    /// request as the server compares it.
    FilterViolation = "filter_violation",
    /// A derived clause is returned below its `_parent` (`_collapse_derived` drops it).
    DerivedClauseReturned = "derived_clause_returned",
    /// `metadata._retrieval_scopes` differs from `score_breakdown.fusion.scopes`.
    RetrievalScopesMismatch = "retrieval_scopes_mismatch",
}

impl std::fmt::Display for AuditCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What an audit establishes, stated in every report.
pub const PROVES: &str = "The bound component scores, gates, reasons and recall weights follow the published scorer \
(lians-memory-scoring-v2) on the returned content, metadata and times; relevance, quality and the 0.8/0.2 hybrid \
score are reproduced exactly by some retrieval score in the reported interval; fusion and rank-calibration stages \
follow their formulas. Integrity and authorship are not audited: verify the receipt hash and the Evidence Pack signature for those.";

/// What no client can audit from a response, stated in every report.
pub const CANNOT_AUDIT: [&str; 4] = [
    "the retrieval score itself (embeddings, BM25, recency, neighbour smoothing): only the interval it must lie in",
    "the exact per-facet ranks behind normalized_rrf_score (only that distinct ranks give them)",
    "the similarities behind MMR and the graph behind graph proximity (only what their bound values imply)",
    "the candidate set: ineligible memories are dropped before the response, so nothing shows that better candidates were not left out",
];

/// One check: what was compared (`name`), the failure `code` it reports,
/// the outcome, where (`pointer` into the response), the server's bound
/// value, the client's re-derived value, and for interval checks the
/// retrieval scores that reproduce the bound value.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// What was compared: a breakdown key (`trust_score`, `reasons`, ...),
    /// `pairing`, `blend`, `fusion`, `stage_chain`, `calibration:<stage>`, ...
    pub name: String,
    /// The code the check reports when it fails.
    pub code: AuditCode,
    /// Passed or failed.
    pub status: Status,
    /// JSON pointer into the response body.
    pub pointer: String,
    /// The server's value as sent (`null` when absent or not applicable).
    pub bound: Value,
    /// The client's re-derived value (`null` when it cannot be derived).
    pub rederived: Value,
    /// Interval checks: the retrieval scores that reproduce `bound`.
    pub interval: Option<Interval>,
    /// Why it failed, or what it compared; reported for failed checks, and
    /// for passed ones only when it is a `note` (information, not a finding).
    pub message: String,
    /// Whether `message` is reported when the check passes.
    pub note: bool,
}

impl Check {
    /// A check of `name` that reports `code` unless `ok`, at `pointer`.
    pub(crate) fn new(name: impl Into<String>, code: AuditCode, ok: bool, pointer: impl Into<String>) -> Check {
        Check {
            name: name.into(),
            code,
            status: if ok { Status::Passed } else { Status::Failed },
            pointer: pointer.into(),
            bound: Value::Null,
            rederived: Value::Null,
            interval: None,
            message: String::new(),
            note: false,
        }
    }

    /// The bound and the re-derived value.
    pub(crate) fn values(mut self, bound: Value, rederived: Value) -> Check {
        self.bound = bound;
        self.rederived = rederived;
        self
    }

    /// The retrieval scores that reproduce the bound value.
    pub(crate) fn interval(mut self, interval: Option<Interval>) -> Check {
        self.interval = interval;
        self
    }

    /// A message reported when the check fails.
    pub(crate) fn message(mut self, message: impl Into<String>) -> Check {
        self.message = message.into();
        self
    }

    /// A message reported whatever the outcome.
    pub(crate) fn note(mut self, message: impl Into<String>) -> Check {
        self.message = message.into();
        self.note = true;
        self
    }

    /// The check failed.
    pub fn failed(&self) -> bool {
        self.status == Status::Failed
    }

    /// `{check, code, status, pointer, bound, rederived, interval, message?}`.
    pub fn to_json(&self) -> Value {
        self.clone().into_json()
    }

    /// [`Check::to_json`] without copying the values.
    pub fn into_json(self) -> Value {
        let mut o = Object::with_capacity(8);
        o.push_unique("check", Value::str(self.name));
        o.push_unique("code", Value::str(self.code.as_str()));
        o.push_unique("status", Value::str(self.status.as_str()));
        o.push_unique("pointer", Value::str(self.pointer));
        o.push_unique("bound", self.bound);
        o.push_unique("rederived", self.rederived);
        o.push_unique("interval", interval_json(self.interval));
        if !self.message.is_empty() && (self.note || self.status == Status::Failed) {
            o.push_unique("message", Value::str(self.message));
        }
        Value::Object(o)
    }
}

/// An interval as `[lo, hi]`, its ends rounded **outward** to 10 decimal
/// places. The exact ends can differ by an ulp between builds (the
/// freshness `exp()` comes from the platform's libm natively and from Rust's
/// `libm` in wasm; both round to the same 6-place component), so the printed
/// form is the one both CLIs agree on; it still contains the exact interval.
pub(crate) fn interval_json(i: Option<Interval>) -> Value {
    const GRID: f64 = 1e10;
    match i {
        Some(i) => {
            let lo = ((i.lo * GRID).floor() / GRID).max(0.0);
            let hi = ((i.hi * GRID).ceil() / GRID).min(1.0);
            Value::Array(vec![Value::Float(lo), Value::Float(hi)])
        }
        None => Value::Null,
    }
}

/// The audit of one returned result.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultAudit {
    /// `memories[i].id` as sent.
    pub id: Value,
    /// 1-based place in the response.
    pub rank: usize,
    /// Index into `query_variants` of the query the result was scored with,
    /// or `None` for the query the client sent.
    pub query_variant: Option<usize>,
    /// The retrieval scores that reproduce relevance, quality and the hybrid
    /// score together (`None` when none does, or there was nothing to audit).
    pub retrieval_score: Option<Interval>,
    /// The result's checks, in the order they ran.
    pub checks: Vec<Check>,
    /// The memory's fields the score depends on that the receipt does not
    /// bind (`importance`, `metadata`, ...): scored as the body sends them.
    pub cannot_audit: Vec<&'static str>,
    /// Failed checks of this result not listed (the report's bound): they
    /// are counted in a summary check of their code in [`Audit::checks`].
    pub omitted_failures: usize,
}

impl ResultAudit {
    /// True exactly when none of the result's checks failed.
    pub fn consistent(&self) -> bool {
        self.omitted_failures == 0 && !self.checks.iter().any(Check::failed)
    }

    /// `{id, rank, consistent, query_variant, retrieval_score, checks}`.
    pub fn to_json(&self) -> Value {
        self.clone().into_json()
    }

    /// [`ResultAudit::to_json`] without copying the values.
    pub fn into_json(self) -> Value {
        let consistent = self.consistent();
        let mut o = Object::with_capacity(6);
        o.push_unique("id", self.id);
        o.push_unique("rank", Value::int(self.rank as i64));
        o.push_unique("consistent", Value::Bool(consistent));
        o.push_unique("query_variant", self.query_variant.map(|i| Value::int(i as i64)).unwrap_or(Value::Null));
        o.push_unique("retrieval_score", interval_json(self.retrieval_score));
        o.push_unique("checks", Value::Array(self.checks.into_iter().map(Check::into_json).collect()));
        o.push_unique("cannot_audit", Value::Array(self.cannot_audit.iter().map(|s| Value::str(*s)).collect()));
        Value::Object(o)
    }
}

/// The report of [`super::audit_recall`]: findings as data.
#[derive(Clone, Debug, PartialEq)]
pub struct Audit {
    /// Where the scored query came from: `"given"` or `"query_variants/0"`.
    pub query_source: &'static str,
    /// Response-level checks (query hash, result counts).
    pub checks: Vec<Check>,
    /// One audit per returned result, in response order.
    pub results: Vec<ResultAudit>,
}

impl Audit {
    /// True exactly when no check failed.
    pub fn consistent(&self) -> bool {
        !self.checks.iter().any(Check::failed) && self.results.iter().all(ResultAudit::consistent)
    }

    /// Distinct codes of failed checks, in first-seen order.
    pub fn failures(&self) -> Vec<AuditCode> {
        let mut out: Vec<AuditCode> = Vec::new();
        let all = self.checks.iter().chain(self.results.iter().flat_map(|r| r.checks.iter()));
        for c in all.filter(|c| c.failed()) {
            if !out.contains(&c.code) {
                out.push(c.code);
            }
        }
        out
    }

    /// `{consistent, failures, query_source, checks, results, proves, cannot_audit}`.
    pub fn to_json(&self) -> Value {
        self.clone().into_json()
    }

    /// [`Audit::to_json`] without copying the values.
    pub fn into_json(self) -> Value {
        let mut o = Object::with_capacity(7);
        o.push_unique("consistent", Value::Bool(self.consistent()));
        o.push_unique("failures", Value::Array(self.failures().into_iter().map(|c| Value::str(c.as_str())).collect()));
        o.push_unique("query_source", Value::str(self.query_source));
        o.push_unique("checks", Value::Array(self.checks.into_iter().map(Check::into_json).collect()));
        o.push_unique("results", Value::Array(self.results.into_iter().map(ResultAudit::into_json).collect()));
        o.push_unique("proves", Value::str(PROVES));
        o.push_unique("cannot_audit", Value::Array(CANNOT_AUDIT.iter().map(|s| Value::str(*s)).collect()));
        Value::Object(o)
    }
}

/// At most this many failed checks of one code are listed in an audit
/// report; the rest are counted in one summary check of that code.
pub const MAX_FAILED_PER_CODE: usize = 20;
/// At most this many passed checks are listed; the rest are counted.
pub const MAX_PASSED: usize = 2_000;
/// At most this many results are listed; the rest are counted (their
/// failures summarised per code).
pub const MAX_RESULTS: usize = 1_000;
/// The bytes of listed checks and results (as printed) a report may hold.
const BUDGET: usize = 700_000;
/// A bound or re-derived value longer than this (as JSON) is not echoed.
const MAX_ECHO: usize = 1_024;

/// A value echoed in a report: itself when short, else a note of its size.
fn shrink(v: Value) -> Value {
    match &v {
        Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) => v,
        Value::Str(s) if s.as_bytes().len() <= MAX_ECHO => v,
        _ => {
            let n = crate::json::to_json_string(&v).len();
            if n <= MAX_ECHO {
                v
            } else {
                Value::str(format!("<{} of {n} bytes as JSON, not echoed>", v.type_name()))
            }
        }
    }
}

fn clip(s: &mut String, most: usize) {
    if s.len() > most {
        let mut end = most;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
}

fn approx_size(c: &Check) -> usize {
    let v = |x: &Value| match x {
        Value::Str(s) => s.as_bytes().len() + 2,
        Value::Null => 4,
        Value::Int(d) => d.len(),
        Value::Float(_) | Value::Bool(_) => 24,
        other => crate::json::to_json_string(other).len(),
    };
    120 + c.name.len() + c.pointer.len() + c.message.len() + v(&c.bound) + v(&c.rederived)
}

impl Audit {
    /// Bound the report: echoed values and pointers shortened, at most
    /// [`MAX_FAILED_PER_CODE`] failed checks per code (the rest counted in
    /// one summary check of that code, first pointer kept), at most
    /// [`MAX_PASSED`] passed checks and [`MAX_RESULTS`] results listed, and
    /// the listed part within a fixed byte budget: the printed report stays
    /// under 1 MB whatever the body, and `consistent`/`failures` are those
    /// of the whole audit.
    pub(crate) fn bound(&mut self) {
        struct State {
            budget: usize,
            passed: usize,
            passed_omitted: usize,
            per_code: Vec<(AuditCode, usize, usize, String)>,
        }
        let mut st = State { budget: BUDGET, passed: 0, passed_omitted: 0, per_code: Vec::new() };
        fn keep(st: &mut State, mut c: Check, listed: bool) -> Option<Check> {
            clip(&mut c.pointer, 512);
            clip(&mut c.message, 1_024);
            c.bound = shrink(std::mem::replace(&mut c.bound, Value::Null));
            c.rederived = shrink(std::mem::replace(&mut c.rederived, Value::Null));
            let size = approx_size(&c);
            if c.failed() {
                let i = match st.per_code.iter().position(|e| e.0 == c.code) {
                    Some(i) => i,
                    None => {
                        st.per_code.push((c.code, 0, 0, String::new()));
                        st.per_code.len() - 1
                    }
                };
                let e = &mut st.per_code[i];
                if listed && e.1 < MAX_FAILED_PER_CODE && size <= st.budget {
                    e.1 += 1;
                    st.budget -= size;
                    Some(c)
                } else {
                    if e.2 == 0 {
                        e.3 = c.pointer.clone();
                    }
                    e.2 += 1;
                    None
                }
            } else if listed && st.passed < MAX_PASSED && size <= st.budget {
                st.passed += 1;
                st.budget -= size;
                Some(c)
            } else {
                st.passed_omitted += 1;
                None
            }
        }
        let checks = std::mem::take(&mut self.checks);
        self.checks = checks.into_iter().filter_map(|c| keep(&mut st, c, true)).collect();
        let results = std::mem::take(&mut self.results);
        let mut listed = Vec::with_capacity(results.len().min(MAX_RESULTS));
        let mut results_omitted = 0usize;
        for mut r in results {
            r.id = shrink(r.id);
            let header = 200
                + match &r.id {
                    Value::Str(s) => s.as_bytes().len(),
                    _ => 64,
                };
            let list = listed.len() < MAX_RESULTS && header <= st.budget;
            if list {
                st.budget -= header;
            }
            let mut kept = Vec::new();
            for c in std::mem::take(&mut r.checks) {
                let failed = c.failed();
                match keep(&mut st, c, list) {
                    Some(c) => kept.push(c),
                    None if failed => r.omitted_failures += 1,
                    None => {}
                }
            }
            if list {
                r.checks = kept;
                listed.push(r);
            } else {
                results_omitted += 1;
            }
        }
        self.results = listed;
        for (code, _, omitted, first) in &st.per_code {
            if *omitted > 0 {
                self.checks.push(
                    Check::new("omitted_failures", *code, false, first.as_str())
                        .values(Value::int(*omitted as i64), Value::Null)
                        .message(format!("and {omitted} more `{code}` failure(s), first at {first}")),
                );
            }
        }
        if st.passed_omitted > 0 || results_omitted > 0 {
            self.checks.push(
                Check::new("not_listed", AuditCode::PairingMismatch, true, "")
                    .values(Value::int(st.passed_omitted as i64), Value::int(results_omitted as i64))
                    .note(format!("{} passed check(s) and {results_omitted} result(s) not listed", st.passed_omitted)),
            );
        }
    }
}
