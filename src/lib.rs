//! # lians-score
//!
//! The deterministic Lians memory scorer and receipt verifier, exact to the
//! Python reference (CPython 3.12), as a pure Rust library. The WebAssembly
//! binding lives in `wasm.rs` and is the only place that knows about
//! JavaScript.

pub mod admission;
pub mod api;
pub mod error;
pub mod json;
pub mod limits;
pub mod metadata;
pub mod py;
pub mod rank;
pub mod text;
pub mod receipt;
pub mod replay;
pub mod score;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::{Error, ErrorCode, Result};
