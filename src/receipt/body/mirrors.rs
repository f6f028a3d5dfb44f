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
use super::{Binder, BodyKind};
use crate::json::Ref;

impl<'d> Binder<'_, 'd> {
    /// `retrieval_degraded`, `mode`, `strategy` and `as_of` (recall) or
    /// `excluded`, `budget`, `ranking_policy` (context) against the receipt
    /// and its policy.
    pub(super) fn mirrors(&mut self) {
        let (receipt, rptr) = (self.receipt, self.rptr);
        let policy_key = if self.kind == BodyKind::Recall { "policy" } else { "retrieval_policy" };
        let policy = receipt.get(policy_key);
        self.mirror(
            "retrieval_degraded",
            receipt.get("retrieval_degraded"),
            pointer(rptr, "retrieval_degraded"),
            false,
        );
        self.mirror("mode", policy.and_then(|p| p.get("mode")), pointer(&pointer(rptr, policy_key), "mode"), false);
        self.mirror(
            "strategy",
            policy.and_then(|p| p.get("strategy")),
            pointer(&pointer(rptr, policy_key), "strategy"),
            false,
        );
        match self.kind {
            BodyKind::Recall => self.mirror("as_of", receipt.get("as_of"), pointer(rptr, "as_of"), true),
            BodyKind::Context => {
                for key in ["excluded", "budget", "ranking_policy"] {
                    self.mirror(key, receipt.get(key), pointer(rptr, key), false);
                }
            }
        }
    }

    /// The body's `key`, when present, against `bound` (at `bound_ptr`), by
    /// value or (`instant`) as a time.
    fn mirror(&mut self, key: &str, bound: Option<Ref<'_>>, bound_ptr: String, instant: bool) {
        let Some(v) = self.body.get(key) else { return };
        let ok = if instant { same_instant(Some(v), bound) } else { py_eq(Some(v), bound) };
        self.fields.check(
            self.report,
            ok,
            || pointer("", key),
            || bound_ptr,
            || format!("{key} {} vs bound {}", describe(Some(v)), describe(bound)),
        );
    }

    /// Context bodies: `provenance.recall_receipt_sha256` == `retrieval_receipt_sha256`.
    pub(super) fn provenance(&mut self) {
        let Some(v) = self.body.get("provenance").and_then(|p| p.get("recall_receipt_sha256")) else { return };
        let bound = self.receipt.get("retrieval_receipt_sha256");
        let rptr = self.rptr;
        self.fields.check(
            self.report,
            digest_eq(Some(v), bound),
            p("/provenance/recall_receipt_sha256"),
            || pointer(rptr, "retrieval_receipt_sha256"),
            || format!("provenance.recall_receipt_sha256 {} vs bound {}", describe(Some(v)), describe(bound)),
        );
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
        for key in ["id", "memory_a_id", "memory_b_id"] {
            let (v, w) = (c.get(key), b.get(key));
            self.fields.check(
                self.report,
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
                self.fields.string_or_absent(
                    self.report,
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
            self.fields.check(
                self.report,
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

    /// Context bodies: `context_text` and `context`, the text the agent
    /// uses, hash to `context_sha256`.
    pub(super) fn context_text(&mut self) {
        let bound = self.receipt.get("context_sha256");
        let bound_ptr = pointer(self.rptr, "context_sha256");
        for key in ["context_text", "context"] {
            // A string (hashed below), or null when the bound hash is null.
            if let Some(v) = self.body.get(key).filter(|v| v.as_text().is_none()) {
                let ok = v.is_null() && null_or_missing(bound);
                self.fields.fail_if(self.report, !ok, || pointer("", key), || bound_ptr.clone(), || {
                    format!(
                        "{key} is {}, not a string: an agent would use that value, which context_sha256 {} does not bind",
                        v.type_name(),
                        describe(bound)
                    )
                });
            }
            if let Some(text) = str_of(self.body.get(key)) {
                let h = sha256_of(text);
                let ok = bound_digest_is(bound, &h);
                self.report.check_against(
                    ok,
                    CheckCode::ContextHashMismatch,
                    &pointer("", key),
                    &bound_ptr,
                    format!("SHA256({key}) {h} vs bound context_sha256 {}", describe(bound)),
                );
            }
        }
    }
}
