//! What the receipt does not bind: the body's other members, listed in the
//! report's `unbound_fields` (bounded), and the `__proto__` members found in
//! the same pass over the keys. Bound or not is the contract's
//! ([`crate::contract::fields`]): a member is listed unless its row binds it.

use std::borrow::Cow;
use std::collections::HashSet;

use super::super::report::pointer;
use super::compare::at_index;
use super::BodyKind;
use crate::contract::fields::{self as contract, ObjectSpec};
use crate::json::{Ref, Text};

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
    // Members the contract lists: deduped by (base, row) in a bitmask per
    // base (no hashing, no key copy: a real body's unbound members are all
    // contract rows, repeated in every memory).
    let mut rows: Vec<(&'static str, u64)> = Vec::new();
    // Other members: (base, key). The same pair always spells the same
    // pointer and distinct pairs distinct pointers (tokens are escaped), so
    // this dedupes pointers without building one per member.
    let mut seen: HashSet<(&'static str, Cow<'d, str>)> = HashSet::new();
    let mut add = |base: &'static str, row: Option<(usize, &'static str)>, k: Text<'d>| {
        if let Some((i, name)) = row.filter(|(i, _)| *i < 64) {
            let slot = match rows.iter().position(|(b, _)| std::ptr::eq(*b, base) || *b == base) {
                Some(j) => j,
                None => {
                    rows.push((base, 0));
                    rows.len() - 1
                }
            };
            if rows[slot].1 & (1 << i) != 0 {
                return;
            }
            rows[slot].1 |= 1 << i;
            if out.len() >= MAX_UNBOUND {
                omitted = 1;
            } else {
                out.push(pointer(base, name));
            }
            return;
        }
        let k = k.to_str_lossy();
        if k.len() > MAX_UNBOUND_KEY_BYTES || out.len() >= MAX_UNBOUND {
            // Not listed (nor remembered: a hostile body's million keys are not hashed twice).
            omitted = 1;
        } else if !seen.contains(&(base, k.clone())) {
            out.push(pointer(base, &k));
            seen.insert((base, k));
        }
    };
    let Some(top) = body.as_object() else { return (Vec::new(), false) };
    let spec = if kind == BodyKind::Recall { &contract::RECALL_RESPONSE } else { &contract::CONTEXT_RESPONSE };
    let is_proto = |k: Text<'_>| k.as_bytes() == b"__proto__";
    // The members of one object `o` (at `at`, listed under `base`) that `spec` does not bind.
    let object = |o: crate::json::Members<'d>,
                  spec: &ObjectSpec,
                  base: &'static str,
                  at: &dyn Fn() -> String,
                  add: &mut dyn FnMut(&'static str, Option<(usize, &'static str)>, Text<'d>),
                  protos: &mut Vec<String>| {
        let fields = spec.fields;
        let n = fields.len();
        // The server writes the contract's order: try the row after the last one found first.
        let mut next = 0;
        for (k, _) in o.iter() {
            if is_proto(k) {
                protos.push(pointer(&at(), "__proto__"));
                continue;
            }
            let kb = k.as_bytes();
            match (0..n).map(|j| (next + j) % n).find(|&i| fields[i].name.as_bytes() == kb) {
                Some(i) => {
                    next = i + 1;
                    if !fields[i].bind.is_bound() {
                        add(base, Some((i, fields[i].name)), k);
                    }
                }
                None => {
                    if !spec.rest.is_bound() {
                        add(base, None, k);
                    }
                }
            }
        }
    };
    let items = |list: Option<Ref<'d>>,
                 spec: &ObjectSpec,
                 base: &'static str,
                 add: &mut dyn FnMut(&'static str, Option<(usize, &'static str)>, Text<'d>),
                 protos: &mut Vec<String>| {
        if let Some(list) = list.and_then(Ref::as_array) {
            for (i, item) in list.iter().enumerate() {
                if let Some(o) = item.as_object() {
                    object(o, spec, base, &|| at_index(base.trim_end_matches("/*"), i), add, protos);
                }
            }
        }
    };
    object(top, spec, "", &String::new, &mut add, protos);
    items(body.get("memories"), &contract::MEMORY, "/memories/*", &mut add, protos);
    if let Some(view) = body.get("receipt_view").and_then(Ref::as_object) {
        object(view, &contract::RECEIPT_VIEW, "/receipt_view", &|| "/receipt_view".to_string(), &mut add, protos);
        items(view.get("memories_used"), &contract::VIEW_MEMORY, "/receipt_view/memories_used/*", &mut add, protos);
    }
    if kind == BodyKind::Context {
        if let Some(prov) = body.get("provenance").and_then(Ref::as_object) {
            object(prov, &contract::PROVENANCE, "/provenance", &|| "/provenance".to_string(), &mut add, protos);
        }
        items(body.get("open_conflicts"), &contract::CONFLICT, "/open_conflicts/*", &mut add, protos);
    }
    (out, omitted > 0)
}
