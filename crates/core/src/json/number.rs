//! Python's `float(v)` and the scorer's `clamp(v)` of a JSON value.
//!
//! They live here, not in [`crate::py::float`], so that `py` stays a leaf
//! (the JSON printer needs `py::float::repr`; `py` needs nothing from `json`).

use super::value::Value;
use crate::py::float::{clamp01, int_to_f64, parse_py_float, PyFloat};

impl Value {
    /// Python `float(v)`: booleans are 0/1, integers are correctly rounded
    /// (overflow when too large for a double), strings go through Python's
    /// lenient [`parse_py_float`]; `None`, lists and dicts raise.
    ///
    /// ```
    /// use lians_score_core::json::Value;
    /// use lians_score_core::py::float::PyFloat;
    /// assert_eq!(Value::str(" 0.9 ").py_float(), PyFloat::Ok(0.9));
    /// assert_eq!(Value::Null.py_float(), PyFloat::Invalid);
    /// ```
    pub fn py_float(&self) -> PyFloat {
        match self {
            Value::Bool(b) => PyFloat::Ok(if *b { 1.0 } else { 0.0 }),
            Value::Float(f) => PyFloat::Ok(*f),
            Value::Int(digits) => int_to_f64(digits),
            Value::Str(s) => match parse_py_float(&s.to_str_lossy()) {
                Some(f) => PyFloat::Ok(f),
                None => PyFloat::Invalid,
            },
            Value::Null | Value::Array(_) | Value::Object(_) => PyFloat::Invalid,
        }
    }

    /// The scorer's `clamp(v)`: [`Value::py_float`] (a failed conversion gives
    /// 0.0), then [`clamp01`]. Integers too large for a double raise
    /// OverflowError in the reference; they are outside every validated API
    /// input, and give 0.0 here (the same as +inf would).
    ///
    /// ```
    /// use lians_score_core::json::Value;
    /// assert_eq!(Value::str("0.9").clamp01(), 0.9);
    /// assert_eq!(Value::Bool(true).clamp01(), 1.0);
    /// assert_eq!(Value::str("nan").clamp01(), 0.0);
    /// ```
    pub fn clamp01(&self) -> f64 {
        match self.py_float() {
            PyFloat::Ok(f) => clamp01(f),
            PyFloat::Invalid | PyFloat::Overflow => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamp_of_json_values() {
        assert_eq!(Value::Null.clamp01(), 0.0);
        assert_eq!(Value::Bool(true).clamp01(), 1.0);
        assert_eq!(Value::str("0.9").clamp01(), 0.9);
        assert_eq!(Value::str("nan").clamp01(), 0.0);
        assert_eq!(Value::int(2).clamp01(), 1.0);
        assert_eq!(Value::Int("1".repeat(400).into()).py_float(), PyFloat::Overflow);
    }
}
