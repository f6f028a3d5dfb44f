//! "A bound field is one row in the contract": a test-only contract with one
//! more bound member, applied to a real body by the real binder (the
//! verifiers' `_with` entry points take a contract; the plain ones use
//! `Contract::LIANS`). The server's context body carries `token_estimate`,
//! which its context receipt also binds as `budget.estimated_tokens`
//! (spec `ranking-receipts.md` §7); lians-sdk 0.5.0's contract leaves it unbound. One row binds
//! it: the real body still verifies, the member leaves `unbound_fields`, and
//! an edit of it now fails at its pointer. Likewise a memory's `valid_from`
//! bound to its result's `event_time` (equal in the real sample): a nested
//! object's new row is applied with no other code.

mod common;

use common::{read_sample, CONTEXT_SAMPLE};
use lians_score::contract::{Bind, Contract, FieldSpec, ObjectSpec, CONTEXT_RESPONSE, MEMORY, RECALL_RESPONSE};
use lians_score::json::{self, Value};
use lians_score::receipt::{self, CheckCode, VerificationReport};

/// `spec` with the member `name` bound as `bind`.
fn with_row(spec: ObjectSpec, name: &str, bind: Bind) -> ObjectSpec {
    let fields: Vec<FieldSpec> =
        spec.fields.iter().map(|f| if f.name == name { FieldSpec { bind, ..*f } } else { *f }).collect();
    assert!(fields.iter().any(|f| f.name == name && f.bind == bind), "{name} is not a member");
    ObjectSpec { fields: Box::leak(fields.into_boxed_slice()), ..spec }
}

/// The server's contract with the context body's `token_estimate` and each
/// memory's `valid_from` bound.
fn variant() -> Contract {
    let context = with_row(CONTEXT_RESPONSE, "token_estimate", Bind::Value("budget/estimated_tokens"));
    let memory = with_row(MEMORY, "valid_from", Bind::Instant("event_time"));
    let mut objects = vec![context, memory];
    objects.extend(Contract::LIANS.objects.iter().copied());
    Contract { objects: Box::leak(objects.into_boxed_slice()) }
}

fn verify(wire: &str, contract: &Contract) -> VerificationReport {
    receipt::verify_context_receipt_with(wire, &Value::Null, contract)
}

/// The body with `edit` applied, as wire text.
fn edited(wire: &str, edit: impl FnOnce(&mut json::Object)) -> String {
    let Value::Object(mut body) = json::parse(wire).unwrap() else { panic!("an object body") };
    edit(&mut body);
    json::to_json_string(&Value::Object(body))
}

fn failures_at(r: &VerificationReport, code: CheckCode) -> Vec<(String, Option<String>)> {
    r.checks
        .iter()
        .filter(|c| c.is_failure() && c.code == code)
        .map(|c| (c.pointer.clone(), c.compared_with.clone()))
        .collect()
}

#[test]
fn one_more_bound_row_binds_a_member_of_a_real_body() {
    let Some(wire) = read_sample(CONTEXT_SAMPLE) else { return };
    let lians = Contract::LIANS;
    let variant = variant();

    // The real body verifies under both; the new rows' members leave unbound_fields.
    let before = verify(&wire, &lians);
    let after = verify(&wire, &variant);
    assert!(before.valid && after.valid, "{:?} / {:?}", before.failures, after.failures);
    assert!(before.unbound_fields.iter().any(|p| p == "/token_estimate"));
    assert!(before.unbound_fields.iter().any(|p| p == "/memories/*/valid_from"));
    let mut expected = before.unbound_fields.clone();
    expected.retain(|p| p != "/token_estimate" && p != "/memories/*/valid_from");
    assert_eq!(after.unbound_fields, expected);
    // The passing summary counts the new comparisons (one token_estimate, one valid_from per memory).
    let count = |r: &VerificationReport| {
        let c = r.checks.iter().find(|c| c.code == CheckCode::BodyMismatch && !c.is_failure()).expect("a summary");
        c.message.split(' ').next().unwrap().parse::<usize>().unwrap()
    };
    let memories = json::parse(&wire).unwrap().get("memories").and_then(Value::as_array).unwrap().len();
    assert_eq!(count(&after), count(&before) + 1 + memories);

    // An edit of token_estimate: unnoticed by the server's contract, a failure at its pointer under the variant.
    let tampered = edited(&wire, |b| {
        b.insert("token_estimate", Value::int(7));
    });
    assert!(verify(&tampered, &lians).valid, "unbound under the server's contract");
    let r = verify(&tampered, &variant);
    assert!(!r.valid);
    assert_eq!(
        failures_at(&r, CheckCode::BodyMismatch),
        [("/token_estimate".to_string(), Some("/receipt/budget/estimated_tokens".to_string()))]
    );

    // An edit of a memory's valid_from: likewise, through the nested object's row.
    let tampered = edited(&wire, |b| {
        let Some(Value::Array(mut ms)) = b.remove("memories") else { panic!("memories") };
        let Value::Object(m) = &mut ms[1] else { panic!("a memory") };
        m.insert("valid_from", Value::str("2001-01-01T00:00:00"));
        b.insert("memories", Value::Array(ms));
    });
    assert!(verify(&tampered, &lians).valid);
    let r = verify(&tampered, &variant);
    assert_eq!(
        failures_at(&r, CheckCode::BodyMismatch),
        [("/memories/1/valid_from".to_string(), Some("/receipt/results/1/event_time".to_string()))]
    );
}

/// The variant changes nothing else: a recall body (whose spec it does not
/// touch) gets the same report under both.
#[test]
fn a_variant_changes_only_its_rows() {
    let Some(wire) = read_sample(common::RECALL_SAMPLE) else { return };
    let variant = Contract { objects: Box::leak(vec![RECALL_RESPONSE].into_boxed_slice()) };
    let a = receipt::verify_recall_receipt_with(&wire, &Value::Null, &Contract::LIANS);
    let b = receipt::verify_recall_receipt_with(&wire, &Value::Null, &variant);
    let c = receipt::verify_recall_receipt(&wire, &Value::Null);
    assert_eq!(json::to_json_string(&a.to_json()), json::to_json_string(&b.to_json()));
    assert_eq!(json::to_json_string(&a.to_json()), json::to_json_string(&c.to_json()));
}
