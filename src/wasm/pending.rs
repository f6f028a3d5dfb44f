//! Bridges from the binding to the core APIs the `receipts` branch
//! provides (canonical JSON printer, receipt verifiers, sha256, compact
//! writer). This file started as the wasm branch's stand-ins; on the `bench`
//! branch (where `receipts` is merged) each function simply forwards to the
//! real implementation, so the benchmarks exercise real code. The wasm branch
//! is expected to replace this module with direct `use`s.

use crate::json::{self, Value};
use crate::receipt;
use crate::Result;

pub fn canonical(v: &Value) -> Result<String> {
    Ok(json::canonical(v))
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    receipt::sha256_hex(bytes)
}

pub fn verify_recall_receipt(wire: &str, given: &Value) -> Result<Value> {
    Ok(receipt::verify_recall_receipt(wire, given).to_json())
}

pub fn verify_context_receipt(wire: &str, given: &Value) -> Result<Value> {
    Ok(receipt::verify_context_receipt(wire, given).to_json())
}

pub fn verify_evidence_pack(wire: &str, options: &Value) -> Result<Value> {
    Ok(receipt::verify_evidence_pack(wire, options).to_json())
}

pub fn write_compact(v: &Value) -> String {
    json::to_json_string(v)
}
