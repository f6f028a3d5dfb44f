//! The batch scorer (`batch::score_candidates*`) against one `api::score_memory`
//! call per candidate, byte for byte, on every public `score_memory` vector
//! input (values and errors):
//!
//! * all inputs as one JSON Lines text with no shared inputs;
//! * each input split into `shared` (`reference_time`, `purpose`, `query`)
//!   and the candidate (the rest), which must score as the merged object;
//! * the same vectors as one JSON-array text and as values.

use std::path::PathBuf;

use lians_score::api;
use lians_score::json::{self, Object, Value};

fn vector_inputs() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance/scoring/score_memory.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| json::parse(l).expect("vector line").get("input").cloned().expect("input"))
        .collect()
}

fn single(input: &Value) -> String {
    json::to_json_string(&match api::score_memory(input) {
        Ok(v) => v,
        Err(e) => e.to_json(),
    })
}

#[test]
fn jsonl_without_shared_equals_single_calls() {
    let inputs = vector_inputs();
    assert!(inputs.len() > 2000);
    let mut jsonl = String::new();
    let mut want = String::new();
    for input in &inputs {
        jsonl.push_str(&json::to_json_string(input));
        jsonl.push('\n');
        want.push_str(&single(input));
        want.push('\n');
    }
    let b = api::score_candidates_text(&Value::Null, &jsonl).expect("batch");
    assert_eq!(b.results.len(), inputs.len());
    let got = b.to_jsonl();
    for (n, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "vector input {n}");
    }
    assert_eq!(got, want);
    // The same as a JSON array text and as values.
    let array = format!("[{}]", jsonl.trim_end().replace('\n', ","));
    assert_eq!(api::score_candidates_text(&Value::Null, &array).expect("array").to_jsonl(), want);
    assert_eq!(api::score_candidates(&Value::Null, &inputs).expect("values").to_jsonl(), want);
}

#[test]
fn shared_members_score_as_the_merged_object() {
    let mut checked = 0;
    for input in vector_inputs() {
        let Some(obj) = input.as_object() else { continue };
        let (mut shared, mut cand) = (Object::new(), Object::new());
        for (k, v) in obj.iter() {
            match k.as_str() {
                Some("reference_time" | "purpose" | "query") => shared.insert(k.clone(), v.clone()),
                _ => cand.insert(k.clone(), v.clone()),
            }
        }
        let shared = Value::Object(shared);
        // Shared members that are themselves invalid fail the whole call;
        // that input is covered by the test above.
        let Ok(b) = api::score_candidates(&shared, &[Value::Object(cand)]) else { continue };
        let got = json::to_json_string(&match &b.results[0] {
            Ok(bd) => bd.to_json(),
            Err(e) => e.to_json(),
        });
        let want = single(&input);
        // A candidate with several invalid members may name another one
        // first (shared members are read first); values must be identical.
        if want.starts_with("{\"error\"") {
            assert!(got.starts_with("{\"error\""), "{input:?}: {got}");
        } else {
            assert_eq!(got, want, "{input:?}");
        }
        checked += 1;
    }
    assert!(checked > 2000, "{checked}");
}
