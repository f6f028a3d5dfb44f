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
use crate::hash::sha256_hex_fed;
use crate::json::{self, Ref, Value, WriteOptions};

pub const SCHEMA: &str = crate::contract::schemas::EVIDENCE_PACK_V2.id;

/// Verify an Evidence Pack. `options` uses the `given` field names:
/// `trusted_public_key` (base64 of the 32-byte key the caller trusts),
/// `expected_key_id`, `allow_unsigned` (bool), `include_canonical` (bool).
pub fn verify_evidence_pack(wire: &str, options: &Value) -> VerificationReport {
    verify_pack(wire, options).finish()
}

/// A member of an object the pack's hashes are printed from without copying
/// the pack (the manifest: the pack's members but three; the hashed
/// envelope: those plus `manifest_hash` and `signature`): a node of the
/// parsed document, or the `null` / `{}` put in for a missing member.
#[derive(Clone, Copy)]
enum Member<'a> {
    Node(Ref<'a>),
    Null,
    EmptyObject,
}

/// The canonical text of the object of `members` (any order; keys unique),
/// handed to `sink` piece by piece.
fn canonical_object(members: &[(&[u8], Member<'_>)], sink: &mut dyn FnMut(&[u8])) {
    let mut order: Vec<(&[u8], Member<'_>)> = members.to_vec();
    // Key bytes (WTF-8) order = code point order; a handful of keys.
    for i in 1..order.len() {
        let mut j = i;
        while j > 0 && order[j - 1].0 > order[j].0 {
            order.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut key = Vec::new();
    for (i, (k, v)) in order.iter().enumerate() {
        key.clear();
        key.push(if i == 0 { b'{' } else { b',' });
        json::write::write_bytes(k, true, &mut key);
        key.push(b':');
        sink(&key);
        match v {
            Member::Node(r) => json::write::write_chunks(*r, WriteOptions::CANONICAL, sink),
            Member::Null => sink(b"null"),
            Member::EmptyObject => sink(b"{}"),
        }
    }
    sink(if order.is_empty() { b"{}" } else { b"}" });
}

/// [`canonical_object`] as bytes (`len`: its length when known, so the
/// text is allocated once, at its size).
fn canonical_object_bytes(members: &[(&[u8], Member<'_>)], len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    canonical_object(members, &mut |b| out.extend_from_slice(b));
    out
}

/// Compact JSON of a member for messages (`missing` when absent).
fn shown(v: Option<Ref<'_>>) -> String {
    v.map(|v| json::write::write(v, WriteOptions::COMPACT)).unwrap_or("missing".into())
}

fn verify_pack(wire: &str, options: &Value) -> ReportBuilder {
    let mut report = ReportBuilder::new();
    let g = Given::read(options, &mut report);
    // The borrowed document: the pack is read and hashed in place (an owned
    // tree and its copies for the manifest took ~75 bytes per body byte).
    let Some(doc) = checks::parse_wire_doc(wire, &mut report) else {
        return report;
    };
    let root = doc.root();
    let Some(pack) = root.as_object() else {
        report.fail(
            CheckCode::UnsupportedSchema,
            "",
            format!("an evidence pack must be an object, got {}", root.type_name()),
        );
        return report;
    };
    // The manifest's members are the pack's but three, so a lookup of any
    // other key in the manifest is a lookup in the pack (`root.get`).
    let mut members: Vec<(&[u8], Member<'_>)> = Vec::with_capacity(pack.len() + 2);
    for (k, v) in pack.iter() {
        // The manifest: every member the contract says the signature covers
        // (all but the control fields `manifest_hash`, `signature`, `pack_hash`).
        if !is_control(k.as_str()) {
            members.push((k.as_bytes(), Member::Node(v)));
        }
    }
    let n_manifest = members.len();
    let manifest_text = if g.include_canonical {
        // Canonical text is ASCII (ensure_ascii): the bytes become the String, no copy.
        let text = String::from_utf8(canonical_object_bytes(&members, 0))
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        report.out.canonical = Some(text.clone());
        Some(text)
    } else {
        None
    };
    let mut manifest_len = 0;
    let manifest_sha = match &manifest_text {
        Some(text) => sha256_hex(text.as_bytes()),
        None => sha256_hex_fed(|sink| {
            manifest_len = 0; // `feed` runs again if a host SHA-256 fails (hash::Host)
            canonical_object(&members, &mut |b| {
                manifest_len += b.len();
                sink(b)
            })
        }),
    };
    report.out.receipt_sha256 = Some(manifest_sha.clone());
    report.out.schema = root.get("schema").and_then(Ref::as_str).map(str::to_string);

    // Schema: a wrong one is reported alone.
    if report.out.schema.as_deref() != Some(SCHEMA) {
        report.fail(
            CheckCode::UnsupportedSchema,
            "/schema",
            format!("schema {}: only {SCHEMA} is verified", shown(root.get("schema"))),
        );
        return report;
    }
    report.pass(CheckCode::UnsupportedSchema, "/schema", SCHEMA);

    // The first NaN/infinite number of the manifest in document order, and how many.
    let mut non_finite: Option<(String, usize)> = None;
    for (k, v) in &members[..n_manifest] {
        let Member::Node(v) = v else { continue };
        let at = pointer("", &json::Text::Wtf8(k).to_str_lossy());
        if let Some((p, n)) = find_non_finite(*v, &at) {
            non_finite = Some(match non_finite {
                Some((first, m)) => (first, m + n),
                None => (p, n),
            });
        }
    }
    match non_finite {
        Some((at, n)) => {
            report.fail(CheckCode::NonFiniteNumber, &at, format!("the manifest holds {n} NaN/infinite number(s)"))
        }
        None => report.pass(CheckCode::NonFiniteNumber, "", "every number in the manifest is finite"),
    }
    let controls = pack.iter().filter(|(k, _)| is_control(k.as_str()));
    non_json_numbers(&mut report, controls.map(|(k, v)| (String::from_utf8_lossy(k.as_bytes()).into_owned(), v)));
    // An integer -0 anywhere (manifest, signature block): the hashes and the
    // signature read 0, JSON.parse -0 (as in recall and context bodies).
    checks::negative_zero_ints(&mut report, root, "the manifest, its hashes and its signature");

    // manifest_hash: exact string comparison.
    let manifest_hash = root.get("manifest_hash");
    let ok = manifest_hash.and_then(Ref::as_str) == Some(manifest_sha.as_str());
    report.check(
        ok,
        CheckCode::ManifestHashMismatch,
        "/manifest_hash",
        format!("{} vs recomputed {manifest_sha}", shown(manifest_hash)),
    );

    // pack_hash over manifest + manifest_hash (null if absent) + signature ({} if absent or not an object).
    let signature = root.get("signature");
    members.push((b"manifest_hash", manifest_hash.map_or(Member::Null, Member::Node)));
    members.push((
        b"signature",
        match signature {
            Some(s) if s.as_object().is_some() => Member::Node(s),
            _ => Member::EmptyObject,
        },
    ));
    let pack_sha = sha256_hex_fed(|sink| canonical_object(&members, sink));
    members.truncate(n_manifest);
    let pack_hash = root.get("pack_hash");
    let ok = pack_hash.and_then(Ref::as_str) == Some(pack_sha.as_str());
    report.check(
        ok,
        CheckCode::PackHashMismatch,
        "/pack_hash",
        format!("{} vs recomputed {pack_sha}", shown(pack_hash)),
    );

    // The signature is over the manifest's canonical text (printed again
    // only for a signed pack, when it was not kept).
    let message: std::borrow::Cow<'_, [u8]> = match (&manifest_text, field(signature, "status").and_then(Ref::as_str)) {
        (Some(text), _) => text.as_bytes().into(),
        (None, Some("signed")) => canonical_object_bytes(&members, manifest_len).into(),
        (None, _) => (&[][..]).into(),
    };
    signature_checks(&mut report, signature, &message, &g);
    bound_receipts(&mut report, root);
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
fn signature_unbound(signature: Option<Ref<'_>>, g: &Given) -> Vec<String> {
    let Some(sig) = signature.and_then(Ref::as_object) else { return Vec::new() };
    let signed = sig.get("status").and_then(Ref::as_str) == Some("signed");
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

fn field<'a>(sig: Option<Ref<'a>>, name: &str) -> Option<Ref<'a>> {
    sig.and_then(|s| s.get(name))
}

fn signature_checks(report: &mut ReportBuilder, signature: Option<Ref<'_>>, message: &[u8], g: &Given) {
    let status = field(signature, "status").and_then(Ref::as_str);
    match status {
        Some("signed") => {
            let algorithm = field(signature, "algorithm").and_then(Ref::as_str);
            let key = field(signature, "public_key").and_then(Ref::as_str).and_then(decode_strict);
            let value = field(signature, "value").and_then(Ref::as_str).and_then(decode_strict);
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
            format!("signature status {} is neither signed nor unsigned", shown(field(signature, "status"))),
        ),
    }
    if let Some(trusted) = &g.trusted_public_key {
        let got = field(signature, "public_key");
        let ok = got.and_then(Ref::as_text).is_some_and(|s| s.as_bytes() == trusted.as_bytes());
        report.check(
            ok,
            CheckCode::UntrustedKey,
            "/signature/public_key",
            format!("pack key {} vs trusted {}", shown(got), trusted),
        );
    }
    if let Some(expected) = &g.expected_key_id {
        let got = field(signature, "key_id");
        let ok = got.and_then(Ref::as_text).is_some_and(|s| s.as_bytes() == expected.as_bytes());
        report.check(
            ok,
            CheckCode::KeyIdMismatch,
            "/signature/key_id",
            format!("pack key_id {} vs expected {}", shown(got), expected),
        );
    }
}

/// `recall_receipt` links in `evidence_graph`: their `artifact_hash` must be
/// the hash of their `metadata.receipt` body.
fn bound_receipts(report: &mut ReportBuilder, manifest: Ref<'_>) {
    let Some(links) = manifest.get("evidence_graph").and_then(Ref::as_array) else {
        return;
    };
    for (i, link) in links.iter().enumerate() {
        if link.get("evidence_type").and_then(Ref::as_str) != Some("recall_receipt") {
            continue;
        }
        let lp = pointer("/evidence_graph", &i.to_string());
        let artifact = link.get("artifact_hash").and_then(Ref::as_str).map(str::to_string);
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
            schema: body.get("schema").and_then(Ref::as_str).map(str::to_string),
            matches,
        });
    }
}
