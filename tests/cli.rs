//! The native CLI end to end: verification of the captured server samples,
//! a tampered copy, scoring from standard input, and exit statuses.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lians-score"))
}

fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/samples");
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
        .args([
            "verify-pack",
            dir.join("pack-01-v2-signed.json").to_str().unwrap(),
            "--trusted-public-key",
            key.trim(),
            "--expected-key-id",
            "lians-real-test-key",
        ])
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
    assert!(
        lines[1].contains("\"error\":\"wrong_type\"") && lines[1].contains("\"path\":\"/content\""),
        "{}",
        lines[1]
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(bin().arg("nonsense").output().unwrap().status.code(), Some(2));
    assert_eq!(bin().args(["score", "/definitely/missing.json"]).output().unwrap().status.code(), Some(2));
    assert!(bin().arg("--help").output().unwrap().status.success());
}

// ---------------------------------------------------------------- the shared grammar (lians_score::cli::run)

mod grammar {
    use lians_score::cli::{self, Run, COMMANDS};
    use std::collections::HashMap;

    fn run(args: &[&str], files: &[(&str, &str)]) -> Run {
        let files: HashMap<String, Vec<u8>> =
            files.iter().map(|(k, v)| (k.to_string(), v.as_bytes().to_vec())).collect();
        let mut read = |path: &str| files.get(path).cloned().ok_or_else(|| format!("{path}: no such file"));
        cli::run(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>(), &mut read)
    }

    const DOC: &str = r#"{"schema":"x","a":1.0}"#;

    #[test]
    fn name_value_and_name_equals_value_are_the_same() {
        let files = [("d.json", DOC)];
        let a = run(&["verify", "d.json", "--expected-sha256", "00", "--query", "q"], &files);
        let b = run(&["verify", "--expected-sha256=00", "--query=q", "d.json"], &files);
        assert_eq!(a, b);
        assert_eq!(a.status, cli::INVALID, "{a:?}");
        // `=` inside the value is kept.
        let c = run(&["verify", "d.json", "--query=a=b"], &files);
        assert!(c.stdout.contains("\"valid\""), "{c:?}");
    }

    #[test]
    fn switches_settings_and_repeats() {
        let files = [("d.json", DOC), ("g.json", r#"{"contents":{"m1":"from given"},"query":"g"}"#)];
        let r = run(&["verify", "d.json", "--include-canonical", "--kind", "recall"], &files);
        assert!(r.stdout.contains("\"canonical\":\"{"), "{r:?}");
        assert_eq!(run(&["verify", "d.json", "--include-canonical=yes"], &files).status, cli::USAGE_ERROR);
        assert_eq!(run(&["verify", "d.json", "--kind"], &files).status, cli::USAGE_ERROR);
        assert_eq!(run(&["verify", "d.json", "--kind", "pack"], &files).status, cli::USAGE_ERROR);
        // --given merges; --content adds to contents; the parsed `given` is what the verifier sees.
        let cmd = COMMANDS.iter().find(|c| c.name == "verify").unwrap();
        let mut read = |p: &str| {
            files.iter().find(|(k, _)| *k == p).map(|(_, v)| v.as_bytes().to_vec()).ok_or_else(|| p.to_string())
        };
        let args: Vec<String> = ["--given", "g.json", "--content", "m2=x=y", "--query", "last", "d.json"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let inv = cli::parse(cmd, &args, &mut read).unwrap_or_else(|_| panic!("parse"));
        assert_eq!(
            lians_score::json::to_json_string(&inv.given),
            r#"{"contents":{"m1":"from given","m2":"x=y"},"query":"last"}"#
        );
        assert_eq!(inv.files, ["d.json"]);
        assert_eq!(run(&["verify", "d.json", "--content", "noequals"], &files).status, cli::USAGE_ERROR);
    }

    #[test]
    fn files_dash_and_double_dash() {
        let files = [("-", DOC), ("--odd", DOC)];
        let stdin = run(&["verify", "-"], &files);
        assert!(stdin.stdout.starts_with("{\"valid\":false"), "{stdin:?}");
        assert_eq!(run(&["verify", "--", "--odd"], &files), stdin);
        assert_eq!(run(&["verify"], &files).status, cli::USAGE_ERROR);
        assert_eq!(run(&["verify", "-", "-"], &files).status, cli::USAGE_ERROR);
        let r = run(&["verify", "missing.json"], &files);
        assert_eq!(r.status, cli::USAGE_ERROR);
        assert!(r.stderr.contains("missing.json: no such file"), "{r:?}");
        // score reads standard input when no file is given.
        let r = run(&["score", "--fn", "detect_risk_tags"], &[("-", "\"mail a@example.com now\"")]);
        assert_eq!((r.status, r.stdout.as_str()), (cli::OK, "[\"pii:email\"]\n"));
        let r = run(&["score", "--fn=nope"], &[("-", "{}")]);
        assert_eq!(r.status, cli::USAGE_ERROR);
    }

    #[test]
    fn help_version_and_unknowns() {
        let r = run(&["--help"], &[]);
        assert_eq!(r.status, cli::OK);
        for c in COMMANDS {
            assert!(r.stdout.contains(&format!("\n  {} ", c.name)), "{}", c.name);
            for f in c.flags {
                assert!(r.stdout.contains(&format!("--{}", f.name)), "--{}", f.name);
            }
            let h = run(&[c.name, "--help"], &[]);
            assert_eq!(h.status, cli::OK);
            assert!(h.stdout.starts_with(&format!("usage: lians-score {} ", c.name)), "{h:?}");
        }
        assert_eq!(run(&["--version"], &[]).stdout, format!("lians-score {}\n", env!("CARGO_PKG_VERSION")));
        assert_eq!(run(&[], &[]).status, cli::USAGE_ERROR);
        let r = run(&["frobnicate"], &[]);
        assert_eq!(r.status, cli::USAGE_ERROR);
        assert!(r.stderr.starts_with("lians-score: unknown command frobnicate"));
        let r = run(&["replay", "--fn", "x"], &[]);
        assert_eq!(r.status, cli::USAGE_ERROR);
        assert!(r.stderr.contains("replay: unknown option --fn"), "{r:?}");
    }

    #[test]
    fn verify_replay_stops_at_a_line_that_is_not_a_case() {
        let r = run(&["verify-replay", "c.jsonl"], &[("c.jsonl", "{\"id\":1}\n")]);
        assert_eq!(r.status, cli::USAGE_ERROR);
        assert!(r.stderr.contains("c.jsonl:1:"), "{r:?}");
    }
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
    assert!(
        out.contains("\"pointer\":\"/memories/0/content\",\"compared_with\":\"/receipt/results/0/content_hash\""),
        "{out}"
    );
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
    let entries: Vec<String> =
        (0..lians_score::api::limits::MAX_GIVEN_ENTRIES + 1).map(|i| format!("\"id{i}\":\"c\"")).collect();
    let given = std::env::temp_dir().join(format!("lians-cli-given-{}.json", std::process::id()));
    std::fs::write(&given, format!("{{\"contents\":{{{}}}}}", entries.join(","))).unwrap();
    let (code, out) = run_stdin(&["verify", "-", "--given", given.to_str().unwrap()], &wire);
    std::fs::remove_file(&given).ok();
    assert_eq!(code, Some(1), "{out}");
    assert!(out.starts_with("{\"error\":\"too_large\""), "{out}");
}
