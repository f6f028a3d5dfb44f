//! Comparing and describing body and receipt values: Python `==` on
//! parsed JSON, hex digests, instants, and short bounded descriptions for
//! messages.

use std::collections::HashMap;

use super::super::checks::{hex_eq, num_eq, sha256_of, Num};
use super::super::report::pointer;
use crate::json::write::{Shape, Tree};
use crate::json::{self, Kind, Ref, Text};
use crate::py::time::PyDateTime;

/// A short description of a body or receipt value for a message: a string
/// as its first 77 characters, anything else as the first ~100 bytes of its
/// compact JSON. Only that prefix is ever printed (a hostile value described
/// once per failing entry must not be serialised whole each time).
pub(super) fn describe(v: Option<Ref<'_>>) -> String {
    let Some(v) = v else { return "missing".to_string() };
    match v.as_text() {
        Some(s) => {
            let (head, cut) = text_prefix(s, 77);
            if cut {
                format!("{head:?}...")
            } else {
                format!("{head:?}")
            }
        }
        None => {
            let mut out = Vec::new();
            if write_prefix(v, DESCRIBE_BYTES, &mut out) {
                String::from_utf8_lossy(&out).into_owned()
            } else {
                let mut end = DESCRIBE_BYTES.min(out.len());
                while end > 0 && out.get(end).is_some_and(|b| b & 0xC0 == 0x80) {
                    end -= 1;
                }
                format!("{}... (truncated)", String::from_utf8_lossy(&out[..end]))
            }
        }
    }
}

/// How much of a non-string value [`describe`] prints.
const DESCRIBE_BYTES: usize = 100;

/// The first `n` code points of a text (lone surrogates as U+FFFD), and
/// whether it was cut. Reads at most `4 n` bytes of it.
fn text_prefix(s: Text<'_>, n: usize) -> (String, bool) {
    let bytes = s.as_bytes();
    let mut end = bytes.len().min(4 * n + 4);
    while end < bytes.len() && end > 0 && bytes[end] & 0xC0 == 0x80 {
        end -= 1;
    }
    let head = json::Text::Wtf8(&bytes[..end]).to_str_lossy();
    let mut chars = head.char_indices();
    match chars.nth(n) {
        Some((i, _)) => (head[..i].to_string(), true),
        None => (head.into_owned(), end < bytes.len()),
    }
}

/// Compact JSON of `v` into `out`, stopping once `out` holds more than
/// `budget` bytes; true when the whole value was written. Linear in what
/// it writes, whatever the size of `v`.
fn write_prefix(v: Ref<'_>, budget: usize, out: &mut Vec<u8>) -> bool {
    if out.len() > budget {
        return false;
    }
    match v.kind() {
        Kind::Null => out.extend_from_slice(b"null"),
        Kind::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
        Kind::Int(d) => {
            let room = budget + 1 - out.len();
            out.extend_from_slice(&d.as_bytes()[..d.len().min(room)]);
            if d.len() > room {
                return false;
            }
        }
        Kind::Float(f) => json::write::write_float(f, out),
        Kind::Str(t) => {
            let (head, cut) = text_prefix(t, budget + 1 - out.len());
            json::write::write_bytes(head.as_bytes(), false, out);
            if cut {
                return false;
            }
        }
        Kind::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                if !write_prefix(item, budget, out) {
                    return false;
                }
            }
            out.push(b']');
        }
        Kind::Object(members) => {
            out.push(b'{');
            for (i, (k, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let (head, cut) = text_prefix(k, budget + 1 - out.len().min(budget));
                json::write::write_bytes(head.as_bytes(), false, out);
                if cut || out.len() > budget {
                    return false;
                }
                out.push(b':');
                if !write_prefix(item, budget, out) {
                    return false;
                }
            }
            out.push(b'}');
        }
    }
    out.len() <= budget
}

/// `a == b`, inline for up to 16 bytes (keys, float texts: two
/// overlapping words, no call), else [`json::bytes_eq`].
#[inline(always)]
pub(super) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word =
        |s: &[u8], i: usize| u64::from_le_bytes(s.get(i..i + 8).and_then(|w| w.try_into().ok()).unwrap_or([0; 8]));
    let half =
        |s: &[u8], i: usize| u32::from_le_bytes(s.get(i..i + 4).and_then(|w| w.try_into().ok()).unwrap_or([0; 4]));
    match n {
        0 => true,
        1..=3 => a.first() == b.first() && a.get(n / 2) == b.get(n / 2) && a.last() == b.last(),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => long_eq(a, b),
    }
}

/// `a == b` for texts of equal length (a memory's content and its
/// `receipt_view` copy: kilobytes each): sixteen bytes at a time in wasm.
fn long_eq(a: &[u8], b: &[u8]) -> bool {
    #[allow(unused_mut)]
    let mut i = 0;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::*;
        let n = a.len().min(b.len());
        while i + 16 <= n {
            // SAFETY: a[i..i + 16] and b[i..i + 16] are in bounds; v128_load reads unaligned.
            let (x, y) =
                unsafe { (v128_load(a.as_ptr().add(i).cast::<v128>()), v128_load(b.as_ptr().add(i).cast::<v128>())) };
            if !u8x16_all_true(u8x16_eq(x, y)) {
                return false;
            }
            i += 16;
        }
        if n >= 16 && i < n {
            // The tail as the last sixteen bytes (overlapping the loop's: no byte-loop call).
            // SAFETY: n >= 16, so a[n - 16..n] and b[n - 16..n] are in bounds.
            let (x, y) = unsafe {
                (v128_load(a.as_ptr().add(n - 16).cast::<v128>()), v128_load(b.as_ptr().add(n - 16).cast::<v128>()))
            };
            return a.len() == b.len() && u8x16_all_true(u8x16_eq(x, y));
        }
    }
    json::bytes_eq(&a[i.min(a.len())..], &b[i.min(b.len())..])
}

/// [`describe`] of a value that stands for `null` when missing.
pub(super) fn describe_or_null(v: Option<Ref<'_>>) -> String {
    match v {
        None => "null".to_string(),
        v => describe(v),
    }
}

pub(super) fn str_of(v: Option<Ref<'_>>) -> Option<Text<'_>> {
    v.and_then(Ref::as_text)
}

/// A missing value stands for `null`.
pub(super) fn null_or_missing(v: Option<Ref<'_>>) -> bool {
    match v {
        None => true,
        Some(v) => v.is_null(),
    }
}

/// `JSON pointer` of `base` + an array index.
pub(super) fn at_index(base: &str, i: usize) -> String {
    pointer(base, &i.to_string())
}

/// Python `==` on parsed JSON values, numbers by value (`1 == 1.0`) but
/// zeros by their sign as JavaScript reads it (`-0` is not `0`), objects as
/// dicts (order-insensitive), booleans distinct from numbers. A missing
/// value (`None`) stands for `null`.
pub(super) fn py_eq(a: Option<Ref<'_>>, b: Option<Ref<'_>>) -> bool {
    let null = null_or_missing;
    let (Some(a), Some(b)) = (a, b) else { return null(a) && null(b) };
    // The shapes, not the kinds: a float spelled as Python's `repr` prints
    // it (a server's floats) is kept as its text, and reading its value
    // means parsing it again.
    match (Tree::shape(a), Tree::shape(b)) {
        (Shape::Null, Shape::Null) => true,
        (Shape::Bool(x), Shape::Bool(y)) => x == y,
        // Two such floats: `repr` is one-to-one on doubles, so they are
        // equal exactly when spelled alike (`-0.0` is not `0.0`, as below).
        (Shape::Lexeme(x), Shape::Lexeme(y)) => same_bytes(x.as_bytes(), y.as_bytes()),
        // Numbers by value, and zeros by the sign JavaScript reads (`-0`
        // for a bound `0` is another number to a client: `Object.is`, `1/x`).
        (
            x @ (Shape::Int(_) | Shape::Float(_) | Shape::Lexeme(_)),
            y @ (Shape::Int(_) | Shape::Float(_) | Shape::Lexeme(_)),
        ) => {
            let (x, y) = (number(a, x), number(b, y));
            num_eq(x.0, y.0) && x.1 == y.1
        }
        (Shape::Str(x), Shape::Str(y)) => same_bytes(x, y),
        (Shape::Array, Shape::Array) => {
            let (Some(x), Some(y)) = (a.as_array(), b.as_array()) else { return false };
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| py_eq(Some(p), Some(q)))
        }
        (Shape::Object, Shape::Object) => {
            let (Some(x), Some(y)) = (a.as_object(), b.as_object()) else { return false };
            if x.len() != y.len() {
                return false;
            }
            // Small objects (score breakdowns) by scan; large ones through an
            // index, so a hostile body cannot make the comparison quadratic.
            if x.len() <= 32 {
                // Same position first (the usual case: the same order).
                // (Keys as bytes: no `Text`, whose slice of the input checks UTF-8 boundaries.)
                return (0..x.len()).all(|i| {
                    let ((k, v), (yk, yv)) = (x.entry_at(i), y.entry_at(i));
                    let w = if same_bytes(yk, k) { Some(yv) } else { y.get_bytes(k) };
                    w.is_some_and(|w| py_eq(Some(v), Some(w)))
                });
            }
            let index: HashMap<&[u8], Ref<'_>> = y.iter().map(|(k, v)| (k.as_bytes(), v)).collect();
            x.iter().all(|(k, v)| index.get(k.as_bytes()).is_some_and(|&w| py_eq(Some(v), Some(w))))
        }
        _ => false,
    }
}

/// A number of shape `s` (of `v`) as Python compares it, and whether
/// JavaScript reads it as `-0` ([`Ref::is_negative_zero`]).
fn number<'d>(v: Ref<'d>, s: Shape<'d>) -> (Num<'d>, bool) {
    let float = |f: f64| (Num::Float(f), f == 0.0 && f.is_sign_negative());
    match s {
        Shape::Int(d) => (Num::Int(d), v.is_negative_zero()),
        Shape::Lexeme(l) => float(crate::py::float::parse_f64(l).unwrap_or(f64::NAN)),
        Shape::Float(f) => float(f),
        _ => (Num::Float(f64::NAN), false),
    }
}

/// Two hex digests (or nulls) agree: strings case-insensitively, else by value.
pub(super) fn digest_eq(a: Option<Ref<'_>>, b: Option<Ref<'_>>) -> bool {
    match (str_of(a), str_of(b)) {
        (Some(x), Some(y)) => hex_eq(&x.to_str_lossy(), &y.to_str_lossy()),
        _ => py_eq(a, b),
    }
}

/// [`digest_eq`] of a recomputed digest (`None`: null, no text) and a bound value.
pub(super) fn digest_text_eq(h: Option<&str>, b: Option<Ref<'_>>) -> bool {
    match h {
        Some(h) => str_of(b).is_some_and(|y| hex_eq(h, &y.to_str_lossy())),
        None => null_or_missing(b),
    }
}

/// The body time `a` denotes the bound time `b`'s instant (a naive bound
/// time is UTC): an aware time of that instant, or, naive, `b`'s very text;
/// non-time values must be equal.
pub(super) fn same_instant(a: Option<Ref<'_>>, b: Option<Ref<'_>>) -> bool {
    match (str_of(a), str_of(b)) {
        (Some(x), Some(y)) => {
            if x.as_bytes() == y.as_bytes() {
                return true;
            }
            // Otherwise only the server encoder's own spelling (pydantic's
            // `YYYY-MM-DDTHH:MM:SS[.ffffff]` with `Z` or `±HH:MM`): Python's
            // `fromisoformat` reads many more ("2026-04-02(09:00:00Z",
            // "20260402T090000+0000", a `+15:00` day shift...), which
            // `new Date()` reads as Invalid Date or another instant.
            if !is_server_time(x.as_bytes()) {
                return false;
            }
            match (PyDateTime::parse(&x.to_str_lossy()), PyDateTime::parse(&y.to_str_lossy())) {
                // The same instant, and naive only where the bound time is
                // naive: JavaScript's `Date` reads a naive date-time as local
                // time, so a naive mirror of an aware time is another instant
                // for a client. (An aware body time of a naive bound one is
                // the server's own form, `as_of` "...Z" for the receipt's
                // naive UTC "...": the same instant for every reader.)
                // A naive body time must be the bound text itself (compared
                // above): "2026-04-02 09:00:00" is not "2026-04-02T09:00:00" to
                // every engine (Safari's Date gives NaN for the former).
                (Ok(p), Ok(q)) => !p.is_naive() && p.instant_micros() == q.instant_micros(),
                _ => false,
            }
        }
        _ => py_eq(a, b),
    }
}

/// An aware date-time as the server's JSON encoder spells it:
/// `YYYY-MM-DDTHH:MM:SS`, optionally `.` and six digits, then `Z` or
/// `±HH:MM` (the ranges are checked by the parse that follows). Every
/// JavaScript engine's `Date.parse` reads this form (ECMA-262's date-time
/// string format, with extra fraction digits) as the instant Python reads.
pub(super) fn is_server_time(t: &[u8]) -> bool {
    let digits = |r: std::ops::Range<usize>| t.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    let head = t.len() >= 19
        && digits(0..4)
        && t[4] == b'-'
        && digits(5..7)
        && t[7] == b'-'
        && digits(8..10)
        && t[10] == b'T'
        && digits(11..13)
        && t[13] == b':'
        && digits(14..16)
        && t[16] == b':'
        && digits(17..19);
    if !head {
        return false;
    }
    let rest = &t[19..];
    let rest = match rest.first() {
        Some(b'.') if digits(20..26) => &rest[7..],
        _ => rest,
    };
    match rest {
        b"Z" => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// The SHA-256 of a text as the receipt would bind it (null for null).
pub(super) fn text_digest(v: Option<Ref<'_>>) -> Option<String> {
    str_of(v).map(sha256_of)
}

/// Does the bound digest value `got` hold the hex digest `h`?
pub(super) fn bound_digest_is(got: Option<Ref<'_>>, h: &str) -> bool {
    str_of(got).is_some_and(|s| hex_eq(&s.to_str_lossy(), h))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python `==` of two JSON texts (parsed as one array `[a, b]`).
    fn eq_with(a: &str, b: &str, f: fn(Option<Ref<'_>>, Option<Ref<'_>>) -> bool) -> bool {
        let text = format!("[{a},{b}]");
        let doc = json::parse_doc(&text).unwrap();
        let items = doc.root().as_array().unwrap();
        f(items.get(0), items.get(1))
    }

    #[test]
    fn same_bytes_is_slice_equality() {
        let data: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8).collect();
        for n in 0..80usize {
            for at in [0, 1, n / 2, n.saturating_sub(1)] {
                let a = &data[..n];
                let mut b = a.to_vec();
                assert!(same_bytes(a, &b) && long_eq(a, &b));
                if n > 0 {
                    b[at.min(n - 1)] ^= 0x40;
                    assert!(!same_bytes(a, &b) && !long_eq(a, &b), "{n} {at}");
                }
                assert!(!same_bytes(a, &data[1..n + 1]) || a == &data[1..n + 1]);
                assert!(!same_bytes(a, &data[..n + 1]));
            }
        }
    }

    #[test]
    fn python_equality_of_values() {
        assert!(eq_with(r#"{"a":1,"b":[1.0,"x"]}"#, r#"{"b":[1,"x"],"a":1.0}"#, py_eq));
        assert!(!eq_with("true", "1", py_eq));
        assert!(!eq_with(r#"{"a":1}"#, r#"{"a":1,"b":2}"#, py_eq));
        assert!(!eq_with("NaN", "NaN", py_eq));
        // A naive body time of an aware bound one: JS reads it as local time.
        assert!(!eq_with(r#""2026-04-02T09:00:00""#, r#""2026-04-02T09:00:00Z""#, same_instant));
        assert!(!eq_with(r#""2026-04-02 09:00:00""#, r#""2026-04-02T09:00:00+00:00""#, same_instant));
        // The server's own as_of: "...Z" in the body, naive UTC in the receipt.
        assert!(eq_with(r#""2026-04-02T09:00:00Z""#, r#""2026-04-02T09:00:00""#, same_instant));
        assert!(!eq_with(r#""2026-04-02 09:00:00""#, r#""2026-04-02T09:00:00""#, same_instant));
        assert!(eq_with(r#""2026-04-02T09:00:00""#, r#""2026-04-02T09:00:00""#, same_instant));
        assert!(eq_with(r#""2026-04-02T10:00:00+01:00""#, r#""2026-04-02T09:00:00+00:00""#, same_instant));
        assert!(!eq_with(r#""2026-04-02T09:00:01Z""#, r#""2026-04-02T09:00:00""#, same_instant));
        // Only the server encoder's spelling, or the bound text itself.
        for t in [
            "2026-04-02(09:00:00Z",
            "2026-04-02T09:00:00z",
            "2026-04-02T09:00:00+0000",
            "2026-04-02T09:00:00+00",
            "2026-04-02T09:00:00+00:00:00",
            "2026-04-02T09:00:00.000Z",
            "2026-04-02T09:00:00,000000Z",
            "20260402T090000Z",
            "2026-04-02T09:00Z",
            "2026-04-03 00:00:00+15:00",
            "2026-04-02T09:00:00.0000000Z",
        ] {
            assert!(!eq_with(&format!("{t:?}"), r#""2026-04-02T09:00:00""#, same_instant), "{t}");
        }
        for t in [
            "2026-04-02T09:00:00Z",
            "2026-04-02T09:00:00.000000Z",
            "2026-04-03T00:00:00+15:00",
            "2026-04-02T04:00:00-05:00",
        ] {
            assert!(eq_with(&format!("{t:?}"), r#""2026-04-02T09:00:00+00:00""#, same_instant), "{t}");
        }
        // -0 is not 0 to a client; -0.0 is -0.0.
        assert!(!eq_with("-0", "0", py_eq));
        assert!(!eq_with("-0.0", "0.0", py_eq));
        assert!(!eq_with("0", "-0.0", py_eq));
        assert!(eq_with("-0", "-0.0", py_eq));
        assert!(eq_with("0", "0.0", py_eq));
        let doc = json::parse_doc("null").unwrap();
        assert!(same_instant(Some(doc.root()), None));
        assert!(py_eq(None, Some(doc.root())));
    }
}
