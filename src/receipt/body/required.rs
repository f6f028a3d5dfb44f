//! Closed world: a key the server always sends must be there. A client
//! reads a missing key as `undefined` (a prompt built from
//! `` `Memory:\n${ctx.context_text}` `` says "Memory:\nundefined"), so a
//! body without it is not what the server sent, exactly as `null` would
//! not be: a failed `body_mismatch` at the key's pointer. Which keys the
//! server always sends is the contract's `Sent::Always` (from the server's
//! response models: pydantic writes every field of a response model, its
//! defaults included).

use super::super::report::pointer;
use super::compare::at_index;
use super::tally::p;
use super::{Binder, BodyKind};
use crate::contract::fields::{self as contract, ObjectSpec};
use crate::json::{Members, Ref};

impl<'d> Binder<'_, 'd> {
    /// Every object the binding reads, against its kind's always-sent keys.
    pub(super) fn required(&mut self) {
        let body = self.body;
        let top = if self.kind == BodyKind::Recall { &contract::RECALL_RESPONSE } else { &contract::CONTEXT_RESPONSE };
        if let Some(o) = body.as_object() {
            self.require(o, top, &|| String::new());
        }
        self.require_each(body.get("memories"), "/memories", &contract::MEMORY);
        if let Some(view) = body.get("receipt_view").and_then(Ref::as_object) {
            self.require(view, &contract::RECEIPT_VIEW, &|| "/receipt_view".to_string());
            self.require_each(view.get("memories_used"), "/receipt_view/memories_used", &contract::VIEW_MEMORY);
        }
        if self.kind == BodyKind::Context {
            if let Some(prov) = body.get("provenance").and_then(Ref::as_object) {
                self.require(prov, &contract::PROVENANCE, &|| "/provenance".to_string());
            }
            self.require_each(body.get("open_conflicts"), "/open_conflicts", &contract::CONFLICT);
        }
    }

    /// [`Self::require`] on each object of the array `list` (at `base`).
    fn require_each(&mut self, list: Option<Ref<'d>>, base: &str, spec: &ObjectSpec) {
        let Some(items) = list.and_then(Ref::as_array) else { return };
        for (i, item) in items.iter().enumerate() {
            if let Some(o) = item.as_object() {
                self.require(o, spec, &|| at_index(base, i));
            }
        }
    }

    /// Each always-sent field of `spec` is a key of `o` (at `at`).
    fn require(&mut self, o: Members<'d>, spec: &ObjectSpec, at: &dyn Fn() -> String) {
        let n = o.len();
        // The server writes its model's fields in the contract's order: each
        // search starts after the last key found (linear for a server's
        // body, whatever extra keys sit in between).
        let mut k = 0;
        for f in spec.always_sent() {
            let found = (k..n).chain(0..k.min(n)).find(|&i| o.at(i).0.as_bytes() == f.name.as_bytes());
            if let Some(i) = found {
                k = i + 1;
                continue;
            }
            let rptr = self.rptr;
            self.fields.fail_if(
                self.report,
                true,
                || pointer(&at(), f.name),
                p(rptr),
                || {
                    format!(
                        "{} is missing: the server always sends it, and a client reads a missing key as undefined, \
                         which the receipt does not bind",
                        pointer(&at(), f.name)
                    )
                },
            );
        }
    }
}
