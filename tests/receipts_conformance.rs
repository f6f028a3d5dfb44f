//! Every public receipt conformance case from `tests/data/conformance/receipts/cases.jsonl`
//! (vendored from `../shared` by `scripts/refresh-conformance.sh`; `LIANS_SHARED` points elsewhere).
//! A missing folder fails the test unless `LIANS_ALLOW_NO_SHARED=1`.

use std::collections::BTreeSet;

mod common;

use lians_score::json::{self, Value};
use lians_score::receipt::replay::replay_case;

fn str_set(v: Option<&Value>) -> BTreeSet<String> {
    v.and_then(Value::as_array).unwrap_or(&[]).iter().filter_map(|c| c.as_str().map(str::to_string)).collect()
}

#[test]
fn every_public_receipt_case_matches() {
    let Some(dir) = common::shared_dir("conformance/receipts/cases.jsonl") else { return };
    let path = dir.join("conformance/receipts/cases.jsonl");
    let text = std::fs::read_to_string(&path).expect("read cases.jsonl");
    let mut mismatches = Vec::new();
    let mut total = 0;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        total += 1;
        let case = json::parse(line).unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), n + 1));
        let id = case.get("id").and_then(Value::as_str).unwrap_or("?").to_string();
        let expected = case.get("expected").expect("case has expected");
        let got = match replay_case(&case) {
            Ok(v) => v,
            Err(e) => {
                mismatches.push(format!("{id}: replay error {e}"));
                continue;
            }
        };
        let mut problems = Vec::new();
        let want_sha = expected.get("receipt_sha256").and_then(Value::as_str).map(str::to_ascii_lowercase);
        let got_sha = got.get("receipt_sha256").and_then(Value::as_str).map(str::to_ascii_lowercase);
        if want_sha != got_sha {
            problems.push(format!("receipt_sha256 {want_sha:?} != {got_sha:?}"));
        }
        if expected.get("valid") != got.get("valid") {
            problems.push(format!("valid {:?} != {:?}", expected.get("valid"), got.get("valid")));
        }
        let (want_f, got_f) = (str_set(expected.get("failures")), str_set(got.get("failures")));
        if want_f != got_f {
            problems.push(format!("failures {want_f:?} != {got_f:?}"));
        }
        if let Some(Value::Str(want_c)) = expected.get("canonical") {
            match got.get("canonical") {
                Some(Value::Str(got_c)) if got_c == want_c => {}
                _ => problems.push("canonical text differs".to_string()),
            }
        }
        if !problems.is_empty() {
            mismatches.push(format!("{id}: {}", problems.join("; ")));
        }
    }
    assert!(total > 0, "no cases in {}", path.display());
    assert!(
        mismatches.is_empty(),
        "{} of {total} receipt cases differ:\n  {}",
        mismatches.len(),
        mismatches.join("\n  ")
    );
    eprintln!("{total} receipt cases match");
}
