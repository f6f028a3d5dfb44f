//! Replaying the receipt conformance cases (`conformance/receipts/cases.jsonl`):
//! shared by the `verify-replay` CLI and the conformance test.
//!
//! A case is `{"id", "kind", "wire", "wire_repeat"?, "given"?, "expected", ...}`;
//! its answer is `{"id","receipt_sha256","valid","failures","canonical"}`.

use crate::json::{Object, Value};

/// Canonical texts longer than this are not printed (the checker never
/// compares them; the longest expected one is ~20 kB).
pub const MAX_PRINTED_CANONICAL: usize = 1 << 20;

/// Apply `wire_repeat`: replace the single occurrence of each `marker` with
/// `text` repeated `count` times.
pub fn expand_wire(case: &Value) -> Result<String, String> {
    let wire = case.get("wire").and_then(Value::as_str).ok_or("case has no string `wire`")?;
    let mut wire = wire.to_string();
    if let Some(repeats) = case.get("wire_repeat").and_then(Value::as_array) {
        for r in repeats {
            let marker = r.get("marker").and_then(Value::as_str).ok_or("wire_repeat.marker")?;
            let text = r.get("text").and_then(Value::as_str).ok_or("wire_repeat.text")?;
            let count: usize = match r.get("count") {
                Some(Value::Int(d)) => d.parse().map_err(|_| "wire_repeat.count")?,
                _ => return Err("wire_repeat.count".into()),
            };
            let at = wire.find(marker).ok_or_else(|| format!("marker {marker:?} not in wire"))?;
            let mut expanded = String::with_capacity(wire.len() + text.len() * count);
            expanded.push_str(&wire[..at]);
            for _ in 0..count {
                expanded.push_str(text);
            }
            expanded.push_str(&wire[at + marker.len()..]);
            wire = expanded;
        }
    }
    Ok(wire)
}

/// Replay one case (already parsed): the checker row of its report.
pub fn replay_case(case: &Value) -> Result<Value, String> {
    let id = case.get("id").cloned().ok_or("case has no id")?;
    let kind = case.get("kind").and_then(Value::as_str).ok_or("case has no kind")?;
    let wire = expand_wire(case)?;
    let mut given = match case.get("given") {
        Some(Value::Object(o)) => o.clone(),
        _ => Object::new(),
    };
    given.insert("include_canonical", Value::Bool(true));
    let given = Value::Object(given);
    let report = match kind {
        "recall" => super::verify_recall_receipt(&wire, &given),
        "context" => super::verify_context_receipt(&wire, &given),
        "evidence_pack" => super::verify_evidence_pack(&wire, &given),
        "canonical" => super::verify_canonical(&wire, &given),
        other => return Err(format!("unknown kind {other:?}")),
    };
    let mut row = Object::new();
    row.push_unique("id", id);
    row.push_unique("receipt_sha256", report.receipt_sha256.as_deref().map(Value::str).unwrap_or(Value::Null));
    row.push_unique("valid", Value::Bool(report.valid));
    row.push_unique("failures", Value::Array(report.failures.iter().map(|c| Value::str(c.as_str())).collect()));
    let canonical = match report.canonical {
        Some(c) if c.len() <= MAX_PRINTED_CANONICAL => Value::str(c),
        _ => Value::Null,
    };
    row.push_unique("canonical", canonical);
    Ok(Value::Object(row))
}
