//! # lians-score-core
//!
//! The Python-exact primitives under `lians-score`: every module here is
//! re-exported there under the same name, and that is where to use them.
//!
//! | module | job |
//! |---|---|
//! | [`json`] | Python's JSON model: one lexeme-preserving parser, one printer (canonical = `json.dumps(sort_keys=True, separators=(",", ":"))`), JSON pointers ([`json::pointer`]) |
//! | [`py`] | Python semantics the rules need: the `str` type ([`json::PyStr`], in `py::string`), float repr/round/sum, datetimes, Unicode 15.0 tables |
//! | [`hash`] | SHA-256 as lowercase hex |
//! | [`text`] | head/tail sample, tokenizer, durable/date/ephemeral signals |
//! | [`utf8`] | UTF-8 from JavaScript read once: validation and the U+FFFD check in one pass (SIMD128 in wasm) |
//! | [`utf16`] | UTF-8 from a JavaScript string's UTF-16 units (the Node wrapper copies them in; SIMD128 in wasm) |
//! | [`error`] | the one error type: code, message, JSON pointer; its JSON row ([`Error::to_json`], printed by `json`) |
//!
//! ## Why a crate of its own
//!
//! These are the loops every workload spends its time in (parsing and
//! printing wire JSON, hashing, casefolding and tokenizing content), and
//! they are small. Cargo chooses the optimization level per crate, so the
//! WebAssembly build compiles this crate at `opt-level = 3` and everything
//! else (rules, receipts, reports, the CLI) at `opt-level = "z"`: most of
//! the speed of an all-`3` build at a fraction of its size (the figures are
//! in `lians-score`'s BENCHMARKS.md). Nothing here depends on the rest.
//!
//! ## Layers
//!
//! Bottom to top, each module using only those below it (checked by
//! `tests/layering.rs` of `lians-score`): `error`; `py`, `hash`, `utf8` and `utf16`; `json`;
//! `text`.

#![warn(missing_docs)]

pub mod error;
pub mod hash;
pub mod json;
pub mod py;
#[cfg(feature = "serde")]
mod serde_support;
pub mod text;
pub mod utf16;
pub mod utf8;

pub use error::{Error, ErrorCode, Result};
pub use py::time::PyDateTime;
