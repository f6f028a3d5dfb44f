//! What the receipt does not bind: the body's other members, listed in the
//! report's `unbound_fields` (bounded), and the `__proto__` members found in
//! the same pass over the keys.
//!
//! Which members are bound is the contract's ([`crate::contract`]): a
//! member whose row says [`Bind::Unbound`], or that no row names, is listed.
//! The walk starts at the body's object spec and goes into the objects its
//! bound rows nest ([`Bind::Items`], [`Bind::Object`]), in [`ObjectKind`]
//! order (memories, the view and its memories, provenance, conflicts).

use std::borrow::Cow;
use std::collections::HashSet;

use super::super::report::pointer;
use super::compare::{at_index, same_bytes};
use super::{nested, BodyKind};
#[cfg(doc)]
use crate::contract::{Bind, ObjectKind};
use crate::contract::{Contract, ObjectSpec};
use crate::json::{Members, Ref};

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
pub(super) fn unbound_fields<'d>(
    contract: &Contract,
    body: Ref<'d>,
    kind: BodyKind,
    protos: &mut Vec<String>,
) -> (Vec<String>, bool) {
    let Some(top) = body.as_object() else { return (Vec::new(), false) };
    let mut walk = Walk { contract, out: Vec::new(), omitted: false, seen: HashSet::new(), bases: Vec::new(), protos };
    walk.object(top, contract.object(kind.spec().kind), String::new(), String::new());
    (walk.out, walk.omitted)
}

struct Walk<'c, 'd, 'p> {
    contract: &'c Contract,
    out: Vec<String>,
    omitted: bool,
    /// (base pattern index in `bases`, key): the same pair always spells the
    /// same pointer and distinct pairs distinct pointers (tokens are
    /// escaped), so this dedupes pointers without building one per member.
    seen: HashSet<(usize, Cow<'d, str>)>,
    /// The base patterns seen (`/memories/*`), interned, each with the
    /// contract rows already listed under it: a bitmask by row index (no
    /// hashing, no key copy: a real body's unbound members are all contract
    /// rows, repeated in every memory).
    bases: Vec<(String, u64)>,
    protos: &'p mut Vec<String>,
}

impl<'d> Walk<'_, 'd, '_> {
    fn base_index(&mut self, pattern: &str) -> usize {
        match self.bases.iter().position(|(b, _)| b == pattern) {
            Some(i) => i,
            None => {
                self.bases.push((pattern.to_string(), 0));
                self.bases.len() - 1
            }
        }
    }

    fn add(&mut self, base: usize, k: Cow<'d, str>) {
        if k.len() > MAX_UNBOUND_KEY_BYTES || self.out.len() >= MAX_UNBOUND {
            // Not listed (nor remembered: a hostile body's million keys are not hashed twice).
            self.omitted = true;
        } else if !self.seen.contains(&(base, k.clone())) {
            self.out.push(pointer(&self.bases[base].0, &k));
            self.seen.insert((base, k));
        }
    }

    /// [`Self::add`] for the member of contract row `row` (named `name`).
    fn add_row(&mut self, base: usize, row: usize, name: &'static str) {
        if row >= 64 {
            return self.add(base, Cow::Borrowed(name));
        }
        let mask = &mut self.bases[base].1;
        if *mask & (1 << row) != 0 {
            return;
        }
        *mask |= 1 << row;
        if self.out.len() >= MAX_UNBOUND {
            self.omitted = true;
        } else {
            self.out.push(pointer(&self.bases[base].0, name));
        }
    }

    /// The members of `o` (an object of `spec`, at `at`; `pattern` for
    /// `unbound_fields`), then the objects its bound rows nest.
    fn object(&mut self, o: Members<'d>, spec: &ObjectSpec, at: String, pattern: String) {
        let base = self.base_index(&pattern);
        // Each key's contract row, searched from the row after the last one
        // found (as `ObjectSpec::lookup`: a server's body lists its members in
        // the contract's order), by bytes (field names are ASCII).
        let (fields, mut next) = (spec.fields, 0);
        for m in 0..o.len() {
            // (Key bytes: no `Text`, whose slice of the input checks UTF-8 boundaries.)
            let k = o.key_bytes_at(m);
            if k == b"__proto__" {
                self.protos.push(pointer(&at, "__proto__"));
                continue;
            }
            let n = fields.len();
            let row = (0..n).map(|j| (next + j) % n).find(|&i| same_bytes(fields[i].name.as_bytes(), k));
            match row {
                Some(i) => {
                    next = i + 1;
                    if !fields[i].bind.is_bound() {
                        self.add_row(base, i, fields[i].name);
                    }
                }
                None => {
                    if !spec.rest.is_bound() {
                        self.add(base, o.at(m).0.to_str_lossy());
                    }
                }
            }
        }
        for (of, name, items) in nested(spec) {
            let inner = self.contract.object(of);
            let (at, pattern) = (pointer(&at, name), pointer(&pattern, name));
            match o.get(name) {
                Some(v) if items => {
                    let Some(list) = v.as_array() else { continue };
                    let pattern = pointer(&pattern, "*");
                    for (i, item) in list.iter().enumerate() {
                        if let Some(io) = item.as_object() {
                            self.object(io, inner, at_index(&at, i), pattern.clone());
                        }
                    }
                }
                Some(v) => {
                    if let Some(vo) = v.as_object() {
                        self.object(vo, inner, at, pattern);
                    }
                }
                None => {}
            }
        }
    }
}
