//! Hostile input: deep nesting, huge strings, invalid UTF-8, truncated text,
//! huge objects, wrong types in every `given` field. Every call must return a
//! report or a typed error, never panic or overflow the stack.

mod common;

use common::*;
use lians_score::json::{self, Object, PyStr, Value};
use lians_score::receipt::{self, VerificationReport as Report};
use lians_score::ErrorCode;

type Verifier = fn(&str, &Value) -> Report;
const VERIFIERS: [(&str, Verifier); 4] = [
    ("recall", receipt::verify_recall_receipt),
    ("context", receipt::verify_context_receipt),
    ("evidence_pack", receipt::verify_evidence_pack),
    ("canonical", receipt::verify_canonical),
];

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let n = 100_000;
    let docs = [
        "[".repeat(n) + &"]".repeat(n),
        "[".repeat(n),
        "{\"k\":".repeat(n) + "1" + &"}".repeat(n),
        format!("{{\"receipt\":{{\"filters\":{}}}}}", "[".repeat(n) + &"]".repeat(n)),
        "[{\"a\":".repeat(n / 2),
    ];
    for doc in &docs {
        let e = json::parse(doc).unwrap_err();
        assert_eq!(e.code, ErrorCode::NestingTooDeep, "{}", &doc[..20]);
        assert_eq!(json::parse_bytes(doc.as_bytes()).unwrap_err().code, ErrorCode::NestingTooDeep);
        assert!(receipt::canonicalize(doc).is_err());
        for (name, verify) in VERIFIERS {
            let r = verify(doc, &Value::Null);
            assert_eq!(r.failures, ["nesting_too_deep"], "{name}");
            assert!(r.receipt_sha256.is_none());
        }
    }
    // Exactly 512 deep is fine, 513 is not.
    let ok = "[".repeat(512) + &"]".repeat(512);
    assert!(json::parse(&ok).is_ok());
    let bad = "[".repeat(513) + &"]".repeat(513);
    assert_eq!(json::parse(&bad).unwrap_err().code, ErrorCode::NestingTooDeep);
    // A receipt whose filters are 510 deep verifies its hash without trouble.
    let deep_filters = "[".repeat(510) + &"]".repeat(510);
    let wire = format!("{{\"schema\":\"lians.recall-receipt.v2\",\"filters\":{deep_filters},\"results\":[]}}");
    let r = receipt::verify_recall_receipt(&wire, &Value::Null);
    assert!(r.valid, "{:?}", r.failures);
}

#[test]
fn twenty_megabyte_strings() {
    let big = "0123456789abcdef".repeat(20 << 16); // 20 MiB
    let wire = format!("{{\"schema\":\"lians.recall-receipt.v2\",\"filters\":{{\"x\":\"{big}\"}},\"results\":[]}}");
    let v = json::parse(&wire).unwrap();
    assert_eq!(v.get("filters").and_then(|f| f.get("x")).and_then(Value::as_str).map(str::len), Some(20 << 20));
    let r = receipt::verify_recall_receipt(&wire, &Value::Null);
    assert!(r.valid);
    // Non-ASCII and escapes: canonical text is all ASCII escapes.
    let unit = "é😀\\n\\\"\u{2028}";
    let wire = format!("[\"{}\"]", unit.repeat(1 << 20));
    let (canonical, sha) = receipt::canonicalize(&wire).unwrap();
    assert!(canonical.is_ascii());
    assert!(canonical.starts_with("[\"\\u00e9\\ud83d\\ude00\\n\\\"\\u2028"));
    assert_eq!(sha.len(), 64);
    // An unterminated huge string is malformed, not a hang.
    let cut = format!("[\"{}", big);
    assert_eq!(json::parse(&cut).unwrap_err().code, ErrorCode::MalformedJson);
}

#[test]
fn invalid_utf8_is_malformed_json() {
    let bad: [&[u8]; 8] = [
        b"\"\xff\"",
        b"\"\x80\"",
        b"\"\xc0\xaf\"",         // overlong '/'
        b"\"\xed\xa0\x80\"",     // encoded surrogate
        b"\"\xe2\x82\"",         // truncated 3-byte sequence
        b"\"\xf4\x90\x80\x80\"", // beyond U+10FFFF
        b"[1,\xfe]",
        b"\xef\xbb",
    ];
    for b in bad {
        let e = json::parse_bytes(b).unwrap_err();
        assert_eq!(e.code, ErrorCode::MalformedJson, "{b:?}");
        assert!(!e.path.is_empty());
    }
    assert_eq!(json::parse_bytes("[\"é\"]".as_bytes()).unwrap(), Value::Array(vec![Value::str("é")]));
    // A UTF-8 BOM is an error, as for json.loads(str).
    assert_eq!(json::parse_bytes(b"\xef\xbb\xbf[]").unwrap_err().code, ErrorCode::MalformedJson);
}

#[test]
fn truncated_text_is_malformed_everywhere() {
    let Some(recall) = read_sample(RECALL_SAMPLE) else { return };
    let pack = read_sample(PACK_SAMPLE).unwrap();
    for (text, verify) in
        [(&recall, receipt::verify_recall_receipt as Verifier), (&pack, receipt::verify_evidence_pack)]
    {
        let trimmed = text.trim_end();
        let step = trimmed.len() / 300 + 1;
        let mut cut = 0;
        while cut < trimmed.len() {
            if trimmed.is_char_boundary(cut) {
                let prefix = &trimmed[..cut];
                assert_eq!(json::parse(prefix).unwrap_err().code, ErrorCode::MalformedJson, "cut at {cut}");
                if (cut / step) % 5 == 0 {
                    let r = verify(prefix, &Value::Null);
                    assert_eq!(r.failures, ["malformed_json"]);
                    assert!(!r.valid && r.receipt_sha256.is_none());
                }
            }
            cut += step;
        }
    }
}

#[test]
fn huge_objects_stay_linear_and_keep_dict_semantics() {
    let n = 100_000;
    let mut text = String::from("{");
    for i in 0..n {
        text.push_str(&format!("\"k{i}\":{i},"));
    }
    for i in (0..n).step_by(2) {
        text.push_str(&format!("\"k{i}\":\"again\","));
    }
    text.push_str("\"end\":null}");
    let start = std::time::Instant::now();
    let v = json::parse(&text).unwrap();
    let o = v.as_object().unwrap();
    assert_eq!(o.len(), n + 1);
    assert_eq!(o.members()[0].1, Value::str("again"));
    assert_eq!(o.members()[1].1, Value::int(1));
    let canonical = json::canonical(&v);
    assert!(canonical.starts_with("{\"end\":null,\"k0\":\"again\",\"k1\":1,\"k10\":\"again\",\"k100\":\"again\","));
    // Generous bound: quadratic behaviour would take minutes.
    assert!(start.elapsed().as_secs() < 30);
}

#[test]
fn numbers_at_the_edges() {
    assert!(json::parse(&"9".repeat(4300)).is_ok());
    assert_eq!(json::parse(&"9".repeat(4301)).unwrap_err().code, ErrorCode::MalformedJson);
    assert_eq!(json::parse(&format!("-{}", "9".repeat(4301))).unwrap_err().code, ErrorCode::MalformedJson);
    // Long float mantissas are fine (only integers have the digit limit).
    assert_eq!(json::parse(&format!("0.{}", "1".repeat(10_000))).unwrap(), Value::Float(0.1111111111111111));
    assert_eq!(json::canonical(&json::parse("[1e-400,1e400,-0,-0.0]").unwrap()), "[0.0,Infinity,0,-0.0]");
}

fn type_zoo() -> Vec<Value> {
    let mut nested = Object::new();
    let mut inner = Object::new();
    inner.insert("before", Value::Array(vec![]));
    inner.insert("after", Value::int(3));
    nested.insert("id", Value::Object(inner));
    let mut flat = Object::new();
    flat.insert("id", Value::Float(1.5));
    vec![
        Value::Null,
        Value::Bool(true),
        Value::int(7),
        Value::Float(f64::NAN),
        Value::str("not json {"),
        Value::Str(PyStr::from_wtf8(vec![b'a', 0xED, 0xA0, 0x80])),
        Value::Array(vec![Value::int(1), Value::Null]),
        Value::Object(Object::new()),
        Value::Object(flat),
        Value::Object(nested),
    ]
}

/// Every `given` field the verifiers read (the one list, `receipt::given::FIELDS`), and a name they do not.
fn given_fields() -> impl Iterator<Item = &'static str> {
    lians_score::receipt::GIVEN_FIELDS.iter().copied().chain(["unknown_field"])
}

#[test]
fn wrong_types_in_every_given_field_never_panic() {
    let Some(recall) = read_sample(RECALL_SAMPLE) else { return };
    let context = read_sample(CONTEXT_SAMPLE).unwrap();
    let pack = read_sample(PACK_SAMPLE).unwrap();
    for (wire, verify) in [
        (&recall, receipt::verify_recall_receipt as Verifier),
        (&context, receipt::verify_context_receipt),
        (&pack, receipt::verify_evidence_pack),
        (&recall, receipt::verify_canonical),
    ] {
        // `given` itself of every type.
        for g in type_zoo() {
            let r = verify(wire, &g);
            let _ = json::to_json_string(&r.to_json());
            if !matches!(g, Value::Null | Value::Object(_)) {
                assert!(r.failures.iter().any(|c| *c == "invalid_given"));
            }
        }
        for field in given_fields() {
            for value in type_zoo() {
                let mut g = Object::new();
                g.insert(field, value);
                let r = verify(wire, &Value::Object(g));
                let report = r.to_json();
                assert!(report.get("valid").is_some());
                for c in &r.checks {
                    assert!(c.pointer.is_empty() || c.pointer.starts_with('/'), "{}", c.pointer);
                }
            }
        }
    }
}

#[test]
fn given_metadata_and_recall_wire_may_be_hostile_text() {
    let Some(context) = read_sample(CONTEXT_SAMPLE) else { return };
    let body = json::parse(&context).unwrap();
    let deep = "[".repeat(100_000);
    for text in ["", "{", "[1,]", deep.as_str(), "\u{feff}{}"] {
        let mut g = given_from_body(&body);
        g = with(g, "recall_wire", Value::str(text));
        let r = receipt::verify_context_receipt(&context, &g);
        assert_eq!(r.failures, ["retrieval_receipt_mismatch"]);
        let mut meta = Object::new();
        let mut pos = Object::new();
        pos.insert("after", Value::str(text));
        meta.insert("875f3ed0-2c04-4dc4-873b-46378b89ec7c", Value::Object(pos));
        let g = with(given_from_body(&body), "neighbor_metadata", Value::Object(meta));
        let r = receipt::verify_context_receipt(&context, &g);
        assert_eq!(r.failures, ["neighbor_hash_mismatch"]);
    }
}
