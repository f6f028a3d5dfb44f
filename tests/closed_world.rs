//! Issue #28, "a closed wire contract", natively: the six classes of bodies
//! that verified `valid` while a JavaScript client reads something else,
//! rejected with their code and pointer by the Rust API (the typed
//! `lians_score::verify_*`) and the native CLI; the adversarial classes over
//! the samples and the receipt corpus's valid bodies (removal of every key
//! the server sent, time respellings, view multiplicity and order, pack
//! signature-block edits, non-finite numbers anywhere, `-0`). The same
//! classes run in Node against the wasm build, with `Date.parse` as the
//! client under three time zones and over the live bodies too:
//! tests/js/closed-world.test.mjs.

mod common;

use common::*;
use lians_score::json::{self, Object, Value};
use lians_score::receipt::{CheckStatus as Status, VerificationReport as Report};

fn parse(text: &str) -> Value {
    json::parse(text).unwrap()
}

fn text_of(v: &Value) -> String {
    json::to_json_string(v)
}

fn verify(kind: &str, text: &str, given: &Value) -> Report {
    match kind {
        "recall" => lians_score::verify_recall_receipt(text, given).unwrap(),
        "context" => lians_score::verify_context_receipt(text, given).unwrap(),
        _ => lians_score::verify_evidence_pack(text, given).unwrap(),
    }
}

fn failed_at(r: &Report, code: &str, pointer: &str) -> bool {
    r.checks.iter().any(|c| c.status == Status::Failed && c.code == code && c.pointer == pointer)
}

fn assert_fails_at(what: &str, r: &Report, code: &str, pointer: &str) {
    assert!(!r.valid, "{what}: verified valid");
    assert!(
        failed_at(r, code, pointer),
        "{what}: no failed {code} at {pointer}: {:#?}",
        r.checks.iter().filter(|c| c.status == Status::Failed).collect::<Vec<_>>()
    );
}

/// `v` with the member at `path` removed.
fn without(v: &Value, path: &[&str]) -> Value {
    let (last, parent) = path.split_last().unwrap();
    let parent: Vec<String> = parent.iter().map(|s| s.to_string()).collect();
    edit(v.clone(), &parent, &|o| match o {
        Value::Object(mut o) => {
            o.remove(last);
            Value::Object(o)
        }
        other => other,
    })
}

/// `v` with the value at `path` replaced by `f` of it.
fn at(v: &Value, path: &[&str], f: &dyn Fn(Value) -> Value) -> Value {
    let path: Vec<String> = path.iter().map(|s| s.to_string()).collect();
    edit(v.clone(), &path, f)
}

/// The text of `v` with the value at `path` spelled `raw` (NaN, -0: text JSON values cannot hold).
fn with_raw(v: &Value, path: &[&str], raw: &str) -> String {
    const MARK: &str = "\u{1}raw-value\u{1}";
    let text = text_of(&at(v, path, &|_| Value::str(MARK)));
    text.replacen(&text_of(&Value::str(MARK)), raw, 1)
}

struct Samples {
    recall: Value,
    context: Value,
    pack: String,
    key: String,
}

fn samples() -> Option<Samples> {
    Some(Samples {
        recall: parse(&read_sample(RECALL_SAMPLE)?),
        context: parse(&read_sample(CONTEXT_SAMPLE)?),
        pack: read_sample(PACK_SAMPLE)?,
        key: read_sample("evidence_public_key.b64")?.trim().to_string(),
    })
}

fn given(pairs: &[(&str, &str)]) -> Value {
    let mut o = Object::new();
    for (k, v) in pairs {
        o.insert(*k, Value::str(*v));
    }
    Value::Object(o)
}

/// The pack with its signature block edited by `f` and pack_hash recomputed
/// (as an attacker can: the signature covers the manifest only).
fn rewrite_signature(pack: &str, f: &dyn Fn(&mut Object)) -> String {
    let Value::Object(mut p) = parse(pack) else { panic!("a pack object") };
    let Some(Value::Object(mut sig)) = p.get("signature").cloned() else { panic!("a signature block") };
    f(&mut sig);
    p.insert("signature", Value::Object(sig));
    let mut hashed = p.clone();
    hashed.remove("pack_hash");
    let h = json::canonical_sha256(&Value::Object(hashed));
    p.insert("pack_hash", Value::str(h));
    text_of(&Value::Object(p))
}

/// One case of a class: (class, what, kind, wire, given, code, pointer).
type Case = (&'static str, String, &'static str, String, Value, &'static str, &'static str);

fn cases(s: &Samples) -> Vec<Case> {
    let (r, c) = (&s.recall, &s.context);
    let q = given(&[("query", "Acme revenue")]);
    let qc = given(&[("query", "Summarize Acme account facts")]);
    let mut out: Vec<Case> = Vec::new();
    let mut add = |cls, what: &str, kind, wire: String, g: &Value, code, pointer| {
        out.push((cls, what.to_string(), kind, wire, g.clone(), code, pointer))
    };
    // 1. missing always-sent keys
    add(
        "missing",
        "no memories[0].content",
        "recall",
        text_of(&without(r, &["memories", "0", "content"])),
        &q,
        "body_mismatch",
        "/memories/0/content",
    );
    add("missing", "no memories", "recall", text_of(&without(r, &["memories"])), &q, "body_mismatch", "/memories");
    add(
        "missing",
        "no event_time",
        "recall",
        text_of(&without(r, &["memories", "1", "event_time"])),
        &q,
        "body_mismatch",
        "/memories/1/event_time",
    );
    add(
        "missing",
        "no context_text",
        "context",
        text_of(&without(c, &["context_text"])),
        &qc,
        "body_mismatch",
        "/context_text",
    );
    add(
        "missing",
        "no open_conflicts",
        "context",
        text_of(&without(c, &["open_conflicts"])),
        &qc,
        "body_mismatch",
        "/open_conflicts",
    );
    add(
        "missing",
        "no score",
        "context",
        text_of(&without(c, &["memories", "2", "score"])),
        &qc,
        "body_mismatch",
        "/memories/2/score",
    );
    // 2. time spellings fromisoformat reads and new Date() does not
    let paren = |v: Value| Value::str(format!("{}Z", v.as_str().unwrap().replacen('T', "(", 1)));
    add(
        "time",
        "( separator",
        "recall",
        text_of(&at(r, &["memories", "0", "event_time"], &paren)),
        &q,
        "body_mismatch",
        "/memories/0/event_time",
    );
    let basic = |v: Value| Value::str(format!("{}+0000", v.as_str().unwrap()));
    add(
        "time",
        "+0000",
        "recall",
        text_of(&at(r, &["receipt_view", "memories_used", "0", "event_time"], &basic)),
        &q,
        "body_mismatch",
        "/receipt_view/memories_used/0/event_time",
    );
    // 3. receipt_view.memories_used repeated, dropped, reordered
    let used = r.get("receipt_view").unwrap().get("memories_used").unwrap().as_array().unwrap().to_vec();
    let bb = Value::Array(vec![used[1].clone(), used[1].clone()]);
    add(
        "view",
        "[B, B]",
        "recall",
        text_of(&at(r, &["receipt_view", "memories_used"], &|_| bb.clone())),
        &q,
        "body_mismatch",
        "/receipt_view/memories_used/0/id",
    );
    add(
        "view",
        "[]",
        "recall",
        text_of(&at(r, &["receipt_view", "memories_used"], &|_| Value::Array(vec![]))),
        &q,
        "body_mismatch",
        "/receipt_view/memories_used",
    );
    let rev = |v: Value| Value::Array(v.as_array().unwrap().iter().rev().cloned().collect());
    add(
        "view",
        "reversed",
        "context",
        text_of(&at(c, &["receipt_view", "memories_used"], &rev)),
        &qc,
        "body_mismatch",
        "/receipt_view/memories_used/0/id",
    );
    // 4. a rewritten pack signature block, key id pinned
    let pack = rewrite_signature(&s.pack, &|sig| {
        sig.insert("key_id", Value::str("acme-cfo"));
        sig.insert("identity_note", Value::str("Identity verified by Lians: approved by the ACME CFO."));
        sig.insert("approved_by", Value::str("ACME CFO"));
    });
    let pins = given(&[("trusted_public_key", s.key.as_str()), ("expected_key_id", PACK_KEY_ID)]);
    add("pack", "rewritten signature", "pack", pack, &pins, "key_id_mismatch", "/signature/key_id");
    // 5. NaN / Infinity outside the receipt
    add(
        "non-finite",
        "latency_ms NaN",
        "recall",
        with_raw(r, &["latency_ms"], "NaN"),
        &q,
        "non_json_number",
        "/latency_ms",
    );
    add(
        "non-finite",
        "token_estimate -Infinity",
        "context",
        with_raw(c, &["token_estimate"], "-Infinity"),
        &qc,
        "non_json_number",
        "/token_estimate",
    );
    let nan_sig = rewrite_signature(&s.pack, &|sig| sig.insert("weight", Value::Float(f64::NAN)));
    let key = given(&[("trusted_public_key", s.key.as_str())]);
    add("non-finite", "NaN in the signature", "pack", nan_sig, &key, "non_json_number", "/signature/weight");
    // 6. -0 for a bound 0
    let lambda = ["memories", "0", "score_breakdown", "ranking_stages", "0", "lambda"];
    add("-0", "-0.0", "recall", with_raw(r, &lambda, "-0.0"), &q, "body_mismatch", "/memories/0/score_breakdown");
    add("-0", "-0", "recall", with_raw(r, &lambda, "-0"), &q, "body_mismatch", "/memories/0/score_breakdown");
    out
}

#[test]
fn the_six_classes_are_rejected_by_the_rust_api() {
    let Some(s) = samples() else { return };
    // The templates verify (re-serialised samples).
    assert!(verify("recall", &text_of(&s.recall), &Value::Null).valid);
    assert!(verify("context", &text_of(&s.context), &Value::Null).valid);
    let all = cases(&s);
    let classes: std::collections::BTreeSet<_> = all.iter().map(|c| c.0).collect();
    assert_eq!(classes.len(), 6);
    for (cls, what, kind, wire, g, code, pointer) in &all {
        let r = verify(kind, wire, g);
        assert_fails_at(&format!("{cls}: {what}"), &r, code, pointer);
        // The JSON façade and the report's JSON say the same.
        let j = match *kind {
            "recall" => lians_score::api::verify_recall_receipt(wire, g).unwrap(),
            "context" => lians_score::api::verify_context_receipt(wire, g).unwrap(),
            _ => lians_score::api::verify_evidence_pack(wire, g).unwrap(),
        };
        assert_eq!(j.get("valid"), Some(&Value::Bool(false)), "{what}");
    }
}

#[test]
fn the_six_classes_are_rejected_by_the_native_cli() {
    use std::process::Command;
    let Some(s) = samples() else { return };
    let dir = std::env::temp_dir().join(format!("lians-closed-world-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (cls, what, kind, wire, g, code, pointer)) in cases(&s).into_iter().enumerate() {
        let file = dir.join(format!("case-{i}.json"));
        std::fs::write(&file, &wire).unwrap();
        let gfile = dir.join(format!("given-{i}.json"));
        std::fs::write(&gfile, text_of(&g)).unwrap();
        let cmd = if kind == "pack" { "verify-pack" } else { "verify" };
        let out = Command::new(env!("CARGO_BIN_EXE_lians-score"))
            .args([cmd, file.to_str().unwrap(), "--given", gfile.to_str().unwrap()])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{cls}: {what}: {stdout}");
        let report = parse(stdout.trim());
        let checks = report.get("checks").and_then(Value::as_array).unwrap();
        assert!(
            checks.iter().any(|c| c.get("status").and_then(Value::as_str) == Some("failed")
                && c.get("code").and_then(Value::as_str) == Some(code)
                && c.get("pointer").and_then(Value::as_str) == Some(pointer)),
            "{cls}: {what}: no failed {code} at {pointer}: {stdout}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The valid recall and context bodies of the receipt corpus, with the samples.
fn corpus_bodies() -> Vec<(String, &'static str, Value, Value)> {
    let mut out = Vec::new();
    let Some(s) = samples() else { return out };
    out.push(("samples/recall".to_string(), "recall", s.recall, Value::Null));
    out.push(("samples/context".to_string(), "context", s.context, Value::Null));
    let Some(dir) = shared_dir("conformance") else { return out };
    let text = std::fs::read_to_string(dir.join("conformance/receipts/cases.jsonl")).unwrap();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case = parse(line);
        let kind = match case.get("kind").and_then(Value::as_str) {
            Some("recall") => "recall",
            Some("context") => "context",
            _ => continue,
        };
        if case.get("expected").and_then(|e| e.get("valid")) != Some(&Value::Bool(true)) {
            continue;
        }
        let Some(wire) = case.get("wire").and_then(Value::as_str) else { continue };
        let Ok(body) = json::parse(wire) else { continue };
        if body.get("receipt").is_none() {
            continue;
        }
        let g = case.get("given").cloned().unwrap_or(Value::Null);
        // Re-serialised, it must still verify (a body whose numbers re-spell is skipped).
        if !verify(kind, &text_of(&body), &g).valid {
            continue;
        }
        out.push((case.get("id").and_then(Value::as_str).unwrap_or("?").to_string(), kind, body, g));
    }
    out
}

/// [path, keys] of every object the binding reads.
fn objects(body: &Value, kind: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let keys = |v: &Value| match v {
        Value::Object(o) => o.iter().map(|(k, _)| k.to_string()).collect::<Vec<_>>(),
        _ => vec![],
    };
    let mut out = vec![(vec![], keys(body).into_iter().filter(|k| k != "receipt").collect())];
    let each = |path: &[&str], out: &mut Vec<(Vec<String>, Vec<String>)>| {
        let mut v = Some(body);
        for k in path {
            v = v.and_then(|v| v.get(k));
        }
        for (i, item) in v.and_then(Value::as_array).unwrap_or(&[]).iter().enumerate() {
            let mut p: Vec<String> = path.iter().map(|s| s.to_string()).collect();
            p.push(i.to_string());
            out.push((p, keys(item)));
        }
    };
    each(&["memories"], &mut out);
    if let Some(view) = body.get("receipt_view") {
        out.push((vec!["receipt_view".to_string()], keys(view)));
        each(&["receipt_view", "memories_used"], &mut out);
    }
    if kind == "context" {
        if let Some(p) = body.get("provenance") {
            out.push((vec!["provenance".to_string()], keys(p)));
        }
        each(&["open_conflicts"], &mut out);
    }
    out
}

fn pointer_of(path: &[String]) -> String {
    path.iter().map(|k| format!("/{}", k.replace('~', "~0").replace('/', "~1"))).collect()
}

#[test]
fn removing_any_key_the_server_sent_fails_at_its_pointer() {
    let bodies = corpus_bodies();
    assert!(bodies.len() >= 50, "{} bodies", bodies.len());
    let mut tried = 0;
    for (n, (name, kind, body, g)) in bodies.iter().enumerate() {
        // The samples, and every fourth corpus body (the JS suite takes a seeded share of each).
        if n >= 2 && n % 4 != 0 {
            continue;
        }
        for (path, keys) in objects(body, kind) {
            // Every key of the samples' objects; in corpus bodies, one memory and one view entry in turn.
            if n >= 2 && path.len() == 2 && path[1] != (n % 3).to_string() {
                continue;
            }
            for k in keys {
                let mut p = path.clone();
                p.push(k.clone());
                let refs: Vec<&str> = p.iter().map(String::as_str).collect();
                let r = verify(kind, &text_of(&without(body, &refs)), g);
                tried += 1;
                let at = pointer_of(&p);
                if at == "/receipt_view" {
                    // lians-sdk 0.5.0's server sends no receipt_view.
                    assert!(r.valid, "{name}: without {at}");
                } else if at.starts_with("/provenance/") && !at.ends_with("_receipt_sha256") {
                    // The corpus's server sends only the two hashes in provenance
                    // (lians-sdk 0.5.0 five more, all unbound): either is a server's body.
                    assert!(r.valid, "{name}: without {at}");
                } else {
                    assert_fails_at(&format!("{name}: without {at}"), &r, "body_mismatch", &at);
                }
            }
        }
    }
    eprintln!("{tried} removals");
}

#[test]
fn times_are_valid_only_in_the_servers_spelling() {
    let bodies = corpus_bodies();
    let mut valid = 0;
    let mut tried = 0;
    for (name, kind, body, g) in bodies.iter().step_by(10) {
        let Some(bound) = body
            .get("receipt")
            .and_then(|r| r.get("results"))
            .and_then(Value::as_array)
            .and_then(|r| r.first())
            .and_then(|r| r.get("event_time"))
            .and_then(Value::as_str)
        else {
            continue;
        };
        // The bound instant's date and clock (naive means UTC); offset spellings of UTC.
        let (date, rest) = bound.split_at(10);
        let clock = &rest[1..9];
        for sep in ["T", " ", "t", "(", "_"] {
            for frac in ["", ".000000", ".000", ".0", ",000000"] {
                for off in ["Z", "z", "+00:00", "-00:00", "+0000", "+00", "+00:00:00", ""] {
                    let aware_bound = bound.len() > 19;
                    if aware_bound && !bound[19..].starts_with('+') && !bound.ends_with('Z') {
                        continue;
                    }
                    if bound.len() > 19 && !(bound.ends_with("+00:00") || bound.ends_with('Z')) {
                        continue; // only UTC-bound times here
                    }
                    let t = format!("{date}{sep}{clock}{frac}{off}");
                    let v = at(body, &["memories", "0", "event_time"], &|_| Value::str(t.as_str()));
                    let r = verify(kind, &text_of(&v), g);
                    tried += 1;
                    if r.valid {
                        valid += 1;
                        let strict = sep == "T"
                            && (frac.is_empty() || frac == ".000000")
                            && (off == "Z" || off == "+00:00" || off == "-00:00");
                        assert!(strict || t == bound, "{name}: {t:?} verified valid for bound {bound:?}");
                    } else {
                        assert!(failed_at(&r, "body_mismatch", "/memories/0/event_time"), "{name}: {t:?}");
                    }
                }
            }
        }
    }
    eprintln!("{tried} spellings, {valid} valid");
    assert!(valid > 0 && tried > 500, "{tried} spellings, {valid} valid");
}

#[test]
fn memories_used_must_list_the_results_in_order() {
    for (name, kind, body, g) in corpus_bodies() {
        let Some(used) = body.get("receipt_view").and_then(|v| v.get("memories_used")).and_then(Value::as_array) else {
            continue;
        };
        let used = used.to_vec();
        if used.len() < 2 {
            continue;
        }
        let n = used.len();
        let variants: Vec<(Vec<Value>, &str)> = vec![
            (vec![], "/receipt_view/memories_used"),
            (used[..n - 1].to_vec(), "/receipt_view/memories_used"),
            ([used.clone(), vec![used[0].clone()]].concat(), "/receipt_view/memories_used"),
            (used.iter().rev().cloned().collect(), "/receipt_view/memories_used/0/id"),
            (vec![used[n - 1].clone(); n], "/receipt_view/memories_used/0/id"),
        ];
        for (v, pointer) in variants {
            let mutant = at(&body, &["receipt_view", "memories_used"], &|_| Value::Array(v.clone()));
            assert_fails_at(
                &format!("{name}: {} entries", v.len()),
                &verify(kind, &text_of(&mutant), &g),
                "body_mismatch",
                pointer,
            );
        }
    }
}

#[test]
fn pack_signature_members_are_signed_pinned_or_unbound() {
    let Some(s) = samples() else { return };
    let key = given(&[("trusted_public_key", s.key.as_str())]);
    let pinned = given(&[("trusted_public_key", s.key.as_str()), ("expected_key_id", PACK_KEY_ID)]);
    // As the server sent it.
    let r = verify("pack", &s.pack, &key);
    assert!(r.valid);
    assert_eq!(r.unbound_fields, ["/signature/key_id", "/signature/identity_note"]);
    let r = verify("pack", &s.pack, &pinned);
    assert_eq!(r.unbound_fields, ["/signature/identity_note"]);
    let r = verify("pack", &s.pack, &Value::Null);
    assert_eq!(r.unbound_fields, ["/signature/key_id", "/signature/public_key", "/signature/identity_note"]);
    // The rewrite: never `unbound_fields: []`.
    let rewritten = rewrite_signature(&s.pack, &|sig| {
        sig.insert("identity_note", Value::str("Identity verified by Lians: ACME CFO"));
        sig.insert("key_id", Value::str("acme-cfo"));
        sig.insert("approved_by", Value::str("ACME CFO"));
    });
    let r = verify("pack", &rewritten, &key);
    assert!(r.valid);
    for p in ["/signature/key_id", "/signature/identity_note", "/signature/approved_by"] {
        assert!(r.unbound_fields.iter().any(|u| u == p), "{p}: {:?}", r.unbound_fields);
    }
    assert_fails_at("key id pinned", &verify("pack", &rewritten, &pinned), "key_id_mismatch", "/signature/key_id");
    // Checked members cannot be rewritten.
    for (k, v) in [("status", "unsigned"), ("algorithm", "Ed448"), ("value", "AAAA"), ("public_key", "AAAA")] {
        let t = rewrite_signature(&s.pack, &|sig| sig.insert(k, Value::str(v)));
        assert!(!verify("pack", &t, &key).valid, "{k}");
    }
}

/// The value at `path` (object keys, array indices) in `v`.
fn value_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.get(k).or_else(|| v.as_array()?.get(k.parse::<usize>().ok()?)))
}

/// The sample pack with the integer at `path` set to 0, unsigned, its
/// `manifest_hash` and `pack_hash` (and, in a bound receipt
/// `evidence_graph/i/metadata/receipt`, the link's `artifact_hash`)
/// recomputed: valid with `allow_unsigned`.
fn unsigned_pack_with_zero(pack: &str, path: &[&str]) -> Value {
    let mut v = at(&parse(pack), path, &|_| Value::int(0));
    if let ["evidence_graph", i, "metadata", "receipt", ..] = path {
        let h = json::canonical_sha256(value_at(&v, &path[..4]).expect("a bound receipt"));
        v = at(&v, &["evidence_graph", i, "artifact_hash"], &|_| Value::str(h.clone()));
    }
    let Value::Object(mut p) = v else { panic!("a pack object") };
    let mut sig = Object::new();
    sig.insert("status", Value::str("unsigned"));
    p.insert("signature", Value::Object(sig));
    let mut manifest = p.clone();
    for k in ["manifest_hash", "signature", "pack_hash"] {
        manifest.remove(k);
    }
    p.insert("manifest_hash", Value::str(json::canonical_sha256(&Value::Object(manifest))));
    let mut hashed = p.clone();
    hashed.remove("pack_hash");
    p.insert("pack_hash", Value::str(json::canonical_sha256(&Value::Object(hashed))));
    Value::Object(p)
}

/// An integer `-0` anywhere in an Evidence Pack (issue #32 round 9): Python
/// reads 0, so `manifest_hash`, `pack_hash` and the signature all hold, while
/// `JSON.parse` reads -0. The real sample with a 0 respelled `-0`: in the
/// manifest (an unsigned pack, hashes recomputed for the 0) and in the signed
/// pack's signature block (as signed; `pack_hash` recomputed for the 0).
#[test]
fn a_negative_zero_in_an_evidence_pack_fails() {
    let Some(s) = samples() else { return };
    let mut allow = Object::new();
    allow.insert("allow_unsigned", Value::Bool(true));
    let allow = Value::Object(allow);
    let paths: [&[&str]; 3] = [
        &["envelope", "version"],
        &["knowledge_snapshot", "0", "metadata", "_score", "scoring_limits", "token_cap"],
        &["evidence_graph", "0", "metadata", "receipt", "policy", "max_query_variants"],
    ];
    for path in paths {
        let zero = unsigned_pack_with_zero(&s.pack, path);
        assert!(matches!(value_at(&parse(&s.pack), path), Some(Value::Int(_))), "{path:?}: an integer in the sample");
        let r = verify("pack", &text_of(&zero), &allow);
        assert!(
            r.valid,
            "{path:?} as 0: {:#?}",
            r.checks.iter().filter(|c| c.status == Status::Failed).collect::<Vec<_>>()
        );
        let minus = with_raw(&zero, path, "-0");
        assert_fails_at(
            &format!("{path:?} as -0"),
            &verify("pack", &minus, &allow),
            "body_mismatch",
            &format!("/{}", path.join("/")),
        );
    }
    // The signed sample: a member 0 added to the signature block (which only pack_hash covers).
    let key = given(&[("trusted_public_key", s.key.as_str())]);
    let zero = rewrite_signature(&s.pack, &|sig| sig.insert("weight", Value::int(0)));
    assert!(verify("pack", &zero, &key).valid);
    let minus = with_raw(&parse(&zero), &["signature", "weight"], "-0");
    assert_fails_at("signature weight -0", &verify("pack", &minus, &key), "body_mismatch", "/signature/weight");
}

#[test]
fn non_finite_numbers_outside_the_receipt_fail_at_their_pointer() {
    let Some(s) = samples() else { return };
    for (kind, body) in [("recall", &s.recall), ("context", &s.context)] {
        let mut paths = Vec::new();
        scalar_paths(body, &mut vec![], &mut paths);
        let mut n = 0;
        for p in paths.iter().filter(|p| p[0] != "receipt") {
            // One token per pointer, in turn.
            let token = ["NaN", "Infinity", "-Infinity", "1e400"][n % 4];
            let refs: Vec<&str> = p.iter().map(String::as_str).collect();
            let r = verify(kind, &with_raw(body, &refs, token), &Value::Null);
            assert_fails_at(&format!("{kind} {token}"), &r, "non_json_number", &pointer_of(p));
            n += 1;
        }
        assert!(n > 50, "{n}");
    }
}

#[test]
fn a_negative_zero_for_a_bound_zero_fails() {
    let bodies = corpus_bodies();
    let mut tried = 0;
    for (name, kind, body, g) in &bodies {
        let mut paths = Vec::new();
        scalar_paths(body, &mut vec![], &mut paths);
        let valid = verify(kind, &text_of(body), g);
        let mut per_body = 0;
        for p in paths.iter().filter(|p| p[0] == "memories" && p.get(2).map(String::as_str) == Some("score_breakdown"))
        {
            if per_body >= 4 {
                break;
            }
            let mut v = Some(body);
            for k in p {
                v = v.and_then(|v| {
                    v.get(k).or_else(|| v.as_array().and_then(|a| k.parse::<usize>().ok().and_then(|i| a.get(i))))
                });
            }
            // A bound +0 (a receipt's -0.0 is read as -0 by a client too: -0 is then the same number).
            let zero = matches!(v, Some(Value::Int(d)) if &**d == "0")
                || matches!(v, Some(Value::Float(f)) if *f == 0.0 && f.is_sign_positive());
            if !zero {
                continue;
            }
            per_body += 1;
            let refs: Vec<&str> = p.iter().map(String::as_str).collect();
            for token in ["-0", "-0.0"] {
                let r = verify(kind, &with_raw(body, &refs, token), g);
                tried += 1;
                let at = format!("/memories/{}/score_breakdown", p[1]);
                assert_fails_at(&format!("{name}: {token} at {}", pointer_of(p)), &r, "body_mismatch", &at);
            }
        }
        assert!(valid.valid);
    }
    assert!(tried > 0);
    eprintln!("{tried} -0 mutants");
}
