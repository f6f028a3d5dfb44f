//! What the receipt does not bind: the body's other members, listed in the
//! report's `unbound_fields` (bounded), and the `__proto__` members found in
//! the same pass over the keys.

use std::borrow::Cow;
use std::collections::HashSet;

use super::super::report::pointer;
use super::compare::at_index;
use super::BodyKind;
use crate::json::{Ref, Text};

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

/// At most this many patterns are listed in `unbound_fields` (a real body
/// has a few dozen), each of a key of at most [`MAX_UNBOUND_KEY_BYTES`]: a
/// hostile body's million distinct keys must not make the report as large.
pub(super) const MAX_UNBOUND: usize = 200;
pub(super) const MAX_UNBOUND_KEY_BYTES: usize = 256;

/// The body fields the receipt does not bind, as JSON-pointer patterns
/// (`*` for any array index), in first-seen order, and whether some were
/// left out ([`MAX_UNBOUND`]).
/// `protos` gets the pointer of every `__proto__` member of those objects
/// (the body, `receipt_view`, `provenance`, a memory, a view entry, a conflict).
pub(super) fn unbound_fields<'d>(body: Ref<'d>, kind: BodyKind, protos: &mut Vec<String>) -> (Vec<String>, bool) {
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
