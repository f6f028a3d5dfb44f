//! `lians.recall-receipt.v2` (spec §2).

use super::body::{self, Kind};
use super::checks;
use super::given::Given;
use super::hash::sha256_hex;
use super::report::Report;
use crate::json::{self, Value};

pub const SCHEMA: &str = "lians.recall-receipt.v2";

/// Verify a recall receipt: `wire` is a `RecallResult` body or a bare
/// receipt, exactly as received; `given` holds what the caller also knows
/// (`query`, `contents`, `neighbor_contents`, `neighbor_metadata`,
/// `expected_sha256`, `privacy_minimal`, `include_canonical`). A body's own
/// plaintext is always bound to its receipt ([`super::body`]).
pub fn verify_recall_receipt(wire: &str, given: &Value) -> Report {
    verify(wire, given, SCHEMA, Kind::Recall, |_report, _receipt, _rptr, _given| {})
}

/// The procedure both receipt kinds share; `extra` runs the kind's own checks
/// after the schema gate passed.
pub(crate) fn verify(
    wire: &str,
    given: &Value,
    schema: &str,
    kind: Kind,
    extra: impl FnOnce(&mut Report, &Value, &str, &Given),
) -> Report {
    let mut report = Report::new();
    let g = Given::read(given, &mut report);
    let Some(doc) = checks::parse_wire(wire, &mut report) else {
        return report;
    };
    let (receipt, rptr, body) = checks::split_body(&doc);
    let canonical = json::canonical(receipt);
    let sha = sha256_hex(canonical.as_bytes());
    report.receipt_sha256 = Some(sha.clone());
    report.schema = receipt.get("schema").and_then(Value::as_str).map(str::to_string);
    if g.include_canonical {
        report.canonical = Some(canonical);
    } else {
        drop(canonical);
    }
    checks::pins_and_finiteness(&mut report, receipt, rptr, body, &sha, &g);
    if !checks::schema_gate(&mut report, receipt, rptr, schema) {
        return report;
    }
    checks::common_checks(&mut report, receipt, rptr, &g);
    extra(&mut report, receipt, rptr, &g);
    if let Some(body) = body {
        body::bind(&mut report, body, receipt, rptr, &sha, kind, &g);
    }
    report
}
