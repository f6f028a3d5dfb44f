//! Reading JSON values as the reference compares them: numbers by value,
//! Python `==` (`1 == 1.0`, objects by key), absent as `null`.

use std::collections::HashMap;

use crate::json::{Object, PyStr, Value};
use crate::py::float::{int_to_f64, PyFloat};

/// A JSON number as a double (bools and other types are not numbers).
pub(super) fn number(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Float(f) => Some(*f),
        Value::Int(d) => match int_to_f64(d) {
            PyFloat::Ok(f) => Some(f),
            _ => None,
        },
        _ => None,
    }
}

/// The bound value as sent, `null` when absent.
pub(super) fn bound(v: Option<&Value>) -> Value {
    v.cloned().unwrap_or(Value::Null)
}

/// Python `==` on JSON values: `1 == 1.0`, objects by key, NaN never equal.
pub(super) fn py_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            matches!((number(Some(a)), number(Some(b))), (Some(x), Some(y)) if x == y)
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| py_eq(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() {
                return false;
            }
            // Small objects (breakdowns) by scan, same position first; large
            // ones through an index, so a hostile body cannot make the
            // comparison quadratic (keys are unique after parsing).
            if x.len() <= 32 {
                return x.members().iter().zip(y.members()).all(|((k, v), (k2, w))| {
                    let w = if k == k2 { Some(w) } else { y.get_py(k) };
                    w.is_some_and(|w| py_eq(v, w))
                });
            }
            let ys = y.members();
            let index: HashMap<&[u8], usize> = ys.iter().enumerate().map(|(i, (k, _))| (k.as_bytes(), i)).collect();
            x.iter().all(|(k, v)| index.get(k.as_bytes()).is_some_and(|&i| py_eq(v, &ys[i].1)))
        }
        _ => a == b,
    }
}

trait GetPy {
    fn get_py(&self, key: &PyStr) -> Option<&Value>;
}

impl GetPy for Object {
    fn get_py(&self, key: &PyStr) -> Option<&Value> {
        self.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}
