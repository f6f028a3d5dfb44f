//! The typed Rust API: verify a `POST /v1/recall` response body from its raw
//! text (body binding on: every memory's content is compared with the hash its
//! receipt binds), show that a rewritten content is caught, and score a memory.
//!
//! ```sh
//! cargo run --release --example verify_and_score                      # the vendored sample body
//! cargo run --release --example verify_and_score -- BODY.json "query"  # a body you saved (raw bytes!)
//! ```
//!
//! Exits 0 when the body verifies and the tampered copy does not, 1 otherwise.

use lians_score::json::{Object, Value};
use lians_score::{score_memory, verify_recall_receipt, PyDateTime, ScoreInput, VerificationReport};

const SAMPLE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/samples/recall-08-fast-filters-acme-tinyfloat.json");
const SAMPLE_QUERY: &str = "Acme revenue";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (path, query) = match (args.next(), args.next()) {
        (Some(path), Some(query)) => (path, query),
        (None, None) => (SAMPLE.to_string(), SAMPLE_QUERY.to_string()),
        _ => return Err("usage: verify_and_score [BODY.json QUERY]".into()),
    };
    // The raw text as received: never a re-serialized object (1e-07 vs 1e-7).
    let wire = std::fs::read_to_string(&path)?;

    // What the client holds: the query it sent.
    let mut given = Object::new();
    given.push_unique("query", Value::str(query.as_str()));
    let given = Value::Object(given);

    let report = verify_recall_receipt(&wire, &given)?;
    print_report("as received", &report);

    // A proxy rewrote the first memory's content in transit.
    let first = first_content(&wire).ok_or("the body has no memories[0].content to tamper with")?;
    let tampered = wire.replacen(&format!("\"{first}\""), &format!("\"{first} (edited)\""), 1);
    let tampered_report = verify_recall_receipt(&tampered, &given)?;
    print_report("content rewritten", &tampered_report);

    // Score a memory as the server's score_memory does (exact to the Python reference).
    let now = PyDateTime::parse("2026-08-01T00:00:00+00:00")?;
    let breakdown = score_memory(
        &ScoreInput::new("Acme renewed for two years at $48,500", now)
            .query("Acme renewal")
            .source("user_provided")
            .event_time(now),
    );
    println!(
        "score_memory: final_score {} eligible {} relevance {} (policy {})",
        breakdown.final_score, breakdown.eligible, breakdown.relevance_score, breakdown.scoring_policy_version
    );

    let ok =
        report.valid && !tampered_report.valid && tampered_report.failures.iter().any(|f| f == "content_hash_mismatch");
    std::process::exit(if ok { 0 } else { 1 });
}

fn print_report(label: &str, report: &VerificationReport) {
    println!(
        "{label}: valid {} receipt_sha256 {} failures {:?}",
        report.valid,
        report.receipt_sha256.as_deref().unwrap_or("-"),
        report.failures.iter().map(|code| code.as_str()).collect::<Vec<_>>()
    );
    for check in report.checks.iter().filter(|c| c.is_failure()) {
        println!("  failed {} at {}: {}", check.code, check.pointer, check.message);
    }
}

/// The first memory's content, if it is a plain string without escapes.
fn first_content(wire: &str) -> Option<String> {
    let body = lians_score::json::parse(wire).ok()?;
    let content = body.get("memories")?.as_array()?.first()?.get("content")?.as_str()?.to_string();
    (!content.contains(['"', '\\']) && content.is_ascii()).then_some(content)
}
