//! `lians.recall-receipt.v2` (spec `ranking-receipts.md` §2).

use super::body::{self, BodyKind};
use super::checks;
use super::given::Given;
use super::hash::sha256_hex;
use super::report::{ReportBuilder, VerificationReport};
use crate::contract::schemas::{SchemaSpec, RECALL_RECEIPT_V2};
use crate::contract::Contract;
use crate::json::{self, Ref, Value};

/// Verify a recall receipt: `wire` is a `RecallResult` body or a bare
/// receipt, exactly as received; `given` holds what the caller also knows
/// (`query`, `contents`, `neighbor_contents`, `neighbor_metadata`,
/// `expected_sha256`, `privacy_minimal`, `include_canonical`). A body's own
/// plaintext is always bound to its receipt (the body binding, `src/receipt/body/`).
pub fn verify_recall_receipt(wire: &str, given: &Value) -> VerificationReport {
    verify_recall_receipt_with(wire, given, &Contract::LIANS)
}

/// [`verify_recall_receipt`] under `contract` (which body members are bound
/// and how): [`Contract::LIANS`] is the server's; a variant is for tests.
pub fn verify_recall_receipt_with(wire: &str, given: &Value, contract: &Contract) -> VerificationReport {
    verify(wire, given, &RECALL_RECEIPT_V2, contract, |_report, _receipt, _rptr, _given| {})
}

/// The procedure both receipt kinds share, for the contract's `schema`
/// (its id is the one the gate admits; its wire, the body's kind); `extra`
/// runs the kind's own checks after the schema gate passed.
pub(crate) fn verify(
    wire: &str,
    given: &Value,
    schema: &'static SchemaSpec,
    contract: &Contract,
    extra: impl FnOnce(&mut ReportBuilder, Ref<'_>, &str, &Given),
) -> VerificationReport {
    let mut report = ReportBuilder::new();
    let kind = BodyKind::of(schema);
    verify_into(&mut report, wire, given, schema.id, kind, contract, extra);
    report.finish()
}

fn verify_into(
    report: &mut ReportBuilder,
    wire: &str,
    given: &Value,
    schema: &str,
    kind: BodyKind,
    contract: &Contract,
    extra: impl FnOnce(&mut ReportBuilder, Ref<'_>, &str, &Given),
) {
    let g = Given::read(given, report);
    // One pass over the wire into the borrowed form: only the receipt is
    // printed canonically; contents are hashed straight from the wire bytes.
    let Some(doc) = checks::parse_wire_doc(wire, report) else {
        return;
    };
    let (receipt, rptr, body) = checks::split_doc(doc.root());
    // The canonical text is kept only when asked for; else it is hashed as
    // it is printed (it can be 3× the receipt: ensure_ascii escapes).
    let sha = if g.include_canonical {
        let canonical = json::canonical_bytes(receipt);
        // Canonical text is ASCII (ensure_ascii).
        report.out.canonical = Some(String::from_utf8_lossy(&canonical).into_owned());
        sha256_hex(&canonical)
    } else {
        json::canonical_sha256(receipt)
    };
    report.out.receipt_sha256 = Some(sha.clone());
    report.out.schema = receipt.get("schema").and_then(Ref::as_str).map(str::to_string);
    checks::pins_and_finiteness(report, receipt, rptr, body, &sha, &g);
    checks::negative_zero_ints(report, doc.root(), "the receipt and its hash");
    if !checks::schema_gate(report, receipt, rptr, schema) {
        return;
    }
    checks::common_checks(report, receipt, rptr, &g);
    extra(report, receipt, rptr, &g);
    if let Some(body) = body {
        body::bind(report, body, receipt, rptr, &sha, kind, &g, contract);
    }
}
