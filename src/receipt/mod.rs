//! Receipt and Evidence Pack verification (spec `ranking-receipts.md` §1–8,
//! the receipt conformance README's checks and failure codes).
//!
//! Every verifier returns a [`VerificationReport`] (the one report type):
//! findings are data, never errors or panics. Data flows one way: these verifiers → the typed API
//! (`lians_score::verify_*`, which applies the input caps of
//! [`crate::api::limits`]) → the JSON façade ([`crate::api`]) → the CLI and
//! the bindings. The verifiers here apply no caps (they trust their caller;
//! their cost is linear in the input) and are public for callers that bound
//! their input themselves: the benchmarks and the adversarial tests that
//! scale past the caps. The verifiers:
//!
//! * [`verify_recall_receipt`]`(wire, given)` — `lians.recall-receipt.v2`
//! * [`verify_context_receipt`]`(wire, given)` — `lians.context-receipt.v2`
//! * [`verify_evidence_pack`]`(wire, options)` — Evidence Pack v2 (Ed25519)
//! * [`verify_canonical`]`(wire, given)` — any JSON document against a pinned hash
//! * [`canonicalize`]`(wire)` — canonical text and its SHA-256
//!
//! `wire` is always the exact text received; `given`/`options` is an object
//! with the conformance `given` field names (`query`, `contents`,
//! `neighbor_contents`, `neighbor_metadata`, `context_text`, `recall_wire`,
//! `expected_sha256`, `trusted_public_key`, `expected_key_id`,
//! `allow_unsigned`, `privacy_minimal`) plus `include_canonical` (bool).
//! `null` means none.
//!
//! A response body (an object with a `receipt` member) is always bound to
//! its receipt: its own memory contents, neighbours, context text, view and
//! mirrored fields must agree with what the receipt binds (the body
//! binding, `src/receipt/body/`, with its rule table). What
//! `valid` proves: the receipt hashes as pinned, and every bound field the
//! client reads agrees with it (integrity). It does not prove who produced
//! it (an Evidence Pack signature does), nor that the scores follow the
//! published rules (the recall audit re-derives them). The report's
//! `unbound_fields` lists what the receipt does not cover.

mod base64;
mod body;
mod checks;
mod context;
mod evidence;
pub(crate) mod given;
mod hash;
mod recall;
pub mod replay;
pub(crate) mod report;

pub use context::{verify_context_receipt, verify_context_receipt_with};
pub use evidence::verify_evidence_pack;
/// Every `given` / `options` field name the verifiers know (anything else is
/// the failed check `invalid_given`).
pub use given::FIELDS as GIVEN_FIELDS;
pub use hash::{sha256_hex, sha256_text};
pub use recall::{verify_recall_receipt, verify_recall_receipt_with};
// The one report type and its parts, re-exported at the crate root (a plain comment: a doc comment here would head each item's docs).
pub use report::{BoundReceipt, Check, CheckCode, CheckStatus, Severity, VerificationReport, MAX_FAILED_PER_CODE};

use crate::json::{self, Value};
use crate::Result;
use report::ReportBuilder;

/// Parse `wire` (as CPython's `json.loads`) and return its canonical text
/// (PyJSON, spec `ranking-receipts.md` §1) and that text's SHA-256 hex.
pub fn canonicalize(wire: &str) -> Result<(String, String)> {
    let value = json::parse(wire)?;
    let text = json::canonical(&value);
    let sha = sha256_hex(text.as_bytes());
    Ok((text, sha))
}

/// Verify any JSON document: the hash is over the whole document; only
/// parse failures and a differing `given.expected_sha256`
/// (`receipt_hash_mismatch`) are reported. NaN is valid here.
pub fn verify_canonical(wire: &str, given: &Value) -> VerificationReport {
    let mut report = ReportBuilder::new();
    canonical_checks(&mut report, wire, given);
    report.finish()
}

fn canonical_checks(report: &mut ReportBuilder, wire: &str, given: &Value) {
    let g = given::Given::read(given, report);
    let Some(doc) = checks::parse_wire(wire, report) else {
        return;
    };
    let text = json::canonical(&doc);
    let sha = sha256_hex(text.as_bytes());
    report.out.schema = doc.get("schema").and_then(Value::as_str).map(str::to_string);
    if let Some(expected) = &g.expected_sha256 {
        let ok = checks::hex_eq(&expected.to_str_lossy(), &sha);
        report.check(
            ok,
            CheckCode::ReceiptHashMismatch,
            "/given/expected_sha256",
            format!("pinned {} vs recomputed {}", expected, sha),
        );
    }
    report.out.receipt_sha256 = Some(sha);
    if g.include_canonical {
        report.out.canonical = Some(text);
    }
}
