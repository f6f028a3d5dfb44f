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
//! reasons, ...). Those fields are listed in [`ReportBuilder::unbound_fields`] so a
//! caller knows what it must not rely on; a change there is not detected.
//!
//! Privacy-minimal writes store an HMAC as `content_hash`, which no client
//! can recompute: the content comparisons then fail (fail closed), with a
//! message naming that possibility, unless `given.privacy_minimal` is true,
//! in which case they are reported as skipped.

use std::collections::{HashMap, HashSet};

use std::borrow::Cow;

use super::checks::{hex_eq, num_eq_values, result_index, results, sha256_of};
use super::given::Given;
use super::report::{pointer, CheckCode, ReportBuilder};
use crate::json::{self, Kind, Members, Ref, Text, Value};
use crate::py::time::PyDateTime;

/// Which kind of response body is being bound.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum BodyKind {
    Recall,
    Context,
}

/// The neighbour positions a memory object can carry (`context_<pos>`).
const POSITIONS: [&str; 4] = ["before", "before_2", "after", "after_2"];

/// Memory-object fields the receipt binds (compared below).
const MEMORY_BOUND: &[&str] = &["id", "content", "content_hash", "source", "score", "score_breakdown", "event_time"];
/// Top-level fields bound in a recall body (`receipt` and the hash pins included).
const RECALL_BOUND: &[&str] =
    &["memories", "receipt", "receipt_sha256", "receipt_view", "retrieval_degraded", "mode", "strategy", "as_of"];
/// Top-level fields bound in a context body.
const CONTEXT_BOUND: &[&str] = &[
    "memories",
    "receipt",
    "receipt_sha256",
    "receipt_view",
    "retrieval_degraded",
    "mode",
    "strategy",
    "context",
    "context_text",
    "excluded",
    "budget",
    "ranking_policy",
    "provenance",
    "open_conflicts",
];
/// `provenance` members bound in a context body.
const PROVENANCE_BOUND: &[&str] = &["recall_receipt_sha256", "context_receipt_sha256"];
/// `receipt_view` members bound.
const VIEW_BOUND: &[&str] = &["receipt_sha256", "memories_used"];
/// `receipt_view.memories_used[j]` members bound.
const VIEW_MEMORY_BOUND: &[&str] = &["id", "content", "source", "score", "event_time"];
/// `open_conflicts[j]` members bound.
const CONFLICT_BOUND: &[&str] = &["id", "memory_a_id", "memory_b_id", "memory_a_content", "memory_b_content"];

/// A short description of a body or receipt value for a message: a string
/// as its first 77 characters, anything else as the first ~100 bytes of its
/// compact JSON. Only that prefix is ever printed (a hostile value described
/// once per failing entry must not be serialised whole each time).
fn describe(v: Option<Ref<'_>>) -> String {
    let Some(v) = v else { return "missing".to_string() };
    match v.as_text() {
        Some(s) => {
            let (head, cut) = text_prefix(s, 77);
            if cut {
                format!("{head:?}...")
            } else {
                format!("{head:?}")
            }
        }
        None => {
            let mut out = Vec::new();
            if write_prefix(v, DESCRIBE_BYTES, &mut out) {
                String::from_utf8_lossy(&out).into_owned()
            } else {
                let mut end = DESCRIBE_BYTES.min(out.len());
                while end > 0 && out.get(end).is_some_and(|b| b & 0xC0 == 0x80) {
                    end -= 1;
                }
                format!("{}... (truncated)", String::from_utf8_lossy(&out[..end]))
            }
        }
    }
}

/// How much of a non-string value [`describe`] prints.
const DESCRIBE_BYTES: usize = 100;

/// The first `n` code points of a text (lone surrogates as U+FFFD), and
/// whether it was cut. Reads at most `4 n` bytes of it.
fn text_prefix(s: Text<'_>, n: usize) -> (String, bool) {
    let bytes = s.as_bytes();
    let mut end = bytes.len().min(4 * n + 4);
    while end < bytes.len() && end > 0 && bytes[end] & 0xC0 == 0x80 {
        end -= 1;
    }
    let head = json::Text::Wtf8(&bytes[..end]).to_str_lossy();
    let mut chars = head.char_indices();
    match chars.nth(n) {
        Some((i, _)) => (head[..i].to_string(), true),
        None => (head.into_owned(), end < bytes.len()),
    }
}

/// Compact JSON of `v` into `out`, stopping once `out` holds more than
/// `budget` bytes; true when the whole value was written. Linear in what
/// it writes, whatever the size of `v`.
fn write_prefix(v: Ref<'_>, budget: usize, out: &mut Vec<u8>) -> bool {
    if out.len() > budget {
        return false;
    }
    match v.kind() {
        Kind::Null => out.extend_from_slice(b"null"),
        Kind::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
        Kind::Int(d) => {
            let room = budget + 1 - out.len();
            out.extend_from_slice(&d.as_bytes()[..d.len().min(room)]);
            if d.len() > room {
                return false;
            }
        }
        Kind::Float(f) => json::write::write_float(f, out),
        Kind::Str(t) => {
            let (head, cut) = text_prefix(t, budget + 1 - out.len());
            json::write::write_bytes(head.as_bytes(), false, out);
            if cut {
                return false;
            }
        }
        Kind::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                if !write_prefix(item, budget, out) {
                    return false;
                }
            }
            out.push(b']');
        }
        Kind::Object(members) => {
            out.push(b'{');
            for (i, (k, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let (head, cut) = text_prefix(k, budget + 1 - out.len().min(budget));
                json::write::write_bytes(head.as_bytes(), false, out);
                if cut || out.len() > budget {
                    return false;
                }
                out.push(b':');
                if !write_prefix(item, budget, out) {
                    return false;
                }
            }
            out.push(b'}');
        }
    }
    out.len() <= budget
}

/// [`describe`] of a value that stands for `null` when missing.
fn describe_or_null(v: Option<Ref<'_>>) -> String {
    match v {
        None => "null".to_string(),
        v => describe(v),
    }
}

fn str_of(v: Option<Ref<'_>>) -> Option<Text<'_>> {
    v.and_then(Ref::as_text)
}

/// A missing value stands for `null`.
fn null_or_missing(v: Option<Ref<'_>>) -> bool {
    match v {
        None => true,
        Some(v) => v.is_null(),
    }
}

/// `JSON pointer` of `base` + an array index.
fn at_index(base: &str, i: usize) -> String {
    pointer(base, &i.to_string())
}

/// Python `==` on parsed JSON values, numbers by value (`1 == 1.0`), objects
/// as dicts (order-insensitive), booleans distinct from numbers. A missing
/// value (`None`) stands for `null`.
pub(crate) fn py_eq(a: Option<Ref<'_>>, b: Option<Ref<'_>>) -> bool {
    let null = null_or_missing;
    let (Some(a), Some(b)) = (a, b) else { return null(a) && null(b) };
    match (a.kind(), b.kind()) {
        (Kind::Null, Kind::Null) => true,
        (Kind::Bool(x), Kind::Bool(y)) => x == y,
        (Kind::Int(_) | Kind::Float(_), Kind::Int(_) | Kind::Float(_)) => num_eq_values(a, b),
        (Kind::Str(x), Kind::Str(y)) => json::bytes_eq(x.as_bytes(), y.as_bytes()),
        (Kind::Array(x), Kind::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| py_eq(Some(p), Some(q)))
        }
        (Kind::Object(x), Kind::Object(y)) => {
            if x.len() != y.len() {
                return false;
            }
            // Small objects (score breakdowns) by scan; large ones through an
            // index, so a hostile body cannot make the comparison quadratic.
            if x.len() <= 32 {
                // Same position first (the usual case: the same order).
                return (0..x.len()).all(|i| {
                    let (k, v) = x.at(i);
                    let same = y.at(i);
                    let w = if same.0.as_bytes() == k.as_bytes() { Some(same.1) } else { y.get_bytes(k.as_bytes()) };
                    w.is_some_and(|w| py_eq(Some(v), Some(w)))
                });
            }
            let index: HashMap<&[u8], Ref<'_>> = y.iter().map(|(k, v)| (k.as_bytes(), v)).collect();
            x.iter().all(|(k, v)| index.get(k.as_bytes()).is_some_and(|&w| py_eq(Some(v), Some(w))))
        }
        _ => false,
    }
}

/// Two hex digests (or nulls) agree: strings case-insensitively, else by value.
fn digest_eq(a: Option<Ref<'_>>, b: Option<Ref<'_>>) -> bool {
    match (str_of(a), str_of(b)) {
        (Some(x), Some(y)) => hex_eq(&x.to_str_lossy(), &y.to_str_lossy()),
        _ => py_eq(a, b),
    }
}

/// [`digest_eq`] of a recomputed digest (`None`: null, no text) and a bound value.
fn digest_text_eq(h: Option<&str>, b: Option<Ref<'_>>) -> bool {
    match h {
        Some(h) => str_of(b).is_some_and(|y| hex_eq(h, &y.to_str_lossy())),
        None => null_or_missing(b),
    }
}

/// The body time `a` denotes the bound time `b`'s instant (a naive bound
/// time is UTC): an aware time of that instant, or, naive, `b`'s very text;
/// non-time values must be equal.
fn same_instant(a: Option<Ref<'_>>, b: Option<Ref<'_>>) -> bool {
    match (str_of(a), str_of(b)) {
        (Some(x), Some(y)) => {
            if x.as_bytes() == y.as_bytes() {
                return true;
            }
            match (PyDateTime::parse(&x.to_str_lossy()), PyDateTime::parse(&y.to_str_lossy())) {
                // The same instant, and naive only where the bound time is
                // naive: JavaScript's `Date` reads a naive date-time as local
                // time, so a naive mirror of an aware time is another instant
                // for a client. (An aware body time of a naive bound one is
                // the server's own form, `as_of` "...Z" for the receipt's
                // naive UTC "...": the same instant for every reader.)
                // A naive body time must be the bound text itself (compared
                // above): "2026-04-02 09:00:00" is not "2026-04-02T09:00:00" to
                // every engine (Safari's Date gives NaN for the former).
                (Ok(p), Ok(q)) => !p.is_naive() && p.instant_micros() == q.instant_micros(),
                _ => false,
            }
        }
        _ => py_eq(a, b),
    }
}

/// The SHA-256 of a text as the receipt would bind it (null for null).
fn text_digest(v: Option<Ref<'_>>) -> Option<String> {
    str_of(v).map(sha256_of)
}

/// Does the bound digest value `got` hold the hex digest `h`?
fn bound_digest_is(got: Option<Ref<'_>>, h: &str) -> bool {
    str_of(got).is_some_and(|s| hex_eq(&s.to_str_lossy(), h))
}

/// Collects failures of one code with their pointers, and one summary pass.
/// Pointers are built only for failures (`at`, `compared_with` are closures).
struct Tally {
    code: CheckCode,
    checked: usize,
    failed: usize,
}

impl Tally {
    fn new(code: CheckCode) -> Tally {
        Tally { code, checked: 0, failed: 0 }
    }

    fn check(
        &mut self,
        report: &mut ReportBuilder,
        ok: bool,
        at: impl FnOnce() -> String,
        compared_with: impl FnOnce() -> String,
        message: impl FnOnce() -> String,
    ) {
        self.checked += 1;
        if !ok {
            self.failed += 1;
            if report.lists_failures_of(self.code) {
                report.fail_against(self.code, &at(), &compared_with(), message());
            } else {
                report.omit(self.code, super::report::Severity::Error, at);
            }
        }
    }

    /// A failure when `bad`, and nothing otherwise: for the shape checks,
    /// which must not change the count a passing report prints.
    fn fail_if(
        &mut self,
        report: &mut ReportBuilder,
        bad: bool,
        at: impl FnOnce() -> String,
        compared_with: impl FnOnce() -> String,
        message: impl FnOnce() -> String,
    ) {
        if bad {
            self.checked += 1;
            self.failed += 1;
            if report.lists_failures_of(self.code) {
                report.fail_against(self.code, &at(), &compared_with(), message());
            } else {
                report.omit(self.code, super::report::Severity::Error, at);
            }
        }
    }

    /// A `__proto__` member of `o` (at `at`) fails: `Object.assign({}, o)`,
    /// `{...o}` and `for…in` copies make it the copy's prototype, so a
    /// client may read attacker text from it that the receipt does not bind.
    fn no_proto(
        &mut self,
        report: &mut ReportBuilder,
        o: Members<'_>,
        at: &dyn Fn() -> String,
        bound: &dyn Fn() -> String,
    ) {
        if let Some(v) = o.get_bytes(b"__proto__") {
            self.fail_if(
                report,
                true,
                || pointer(&at(), "__proto__"),
                bound,
                || {
                    format!(
                    "a `__proto__` member ({}): JavaScript's Object.assign, spread and for-in copies turn it into a \
                     prototype, whose fields a client then reads as the object's own; the receipt binds none of them",
                    v.type_name()
                )
                },
            );
        }
    }

    /// `v` (at `at`) must be a string; a present value of another type fails
    /// (`what`: the field in words).
    fn string_or_absent(
        &mut self,
        report: &mut ReportBuilder,
        v: Option<Ref<'_>>,
        at: impl FnOnce() -> String,
        bound: impl FnOnce() -> String,
        what: &dyn Fn() -> String,
    ) {
        if let Some(v) = v.filter(|v| v.as_text().is_none()) {
            self.fail_if(report, true, at, bound, || {
                format!(
                    "{} is {}, not a string: a client would use that value, which the receipt does not bind",
                    what(),
                    v.type_name()
                )
            });
        }
    }

    fn finish(self, report: &mut ReportBuilder, at: &str, what: &str) {
        if self.checked > 0 && self.failed == 0 {
            report.pass(self.code, at, format!("{} {what}", self.checked));
        }
    }
}

/// A fixed pointer, for [`Tally::check`].
fn p(s: &str) -> impl FnOnce() -> String + '_ {
    move || s.to_string()
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
    let results = &results(receipt)[..];
    let results_ptr = pointer(rptr, "results");
    let index = result_index(results);
    let privacy = g.privacy_minimal;
    let mut content = Tally::new(CheckCode::ContentHashMismatch);
    let mut neighbours = Tally::new(CheckCode::NeighborHashMismatch);
    let mut fields = Tally::new(CheckCode::BodyMismatch);
    let mut content_skipped = 0usize;
    if let Some(r) = receipt.as_object() {
        fields.no_proto(report, r, &|| rptr.to_string(), &|| rptr.to_string());
    }
    for (i, r) in results.iter().enumerate() {
        if let Some(ro) = r.as_object() {
            fields.no_proto(report, ro, &|| at_index(&results_ptr, i), &|| at_index(&results_ptr, i));
        }
    }
    // receipt_view and provenance, when present, are objects.
    for key in ["receipt_view", "provenance"] {
        if kind == BodyKind::Recall && key == "provenance" {
            continue;
        }
        if let Some(v) = body.get(key) {
            match v.as_object() {
                Some(_) => {} // its __proto__ member: found by unbound_fields
                None => fields.fail_if(
                    report,
                    true,
                    || pointer("", key),
                    || rptr.to_string(),
                    || format!("{key} is {}, not an object: its bound members cannot be compared", v.type_name()),
                ),
            }
        }
    }
    // SHA256(memories[i].content), by result index: receipt_view repeats the
    // same text, whose hash is then reused after a byte comparison.
    let mut memory_hashes: Vec<Option<(&[u8], String)>> = vec![None; results.len()];

    // Hash pins carried in the body (the top-level receipt_sha256 is checked
    // with the other pins, before the schema).
    if let Some(pin) = body.get("receipt_view").and_then(|v| v.get("receipt_sha256")) {
        let ok = bound_digest_is(Some(pin), sha);
        report.check_against(
            ok,
            CheckCode::ReceiptHashMismatch,
            "/receipt_view/receipt_sha256",
            rptr,
            format!("receipt_view.receipt_sha256 {} vs recomputed {sha}", describe(Some(pin))),
        );
    }
    if kind == BodyKind::Context {
        if let Some(pin) = body.get("provenance").and_then(|v| v.get("context_receipt_sha256")) {
            let ok = bound_digest_is(Some(pin), sha);
            report.check_against(
                ok,
                CheckCode::ReceiptHashMismatch,
                "/provenance/context_receipt_sha256",
                rptr,
                format!("provenance.context_receipt_sha256 {} vs recomputed {sha}", describe(Some(pin))),
            );
        }
    }

    // memories[i] <-> results[i].
    match body.get("memories") {
        None => report.skip(CheckCode::BodyMismatch, "/memories", "the body carries no memories"),
        Some(list) => match list.as_array() {
            Some(memories) => {
                fields.check(report, memories.len() == results.len(), p("/memories"), p(&results_ptr), || {
                    format!("the body has {} memories, the receipt binds {} results", memories.len(), results.len())
                });
                // The content hashes, all at once: independent messages, which the
                // wasm build hashes four at a time (hash::sha256_hex_each).
                let contents: Vec<Option<&[u8]>> = memories
                    .iter()
                    .take(if privacy { 0 } else { results.len() })
                    .map(|m| m.as_object().and_then(|mo| str_of(mo.get("content"))).map(Text::as_bytes))
                    .collect();
                let mut hashes =
                    crate::hash::sha256_hex_each(&contents.iter().flatten().copied().collect::<Vec<_>>()).into_iter();
                let mut content_hashes: Vec<Option<String>> =
                    contents.iter().map(|c| c.and_then(|_| hashes.next())).collect();
                for (i, m) in memories.iter().enumerate() {
                    let Some(&r) = results.get(i) else {
                        // Already reported by the length check: an unbound memory.
                        continue;
                    };
                    let mp = || at_index("/memories", i);
                    let rp = || at_index(&results_ptr, i);
                    let Some(mo) = m.as_object() else {
                        fields.check(report, false, mp, rp, || {
                            format!("memories[{i}] is {}, not an object", m.type_name())
                        });
                        continue;
                    };
                    bind_memory(report, &mut fields, mo, r, &mp, &rp);
                    // Content: a string, hashed below; any other type fails.
                    fields.string_or_absent(
                        report,
                        mo.get("content"),
                        || pointer(&mp(), "content"),
                        || pointer(&rp(), "content_hash"),
                        &|| format!("memories[{i}].content"),
                    );
                    if let Some(text) = str_of(mo.get("content")) {
                        if privacy {
                            content_skipped += 1;
                        } else {
                            let h = content_hashes.get_mut(i).and_then(Option::take).unwrap_or_else(|| sha256_of(text));
                            let got = r.get("content_hash");
                            let ok = bound_digest_is(got, &h);
                            content.check(
                                report,
                                ok,
                                || pointer(&mp(), "content"),
                                || pointer(&rp(), "content_hash"),
                                || {
                                    format!(
                                        "SHA256(content) {h} vs bound content_hash {}{}",
                                        describe(got),
                                        PRIVACY_HINT
                                    )
                                },
                            );
                            if let Some(slot) = memory_hashes.get_mut(i) {
                                *slot = Some((text.as_bytes(), h));
                            }
                        }
                    }
                    // Neighbours.
                    bind_neighbours(report, &mut neighbours, mo, r, &mp, &rp);
                }
            }
            None => fields.check(report, false, p("/memories"), p(&results_ptr), || {
                format!("memories is {}, not an array", list.type_name())
            }),
        },
    }

    // receipt_view.memories_used[j] <-> the result with that id.
    let used = body.get("receipt_view").and_then(|v| v.get("memories_used"));
    if let Some(list) = used.filter(|u| u.as_array().is_none()) {
        // An array-like object ({"0": ..., "length": n}) or anything else:
        // a client indexing it reads values nothing here compared.
        fields.fail_if(report, true, p("/receipt_view/memories_used"), p(&results_ptr), || {
            format!("receipt_view.memories_used is {}, not an array", list.type_name())
        });
    }
    if let Some(used) = used.and_then(Ref::as_array) {
        for (j, u) in used.iter().enumerate() {
            let up = || at_index("/receipt_view/memories_used", j);
            let Some(uo) = u.as_object() else {
                fields.fail_if(report, true, up, p(&results_ptr), || {
                    format!("memories_used[{j}] is {}, not an object", u.type_name())
                });
                continue;
            };
            let _ = uo; // its __proto__ member: found by unbound_fields
            let id = str_of(u.get("id"));
            let Some(&i) = id.and_then(|id| index.get(id.as_bytes())) else {
                fields.check(
                    report,
                    false,
                    || pointer(&up(), "id"),
                    p(&results_ptr),
                    || format!("memories_used[{j}] names {}, which no receipt result has", describe(u.get("id"))),
                );
                continue;
            };
            let r = results[i];
            let rp = || at_index(&results_ptr, i);
            for (key, instant) in [("source", false), ("score", false), ("event_time", true)] {
                let Some(v) = u.get(key) else { continue };
                let bound = r.get(key);
                let ok = if instant { same_instant(Some(v), bound) } else { py_eq(Some(v), bound) };
                fields.check(
                    report,
                    ok,
                    || pointer(&up(), key),
                    || pointer(&rp(), key),
                    || format!("memories_used[{j}].{key} {} vs bound {}", describe(Some(v)), describe(bound)),
                );
            }
            fields.string_or_absent(
                report,
                u.get("content"),
                || pointer(&up(), "content"),
                || pointer(&rp(), "content_hash"),
                &|| format!("memories_used[{j}].content"),
            );
            if let Some(text) = str_of(u.get("content")) {
                if privacy {
                    content_skipped += 1;
                } else {
                    let h = match memory_hashes.get(i) {
                        Some(Some((seen, h))) if json::bytes_eq(seen, text.as_bytes()) => h.clone(),
                        _ => sha256_of(text),
                    };
                    let got = r.get("content_hash");
                    let ok = bound_digest_is(got, &h);
                    content.check(
                        report,
                        ok,
                        || pointer(&up(), "content"),
                        || pointer(&rp(), "content_hash"),
                        || format!("SHA256(content) {h} vs bound content_hash {}{}", describe(got), PRIVACY_HINT),
                    );
                }
            }
        }
    }

    // Top-level mirrors.
    let policy_key = if kind == BodyKind::Recall { "policy" } else { "retrieval_policy" };
    let policy = receipt.get(policy_key);
    let mut mirror =
        |report: &mut ReportBuilder, key: &str, bound: Option<Ref<'_>>, bound_ptr: String, instant: bool| {
            let Some(v) = body.get(key) else { return };
            let ok = if instant { same_instant(Some(v), bound) } else { py_eq(Some(v), bound) };
            fields.check(
                report,
                ok,
                || pointer("", key),
                || bound_ptr,
                || format!("{key} {} vs bound {}", describe(Some(v)), describe(bound)),
            );
        };
    mirror(report, "retrieval_degraded", receipt.get("retrieval_degraded"), pointer(rptr, "retrieval_degraded"), false);
    mirror(report, "mode", policy.and_then(|p| p.get("mode")), pointer(&pointer(rptr, policy_key), "mode"), false);
    mirror(
        report,
        "strategy",
        policy.and_then(|p| p.get("strategy")),
        pointer(&pointer(rptr, policy_key), "strategy"),
        false,
    );
    match kind {
        BodyKind::Recall => mirror(report, "as_of", receipt.get("as_of"), pointer(rptr, "as_of"), true),
        BodyKind::Context => {
            for key in ["excluded", "budget", "ranking_policy"] {
                mirror(report, key, receipt.get(key), pointer(rptr, key), false);
            }
        }
    }

    if kind == BodyKind::Context {
        // provenance.recall_receipt_sha256 == retrieval_receipt_sha256.
        if let Some(v) = body.get("provenance").and_then(|p| p.get("recall_receipt_sha256")) {
            let bound = receipt.get("retrieval_receipt_sha256");
            fields.check(
                report,
                digest_eq(Some(v), bound),
                p("/provenance/recall_receipt_sha256"),
                || pointer(rptr, "retrieval_receipt_sha256"),
                || format!("provenance.recall_receipt_sha256 {} vs bound {}", describe(Some(v)), describe(bound)),
            );
        }
        // open_conflicts[j] <-> receipt.open_conflicts[j].
        if let Some(conflicts) = body.get("open_conflicts") {
            let bound_list: Vec<Ref<'_>> =
                receipt.get("open_conflicts").and_then(Ref::as_array).map(|a| a.iter().collect()).unwrap_or_default();
            let bound_ptr = pointer(rptr, "open_conflicts");
            match conflicts.as_array() {
                Some(list) => {
                    fields.check(report, list.len() == bound_list.len(), p("/open_conflicts"), p(&bound_ptr), || {
                        format!("the body has {} open conflicts, the receipt binds {}", list.len(), bound_list.len())
                    });
                    for (j, (c, &b)) in list.iter().zip(&bound_list).enumerate() {
                        let cp = || at_index("/open_conflicts", j);
                        let bp = || at_index(&bound_ptr, j);
                        match c.as_object() {
                            Some(_) => {} // its __proto__ member: found by unbound_fields
                            None => {
                                fields.fail_if(report, true, cp, bp, || {
                                    format!("open_conflicts[{j}] is {}, not an object", c.type_name())
                                });
                                continue;
                            }
                        }
                        for key in ["id", "memory_a_id", "memory_b_id"] {
                            let (v, w) = (c.get(key), b.get(key));
                            fields.check(
                                report,
                                py_eq(v, w),
                                || pointer(&cp(), key),
                                || pointer(&bp(), key),
                                || format!("open_conflicts[{j}].{key} {} vs bound {}", describe(v), describe(w)),
                            );
                        }
                        for side in ["memory_a_content", "memory_b_content"] {
                            // A string (hashed), or null / absent where the bound hash is null.
                            let v = c.get(side);
                            if v.is_some_and(|v| !v.is_null() && v.as_text().is_none()) {
                                fields.string_or_absent(
                                    report,
                                    v,
                                    || pointer(&cp(), side),
                                    || pointer(&bp(), &format!("{side}_sha256")),
                                    &|| format!("open_conflicts[{j}].{side}"),
                                );
                                continue;
                            }
                            let h = text_digest(v);
                            let bkey = format!("{side}_sha256");
                            let w = b.get(&bkey);
                            fields.check(
                                report,
                                digest_text_eq(h.as_deref(), w),
                                || pointer(&cp(), side),
                                || pointer(&bp(), &bkey),
                                || {
                                    format!(
                                        "SHA256(open_conflicts[{j}].{side}) {} vs bound {}",
                                        h.as_deref().unwrap_or("null (no text)"),
                                        describe(w)
                                    )
                                },
                            );
                        }
                    }
                }
                None => fields.check(report, false, p("/open_conflicts"), p(&bound_ptr), || {
                    format!("open_conflicts is {}, not an array", conflicts.type_name())
                }),
            }
        }
        // The context text the agent uses.
        let bound = receipt.get("context_sha256");
        let bound_ptr = pointer(rptr, "context_sha256");
        for key in ["context_text", "context"] {
            // A string (hashed below), or null when the bound hash is null.
            if let Some(v) = body.get(key).filter(|v| v.as_text().is_none()) {
                let ok = v.is_null() && null_or_missing(bound);
                fields.fail_if(report, !ok, || pointer("", key), || bound_ptr.clone(), || {
                    format!(
                        "{key} is {}, not a string: an agent would use that value, which context_sha256 {} does not bind",
                        v.type_name(),
                        describe(bound)
                    )
                });
            }
            if let Some(text) = str_of(body.get(key)) {
                let h = sha256_of(text);
                let ok = bound_digest_is(bound, &h);
                report.check_against(
                    ok,
                    CheckCode::ContextHashMismatch,
                    &pointer("", key),
                    &bound_ptr,
                    format!("SHA256({key}) {h} vs bound context_sha256 {}", describe(bound)),
                );
            }
        }
    }

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

const PRIVACY_HINT: &str = " (if the memory was written in privacy-minimal mode its content_hash is an HMAC that no \
client can recompute: pass given.privacy_minimal = true to skip this comparison)";

/// `memories[i]` fields against `results[i]` (`mp`, `rp`: their pointers).
fn bind_memory(
    report: &mut ReportBuilder,
    fields: &mut Tally,
    m: Members<'_>,
    r: Ref<'_>,
    mp: &dyn Fn() -> String,
    rp: &dyn Fn() -> String,
) {
    // (key, compared as: 0 value, 1 digest, 2 instant)
    for (key, how) in
        [("id", 0), ("source", 0), ("content_hash", 1), ("score", 0), ("score_breakdown", 0), ("event_time", 2)]
    {
        let Some(v) = m.get(key) else { continue };
        let bound = r.get(key);
        let ok = match how {
            2 => same_instant(Some(v), bound),
            1 => digest_eq(Some(v), bound),
            _ => py_eq(Some(v), bound),
        };
        fields.check(
            report,
            ok,
            || pointer(&mp(), key),
            || pointer(&rp(), key),
            || format!("{key} {} vs bound {}", describe(Some(v)), describe(bound)),
        );
    }
}

/// The body keys of each neighbour position: (position, text, id, metadata).
const NEIGHBOUR_KEYS: [(&str, &str, &str, &str); 4] = [
    ("before", "context_before", "context_before_id", "context_before_metadata"),
    ("before_2", "context_before_2", "context_before_2_id", "context_before_2_metadata"),
    ("after", "context_after", "context_after_id", "context_after_metadata"),
    ("after_2", "context_after_2", "context_after_2_id", "context_after_2_metadata"),
];

/// `memories[i].context_<pos>{,_id,_metadata}` against `results[i].context_neighbors[pos]`.
fn bind_neighbours(
    report: &mut ReportBuilder,
    tally: &mut Tally,
    m: Members<'_>,
    r: Ref<'_>,
    mp: &dyn Fn() -> String,
    rp: &dyn Fn() -> String,
) {
    // Most memories carry no neighbour fields: one pass over the keys
    // instead of twelve lookups.
    if !m.iter().any(|(k, _)| k.as_bytes().starts_with(b"context_")) {
        return;
    }
    let entries = r.get("context_neighbors").and_then(Ref::as_object);
    let np = || pointer(&rp(), "context_neighbors");
    for (pos, text_key, id_key, meta_key) in NEIGHBOUR_KEYS {
        let (text, id, meta) = (m.get(text_key), m.get(id_key), m.get(meta_key));
        if text.is_none() && id.is_none() && meta.is_none() {
            continue; // the body carries nothing for this position
        }
        // A missing field stands for null.
        let is_null = null_or_missing;
        let entry = entries.and_then(|e| e.get(pos));
        let ep = || pointer(&np(), pos);
        let Some(entry) = entry else {
            // The receipt binds no neighbour here: the body may carry none.
            let carried = !is_null(text) || !is_null(meta) || !is_null(id);
            let at = || {
                if !is_null(text) {
                    pointer(&mp(), text_key)
                } else if !is_null(meta) {
                    pointer(&mp(), meta_key)
                } else {
                    pointer(&mp(), id_key)
                }
            };
            tally.check(report, !carried, at, ep, || {
                format!("the body carries a {pos} neighbour but the receipt binds none at this position")
            });
            continue;
        };
        let bound_id = entry.get("id");
        tally.check(
            report,
            py_eq(id, bound_id),
            || pointer(&mp(), id_key),
            || pointer(&ep(), "id"),
            || format!("{id_key} {} vs bound {}", describe_or_null(id), describe(bound_id)),
        );
        let bound_c = entry.get("returned_content_sha256");
        let text_kind = text.map(Ref::kind);
        let ok = match text_kind {
            None | Some(Kind::Null) => bound_c.is_some_and(Ref::is_null),
            Some(Kind::Str(t)) => bound_digest_is(bound_c, &sha256_of(t)),
            _ => false,
        };
        tally.check(
            report,
            ok,
            || pointer(&mp(), text_key),
            || pointer(&ep(), "returned_content_sha256"),
            || match (text, text_kind) {
                (_, Some(Kind::Str(t))) => {
                    format!("SHA256({text_key}) {} vs bound {}", sha256_of(t), describe(bound_c))
                }
                (None, _) | (_, Some(Kind::Null)) => {
                    format!("{text_key} is null; bound returned_content_sha256 {}", describe(bound_c))
                }
                (Some(other), _) => format!("{text_key} is {}, not a string or null", other.type_name()),
            },
        );
        let h = match meta {
            Some(meta) => json::canonical_sha256(meta),
            None => json::canonical_sha256(&Value::Null),
        };
        let bound_m = entry.get("returned_metadata_sha256");
        let ok = bound_digest_is(bound_m, &h);
        tally.check(
            report,
            ok,
            || pointer(&mp(), meta_key),
            || pointer(&ep(), "returned_metadata_sha256"),
            || format!("SHA256(PyJSON({meta_key})) {h} vs bound {}", describe(bound_m)),
        );
    }
}

/// At most this many patterns are listed in `unbound_fields` (a real body
/// has a few dozen), each of a key of at most [`MAX_UNBOUND_KEY_BYTES`]: a
/// hostile body's million distinct keys must not make the report as large.
const MAX_UNBOUND: usize = 200;
const MAX_UNBOUND_KEY_BYTES: usize = 256;

/// The body fields the receipt does not bind, as JSON-pointer patterns
/// (`*` for any array index), in first-seen order, and whether some were
/// left out ([`MAX_UNBOUND`]).
/// `protos` gets the pointer of every `__proto__` member of those objects
/// (the body, `receipt_view`, `provenance`, a memory, a view entry, a conflict).
fn unbound_fields<'d>(body: Ref<'d>, kind: BodyKind, protos: &mut Vec<String>) -> (Vec<String>, bool) {
    let mut out: Vec<String> = Vec::new();
    let mut omitted = 0u8;
    // (base, key): the same pair always spells the same pointer and distinct
    // pairs distinct pointers (tokens are escaped), so this dedupes pointers
    // without building one per member.
    let mut seen: HashSet<(&'static str, Cow<'d, str>)> = HashSet::new();
    let mut add = |base: &'static str, k: Cow<'d, str>| {
        if k.len() > MAX_UNBOUND_KEY_BYTES || out.len() >= MAX_UNBOUND {
            // Not listed (nor remembered: a hostile body's million keys are not hashed twice).
            omitted = 1;
        } else if !seen.contains(&(base, k.clone())) {
            out.push(pointer(base, &k));
            seen.insert((base, k));
        }
    };
    let Some(top) = body.as_object() else { return (Vec::new(), false) };
    let bound = if kind == BodyKind::Recall { RECALL_BOUND } else { CONTEXT_BOUND };
    let is_proto = |k: Text<'_>| k.as_bytes() == b"__proto__";
    for (k, _) in top.iter() {
        if is_proto(k) {
            protos.push("/__proto__".to_string());
            continue;
        }
        let k = k.to_str_lossy();
        if !bound.contains(&k.as_ref()) {
            add("", k);
        }
    }
    let is_neighbour_key = |k: &str| {
        POSITIONS.iter().any(|pos| {
            k.strip_prefix("context_")
                .and_then(|rest| rest.strip_prefix(pos))
                .is_some_and(|tail| tail.is_empty() || tail == "_id" || tail == "_metadata")
        })
    };
    let members = |list: Option<Ref<'d>>,
                   base: &'static str,
                   bound: &[&str],
                   neighbours: bool,
                   add: &mut dyn FnMut(&'static str, Cow<'d, str>),
                   protos: &mut Vec<String>| {
        if let Some(items) = list.and_then(Ref::as_array) {
            for (i, item) in items.iter().enumerate() {
                if let Some(o) = item.as_object() {
                    for (k, _) in o.iter() {
                        if is_proto(k) {
                            protos.push(pointer(&at_index(base.trim_end_matches("/*"), i), "__proto__"));
                            continue;
                        }
                        let k = k.to_str_lossy();
                        if !(bound.contains(&k.as_ref()) || neighbours && is_neighbour_key(&k)) {
                            add(base, k);
                        }
                    }
                }
            }
        }
    };
    members(body.get("memories"), "/memories/*", MEMORY_BOUND, true, &mut add, protos);
    if let Some(view) = body.get("receipt_view").and_then(Ref::as_object) {
        for (k, _) in view.iter() {
            if is_proto(k) {
                protos.push("/receipt_view/__proto__".to_string());
                continue;
            }
            let k = k.to_str_lossy();
            if !VIEW_BOUND.contains(&k.as_ref()) {
                add("/receipt_view", k);
            }
        }
        members(view.get("memories_used"), "/receipt_view/memories_used/*", VIEW_MEMORY_BOUND, false, &mut add, protos);
    }
    if kind == BodyKind::Context {
        if let Some(prov) = body.get("provenance").and_then(Ref::as_object) {
            for (k, _) in prov.iter() {
                if is_proto(k) {
                    protos.push("/provenance/__proto__".to_string());
                    continue;
                }
                let k = k.to_str_lossy();
                if !PROVENANCE_BOUND.contains(&k.as_ref()) {
                    add("/provenance", k);
                }
            }
        }
        members(body.get("open_conflicts"), "/open_conflicts/*", CONFLICT_BOUND, false, &mut add, protos);
    }
    (out, omitted > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python `==` of two JSON texts (parsed as one array `[a, b]`).
    fn eq_with(a: &str, b: &str, f: fn(Option<Ref<'_>>, Option<Ref<'_>>) -> bool) -> bool {
        let text = format!("[{a},{b}]");
        let doc = json::parse_doc(&text).unwrap();
        let items = doc.root().as_array().unwrap();
        f(items.get(0), items.get(1))
    }

    #[test]
    fn python_equality_of_values() {
        assert!(eq_with(r#"{"a":1,"b":[1.0,"x"]}"#, r#"{"b":[1,"x"],"a":1.0}"#, py_eq));
        assert!(!eq_with("true", "1", py_eq));
        assert!(!eq_with(r#"{"a":1}"#, r#"{"a":1,"b":2}"#, py_eq));
        assert!(!eq_with("NaN", "NaN", py_eq));
        // A naive body time of an aware bound one: JS reads it as local time.
        assert!(!eq_with(r#""2026-04-02T09:00:00""#, r#""2026-04-02T09:00:00Z""#, same_instant));
        assert!(!eq_with(r#""2026-04-02 09:00:00""#, r#""2026-04-02T09:00:00+00:00""#, same_instant));
        // The server's own as_of: "...Z" in the body, naive UTC in the receipt.
        assert!(eq_with(r#""2026-04-02T09:00:00Z""#, r#""2026-04-02T09:00:00""#, same_instant));
        assert!(!eq_with(r#""2026-04-02 09:00:00""#, r#""2026-04-02T09:00:00""#, same_instant));
        assert!(eq_with(r#""2026-04-02T09:00:00""#, r#""2026-04-02T09:00:00""#, same_instant));
        assert!(eq_with(r#""2026-04-02T10:00:00+01:00""#, r#""2026-04-02T09:00:00+00:00""#, same_instant));
        assert!(!eq_with(r#""2026-04-02T09:00:01Z""#, r#""2026-04-02T09:00:00""#, same_instant));
        let doc = json::parse_doc("null").unwrap();
        assert!(same_instant(Some(doc.root()), None));
        assert!(py_eq(None, Some(doc.root())));
    }
}
