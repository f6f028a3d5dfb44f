//! The input caps (`src/api/limits.rs`) never refuse a conformance input: every
//! public scoring vector's input passes the API caps, and every receipt
//! case (after `wire_repeat` expansion: 20 MiB strings, 100,000-deep
//! documents) gets exactly the same report through the capped
//! `api::verify_*` entry points as through the uncapped verifiers.

mod common;

use lians_score::api::limits;
use lians_score::json::{self, Object, Value};
use lians_score::receipt::replay::expand_wire;
use lians_score::{api, receipt};

#[test]
fn every_scoring_vector_is_within_the_caps() {
    let Some(dir) = common::shared_dir("conformance/scoring/score_memory.jsonl") else { return };
    let dir = dir.join("conformance/scoring");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines().filter(|l| !l.trim().is_empty()) {
            let vector = limits::parse_input(line).unwrap();
            let input = vector.get("input").unwrap();
            limits::check_api_input(input).unwrap_or_else(|e| panic!("{:?}: {e}", vector.get("id")));
            n += 1;
        }
    }
    assert!(n > 3000, "only {n} vectors");
}

#[test]
fn every_receipt_case_passes_the_caps_unchanged() {
    let Some(dir) = common::shared_dir("conformance/receipts/cases.jsonl") else { return };
    let text = std::fs::read_to_string(dir.join("conformance/receipts/cases.jsonl")).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case = json::parse(line).unwrap();
        let id = case.get("id").and_then(Value::as_str).unwrap().to_string();
        let wire = expand_wire(&case).unwrap();
        let mut given = match case.get("given") {
            Some(Value::Object(o)) => o.clone(),
            _ => Object::new(),
        };
        given.insert("include_canonical", Value::Bool(true));
        let given = Value::Object(given);
        let (capped, direct) = match case.get("kind").and_then(Value::as_str).unwrap() {
            "recall" => (api::verify_recall_receipt(&wire, &given), receipt::verify_recall_receipt(&wire, &given)),
            "context" => (api::verify_context_receipt(&wire, &given), receipt::verify_context_receipt(&wire, &given)),
            "evidence_pack" => (api::verify_evidence_pack(&wire, &given), receipt::verify_evidence_pack(&wire, &given)),
            _ => (api::verify_canonical(&wire, &given), receipt::verify_canonical(&wire, &given)),
        };
        let capped = capped.unwrap_or_else(|e| panic!("{id}: refused by the caps: {e}"));
        assert_eq!(json::canonical(&capped), json::canonical(&direct.to_json()), "{id}");
        n += 1;
    }
    assert!(n >= 462, "only {n} cases");
}
