//! Closed world: a key the server always sends must be there. A client
//! reads a missing key as `undefined` (a prompt built from
//! `` `Memory:\n${ctx.context_text}` `` says "Memory:\nundefined"), so a
//! body without it is not what the server sent, exactly as `null` would
//! not be: a failed `body_mismatch` at the key's pointer. Which keys the
//! server always sends is the contract's `Sent::Always` (from the server's
//! response models: pydantic writes every field of a response model, its
//! defaults included).

use super::super::report::pointer;
use super::compare::{at_index, same_bytes};
use super::tally::p;
use super::{nested, Binder};
use crate::contract::ObjectSpec;
#[cfg(doc)]
use crate::contract::{Bind, ObjectKind};
use crate::json::Members;

impl<'d> Binder<'_, 'd> {
    /// Every object the binding reads, against its kind's always-sent keys:
    /// the body, then the objects its bound rows nest ([`Bind::Items`],
    /// [`Bind::Object`]) in [`ObjectKind`] order, as the contract says.
    pub(super) fn required(&mut self) {
        if let Some(o) = self.body.as_object() {
            let spec = self.contract.object(self.kind.spec().kind);
            self.require_nested(o, spec, String::new());
        }
    }

    /// [`Self::require`] on `o` (an object of `spec`, at `at`), then on the
    /// objects its bound rows nest.
    fn require_nested(&mut self, o: Members<'d>, spec: &ObjectSpec, at: String) {
        self.require(o, spec, &|| at.clone());
        for (of, name, items) in nested(spec) {
            let inner = self.contract.object(of);
            let at = pointer(&at, name);
            match o.get(name) {
                Some(v) if items => {
                    let Some(list) = v.as_array() else { continue };
                    for (i, item) in list.iter().enumerate() {
                        if let Some(io) = item.as_object() {
                            self.require_nested(io, inner, at_index(&at, i));
                        }
                    }
                }
                Some(v) => {
                    if let Some(vo) = v.as_object() {
                        self.require_nested(vo, inner, at);
                    }
                }
                None => {}
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
            let found = (k..n).chain(0..k.min(n)).find(|&i| same_bytes(o.key_bytes_at(i), f.name.as_bytes()));
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
