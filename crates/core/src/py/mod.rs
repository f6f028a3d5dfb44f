//! Python semantics that the reference's rules depend on, each pinned by tests.
//!
//! The reference runs on CPython 3.12 (Unicode 15.0). Rust's `char` methods,
//! `f64` formatting and the `regex` crate follow other definitions; every
//! place where that matters goes through this module instead.

pub mod exp;
pub mod float;
pub mod string;
pub mod time;
pub mod unicode;
