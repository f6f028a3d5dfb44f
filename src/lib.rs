//! # lians-score
//!
//! Verify what a Lians server sends, and score memories exactly as it does:
//! the recall/context receipt and Evidence Pack verifiers and the memory
//! scorer of the Python reference (`lians-sdk` 0.5.0, CPython 3.12, Unicode
//! 15.0), as a pure Rust library. The same code is the npm package
//! `lians-score` (WebAssembly).
//!
//! ## Verify a response
//!
//! Pass the **raw text** of a `POST /v1/recall` (or `/v1/context`) answer and
//! what you sent. The report binds the body's own plaintext (every memory
//! content, neighbour, the context text) to the receipt; a failed check is
//! data in the report, never an error:
//!
//! ```
//! use lians_score::{json, verify_recall_receipt};
//!
//! // The body as received: never a re-serialized object (`1e-07` is not `1e-7`).
//! let wire = include_str!("../tests/data/samples/recall-08-fast-filters-acme-tinyfloat.json");
//! let given = json::parse(r#"{"query": "Acme revenue"}"#)?; // the query you sent
//! let report = verify_recall_receipt(wire, &given)?; // Err only for input it cannot read
//! assert!(report.valid, "{:?}", report.failures);
//!
//! // A proxy rewrote the first memory's content in transit.
//! let tampered = wire.replacen("$48,500 with", "$84,500 with", 1);
//! let report = verify_recall_receipt(&tampered, &given)?;
//! assert!(!report.valid);
//! assert!(report.failures.iter().any(|code| code == "content_hash_mismatch"));
//! let failed = report.checks.iter().find(|c| c.is_failure()).unwrap();
//! assert_eq!(failed.pointer, "/memories/0/content");
//! # Ok::<(), lians_score::Error>(())
//! ```
//!
//! [`verify_context_receipt`] and [`verify_evidence_pack`] work the same way;
//! [`audit::audit_recall`] re-derives the server's scores from a recall body.
//!
//! ## Score a memory
//!
//! ```
//! use lians_score::{score_memory, PyDateTime, ScoreInput};
//!
//! let now = PyDateTime::parse("2026-08-01T00:00:00+00:00")?;
//! let breakdown = score_memory(
//!     &ScoreInput::new("NVDA guidance is $36B", now).query("NVDA guidance").source("user_provided").event_time(now),
//! );
//! assert_eq!(breakdown.final_score, 0.8475); // the reference's value, to the last bit
//! assert!(breakdown.eligible);
//! # Ok::<(), lians_score::Error>(())
//! ```
//!
//! ## The crate
//!
//! This crate is plain Rust (the WebAssembly binding is the crate
//! `lians-score-wasm`, in `crates/wasm`): a typed API
//! ([`score_memory`], [`evaluate_admission`], [`verify_recall_receipt`], ...)
//! and the JSON façade built on it ([`api`]).
//!
//! Data flows one way: **wire text or JSON-shaped input → Python-exact
//! primitives → rules → result or report.**
//!
//! | module | job |
//! |---|---|
//! | [`json`], [`py`], [`hash`], [`text`], [`error`] | the Python-exact primitives (the crate `lians-score-core`): one lexeme-preserving JSON parser and one printer (canonical = `json.dumps(sort_keys=True, separators=(",", ":"))`), float repr/round/sum, datetimes, Unicode 15.0 tables, SHA-256 hex, the tokenizer and signals, the one error type |
//! | [`contract`] | the wire contract as data: score components, risk tags, every response member (sent, type, binding, time form), the schema ids |
//! | [`scoring`] | the seven components, weights, gates, [`ScoreInput`] and [`ScoreBreakdown`]; public metadata ([`scoring::metadata`]), ranking ([`scoring::rank`]), batch scoring ([`scoring::batch`]) |
//! | [`admission`] | risk detectors and spans, [`AdmissionDecision`], reserved-metadata attach, approval; review-queue re-scoring ([`admission::review`]) |
//! | [`receipt`] | recall/context receipt and Evidence Pack verifiers, the body binding, and the one report type: [`VerificationReport`], [`Check`], [`CheckCode`] |
//! | [`audit`] | recall audit: re-derive the server's scores from a recall response |
//! | [`api`] | the JSON-level façade every binding calls; the documented input caps ([`api::limits`]) |
//! | [`cli`] | the command-line grammar and commands shared by the native and npm CLIs; conformance replay ([`cli::replay`]) |
//!
//! The WebAssembly binding is the crate `lians-score-wasm` (`crates/wasm`), the
//! only code that knows about JavaScript.
//!
//! ## Layers
//!
//! Calls go one way, bottom to top: **primitives** (`lians-score-core`'s
//! [`json`], [`py`], [`hash`], [`text`], [`error`], [`args`], the
//! keyword-argument readers, and [`contract`], the wire contract as data) → **rules** ([`scoring`], [`admission`] with
//! review, [`receipt`], [`audit`]) → **typed API** (this file)
//! → **JSON façade** ([`api`], the one place that applies the input caps)
//! → **commands** ([`cli`]) and the binding crate. A module uses only its
//! own layer and those below; `tests/layering.rs` scans `src/` for
//! `crate::…` paths that point up, and lists the one exception with its
//! reason (the typed verify functions refuse oversize input through the leaf
//! module [`api::limits`], as they always did). Rules keep only the
//! limits that are part of the algorithm (the scorer's text sample, token
//! and metadata caps of spec `scoring-admission.md` §3, [`ScoringLimits`]).
//!
//! ## The typed API
//!
//! ```
//! use lians_score::{score_memory, PyDateTime, ScoreInput};
//!
//! let now = PyDateTime::parse("2026-08-01T00:00:00+00:00")?;
//! let breakdown = score_memory(
//!     &ScoreInput::new("NVDA guidance is $36B", now).query("NVDA guidance").source("user_provided").event_time(now),
//! );
//! assert_eq!(breakdown.final_score, 0.8475);
//! assert_eq!(breakdown.relevance_score, 1.0);
//! assert!(breakdown.eligible);
//! # Ok::<(), lians_score::Error>(())
//! ```
//!
//! With the default `serde` feature every typed input and result
//! (de)serializes with the Lians wire names (`serde_json::to_string(&breakdown)`).
//! For output that is byte-exact to the Python reference (float `repr`,
//! `1e-06`, key order), print [`ScoreBreakdown::to_json`] with
//! [`json::to_json_string`], as the bindings do.
//!
//! ## The JSON façade
//!
//! [`api`] takes and returns JSON [`json::Value`]s with the same names, for
//! bindings and for input that must keep Python's number spellings:
//!
//! ```
//! use lians_score::{api, json};
//! let input = json::parse(r#"{"content":"NVDA guidance is $36B",
//!     "reference_time":"2026-08-01T00:00:00+00:00",
//!     "event_time":"2026-08-01T00:00:00+00:00",
//!     "query":"NVDA guidance","source":"user_provided"}"#).unwrap();
//! let breakdown = api::score_memory(&input).unwrap();
//! assert_eq!(breakdown.get("final_score"), Some(&json::Value::Float(0.8475)));
//! ```

#![warn(missing_docs)]

pub mod admission;
pub mod api;
pub mod args;
pub mod audit;
pub mod cli;
pub mod contract;
pub use lians_score_core::error;
pub use lians_score_core::hash;
pub use lians_score_core::json;
pub use lians_score_core::py;
pub mod receipt;
pub mod scoring;
#[cfg(feature = "serde")]
mod serde_support;
pub use lians_score_core::text;
pub use lians_score_core::utf16;
pub use lians_score_core::utf8;

pub use admission::{AdmissionAction, AdmissionDecision};
pub use error::{Error, ErrorCode, Result};
pub use py::time::PyDateTime;
pub use receipt::{BoundReceipt, Check, CheckCode, CheckStatus, Severity, VerificationReport};
pub use scoring::{ScoreBreakdown, ScoreInput, ScoringLimits, Weights};

use json::Value;

/// `score_memory(**input)`: score one memory (spec `scoring-admission.md` §4–§6).
///
/// ```
/// use lians_score::{score_memory, PyDateTime, ScoreInput};
/// let now = PyDateTime::parse("2026-08-01T00:00:00+00:00").unwrap();
/// let b = score_memory(&ScoreInput::new("thanks", now).safety_status("rejected"));
/// assert_eq!((b.final_score, b.safety_eligible), (0.0, false));
/// ```
pub fn score_memory(input: &ScoreInput) -> ScoreBreakdown {
    scoring::score_memory(input).into()
}

/// Admission `evaluate(content, source, mode, blocked_sources)` (spec `scoring-admission.md` §9.1):
/// `mode` is `enforce` (decide) or anything else (monitor: always admit, tags
/// still reported); `blocked_sources` is used as given (see
/// [`admission::normalize_blocked_sources`] for the server's setting).
pub fn evaluate_admission(
    content: &str,
    source: Option<&str>,
    mode: &str,
    blocked_sources: &[String],
) -> AdmissionDecision {
    admission::evaluate(content, source, mode, blocked_sources)
}

// The verifications: the input caps ([`api::limits::check_receipt_input`],
// a leaf function this layer and nothing above it applies), then the
// verifier, which builds the report directly.

/// Verify a `lians.recall-receipt.v2` from the raw response body (or bare
/// receipt) text. `given` is `Value::Null` or an object with what you hold
/// (`query`, `contents`, `neighbor_contents`, `neighbor_metadata`,
/// `expected_sha256`, `include_canonical`; see [`receipt`]). Findings are
/// report data; the only errors are inputs over the [`api::limits`].
pub fn verify_recall_receipt(wire: &str, given: &Value) -> Result<VerificationReport> {
    api::limits::check_receipt_input(wire, given, "the recall response")?;
    Ok(receipt::verify_recall_receipt(wire, given))
}

/// Verify a `lians.context-receipt.v2` (`given` adds `context_text` and `recall_wire`).
pub fn verify_context_receipt(wire: &str, given: &Value) -> Result<VerificationReport> {
    api::limits::check_receipt_input(wire, given, "the context response")?;
    Ok(receipt::verify_context_receipt(wire, given))
}

/// Verify an Evidence Pack v2 from its raw JSON text (`options`:
/// `trusted_public_key`, `expected_key_id`, `allow_unsigned`, `include_canonical`).
pub fn verify_evidence_pack(wire: &str, options: &Value) -> Result<VerificationReport> {
    api::limits::check_receipt_input(wire, options, "the evidence pack")?;
    Ok(receipt::verify_evidence_pack(wire, options))
}

/// Verify any JSON document's canonical hash against `given.expected_sha256`.
///
/// ```
/// use lians_score::{json, verify_canonical, CheckCode};
/// let given = json::parse(r#"{"expected_sha256":"00"}"#).unwrap();
/// let report = verify_canonical("[1, 1.0]", &given).unwrap();
/// assert_eq!(report.failures, [CheckCode::ReceiptHashMismatch]);
/// assert_eq!(report.failures, ["receipt_hash_mismatch"]);
/// ```
pub fn verify_canonical(wire: &str, given: &Value) -> Result<VerificationReport> {
    api::limits::check_receipt_input(wire, given, "the document")?;
    Ok(receipt::verify_canonical(wire, given))
}
