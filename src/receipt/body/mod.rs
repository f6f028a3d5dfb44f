//! Body binding: a response body's own plaintext must agree with what its
//! receipt binds (spec `ranking-receipts.md` §7; the receipt conformance
//! README, step 5).
//!
//! # Why this exists
//!
//! A client does not use the receipt: it shows `memories[i].content`, puts
//! `context_text` into a prompt, reads `receipt_view.memories_used`. A
//! verifier that stops at the receipt hash proves that *the receipt* is
//! intact and says nothing about that text, so a body whose memory content
//! or context text was rewritten in transit would still read "valid". Here
//! every bound field the body carries is compared with its receipt value,
//! by default, with no `given` needed:
//!
//! Which members are bound, and how, is the wire contract's
//! ([`crate::contract`], its tables in `docs/contract.md`): each member's
//! [`Bind`] says what it is compared with.
//!
//! | binding | compared with | code |
//! |---|---|---|
//! | [`Bind::ContentHash`] of a memory or a view memory (`content`) | SHA256-TEXT = the result's digest | `content_hash_mismatch` |
//! | [`Bind::ContentHash`] of the body (`context_text`, `context`) | SHA256-TEXT = `context_sha256` | `context_hash_mismatch` |
//! | [`Bind::Neighbour`] (`context_<pos>`, `_id`, `_metadata`) | `results[i].context_neighbors[pos]` | `neighbor_hash_mismatch` |
//! | [`Bind::ReceiptHash`] of a nested object | the recomputed hash | `receipt_hash_mismatch` |
//! | [`Bind::Items`] (the length when paired by index), [`Bind::Value`], [`Bind::Digest`], [`Bind::Instant`], a conflict's [`Bind::ContentHash`] | the bound value at the row's path | `body_mismatch` |
//!
//! Numbers compare by value (`1` equals `1.0`), strings by code points,
//! times as instants (naive means UTC; the receipt keeps `isoformat()`, the
//! API object may say `Z`), hex digests case-insensitively.
//!
//! Everything else in the body is *not* bound by the receipt (namespace,
//! agent id, importance, a result's metadata, ingestion and validity times,
//! latency, token estimates, query variants, the view's headline and
//! reasons, ...). Those fields are listed in the report's
//! [`unbound_fields`](crate::VerificationReport::unbound_fields) so a caller
//! knows what it must not rely on; a change there is not detected.
//!
//! Privacy-minimal writes store an HMAC as `content_hash`, which no client
//! can recompute: the content comparisons then fail (fail closed), with a
//! message naming that possibility, unless `given.privacy_minimal` is true,
//! in which case they are reported as skipped.
//!
//! # How it is built
//!
//! [`bind`] runs a [`Binder`] through one method per rule group, in this
//! order (the order of the report's checks): the shapes (`__proto__`
//! members, `receipt_view`/`provenance` objects), the hash pins, the
//! memories and their neighbours ([`memories`]), the view's memories
//! ([`view`]), the top-level mirrors and the context body's own fields
//! ([`mirrors`]), then the unbound fields ([`unbound`]) and the tallies'
//! summaries. Each failing comparison builds its pointer and message only
//! when the report still lists failures of its code ([`tally`]), and every
//! comparison is bounded ([`compare`]): linear time, a bounded report.

mod compare;
mod memories;
mod mirrors;
mod required;
mod tally;
mod unbound;
mod view;

use super::checks::results;
use super::given::Given;
use super::report::{pointer, CheckCode, ReportBuilder};
use crate::contract::{self, Bind, Contract, FieldSpec, ObjectKind, ObjectSpec, SchemaSpec, Wire};
use crate::json::Ref;
use compare::{at_index, bound_digest_is, describe};
use tally::Tally;
use unbound::{unbound_fields, MAX_UNBOUND, MAX_UNBOUND_KEY_BYTES};

/// Which kind of response body is being bound.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum BodyKind {
    Recall,
    Context,
}

impl BodyKind {
    /// The body kind of a receipt schema of the contract (an Evidence Pack
    /// has no body binding: read as recall, never called with it).
    pub(crate) fn of(schema: &SchemaSpec) -> BodyKind {
        match schema.wire {
            Wire::Context => BodyKind::Context,
            Wire::Recall | Wire::EvidencePack => BodyKind::Recall,
        }
    }

    /// The contract's spec of this body.
    pub(crate) fn spec(self) -> &'static ObjectSpec {
        match self {
            BodyKind::Recall => &contract::RECALL_RESPONSE,
            BodyKind::Context => &contract::CONTEXT_RESPONSE,
        }
    }
}

/// Bind a response body to its receipt; `sha` is the recomputed receipt
/// hash; `contract` says which members are bound and how
/// ([`Contract::LIANS`], the server's, or a test's variant).
#[allow(clippy::too_many_arguments)]
pub(crate) fn bind(
    report: &mut ReportBuilder,
    body: Ref<'_>,
    receipt: Ref<'_>,
    rptr: &str,
    sha: &str,
    kind: BodyKind,
    g: &Given,
    contract: &Contract,
) {
    let mut b = Binder::new(report, body, receipt, rptr, sha, kind, g.privacy_minimal, contract);
    b.shapes();
    b.required();
    b.hash_pins();
    b.memories();
    b.view_memories();
    b.mirrors();
    if kind == BodyKind::Context {
        b.provenance();
        b.open_conflicts();
        b.context_text();
    }
    b.finish();
}

/// The value at a contract path (`policy/mode`: keys separated by `/`) under `v`.
fn at_path<'d>(v: Ref<'d>, path: &str) -> Option<Ref<'d>> {
    // (By bytes: `str::split` runs a char searcher per segment.)
    path.as_bytes().split(|&b| b == b'/').try_fold(v, |v, key| v.as_object()?.get_bytes(key))
}

/// The objects the bound rows of `spec` nest ([`Bind::Items`]: a list of
/// them, [`Bind::Object`]: one), in [`ObjectKind`] order, then the rows'
/// order: (kind, member, a list). Empty, with no allocation, for the
/// objects that nest none (a memory: asked once per memory).
fn nested(spec: &ObjectSpec) -> Vec<(ObjectKind, &'static str, bool)> {
    let nests = |f: &FieldSpec| matches!(f.bind, Bind::Items { .. } | Bind::Object(_));
    if !spec.fields.iter().any(nests) {
        return Vec::new();
    }
    ObjectKind::ALL
        .iter()
        .flat_map(|&kind| {
            spec.fields.iter().filter_map(move |f| match f.bind {
                Bind::Items { of, .. } if of == kind => Some((of, f.name, true)),
                Bind::Object(of) if of == kind => Some((of, f.name, false)),
                _ => None,
            })
        })
        .collect()
}

/// The JSON pointer of a contract path under `base`.
fn path_pointer(base: &str, path: &str) -> String {
    path.split('/').fold(base.to_string(), |p, key| pointer(&p, key))
}

/// How a member compares with its bound value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Compare {
    /// Python `==`.
    Value,
    /// A hex digest, case-insensitively.
    Digest,
    /// The same instant.
    Instant,
}

/// The members of `spec` compared with a bound value at a path (the
/// contract's [`Bind::Value`], [`Bind::Digest`] and [`Bind::Instant`] rows),
/// in the contract's order: (member, bound path, how).
fn compared(spec: &ObjectSpec) -> Vec<(&'static str, &'static str, Compare)> {
    spec.fields
        .iter()
        .filter_map(|f| match f.bind {
            Bind::Value(p) => Some((f.name, p, Compare::Value)),
            Bind::Digest(p) => Some((f.name, p, Compare::Digest)),
            Bind::Instant(p) => Some((f.name, p, Compare::Instant)),
            _ => None,
        })
        .collect()
}

/// A content member and the digest it hashes to (the contract's first
/// [`Bind::ContentHash`] row of `spec`: `content` and `content_hash` for a
/// memory and a view memory).
fn content_member(spec: &ObjectSpec) -> (&'static str, &'static str) {
    spec.fields
        .iter()
        .find_map(|f| match f.bind {
            Bind::ContentHash(p) => Some((f.name, p)),
            _ => None,
        })
        .unwrap_or(("", ""))
}

/// One body binding in progress: the body, its receipt, and the tallies of
/// the three codes the binding reports per entry.
struct Binder<'r, 'd> {
    /// Which members are bound, and how.
    contract: &'r Contract,
    /// A memory's content member and the result's digest of it.
    memory_content_key: (&'static str, &'static str),
    report: &'r mut ReportBuilder,
    body: Ref<'d>,
    receipt: Ref<'d>,
    /// The receipt's pointer (`/receipt`).
    rptr: &'r str,
    /// The recomputed receipt hash.
    sha: &'r str,
    kind: BodyKind,
    /// `given.privacy_minimal`: content comparisons are skipped (counted).
    privacy: bool,
    results: Vec<Ref<'d>>,
    results_ptr: String,
    content: Tally,
    neighbours: Tally,
    fields: Tally,
    content_skipped: usize,
    /// SHA256(memories[i].content), by result index: receipt_view repeats
    /// the same text, whose hash is then reused after a byte comparison.
    memory_hashes: Vec<Option<(&'d [u8], String)>>,
}

impl<'r, 'd> Binder<'r, 'd> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        report: &'r mut ReportBuilder,
        body: Ref<'d>,
        receipt: Ref<'d>,
        rptr: &'r str,
        sha: &'r str,
        kind: BodyKind,
        privacy: bool,
        contract: &'r Contract,
    ) -> Binder<'r, 'd> {
        let results = results(receipt);
        let memory_hashes = vec![None; results.len()];
        Binder {
            contract,
            memory_content_key: content_member(contract.object(ObjectKind::Memory)),
            report,
            body,
            receipt,
            rptr,
            sha,
            kind,
            privacy,
            results,
            results_ptr: pointer(rptr, "results"),
            content: Tally::new(CheckCode::ContentHashMismatch),
            neighbours: Tally::new(CheckCode::NeighborHashMismatch),
            fields: Tally::new(CheckCode::BodyMismatch),
            content_skipped: 0,
            memory_hashes,
        }
    }

    /// No `__proto__` member in the receipt or its results; `receipt_view`
    /// and `provenance`, when present, are objects.
    fn shapes(&mut self) {
        let rptr = self.rptr;
        if let Some(r) = self.receipt.as_object() {
            self.fields.no_proto(self.report, r, &|| rptr.to_string(), &|| rptr.to_string());
        }
        for (i, r) in self.results.iter().enumerate() {
            if let Some(ro) = r.as_object() {
                let rp = || at_index(&self.results_ptr, i);
                self.fields.no_proto(self.report, ro, &rp, &rp);
            }
        }
        for (key, _) in self.nested_objects() {
            if let Some(v) = self.body.get(key) {
                match v.as_object() {
                    Some(_) => {} // its __proto__ member: found by unbound_fields
                    None => self.fields.fail_if(
                        self.report,
                        true,
                        || pointer("", key),
                        || rptr.to_string(),
                        || format!("{key} is {}, not an object: its bound members cannot be compared", v.type_name()),
                    ),
                }
            }
        }
    }

    /// The body's nested objects (the contract's [`Bind::Object`] rows:
    /// `receipt_view`, and `provenance` of a context body), in [`ObjectKind`] order.
    fn nested_objects(&self) -> Vec<(&'static str, &'static ObjectSpec)> {
        let fields = self.contract.object(self.kind.spec().kind).fields;
        ObjectKind::ALL
            .iter()
            .flat_map(|&kind| {
                fields.iter().filter_map(move |f| match f.bind {
                    Bind::Object(of) if of == kind => Some((f.name, of)),
                    _ => None,
                })
            })
            .map(|(name, of)| (name, self.contract.object(of)))
            .collect()
    }

    /// Hash pins carried in the body (the top-level receipt_sha256 is checked
    /// with the other pins, before the schema).
    fn hash_pins(&mut self) {
        let (rptr, sha) = (self.rptr, self.sha);
        // The nested objects' receipt-hash members (`receipt_view.receipt_sha256`,
        // `provenance.context_receipt_sha256`).
        for (object, spec) in self.nested_objects() {
            for f in spec.fields.iter().filter(|f| f.bind == Bind::ReceiptHash) {
                let Some(pin) = self.body.get(object).and_then(|v| v.get(f.name)) else { continue };
                let ok = bound_digest_is(Some(pin), sha);
                self.report.check_against(
                    ok,
                    CheckCode::ReceiptHashMismatch,
                    &pointer(&pointer("", object), f.name),
                    rptr,
                    format!("{object}.{} {} vs recomputed {sha}", f.name, describe(Some(pin))),
                );
            }
        }
    }

    /// The unbound fields and `__proto__` members, then each tally's summary.
    fn finish(self) {
        let Binder { contract, report, body, rptr, kind, content, neighbours, mut fields, content_skipped, .. } = self;
        // The members no receipt field binds, and the `__proto__` members among
        // them (found in the same pass over the keys).
        let mut protos = Vec::new();
        let (unbound, omitted) = unbound_fields(contract, body, kind, &mut protos);
        for at in protos {
            fields.fail_if(
                report,
                true,
                || at,
                || rptr.to_string(),
                || {
                    "a `__proto__` member: JavaScript's Object.assign, spread and for-in copies turn it into a prototype, \
                 whose fields a client then reads as the object's own; the receipt binds none of them"
                        .to_string()
                },
            );
        }
        content.finish(report, "/memories", "body content(s) hash to their bound content_hash");
        if content_skipped > 0 {
            report.skip(
                CheckCode::ContentHashMismatch,
                "/memories",
                format!(
                    "{content_skipped} body content comparison(s) skipped: given.privacy_minimal says the content_hash values are HMACs"
                ),
            );
        }
        neighbours.finish(report, "/memories", "neighbour field(s) agree with their bound context_neighbors entries");
        fields.finish(report, "", "bound body field(s) agree with the receipt");
        report.out.unbound_fields = unbound;
        if omitted {
            report.skip(
                CheckCode::BodyMismatch,
                "",
                format!(
                    "more unbound field(s) than unbound_fields lists (at most {MAX_UNBOUND}, of keys of at most \
                     {MAX_UNBOUND_KEY_BYTES} bytes): the receipt does not bind them either"
                ),
            );
        }
    }
}
