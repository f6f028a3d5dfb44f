//! Python float semantics the reference depends on.
//!
//! * [`repr`]: `str(float)` / `repr(float)` text (shortest round-trip digits,
//!   Python's switch between fixed and exponent notation).
//! * [`round6`]: `round(x, 6)`, correctly rounded from the exact binary value.
//! * [`sum_py312`]: CPython 3.12's `sum()` of floats (Neumaier compensated
//!   summation), which decides the sixth decimal of some final scores.
//! * [`parse_py_float`]: `float(str)` with Python's leniency (Py-space
//!   stripping, `_` digit grouping, non-ASCII decimal digits, nan/inf
//!   spellings).
//! * [`clamp01`]: the scorer's `clamp` with Python's `max`/`min` tie
//!   semantics (never returns `-0.0`).
//! * [`parse_f64`]: the one correctly rounded decimal reader; with
//!   [`int_str`] (`str(int(x))`) and [`RustDisplay`] (the reports' Rust-style
//!   float text) the float printing and reading of the whole crate, in exact
//!   decimal arithmetic without tables, so the wasm carries neither core's
//!   float formatting (Grisu/Dragon) nor its parser's compiled-in
//!   power-of-five table (`parse_f64`'s Eisel–Lemire step computes the same
//!   table at first use, `py::float::lemire`).
//!
//! **The decimal reader is this module's, not core's, by measurement**
//! (BENCHMARKS.md, "Numbers"): Rust core's `str::parse::<f64>` would add
//! 13.5 KB gzip to the wasm (its power-of-five table and slow path), past the
//! 200 KB budget. `parse_f64` runs core's fast algorithms (Clinger, then
//! Eisel–Lemire on a table computed at first use) and falls back to its own
//! exact decimal arithmetic only where they cannot decide; it is correctly
//! rounded for every length and exponent (any number of digits, 800 kept
//! plus a sticky digit) and linear in its input. It is proven against CPython's
//! `float()` and `json.loads` by `tests/numbers/` (offline 10,000,000
//! adversarial spellings, 200,000 per CI run). Every number path of the
//! crate reads through it: JSON float lexemes and integers (`int_to_f64`),
//! Python `float(str)` ([`parse_py_float`]), the seconds of a time delta
//! (`py::time`), the wasm and review conversions of integers.
//!
//! This module knows nothing about JSON (the `json` printer depends on it, not
//! the other way round); `float(v)` and `clamp(v)` of a JSON value are
//! [`crate::json::Value::py_float`] and [`crate::json::Value::clamp01`].
//!
//! One file per job: `repr` (printing), `shortest` (the shortest digits),
//! `exact` (exact decimal arithmetic), `parse` (+ `lemire`: reading),
//! `lenient` (`float(str)`), `round` (rounding and sums).

mod exact;
mod lemire;
mod lenient;
mod parse;
mod repr;
mod round;
mod shortest;

pub use lenient::parse_py_float;
pub use parse::{int_to_f64, parse_f64, PyFloat};
pub use repr::{int_str, repr, write_repr, write_repr_general, RustDisplay};
pub use round::{clamp01, clamp_to, round6, round6_exact, sum_py312};

// The crate-private helpers, for the sibling modules (`use super::*`) and the tests.
use exact::*;
#[cfg(test)]
use parse::*;
use repr::*;
use shortest::*;

#[cfg(test)]
mod tests;
