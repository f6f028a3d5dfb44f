//! The verification report, built directly by the verifiers: findings as
//! data, never exceptions.
//!
//! One set of types ([`VerificationReport`], [`Check`], [`CheckCode`],
//! [`CheckStatus`], [`Severity`], [`BoundReceipt`], re-exported from the
//! crate root) and one printer ([`VerificationReport::to_json`], the report
//! object the JSON façade, the CLI and the bindings print). The verifiers
//! fill a crate-internal `ReportBuilder`, which counts failures per code
//! (at most [`MAX_FAILED_PER_CODE`] listed, the rest summarised) and
//! hands over the finished report.
//!
//! ```
//! use lians_score::{json::Value, verify_canonical, CheckCode};
//! let report = verify_canonical(r#"{"b":1,"a":1.0}"#, &Value::Null).unwrap();
//! assert!(report.valid);
//! assert_eq!(report.receipt_sha256.as_deref().map(str::len), Some(64));
//! assert_eq!(CheckCode::ALL.iter().find(|c| c.as_str() == "body_mismatch"), Some(&CheckCode::BodyMismatch));
//! ```

use std::fmt;

use crate::json::{Object, Value};

/// What a check is about: the receipt conformance README's failure codes,
/// `invalid_given`, and the informational codes (`stage_chain`,
/// `rank_calibration`). Printed as its snake_case name ([`CheckCode::as_str`]);
/// new codes may be added ([`CheckCode::ALL`] lists them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CheckCode {
    /// The wire text is not JSON as CPython's `json.loads` reads it.
    MalformedJson,
    /// The wire nests arrays/objects deeper than the parser's limit.
    NestingTooDeep,
    /// The hashed value is not an object of the verified schema (hash-only otherwise).
    UnsupportedSchema,
    /// A pinned receipt hash (`given.expected_sha256`, the body's `receipt_sha256`, a bound receipt's `artifact_hash`) differs from the recomputed one.
    ReceiptHashMismatch,
    /// SHA256-TEXT(`given.query`) differs from `query_sha256`.
    QueryHashMismatch,
    /// A memory content (given, or the body's own) differs from its bound `content_hash`.
    ContentHashMismatch,
    /// A neighbour's content or metadata differs from its bound `context_neighbors` entry.
    NeighborHashMismatch,
    /// The context text (given, or the body's own) differs from `context_sha256`.
    ContextHashMismatch,
    /// The recall receipt (`given.recall_wire`) does not hash to `retrieval_receipt_sha256`.
    RetrievalReceiptMismatch,
    /// A result's `score` differs from its `score_breakdown.final_score`.
    ScoreMismatch,
    /// Result scores increase somewhere.
    OrderViolation,
    /// The hashed value holds a NaN or an infinity (the server would have sent `null`).
    NonFiniteNumber,
    /// Outside what is hashed (a response body's other members; an Evidence
    /// Pack's `signature`, `manifest_hash`, `pack_hash`), the wire holds
    /// `NaN`, `Infinity`, `-Infinity` or a number beyond the float range:
    /// `JSON.parse` / `res.json()` reject the first three outright, and no
    /// server sends any of them (Python's encoder would have refused them).
    NonJsonNumber,
    /// An Evidence Pack's `manifest_hash` differs from the recomputed one.
    ManifestHashMismatch,
    /// An Evidence Pack's `pack_hash` differs from the recomputed one.
    PackHashMismatch,
    /// An Evidence Pack's Ed25519 signature does not verify.
    SignatureInvalid,
    /// An Evidence Pack is unsigned and `allow_unsigned` was not given.
    UnsignedPack,
    /// An Evidence Pack is signed by another key than `trusted_public_key`.
    UntrustedKey,
    /// An Evidence Pack's key id differs from `expected_key_id`.
    KeyIdMismatch,
    /// Body binding: a response body's plaintext field disagrees with what its
    /// receipt binds (see the body binding in `src/receipt/body/`).
    BodyMismatch,
    /// A field of the caller's `given`/`options` object has the wrong type or an
    /// unknown name. (Text that is not JSON in `recall_wire` or neighbour
    /// metadata is reported under the mismatch code it prevents checking.) Not
    /// a finding about the receipt, but it makes the report invalid: the
    /// requested check could not run.
    InvalidGiven,
    /// Informational: a result's ranking-stage chain is inconsistent.
    StageChain,
    /// Informational: a rank-calibration-v1 record does not recompute from its input.
    RankCalibration,
}

impl CheckCode {
    /// Every code, failure codes first, then the informational ones.
    pub const ALL: &'static [CheckCode] = &[
        CheckCode::MalformedJson,
        CheckCode::NestingTooDeep,
        CheckCode::UnsupportedSchema,
        CheckCode::ReceiptHashMismatch,
        CheckCode::QueryHashMismatch,
        CheckCode::ContentHashMismatch,
        CheckCode::NeighborHashMismatch,
        CheckCode::ContextHashMismatch,
        CheckCode::RetrievalReceiptMismatch,
        CheckCode::ScoreMismatch,
        CheckCode::OrderViolation,
        CheckCode::NonFiniteNumber,
        CheckCode::NonJsonNumber,
        CheckCode::ManifestHashMismatch,
        CheckCode::PackHashMismatch,
        CheckCode::SignatureInvalid,
        CheckCode::UnsignedPack,
        CheckCode::UntrustedKey,
        CheckCode::KeyIdMismatch,
        CheckCode::BodyMismatch,
        CheckCode::InvalidGiven,
        CheckCode::StageChain,
        CheckCode::RankCalibration,
    ];

    /// The stable snake_case name of this code (`body_mismatch`).
    pub const fn as_str(self) -> &'static str {
        match self {
            CheckCode::MalformedJson => "malformed_json",
            CheckCode::NestingTooDeep => "nesting_too_deep",
            CheckCode::UnsupportedSchema => "unsupported_schema",
            CheckCode::ReceiptHashMismatch => "receipt_hash_mismatch",
            CheckCode::QueryHashMismatch => "query_hash_mismatch",
            CheckCode::ContentHashMismatch => "content_hash_mismatch",
            CheckCode::NeighborHashMismatch => "neighbor_hash_mismatch",
            CheckCode::ContextHashMismatch => "context_hash_mismatch",
            CheckCode::RetrievalReceiptMismatch => "retrieval_receipt_mismatch",
            CheckCode::ScoreMismatch => "score_mismatch",
            CheckCode::OrderViolation => "order_violation",
            CheckCode::NonFiniteNumber => "non_finite_number",
            CheckCode::NonJsonNumber => "non_json_number",
            CheckCode::ManifestHashMismatch => "manifest_hash_mismatch",
            CheckCode::PackHashMismatch => "pack_hash_mismatch",
            CheckCode::SignatureInvalid => "signature_invalid",
            CheckCode::UnsignedPack => "unsigned_pack",
            CheckCode::UntrustedKey => "untrusted_key",
            CheckCode::KeyIdMismatch => "key_id_mismatch",
            CheckCode::BodyMismatch => "body_mismatch",
            CheckCode::InvalidGiven => "invalid_given",
            CheckCode::StageChain => "stage_chain",
            CheckCode::RankCalibration => "rank_calibration",
        }
    }

    /// True for the codes whose checks are informational (severity `info`):
    /// reported, never failures.
    pub const fn is_informational(self) -> bool {
        matches!(self, CheckCode::StageChain | CheckCode::RankCalibration)
    }

    /// The code named `name` (`None` for an unknown name).
    pub fn from_name(name: &str) -> Option<CheckCode> {
        CheckCode::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for CheckCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for CheckCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for CheckCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// The outcome of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckStatus {
    /// The check ran and held.
    Passed,
    /// The check ran and did not hold.
    Failed,
    /// The check could not run (nothing to compare with); the message says why.
    Skipped,
}

impl CheckStatus {
    /// `passed`, `failed` or `skipped`.
    pub const fn as_str(self) -> &'static str {
        match self {
            CheckStatus::Passed => "passed",
            CheckStatus::Failed => "failed",
            CheckStatus::Skipped => "skipped",
        }
    }
}

/// Whether a failed check makes the report invalid (`Error`) or is only
/// informational (`Info`: consistency checks beyond the conformance set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// A failure makes the report invalid.
    Error,
    /// Reported, never a failure.
    Info,
}

impl Severity {
    /// `error` or `info`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Info => "info",
        }
    }
}

/// One check: what (`code`), how it went, how much it matters, where
/// (`pointer`: a JSON pointer into the parsed wire document, or
/// `/given/...` for caller input), what it was compared with
/// (`compared_with`, a pointer into the same document, e.g. the receipt
/// field a body field must agree with), and why.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Check {
    /// The check's code (`receipt_hash_mismatch`, `stage_chain`, ...).
    pub code: CheckCode,
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

impl Check {
    /// True for a failed check of severity `error`.
    pub fn is_failure(&self) -> bool {
        self.status == CheckStatus::Failed && self.severity == Severity::Error
    }
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

/// The result of one verification (a recall/context receipt, an Evidence
/// Pack or a canonical document): valid or not, the recomputed hash, and
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
    pub failures: Vec<CheckCode>,
    /// Every check, in the order it ran.
    pub checks: Vec<Check>,
    /// Evidence Packs: the recall receipts the pack binds (empty otherwise).
    pub bound_receipts: Vec<BoundReceipt>,
    /// Response bodies: the fields present in the body that the receipt does
    /// **not** bind (JSON-pointer patterns, `*` for any index). A change to
    /// one of them is not detected; do not rely on them.
    pub unbound_fields: Vec<String>,
    /// The canonical text, when requested (`include_canonical`).
    pub canonical: Option<String>,
}

impl VerificationReport {
    /// The report object, the one report printer: `{valid, receipt_sha256,
    /// schema, failures, checks: [{code, status, severity, pointer,
    /// compared_with?, message}], bound_receipts: [{pointer, artifact_hash,
    /// receipt_sha256, schema, matches}], unbound_fields, canonical}`.
    pub fn to_json(&self) -> Value {
        let opt = |s: &Option<String>| s.as_deref().map(Value::str).unwrap_or(Value::Null);
        let mut o = Object::with_capacity(8);
        o.push_unique("valid", Value::Bool(self.valid));
        o.push_unique("receipt_sha256", opt(&self.receipt_sha256));
        o.push_unique("schema", opt(&self.schema));
        o.push_unique("failures", Value::Array(self.failures.iter().map(|f| Value::str(f.as_str())).collect()));
        let checks = self
            .checks
            .iter()
            .map(|c| {
                let mut co = Object::with_capacity(6);
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

/// At most this many failed checks of one code are listed in a report; the
/// rest are counted in one summary check of that code (failed, at the first
/// omitted failure's pointer: "and 1,199,912 more `body_mismatch` failures,
/// first at ..."). A hostile body of a million failing entries then gives a
/// report of a bounded size in linear time.
pub const MAX_FAILED_PER_CODE: usize = 100;

/// How many failures of one code a [`ReportBuilder`] has seen.
#[derive(Clone, Debug)]
struct FailCount {
    code: CheckCode,
    failed: usize,
    /// Index in `checks` of the summary check, once there is one.
    summary: Option<usize>,
}

/// A report under construction: the verifiers record checks here (a
/// passing check allocates only its pointer and message) and set the
/// report's other fields on [`ReportBuilder::out`]; [`ReportBuilder::finish`]
/// writes the summary counts and the `failures` list.
#[derive(Debug)]
pub(crate) struct ReportBuilder {
    /// The report being built (`checks` and `valid` only through the methods).
    pub(crate) out: VerificationReport,
    /// Failed checks per code so far, and where each code's summary check
    /// is once [`MAX_FAILED_PER_CODE`] are listed.
    failed_per_code: Vec<FailCount>,
}

impl ReportBuilder {
    pub(crate) fn new() -> ReportBuilder {
        ReportBuilder {
            out: VerificationReport {
                valid: true,
                receipt_sha256: None,
                schema: None,
                failures: Vec::new(),
                checks: Vec::new(),
                bound_receipts: Vec::new(),
                unbound_fields: Vec::new(),
                canonical: None,
            },
            failed_per_code: Vec::new(),
        }
    }

    /// True while failed checks of `code` are still listed one by one (fewer
    /// than [`MAX_FAILED_PER_CODE`] so far): callers building a costly
    /// pointer or message may count the failure with [`ReportBuilder::omit`] instead.
    pub(crate) fn lists_failures_of(&self, code: CheckCode) -> bool {
        self.failed_per_code.iter().find(|c| c.code == code).map_or(true, |c| c.failed < MAX_FAILED_PER_CODE)
    }

    /// Count one more failure of `code` past the listed ones (its pointer
    /// is built only for the first one omitted). Makes the report invalid.
    pub(crate) fn omit(&mut self, code: CheckCode, severity: Severity, pointer: impl FnOnce() -> String) {
        if severity == Severity::Error {
            self.out.valid = false;
        }
        let i = match self.failed_per_code.iter().position(|c| c.code == code) {
            Some(i) => i,
            None => {
                self.failed_per_code.push(FailCount { code, failed: 0, summary: None });
                self.failed_per_code.len() - 1
            }
        };
        let count = &mut self.failed_per_code[i];
        count.failed += 1;
        if count.summary.is_none() {
            count.summary = Some(self.out.checks.len());
            let pointer = pointer();
            let message = summary_message(code, 1, &pointer);
            self.out.checks.push(Check {
                code,
                status: CheckStatus::Failed,
                severity,
                pointer,
                compared_with: None,
                message,
            });
        }
    }

    /// The finished report: the summary checks' final counts written
    /// ([`ReportBuilder::omit`] only counts) and `failures` listed.
    pub(crate) fn finish(self) -> VerificationReport {
        let ReportBuilder { mut out, failed_per_code } = self;
        for count in &failed_per_code {
            if let Some(at) = count.summary {
                let omitted = count.failed.saturating_sub(MAX_FAILED_PER_CODE);
                let check = &mut out.checks[at];
                check.message = summary_message(count.code, omitted, &check.pointer);
            }
        }
        let mut failures: Vec<CheckCode> = Vec::new();
        for c in &out.checks {
            if c.is_failure() && !failures.contains(&c.code) {
                failures.push(c.code);
            }
        }
        out.failures = failures;
        out
    }

    /// True when an error-severity check of `code` has failed so far.
    pub(crate) fn has_failed(&self, code: CheckCode) -> bool {
        self.out.checks.iter().any(|c| c.code == code && c.is_failure())
    }

    fn push(&mut self, code: CheckCode, status: CheckStatus, severity: Severity, pointer: &str, message: String) {
        self.push_against(code, status, severity, pointer, None, message);
    }

    fn push_against(
        &mut self,
        code: CheckCode,
        status: CheckStatus,
        severity: Severity,
        pointer: &str,
        compared_with: Option<&str>,
        message: String,
    ) {
        if status == CheckStatus::Failed {
            if !self.lists_failures_of(code) {
                return self.omit(code, severity, || pointer.to_string());
            }
            match self.failed_per_code.iter_mut().find(|c| c.code == code) {
                Some(c) => c.failed += 1,
                None => self.failed_per_code.push(FailCount { code, failed: 1, summary: None }),
            }
        }
        if status == CheckStatus::Failed && severity == Severity::Error {
            self.out.valid = false;
        }
        let compared_with = compared_with.map(str::to_string);
        self.out.checks.push(Check { code, status, severity, pointer: pointer.to_string(), compared_with, message });
    }

    /// A failure of `pointer` against the value at `compared_with`.
    pub(crate) fn fail_against(
        &mut self,
        code: CheckCode,
        pointer: &str,
        compared_with: &str,
        message: impl Into<String>,
    ) {
        self.push_against(code, CheckStatus::Failed, Severity::Error, pointer, Some(compared_with), message.into());
    }

    /// A pass or a failure of `pointer` against the value at `compared_with`.
    pub(crate) fn check_against(
        &mut self,
        ok: bool,
        code: CheckCode,
        pointer: &str,
        compared_with: &str,
        message: impl Into<String>,
    ) {
        let status = if ok { CheckStatus::Passed } else { CheckStatus::Failed };
        self.push_against(code, status, Severity::Error, pointer, Some(compared_with), message.into());
    }

    pub(crate) fn pass(&mut self, code: CheckCode, pointer: &str, message: impl Into<String>) {
        self.push(code, CheckStatus::Passed, Severity::Error, pointer, message.into());
    }

    pub(crate) fn fail(&mut self, code: CheckCode, pointer: &str, message: impl Into<String>) {
        self.push(code, CheckStatus::Failed, Severity::Error, pointer, message.into());
    }

    pub(crate) fn skip(&mut self, code: CheckCode, pointer: &str, message: impl Into<String>) {
        self.push(code, CheckStatus::Skipped, Severity::Error, pointer, message.into());
    }

    /// Record a pass or a failure.
    pub(crate) fn check(&mut self, ok: bool, code: CheckCode, pointer: &str, message: impl Into<String>) {
        if ok {
            self.pass(code, pointer, message);
        } else {
            self.fail(code, pointer, message);
        }
    }

    /// An informational check: its failure does not make the report invalid.
    pub(crate) fn info(&mut self, ok: bool, code: CheckCode, pointer: &str, message: impl Into<String>) {
        let status = if ok { CheckStatus::Passed } else { CheckStatus::Failed };
        self.push(code, status, Severity::Info, pointer, message.into());
    }
}

/// "and 1,199,912 more `body_mismatch` failures, first at /...".
fn summary_message(code: CheckCode, omitted: usize, first: &str) -> String {
    format!(
        "and {} more `{}` failure{}, first at {first} (a report lists at most {MAX_FAILED_PER_CODE} failed checks per code)",
        thousands(omitted),
        code.as_str(),
        if omitted == 1 { "" } else { "s" }
    )
}

/// `n` with a comma every three digits (`1,199,912`).
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Append a reference token to a JSON pointer (RFC 6901 escaping): the
/// core's [`crate::json::pointer::join`].
pub(crate) use crate::json::pointer::join as pointer;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_listed_once_with_a_distinct_name() {
        let mut names: Vec<&str> = CheckCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(CheckCode::from_name("body_mismatch"), Some(CheckCode::BodyMismatch));
        assert_eq!(CheckCode::from_name("nope"), None);
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CheckCode::ALL.len());
        // Informational codes last.
        let first_info = CheckCode::ALL.iter().position(|c| c.is_informational()).unwrap();
        assert!(CheckCode::ALL[first_info..].iter().all(|c| c.is_informational()));
    }
}
