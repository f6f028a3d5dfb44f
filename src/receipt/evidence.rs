//! Evidence Pack v2 (`https://lians.ai/schemas/evidence-pack/v2`).
//!
//! The manifest is the pack minus `manifest_hash`, `signature` and
//! `pack_hash`. `manifest_hash` = SHA-256(PyJSON(manifest)); `pack_hash` =
//! SHA-256(PyJSON(manifest + {manifest_hash, signature})); a signed pack
//! carries an Ed25519 signature over the UTF-8 PyJSON text of the manifest.
//! `manifest_hash`/`pack_hash` compare as exact strings (as the reference's
//! `verify_evidence_pack` does); bound receipt hashes case-insensitively.

use ed25519_dalek::{Signature, Verifier, VerifyingKey};

use super::base64::decode_strict;
use super::checks::{self, find_non_finite, hex_eq, non_json_numbers};
use super::given::Given;
use super::hash::sha256_hex;
use super::report::{pointer, BoundReceipt, CheckCode, ReportBuilder, VerificationReport};
use crate::contract::{Bind, EVIDENCE_PACK, PACK_SIGNATURE};
use crate::json::{self, Object, Value};

pub const SCHEMA: &str = crate::contract::schemas::EVIDENCE_PACK_V2.id;

/// Verify an Evidence Pack. `options` uses the `given` field names:
/// `trusted_public_key` (base64 of the 32-byte key the caller trusts),
/// `expected_key_id`, `allow_unsigned` (bool), `include_canonical` (bool).
pub fn verify_evidence_pack(wire: &str, options: &Value) -> VerificationReport {
    verify_pack(wire, options).finish()
}

fn verify_pack(wire: &str, options: &Value) -> ReportBuilder {
    let mut report = ReportBuilder::new();
    let g = Given::read(options, &mut report);
    let Some(doc) = checks::parse_wire(wire, &mut report) else {
        return report;
    };
    let Value::Object(pack) = &doc else {
        report.fail(
            CheckCode::UnsupportedSchema,
            "",
            format!("an evidence pack must be an object, got {}", doc.type_name()),
        );
        return report;
    };
    let mut manifest = Object::with_capacity(pack.len());
    for (k, v) in pack.iter() {
        if !is_control(k.as_str()) {
            manifest.push_unique(k.clone(), v.clone());
        }
    }
    let manifest = Value::Object(manifest);
    let manifest_text = json::canonical(&manifest);
    let manifest_sha = sha256_hex(manifest_text.as_bytes());
    report.out.receipt_sha256 = Some(manifest_sha.clone());
    report.out.schema = manifest.get("schema").and_then(Value::as_str).map(str::to_string);
    if g.include_canonical {
        report.out.canonical = Some(manifest_text.clone());
    }

    // Schema: a wrong one is reported alone.
    if report.out.schema.as_deref() != Some(SCHEMA) {
        report.fail(
            CheckCode::UnsupportedSchema,
            "/schema",
            format!(
                "schema {}: only {SCHEMA} is verified",
                manifest.get("schema").map(json::to_json_string).unwrap_or("missing".into())
            ),
        );
        return report;
    }
    report.pass(CheckCode::UnsupportedSchema, "/schema", SCHEMA);

    match find_non_finite(&manifest, "") {
        Some((at, n)) => {
            report.fail(CheckCode::NonFiniteNumber, &at, format!("the manifest holds {n} NaN/infinite number(s)"))
        }
        None => report.pass(CheckCode::NonFiniteNumber, "", "every number in the manifest is finite"),
    }
    let controls = pack.iter().filter(|(k, _)| is_control(k.as_str()));
    non_json_numbers(&mut report, controls.map(|(k, v)| (String::from_utf8_lossy(k.as_bytes()).into_owned(), v)));

    // manifest_hash: exact string comparison.
    let manifest_hash = pack.get("manifest_hash");
    let ok = manifest_hash.and_then(Value::as_str) == Some(manifest_sha.as_str());
    report.check(
        ok,
        CheckCode::ManifestHashMismatch,
        "/manifest_hash",
        format!("{} vs recomputed {manifest_sha}", manifest_hash.map(json::to_json_string).unwrap_or("missing".into())),
    );

    // pack_hash over manifest + manifest_hash (null if absent) + signature ({} if absent or not an object).
    let signature = pack.get("signature");
    let mut hashed = match &manifest {
        Value::Object(o) => o.clone(),
        _ => Object::new(),
    };
    hashed.insert("manifest_hash", manifest_hash.cloned().unwrap_or(Value::Null));
    let sig_obj = match signature {
        Some(s @ Value::Object(_)) => s.clone(),
        _ => Value::Object(Object::new()),
    };
    hashed.insert("signature", sig_obj);
    let pack_sha = json::canonical_sha256(&Value::Object(hashed));
    let pack_hash = pack.get("pack_hash");
    let ok = pack_hash.and_then(Value::as_str) == Some(pack_sha.as_str());
    report.check(
        ok,
        CheckCode::PackHashMismatch,
        "/pack_hash",
        format!("{} vs recomputed {pack_sha}", pack_hash.map(json::to_json_string).unwrap_or("missing".into())),
    );

    signature_checks(&mut report, signature, manifest_text.as_bytes(), &g);
    bound_receipts(&mut report, &manifest);
    report.out.unbound_fields = signature_unbound(signature, &g);
    report
}

/// The pack's members outside the manifest (`PACK_CONTROL_FIELDS` of the
/// engine's `evidence_signing.py`): the manifest is every member the
/// contract says the signature covers (all but the control fields
/// `manifest_hash`, `signature`, `pack_hash`).
fn is_control(k: Option<&str>) -> bool {
    k.is_some_and(|k| EVIDENCE_PACK.bind_of(k) != Bind::Signed)
}

/// The `signature` members that neither the signature nor the caller's
/// pins cover, by the contract's `PACK_SIGNATURE` rows. The Ed25519
/// signature covers the manifest only, and `pack_hash` is recomputable by
/// anyone, so a rewritten `signature` block with a recomputed `pack_hash`
/// still verifies: its `identity_note` (the server's words, not signed), any
/// member the server does not write (an added `approved_by`), and each
/// [`Bind::Pinned`] member (`key_id`, `public_key`) the caller does not pin
/// (an unpinned key proves only that *someone* signed). The checked members
/// (`status`; for a signed pack `algorithm` and the signature `value`) are
/// verified above.
fn signature_unbound(signature: Option<&Value>, g: &Given) -> Vec<String> {
    let Some(Value::Object(sig)) = signature else { return Vec::new() };
    let signed = sig.get("status").and_then(Value::as_str) == Some("signed");
    let mut lookup = PACK_SIGNATURE.lookup();
    let mut out = Vec::new();
    for (k, _) in sig.iter() {
        let name = String::from_utf8_lossy(k.as_bytes());
        let bound = match lookup.bind_of(&name) {
            // `status` is checked whatever it says; the others only in a signed pack.
            Bind::Checked => signed || name == "status",
            Bind::Signature => signed,
            Bind::Pinned(given) => g.pins(given),
            _ => false,
        };
        if !bound && out.len() < 200 {
            out.push(pointer("/signature", &name));
        }
    }
    out
}

fn field<'a>(sig: Option<&'a Value>, name: &str) -> Option<&'a Value> {
    sig.and_then(|s| s.get(name))
}

fn signature_checks(report: &mut ReportBuilder, signature: Option<&Value>, message: &[u8], g: &Given) {
    let status = field(signature, "status").and_then(Value::as_str);
    match status {
        Some("signed") => {
            let algorithm = field(signature, "algorithm").and_then(Value::as_str);
            let key = field(signature, "public_key").and_then(Value::as_str).and_then(decode_strict);
            let value = field(signature, "value").and_then(Value::as_str).and_then(decode_strict);
            let outcome: Result<(), String> = (|| {
                if algorithm != Some("Ed25519") {
                    return Err(format!("algorithm {:?} is not Ed25519", algorithm));
                }
                let key: [u8; 32] = key
                    .ok_or("public_key is not strict base64")?
                    .try_into()
                    .map_err(|k: Vec<u8>| format!("public_key decodes to {} bytes, not 32", k.len()))?;
                let value: [u8; 64] = value
                    .ok_or("signature value is not strict base64")?
                    .try_into()
                    .map_err(|v: Vec<u8>| format!("signature value decodes to {} bytes, not 64", v.len()))?;
                let vk = VerifyingKey::from_bytes(&key)
                    .map_err(|_| "public_key is not a valid Ed25519 point".to_string())?;
                vk.verify(message, &Signature::from_bytes(&value))
                    .map_err(|_| "Ed25519 verification over the manifest's PyJSON text fails".to_string())
            })();
            match outcome {
                Ok(()) => report.pass(
                    CheckCode::SignatureInvalid,
                    "/signature",
                    "Ed25519 signature over the manifest verifies",
                ),
                Err(m) => report.fail(CheckCode::SignatureInvalid, "/signature", m),
            }
        }
        Some("unsigned") => {
            report.skip(CheckCode::SignatureInvalid, "/signature", "the pack is unsigned");
            report.check(
                g.allow_unsigned,
                CheckCode::UnsignedPack,
                "/signature/status",
                if g.allow_unsigned {
                    "unsigned pack allowed by the caller"
                } else {
                    "unsigned packs are refused unless allow_unsigned is true"
                },
            );
        }
        _ => report.fail(
            CheckCode::SignatureInvalid,
            "/signature/status",
            format!(
                "signature status {} is neither signed nor unsigned",
                field(signature, "status").map(json::to_json_string).unwrap_or("missing".into())
            ),
        ),
    }
    if let Some(trusted) = &g.trusted_public_key {
        let got = field(signature, "public_key");
        let ok = matches!(got, Some(Value::Str(s)) if s == trusted);
        report.check(
            ok,
            CheckCode::UntrustedKey,
            "/signature/public_key",
            format!("pack key {} vs trusted {}", got.map(json::to_json_string).unwrap_or("missing".into()), trusted),
        );
    }
    if let Some(expected) = &g.expected_key_id {
        let got = field(signature, "key_id");
        let ok = matches!(got, Some(Value::Str(s)) if s == expected);
        report.check(
            ok,
            CheckCode::KeyIdMismatch,
            "/signature/key_id",
            format!(
                "pack key_id {} vs expected {}",
                got.map(json::to_json_string).unwrap_or("missing".into()),
                expected
            ),
        );
    }
}

/// `recall_receipt` links in `evidence_graph`: their `artifact_hash` must be
/// the hash of their `metadata.receipt` body.
fn bound_receipts(report: &mut ReportBuilder, manifest: &Value) {
    let Some(links) = manifest.get("evidence_graph").and_then(Value::as_array) else {
        return;
    };
    for (i, link) in links.iter().enumerate() {
        if link.get("evidence_type").and_then(Value::as_str) != Some("recall_receipt") {
            continue;
        }
        let lp = pointer("/evidence_graph", &i.to_string());
        let artifact = link.get("artifact_hash").and_then(Value::as_str).map(str::to_string);
        let body = link.get("metadata").and_then(|m| m.get("receipt"));
        let Some(body) = body else {
            report.skip(CheckCode::ReceiptHashMismatch, &pointer(&lp, "metadata"), "the link carries no receipt body");
            report.out.bound_receipts.push(BoundReceipt {
                pointer: lp,
                artifact_hash: artifact,
                receipt_sha256: None,
                schema: None,
                matches: false,
            });
            continue;
        };
        let h = json::canonical_sha256(body);
        let matches = artifact.as_deref().map(|a| hex_eq(a, &h)).unwrap_or(false);
        report.check(
            matches,
            CheckCode::ReceiptHashMismatch,
            &pointer(&lp, "artifact_hash"),
            format!("artifact_hash {:?} vs bound receipt body hash {h}", artifact.as_deref().unwrap_or("missing")),
        );
        report.out.bound_receipts.push(BoundReceipt {
            pointer: lp,
            artifact_hash: artifact,
            receipt_sha256: Some(h),
            schema: body.get("schema").and_then(Value::as_str).map(str::to_string),
            matches,
        });
    }
}
