//! The recall audit (`src/audit`, spec `recall-audit.md`) on real responses:
//! the captured sample and the bodies captured from a real Lians server in
//! every recall mode (`tests/audit/captured`, see its README) audit
//! consistent; "lying server" edits, re-hashed so that verification still
//! passes, are caught with the right code; mutated bodies never panic.

mod common;

use std::path::PathBuf;

use lians_score::audit::{self, codes};
use lians_score::json::{self, Object, Value};
use lians_score::{api, receipt, ErrorCode};

fn captured() -> Vec<(String, String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/audit/captured");
    let mut out = Vec::new();
    let mut names: Vec<_> =
        std::fs::read_dir(&dir).expect("tests/audit/captured").flatten().map(|e| e.path()).collect();
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
    assert_eq!(report.failures()[0], codes::QUERY_MISMATCH);
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

fn assert_caught(name: &str, lying: &str, query: &str, code: &str, alone: bool) {
    let mut given = Object::new();
    given.insert("query", Value::str(query));
    let verified = receipt::verify_recall_receipt(lying, &Value::Object(given));
    assert!(
        verified.valid || name.starts_with("context"),
        "{name}: the lie must still verify: {:?}",
        verified.failures()
    );
    let report = audit_json(lying, query);
    let f = failures(&report);
    assert_eq!(report.get("consistent"), Some(&Value::Bool(false)), "{name}: {code} not caught");
    if alone {
        assert_eq!(f, [code], "{name}");
    } else {
        assert!(f.iter().any(|c| c == code), "{name}: {code} not in {f:?}");
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
                assert_caught(&format!("{name}[{i}].{comp}"), &lying, &query, codes::COMPONENT_MISMATCH, true);
                lies += 1;
            }
            for delta in [0.01, -0.003, 2e-6] {
                let lying = lie(&wire, i, &["relevance_score"], &mut add(delta));
                assert_caught(
                    &format!("{name}[{i}].relevance {delta}"),
                    &lying,
                    &query,
                    codes::RELEVANCE_INCONSISTENT,
                    delta.abs() > 1e-5,
                );
                lies += 1;
            }
            let lying = lie(&wire, i, &["quality_score"], &mut add(0.01));
            assert_caught(&format!("{name}[{i}].quality"), &lying, &query, codes::QUALITY_INCONSISTENT, false);
            let lying = lie(&wire, i, &["temporal_eligible"], &mut |v| *v = Value::Bool(false));
            assert_caught(&format!("{name}[{i}].gate"), &lying, &query, codes::GATE_MISMATCH, true);
            let lying = lie(&wire, i, &["reasons", "2"], &mut |v| {
                *v = Value::str("server-verified source trust level system_verified")
            });
            assert_caught(&format!("{name}[{i}].reason"), &lying, &query, codes::REASON_MISMATCH, true);
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
                let code = if is_calibrated { codes::CALIBRATION_MISMATCH } else { codes::FUSION_INCONSISTENT };
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
                assert_caught(&format!("{name}[{i}] rrf"), &lying, &query, codes::FUSION_INCONSISTENT, true);
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
        f.contains(&codes::PAIRING_MISMATCH.to_string()) && f.contains(&codes::COMPONENT_MISMATCH.to_string()),
        "{f:?}"
    );
    // A breakdown stripped from both sides.
    let mut body = json::parse(&wire).unwrap();
    edit(&mut body, &["memories", "1", "score_breakdown"], &mut |v| *v = Value::Null);
    edit(&mut body, &["receipt", "results", "1", "score_breakdown"], &mut |v| *v = Value::Null);
    let report = audit_json(&rehash(body), "Acme revenue");
    assert!(failures(&report).contains(&codes::BREAKDOWN_MISSING.to_string()));
    // A dropped result.
    let mut body = json::parse(&wire).unwrap();
    edit(&mut body, &["memories"], &mut |v| {
        if let Value::Array(items) = v {
            items.pop();
        }
    });
    let report = audit_json(&json::to_json_string(&body), "Acme revenue");
    assert_eq!(failures(&report), [codes::PAIRING_MISMATCH]);
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
    let big = format!("{}{}", " ".repeat(lians_score::limits::MAX_TEXT_BYTES), wire);
    assert_eq!(err(&big).code, ErrorCode::TooLarge);
    let huge_query = "q".repeat(lians_score::limits::MAX_STRING_BYTES + 1);
    assert_eq!(audit::audit_recall(&wire, Some(&huge_query)).unwrap_err().code, ErrorCode::TooLarge);
    let bad_options = json::parse(r#"{"query": 5}"#).unwrap();
    assert_eq!(api::audit_recall(&wire, &bad_options).unwrap_err().code, ErrorCode::WrongType);
    // No query, and no variant that hashes to query_sha256.
    let e =
        audit::audit_recall(&wire.replace("\"query_variants\":[\"Acme revenue\"]", "\"query_variants\":[\"x\"]"), None)
            .unwrap_err();
    assert_eq!((e.code, e.path.as_str()), (ErrorCode::MissingField, "/query"));
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
    for code in codes::ALL {
        assert!(docs.contains(&format!("`{code}`")), "docs/audit.md does not document {code}");
    }
}
