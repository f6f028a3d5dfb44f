//! The native CLI end to end: verification of the captured server samples,
//! a tampered copy, scoring from standard input, and exit statuses.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lians-score"))
}

fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/samples");
    if dir.is_dir() {
        Some(dir)
    } else if std::env::var("LIANS_ALLOW_NO_SHARED").as_deref() == Ok("1") {
        None
    } else {
        panic!("samples not found at {}", dir.display());
    }
}

#[test]
fn verifies_real_samples_and_rejects_a_tampered_copy() {
    let Some(dir) = samples() else { return };
    for file in ["recall-08-fast-filters-acme-tinyfloat.json", "context-01-deep-acme-summary.json"] {
        let out = bin().arg("verify").arg(dir.join(file)).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{file}: {text}");
        assert!(text.starts_with("{\"valid\":true"), "{file}: {text}");
    }
    let key = std::fs::read_to_string(dir.join("evidence_public_key.b64")).unwrap();
    let out = bin()
        .args(["verify-pack", dir.join("pack-01-v2-signed.json").to_str().unwrap(), "--trusted-public-key", key.trim(), "--expected-key-id", "lians-real-test-key"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));

    // Change one digit of the tiny float the server wrote as 1e-7.
    let wire = std::fs::read_to_string(dir.join("recall-08-fast-filters-acme-tinyfloat.json")).unwrap();
    assert!(wire.contains("1e-7"));
    let tampered = wire.replacen("1e-7", "2e-7", 1);
    let mut child = bin().args(["verify", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(tampered.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("receipt_hash_mismatch"));
}

#[test]
fn scores_jsonl_from_stdin_and_reports_bad_lines() {
    let mut child = bin().args(["score", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"content\":\"thanks\",\"reference_time\":\"2026-08-01T00:00:00+00:00\",\"event_time\":\"2026-08-01T00:00:00+00:00\"}\n{\"content\":1,\"reference_time\":\"2026-08-01\"}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].contains("\"final_score\":0.5325"), "{}", lines[0]);
    assert!(lines[1].contains("\"error\":\"wrong_type\"") && lines[1].contains("\"path\":\"/content\""), "{}", lines[1]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(bin().arg("nonsense").output().unwrap().status.code(), Some(2));
    assert_eq!(bin().args(["score", "/definitely/missing.json"]).output().unwrap().status.code(), Some(2));
    assert!(bin().arg("--help").output().unwrap().status.success());
}

fn run_stdin(args: &[&str], input: &str) -> (Option<i32>, String) {
    let mut child = bin().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn verify_binds_the_body_and_privacy_minimal_skips_contents() {
    let Some(dir) = samples() else { return };
    let wire = std::fs::read_to_string(dir.join("recall-08-fast-filters-acme-tinyfloat.json")).unwrap();
    let original = "Acme Corp's annual recurring revenue is $48,500";
    assert!(wire.contains(original));
    let tampered = wire.replacen(original, "Acme Corp's annual recurring revenue is $98,500", 1);
    // Both the memory content and the receipt view's copy changed.
    let (code, out) = run_stdin(&["verify", "-"], &tampered);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("\"failures\":[\"content_hash_mismatch\"]"), "{out}");
    assert!(out.contains("\"pointer\":\"/memories/0/content\",\"compared_with\":\"/receipt/results/0/content_hash\""), "{out}");
    assert!(out.contains("privacy-minimal"), "the failure names the HMAC possibility: {out}");
    let (code, out) = run_stdin(&["verify", "-", "--privacy-minimal"], &tampered);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("\"status\":\"skipped\""), "{out}");
}

#[test]
fn verify_applies_the_api_input_caps() {
    let Some(dir) = samples() else { return };
    let wire = std::fs::read_to_string(dir.join("recall-08-fast-filters-acme-tinyfloat.json")).unwrap();
    // More `given.contents` entries than limits::MAX_GIVEN_ENTRIES.
    let entries: Vec<String> = (0..lians_score::limits::MAX_GIVEN_ENTRIES + 1).map(|i| format!("\"id{i}\":\"c\"")).collect();
    let given = std::env::temp_dir().join(format!("lians-cli-given-{}.json", std::process::id()));
    std::fs::write(&given, format!("{{\"contents\":{{{}}}}}", entries.join(","))).unwrap();
    let (code, out) = run_stdin(&["verify", "-", "--given", given.to_str().unwrap()], &wire);
    std::fs::remove_file(&given).ok();
    assert_eq!(code, Some(1), "{out}");
    assert!(out.starts_with("{\"error\":\"too_large\""), "{out}");
}
