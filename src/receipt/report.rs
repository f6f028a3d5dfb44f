//! Verification reports: findings as data, never exceptions.
//!
//! The verifier builds a [`Report`] (check codes are `&'static str`, so a
//! passing check allocates only its pointer and message); its public, owned
//! and (de)serializable form, and the one report printer, is
//! [`crate::VerificationReport`].

use crate::json::Value;

/// Failure codes (the conformance README's set) plus `invalid_given`.
pub mod codes {
    pub const MALFORMED_JSON: &str = "malformed_json";
    pub const NESTING_TOO_DEEP: &str = "nesting_too_deep";
    pub const UNSUPPORTED_SCHEMA: &str = "unsupported_schema";
    pub const RECEIPT_HASH_MISMATCH: &str = "receipt_hash_mismatch";
    pub const QUERY_HASH_MISMATCH: &str = "query_hash_mismatch";
    pub const CONTENT_HASH_MISMATCH: &str = "content_hash_mismatch";
    pub const NEIGHBOR_HASH_MISMATCH: &str = "neighbor_hash_mismatch";
    pub const CONTEXT_HASH_MISMATCH: &str = "context_hash_mismatch";
    pub const RETRIEVAL_RECEIPT_MISMATCH: &str = "retrieval_receipt_mismatch";
    pub const SCORE_MISMATCH: &str = "score_mismatch";
    pub const ORDER_VIOLATION: &str = "order_violation";
    pub const NON_FINITE_NUMBER: &str = "non_finite_number";
    pub const MANIFEST_HASH_MISMATCH: &str = "manifest_hash_mismatch";
    pub const PACK_HASH_MISMATCH: &str = "pack_hash_mismatch";
    pub const SIGNATURE_INVALID: &str = "signature_invalid";
    pub const UNSIGNED_PACK: &str = "unsigned_pack";
    pub const UNTRUSTED_KEY: &str = "untrusted_key";
    pub const KEY_ID_MISMATCH: &str = "key_id_mismatch";
    /// Body binding: a response body's plaintext field disagrees with what
    /// its receipt binds (see `receipt::body`).
    pub const BODY_MISMATCH: &str = "body_mismatch";
    /// A field of the caller's `given`/`options` object has the wrong type.
    /// (Text that is not JSON in `recall_wire` or neighbour metadata is
    /// reported under the mismatch code it prevents checking.) Not a finding about the
    /// receipt, but it makes the report invalid: the requested check could
    /// not run.
    pub const INVALID_GIVEN: &str = "invalid_given";

    // Informational checks (severity `info`): reported, never failures.
    pub const STAGE_CHAIN: &str = "stage_chain";
    pub const RANK_CALIBRATION: &str = "rank_calibration";
}

/// The outcome of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Passed,
    Failed,
    Skipped,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
        }
    }
}

/// Whether a failed check makes the report invalid (`Error`) or is only
/// informational (`Info`: consistency checks beyond the conformance set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Info => "info",
        }
    }
}

/// One check: what (`code`), how it went, where (`pointer`, a JSON pointer
/// into the parsed wire document, or `/given/...` for caller input), what
/// it was compared with (`compared_with`, a pointer into the same document,
/// e.g. the receipt field a body field must agree with), and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub code: &'static str,
    pub status: Status,
    pub severity: Severity,
    pub pointer: String,
    /// The bound value's pointer, for body-binding checks.
    pub compared_with: Option<String>,
    pub message: String,
}

/// A `recall_receipt` link of an Evidence Pack and what its body hashes to.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundReceipt {
    /// Pointer to the link (`/evidence_graph/0`).
    pub pointer: String,
    /// The link's `artifact_hash` (None when absent or not a string).
    pub artifact_hash: Option<String>,
    /// SHA-256 of the PyJSON of `metadata.receipt` (None when there is no body).
    pub receipt_sha256: Option<String>,
    /// The body's `schema`, when it is a string.
    pub schema: Option<String>,
    /// True when the body is present and hashes to `artifact_hash`.
    pub matches: bool,
}

/// The result of verifying a receipt, a pack or a canonical document.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// True exactly when no error-severity check failed.
    pub valid: bool,
    /// SHA-256 of the canonical text of the hashed value (None when the wire
    /// could not be parsed, or a pack is not an object).
    pub receipt_sha256: Option<String>,
    /// The canonical text itself, when requested (`include_canonical`).
    pub canonical: Option<String>,
    /// `schema` of the hashed value, when it is a string.
    pub schema: Option<String>,
    pub checks: Vec<Check>,
    /// Evidence Packs: the recall receipts the pack binds.
    pub bound_receipts: Vec<BoundReceipt>,
    /// Response bodies: the fields present in the body that the receipt does
    /// **not** bind (JSON-pointer patterns, `*` for any index). A change to
    /// one of them is not detected; do not rely on them.
    pub unbound_fields: Vec<String>,
    /// Failed checks per code so far, and where each code's summary check
    /// is once [`MAX_FAILED_PER_CODE`] are listed (see [`Report::fail_against`]).
    pub(crate) failed_per_code: Vec<FailCount>,
}

/// At most this many failed checks of one code are listed in a report; the
/// rest are counted in one summary check of that code (failed, at the first
/// omitted failure's pointer: "and 1,199,912 more `body_mismatch` failures,
/// first at ..."). A hostile body of a million failing entries then gives a
/// report of a bounded size in linear time.
pub const MAX_FAILED_PER_CODE: usize = 100;

/// How many failures of one code a [`Report`] has seen.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FailCount {
    code: &'static str,
    failed: usize,
    /// Index in `checks` of the summary check, once there is one.
    summary: Option<usize>,
}

impl Default for Report {
    fn default() -> Self {
        Report::new()
    }
}

impl Report {
    pub fn new() -> Report {
        Report {
            valid: true,
            receipt_sha256: None,
            canonical: None,
            schema: None,
            checks: Vec::new(),
            bound_receipts: Vec::new(),
            unbound_fields: Vec::new(),
            failed_per_code: Vec::new(),
        }
    }

    /// True while failed checks of `code` are still listed one by one (fewer
    /// than [`MAX_FAILED_PER_CODE`] so far): callers building a costly
    /// pointer or message may count the failure with [`Report::omit`] instead.
    pub fn lists_failures_of(&self, code: &'static str) -> bool {
        self.failed_per_code.iter().find(|c| c.code == code).map_or(true, |c| c.failed < MAX_FAILED_PER_CODE)
    }

    /// Count one more failure of `code` past the listed ones (its pointer
    /// is built only for the first one omitted). Makes the report invalid.
    pub fn omit(&mut self, code: &'static str, severity: Severity, pointer: impl FnOnce() -> String) {
        if severity == Severity::Error {
            self.valid = false;
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
            count.summary = Some(self.checks.len());
            let pointer = pointer();
            let message = summary_message(code, 1, &pointer);
            self.checks.push(Check { code, status: Status::Failed, severity, pointer, compared_with: None, message });
        }
    }

    /// Write the summary checks' final counts (the verifiers call this once,
    /// before returning the report; [`Report::omit`] only counts).
    pub fn finish(&mut self) {
        for count in &self.failed_per_code {
            if let Some(at) = count.summary {
                let omitted = count.failed.saturating_sub(MAX_FAILED_PER_CODE);
                let check = &mut self.checks[at];
                check.message = summary_message(count.code, omitted, &check.pointer);
            }
        }
    }

    fn push(&mut self, code: &'static str, status: Status, severity: Severity, pointer: &str, message: String) {
        self.push_against(code, status, severity, pointer, None, message);
    }

    fn push_against(
        &mut self,
        code: &'static str,
        status: Status,
        severity: Severity,
        pointer: &str,
        compared_with: Option<&str>,
        message: String,
    ) {
        if status == Status::Failed {
            if !self.lists_failures_of(code) {
                return self.omit(code, severity, || pointer.to_string());
            }
            match self.failed_per_code.iter_mut().find(|c| c.code == code) {
                Some(c) => c.failed += 1,
                None => self.failed_per_code.push(FailCount { code, failed: 1, summary: None }),
            }
        }
        if status == Status::Failed && severity == Severity::Error {
            self.valid = false;
        }
        let compared_with = compared_with.map(str::to_string);
        self.checks.push(Check { code, status, severity, pointer: pointer.to_string(), compared_with, message });
    }

    /// A failure of `pointer` against the value at `compared_with`.
    pub fn fail_against(&mut self, code: &'static str, pointer: &str, compared_with: &str, message: impl Into<String>) {
        self.push_against(code, Status::Failed, Severity::Error, pointer, Some(compared_with), message.into());
    }

    /// A pass or a failure of `pointer` against the value at `compared_with`.
    pub fn check_against(
        &mut self,
        ok: bool,
        code: &'static str,
        pointer: &str,
        compared_with: &str,
        message: impl Into<String>,
    ) {
        let status = if ok { Status::Passed } else { Status::Failed };
        self.push_against(code, status, Severity::Error, pointer, Some(compared_with), message.into());
    }

    pub fn pass(&mut self, code: &'static str, pointer: &str, message: impl Into<String>) {
        self.push(code, Status::Passed, Severity::Error, pointer, message.into());
    }

    pub fn fail(&mut self, code: &'static str, pointer: &str, message: impl Into<String>) {
        self.push(code, Status::Failed, Severity::Error, pointer, message.into());
    }

    pub fn skip(&mut self, code: &'static str, pointer: &str, message: impl Into<String>) {
        self.push(code, Status::Skipped, Severity::Error, pointer, message.into());
    }

    /// Record a pass or a failure.
    pub fn check(&mut self, ok: bool, code: &'static str, pointer: &str, message: impl Into<String>) {
        if ok {
            self.pass(code, pointer, message);
        } else {
            self.fail(code, pointer, message);
        }
    }

    /// An informational check: its failure does not make the report invalid.
    pub fn info(&mut self, ok: bool, code: &'static str, pointer: &str, message: impl Into<String>) {
        let status = if ok { Status::Passed } else { Status::Failed };
        self.push(code, status, Severity::Info, pointer, message.into());
    }

    /// Distinct codes of failed error-severity checks, in first-seen order.
    pub fn failures(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for c in &self.checks {
            if c.status == Status::Failed && c.severity == Severity::Error && !out.contains(&c.code) {
                out.push(c.code);
            }
        }
        out
    }

    /// The report object, printed by the one report printer,
    /// [`crate::VerificationReport::to_json`] (this clones the report; the
    /// façade converts it by value instead).
    pub fn to_json(&self) -> Value {
        crate::VerificationReport::from(self.clone()).to_json()
    }
}

/// "and 1,199,912 more `body_mismatch` failures, first at /...".
fn summary_message(code: &str, omitted: usize, first: &str) -> String {
    format!(
        "and {} more `{code}` failure{}, first at {first} (a report lists at most {MAX_FAILED_PER_CODE} failed checks per code)",
        thousands(omitted),
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
pub use crate::json::pointer::join as pointer;
