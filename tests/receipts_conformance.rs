//! Every public receipt conformance case from `tests/data/conformance/receipts/cases.jsonl`
//! (vendored from `../shared` by `scripts/refresh-conformance.sh`; `LIANS_SHARED` points elsewhere),
//! replayed natively by the CLI's `verify-replay` (the same `cli::run` the binary calls) and judged by the
//! reference's own checker, `check_receipts.py` (receipt hash, `valid`, the failure codes, the canonical
//! text). The repo restates none of its rules: this is the one native receipt conformance run, and its
//! output (`test-output/native-receipts.jsonl`) is what `scripts/test-all.sh` byte-compares the wasm
//! replay with. A missing folder fails the test unless `LIANS_ALLOW_NO_SHARED=1`.

mod common;

#[test]
fn every_public_receipt_case_matches() {
    let Some(base) = common::shared_dir("conformance/receipts/cases.jsonl") else { return };
    let dir = base.join("conformance/receipts");
    let checker = base.join("conformance/check_receipts.py");
    let total =
        common::replay_and_check("verify-replay", &[dir.join("cases.jsonl")], &checker, &dir, "native-receipts.jsonl");
    assert!(total > 0, "no cases in {}", dir.display());
    eprintln!("{total} receipt cases match");
}
