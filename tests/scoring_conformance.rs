//! Every public scoring vector from `tests/data/conformance/scoring` (vendored from `../shared`), replayed
//! natively by the CLI's `replay` (the same `cli::run` the binary calls) and judged by the reference's own
//! checker, `check_scoring.py` (same keys, same list order, strings and booleans equal, numbers equal after
//! rounding to 6 places, any `{"error": ...}` accepted where the reference raised). The repo restates none
//! of its rules: this is the one native conformance run, and its output (`test-output/native-scoring.jsonl`)
//! is what `scripts/test-all.sh` byte-compares the wasm replay with.
//!
//! The folder is found at `$LIANS_SHARED/conformance` or `<crate>/tests/data/conformance`. A missing folder
//! fails the test unless `LIANS_ALLOW_NO_SHARED=1` says that is expected.

mod common;

#[test]
fn every_public_scoring_vector_matches_the_reference() {
    let Some(base) = common::shared_dir("conformance/scoring") else { return };
    let dir = base.join("conformance/scoring");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "jsonl"));
    files.sort();
    assert!(!files.is_empty(), "no vector files in {}", dir.display());
    let checker = base.join("conformance/check_scoring.py");
    let total = common::replay_and_check("replay", &files, &checker, &dir, "native-scoring.jsonl");
    assert!(total > 3000, "only {total} vectors read from {}", dir.display());
}

/// `Scored::write_json` (the text the wasm `scoreMemory` parses, printed without a `Value`) is byte for
/// byte what the one printer prints for `Scored::to_json`, on every score_memory vector input and on
/// purposes of every JSON type (non-finite floats, lone surrogates, long integers, nested containers).
#[test]
fn scored_text_is_the_printed_breakdown() {
    use lians_score::json::{self, Value};
    let Some(base) = common::shared_dir("conformance/scoring") else { return };
    let text = std::fs::read_to_string(base.join("conformance/scoring/score_memory.jsonl")).unwrap();
    let purposes = [
        None,
        Some(r#""admission""#),
        Some("null"),
        Some("1"),
        Some("-0.0"),
        Some("1e400"),
        Some("NaN"),
        Some("123456789012345678901234567890"),
        Some(r#"{"a":[1,2.5,"\ud800x",{"b":null}],"":{}}"#),
        Some(r#""tab\t\"quote\" \u0000 é 😀""#),
        Some("[]"),
    ];
    let mut compared = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let vector = json::parse(line).unwrap();
        let Some(Value::Object(input)) = vector.get("input") else { continue };
        for purpose in purposes {
            let mut input = input.clone();
            if let Some(p) = purpose {
                input.insert("purpose", json::parse(p).unwrap());
            }
            let Ok(scored) = lians_score::api::score_memory_scored(&Value::Object(input)) else { continue };
            let mut out = Vec::new();
            scored.write_json(&mut out);
            assert_eq!(String::from_utf8(out).unwrap(), json::to_json_string(&scored.to_json()), "{line}");
            compared += 1;
        }
    }
    assert!(compared > 10_000, "only {compared} breakdowns compared");
}
