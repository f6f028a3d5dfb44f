//! The response as a whole: its envelope (memories, receipt, results,
//! reference time), the query the audit scores with, and the
//! response-level checks (query hash, result counts).

use super::report::{AuditCode, Check};
use crate::json::{Object, Value};
use crate::py::time::PyDateTime;
use crate::receipt::sha256_hex;
use crate::{Error, ErrorCode, Result};

/// The parts of a recall response body the audit reads.
pub(super) struct Response<'a> {
    /// The body object.
    pub(super) body: &'a Object,
    /// `memories`.
    pub(super) memories: &'a [Value],
    /// `receipt`.
    pub(super) receipt: &'a Value,
    /// `receipt.results`.
    pub(super) results: &'a [Value],
    /// `receipt.reference_time` as sent.
    pub(super) reference_text: String,
    /// `receipt.reference_time`, parsed.
    pub(super) reference_time: PyDateTime,
    /// `query_variants` (not bound; non-strings as empty strings).
    variants: Vec<String>,
}

impl<'a> Response<'a> {
    /// The envelope of `doc`, or the typed error of the first part missing
    /// or of the wrong type.
    pub(super) fn read(doc: &'a Value) -> Result<Response<'a>> {
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
                return Err(Error::wrong_type(
                    "/receipt/reference_time",
                    "an ISO-8601 datetime string",
                    other.type_name(),
                ))
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
            Some(Value::Array(items)) => {
                items.iter().map(|v| v.as_str().map(str::to_string).unwrap_or_default()).collect()
            }
            _ => Vec::new(),
        };
        Ok(Response { body, memories, receipt, results, reference_text, reference_time, variants })
    }

    /// `receipt.query_sha256` is the SHA-256 of `q` (hex, any case).
    fn hashes(&self, q: &str) -> bool {
        let bound = self.receipt.get("query_sha256");
        bound.and_then(Value::as_str).is_some_and(|h| h.eq_ignore_ascii_case(&sha256_hex(q.as_bytes())))
    }

    /// The query to score with and where it came from: the given one, else
    /// `query_variants[0]` when it hashes to `receipt.query_sha256`.
    pub(super) fn query(&self, given: Option<&str>) -> Result<(String, &'static str)> {
        match given {
            Some(q) => Ok((q.to_string(), "given")),
            None => match self.variants.first() {
                Some(v) if self.hashes(v) => Ok((v.clone(), "query_variants/0")),
                _ => Err(Error::new(
                    ErrorCode::MissingField,
                    "/query",
                    "give the query the client sent: query_variants[0] does not hash to receipt.query_sha256",
                )),
            },
        }
    }

    /// The response-level checks: the query hash and the result counts.
    pub(super) fn checks(&self, query: &str, query_source: &str) -> Vec<Check> {
        let bound_query_sha = self.receipt.get("query_sha256");
        let sha = sha256_hex(query.as_bytes());
        vec![
            Check::new("query_sha256", AuditCode::QueryMismatch, self.hashes(query), "/receipt/query_sha256")
                .values(bound_query_sha.cloned().unwrap_or(Value::Null), Value::str(sha))
                .note(if query_source == "given" {
                    "SHA-256 of the given query"
                } else {
                    "SHA-256 of query_variants[0], used as the query"
                }),
            Check::new(
                "result_count",
                AuditCode::PairingMismatch,
                self.memories.len() == self.results.len(),
                "/memories",
            )
            .values(Value::int(self.memories.len() as i64), Value::int(self.results.len() as i64))
            .message("memories.length vs receipt.results.length"),
        ]
    }
}

/// Move each memory's `metadata` out of the parsed body (leaving `null`),
/// in memory order; a memory without one gives `null`. The pairing checks
/// never look at metadata, so the scorer can own it without a copy.
pub(super) fn take_metadata(doc: &mut Value) -> Vec<Value> {
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
