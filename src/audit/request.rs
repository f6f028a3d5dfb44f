//! The request as evidence: what the client sent (`POST /v1/recall` body,
//! plus when it was sent and received) and the response-level checks it
//! allows: the receipt's copy of each field, the policy the server resolves
//! from it (`_resolve_recall_policy`), `as_of`, and where `reference_time`
//! can lie.

use super::report::{AuditCode, Check};
use super::value::py_eq;
use crate::json::{Object, Value};
use crate::py::time::PyDateTime;
use crate::receipt::report::pointer;
use crate::{Error, ErrorCode, Result};

/// The fields of a recall request (`RecallRequest` of lians-sdk 0.5.0) and
/// the two times the client adds. Any other key fails closed.
pub const REQUEST_KEYS: [&str; 12] = [
    "agent_id",
    "query",
    "k",
    "as_of",
    "filters",
    "include_context",
    "strategy",
    "max_query_variants",
    "mode",
    "decision_envelope_id",
    "sent_at",
    "received_at",
];

/// The filter keys the server pops before matching metadata.
pub const CONTROL_FILTERS: [&str; 4] = ["_near_entity", "_near_key", "_rerank", "_mmr_lambda"];

/// The server's recall cache TTL (`recall_cache_ttl_seconds`, 60 s by default).
pub const DEFAULT_CACHE_TTL_SECONDS: f64 = 60.0;
/// The clock skew allowed between the client and the server.
pub const DEFAULT_CLOCK_SKEW_SECONDS: f64 = 5.0;

/// What the client sent: a `POST /v1/recall` body and, optionally, when it
/// was sent and when the response was received. Absent fields take the
/// server's defaults where it has one (`k` 5, `mode` fast, ...).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AuditRequest {
    /// `query`.
    pub query: Option<String>,
    /// `k` (default 5).
    pub k: Option<i64>,
    /// `mode` (default `fast`).
    pub mode: Option<String>,
    /// `strategy` (default `standard`).
    pub strategy: Option<String>,
    /// `max_query_variants` (default 4).
    pub max_query_variants: Option<i64>,
    /// `filters`, control keys included (default `{}`).
    pub filters: Option<Object>,
    /// `as_of` as sent (absent or null: none).
    pub as_of: Option<PyDateTime>,
    /// `include_context` when sent (its default depends on the mode).
    pub include_context: Option<bool>,
    /// When the request was sent (client clock).
    pub sent_at: Option<PyDateTime>,
    /// When the response was received (client clock).
    pub received_at: Option<PyDateTime>,
}

/// The audit's options beyond the query: the request and the time bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditOptions {
    /// The query the client sent (also `request.query`).
    pub query: Option<String>,
    /// The request the client sent.
    pub request: Option<AuditRequest>,
    /// The server's recall cache TTL in seconds (default 60).
    pub cache_ttl_seconds: f64,
    /// The clock skew allowed in seconds (default 5).
    pub clock_skew_seconds: f64,
}

impl Default for AuditOptions {
    fn default() -> AuditOptions {
        AuditOptions {
            query: None,
            request: None,
            cache_ttl_seconds: DEFAULT_CACHE_TTL_SECONDS,
            clock_skew_seconds: DEFAULT_CLOCK_SKEW_SECONDS,
        }
    }
}

fn int_value(v: &Value, at: &str) -> Result<i64> {
    match v {
        Value::Int(d) => d.parse().map_err(|_| Error::new(ErrorCode::InvalidValue, at, "an integer out of range")),
        other => Err(Error::wrong_type(at, "an integer", other.type_name())),
    }
}

fn str_value(v: &Value, at: &str) -> Result<String> {
    match v {
        Value::Str(s) => Ok(s.to_str_lossy().into_owned()),
        other => Err(Error::wrong_type(at, "a string", other.type_name())),
    }
}

fn time_value(v: &Value, at: &str) -> Result<Option<PyDateTime>> {
    match v {
        Value::Null => Ok(None),
        Value::Str(s) => PyDateTime::parse(&s.to_str_lossy()).map(Some).map_err(|e| e.under(at)),
        other => Err(Error::wrong_type(at, "an ISO-8601 datetime string or null", other.type_name())),
    }
}

impl AuditRequest {
    /// Read the request object at `at` (`/request`): unknown keys, wrong
    /// types and values the server refuses (422) are typed errors.
    pub fn from_json(v: &Value, at: &str) -> Result<AuditRequest> {
        let Value::Object(o) = v else { return Err(Error::wrong_type(at, "a request object", v.type_name())) };
        let mut r = AuditRequest::default();
        for (key, value) in o.iter() {
            let name = key.to_str_lossy();
            let p = pointer(at, &name);
            // A value the server refuses with 422 could not have been answered.
            let refused = || Error::new(ErrorCode::InvalidValue, p.as_str(), "a value the server refuses (422)");
            match name.as_ref() {
                "agent_id" | "decision_envelope_id" => {
                    if !matches!(value, Value::Str(_) | Value::Null) {
                        return Err(Error::wrong_type(p, "a string", value.type_name()));
                    }
                }
                "query" => r.query = Some(str_value(value, &p)?),
                "k" | "max_query_variants" => {
                    let n = int_value(value, &p)?;
                    let (slot, most) = if name == "k" { (&mut r.k, 200) } else { (&mut r.max_query_variants, 4) };
                    if !(1..=most).contains(&n) {
                        return Err(refused());
                    }
                    *slot = Some(n);
                }
                "mode" | "strategy" => {
                    let v = str_value(value, &p)?;
                    let (slot, allowed): (_, &[&str]) = if name == "mode" {
                        (&mut r.mode, &["fast", "deep", "reconstruct"])
                    } else {
                        (&mut r.strategy, &["standard", "adaptive"])
                    };
                    if !allowed.contains(&v.as_str()) {
                        return Err(refused());
                    }
                    *slot = Some(v);
                }
                "filters" => match value {
                    Value::Object(f) => r.filters = Some(f.clone()),
                    Value::Null => {}
                    other => return Err(Error::wrong_type(p, "an object", other.type_name())),
                },
                "include_context" => match value {
                    Value::Bool(b) => r.include_context = Some(*b),
                    other => return Err(Error::wrong_type(p, "a boolean", other.type_name())),
                },
                "as_of" => r.as_of = time_value(value, &p)?,
                "sent_at" => r.sent_at = time_value(value, &p)?,
                "received_at" => r.received_at = time_value(value, &p)?,
                _ => {
                    let shown: String = name.chars().take(64).collect();
                    return Err(Error::new(ErrorCode::InvalidValue, p, format!("unknown request key {shown:?}")));
                }
            }
        }
        Ok(r)
    }

    /// The policy `_resolve_recall_policy` writes for this request: mode,
    /// strategy, max_query_variants, include_context, candidate_floor.
    pub fn policy(&self) -> (String, String, i64, bool, i64) {
        let mode = self.mode.clone().unwrap_or_else(|| "fast".to_string());
        let k = self.k.unwrap_or(5);
        let mqv = self.max_query_variants.unwrap_or(4);
        let (strategy, max_variants, floor) = match mode.as_str() {
            "fast" => {
                let s = self.strategy.clone().unwrap_or_else(|| "standard".to_string());
                let n = if s == "standard" { 1 } else { mqv };
                (s, n, 20.max(k * 2))
            }
            "deep" => ("adaptive".to_string(), mqv, 80.max(k * 6)),
            _ => ("adaptive".to_string(), 4, 120.max(k * 8)),
        };
        let include_context = self.include_context.unwrap_or(mode != "fast");
        (mode, strategy, max_variants, include_context, floor.min(200))
    }
}

/// One response-level check: `name` holds (`ok`) at `at` (out of line:
/// the wasm build is size-bound).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn check(
    checks: &mut Vec<Check>,
    name: &str,
    code: AuditCode,
    ok: bool,
    at: &str,
    bound: Value,
    expected: Value,
    m: &str,
) {
    checks.push(Check::new(name, code, ok, at).values(bound, expected).message(m));
}

/// The receipt's copy of each request field equals what the client sent,
/// the policy is the one the server resolves from it, the result count is
/// within `k`. `context` bodies carry `retrieval_policy` and no filters.
pub(super) fn request_checks(
    receipt: &Value,
    request: &AuditRequest,
    context: bool,
    results: usize,
    checks: &mut Vec<Check>,
) {
    let key = if context { "retrieval_policy" } else { "policy" };
    let pp = pointer("/receipt", key);
    let policy = receipt.get(key);
    let (mode, strategy, mqv, include_context, floor) = request.policy();
    let fields: [(&str, &str, Value); 5] = [
        ("mode", "request.mode", Value::str(mode.as_str())),
        ("strategy", "request.strategy", Value::str(strategy.as_str())),
        ("max_query_variants", "request.max_query_variants", Value::int(mqv)),
        ("include_context", "request.include_context", Value::Bool(include_context)),
        ("candidate_floor", "request.candidate_floor", Value::int(floor)),
    ];
    for (field, name, expected) in fields {
        if context && field == "include_context" {
            continue;
        }
        let got = policy.and_then(|p| p.get(field));
        let ok = got.is_some_and(|g| g == &expected);
        let at = pointer(&pp, field);
        check(
            checks,
            name,
            AuditCode::RequestMismatch,
            ok,
            &at,
            got.cloned().unwrap_or(Value::Null),
            expected,
            "not the request's policy",
        );
    }
    let k = request.k.unwrap_or(5);
    check(
        checks,
        "request.k",
        AuditCode::RequestMismatch,
        results as i64 <= k,
        "/memories",
        Value::int(results as i64),
        Value::int(k),
        "more than k results",
    );
    if !context {
        let sent = Value::Object(request.filters.clone().unwrap_or_default());
        let got = receipt.get("filters");
        let ok = got.is_some_and(|g| py_eq(g, &sent));
        let shown = match got {
            Some(Value::Object(o)) if o.len() <= 16 => Value::Object(o.clone()),
            Some(Value::Object(o)) => Value::int(o.len() as i64),
            other => other.cloned().unwrap_or(Value::Null),
        };
        let expected = match &sent {
            Value::Object(o) if o.len() > 16 => Value::int(o.len() as i64),
            other => other.clone(),
        };
        check(
            checks,
            "request.filters",
            AuditCode::RequestMismatch,
            ok,
            "/receipt/filters",
            shown,
            expected,
            "not the request's filters",
        );
    }
    if !context {
        let got = receipt.get("as_of");
        let parsed = match got {
            None | Some(Value::Null) => Some(None),
            Some(Value::Str(s)) => PyDateTime::parse(&s.to_str_lossy()).ok().map(Some),
            Some(_) => None,
        };
        let ok = parsed.is_some_and(|p| p == request.as_of);
        let expected = request.as_of.map(|d| Value::str(d.isoformat_utc_if_naive())).unwrap_or(Value::Null);
        check(
            checks,
            "request.as_of",
            AuditCode::RequestMismatch,
            ok,
            "/receipt/as_of",
            got.cloned().unwrap_or(Value::Null),
            expected,
            "not the request's as_of",
        );
    }
}

/// `reference_time`: `as_of` when the request has one (checked by the
/// `as_of` rule); otherwise within `[sent − ttl − skew, received + skew]`
/// when the times are given, and never before a returned memory's
/// `ingestion_time` (the server's clock is "now", after ingestion).
pub(super) fn reference_time_checks(
    reference: &PyDateTime,
    reference_text: &str,
    as_of_null: bool,
    options: &AuditOptions,
    memories: &[Value],
    checks: &mut Vec<Check>,
) {
    if let Some(req) = &options.request {
        if let Some(as_of) = req.as_of {
            let ok = reference.instant_micros() == as_of.naive_as_utc().instant_micros();
            let m = "not the request's as_of";
            let expected = Value::str(as_of.isoformat_utc_if_naive());
            check(
                checks,
                "reference_time",
                AuditCode::ReferenceTimeInconsistent,
                ok,
                "/receipt/reference_time",
                Value::str(reference_text),
                expected,
                m,
            );
            return;
        }
    }
    if !as_of_null {
        return;
    }
    let r = reference.naive_as_utc().instant_micros();
    if let Some(req) = &options.request {
        let micros = |s: f64| (s.max(0.0) * 1e6).min(1e15) as i64;
        let skew = micros(options.clock_skew_seconds);
        let ttl = micros(options.cache_ttl_seconds);
        let lo = req.sent_at.map(|t| t.naive_as_utc().instant_micros().saturating_sub(ttl).saturating_sub(skew));
        let hi = req.received_at.map(|t| t.naive_as_utc().instant_micros().saturating_add(skew));
        if lo.is_some() || hi.is_some() {
            let ok = lo.map_or(true, |lo| r >= lo) && hi.map_or(true, |hi| r <= hi);
            let m = "outside [sent_at − TTL − skew, received_at + skew]";
            let at = "/receipt/reference_time";
            check(
                checks,
                "reference_time",
                AuditCode::ReferenceTimeInconsistent,
                ok,
                at,
                Value::str(reference_text),
                Value::Null,
                m,
            );
        }
    }
    // The latest ingestion time among the results (unparseable ones are
    // reported by the scorer checks, not here).
    let mut latest: Option<(i64, usize)> = None;
    for (i, m) in memories.iter().enumerate() {
        if let Some(Value::Str(s)) = m.get("ingestion_time") {
            if let Ok(t) = PyDateTime::parse(&s.to_str_lossy()) {
                let t = t.naive_as_utc().instant_micros();
                if latest.map_or(true, |(l, _)| t > l) {
                    latest = Some((t, i));
                }
            }
        }
    }
    if let Some((t, i)) = latest {
        let at = pointer(&pointer("/memories", &i.to_string()), "ingestion_time");
        let bound = memories[i].get("ingestion_time").cloned().unwrap_or(Value::Null);
        let m = "reference_time before an ingestion_time";
        check(
            checks,
            "reference_after_ingestion",
            AuditCode::ReferenceTimeInconsistent,
            r >= t,
            &at,
            bound,
            Value::str(reference_text),
            m,
        );
    }
}
