//! JSON as CPython's `json` module reads and writes it.
//!
//! One parser ([`parse`]) and one printer ([`write`]) serve the whole crate:
//! the scorer reads vector files and API inputs with it (object order and
//! int/float distinction matter for metadata), and the receipt verifier
//! hashes its canonical form ([`canonical`]).

mod value;

pub use value::{CodePoints, Object, PyStr, Value};

/// Deepest array/object nesting accepted by [`parse`] (`[]` has depth 1).
pub const MAX_DEPTH: usize = 512;

/// PLACEHOLDER signature: parse JSON text as CPython's `json.loads` does.
pub fn parse(_text: &str) -> crate::Result<Value> {
    Err(crate::Error::new(crate::ErrorCode::MalformedJson, "", "parser not yet implemented"))
}
