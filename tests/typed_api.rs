//! The typed API against the JSON façade and the verifier's own report
//! printer: same values, same bytes, and serde round trips with the Lians
//! wire names.

mod common;

use lians_score::json::{self, Value};
use lians_score::receipt::replay::expand_wire;
use lians_score::{api, receipt, score_memory, PyDateTime, ScoreInput};
#[cfg(feature = "serde")]
use lians_score::{ScoreBreakdown, VerificationReport};

fn lines(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| json::parse(l).unwrap()).collect()
}

/// Every score_memory vector: the typed input read back from its own JSON
/// form gives the same breakdown, and the breakdown printed by the façade is
/// the expected object byte for byte.
#[test]
fn every_score_memory_vector_through_the_typed_api() {
    let Some(dir) = common::shared_dir("conformance/scoring/score_memory.jsonl") else { return };
    let mut n = 0;
    for case in lines(&dir.join("conformance/scoring/score_memory.jsonl")) {
        let (Some(input), Some(expected)) = (case.get("input"), case.get("expected")) else { continue };
        if expected.get("error").is_some() {
            continue;
        }
        let Ok(typed) = ScoreInput::from_json(input) else { continue };
        let breakdown = score_memory(&typed);
        assert_eq!(json::to_json_string(&breakdown.to_json()), json::to_json_string(expected), "{case:?}");
        assert_eq!(api::score_memory(input).unwrap(), breakdown.to_json());
        let again = ScoreInput::from_json(&typed.to_json()).unwrap();
        assert_eq!(again, typed, "to_json/from_json round trip");
        n += 1;
    }
    assert!(n > 1000, "only {n} vectors");
}

/// Every receipt case: the typed API returns the verifier's report
/// unchanged (within the caps), and `failures` lists the failed codes. (What it prints is
/// checked against the recorded reports by tests/receipts_conformance.rs.)
#[test]
fn every_receipt_case_typed_report_equals_the_verifier_report() {
    let Some(dir) = common::shared_dir("conformance/receipts/cases.jsonl") else { return };
    let mut n = 0;
    for case in lines(&dir.join("conformance/receipts/cases.jsonl")) {
        let wire = expand_wire(&case).unwrap();
        if wire.len() > lians_score::api::limits::MAX_TEXT_BYTES {
            continue;
        }
        let mut given = case.get("given").cloned().unwrap_or(Value::Null);
        if let Value::Object(o) = &mut given {
            o.insert("include_canonical", Value::Bool(true));
        }
        let (report, typed) = match case.get("kind").and_then(Value::as_str) {
            Some("recall") => {
                (receipt::verify_recall_receipt(&wire, &given), lians_score::verify_recall_receipt(&wire, &given))
            }
            Some("context") => {
                (receipt::verify_context_receipt(&wire, &given), lians_score::verify_context_receipt(&wire, &given))
            }
            Some("evidence_pack") => {
                (receipt::verify_evidence_pack(&wire, &given), lians_score::verify_evidence_pack(&wire, &given))
            }
            Some("canonical") => {
                (receipt::verify_canonical(&wire, &given), lians_score::verify_canonical(&wire, &given))
            }
            other => panic!("kind {other:?}"),
        };
        let Ok(typed) = typed else { continue };
        let id = case.get("id");
        // One report type: the typed API returns the verifier's report as built.
        assert_eq!(typed, report, "{id:?}");
        let failures: Vec<&str> = typed.failures.iter().map(|c| c.as_str()).collect();
        let mut listed: Vec<&str> = Vec::new();
        for c in typed.checks.iter().filter(|c| c.is_failure()) {
            if !listed.contains(&c.code.as_str()) {
                listed.push(c.code.as_str());
            }
        }
        assert_eq!(failures, listed, "{id:?}");
        assert_eq!(typed.valid, typed.checks.iter().all(|c| !c.is_failure()));
        n += 1;
    }
    assert!(n > 400, "only {n} cases");
}

#[test]
fn builder_matches_the_json_input() {
    let now = PyDateTime::parse("2026-08-01T00:00:00+00:00").unwrap();
    let typed = ScoreInput::new("NVDA guidance is $36B", now)
        .query("NVDA guidance")
        .source("user_provided")
        .event_time(now)
        .risk_tags(["mnpi"])
        .safety_status("approved");
    let from_json = ScoreInput::from_json(
        &json::parse(
            r#"{"content":"NVDA guidance is $36B","reference_time":"2026-08-01T00:00:00+00:00",
                "query":"NVDA guidance","source":"user_provided","event_time":"2026-08-01T00:00:00+00:00",
                "risk_tags":["mnpi"],"safety_status":"approved"}"#,
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(typed, from_json);
    assert_eq!(score_memory(&typed), score_memory(&from_json));
}

#[cfg(feature = "serde")]
#[test]
fn serde_uses_the_wire_names_and_round_trips() {
    let now = PyDateTime::parse("2026-08-01T00:00:00+00:00").unwrap();
    let input = ScoreInput::new("Alice prefers window seats", now).query("window").importance(0.9);
    let text = serde_json::to_string(&input).unwrap();
    assert!(
        text.starts_with(r#"{"content":"Alice prefers window seats","reference_time":"2026-08-01T00:00:00+00:00""#),
        "{text}"
    );
    let back: ScoreInput = serde_json::from_str(&text).unwrap();
    assert_eq!(back, input);
    // Deserializing applies the façade's validation.
    let err =
        serde_json::from_str::<ScoreInput>(r#"{"content":"x","reference_time":"2026-08-01","nope":1}"#).unwrap_err();
    assert!(err.to_string().contains("unknown argument `nope`"), "{err}");

    let breakdown = score_memory(&input);
    let text = serde_json::to_string(&breakdown).unwrap();
    let wire = json::to_json_string(&breakdown.to_json());
    // Same keys in the same order as the wire object; numbers may be spelled differently (1e-6 vs 1e-06).
    let keys = |t: &str| -> Vec<String> {
        match json::parse(t).unwrap() {
            Value::Object(o) => o.iter().map(|(k, _)| k.to_str_lossy().into_owned()).collect(),
            _ => unreachable!(),
        }
    };
    assert_eq!(keys(&text), keys(&wire));
    let back: ScoreBreakdown = serde_json::from_str(&text).unwrap();
    assert_eq!(back, breakdown);
    let back: ScoreBreakdown = serde_json::from_str(&wire).unwrap();
    assert_eq!(back, breakdown);

    let report = lians_score::verify_canonical(r#"{"a":[1,1.0]}"#, &Value::Null).unwrap();
    let text = serde_json::to_string(&report).unwrap();
    assert_eq!(text, json::to_json_string(&report.to_json()));
    let back: VerificationReport = serde_json::from_str(&text).unwrap();
    assert_eq!(back, report);

    let decision = lians_score::evaluate_admission("mail me at a@example.com", None, "enforce", &[]);
    let text = serde_json::to_string(&decision).unwrap();
    assert_eq!(text, json::to_json_string(&decision.to_json()));
    assert_eq!(serde_json::from_str::<lians_score::AdmissionDecision>(&text).unwrap(), decision);
}

#[cfg(feature = "serde")]
#[test]
fn json_values_keep_ints_floats_and_order_through_serde() {
    let v = json::parse(r#"{"z":1,"a":1.0,"big":123456789012345678901234567890,"s":"é","n":null,"l":[true]}"#).unwrap();
    let text = serde_json::to_string(&v).unwrap();
    assert_eq!(text, r#"{"z":1,"a":1.0,"big":123456789012345678901234567890,"s":"é","n":null,"l":[true]}"#);
    let back: Value = serde_json::from_str(r#"{"z":1,"a":1.0,"z":2}"#).unwrap();
    assert_eq!(json::to_json_string(&back), r#"{"z":2,"a":1.0}"#);
}

#[test]
fn an_unknown_argument_names_its_key_as_an_escaped_pointer() {
    // RFC 6901: `~` as `~0`, `/` as `~1`, so the pointer names the one key (it was `/a/b~c`).
    let input = json::parse(r#"{"content":"x","reference_time":"2026-08-01T00:00:00+00:00","a/b~c":1}"#).unwrap();
    let err = ScoreInput::from_json(&input).unwrap_err();
    assert_eq!(err.path, "/a~1b~0c");
    assert_eq!(api::score_memory(&input).unwrap_err().path, "/a~1b~0c");
    let plain = json::parse(r#"{"content":"x","reference_time":"2026-08-01T00:00:00+00:00","nope":1}"#).unwrap();
    assert_eq!(ScoreInput::from_json(&plain).unwrap_err().path, "/nope");
}
