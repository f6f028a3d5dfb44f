//! `lians.context-receipt.v2` (spec `ranking-receipts.md` §3).

use super::checks::{self, hex_eq, sha256_pystr};
use super::given::{Given, MetadataInput};
use super::report::{pointer, CheckCode, ReportBuilder, VerificationReport};
use crate::contract::schemas::CONTEXT_RECEIPT_V2;
use crate::contract::Contract;
use crate::json::{self, Ref, Value};

/// Verify a context receipt: `wire` is a `ContextResult` body or a bare
/// receipt; `given` may add `context_text` and `recall_wire` (the recall
/// response or bare recall receipt this receipt must point to) to the recall
/// fields.
pub fn verify_context_receipt(wire: &str, given: &Value) -> VerificationReport {
    verify_context_receipt_with(wire, given, &Contract::LIANS)
}

/// [`verify_context_receipt`] under `contract` (which body members are
/// bound and how): [`Contract::LIANS`] is the server's; a variant is for tests.
pub fn verify_context_receipt_with(wire: &str, given: &Value, contract: &Contract) -> VerificationReport {
    super::recall::verify(wire, given, &CONTEXT_RECEIPT_V2, contract, context_checks)
}

fn context_checks(report: &mut ReportBuilder, receipt: Ref<'_>, rptr: &str, given: &Given) {
    if let Some(text) = &given.context_text {
        let h = sha256_pystr(text);
        let got = receipt.get("context_sha256");
        let ok = got.and_then(Ref::as_str).map(|s| hex_eq(s, &h)).unwrap_or(false);
        report.check(
            ok,
            CheckCode::ContextHashMismatch,
            &pointer(rptr, "context_sha256"),
            format!(
                "SHA256(context_text) {h} vs receipt {}",
                got.map(|v| json::write::write(v, json::WriteOptions::COMPACT)).unwrap_or("missing".into())
            ),
        );
    }
    if let Some(recall) = &given.recall_wire {
        let parsed;
        let doc = match recall {
            MetadataInput::Value(v) => v,
            MetadataInput::Text(t) => match json::parse(&t.to_str_lossy()) {
                Ok(v) => {
                    parsed = v;
                    &parsed
                }
                Err(e) => {
                    // No recall receipt can be recomputed, so nothing matches.
                    report.fail(
                        CheckCode::RetrievalReceiptMismatch,
                        "/given/recall_wire",
                        format!("recall_wire is not JSON ({}): {}", e.code, e.message),
                    );
                    return;
                }
            },
        };
        let (recall_receipt, _, _) = checks::split_body(doc);
        let h = json::canonical_sha256(recall_receipt);
        let got = receipt.get("retrieval_receipt_sha256");
        let ok = got.and_then(Ref::as_str).map(|s| hex_eq(s, &h)).unwrap_or(false);
        report.check(
            ok,
            CheckCode::RetrievalReceiptMismatch,
            &pointer(rptr, "retrieval_receipt_sha256"),
            format!(
                "recall receipt hashes to {h}; receipt points to {}",
                got.map(|v| json::write::write(v, json::WriteOptions::COMPACT)).unwrap_or("missing".into())
            ),
        );
    }
}
