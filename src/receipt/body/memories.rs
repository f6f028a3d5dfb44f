//! `memories[i]` against `results[i]`: the mirrored fields, the content
//! hash and the neighbour fields (`context_<pos>`, `_id`, `_metadata`).

use super::super::checks::sha256_of;
use super::super::report::pointer;
use super::compare::{
    at_index, bound_digest_is, describe, describe_or_null, digest_eq, null_or_missing, py_eq, same_bytes, same_instant,
    str_of,
};
use super::tally::p;
use super::{at_path, compared, path_pointer, Binder, Compare};
use crate::contract::fields::NEIGHBOUR_ENTRY;
use crate::contract::{NeighbourPart, ObjectKind, NEIGHBOURS};
use crate::json::{self, Kind, Members, Ref, Text, Value};

pub(super) const PRIVACY_HINT: &str =
    " (a memory written in privacy-minimal mode binds HMAC-SHA256(server secret, content) as its \
content_hash, not SHA-256: the text then differs from nothing a client can compute, and only the holder \
of the server's secret can check it, by recomputing that HMAC over this content)";

/// The members of a bound `context_neighbors[pos]` entry (the contract's
/// [`NEIGHBOUR_ENTRY`]): id, content hash, metadata hash.
const fn entry_key(part: NeighbourPart) -> &'static str {
    let mut i = 0;
    while i < NEIGHBOUR_ENTRY.len() {
        if NEIGHBOUR_ENTRY[i].0 as u8 == part as u8 {
            return NEIGHBOUR_ENTRY[i].1;
        }
        i += 1;
    }
    panic!("a neighbour part with no entry key")
}
const ENTRY_ID: &str = entry_key(NeighbourPart::Id);
const ENTRY_CONTENT: &str = entry_key(NeighbourPart::Text);
const ENTRY_METADATA: &str = entry_key(NeighbourPart::Metadata);
/// What every neighbour member's name starts with.
const PREFIX: &[u8] = b"context_";
const _: () = {
    // (Checked at compile time: the one-pass key scan relies on it.)
    let mut i = 0;
    while i < NEIGHBOURS.len() {
        let n = NEIGHBOURS[i];
        assert!(starts_with(n.text, PREFIX) && starts_with(n.id, PREFIX) && starts_with(n.metadata, PREFIX));
        i += 1;
    }
};
const fn starts_with(s: &str, p: &[u8]) -> bool {
    let s = s.as_bytes();
    if s.len() <= p.len() {
        return false;
    }
    let mut i = 0;
    while i < p.len() {
        if s[i] != p[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl<'d> Binder<'_, 'd> {
    /// `memories[i]` <-> `results[i]`: the length, then each memory.
    pub(super) fn memories(&mut self) {
        let n = self.results.len();
        match self.body.get("memories") {
            None => self.report.skip(super::CheckCode::BodyMismatch, "/memories", "the body carries no memories"),
            Some(list) => match list.as_array() {
                Some(memories) => {
                    self.fields.check(self.report, memories.len() == n, p("/memories"), p(&self.results_ptr), || {
                        format!("the body has {} memories, the receipt binds {} results", memories.len(), n)
                    });
                    let mut content_hashes = self.content_hashes(memories.iter());
                    let rows = compared(self.contract.object(ObjectKind::Memory));
                    for (i, m) in memories.iter().enumerate() {
                        let Some(&r) = self.results.get(i) else {
                            // Already reported by the length check: an unbound memory.
                            continue;
                        };
                        let Some(mo) = m.as_object() else {
                            self.fields.check(
                                self.report,
                                false,
                                || at_index("/memories", i),
                                || at_index(&self.results_ptr, i),
                                || format!("memories[{i}] is {}, not an object", m.type_name()),
                            );
                            continue;
                        };
                        self.memory_fields(i, mo, r, &rows);
                        let hash = content_hashes.get_mut(i).and_then(Option::take);
                        self.memory_content(i, mo, r, hash);
                        self.neighbours_of(i, mo, r);
                    }
                }
                None => self.fields.check(self.report, false, p("/memories"), p(&self.results_ptr), || {
                    format!("memories is {}, not an array", list.type_name())
                }),
            },
        }
    }

    /// The content hashes of the bound memories, all at once: independent
    /// messages, which the wasm build hashes four at a time
    /// (`hash::sha256_hex_each`). None for a memory without string content.
    fn content_hashes(&self, memories: impl Iterator<Item = Ref<'d>>) -> Vec<Option<String>> {
        let contents: Vec<Option<&[u8]>> = memories
            .take(if self.privacy { 0 } else { self.results.len() })
            .map(|m| m.as_object().and_then(|mo| str_of(mo.get(self.memory_content_key.0))).map(Text::as_bytes))
            .collect();
        let mut hashes =
            crate::hash::sha256_hex_each(&contents.iter().flatten().copied().collect::<Vec<_>>()).into_iter();
        contents.iter().map(|c| c.and_then(|_| hashes.next())).collect()
    }

    /// `memories[i]` fields against `results[i]`: the contract's compared
    /// memory members (`rows`, see [`compared`]).
    fn memory_fields(&mut self, i: usize, m: Members<'d>, r: Ref<'d>, rows: &[(&'static str, &'static str, Compare)]) {
        for &(key, path, how) in rows {
            let Some(v) = m.get(key) else { continue };
            let bound = at_path(r, path);
            let ok = match how {
                Compare::Instant => same_instant(Some(v), bound),
                Compare::Digest => digest_eq(Some(v), bound),
                Compare::Value => py_eq(Some(v), bound),
            };
            self.fields.check(
                self.report,
                ok,
                || pointer(&at_index("/memories", i), key),
                || path_pointer(&at_index(&self.results_ptr, i), path),
                || format!("{key} {} vs bound {}", describe(Some(v)), describe(bound)),
            );
        }
    }

    /// `memories[i].content`: a string hashing to `results[i].content_hash`
    /// (`hash`: its precomputed SHA-256); any other type fails.
    fn memory_content(&mut self, i: usize, mo: Members<'d>, r: Ref<'d>, hash: Option<String>) {
        let (key, bound_key) = self.memory_content_key;
        let mp = || at_index("/memories", i);
        let rp = || at_index(&self.results_ptr, i);
        self.fields.string_or_absent(
            self.report,
            mo.get(key),
            || pointer(&mp(), key),
            || pointer(&rp(), bound_key),
            &|| format!("memories[{i}].{key}"),
        );
        let Some(text) = str_of(mo.get(key)) else { return };
        if self.privacy {
            self.content_skipped += 1;
            return;
        }
        let h = hash.unwrap_or_else(|| sha256_of(text));
        let got = r.get(bound_key);
        let ok = bound_digest_is(got, &h);
        self.content.check(
            self.report,
            ok,
            || pointer(&mp(), key),
            || pointer(&rp(), bound_key),
            || format!("SHA256(content) {h} vs bound content_hash {}{}", describe(got), PRIVACY_HINT),
        );
        if let Some(slot) = self.memory_hashes.get_mut(i) {
            *slot = Some((text.as_bytes(), h));
        }
    }

    /// `memories[i].context_<pos>{,_id,_metadata}` against `results[i].context_neighbors[pos]`.
    fn neighbours_of(&mut self, i: usize, m: Members<'d>, r: Ref<'d>) {
        // The neighbour members, in one pass over the keys (not twelve
        // lookups): [text, id, metadata] by position, as NEIGHBOURS lists them.
        let mut found = [[None; 3]; NEIGHBOURS.len()];
        let mut any = false;
        for at in 0..m.len() {
            // (Key bytes: no `Text`, whose slice of the input checks UTF-8 boundaries.)
            let (k, v) = m.entry_at(at);
            if k.len() <= PREFIX.len() || !same_bytes(&k[..PREFIX.len()], PREFIX) {
                continue;
            }
            let mut j = 0;
            while j < NEIGHBOURS.len() {
                let n = &NEIGHBOURS[j];
                let p = if same_bytes(k, n.text.as_bytes()) {
                    0
                } else if same_bytes(k, n.id.as_bytes()) {
                    1
                } else if same_bytes(k, n.metadata.as_bytes()) {
                    2
                } else {
                    j += 1;
                    continue;
                };
                found[j][p] = Some(v);
                any = true;
                break;
            }
        }
        // Most memories carry no neighbour fields.
        if !any {
            return;
        }
        let entries = r.get("context_neighbors").and_then(Ref::as_object);
        let mp = || at_index("/memories", i);
        let np = || pointer(&at_index(&self.results_ptr, i), "context_neighbors");
        let tally = &mut self.neighbours;
        let report = &mut *self.report;
        for (n, &[text, id, meta]) in NEIGHBOURS.iter().zip(&found) {
            let (pos, text_key, id_key, meta_key) = (n.pos, n.text, n.id, n.metadata);
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
            let bound_id = entry.get(ENTRY_ID);
            tally.check(
                report,
                py_eq(id, bound_id),
                || pointer(&mp(), id_key),
                || pointer(&ep(), ENTRY_ID),
                || format!("{id_key} {} vs bound {}", describe_or_null(id), describe(bound_id)),
            );
            let bound_c = entry.get(ENTRY_CONTENT);
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
                || pointer(&ep(), ENTRY_CONTENT),
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
            let bound_m = entry.get(ENTRY_METADATA);
            let ok = bound_digest_is(bound_m, &h);
            tally.check(
                report,
                ok,
                || pointer(&mp(), meta_key),
                || pointer(&ep(), ENTRY_METADATA),
                || format!("SHA256(PyJSON({meta_key})) {h} vs bound {}", describe(bound_m)),
            );
        }
    }
}
