//! Regression vectors found by the reference-as-oracle differential test
//! (tests/oracle/, scripts/oracle.sh): each line of
//! `tests/data/oracle/regressions.jsonl` is a conformance-format vector whose
//! `expected` was recorded from the reference (`oracle.py record`). The
//! replay must print exactly the expected JSON (same keys, order, types and
//! doubles); where the reference raised, any typed error is accepted.

use lians_score::cli::replay;
use lians_score::json::{self, Value};

#[test]
fn oracle_regressions_replay_exactly() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/oracle/regressions.jsonl")).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let vector = json::parse(line).unwrap();
        let id = vector.get("id").and_then(Value::as_str).unwrap().to_string();
        let expected = vector.get("expected").unwrap();
        let actual = replay::run_vector(&vector);
        if expected.as_object().is_some_and(|o| o.len() == 1 && o.get("error").is_some()) {
            assert!(
                actual.get("error").is_some(),
                "{id}: the reference raised, the port returned {}",
                json::to_json_string(&actual)
            );
        } else {
            assert_eq!(json::to_json_string(&actual), json::to_json_string(expected), "{id}");
        }
        n += 1;
    }
    assert!(n >= 7, "only {n} regression vectors");
}
