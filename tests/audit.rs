//! The recall audit (`src/audit`, spec `recall-audit.md`) on real responses:
//! the captured sample and the bodies captured from a real Lians server in
//! every recall mode (`tests/data/audit`, see its README) audit
//! consistent; "lying server" edits, re-hashed so that verification still
//! passes, are caught with the right code; mutated bodies never panic.

mod common;

use std::path::PathBuf;

use lians_score::audit::{self, AuditCode};
use lians_score::json::{self, Object, Value};
use lians_score::{api, receipt, ErrorCode};

fn captured() -> Vec<(String, String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/audit");
    let mut out = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir).expect("tests/data/audit").flatten().map(|e| e.path()).collect();
    names.sort();
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".json") else { continue };
        let wire = std::fs::read_to_string(&path).unwrap();
        let query = std::fs::read_to_string(dir.join(format!("{stem}.query.txt"))).unwrap();
        out.push((stem.to_string(), wire, query));
    }
    assert!(out.len() >= 13, "expected the captured recall bodies");
    out
}

/// Every real body: (name, wire, query).
fn real_bodies() -> Vec<(String, String, String)> {
    let mut all = captured();
    if let Some(wire) = common::read_sample(common::RECALL_SAMPLE) {
        all.push((common::RECALL_SAMPLE.to_string(), wire, "Acme revenue".to_string()));
    }
    if let Some(wire) = common::read_sample(common::CONTEXT_SAMPLE) {
        all.push((common::CONTEXT_SAMPLE.to_string(), wire, "Summarize Acme account facts".to_string()));
    }
    all
}

fn audit_json(wire: &str, query: &str) -> Value {
    let mut o = Object::new();
    o.insert("query", Value::str(query));
    api::audit_recall(wire, &Value::Object(o)).expect("auditable")
}

fn failures(report: &Value) -> Vec<String> {
    report.get("failures").and_then(Value::as_array).unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

#[test]
fn real_responses_of_every_mode_audit_consistent() {
    let mut results = 0;
    let mut stages = std::collections::BTreeSet::new();
    let mut fused = 0;
    for (name, wire, query) in real_bodies() {
        let report = audit::audit_recall(&wire, Some(&query)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let failed: Vec<_> = report
            .results
            .iter()
            .flat_map(|r| {
                r.checks
                    .iter()
                    .filter(|c| c.failed())
                    .map(move |c| (r.rank, c.name.clone(), c.bound.clone(), c.rederived.clone()))
            })
            .collect();
        assert!(report.consistent(), "{name}: {failed:?}");
        let body = json::parse(&wire).unwrap();
        for (m, r) in body.get("memories").and_then(Value::as_array).unwrap().iter().zip(&report.results) {
            let bd = m.get("score_breakdown").unwrap();
            for s in bd.get("ranking_stages").and_then(Value::as_array).unwrap_or(&[]) {
                stages.insert(s.get("stage").and_then(Value::as_str).unwrap().to_string());
            }
            fused += bd.get("fusion").is_some() as usize;
            let i = r.retrieval_score.expect("an interval");
            assert!(0.0 <= i.lo && i.lo <= i.hi && i.hi <= 1.0 && i.hi - i.lo < 2e-6, "{name}: {i:?}");
            results += 1;
        }
        // Verification passes too: these are honest, untouched bodies.
        let mut given = Object::new();
        given.insert("query", Value::str(query.as_str()));
        assert!(
            receipt::verify_recall_receipt(&wire, &Value::Object(given)).valid || name.starts_with("context"),
            "{name}"
        );
    }
    assert!(results >= 60, "{results}");
    assert!(fused >= 20, "{fused}");
    for s in ["adaptive-fusion", "mmr-rerank", "graph-proximity"] {
        assert!(stages.contains(s), "no {s} stage in the captures: {stages:?}");
    }
}

#[test]
fn the_query_defaults_to_the_first_variant_when_it_hashes() {
    let Some(wire) = common::read_sample(common::RECALL_SAMPLE) else { return };
    let report = audit::audit_recall(&wire, None).unwrap();
    assert!(report.consistent());
    assert_eq!(report.query_source, "query_variants/0");
    // The wrong query: the hash check fails and relevance reasons no longer match.
    let report = audit::audit_recall(&wire, Some("Globex revenue")).unwrap();
    assert!(!report.consistent());
    assert_eq!(report.failures()[0], AuditCode::QueryMismatch);
}

// ---------------------------------------------------------------- lying servers

/// Apply `f` to the value at `path` (object keys and array indexes).
fn edit(v: &mut Value, path: &[&str], f: &mut dyn FnMut(&mut Value)) {
    let Some((head, rest)) = path.split_first() else {
        f(v);
        return;
    };
    match v {
        Value::Object(o) => {
            let mut members = std::mem::take(o).into_members();
            for (k, val) in members.iter_mut() {
                if k.as_bytes() == head.as_bytes() {
                    edit(val, rest, f);
                }
            }
            *o = Object::from_unique(members);
        }
        Value::Array(items) => {
            if let Some(item) = head.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                edit(item, rest, f);
            }
        }
        _ => {}
    }
}

/// Change `key` of result `i`'s breakdown (path under `score_breakdown`) in
/// the memories and the receipt alike, then re-hash the receipt and update
/// every copy of the hash: what a lying server would send.
fn lie(wire: &str, i: usize, path: &[&str], f: &mut dyn FnMut(&mut Value)) -> String {
    let mut body = json::parse(wire).unwrap();
    let idx = i.to_string();
    let mut full: Vec<&str> = vec!["memories", &idx, "score_breakdown"];
    full.extend_from_slice(path);
    edit(&mut body, &full, f);
    let mut full: Vec<&str> = vec!["receipt", "results", &idx, "score_breakdown"];
    full.extend_from_slice(path);
    edit(&mut body, &full, f);
    rehash(body)
}

fn rehash(mut body: Value) -> String {
    let sha = json::canonical_sha256(body.get("receipt").unwrap());
    edit(&mut body, &["receipt_sha256"], &mut |v| *v = Value::str(sha.as_str()));
    edit(&mut body, &["receipt_view", "receipt_sha256"], &mut |v| *v = Value::str(sha.as_str()));
    json::to_json_string(&body)
}

/// Also set the public `score` and `final_score` (a consistent lie about the last stage).
fn lie_final(wire: &str, i: usize, value: f64) -> String {
    let mut body = json::parse(wire).unwrap();
    let idx = i.to_string();
    // The receipt view repeats the public score: a lying server keeps it in step.
    edit(&mut body, &["receipt_view", "memories_used", idx.as_str(), "score"], &mut |v| *v = Value::Float(value));
    for base in [vec!["memories", idx.as_str()], vec!["receipt", "results", idx.as_str()]] {
        let mut p = base.clone();
        p.push("score");
        edit(&mut body, &p, &mut |v| *v = Value::Float(value));
        let mut p = base.clone();
        p.extend(["score_breakdown", "final_score"]);
        edit(&mut body, &p, &mut |v| *v = Value::Float(value));
    }
    rehash(body)
}

fn add(delta: f64) -> impl FnMut(&mut Value) {
    move |v: &mut Value| {
        if let Value::Float(f) = v {
            let x = *f + delta;
            *f = lians_score::py::float::round6(if x > 1.0 { *f - delta } else { x });
        }
    }
}

fn assert_caught(name: &str, lying: &str, query: &str, code: AuditCode, alone: bool) {
    let mut given = Object::new();
    given.insert("query", Value::str(query));
    let verified = receipt::verify_recall_receipt(lying, &Value::Object(given));
    assert!(
        verified.valid || name.starts_with("context"),
        "{name}: the lie must still verify: {:?}",
        verified.failures
    );
    let report = audit_json(lying, query);
    let f = failures(&report);
    assert_eq!(report.get("consistent"), Some(&Value::Bool(false)), "{name}: {code} not caught");
    if alone {
        assert_eq!(f, [code.as_str()], "{name}");
    } else {
        assert!(f.iter().any(|c| c == code.as_str()), "{name}: {code} not in {f:?}");
    }
}

#[test]
fn lying_servers_are_caught_with_the_right_code() {
    let mut lies = 0;
    for (name, wire, query) in real_bodies() {
        let body = json::parse(&wire).unwrap();
        let n = body.get("memories").and_then(Value::as_array).unwrap().len();
        for i in 0..n {
            let bd = body.get("memories").unwrap().as_array().unwrap()[i].get("score_breakdown").unwrap().clone();
            for comp in [
                "importance_score",
                "confidence_score",
                "trust_score",
                "freshness_score",
                "stability_score",
                "safety_score",
            ] {
                let lying = lie(&wire, i, &[comp], &mut add(0.05));
                assert_caught(&format!("{name}[{i}].{comp}"), &lying, &query, AuditCode::ComponentMismatch, true);
                lies += 1;
            }
            for delta in [0.01, -0.003, 2e-6] {
                let lying = lie(&wire, i, &["relevance_score"], &mut add(delta));
                assert_caught(
                    &format!("{name}[{i}].relevance {delta}"),
                    &lying,
                    &query,
                    AuditCode::RelevanceInconsistent,
                    delta.abs() > 1e-5,
                );
                lies += 1;
            }
            let lying = lie(&wire, i, &["quality_score"], &mut add(0.01));
            assert_caught(&format!("{name}[{i}].quality"), &lying, &query, AuditCode::QualityInconsistent, false);
            let lying = lie(&wire, i, &["temporal_eligible"], &mut |v| *v = Value::Bool(false));
            // A gate the scorer does not give, and a result the server would not return.
            assert_caught(&format!("{name}[{i}].gate"), &lying, &query, AuditCode::GateMismatch, false);
            assert_caught(&format!("{name}[{i}].gate"), &lying, &query, AuditCode::IneligibleReturned, false);
            let lying = lie(&wire, i, &["reasons", "2"], &mut |v| {
                *v = Value::str("server-verified source trust level system_verified")
            });
            assert_caught(&format!("{name}[{i}].reason"), &lying, &query, AuditCode::ReasonMismatch, true);
            lies += 3;
            let stages = bd.get("ranking_stages").and_then(Value::as_array).map(<[Value]>::len).unwrap_or(0);
            if stages > 0 {
                let last = (stages - 1).to_string();
                let is_calibrated = bd.get("ranking_stages").unwrap().as_array().unwrap()[stages - 1]
                    .get("method")
                    .and_then(Value::as_str)
                    == Some("rank-calibration-v1");
                let out =
                    bd.get("final_score").and_then(|v| if let Value::Float(f) = v { Some(*f) } else { None }).unwrap();
                // Stay inside the neighbours' scores so that the order (and
                // so verification) still holds; beyond the fusion tolerance.
                let score_of = |j: usize| {
                    body.get("memories")
                        .unwrap()
                        .as_array()
                        .unwrap()
                        .get(j)
                        .and_then(|m| m.get("score"))
                        .and_then(|v| if let Value::Float(f) = v { Some(*f) } else { None })
                };
                let above = if i == 0 { 1.0 } else { score_of(i - 1).unwrap() };
                let below = score_of(i + 1).unwrap_or(0.0);
                let new = if above - out > 4e-6 {
                    lians_score::py::float::round6(out + ((above - out) / 2.0).min(0.02))
                } else if out - below > 4e-6 {
                    lians_score::py::float::round6(out - ((out - below) / 2.0).min(0.02))
                } else {
                    continue;
                };
                let mut lying =
                    lie(&wire, i, &["ranking_stages", &last, "output_score"], &mut |v| *v = Value::Float(new));
                lying = lie_final(&lying, i, new);
                let code = if is_calibrated { AuditCode::CalibrationMismatch } else { AuditCode::FusionInconsistent };
                assert_caught(&format!("{name}[{i}] last stage"), &lying, &query, code, true);
                lies += 1;
            }
            if bd.get("fusion").is_some() {
                let mut bump = add(0.01);
                let mut lying = lie(&wire, i, &["fusion", "normalized_rrf_score"], &mut bump);
                let j = bd
                    .get("ranking_stages")
                    .unwrap()
                    .as_array()
                    .unwrap()
                    .iter()
                    .position(|s| s.get("stage").and_then(Value::as_str) == Some("adaptive-fusion"))
                    .unwrap()
                    .to_string();
                lying = lie(&lying, i, &["ranking_stages", &j, "normalized_rrf_score"], &mut add(0.01));
                assert_caught(&format!("{name}[{i}] rrf"), &lying, &query, AuditCode::FusionInconsistent, true);
                // A chain break: a stage input that is not the hybrid score.
                let lying = lie(&wire, i, &["pre_fusion_score"], &mut add(0.001));
                let report = audit_json(&lying, &query);
                assert_eq!(report.get("consistent"), Some(&Value::Bool(false)), "{name}[{i}] pre_fusion");
                lies += 2;
            }
        }
    }
    assert!(lies > 600, "{lies}");
}

#[test]
fn pairing_mismatch_when_memories_and_receipt_disagree() {
    let Some(wire) = common::read_sample(common::RECALL_SAMPLE) else { return };
    let mut body = json::parse(&wire).unwrap();
    edit(&mut body, &["memories", "0", "score_breakdown", "trust_score"], &mut |v| *v = Value::Float(0.9));
    let report = audit_json(&json::to_json_string(&body), "Acme revenue");
    let f = failures(&report);
    assert!(
        f.contains(&AuditCode::PairingMismatch.to_string()) && f.contains(&AuditCode::ComponentMismatch.to_string()),
        "{f:?}"
    );
    // A breakdown stripped from both sides.
    let mut body = json::parse(&wire).unwrap();
    edit(&mut body, &["memories", "1", "score_breakdown"], &mut |v| *v = Value::Null);
    edit(&mut body, &["receipt", "results", "1", "score_breakdown"], &mut |v| *v = Value::Null);
    let report = audit_json(&rehash(body), "Acme revenue");
    assert!(failures(&report).contains(&AuditCode::BreakdownMissing.to_string()));
    // A dropped result.
    let mut body = json::parse(&wire).unwrap();
    edit(&mut body, &["memories"], &mut |v| {
        if let Value::Array(items) = v {
            items.pop();
        }
    });
    // The stages' candidate_count (the results the server ranked) no longer
    // matches the returned results either.
    let report = audit_json(&json::to_json_string(&body), "Acme revenue");
    assert_eq!(failures(&report), [AuditCode::PairingMismatch.as_str(), AuditCode::CandidateCountMismatch.as_str()]);
}

#[test]
fn bad_input_is_a_typed_error() {
    let Some(wire) = common::read_sample(common::RECALL_SAMPLE) else { return };
    let err = |w: &str| audit::audit_recall(w, Some("q")).unwrap_err();
    assert_eq!(err("{").code, ErrorCode::MalformedJson);
    assert_eq!(err("[]").code, ErrorCode::WrongType);
    let receipt = json::to_json_string(json::parse(&wire).unwrap().get("receipt").unwrap());
    let e = err(&receipt);
    assert_eq!((e.code, e.path.as_str()), (ErrorCode::MissingField, "/memories"));
    let e = err(&wire.replacen("\"event_time\":\"2026-04-02T09:00:00\"", "\"event_time\":\"yesterday\"", 1));
    assert_eq!((e.code, e.path.as_str()), (ErrorCode::InvalidDatetime, "/memories/0/event_time"));
    let e = err(&wire.replacen("\"content\":\"Acme", "\"content\":7,\"x\":\"Acme", 1));
    assert_eq!((e.code, e.path.as_str()), (ErrorCode::WrongType, "/memories/0/content"));
    let bad_options = json::parse(r#"{"query": 5}"#).unwrap();
    assert_eq!(api::audit_recall(&wire, &bad_options).unwrap_err().code, ErrorCode::WrongType);
    // No query, and no variant that hashes to query_sha256.
    let e =
        audit::audit_recall(&wire.replace("\"query_variants\":[\"Acme revenue\"]", "\"query_variants\":[\"x\"]"), None)
            .unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (ErrorCode::MissingField, "/query"));
}

/// The input caps belong to the JSON façade (`api::audit_recall`, which the
/// CLIs and the wasm API call): the text, the query, each memory and its
/// metadata. The typed audit applies none; a cap never hides an earlier error.
#[test]
fn the_json_facade_applies_the_input_caps() {
    use lians_score::api::limits::{MAX_STRING_BYTES, MAX_TEXT_BYTES};
    let Some(wire) = common::read_sample(common::RECALL_SAMPLE) else { return };
    let capped = |w: &str, q: &str| {
        let mut o = Object::new();
        o.insert("query", Value::str(q));
        api::audit_recall(w, &Value::Object(o)).map(|_| ()).map_err(|e| (e.code, e.path))
    };
    let too_large = |path: &str| Err((ErrorCode::TooLarge, path.to_string()));
    let big = format!("{}{}", " ".repeat(MAX_TEXT_BYTES), wire);
    assert_eq!(capped(&big, "Acme revenue"), too_large(""));
    let huge_query = "q".repeat(MAX_STRING_BYTES + 1);
    assert_eq!(capped(&wire, &huge_query), too_large("/query"));
    let long = "x".repeat(MAX_STRING_BYTES + 1);
    let content = wire.replacen("\"content\":\"Acme", &format!("\"content\":\"{long}Acme"), 1);
    assert_eq!(capped(&content, "Acme revenue"), too_large("/memories/0/content"));
    let metadata = wire.replacen("\"metadata\":{", &format!("\"metadata\":{{\"zz\":\"{long}\","), 1);
    assert_eq!(capped(&metadata, "Acme revenue"), too_large("/memories/0/metadata/zz"));
    // The typed audit has no caps: the same inputs audit (the cost is linear).
    assert!(audit::audit_recall(&big, Some("Acme revenue")).is_ok());
    assert!(audit::audit_recall(&wire, Some(&huge_query)).is_ok());
    assert!(audit::audit_recall(&content, Some("Acme revenue")).is_ok());
    // Caps run where the audit reaches each memory: an earlier error stays the error.
    let mut body = json::parse(&content).unwrap();
    if let Value::Object(o) = &mut body {
        let mut members = std::mem::take(o).into_members();
        members.retain(|(k, _)| k.to_str_lossy() != "receipt");
        *o = Object::from_unique(members);
    }
    assert_eq!(
        capped(&json::to_json_string(&body), "Acme revenue"),
        Err((ErrorCode::MissingField, "/receipt".to_string()))
    );
}

// ---------------------------------------------------------------- fuzzing

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Replace a random scalar or container with a hostile value.
fn mutate_value(v: &mut Value, rng: &mut Rng, depth: usize) -> bool {
    let hostile = [
        Value::Null,
        Value::Bool(true),
        Value::int(-1),
        Value::Int("99999999999999999999999999999".into()),
        Value::Float(f64::NAN),
        Value::Float(f64::INFINITY),
        Value::Float(-0.0),
        Value::Float(1e308),
        Value::Float(0.5000005),
        Value::str(""),
        Value::str("2026-13-45T99:00:00"),
        Value::str("\u{0130}\u{212A} Acme"),
        Value::Array(vec![]),
        Value::Object(Object::new()),
    ];
    match v {
        Value::Object(o) if !o.is_empty() && depth < 12 && rng.below(4) != 0 => {
            let mut members = std::mem::take(o).into_members();
            let k = rng.below(members.len());
            let done = if rng.below(10) == 0 {
                members.remove(k);
                true
            } else {
                mutate_value(&mut members[k].1, rng, depth + 1)
            };
            *o = Object::from_unique(members);
            done
        }
        Value::Array(items) if !items.is_empty() && depth < 12 && rng.below(4) != 0 => {
            let k = rng.below(items.len());
            if rng.below(10) == 0 {
                items.remove(k);
                true
            } else {
                mutate_value(&mut items[k], rng, depth + 1)
            }
        }
        _ => {
            *v = hostile[rng.below(hostile.len())].clone();
            true
        }
    }
}

#[test]
fn mutated_bodies_never_panic() {
    let bodies = real_bodies();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut ok, mut errors) = (0usize, 0usize);
    for round in 0..1500 {
        let (_, wire, query) = &bodies[round % bodies.len()];
        let text = if round % 3 == 0 {
            // Byte-level: flip, cut or duplicate a span of the raw text.
            let mut b = wire.as_bytes().to_vec();
            let at = rng.below(b.len());
            match rng.below(3) {
                0 => b[at] = b"0123456789.eE-+\"{}[],:"[rng.below(22)],
                1 => b.truncate(at),
                _ => {
                    let end = (at + rng.below(64)).min(b.len());
                    let span = b[at..end].to_vec();
                    b.splice(at..at, span);
                }
            }
            String::from_utf8_lossy(&b).into_owned()
        } else {
            let mut v = json::parse(wire).unwrap();
            for _ in 0..1 + rng.below(3) {
                mutate_value(&mut v, &mut rng, 0);
            }
            json::to_json_string(&v)
        };
        let q = if round % 7 == 0 { None } else { Some(query.as_str()) };
        match audit::audit_recall(&text, q) {
            Ok(report) => {
                let _ = report.to_json();
                ok += 1;
            }
            Err(e) => {
                assert!(!e.message.is_empty());
                errors += 1;
            }
        }
    }
    assert!(ok > 300 && errors > 100, "ok {ok} errors {errors}");
}

#[test]
fn every_code_is_documented() {
    let docs = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/audit.md")).unwrap();
    for code in AuditCode::ALL {
        assert!(docs.contains(&format!("`{code}`")), "docs/audit.md does not document {code}");
    }
}

/// `AuditFailure` in js/index.d.ts is the enum's wire strings, in the same
/// (documentation) order: the TypeScript union is checked against
/// [`AuditCode::ALL`] itself, not against the Rust source text.
#[test]
fn the_typescript_union_is_the_enum() {
    let dts = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("js/index.d.ts")).unwrap();
    let start = dts.find("export type AuditFailure =").expect("index.d.ts declares AuditFailure");
    let union = &dts[start..start + dts[start..].find(';').expect("the union ends with ;")];
    let declared: Vec<&str> = union.split('"').skip(1).step_by(2).collect();
    let codes: Vec<&str> = AuditCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(declared, codes, "AuditFailure in js/index.d.ts vs AuditCode::ALL");
}

// ------------------------------------------- the server's rules (issue 24, cases 1–6)
//
// Each case is a real captured body edited as a lying server would: the
// memory and its receipt result alike (and the receipt view), the receipt
// re-hashed, so that verification still passes where it can. The audit must
// report the broken rule.

fn captured_body(stem: &str) -> (Value, String) {
    let (_, wire, query) = captured().into_iter().find(|(n, _, _)| n == stem).expect(stem);
    (json::parse(&wire).unwrap(), query)
}

fn f64_of(v: Option<&Value>) -> f64 {
    match v {
        Some(Value::Float(f)) => *f,
        Some(Value::Int(d)) => d.parse().unwrap(),
        other => panic!("not a number: {other:?}"),
    }
}

/// Apply `f` to the three per-result arrays: `memories`, `receipt.results`
/// and `receipt_view.memories_used` (when present).
fn each_array(body: &mut Value, f: &mut dyn FnMut(&mut Vec<Value>)) {
    for path in [&["memories"][..], &["receipt", "results"], &["receipt_view", "memories_used"]] {
        edit(body, path, &mut |v| {
            if let Value::Array(items) = v {
                f(items)
            }
        });
    }
}

/// Apply `f` to result `i`'s breakdown in the memories and the receipt alike.
fn each_breakdown(body: &mut Value, i: usize, f: &mut dyn FnMut(&mut Object)) {
    let idx = i.to_string();
    for base in [vec!["memories", idx.as_str()], vec!["receipt", "results", idx.as_str()]] {
        let mut p = base.clone();
        p.push("score_breakdown");
        edit(body, &p, &mut |v| {
            if let Value::Object(o) = v {
                f(o)
            }
        });
    }
}

/// Set result `i`'s public score and `final_score` everywhere.
fn set_final(body: &mut Value, i: usize, value: f64) {
    let idx = i.to_string();
    for p in [
        vec!["memories", idx.as_str(), "score"],
        vec!["receipt", "results", idx.as_str(), "score"],
        vec!["receipt_view", "memories_used", idx.as_str(), "score"],
        vec!["memories", idx.as_str(), "score_breakdown", "final_score"],
        vec!["receipt", "results", idx.as_str(), "score_breakdown", "final_score"],
    ] {
        edit(body, &p, &mut |v| *v = Value::Float(value));
    }
}

fn stages_of(o: &Object) -> Vec<Value> {
    o.get("ranking_stages").and_then(Value::as_array).map(<[Value]>::to_vec).unwrap_or_default()
}

fn obj(pairs: &[(&str, Value)]) -> Value {
    let mut o = Object::new();
    for (k, v) in pairs {
        o.insert(*k, v.clone());
    }
    Value::Object(o)
}

fn verifies(wire: &str, query: &str) -> bool {
    let mut given = Object::new();
    given.insert("query", Value::str(query));
    let r = receipt::verify_recall_receipt(wire, &Value::Object(given));
    if !r.valid {
        eprintln!("verification: {:?}", r.failures);
    }
    r.valid
}

/// The lie verifies (when `must_verify`) and the audit reports `code`.
fn caught(name: &str, body: Value, query: &str, code: AuditCode, must_verify: bool) {
    let wire = rehash(body);
    if must_verify {
        assert!(verifies(&wire, query), "{name}: the lie must still verify");
    }
    let report = audit_json(&wire, query);
    let f = failures(&report);
    assert!(f.iter().any(|c| c == code.as_str()), "{name}: {code} not reported, got {f:?}");
}

/// A fresh breakdown as the server's semantic path builds it for result `i`
/// (no stages): the scorer with `base` at `reference`, then the 0.8/0.2 blend.
fn server_breakdown(body: &Value, i: usize, reference: &str, query: &str, base: f64) -> Object {
    let m = &body.get("memories").unwrap().as_array().unwrap()[i];
    let mut input = Object::new();
    input.insert("content", m.get("content").cloned().unwrap_or(Value::str("")));
    input.insert("reference_time", Value::str(reference));
    for k in ["metadata", "importance", "source", "event_time", "valid_from", "valid_to"] {
        if let Some(v) = m.get(k) {
            input.insert(k, v.clone());
        }
    }
    input.insert("superseded", Value::Bool(m.get("superseded_by").is_some_and(|v| !v.is_null())));
    input.insert("query", Value::str(query));
    input.insert("base_relevance", Value::Float(base));
    input.insert("purpose", Value::str("recall"));
    if let Some(Value::Object(adm)) = m.get("metadata").and_then(|md| md.get("_admission")) {
        let action = adm.get("action").and_then(Value::as_str).unwrap_or("safe");
        let status = if matches!(action, "review" | "held_for_review" | "pending") { "review_needed" } else { action };
        input.insert("safety_status", Value::str(status));
        input.insert("risk_tags", adm.get("risk_tags").cloned().unwrap_or(Value::Array(vec![])));
    }
    let scored = api::score_memory(&Value::Object(input)).unwrap();
    let mut bd = scored.as_object().unwrap().clone();
    let q = f64_of(bd.get("final_score"));
    bd.insert("quality_score", Value::Float(q));
    bd.insert("final_score", Value::Float(lians_score::py::float::round6(0.8 * base.clamp(0.0, 1.0) + 0.2 * q)));
    bd.insert(
        "ranking_weights",
        obj(&[("existing_retrieval_score", Value::Float(0.8)), ("memory_quality_score", Value::Float(0.2))]),
    );
    if let Some(Value::Array(mut reasons)) = bd.get("reasons").cloned() {
        reasons.push(Value::str(lians_score::scoring::rank::BLEND_REASON));
        bd.insert("reasons", Value::Array(reasons));
    }
    bd
}

/// Put `bd` as result `i`'s breakdown and its final as the public score.
fn put_breakdown(body: &mut Value, i: usize, bd: &Object) {
    let fin = f64_of(bd.get("final_score"));
    each_breakdown(body, i, &mut |o| *o = bd.clone());
    set_final(body, i, fin);
}

/// The retrieval score an honest audit derives for each result.
fn retrieval_scores(body: &Value, query: &str) -> Vec<f64> {
    let report = audit::audit_recall(&json::to_json_string(body), Some(query)).unwrap();
    assert!(report.consistent());
    report.results.iter().map(|r| r.retrieval_score.unwrap().lo).collect()
}

#[test]
fn case1_invented_stages_are_caught() {
    let (honest, query) = captured_body("recall-fast-standard");
    for (i, value) in [(0usize, 0.99), (0, 1.5), (4, -0.5)] {
        let mut body = honest.clone();
        each_breakdown(&mut body, i, &mut |o| {
            let mut stages = stages_of(o);
            let input = f64_of(o.get("final_score"));
            stages.push(obj(&[
                ("stage", Value::str("priority-boost")),
                ("input_score", Value::Float(input)),
                ("output_score", Value::Float(value)),
            ]));
            o.insert("ranking_stages", Value::Array(stages));
        });
        set_final(&mut body, i, value);
        caught(&format!("invented stage {i} → {value}"), body, &query, AuditCode::StageUnknown, false);
    }
    // A real mmr-rerank stage with its method deleted.
    let (honest, query) = captured_body("recall-fast-mmr");
    let mut body = honest.clone();
    each_breakdown(&mut body, 0, &mut |o| {
        let mut stages = stages_of(o);
        if let Value::Object(s) = &mut stages[0] {
            s.remove("method");
            s.insert("output_score", Value::Float(0.99));
        }
        o.insert("ranking_stages", Value::Array(stages));
    });
    set_final(&mut body, 0, 0.99);
    caught("mmr-rerank without method", body, &query, AuditCode::StageUnknown, true);
    // A real stage kind the request did not ask for (no _rerank in filters).
    let (honest, query) = captured_body("recall-fast-standard");
    let mut body = honest.clone();
    let n = body.get("memories").unwrap().as_array().unwrap().len();
    for i in 0..n {
        each_breakdown(&mut body, i, &mut |o| {
            let input = f64_of(o.get("final_score"));
            let out = lians_score::scoring::rank::rank_position_score(
                &Value::int(i as i64),
                &Value::int(n as i64),
                &Value::Float(input),
            )
            .unwrap();
            o.insert(
                "ranking_stages",
                Value::Array(vec![obj(&[
                    ("stage", Value::str("mmr-rerank")),
                    ("input_score", Value::Float(input)),
                    ("output_score", Value::Float(out)),
                    ("method", Value::str("rank-calibration-v1")),
                    ("position", Value::int(i as i64 + 1)),
                    ("candidate_count", Value::int(n as i64)),
                ])]),
            );
            o.insert("final_score", Value::Float(out));
        });
        let out = f64_of(
            body.get("memories").unwrap().as_array().unwrap()[i].get("score_breakdown").unwrap().get("final_score"),
        );
        set_final(&mut body, i, out);
    }
    caught("mmr-rerank without _rerank", body, &query, AuditCode::StageUnknown, true);
}

#[test]
fn case2_ineligible_results_are_caught() {
    let (honest, query) = captured_body("recall-fast-standard");
    let last = honest.get("memories").unwrap().as_array().unwrap().len() - 1;
    let mut body = honest.clone();
    // Tag the last memory as an injection (metadata is not bound) and score it
    // honestly with that tag: safety 0, not eligible; a low base keeps the order.
    edit(&mut body, &["memories", &last.to_string(), "metadata"], &mut |v| {
        if let Value::Object(md) = v {
            md.insert("_admission", obj(&[("risk_tags", Value::Array(vec![Value::str("injection")]))]));
        }
    });
    let reference = body.get("receipt").unwrap().get("reference_time").unwrap().as_str().unwrap().to_string();
    let bd = server_breakdown(&body, last, &reference, &query, 0.05);
    assert_eq!(bd.get("eligible"), Some(&Value::Bool(false)));
    put_breakdown(&mut body, last, &bd);
    caught("ineligible returned", body, &query, AuditCode::IneligibleReturned, true);
}

#[test]
fn case3_fabricated_query_variants_are_caught() {
    let (honest, query) = captured_body("recall-fast-adaptive");
    let mut body = honest.clone();
    let content =
        body.get("memories").unwrap().as_array().unwrap()[0].get("content").unwrap().as_str().unwrap().to_string();
    // A variant made of the content's own words: many lexical matches.
    let fake: String = content.split_whitespace().take(12).collect::<Vec<_>>().join(" ");
    edit(&mut body, &["query_variants"], &mut |v| {
        if let Value::Array(items) = v {
            items.push(Value::str(fake.as_str()));
        }
    });
    let b = retrieval_scores(&honest, &query)[0];
    let reference = body.get("receipt").unwrap().get("reference_time").unwrap().as_str().unwrap().to_string();
    let mut bd = server_breakdown(&body, 0, &reference, &fake, b);
    let old = body.get("memories").unwrap().as_array().unwrap()[0]
        .get("score_breakdown")
        .unwrap()
        .as_object()
        .unwrap()
        .clone();
    let h = f64_of(bd.get("final_score"));
    let mut fusion = old.get("fusion").unwrap().as_object().unwrap().clone();
    fusion.insert("strongest_input_score", Value::Float(h));
    let rrf = f64_of(fusion.get("normalized_rrf_score"));
    let sup = f64_of(fusion.get("facet_support")) / f64_of(fusion.get("facet_count"));
    let fused = lians_score::py::float::round6(0.72 * rrf + 0.18 * h + 0.10 * sup);
    let mut stage = Object::new();
    stage.insert("stage", Value::str("adaptive-fusion"));
    stage.insert("input_score", Value::Float(h));
    stage.insert("output_score", Value::Float(fused));
    for (k, v) in fusion.iter() {
        stage.insert(k.clone(), v.clone());
    }
    let mut reasons = bd.get("reasons").unwrap().as_array().unwrap().to_vec();
    reasons.push(Value::str("adaptive query facets combined with weighted reciprocal-rank fusion"));
    bd.insert("reasons", Value::Array(reasons));
    bd.insert("pre_fusion_score", Value::Float(h));
    bd.insert("fusion", Value::Object(fusion));
    bd.insert("ranking_stages", Value::Array(vec![Value::Object(stage)]));
    bd.insert("final_score", Value::Float(fused));
    assert!(f64_of(bd.get("relevance_score")) > f64_of(old.get("relevance_score")));
    put_breakdown(&mut body, 0, &bd);
    caught("fabricated variant", body, &query, AuditCode::QueryVariantsMismatch, true);
}

#[test]
fn case4_fusion_values_are_checked() {
    let (honest, query) = captured_body("recall-deep");
    let fuse = |body: &mut Value, field: &str, value: Value| {
        each_breakdown(body, 0, &mut |o| {
            let mut fusion = o.get("fusion").unwrap().as_object().unwrap().clone();
            fusion.insert(field, value.clone());
            let rrf = f64_of(fusion.get("normalized_rrf_score"));
            let s = f64_of(fusion.get("strongest_input_score"));
            let sup = f64_of(fusion.get("facet_support")) / f64_of(fusion.get("facet_count"));
            let fused = lians_score::py::float::round6(0.72 * rrf + 0.18 * s + 0.10 * sup);
            let mut stages = stages_of(o);
            if let Value::Object(st) = &mut stages[0] {
                st.insert(field, value.clone());
                st.insert("output_score", Value::Float(fused));
            }
            o.insert("fusion", Value::Object(fusion));
            o.insert("ranking_stages", Value::Array(stages));
            o.insert("final_score", Value::Float(fused));
        });
        let fin = f64_of(
            body.get("memories").unwrap().as_array().unwrap()[0].get("score_breakdown").unwrap().get("final_score"),
        );
        set_final(body, 0, fin);
    };
    let mut body = honest.clone();
    fuse(&mut body, "normalized_rrf_score", Value::Float(2.0));
    caught("rrf 2.0", body, &query, AuditCode::FusionInconsistent, false);
    let mut body = honest.clone();
    fuse(&mut body, "facet_support", Value::int(10));
    caught("support 10", body, &query, AuditCode::FusionInconsistent, false);

    // A 1-facet fusion record injected into a standard, max_query_variants 1 response.
    let (honest, query) = captured_body("recall-fast-standard");
    let mut body = honest.clone();
    each_breakdown(&mut body, 0, &mut |o| {
        let h = f64_of(o.get("final_score"));
        let fusion = obj(&[
            ("method", Value::str("weighted-reciprocal-rank-fusion-v1")),
            ("facet_support", Value::int(1)),
            ("facet_count", Value::int(1)),
            ("scopes", Value::Array(vec![Value::str("episodic")])),
            ("normalized_rrf_score", Value::Float(1.0)),
            ("strongest_input_score", Value::Float(h)),
            ("strongest_scope", Value::str("episodic")),
        ]);
        let fused = lians_score::py::float::round6(0.72 + 0.18 * h + 0.10);
        let mut stage = fusion.as_object().unwrap().clone();
        stage.insert("stage", Value::str("adaptive-fusion"));
        stage.insert("input_score", Value::Float(h));
        stage.insert("output_score", Value::Float(fused));
        let mut reasons = o.get("reasons").unwrap().as_array().unwrap().to_vec();
        reasons.push(Value::str("adaptive query facets combined with weighted reciprocal-rank fusion"));
        o.insert("reasons", Value::Array(reasons));
        o.insert("pre_fusion_score", Value::Float(h));
        o.insert("fusion", fusion);
        o.insert("ranking_stages", Value::Array(vec![Value::Object(stage)]));
        o.insert("final_score", Value::Float(fused));
    });
    let fin =
        f64_of(body.get("memories").unwrap().as_array().unwrap()[0].get("score_breakdown").unwrap().get("final_score"));
    set_final(&mut body, 0, fin);
    caught("fusion in a standard response", body, &query, AuditCode::FusionInconsistent, true);
}

#[test]
fn case5_as_of_is_enforced() {
    let (honest, query) = captured_body("recall-fast-asof");
    let bases = retrieval_scores(&honest, &query);
    let mut body = honest.clone();
    // Re-score every result at as_of + 200 days, bound as the reference time.
    let later = "2027-01-01T00:00:00+00:00";
    edit(&mut body, &["receipt", "reference_time"], &mut |v| *v = Value::str(later));
    let n = bases.len();
    for (i, b) in bases.iter().enumerate() {
        let bd = server_breakdown(&body, i, later, &query, *b);
        put_breakdown(&mut body, i, &bd);
    }
    // Keep the server's order for the new scores.
    let mut order: Vec<usize> = (0..n).collect();
    let keys: Vec<_> = body.get("memories").unwrap().as_array().unwrap().to_vec();
    let sorted = lians_score::scoring::rank::sort_candidates(&keys).unwrap();
    let ids: Vec<Value> = sorted.iter().map(|m| m.get("id").unwrap().clone()).collect();
    order.sort_by_key(|&i| ids.iter().position(|id| Some(id) == keys[i].get("id")).unwrap());
    each_array(&mut body, &mut |items| {
        let copy = items.clone();
        for (slot, &from) in items.iter_mut().zip(&order) {
            *slot = copy[from].clone();
        }
    });
    caught("as_of + 200 days", body, &query, AuditCode::AsOfMismatch, true);
}

#[test]
fn case6_order_ties_duplicates_and_counts_are_checked() {
    let (honest, query) = captured_body("recall-fast-standard");
    // Swapped results.
    let mut body = honest.clone();
    each_array(&mut body, &mut |items| items.swap(0, 1));
    caught("swapped", body, &query, AuditCode::OrderViolation, false);

    // A tie ordered against stable_score_key: a copy of result 0 with a later
    // ingestion time (not a scoring input) must come first; it is put second.
    let mut body = honest.clone();
    each_array(&mut body, &mut |items| {
        let mut copy = items[0].clone();
        edit(&mut copy, &["id"], &mut |v| *v = Value::str("00000000-0000-4000-8000-000000000001"));
        edit(&mut copy, &["ingestion_time"], &mut |v| *v = Value::str("2026-12-01T09:19:11.999999"));
        items.insert(1, copy);
    });
    caught("tie against the stable key", body, &query, AuditCode::OrderViolation, false);

    // A result returned two and three times.
    for copies in [1, 2] {
        let mut body = honest.clone();
        each_array(&mut body, &mut |items| {
            for _ in 0..copies {
                let copy = items[0].clone();
                items.insert(1, copy);
            }
        });
        caught(&format!("duplicate ×{}", copies + 1), body, &query, AuditCode::DuplicateResult, true);
    }

    // candidate_count 5 → 1000 (every final ≈ 0.999).
    let (honest, query) = captured_body("recall-fast-mmr");
    let mut body = honest.clone();
    let n = body.get("memories").unwrap().as_array().unwrap().len();
    for i in 0..n {
        each_breakdown(&mut body, i, &mut |o| {
            let mut stages = stages_of(o);
            let mut out = 0.0;
            if let Value::Object(s) = &mut stages[0] {
                s.insert("candidate_count", Value::int(1000));
                let p = f64_of(s.get("position")) as i64 - 1;
                out = lians_score::scoring::rank::rank_position_score(
                    &Value::int(p),
                    &Value::int(1000),
                    s.get("input_score").unwrap(),
                )
                .unwrap();
                s.insert("output_score", Value::Float(out));
            }
            o.insert("ranking_stages", Value::Array(stages));
            o.insert("final_score", Value::Float(out));
        });
        let fin = f64_of(
            body.get("memories").unwrap().as_array().unwrap()[i].get("score_breakdown").unwrap().get("final_score"),
        );
        assert!(fin > 0.99);
        set_final(&mut body, i, fin);
    }
    caught("candidate_count 1000", body, &query, AuditCode::CandidateCountMismatch, true);
}

#[test]
fn stage_details_policy_and_keyed_path_are_checked() {
    // MMR and graph-proximity details are re-derived from the stage input and the filters.
    for (stem, field, delta, code) in [
        ("recall-fast-mmr", "selection_objective", 0.01, AuditCode::StageUnknown),
        ("recall-fast-mmr", "lambda", 0.1, AuditCode::StageUnknown),
        ("recall-fast-graph", "proximity_bonus", 0.1, AuditCode::StageUnknown),
        ("recall-fast-graph", "combined_objective", 0.01, AuditCode::StageUnknown),
    ] {
        let (honest, query) = captured_body(stem);
        let mut body = honest.clone();
        each_breakdown(&mut body, 1, &mut |o| {
            let mut stages = stages_of(o);
            let last = stages.len() - 1;
            if let Value::Object(s) = &mut stages[last] {
                let v = f64_of(s.get(field));
                s.insert(field, Value::Float(lians_score::py::float::round6(v + delta)));
            }
            o.insert("ranking_stages", Value::Array(stages));
        });
        caught(&format!("{stem} {field}"), body, &query, code, true);
    }
    // The mmr-rerank stage dropped from a body whose filters asked for it
    // (chain and reasons kept consistent: the pre-MMR scores and order).
    let (honest, query) = captured_body("recall-fast-mmr");
    let mut body = honest.clone();
    let n = body.get("memories").unwrap().as_array().unwrap().len();
    for i in 0..n {
        each_breakdown(&mut body, i, &mut |o| {
            let input = f64_of(stages_of(o)[0].get("input_score"));
            let mut reasons = o.get("reasons").unwrap().as_array().unwrap().to_vec();
            reasons.pop();
            o.insert("reasons", Value::Array(reasons));
            o.remove("ranking_stages");
            o.insert("final_score", Value::Float(input));
        });
        let fin = f64_of(
            body.get("memories").unwrap().as_array().unwrap()[i].get("score_breakdown").unwrap().get("final_score"),
        );
        set_final(&mut body, i, fin);
    }
    let keys: Vec<_> = body.get("memories").unwrap().as_array().unwrap().to_vec();
    let sorted = lians_score::scoring::rank::sort_candidates(&keys).unwrap();
    let order: Vec<usize> =
        sorted.iter().map(|m| keys.iter().position(|k| k.get("id") == m.get("id")).unwrap()).collect();
    each_array(&mut body, &mut |items| {
        let copy = items.clone();
        for (slot, &from) in items.iter_mut().zip(&order) {
            *slot = copy[from].clone();
        }
    });
    caught("mmr-rerank dropped", body, &query, AuditCode::StageUnknown, true);

    // Graph proximity with no bonus anywhere (the server skips the stage then).
    let (honest, query) = captured_body("recall-fast-graph");
    let mut body = honest.clone();
    let n = body.get("memories").unwrap().as_array().unwrap().len();
    for i in 0..n {
        each_breakdown(&mut body, i, &mut |o| {
            let mut stages = stages_of(o);
            if let Value::Object(s) = &mut stages[0] {
                let input = f64_of(s.get("input_score"));
                s.insert("distance", Value::Null);
                s.insert("proximity_bonus", Value::Float(0.0));
                s.insert("combined_objective", Value::Float(input));
            }
            o.insert("ranking_stages", Value::Array(stages));
        });
    }
    caught("graph without a bonus", body, &query, AuditCode::StageUnknown, true);

    // A policy the server does not write: nothing that depends on it is auditable.
    let (honest, query) = captured_body("recall-fast-standard");
    let mut body = honest.clone();
    edit(&mut body, &["receipt", "policy", "mode"], &mut |v| *v = Value::str("turbo"));
    caught("unknown mode", body, &query, AuditCode::NotAuditable, false);
    let mut body = honest.clone();
    edit(&mut body, &["receipt", "policy", "candidate_floor"], &mut |v| *v = Value::int(21));
    caught("odd floor", body, &query, AuditCode::NotAuditable, false);
    // No blend reason outside the keyed path.
    let mut body = honest.clone();
    each_breakdown(&mut body, 0, &mut |o| {
        let mut reasons = o.get("reasons").unwrap().as_array().unwrap().to_vec();
        reasons.truncate(7);
        o.insert("reasons", Value::Array(reasons));
    });
    caught("no blend reason", body, &query, AuditCode::BlendInconsistent, true);
    // More results than the policy's k allows (floor 20: k <= 10).
    let mut body = honest.clone();
    each_array(&mut body, &mut |items| {
        let last = items.last().unwrap().clone();
        for i in 0..6 {
            let mut copy = last.clone();
            edit(&mut copy, &["id"], &mut |v| *v = Value::str(format!("ffffffff-0000-4000-8000-00000000000{i}")));
            items.push(copy);
        }
    });
    caught("11 results", body, &query, AuditCode::CandidateCountMismatch, false);
}

/// An unknown option name fails closed with a typed error at its pointer
/// (issue #20 item 4): `{qeury}` must not audit as if no query were given.
#[test]
fn unknown_audit_options_fail_closed() {
    let (_, wire, query) = captured().into_iter().next().expect("a captured body");
    for name in ["qeury", "Query", "trusted_public_key"] {
        let mut o = Object::new();
        o.insert(name, Value::str(&query));
        let err = api::audit_recall(&wire, &Value::Object(o)).expect_err(name);
        assert_eq!(err.code, ErrorCode::InvalidValue, "{name}");
        assert_eq!(err.path, format!("/{name}"), "{name}");
    }
    let mut o = Object::new();
    o.insert("query", Value::str(&query));
    assert!(api::audit_recall(&wire, &Value::Object(o)).is_ok());
}

// ------------------------------------------------------------ issue #29

fn data(rel: &str) -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/audit").join(rel))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn audit_with_request(wire: &str, request: &str) -> Value {
    let mut o = Object::new();
    o.insert("request", json::parse(request).unwrap());
    api::audit_recall(wire, &Value::Object(o)).expect("auditable")
}

/// The ten lies of issue #29 (tests/data/audit/lies, made by
/// scripts/audit/lies.py with the reference's own stage functions from real
/// captured bodies, re-hashed): each verifies, and each audits inconsistent
/// with its code once the request is given.
#[test]
fn the_ten_lies_of_issue_29_are_caught() {
    let index = json::parse(&data("lies/lies.json")).unwrap();
    let lies = index.as_object().unwrap();
    assert_eq!(lies.len(), 10);
    for (name, entry) in lies.iter() {
        let name = name.as_str().unwrap();
        let wire = data(&format!("lies/{name}.json"));
        let request = data(&format!("lies/{name}.request.json"));
        let code = entry.get("code").and_then(Value::as_str).unwrap();
        let query = json::parse(&request).unwrap().get("query").and_then(Value::as_str).unwrap().to_string();
        assert!(verifies(&wire, &query), "{name}: the lie must still verify (re-hashed)");
        let report = audit_with_request(&wire, &request);
        assert_eq!(report.get("consistent"), Some(&Value::Bool(false)), "{name}: not caught");
        assert!(failures(&report).iter().any(|f| f == code), "{name}: {:?} lacks {code}", failures(&report));
        // The typed Rust API agrees.
        let options = audit::AuditOptions {
            request: Some(audit::AuditRequest::from_json(&json::parse(&request).unwrap(), "/request").unwrap()),
            ..audit::AuditOptions::default()
        };
        let typed = audit::audit_recall_options(&wire, &options, &mut |_, _, _| Ok(())).unwrap();
        assert!(typed.failures().iter().any(|c| c.as_str() == code), "{name}: typed API");
    }
}

/// Every captured body audits consistent with the request it answered.
#[test]
fn captured_bodies_audit_consistent_with_their_request() {
    let mut n = 0;
    for (stem, wire, _) in captured() {
        let request = data(&format!("requests/{stem}.json"));
        let report = audit_with_request(&wire, &request);
        assert_eq!(report.get("consistent"), Some(&Value::Bool(true)), "{stem}: {:?}", failures(&report));
        // Every result lists what the receipt does not bind.
        for r in report.get("results").and_then(Value::as_array).unwrap() {
            let unbound = r.get("cannot_audit").and_then(Value::as_array).unwrap();
            assert!(unbound.iter().any(|v| v.as_str() == Some("metadata")), "{stem}");
        }
        n += 1;
    }
    assert!(n >= 13);
}

/// The request is evidence: a receipt copy that differs from it, a time
/// outside the window, and unknown keys.
#[test]
fn the_request_binds_the_receipt() {
    let wire = data("recall-fast-standard.json");
    let base = json::parse(&data("requests/recall-fast-standard.json")).unwrap();
    let with = |edit: &dyn Fn(&mut Object)| {
        let mut r = base.as_object().unwrap().clone();
        edit(&mut r);
        json::to_json_string(&Value::Object(r))
    };
    // Each field the receipt copies.
    type Edit = Box<dyn Fn(&mut Object)>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        ("k", Box::new(|r: &mut Object| r.insert("k", Value::int(3))), "request_mismatch"),
        ("mode", Box::new(|r: &mut Object| r.insert("mode", Value::str("deep"))), "request_mismatch"),
        ("strategy", Box::new(|r: &mut Object| r.insert("strategy", Value::str("adaptive"))), "request_mismatch"),
        (
            "include_context",
            Box::new(|r: &mut Object| r.insert("include_context", Value::Bool(true))),
            "request_mismatch",
        ),
        (
            "filters",
            Box::new(|r: &mut Object| r.insert("filters", json::parse(r#"{"_rerank":"mmr"}"#).unwrap())),
            "request_mismatch",
        ),
        ("as_of", Box::new(|r: &mut Object| r.insert("as_of", Value::str("2026-06-15T00:00:00Z"))), "request_mismatch"),
        (
            "sent_at",
            Box::new(|r: &mut Object| r.insert("sent_at", Value::str("2026-12-01T09:30:00+00:00"))),
            "reference_time_inconsistent",
        ),
        (
            "received_at",
            Box::new(|r: &mut Object| r.insert("received_at", Value::str("2026-12-01T09:00:00+00:00"))),
            "reference_time_inconsistent",
        ),
    ];
    for (name, edit, code) in cases {
        let report = audit_with_request(&wire, &with(&*edit));
        assert!(failures(&report).iter().any(|f| f == code), "{name}: {:?}", failures(&report));
    }
    // Within the window (the body's reference_time is 09:19:11.507111).
    let ok = with(&|r: &mut Object| {
        r.insert("sent_at", Value::str("2026-12-01T09:19:11.400Z"));
        r.insert("received_at", Value::str("2026-12-01T09:19:11.600Z"));
    });
    assert_eq!(audit_with_request(&wire, &ok).get("consistent"), Some(&Value::Bool(true)));
    // A cached answer up to the TTL old; the TTL is an option.
    let cached = with(&|r: &mut Object| r.insert("sent_at", Value::str("2026-12-01T09:20:00Z")));
    assert_eq!(audit_with_request(&wire, &cached).get("consistent"), Some(&Value::Bool(true)));
    let mut o = Object::new();
    o.insert("request", json::parse(&cached).unwrap());
    o.insert("cache_ttl_seconds", Value::int(10));
    let report = api::audit_recall(&wire, &Value::Object(o)).unwrap();
    assert!(failures(&report).contains(&"reference_time_inconsistent".to_string()));
    // Unknown keys, wrong types and values the server refuses fail closed.
    for (key, value, code) in [
        ("qeury", Value::str("x"), ErrorCode::InvalidValue),
        ("k", Value::int(0), ErrorCode::InvalidValue),
        ("k", Value::str("5"), ErrorCode::WrongType),
        ("mode", Value::str("slow"), ErrorCode::InvalidValue),
        ("filters", Value::Array(vec![]), ErrorCode::WrongType),
        ("sent_at", Value::str("yesterday"), ErrorCode::InvalidDatetime),
    ] {
        let mut r = base.as_object().unwrap().clone();
        r.insert(key, value);
        let mut o = Object::new();
        o.insert("request", Value::Object(r));
        let err = api::audit_recall(&wire, &Value::Object(o)).expect_err(key);
        assert_eq!(err.code, code, "{key}");
        assert!(err.path.starts_with(&format!("/request/{key}")), "{key}: {}", err.path);
    }
    // The query option and request.query must agree.
    let mut o = Object::new();
    o.insert("request", base.clone());
    o.insert("query", Value::str("something else"));
    assert_eq!(api::audit_recall(&wire, &Value::Object(o)).unwrap_err().code, ErrorCode::InvalidValue);
}

/// A 30 MB body (5 results × 20,000 stage records) audits with a report
/// under 1 MB; `consistent` and `failures` are those of the whole audit.
#[test]
fn a_huge_body_gives_a_bounded_report() {
    // A tenth first, for the ratio printed (time is measured in BENCHMARKS.md, not asserted).
    let small = huge_body(2_000);
    let t = std::time::Instant::now();
    let _ = audit::audit_recall(&small.0, Some(&small.1)).unwrap();
    let tenth = t.elapsed();
    let (wire, query) = huge_body(20_000);
    assert!(wire.len() > 29_000_000, "{} bytes", wire.len());
    let t = std::time::Instant::now();
    let report = audit::audit_recall(&wire, Some(&query)).unwrap();
    let elapsed = t.elapsed();
    assert!(!report.consistent());
    let printed = json::to_json_string(&report.into_json());
    eprintln!(
        "{} MB body: {} bytes of report, {elapsed:?} ({:.1}x the {} MB body's {tenth:?})",
        wire.len() / 1_000_000,
        printed.len(),
        elapsed.as_secs_f64() / tenth.as_secs_f64(),
        small.0.len() / 1_000_000
    );
    assert!(printed.len() < 1_000_000, "{} bytes", printed.len());
}

/// The captured MMR body with `records` copies of a stage record appended
/// to each of its five results (memories and receipt alike).
fn huge_body(records: usize) -> (String, String) {
    let (mut body, query) = captured_body("recall-fast-mmr");
    let mut stage: Option<Value> = None;
    each_breakdown(&mut body, 0, &mut |bd| stage = stages_of(bd).first().cloned());
    let stage = stage.unwrap();
    for i in 0..5 {
        each_breakdown(&mut body, i, &mut |bd| {
            let mut stages = stages_of(bd);
            stages.extend(std::iter::repeat(stage.clone()).take(records));
            bd.insert("ranking_stages", Value::Array(stages));
        });
    }
    (json::to_json_string(&body), query)
}
