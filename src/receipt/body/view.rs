//! `receipt_view.memories_used[j]` against the receipt's `results[j]`.

use super::super::checks::sha256_of;
use super::super::report::pointer;
use super::compare::{at_index, bound_digest_is, describe, digest_eq, py_eq, same_bytes, same_instant, str_of};
use super::memories::PRIVACY_HINT;
use super::tally::p;
use super::{at_path, compared, content_member, path_pointer, Binder, Compare};
use crate::contract::ObjectKind;
use crate::json::Ref;

impl<'d> Binder<'_, 'd> {
    /// `receipt_view.memories_used`: an array of objects, entry j naming and
    /// mirroring receipt result j.
    pub(super) fn view_memories(&mut self) {
        let used = self.body.get("receipt_view").and_then(|v| v.get("memories_used"));
        if let Some(list) = used.filter(|u| u.as_array().is_none()) {
            // An array-like object ({"0": ..., "length": n}) or anything else:
            // a client indexing it reads values nothing here compared.
            self.fields.fail_if(self.report, true, p("/receipt_view/memories_used"), p(&self.results_ptr), || {
                format!("receipt_view.memories_used is {}, not an array", list.type_name())
            });
        }
        let Some(used) = used.and_then(Ref::as_array) else { return };
        // The server lists every result, in the receipt's order (the view's
        // `memories_used` is built from the response's memories, which are
        // the results): the same count, and entry j names result j (the
        // contract's `Match::Index` pairing).
        let n = self.results.len();
        self.fields.check(self.report, used.len() == n, p("/receipt_view/memories_used"), p(&self.results_ptr), || {
            format!("receipt_view.memories_used lists {} memories, the receipt binds {} results", used.len(), n)
        });
        let spec = self.contract.object(ObjectKind::ViewMemory);
        // The pairing key (`id`) is compared below, with its own message.
        let rows: Vec<_> = compared(spec).into_iter().filter(|(key, _, _)| *key != "id").collect();
        let content = content_member(spec);
        for (j, u) in used.iter().enumerate() {
            if u.as_object().is_none() {
                self.fields.fail_if(
                    self.report,
                    true,
                    || at_index("/receipt_view/memories_used", j),
                    p(&self.results_ptr),
                    || format!("memories_used[{j}] is {}, not an object", u.type_name()),
                );
                continue;
            }
            // (its __proto__ member: found by unbound_fields)
            let Some(&r) = self.results.get(j) else {
                // Already reported by the count check: an entry no result binds.
                continue;
            };
            let (id, bound) = (u.get("id"), r.get("id"));
            let same = str_of(id).is_some() && py_eq(id, bound);
            self.fields.check(
                self.report,
                same,
                || pointer(&at_index("/receipt_view/memories_used", j), "id"),
                || pointer(&at_index(&self.results_ptr, j), "id"),
                || {
                    let named = match str_of(id).and_then(|id| {
                        self.results
                            .iter()
                            .position(|r| str_of(r.get("id")).is_some_and(|b| b.as_bytes() == id.as_bytes()))
                    }) {
                        Some(i) => format!(" (result {i}'s id: the view repeats or reorders the results)"),
                        None => String::new(),
                    };
                    format!("memories_used[{j}].id {} vs bound {}{named}", describe(id), describe(bound))
                },
            );
            if same {
                self.view_memory(j, u, j, &rows, content);
            }
        }
    }

    /// `memories_used[j]` (`u`) against `results[i]`: the contract's
    /// compared view-memory members (`rows`), then its `content` member.
    fn view_memory(
        &mut self,
        j: usize,
        u: Ref<'d>,
        i: usize,
        rows: &[(&'static str, &'static str, Compare)],
        (key, bound_key): (&'static str, &'static str),
    ) {
        let r = self.results[i];
        let up = || at_index("/receipt_view/memories_used", j);
        let rp = || at_index(&self.results_ptr, i);
        for &(key, path, how) in rows {
            let Some(v) = u.get(key) else { continue };
            let bound = at_path(r, path);
            let ok = match how {
                Compare::Instant => same_instant(Some(v), bound),
                Compare::Digest => digest_eq(Some(v), bound),
                Compare::Value => py_eq(Some(v), bound),
            };
            self.fields.check(
                self.report,
                ok,
                || pointer(&up(), key),
                || path_pointer(&rp(), path),
                || format!("memories_used[{j}].{key} {} vs bound {}", describe(Some(v)), describe(bound)),
            );
        }
        self.fields.string_or_absent(
            self.report,
            u.get(key),
            || pointer(&up(), key),
            || pointer(&rp(), bound_key),
            &|| format!("memories_used[{j}].{key}"),
        );
        let Some(text) = str_of(u.get(key)) else { return };
        if self.privacy {
            self.content_skipped += 1;
            return;
        }
        let h = match self.memory_hashes.get(i) {
            Some(Some((seen, h))) if same_bytes(seen, text.as_bytes()) => h.clone(),
            _ => sha256_of(text),
        };
        let got = r.get(bound_key);
        let ok = bound_digest_is(got, &h);
        self.content.check(
            self.report,
            ok,
            || pointer(&up(), key),
            || pointer(&rp(), bound_key),
            || format!("SHA256(content) {h} vs bound content_hash {}{}", describe(got), PRIVACY_HINT),
        );
    }
}
