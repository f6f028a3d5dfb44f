//! Mutation and re-serialisation tests over the real server samples
//! (`shared/samples`): the samples verify; changing any scalar a hash binds
//! makes verification fail; re-serialising with another key order,
//! whitespace, escapes and float spelling never does.

mod common;

use common::*;
use lians_score::json::{self, Value};
use lians_score::receipt::{self, Report};

fn pack_options(public_key: &str) -> Value {
    let mut o = json::Object::new();
    o.insert("trusted_public_key", Value::str(public_key.trim()));
    o.insert("expected_key_id", Value::str(PACK_KEY_ID));
    Value::Object(o)
}

fn assert_valid(what: &str, r: &Report) {
    assert!(r.valid, "{what} should verify: failures {:?}\n{:#?}", r.failures(), r.checks);
}

/// At most `cap` evenly spaced paths (keeps debug-build runs short).
fn spaced(paths: Vec<Vec<String>>, cap: usize) -> Vec<Vec<String>> {
    if paths.len() <= cap {
        return paths;
    }
    let step = paths.len() as f64 / cap as f64;
    (0..cap).map(|i| paths[(i as f64 * step) as usize].clone()).collect()
}

#[test]
fn samples_verify() {
    let Some(recall) = read_sample(RECALL_SAMPLE) else { return };
    let body = json::parse(&recall).unwrap();
    let r = receipt::verify_recall_receipt(&recall, &given_from_body(&body));
    assert_valid("recall sample", &r);
    assert_eq!(Some(r.receipt_sha256.clone().unwrap()), body.get("receipt_sha256").and_then(Value::as_str).map(String::from));
    // The tiny float arrives as 1e-7 and is hashed as 1e-07.
    assert!(recall.contains("1e-7"));
    let (canonical, sha) = receipt::canonicalize(&json::to_json_string(body.get("receipt").unwrap())).unwrap();
    assert!(canonical.contains("1e-07"));
    assert_eq!(Some(sha.as_str()), r.receipt_sha256.as_deref());

    let context = read_sample(CONTEXT_SAMPLE).unwrap();
    let cbody = json::parse(&context).unwrap();
    let r = receipt::verify_context_receipt(&context, &given_from_body(&cbody));
    assert_valid("context sample", &r);
    assert!(r.checks.iter().any(|c| c.code == "context_hash_mismatch" && c.status == receipt::Status::Passed));
    assert!(r.checks.iter().any(|c| c.code == "neighbor_hash_mismatch" && c.status == receipt::Status::Passed));

    let pack = read_sample(PACK_SAMPLE).unwrap();
    let key = read_sample("evidence_public_key.b64").unwrap();
    let r = receipt::verify_evidence_pack(&pack, &pack_options(&key));
    assert_valid("pack sample", &r);
    assert!(r.checks.iter().any(|c| c.code == "signature_invalid" && c.status == receipt::Status::Passed));
    assert!(!r.bound_receipts.is_empty() && r.bound_receipts.iter().all(|b| b.matches));
    // A wrong trusted key or key id is noticed.
    let other = "PiOzdTQTE+v2Xt7cy2+ThY8tLr1w29ZYO8adk1j1bkw=";
    assert_eq!(receipt::verify_evidence_pack(&pack, &pack_options(other)).failures(), ["untrusted_key"]);
}

#[test]
fn every_bound_scalar_change_is_detected() {
    let Some(recall) = read_sample(RECALL_SAMPLE) else { return };
    let context = read_sample(CONTEXT_SAMPLE).unwrap();
    for (name, text, is_context) in [("recall", recall, false), ("context", context, true)] {
        let body = json::parse(&text).unwrap();
        let given = given_from_body(&body);
        let verify = |wire: &str| {
            if is_context {
                receipt::verify_context_receipt(wire, &given)
            } else {
                receipt::verify_recall_receipt(wire, &given)
            }
        };
        let mut paths = Vec::new();
        scalar_paths(&body, &mut Vec::new(), &mut paths);
        // Scalars of the receipt and the body's pinned hash.
        let paths: Vec<_> = paths.into_iter().filter(|p| p[0] == "receipt" || p[0] == "receipt_sha256").collect();
        assert!(paths.len() > 100, "{name}: only {} scalars", paths.len());
        for path in &paths {
            let mutated = edit(body.clone(), path, &mutate_scalar);
            let r = verify(&json::to_json_string(&mutated));
            assert!(!r.valid, "{name}: changing /{} went unnoticed", path.join("/"));
        }
        // Bare receipt with the hash pinned by the caller.
        let bare = body.get("receipt").unwrap().clone();
        let pinned = with(given.clone(), "expected_sha256", body.get("receipt_sha256").unwrap().clone());
        let mut bare_paths = Vec::new();
        scalar_paths(&bare, &mut Vec::new(), &mut bare_paths);
        for path in spaced(bare_paths, 150) {
            let mutated = edit(bare.clone(), &path, &mutate_scalar);
            let wire = json::to_json_string(&mutated);
            let r = if is_context {
                receipt::verify_context_receipt(&wire, &pinned)
            } else {
                receipt::verify_recall_receipt(&wire, &pinned)
            };
            assert!(r.failures().contains(&"receipt_hash_mismatch"), "{name}: bare /{} went unnoticed", path.join("/"));
        }
        // A float written as an integer of the same value changes the hash.
        let at = text.find("\"receipt\":").unwrap();
        let one = at + text[at..].find(":1.0,").expect("a 1.0 in the receipt");
        let edited = format!("{}:1,{}", &text[..one], &text[one + 5..]);
        let r = verify(&edited);
        assert!(!r.valid, "{name}: 1.0 -> 1 went unnoticed");
    }
}

#[test]
fn every_manifest_scalar_change_is_detected() {
    let Some(pack) = read_sample(PACK_SAMPLE) else { return };
    let key = read_sample("evidence_public_key.b64").unwrap();
    let options = pack_options(&key);
    let doc = json::parse(&pack).unwrap();
    let mut paths = Vec::new();
    scalar_paths(&doc, &mut Vec::new(), &mut paths);
    let n = paths.len();
    for path in spaced(paths, 150) {
        let mutated = edit(doc.clone(), &path, &mutate_scalar);
        let r = receipt::verify_evidence_pack(&json::to_json_string(&mutated), &options);
        // identity_note is outside the signed manifest but inside pack_hash.
        assert!(!r.valid, "pack: changing /{} went unnoticed ({n} scalars)", path.join("/"));
    }
}

#[test]
fn reserialisation_never_changes_the_verdict() {
    let Some(recall) = read_sample(RECALL_SAMPLE) else { return };
    let context = read_sample(CONTEXT_SAMPLE).unwrap();
    for (name, text, is_context) in [("recall", recall, false), ("context", context, true)] {
        let body = json::parse(&text).unwrap();
        let given = given_from_body(&body);
        let original = json::canonical_sha256(body.get("receipt").unwrap());
        for wire in [respell(&body), json::to_json_string(&body), json::canonical(&body)] {
            let r = if is_context {
                receipt::verify_context_receipt(&wire, &given)
            } else {
                receipt::verify_recall_receipt(&wire, &given)
            };
            assert_valid(name, &r);
            assert_eq!(r.receipt_sha256.as_deref(), Some(original.as_str()), "{name}");
        }
    }
    let pack = read_sample(PACK_SAMPLE).unwrap();
    let key = read_sample("evidence_public_key.b64").unwrap();
    let doc = json::parse(&pack).unwrap();
    for wire in [respell(&doc), json::canonical(&doc)] {
        assert_valid("pack", &receipt::verify_evidence_pack(&wire, &pack_options(&key)));
    }
}
