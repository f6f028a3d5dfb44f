//! Checks shared by recall and context receipts (spec `ranking-receipts.md` §2, §3, §7; the
//! conformance README's failure codes).

use std::collections::HashMap;

use super::given::{Given, MetadataInput};
use super::hash::sha256_hex;
use super::report::{pointer, CheckCode, ReportBuilder};
use crate::json::write::{Shape, Tree};
use crate::json::{self, Doc, Kind, PyStr, Ref, Text, Value};
use crate::py::float::{int_to_f64, PyFloat, RustDisplay as Shown};
use crate::ErrorCode;

/// Parse the wire text; on failure record `malformed_json` or `nesting_too_deep`.
pub(crate) fn parse_wire(wire: &str, report: &mut ReportBuilder) -> Option<Value> {
    match json::parse(wire) {
        Ok(v) => Some(v),
        Err(e) => {
            let code =
                if e.code == ErrorCode::NestingTooDeep { CheckCode::NestingTooDeep } else { CheckCode::MalformedJson };
            report.fail(code, "", format!("{} ({})", e.message, e.path));
            None
        }
    }
}

/// [`parse_wire`] into the borrowed form (the same parser, the same findings).
pub(crate) fn parse_wire_doc<'a>(wire: &'a str, report: &mut ReportBuilder) -> Option<Doc<'a>> {
    match json::parse_doc(wire) {
        Ok(d) => Some(d),
        Err(e) => {
            let code =
                if e.code == ErrorCode::NestingTooDeep { CheckCode::NestingTooDeep } else { CheckCode::MalformedJson };
            report.fail(code, "", format!("{} ({})", e.message, e.path));
            None
        }
    }
}

/// The hashed value of a recall/context wire: a body's `receipt` member, or
/// the whole value as a bare receipt. Returns (receipt, its pointer, the body
/// when there is one).
pub(crate) fn split_body(doc: &Value) -> (&Value, &'static str, Option<&Value>) {
    match doc.get("receipt") {
        Some(r) => (r, "/receipt", Some(doc)),
        None => (doc, "", None),
    }
}

/// [`split_body`] of a borrowed document.
pub(crate) fn split_doc(doc: Ref<'_>) -> (Ref<'_>, &'static str, Option<Ref<'_>>) {
    match doc.get("receipt") {
        Some(r) => (r, "/receipt", Some(doc)),
        None => (doc, "", None),
    }
}

/// Compare hex digests case-insensitively (the server writes lowercase:
/// equal bytes first, eight at a time, then `eq_ignore_ascii_case`, which
/// goes byte by byte).
pub(crate) fn hex_eq(a: &str, b: &str) -> bool {
    json::bytes_eq(a.as_bytes(), b.as_bytes()) || a.eq_ignore_ascii_case(b)
}

/// SHA256-TEXT of a Python string (WTF-8 bytes; lone surrogates cannot be
/// UTF-8 encoded, so such a text never matches a server hash).
pub(crate) fn sha256_pystr(s: &PyStr) -> String {
    sha256_hex(s.as_bytes())
}

/// [`sha256_pystr`] of a string inside a document, hashed in place.
pub(crate) fn sha256_of(s: Text<'_>) -> String {
    sha256_hex(s.as_bytes())
}

/// Pointer to the first NaN/infinite float in `v`, and how many there are.
///
/// One iterative pass in document order with a stack of (container, next
/// child) frames, which spells the pointer of the first hit. (Building a
/// pointer string for every node before the first hit was quadratic: a
/// 1 MiB key over 10^6 members allocated 10^6 copies of it; listing each
/// container's children on a stack cost ~24 bytes per value.)
#[inline(never)]
pub(crate) fn find_non_finite<'a, T: Tree<'a>>(v: T, base: &str) -> Option<(String, usize)> {
    let non_finite = |v: T| matches!(v.shape(), Shape::Float(f) if !f.is_finite());
    if non_finite(v) {
        return Some((base.to_string(), 1));
    }
    let mut count = 0usize;
    let mut first: Option<String> = None;
    // The open containers, outermost first: (container, next child).
    let mut frames: Vec<(T, usize)> = vec![(v, 0)];
    while let Some(&(c, next)) = frames.last() {
        if next >= c.child_count() {
            frames.pop();
            continue;
        }
        if let Some(f) = frames.last_mut() {
            f.1 += 1;
        }
        let child = c.child(next).1;
        match child.shape() {
            Shape::Array | Shape::Object => frames.push((child, 0)),
            Shape::Float(f) if !f.is_finite() => {
                count += 1;
                if first.is_none() {
                    let mut path = base.to_string();
                    for &(c, n) in &frames {
                        path = if matches!(c.shape(), Shape::Array) {
                            pointer(&path, &(n - 1).to_string())
                        } else {
                            pointer(&path, &json::Text::Wtf8(c.child(n - 1).0).to_str_lossy())
                        };
                    }
                    first = Some(path);
                }
            }
            _ => {}
        }
    }
    first.map(|p| (p, count))
}

/// A JSON number as Python compares it (bools are not numbers here).
#[derive(Clone, Copy)]
pub(crate) enum Num<'a> {
    Int(&'a str),
    Float(f64),
}

fn num(v: Ref<'_>) -> Option<Num<'_>> {
    match v.kind() {
        Kind::Int(d) => Some(Num::Int(d)),
        Kind::Float(f) => Some(Num::Float(f)),
        _ => None,
    }
}

/// Python `a == b` for int/float values: exact, `1 == 1.0`, NaN never equal.
pub(crate) fn num_eq(a: Num<'_>, b: Num<'_>) -> bool {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x == y,
        (Num::Float(x), Num::Float(y)) => x == y,
        (Num::Int(i), Num::Float(f)) | (Num::Float(f), Num::Int(i)) => {
            if !f.is_finite() || f.fract() != 0.0 {
                return false;
            }
            crate::py::float::int_str(f) == i
        }
    }
}

fn num_f64(n: Num<'_>) -> Option<f64> {
    match n {
        Num::Float(f) => Some(f),
        Num::Int(d) => match int_to_f64(d) {
            PyFloat::Ok(f) => Some(f),
            _ => None,
        },
    }
}

fn str_of(v: Option<Ref<'_>>) -> Option<Text<'_>> {
    v.and_then(Ref::as_text)
}

fn describe(v: Option<Ref<'_>>) -> String {
    match v {
        None => "missing".to_string(),
        Some(v) => match v.as_text() {
            Some(s) => format!("{:?}", s.to_str_lossy()),
            None => json::write::write(v, json::WriteOptions::COMPACT),
        },
    }
}

/// The receipt's results (empty when absent or not an array).
pub(crate) fn results(receipt: Ref<'_>) -> Vec<Ref<'_>> {
    receipt.get("results").and_then(Ref::as_array).map(|a| a.iter().collect()).unwrap_or_default()
}

/// Index of the first result with each id.
pub(crate) fn result_index<'d>(results: &[Ref<'d>]) -> HashMap<&'d [u8], usize> {
    let mut map = HashMap::new();
    for (i, r) in results.iter().enumerate() {
        if let Some(id) = str_of(r.get("id")) {
            map.entry(id.as_bytes()).or_insert(i);
        }
    }
    map
}

/// Hash pins and `non_finite_number` (checked before the schema).
pub(crate) fn pins_and_finiteness(
    report: &mut ReportBuilder,
    receipt: Ref<'_>,
    rptr: &str,
    body: Option<Ref<'_>>,
    sha: &str,
    given: &Given,
) {
    if let Some(body) = body {
        match body.get("receipt_sha256") {
            None => {
                report.skip(CheckCode::ReceiptHashMismatch, "/receipt_sha256", "the body carries no receipt_sha256")
            }
            Some(pin) => {
                let ok = str_of(Some(pin)).map(|p| hex_eq(&p.to_str_lossy(), sha)).unwrap_or(false);
                report.check(
                    ok,
                    CheckCode::ReceiptHashMismatch,
                    "/receipt_sha256",
                    format!("body receipt_sha256 {} vs recomputed {}", describe(Some(pin)), sha),
                );
            }
        }
    }
    if let Some(expected) = &given.expected_sha256 {
        let ok = hex_eq(&expected.to_str_lossy(), sha);
        report.check(
            ok,
            CheckCode::ReceiptHashMismatch,
            "/given/expected_sha256",
            format!("pinned expected_sha256 {} vs recomputed {}", expected, sha),
        );
    }
    // (The parser counted the document's non-finite floats: none, no scan.)
    let any = receipt.doc_has_non_finite();
    let found = if any { find_non_finite(receipt, rptr) } else { None };
    // The body's own (already invalid with one in the receipt: reported once).
    let in_body = any && found.is_none();
    match found {
        Some((at, n)) => report.fail(
            CheckCode::NonFiniteNumber,
            &at,
            format!("{n} NaN/infinite number(s); the first is here (pydantic would have sent null)"),
        ),
        None => report.pass(CheckCode::NonFiniteNumber, rptr, "every number is finite"),
    }
    if let (Some(body), true) = (body, in_body) {
        if let Some(members) = body.as_object() {
            let rest = members.iter().filter(|(k, _)| k.as_bytes() != b"receipt");
            non_json_numbers(report, rest.map(|(k, v)| (k.to_str_lossy().into_owned(), v)));
        }
    }
}

/// An integer spelled `-0` anywhere in a wire (recall, context, Evidence
/// Pack): Python's encoder never writes one (it has no integer -0), the
/// hashes, the signature and every comparison read it as 0 (`reads`: what,
/// for the message), a JavaScript client reads -0. A failed `body_mismatch`
/// at the first one (the parser counted them: none, no scan).
pub(crate) fn negative_zero_ints(report: &mut ReportBuilder, root: Ref<'_>, reads: &str) {
    if !root.doc_has_negative_zero_int() {
        return;
    }
    // Depth-first, in document order, with the path of the open containers.
    fn find(v: Ref<'_>, path: &mut Vec<String>) -> bool {
        match v.kind() {
            Kind::Int(_) => v.is_negative_zero(),
            Kind::Array(items) => items.iter().enumerate().any(|(i, x)| {
                path.push(i.to_string());
                let hit = find(x, path);
                if !hit {
                    path.pop();
                }
                hit
            }),
            Kind::Object(members) => members.iter().any(|(k, x)| {
                path.push(k.to_str_lossy().into_owned());
                let hit = find(x, path);
                if !hit {
                    path.pop();
                }
                hit
            }),
            _ => false,
        }
    }
    let mut path = Vec::new();
    if find(root, &mut path) {
        let at = path.iter().fold(String::new(), |p, k| pointer(&p, k));
        report.fail(
            CheckCode::BodyMismatch,
            &at,
            format!(
                "an integer -0: no server writes one (Python's encoder writes 0), {reads} read it as 0, \
                 and a JavaScript client reads -0"
            ),
        );
    }
}

/// `non_json_number`: the first NaN/infinite number among `members` (a
/// body's members outside its receipt, or a pack's outside its manifest),
/// each at `/<key>`. Reported only when there is one (a body without any
/// prints no check of this code).
pub(crate) fn non_json_numbers<'a, T: Tree<'a>>(
    report: &mut ReportBuilder,
    members: impl Iterator<Item = (String, T)>,
) {
    let mut first: Option<String> = None;
    let mut count = 0;
    for (k, v) in members {
        if let Some((at, n)) = find_non_finite(v, &pointer("", &k)) {
            first.get_or_insert(at);
            count += n;
        }
    }
    if let Some(at) = first {
        report.fail(
            CheckCode::NonJsonNumber,
            &at,
            format!(
                "{count} NaN/infinite number(s) outside the hashed receipt, the first here: JSON.parse and \
                 res.json() cannot read NaN or Infinity (the body is unusable to a JavaScript client), and no \
                 server sends any of them"
            ),
        );
    }
}

/// Schema gate: true when the receipt is an object with the expected schema.
pub(crate) fn schema_gate(report: &mut ReportBuilder, receipt: Ref<'_>, rptr: &str, expected: &str) -> bool {
    let schema = str_of(receipt.get("schema"));
    let ok = receipt.as_object().is_some() && schema.map(|s| s.as_bytes() == expected.as_bytes()).unwrap_or(false);
    let what = match (receipt.as_object(), schema) {
        (None, _) => format!("the receipt is {}, not an object", receipt.type_name()),
        (Some(_), None) => "the receipt has no schema string".to_string(),
        (Some(_), Some(s)) => format!("schema {:?}", s.to_str_lossy()),
    };
    if ok {
        report.pass(CheckCode::UnsupportedSchema, &pointer(rptr, "schema"), what);
    } else {
        report.fail(
            CheckCode::UnsupportedSchema,
            &pointer(rptr, "schema"),
            format!("{what}: only {expected} is verified (hash-only for anything else)"),
        );
    }
    ok
}

/// The plaintext bindings and invariants common to both receipt kinds, in
/// report order: the query, the given contents, the given neighbours, each
/// score against its breakdown, the score order, and the stage chains.
pub(crate) fn common_checks(report: &mut ReportBuilder, receipt: Ref<'_>, rptr: &str, given: &Given) {
    query_check(report, receipt, rptr, given);
    let results = &results(receipt)[..];
    let index = result_index(results);
    let results_ptr = pointer(rptr, "results");
    content_checks(report, results, &index, &results_ptr, given);
    let mut neighbours = NeighbourIndex { results, index: &index, results_ptr: &results_ptr, maps: HashMap::new() };
    neighbour_content_checks(report, &mut neighbours, given);
    neighbour_metadata_checks(report, &mut neighbours, given);
    score_checks(report, results, &results_ptr);
    order_checks(report, results, &results_ptr);
    stage_checks(report, results, &results_ptr);
}

/// SHA256-TEXT(`given.query`) against `query_sha256`.
fn query_check(report: &mut ReportBuilder, receipt: Ref<'_>, rptr: &str, given: &Given) {
    let Some(q) = &given.query else { return };
    let h = sha256_pystr(q);
    let got = receipt.get("query_sha256");
    let ok = str_of(got).map(|s| hex_eq(&s.to_str_lossy(), &h)).unwrap_or(false);
    report.check(
        ok,
        CheckCode::QueryHashMismatch,
        &pointer(rptr, "query_sha256"),
        format!("SHA256(query) {} vs receipt {}", h, describe(got)),
    );
}

/// `given.contents`: each memory's plaintext against its result's `content_hash`.
fn content_checks(
    report: &mut ReportBuilder,
    results: &[Ref<'_>],
    index: &HashMap<&[u8], usize>,
    results_ptr: &str,
    given: &Given,
) {
    for (id, content) in &given.contents {
        let idl = id.to_str_lossy();
        let Some(&i) = index.get(id.as_bytes()) else {
            report.fail(
                CheckCode::ContentHashMismatch,
                &pointer("/given/contents", &idl),
                format!("no receipt result has id {idl:?}"),
            );
            continue;
        };
        let rp = pointer(&pointer(results_ptr, &i.to_string()), "content_hash");
        let Some(content) = content else {
            report.skip(CheckCode::ContentHashMismatch, &rp, format!("no plaintext given for {idl:?}"));
            continue;
        };
        let h = sha256_pystr(content);
        let got = results[i].get("content_hash");
        let ok = str_of(got).map(|s| hex_eq(&s.to_str_lossy(), &h)).unwrap_or(false);
        report.check(
            ok,
            CheckCode::ContentHashMismatch,
            &rp,
            format!("SHA256(content) {} vs receipt {}", h, describe(got)),
        );
    }
}

/// The results' `context_neighbors` entries by (result id, position). Each
/// result's entries are indexed once, on first use: a scan of them per
/// asked (id, position) pair was quadratic.
struct NeighbourIndex<'a, 'd> {
    results: &'a [Ref<'d>],
    index: &'a HashMap<&'d [u8], usize>,
    results_ptr: &'a str,
    maps: HashMap<usize, HashMap<&'d [u8], Ref<'d>>>,
}

impl<'d> NeighbourIndex<'_, 'd> {
    /// The neighbour object of result `id` at `pos` and its pointer, or why there is none.
    fn entry(&mut self, id: &PyStr, pos: &PyStr) -> Result<(String, Ref<'d>), String> {
        let idl = id.to_str_lossy();
        let Some(&i) = self.index.get(id.as_bytes()) else {
            return Err(format!("no receipt result has id {idl:?}"));
        };
        let np = pointer(&pointer(self.results_ptr, &i.to_string()), "context_neighbors");
        let ep = pointer(&np, &pos.to_str_lossy());
        let results = self.results;
        let map = self.maps.entry(i).or_insert_with(|| {
            let mut map = HashMap::new();
            if let Some(n) = results[i].get("context_neighbors").and_then(Ref::as_object) {
                for (k, v) in n.iter() {
                    map.entry(k.as_bytes()).or_insert(v);
                }
            }
            map
        });
        match map.get(pos.as_bytes()).copied() {
            Some(entry) if entry.as_object().is_some() => Ok((ep, entry)),
            Some(other) => Err(format!("{ep} is {}, not a neighbour object", other.type_name())),
            None => Err(format!("result {idl:?} has no {:?} neighbour", pos.to_str_lossy())),
        }
    }
}

/// `given.neighbor_contents`: each (id, position) content (or null) against
/// its entry's `returned_content_sha256`.
fn neighbour_content_checks(report: &mut ReportBuilder, neighbours: &mut NeighbourIndex<'_, '_>, given: &Given) {
    for (id, positions) in &given.neighbor_contents {
        for (pos, content) in positions {
            let gp = pointer(&pointer("/given/neighbor_contents", &id.to_str_lossy()), &pos.to_str_lossy());
            let (ep, entry) = match neighbours.entry(id, pos) {
                Err(msg) => {
                    report.fail(CheckCode::NeighborHashMismatch, &gp, msg);
                    continue;
                }
                Ok(found) => found,
            };
            let got = entry.get("returned_content_sha256");
            let ep = pointer(&ep, "returned_content_sha256");
            match content {
                None => report.check(
                    got.is_some_and(Ref::is_null),
                    CheckCode::NeighborHashMismatch,
                    &ep,
                    format!("given content is null; receipt has {}", describe(got)),
                ),
                Some(c) => {
                    let h = sha256_pystr(c);
                    let ok = str_of(got).map(|s| hex_eq(&s.to_str_lossy(), &h)).unwrap_or(false);
                    report.check(
                        ok,
                        CheckCode::NeighborHashMismatch,
                        &ep,
                        format!("SHA256(neighbour content) {} vs receipt {}", h, describe(got)),
                    );
                }
            }
        }
    }
}

/// `given.neighbor_metadata`: each (id, position) metadata (JSON text or a
/// value) against its entry's `returned_metadata_sha256`.
fn neighbour_metadata_checks(report: &mut ReportBuilder, neighbours: &mut NeighbourIndex<'_, '_>, given: &Given) {
    for (id, positions) in &given.neighbor_metadata {
        for (pos, meta) in positions {
            let gp = pointer(&pointer("/given/neighbor_metadata", &id.to_str_lossy()), &pos.to_str_lossy());
            let parsed;
            let meta_value = match meta {
                MetadataInput::Value(v) => v,
                MetadataInput::Text(t) => match json::parse(&t.to_str_lossy()) {
                    Ok(v) => {
                        parsed = v;
                        &parsed
                    }
                    Err(e) => {
                        // No metadata hash can be recomputed, so nothing matches.
                        report.fail(
                            CheckCode::NeighborHashMismatch,
                            &gp,
                            format!("neighbour metadata is not JSON ({}): {}", e.code, e.message),
                        );
                        continue;
                    }
                },
            };
            match neighbours.entry(id, pos) {
                Err(msg) => report.fail(CheckCode::NeighborHashMismatch, &gp, msg),
                Ok((ep, entry)) => {
                    let h = json::canonical_sha256(meta_value);
                    let got = entry.get("returned_metadata_sha256");
                    let ok = str_of(got).map(|s| hex_eq(&s.to_str_lossy(), &h)).unwrap_or(false);
                    report.check(
                        ok,
                        CheckCode::NeighborHashMismatch,
                        &pointer(&ep, "returned_metadata_sha256"),
                        format!("SHA256(PyJSON(metadata)) {} vs receipt {}", h, describe(got)),
                    );
                }
            }
        }
    }
}

/// `score == score_breakdown.final_score` for every result with a breakdown.
fn score_checks(report: &mut ReportBuilder, results: &[Ref<'_>], results_ptr: &str) {
    let mut score_checked = false;
    for (i, r) in results.iter().enumerate() {
        let Some(fs) = r.get("score_breakdown").and_then(Ref::as_object).and_then(|b| b.get("final_score")) else {
            continue;
        };
        score_checked = true;
        let score = r.get("score");
        let ok = match (score.and_then(num), num(fs)) {
            (Some(a), Some(b)) => num_eq(a, b),
            _ => false,
        };
        if !ok {
            report.fail(
                CheckCode::ScoreMismatch,
                &pointer(&pointer(results_ptr, &i.to_string()), "score"),
                format!("score {} != score_breakdown.final_score {}", describe(score), describe(Some(fs))),
            );
        }
    }
    if score_checked && !report.has_failed(CheckCode::ScoreMismatch) {
        report.pass(CheckCode::ScoreMismatch, results_ptr, "every score equals its final_score");
    }
}

/// Non-increasing scores.
fn order_checks(report: &mut ReportBuilder, results: &[Ref<'_>], results_ptr: &str) {
    let mut order_ok = true;
    for i in 1..results.len() {
        let prev = results[i - 1].get("score").and_then(num).and_then(num_f64);
        let cur = results[i].get("score").and_then(num).and_then(num_f64);
        if let (Some(p), Some(c)) = (prev, cur) {
            if p.is_finite() && c.is_finite() && c > p {
                order_ok = false;
                report.fail(
                    CheckCode::OrderViolation,
                    &pointer(&pointer(results_ptr, &i.to_string()), "score"),
                    format!("score {} is greater than the previous result's {}", Shown(c), Shown(p)),
                );
            }
        }
    }
    if order_ok && results.len() > 1 {
        report.pass(CheckCode::OrderViolation, results_ptr, "scores are non-increasing");
    }
}

fn round6(x: f64) -> f64 {
    crate::py::float::round6(x)
}

fn clamp01(x: f64) -> f64 {
    crate::py::float::clamp01(x)
}

/// Informational: each result's ranking-stage chain, and rank-calibration-v1
/// records recomputed from their own input (spec `ranking-receipts.md` §9.7).
fn stage_checks(report: &mut ReportBuilder, results: &[Ref<'_>], results_ptr: &str) {
    let f = |v: Option<Ref<'_>>| v.and_then(num).and_then(num_f64);
    let mut chain_problem: Option<(String, String)> = None;
    let mut calib_problem: Option<(String, String)> = None;
    let mut calib_seen = 0usize;
    let mut chains_seen = 0usize;
    for (i, r) in results.iter().enumerate() {
        let Some(bd) = r.get("score_breakdown").and_then(Ref::as_object) else { continue };
        let Some(stages) = bd.get("ranking_stages").and_then(Ref::as_array) else { continue };
        if stages.is_empty() {
            continue;
        }
        chains_seen += 1;
        let sp = pointer(&pointer(&pointer(results_ptr, &i.to_string()), "score_breakdown"), "ranking_stages");
        let mut prev_out: Option<f64> = None;
        for (j, st) in stages.iter().enumerate() {
            let jp = pointer(&sp, &j.to_string());
            let input = f(st.get("input_score"));
            let output = f(st.get("output_score"));
            if let (Some(p), Some(inp)) = (prev_out, input) {
                if p != inp && chain_problem.is_none() {
                    chain_problem = Some((
                        pointer(&jp, "input_score"),
                        format!("input_score {} != previous stage's output_score {}", Shown(inp), Shown(p)),
                    ));
                }
            }
            if j == 0 && st.get("stage").and_then(Ref::as_str) == Some("adaptive-fusion") {
                if let (Some(pre), Some(inp)) = (f(bd.get("pre_fusion_score")), input) {
                    if pre != inp && chain_problem.is_none() {
                        chain_problem = Some((
                            pointer(&jp, "input_score"),
                            format!("fusion input {} != pre_fusion_score {}", Shown(inp), Shown(pre)),
                        ));
                    }
                }
            }
            if st.get("method").and_then(Ref::as_str) == Some("rank-calibration-v1") {
                calib_seen += 1;
                let pos = f(st.get("position"));
                let n = f(st.get("candidate_count"));
                if let (Some(inp), Some(out), Some(pos), Some(n)) = (input, output, pos, n) {
                    let n = n.max(1.0);
                    let p = crate::py::float::clamp_to(pos - 1.0, 0.0, n - 1.0);
                    let expect =
                        if n <= 1.0 { round6(clamp01(inp)) } else { round6((n - p + 0.5 * clamp01(inp)) / (n + 1.0)) };
                    // The recorded input is itself rounded: allow one unit in the sixth place.
                    if (expect - out).abs() > 1.5e-6 && calib_problem.is_none() {
                        calib_problem = Some((
                            pointer(&jp, "output_score"),
                            format!("output_score {} but rank_position_score gives {}", Shown(out), Shown(expect)),
                        ));
                    }
                } else if calib_problem.is_none() {
                    calib_problem = Some((jp.clone(), "rank-calibration-v1 record lacks numeric fields".to_string()));
                }
            }
            prev_out = output;
        }
        if let (Some(last), Some(fin)) = (prev_out, f(bd.get("final_score"))) {
            if last != fin && chain_problem.is_none() {
                chain_problem = Some((
                    pointer(&sp, &(stages.len() - 1).to_string()),
                    format!("last output_score {} != final_score {}", Shown(last), Shown(fin)),
                ));
            }
        }
    }
    if chains_seen > 0 {
        match chain_problem {
            None => report.info(
                true,
                CheckCode::StageChain,
                results_ptr,
                format!("{chains_seen} stage chain(s) consistent"),
            ),
            Some((p, m)) => report.info(false, CheckCode::StageChain, &p, m),
        }
    }
    if calib_seen > 0 {
        match calib_problem {
            None => report.info(
                true,
                CheckCode::RankCalibration,
                results_ptr,
                format!("{calib_seen} rank-calibration-v1 record(s) recompute"),
            ),
            Some((p, m)) => report.info(false, CheckCode::RankCalibration, &p, m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_number_equality() {
        assert!(num_eq(Num::Int("1"), Num::Float(1.0)));
        assert!(num_eq(Num::Int("0"), Num::Float(-0.0)));
        assert!(!num_eq(Num::Int("9007199254740993"), Num::Float(9007199254740992.0)));
        assert!(!num_eq(Num::Float(f64::NAN), Num::Float(f64::NAN)));
        assert!(!num_eq(Num::Int("1"), Num::Float(1.5)));
    }

    #[test]
    fn find_non_finite_points_at_the_first_hit_in_document_order() {
        let v = json::parse(r#"{"a":[1,{"b/c":[2,NaN]}],"d":Infinity,"e":[-Infinity]}"#).unwrap();
        assert_eq!(find_non_finite(&v, "/receipt"), Some(("/receipt/a/1/b~1c/1".to_string(), 3)));
        assert_eq!(find_non_finite(&json::parse("NaN").unwrap(), ""), Some((String::new(), 1)));
        assert_eq!(find_non_finite(&json::parse(r#"[[],{},[1e400]]"#).unwrap(), ""), Some(("/2/0".to_string(), 1)));
        assert_eq!(find_non_finite(&json::parse(r#"{"x":[1,2.5,"NaN"]}"#).unwrap(), ""), None);
        // Regression (tests/adversarial.rs): a long key over many members
        // used to allocate one copy of the key per member.
        let key = "k".repeat(1 << 16);
        let wide = format!("{{\"{key}\":[{}NaN]}}", "0,".repeat(1 << 16));
        let (path, n) = find_non_finite(&json::parse(&wide).unwrap(), "").unwrap();
        assert_eq!((path.len(), n), (1 + key.len() + 1 + 5, 1));
    }
}
