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
