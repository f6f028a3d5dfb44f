//! JSON as CPython's `json` module reads and writes it.
//!
//! One parser ([`parse`], [`parse_bytes`]) and one printer ([`write`](mod@write)) serve
//! the whole crate: the scorer reads vector files and API inputs with it
//! (object order and int/float distinction matter for metadata), and the
//! receipt verifier hashes its canonical form ([`canonical`]).
//!
//! [`pointer`](mod@pointer) builds the JSON pointers (RFC 6901) that name a place in a
//! value: an [`Error`](crate::Error)'s `path`, a check's pointer.
//!
//! Values produced by [`parse`] nest at most [`MAX_DEPTH`] deep, so dropping
//! and inspecting them recursively is safe; the printer is iterative anyway.

mod doc;
mod error_row;
mod number;
mod parse;
pub mod pointer;
mod value;
pub mod write;

#[doc(hidden)]
pub use doc::{bytes_eq, has_replacement_char};
pub use doc::{Doc, Items, Kind, Members, Ref, Text};
pub use parse::{parse, parse_bytes, parse_doc, parse_record, DocRecords, MAX_INT_DIGITS};
pub use value::{CodePoints, Object, PyStr, Value};
pub use write::Options as WriteOptions;

/// Deepest array/object nesting accepted by [`parse`] (`[]` has depth 1).
pub const MAX_DEPTH: usize = 512;

/// The canonical text the Lians server hashes: Python
/// `json.dumps(v, sort_keys=True, separators=(",", ":"))` (ensure_ascii).
pub fn canonical(value: &Value) -> String {
    write::write(value, WriteOptions::CANONICAL)
}

/// [`canonical`] as bytes (ASCII), of an owned [`Value`] or a borrowed [`Ref`]:
/// what is hashed, without the UTF-8 check of a `String`.
pub fn canonical_bytes<'a, T: write::Tree<'a>>(value: T) -> Vec<u8> {
    let mut out = Vec::new();
    write::write_into(value, WriteOptions::CANONICAL, &mut out);
    out
}

/// Compact JSON in insertion order with raw UTF-8 (Python
/// `json.dumps(v, ensure_ascii=False, separators=(",", ":"))`), for output lines.
pub fn to_json_string(value: &Value) -> String {
    write::write(value, WriteOptions::COMPACT)
}

/// SHA-256 hex of [`canonical`]`(value)`.
pub fn canonical_sha256<'a, T: write::Tree<'a>>(value: T) -> String {
    crate::hash::sha256_hex(&canonical_bytes(value))
}
