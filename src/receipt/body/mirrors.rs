//! The body's top-level mirrors of receipt fields, and a context body's
//! own bound fields: `provenance.recall_receipt_sha256`, `open_conflicts`,
//! and the context text the agent uses.

use super::super::checks::sha256_of;
use super::super::report::{pointer, CheckCode};
use super::compare::{
    at_index, bound_digest_is, describe, digest_eq, digest_text_eq, null_or_missing, py_eq, same_instant, str_of,
    text_digest,
};
use super::tally::p;
use super::{at_path, compared, path_pointer, Binder, Compare};
use crate::contract::{Bind, ObjectKind};
use crate::json::Ref;

impl<'d> Binder<'_, 'd> {
    /// The body's top-level members the contract compares with a bound
    /// value (`retrieval_degraded`, `mode`, `strategy`, `as_of` of a recall;
    /// `mode`, `strategy`, `excluded`, `budget`, `ranking_policy` of a
    /// context), each when present, against the receipt.
    pub(super) fn mirrors(&mut self) {
        let (receipt, rptr) = (self.receipt, self.rptr);
        for (key, path, how) in compared(self.contract.object(self.kind.spec().kind)) {
            let Some(v) = self.body.get(key) else { continue };
            let bound = at_path(receipt, path);
            let ok = match how {
                Compare::Instant => same_instant(Some(v), bound),
                Compare::Digest => digest_eq(Some(v), bound),
                Compare::Value => py_eq(Some(v), bound),
            };
            self.fields.check(
                self.report,
                ok,
                || pointer("", key),
                || path_pointer(rptr, path),
                || format!("{key} {} vs bound {}", describe(Some(v)), describe(bound)),
            );
        }
    }

    /// Context bodies: the compared members of `provenance`
    /// (`recall_receipt_sha256` == `retrieval_receipt_sha256`).
    pub(super) fn provenance(&mut self) {
        let Some(prov) = self.body.get("provenance") else { return };
        let rptr = self.rptr;
        for (key, path, how) in compared(self.contract.object(ObjectKind::Provenance)) {
            let Some(v) = prov.get(key) else { continue };
            let bound = at_path(self.receipt, path);
            let ok = match how {
                Compare::Instant => same_instant(Some(v), bound),
                Compare::Digest => digest_eq(Some(v), bound),
                Compare::Value => py_eq(Some(v), bound),
            };
            self.fields.check(
                self.report,
                ok,
                || pointer("/provenance", key),
                || path_pointer(rptr, path),
                || format!("provenance.{key} {} vs bound {}", describe(Some(v)), describe(bound)),
            );
        }
    }

    /// Context bodies: `open_conflicts[j]` <-> `receipt.open_conflicts[j]`.
    pub(super) fn open_conflicts(&mut self) {
        let Some(conflicts) = self.body.get("open_conflicts") else { return };
        let bound_list: Vec<Ref<'_>> =
            self.receipt.get("open_conflicts").and_then(Ref::as_array).map(|a| a.iter().collect()).unwrap_or_default();
        let bound_ptr = pointer(self.rptr, "open_conflicts");
        let Some(list) = conflicts.as_array() else {
            return self.fields.check(self.report, false, p("/open_conflicts"), p(&bound_ptr), || {
                format!("open_conflicts is {}, not an array", conflicts.type_name())
            });
        };
        self.fields.check(self.report, list.len() == bound_list.len(), p("/open_conflicts"), p(&bound_ptr), || {
            format!("the body has {} open conflicts, the receipt binds {}", list.len(), bound_list.len())
        });
        for (j, (c, &b)) in list.iter().zip(&bound_list).enumerate() {
            self.conflict(j, c, b, &bound_ptr);
        }
    }

    /// `open_conflicts[j]` (`c`) against the bound conflict `b` (at `bound_ptr`/j).
    fn conflict(&mut self, j: usize, c: Ref<'_>, b: Ref<'_>, bound_ptr: &str) {
        let cp = || at_index("/open_conflicts", j);
        let bp = || at_index(bound_ptr, j);
        if c.as_object().is_none() {
            return self.fields.fail_if(self.report, true, cp, bp, || {
                format!("open_conflicts[{j}] is {}, not an object", c.type_name())
            });
        }
        // (its __proto__ member: found by unbound_fields)
        let spec = self.contract.object(ObjectKind::Conflict);
        for (key, path, how) in compared(spec) {
            // Every compared member is compared, present or not (a missing one is `None`).
            let (v, w) = (c.get(key), at_path(b, path));
            let ok = match how {
                Compare::Instant => same_instant(v, w),
                Compare::Digest => digest_eq(v, w),
                Compare::Value => py_eq(v, w),
            };
            self.fields.check(
                self.report,
                ok,
                || pointer(&cp(), key),
                || path_pointer(&bp(), path),
                || format!("open_conflicts[{j}].{key} {} vs bound {}", describe(v), describe(w)),
            );
        }
        let hashed = spec.fields.iter().filter_map(|f| match f.bind {
            Bind::ContentHash(path) => Some((f.name, path)),
            _ => None,
        });
        for (side, bkey) in hashed {
            // A string (hashed), or null / absent where the bound hash is null.
            let v = c.get(side);
            if v.is_some_and(|v| !v.is_null() && v.as_text().is_none()) {
                self.fields.string_or_absent(
                    self.report,
                    v,
                    || pointer(&cp(), side),
                    || path_pointer(&bp(), bkey),
                    &|| format!("open_conflicts[{j}].{side}"),
                );
                continue;
            }
            let h = text_digest(v);
            let w = at_path(b, bkey);
            self.fields.check(
                self.report,
                digest_text_eq(h.as_deref(), w),
                || pointer(&cp(), side),
                || path_pointer(&bp(), bkey),
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

    /// Context bodies: the top-level content members, `context_text` and
    /// `context`, the text the agent uses, hash to `context_sha256` (in
    /// reverse contract order: `context_text`, the canonical alias, is
    /// reported first, as before the contract).
    pub(super) fn context_text(&mut self) {
        let rows = self.contract.object(self.kind.spec().kind).fields.iter().rev().filter_map(|f| match f.bind {
            Bind::ContentHash(path) => Some((f.name, path)),
            _ => None,
        });
        for (key, path) in rows {
            let bound = at_path(self.receipt, path);
            let bound_ptr = path_pointer(self.rptr, path);
            // A string (hashed below), or null when the bound hash is null.
            if let Some(v) = self.body.get(key).filter(|v| v.as_text().is_none()) {
                let ok = v.is_null() && null_or_missing(bound);
                self.fields.fail_if(
                    self.report,
                    !ok,
                    || pointer("", key),
                    || bound_ptr.clone(),
                    || {
                        format!(
                            "{key} is {}, not a string: an agent would use that value, which {path} {} does not bind",
                            v.type_name(),
                            describe(bound)
                        )
                    },
                );
            }
            if let Some(text) = str_of(self.body.get(key)) {
                let h = sha256_of(text);
                let ok = bound_digest_is(bound, &h);
                self.report.check_against(
                    ok,
                    CheckCode::ContextHashMismatch,
                    &pointer("", key),
                    &bound_ptr,
                    format!("SHA256({key}) {h} vs bound {path} {}", describe(bound)),
                );
            }
        }
    }
}
