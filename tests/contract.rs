//! The contract (src/contract/) against the reference server's own models, as
//! `scripts/contract/record.py` recorded them from lians-sdk 0.5.0 into
//! `tests/data/contract/`: every response object's members (names and order,
//! always sent or not, JSON type, nullability, time members and their
//! spelling), the scorer's components and weight tables, the admission tags
//! and their actions. A row added, dropped, renamed or retyped on either side
//! fails here. (The recording is not in the published crate: the tests then
//! say so and pass.)

use lians_score::contract::{
    self, components, Bind, JsonType, ObjectKind, ObjectSpec, RiskAction, Sent, TimeForm, COMPONENTS, RISK_TAGS,
};
use serde_json::Value;

fn recording(name: &str) -> Option<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/contract").join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(serde_json::from_str(&text).expect("the recording is JSON")),
        Err(e) => {
            eprintln!("skipped: {}: {e}", path.display());
            None
        }
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().expect("an array").iter().map(|s| s.as_str().expect("a string").to_string()).collect()
}

/// The types a member of type `ty` (nullable or not) may hold, as the recording names them.
fn allowed(ty: JsonType, null: bool) -> Vec<&'static str> {
    let mut out = match ty {
        JsonType::Number => vec!["number", "integer"],
        JsonType::Any => vec!["string", "number", "integer", "boolean", "object", "array", "null"],
        other => vec![other.as_str()],
    };
    if null {
        out.push("null");
    }
    out
}

/// Members lians-sdk 0.5.0 always sends that the receipt corpus's valid
/// context bodies (another real server) leave out: `provenance` there holds
/// only the two receipt hashes. Optional in the contract (and unbound), so
/// that both servers' bodies verify.
const CORPUS_OPTIONAL: &[(&str, &str)] = &[
    ("ContextProvenance", "as_of"),
    ("ContextProvenance", "total_candidates"),
    ("ContextProvenance", "query_variants"),
    ("ContextProvenance", "provenance_coverage"),
    ("ContextProvenance", "mode"),
];

/// Every way `spec` and its recording `rec` disagree (empty: they agree).
fn disagreements(spec: &ObjectSpec, rec: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let name = spec.kind.model();
    // The members the server always sends, in its order; the optional ones are those it does not send
    // (or, in CORPUS_OPTIONAL, those another real server's bodies in the public corpus leave out).
    let emitted: Vec<String> = strings(&rec["emitted"])
        .into_iter()
        .filter(|e| !CORPUS_OPTIONAL.contains(&(spec.kind.model(), e.as_str())))
        .collect();
    let always: Vec<String> = spec.always_sent().map(|f| f.name.to_string()).collect();
    if always != emitted {
        out.push(format!("{name}: the contract's always-sent members {always:?} vs the server's {emitted:?}"));
    }
    for f in spec.fields.iter().filter(|f| f.sent == Sent::Optional) {
        if emitted.iter().any(|e| e == f.name) {
            out.push(format!("{name}.{}: optional in the contract, always sent by the server", f.name));
        }
    }
    if let Some(props) = rec.get("properties").and_then(Value::as_object) {
        // A pydantic model: its JSON schema.
        for f in spec.always_sent() {
            let Some(p) = props.get(f.name) else {
                out.push(format!("{name}.{}: not in the model's JSON schema", f.name));
                continue;
            };
            let ty = p["type"].as_str().unwrap_or("");
            let null = p["nullable"].as_bool().unwrap_or(false);
            let fmt = p["format"].as_str();
            if ty != f.ty.as_str() || null != f.null {
                out.push(format!(
                    "{name}.{}: the contract says {}{}, the model {ty}{}",
                    f.name,
                    f.ty.as_str(),
                    if f.null { " or null" } else { "" },
                    if null { " or null" } else { "" }
                ));
            }
            let is_time = fmt == Some("date-time");
            if is_time != (f.time == Some(TimeForm::Encoded)) {
                out.push(format!("{name}.{}: time {:?} in the contract, format {fmt:?} in the model", f.name, f.time));
            }
        }
    }
    if let Some(types) = rec.get("observed_types").and_then(Value::as_object) {
        // Read from real bodies or real calls: each observed type is one the contract allows.
        for f in spec.always_sent() {
            for seen in types.get(f.name).map(strings).unwrap_or_default() {
                if !allowed(f.ty, f.null).contains(&seen.as_str()) {
                    out.push(format!("{name}.{}: a real body holds {seen}, the contract says {:?}", f.name, f.ty));
                }
            }
        }
    }
    if let Some(exprs) = rec.get("expressions").and_then(Value::as_object) {
        // A dict literal: a member written with isoformat() is an IsoFormat time.
        for f in spec.always_sent() {
            let expr = exprs.get(f.name).and_then(Value::as_str).unwrap_or("");
            if expr.contains(".isoformat()") && f.time != Some(TimeForm::IsoFormat) {
                out.push(format!(
                    "{name}.{}: written with isoformat() ({expr}), the contract says {:?}",
                    f.name, f.time
                ));
            }
        }
    }
    out
}

#[test]
fn every_response_object_is_the_servers() {
    let Some(rec) = recording("models.json") else { return };
    let mut bad = Vec::new();
    for kind in ObjectKind::ALL {
        let model = &rec["models"][kind.model()];
        assert!(model.is_object(), "no recording of {}", kind.model());
        bad.extend(disagreements(kind.spec(), model));
    }
    assert!(bad.is_empty(), "the contract and the recorded server models disagree:\n{}", bad.join("\n"));
}

/// The comparison can fail: a member dropped, added, made optional or retyped is seen.
#[test]
fn a_changed_row_is_a_disagreement() {
    let Some(rec) = recording("models.json") else { return };
    let memory = &rec["models"]["MemoryOut"];
    assert!(disagreements(&contract::MEMORY, memory).is_empty());
    let rows = contract::MEMORY.fields;
    let edits: Vec<(&str, Vec<contract::FieldSpec>)> = vec![
        ("dropped", rows[1..].to_vec()),
        ("added", {
            let mut v = rows.to_vec();
            v.push(contract::FieldSpec { name: "extra", ..rows[1] });
            v
        }),
        ("optional", {
            let mut v = rows.to_vec();
            v[3].sent = Sent::Optional;
            v
        }),
        ("retyped", {
            let mut v = rows.to_vec();
            v[12].ty = JsonType::Integer;
            v
        }),
        ("not nullable", {
            let mut v = rows.to_vec();
            v[3].null = false;
            v
        }),
        ("not a time", {
            let mut v = rows.to_vec();
            v[5].time = None;
            v
        }),
    ];
    for (what, v) in edits {
        let spec = ObjectSpec { fields: Box::leak(v.into_boxed_slice()), ..contract::MEMORY };
        assert!(!disagreements(&spec, memory).is_empty(), "{what}: not seen");
    }
}

#[test]
fn the_pack_control_fields_are_the_servers() {
    let Some(rec) = recording("models.json") else { return };
    let pack = &rec["models"]["EvidencePackV2"];
    let mut control: Vec<String> =
        contract::EVIDENCE_PACK.fields.iter().filter(|f| f.bind != Bind::Signed).map(|f| f.name.to_string()).collect();
    control.sort();
    assert_eq!(control, strings(&pack["control_fields"]));
    assert_eq!(contract::EVIDENCE_PACK.rest, Bind::Signed);
    let sig = &rec["models"]["EvidencePackSignature"];
    assert_eq!(strings(&sig["emitted_unsigned"]), strings(&sig["emitted"]));
}

/// The encoder spellings the contract's [`TimeForm::Encoded`] describes:
/// `Z` for UTC, six-digit microseconds only when not zero; `IsoFormat`: `+00:00`.
#[test]
fn time_spellings_are_the_encoders() {
    let Some(rec) = recording("time.json") else { return };
    for case in rec["cases"].as_array().unwrap() {
        let served = case["served"].as_str().unwrap();
        let iso = case["isoformat"].as_str().unwrap();
        assert_eq!(served, case["model_dump_json_mode"].as_str().unwrap(), "{case}");
        let (head, tail) = served.split_at(19);
        assert_eq!(head.len(), 19, "{served}");
        let tail = tail.strip_prefix('.').map_or(tail, |t| {
            assert!(t.len() >= 6 && t[..6].bytes().all(|b| b.is_ascii_digit()), "{served}");
            assert_ne!(&t[..6], "000000", "{served}");
            &t[6..]
        });
        assert!(
            tail.is_empty() || tail == "Z" || (tail.len() == 6 && (tail.starts_with('+') || tail.starts_with('-')))
        );
        // UTC is Z; `+00:00` only for a sub-minute offset the encoder truncates (isoformat `+00:00:30`).
        if iso.ends_with("+00:00") {
            assert!(served.ends_with('Z'), "{served} vs isoformat {iso}");
        }
        if tail == "+00:00" {
            assert!(iso.ends_with("+00:00:30"), "{served} vs isoformat {iso}");
        }
    }
}

#[test]
fn the_components_are_the_scorers() {
    let Some(rec) = recording("scoring.json") else { return };
    let keys: Vec<String> = COMPONENTS.iter().map(|c| c.key.to_string()).collect();
    assert_eq!(keys, strings(&rec["components"]));
    let table = |v: &Value| -> Vec<(String, f64)> {
        v.as_array().unwrap().iter().map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_f64().unwrap())).collect()
    };
    let ours = |t: &[(&str, f64)]| -> Vec<(String, f64)> { t.iter().map(|(k, w)| (k.to_string(), *w)).collect() };
    assert_eq!(ours(&components::recall_weights()), table(&rec["recall_weights"]));
    assert_eq!(ours(&components::admission_weights()), table(&rec["admission_weights"]));
    let retrieval: Vec<String> = COMPONENTS.iter().filter(|c| c.uses_retrieval).map(|c| c.key.to_string()).collect();
    assert_eq!(retrieval, strings(&rec["uses_retrieval"]));
}

#[test]
fn the_risk_tags_are_the_admission_detectors() {
    let Some(rec) = recording("admission.json") else { return };
    let tags = rec["tags"].as_array().unwrap();
    let ours: Vec<(&str, &str, bool)> = RISK_TAGS.iter().map(|t| (t.tag, t.action.as_str(), t.gates_safety)).collect();
    let theirs: Vec<(&str, &str, bool)> = tags
        .iter()
        .map(|t| (t["tag"].as_str().unwrap(), t["action"].as_str().unwrap(), t["gates_safety"].as_bool().unwrap()))
        .collect();
    assert_eq!(ours, theirs);
    assert!(RISK_TAGS.iter().all(|t| t.action == RiskAction::Review || t.action == RiskAction::Reject));
    // Each recorded example: the reference's tag and action are this crate's too.
    for t in tags {
        let (tag, example) = (t["tag"].as_str().unwrap(), t["example"].as_str().unwrap());
        if tag == "source:blocked" {
            let d = lians_score::evaluate_admission(
                "the finance team gets the renewal invoice",
                Some("Scraper"),
                "enforce",
                &["scraper".to_string()],
            );
            assert_eq!((d.risk_tags, d.action.as_str()), (vec![tag.to_string()], t["action"].as_str().unwrap()));
            continue;
        }
        assert!(lians_score::admission::detect_risk_tags(example).contains(&tag), "{tag}: {example}");
        let d = lians_score::evaluate_admission(example, Some("crm"), "enforce", &[]);
        assert_eq!(d.action.as_str(), t["action"].as_str().unwrap(), "{tag}");
    }
}
