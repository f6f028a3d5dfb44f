//! Every public scoring vector from `tests/data/conformance/scoring` (vendored from `../shared`), replayed
//! through the same code path as the CLI (`replay::run_vector`) and compared
//! the way `check_scoring.py` compares: same keys, same list order, strings
//! and booleans equal, numbers equal after rounding to 6 places, and any
//! `{"error": ...}` accepted where the reference raised.
//!
//! The folder is found at `$LIANS_SHARED/conformance` or
//! `<crate>/tests/data/conformance`. A missing folder fails the test unless
//! `LIANS_ALLOW_NO_SHARED=1` says that is expected.

use std::path::PathBuf;

use lians_score::json::{self, Value};
use lians_score::py::float::round6;
use lians_score::replay::run_vector;

fn shared_dir() -> Option<PathBuf> {
    let base = std::env::var_os("LIANS_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data"));
    let dir = base.join("conformance/scoring");
    if dir.is_dir() {
        Some(dir)
    } else if std::env::var("LIANS_ALLOW_NO_SHARED").as_deref() == Ok("1") {
        None
    } else {
        panic!("conformance vectors not found at {} (set LIANS_SHARED or LIANS_ALLOW_NO_SHARED=1)", dir.display());
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Float(f) => Some(*f),
        Value::Int(d) => d.parse().ok(),
        _ => None,
    }
}

/// `None` when equal, else the path of the first difference.
fn diff(expected: &Value, actual: &Value, path: &str) -> Option<String> {
    if let Value::Object(e) = expected {
        if e.len() == 1 && e.contains_key("error") {
            return if actual.get("error").is_some() { None } else { Some(path.to_string()) };
        }
    }
    match (expected, actual) {
        (Value::Bool(a), Value::Bool(b)) if a == b => None,
        (Value::Null, Value::Null) => None,
        (Value::Str(a), Value::Str(b)) if a == b => None,
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            let (a, b) = (number(expected)?, number(actual)?);
            let same = if a.is_finite() && b.is_finite() {
                round6(a) == round6(b)
            } else {
                a == b || (a.is_nan() && b.is_nan())
            };
            (!same).then(|| path.to_string())
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return Some(format!("{path} (length {} vs {})", a.len(), b.len()));
            }
            a.iter().zip(b).enumerate().find_map(|(i, (x, y))| diff(x, y, &format!("{path}[{i}]")))
        }
        (Value::Object(a), Value::Object(b)) => {
            if a.len() != b.len() || a.iter().any(|(k, _)| !b.iter().any(|(k2, _)| k2 == k)) {
                return Some(format!("{path} (keys differ)"));
            }
            a.iter().find_map(|(k, v)| {
                let other = b.iter().find(|(k2, _)| *k2 == k).map(|(_, v)| v)?;
                diff(v, other, &format!("{path}.{k}"))
            })
        }
        _ => Some(path.to_string()),
    }
}

#[test]
fn every_public_scoring_vector_matches_the_reference() {
    let Some(dir) = shared_dir() else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "jsonl"));
    files.sort();
    assert!(!files.is_empty(), "no vector files in {}", dir.display());
    let (mut total, mut failures) = (0usize, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let vector = json::parse(line).expect("vector line is JSON");
            let expected = vector.get("expected").expect("vector has expected");
            let actual = run_vector(&vector);
            total += 1;
            if let Some(at) = diff(expected, &actual, "expected") {
                let id = vector.get("id").map(json::to_json_string).unwrap_or_default();
                failures.push(format!(
                    "{id} at {at}\n    expected: {}\n    actual:   {}",
                    json::to_json_string(expected).chars().take(300).collect::<String>(),
                    json::to_json_string(&actual).chars().take(300).collect::<String>()
                ));
            }
        }
    }
    assert!(total > 3000, "only {total} vectors read from {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} of {total} scoring vectors differ from the reference:\n{}",
        failures.len(),
        failures.iter().take(25).cloned().collect::<Vec<_>>().join("\n")
    );
}
