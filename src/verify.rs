//! The typed verification API: [`VerificationReport`] and [`Check`], the
//! result of verifying a recall/context receipt, an Evidence Pack or a
//! canonical document, with the Lians wire names.
//!
//! The verifier itself ([`crate::receipt`]) builds a [`receipt::Report`];
//! these types are its public, owned, (de)serializable form, and
//! [`VerificationReport::to_json`], the one report printer, is the report object the JSON
//! façade, the CLI and the bindings print. The conversion destructures every
//! field of [`receipt::Report`], [`receipt::Check`] and
//! [`receipt::BoundReceipt`], so a field added there fails to compile here
//! until it is mirrored.
//!
//! ```
//! use lians_score::{json::Value, verify_canonical};
//! let report = verify_canonical(r#"{"b":1,"a":1.0}"#, &Value::Null).unwrap();
//! assert!(report.valid);
//! assert_eq!(report.receipt_sha256.as_deref().map(str::len), Some(64));
//! ```

use crate::json::{Object, Value};
use crate::receipt;

pub use crate::receipt::{Severity, Status as CheckStatus};

/// The result of one verification: valid or not, the recomputed hash, and
/// every check that ran (passed, failed or skipped), in order.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VerificationReport {
    /// True exactly when no error-severity check failed.
    pub valid: bool,
    /// SHA-256 of the canonical text of the hashed value (`None` when the wire
    /// could not be parsed, or a pack is not an object).
    pub receipt_sha256: Option<String>,
    /// `schema` of the hashed value, when it is a string.
    pub schema: Option<String>,
    /// Distinct codes of the failed error-severity checks, in first-seen order.
    pub failures: Vec<String>,
    /// Every check, in the order it ran.
    pub checks: Vec<Check>,
    /// Evidence Packs: the recall receipts the pack binds (empty otherwise).
    pub bound_receipts: Vec<BoundReceipt>,
    /// Response bodies: the fields present in the body that the receipt does
    /// not bind (JSON-pointer patterns, `*` for any index).
    pub unbound_fields: Vec<String>,
    /// The canonical text, when requested (`include_canonical`).
    pub canonical: Option<String>,
}

/// One check: what (`code`, see [`receipt::codes`]), how it went, how much
/// it matters, where (`pointer`: a JSON pointer into the parsed wire
/// document, or `/given/...` for caller input), and why.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Check {
    /// The check's code (`receipt_hash_mismatch`, `stage_chain`, ...).
    pub code: String,
    /// `passed`, `failed` or `skipped`.
    pub status: CheckStatus,
    /// `error` (a failure makes the report invalid) or `info`.
    pub severity: Severity,
    /// Where the check looked.
    pub pointer: String,
    /// Body-binding checks: the pointer of the bound value it was compared with.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub compared_with: Option<String>,
    /// What was compared, in words.
    pub message: String,
}

/// A `recall_receipt` link of an Evidence Pack and what its body hashes to.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoundReceipt {
    /// Pointer to the link (`/evidence_graph/0`).
    pub pointer: String,
    /// The link's `artifact_hash` (`None` when absent or not a string).
    pub artifact_hash: Option<String>,
    /// SHA-256 of the canonical JSON of the bound receipt body (`None` when there is no body).
    pub receipt_sha256: Option<String>,
    /// The body's `schema`, when it is a string.
    pub schema: Option<String>,
    /// True when the body is present and hashes to `artifact_hash`.
    pub matches: bool,
}

impl Check {
    /// True for a failed check of severity `error`.
    pub fn is_failure(&self) -> bool {
        self.status == CheckStatus::Failed && self.severity == Severity::Error
    }
}

impl VerificationReport {
    /// The report object: `{valid, receipt_sha256, schema, failures,
    /// checks: [{code, status, severity, pointer, message}], bound_receipts:
    /// [{pointer, artifact_hash, receipt_sha256, schema, matches}], canonical}`.
    pub fn to_json(&self) -> Value {
        let opt = |s: &Option<String>| s.as_deref().map(Value::str).unwrap_or(Value::Null);
        let mut o = Object::with_capacity(7);
        o.push_unique("valid", Value::Bool(self.valid));
        o.push_unique("receipt_sha256", opt(&self.receipt_sha256));
        o.push_unique("schema", opt(&self.schema));
        o.push_unique("failures", Value::Array(self.failures.iter().map(|f| Value::str(f.as_str())).collect()));
        let checks = self
            .checks
            .iter()
            .map(|c| {
                let mut co = Object::with_capacity(5);
                co.push_unique("code", Value::str(c.code.as_str()));
                co.push_unique("status", Value::str(c.status.as_str()));
                co.push_unique("severity", Value::str(c.severity.as_str()));
                co.push_unique("pointer", Value::str(c.pointer.as_str()));
                if let Some(w) = &c.compared_with {
                    co.push_unique("compared_with", Value::str(w.as_str()));
                }
                co.push_unique("message", Value::str(c.message.as_str()));
                Value::Object(co)
            })
            .collect();
        o.push_unique("checks", Value::Array(checks));
        let bound = self
            .bound_receipts
            .iter()
            .map(|b| {
                let mut bo = Object::with_capacity(5);
                bo.push_unique("pointer", Value::str(b.pointer.as_str()));
                bo.push_unique("artifact_hash", opt(&b.artifact_hash));
                bo.push_unique("receipt_sha256", opt(&b.receipt_sha256));
                bo.push_unique("schema", opt(&b.schema));
                bo.push_unique("matches", Value::Bool(b.matches));
                Value::Object(bo)
            })
            .collect();
        o.push_unique("bound_receipts", Value::Array(bound));
        o.push_unique(
            "unbound_fields",
            Value::Array(self.unbound_fields.iter().map(|p| Value::str(p.as_str())).collect()),
        );
        o.push_unique("canonical", opt(&self.canonical));
        Value::Object(o)
    }
}

impl From<receipt::Report> for VerificationReport {
    fn from(report: receipt::Report) -> VerificationReport {
        let failures = report.failures().into_iter().map(String::from).collect();
        // (`failed_per_code` is bookkeeping: the summary checks are already in `checks`.)
        let receipt::Report {
            valid,
            receipt_sha256,
            canonical,
            schema,
            checks,
            bound_receipts,
            unbound_fields,
            failed_per_code: _,
        } = report;
        VerificationReport {
            valid,
            receipt_sha256,
            schema,
            failures,
            checks: checks.into_iter().map(Check::from).collect(),
            bound_receipts: bound_receipts.into_iter().map(BoundReceipt::from).collect(),
            unbound_fields,
            canonical,
        }
    }
}

impl From<receipt::Check> for Check {
    fn from(check: receipt::Check) -> Check {
        let receipt::Check { code, status, severity, pointer, compared_with, message } = check;
        Check { code: code.to_string(), status, severity, pointer, compared_with, message }
    }
}

impl From<receipt::BoundReceipt> for BoundReceipt {
    fn from(bound: receipt::BoundReceipt) -> BoundReceipt {
        let receipt::BoundReceipt { pointer, artifact_hash, receipt_sha256, schema, matches } = bound;
        BoundReceipt { pointer, artifact_hash, receipt_sha256, schema, matches }
    }
}
