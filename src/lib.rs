//! # lians-score
//!
//! The deterministic Lians memory scorer and receipt verifier, exact to the
//! Python reference (CPython 3.12, Unicode 15.0), as a pure Rust library.
//! The WebAssembly binding (`wasm.rs`) is the only place that knows about
//! JavaScript; everything else works on plain JSON-shaped data.
//!
//! Data flows one way: **wire text or JSON-shaped input → Python-exact
//! primitives → rules → result or report.**
//!
//! | module | job |
//! |---|---|
//! | [`api`] | the JSON-level façade every binding calls (`score_memory`, `evaluate_admission`, `rescore_review_item`, ...) |
//! | [`limits`] | the documented input caps (sizes, depth, counts) and their typed errors |
//! | [`json`] | Python's JSON model: one lexeme-preserving parser, one printer (canonical = `json.dumps(sort_keys=True, separators=(",", ":"))`) |
//! | [`py`] | Python semantics the rules need: float repr/round/sum, datetimes, Unicode 15.0 tables |
//! | [`text`] | head/tail sample, tokenizer, durable/date/ephemeral signals |
//! | [`metadata`] | public-metadata test and bounded flattening |
//! | [`score`] | the seven components, weights, gates, breakdown object |
//! | [`admission`] | risk detectors, admission decision, reserved-metadata attach, approval |
//! | [`rank`] | stable tie order, rank-calibration-v1, stage records, recall blend |
//! | [`receipt`] | recall/context receipt and Evidence Pack verification reports |
//! | [`audit`] | recall audit: re-derive the server's scores from a recall response |
//! | [`review`] | review-queue re-scoring: held, approved, trusted review, inputs inferred from the stored breakdown, drift |
//! | [`replay`] | conformance-vector replay shared by the CLI and the wasm package |
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

pub mod admission;
pub mod api;
pub mod audit;
pub mod batch;
pub mod cli;
pub mod error;
pub mod json;
pub mod limits;
pub mod metadata;
#[cfg(test)]
mod perf_reference;
pub mod py;
pub mod rank;
pub mod receipt;
pub mod replay;
pub mod review;
pub mod score;
pub mod text;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::{Error, ErrorCode, Result};
