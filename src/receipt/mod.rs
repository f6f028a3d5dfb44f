//! Receipt and Evidence Pack verification (spec `ranking-receipts.md` §1–8,
//! the receipt conformance README's checks and failure codes).
//!
//! Every entry point returns a [`Report`]: findings are data, never errors
//! or panics. The wasm binding and the CLI call exactly these:
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
//! mirrored fields must agree with what the receipt binds ([`body`]). What
//! `valid` proves: the receipt hashes as pinned, and every bound field the
//! client reads agrees with it (integrity). It does not prove who produced
//! it (an Evidence Pack signature does), nor that the scores follow the
//! published rules (the recall audit re-derives them). The report's
//! `unbound_fields` lists what the receipt does not cover.

mod base64;
pub mod body;
mod checks;
pub mod context;
pub mod evidence;
pub mod given;
pub mod hash;
pub mod recall;
pub mod replay;
pub mod report;

pub use base64::decode_strict as base64_decode_strict;
pub use context::verify_context_receipt;
pub use evidence::verify_evidence_pack;
pub use hash::{sha256_hex, sha256_text};
pub use recall::verify_recall_receipt;
pub use report::{codes, BoundReceipt, Check, Report, Severity, Status};

use crate::json::{self, Value};
use crate::Result;

/// Parse `wire` (as CPython's `json.loads`) and return its canonical text
/// (PyJSON, spec §1) and that text's SHA-256 hex.
pub fn canonicalize(wire: &str) -> Result<(String, String)> {
    let value = json::parse(wire)?;
    let text = json::canonical(&value);
    let sha = sha256_hex(text.as_bytes());
    Ok((text, sha))
}

/// Verify any JSON document: the hash is over the whole document; only
/// parse failures and a differing `given.expected_sha256`
/// (`receipt_hash_mismatch`) are reported. NaN is valid here.
pub fn verify_canonical(wire: &str, given: &Value) -> Report {
    let mut report = Report::new();
    let g = given::Given::read(given, &mut report);
    let Some(doc) = checks::parse_wire(wire, &mut report) else {
        return report;
    };
    let text = json::canonical(&doc);
    let sha = sha256_hex(text.as_bytes());
    report.schema = doc.get("schema").and_then(Value::as_str).map(str::to_string);
    if let Some(expected) = &g.expected_sha256 {
        let ok = checks::hex_eq(&expected.to_str_lossy(), &sha);
        report.check(
            ok,
            codes::RECEIPT_HASH_MISMATCH,
            "/given/expected_sha256",
            format!("pinned {} vs recomputed {}", expected, sha),
        );
    }
    report.receipt_sha256 = Some(sha);
    if g.include_canonical {
        report.canonical = Some(text);
    }
    report.finish();
    report
}
