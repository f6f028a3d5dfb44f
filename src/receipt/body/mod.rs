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
//! | body field | compared with | code |
//! |---|---|---|
//! | `memories[i].content` (string) | SHA256-TEXT = `results[i].content_hash` | `content_hash_mismatch` |
//! | `receipt_view.memories_used[j].content` | SHA256-TEXT = its result's `content_hash` (by id) | `content_hash_mismatch` |
//! | `memories[i].context_<pos>`, `_id`, `_metadata` | `results[i].context_neighbors[pos]` | `neighbor_hash_mismatch` |
//! | `context_text`, `context` (context bodies) | SHA256-TEXT = `context_sha256` | `context_hash_mismatch` |
//! | `receipt_view.receipt_sha256`, `provenance.context_receipt_sha256` | the recomputed hash | `receipt_hash_mismatch` |
//! | `memories` length; `memories[i]` `id`, `source`, `content_hash`, `score`, `score_breakdown`, `event_time` | `results[i]` | `body_mismatch` |
//! | `receipt_view.memories_used[j]` `id`, `source`, `score`, `event_time` | the result with that id | `body_mismatch` |
//! | `retrieval_degraded`, `mode`, `strategy`, `as_of` (recall) | the receipt, `policy` | `body_mismatch` |
//! | `mode`, `strategy`, `excluded`, `budget`, `ranking_policy`, `provenance.recall_receipt_sha256`, `open_conflicts[j]` (context) | the receipt, `retrieval_policy` | `body_mismatch` |
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

/// Bind a response body to its receipt; `sha` is the recomputed receipt hash.
pub(crate) fn bind(
    report: &mut ReportBuilder,
    body: Ref<'_>,
    receipt: Ref<'_>,
    rptr: &str,
    sha: &str,
    kind: BodyKind,
    g: &Given,
) {
    let mut b = Binder::new(report, body, receipt, rptr, sha, kind, g.privacy_minimal);
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

/// One body binding in progress: the body, its receipt, and the tallies of
/// the three codes the binding reports per entry.
struct Binder<'r, 'd> {
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
    fn new(
        report: &'r mut ReportBuilder,
        body: Ref<'d>,
        receipt: Ref<'d>,
        rptr: &'r str,
        sha: &'r str,
        kind: BodyKind,
        privacy: bool,
    ) -> Binder<'r, 'd> {
        let results = results(receipt);
        let memory_hashes = vec![None; results.len()];
        Binder {
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
        for key in ["receipt_view", "provenance"] {
            if self.kind == BodyKind::Recall && key == "provenance" {
                continue;
            }
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

    /// Hash pins carried in the body (the top-level receipt_sha256 is checked
    /// with the other pins, before the schema).
    fn hash_pins(&mut self) {
        let (rptr, sha) = (self.rptr, self.sha);
        if let Some(pin) = self.body.get("receipt_view").and_then(|v| v.get("receipt_sha256")) {
            let ok = bound_digest_is(Some(pin), sha);
            self.report.check_against(
                ok,
                CheckCode::ReceiptHashMismatch,
                "/receipt_view/receipt_sha256",
                rptr,
                format!("receipt_view.receipt_sha256 {} vs recomputed {sha}", describe(Some(pin))),
            );
        }
        if self.kind == BodyKind::Context {
            if let Some(pin) = self.body.get("provenance").and_then(|v| v.get("context_receipt_sha256")) {
                let ok = bound_digest_is(Some(pin), sha);
                self.report.check_against(
                    ok,
                    CheckCode::ReceiptHashMismatch,
                    "/provenance/context_receipt_sha256",
                    rptr,
                    format!("provenance.context_receipt_sha256 {} vs recomputed {sha}", describe(Some(pin))),
                );
            }
        }
    }

    /// The unbound fields and `__proto__` members, then each tally's summary.
    fn finish(self) {
        let Binder { report, body, rptr, kind, content, neighbours, mut fields, content_skipped, .. } = self;
        // The members no receipt field binds, and the `__proto__` members among
        // them (found in the same pass over the keys).
        let mut protos = Vec::new();
        let (unbound, omitted) = unbound_fields(body, kind, &mut protos);
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
