//! The one JSON printer: CPython's `json.dumps` with compact separators.
//!
//! * [`Options::CANONICAL`]: `json.dumps(v, sort_keys=True, separators=(",", ":"))`
//!   with the default `ensure_ascii=True` — the text the Lians server hashes
//!   (spec `ranking-receipts.md` §1). Keys sort by code point (= WTF-8 byte order), every
//!   non-printable-ASCII code point is written `\uXXXX` in lowercase hex,
//!   astral characters as surrogate pairs, lone surrogates alone.
//! * [`Options::COMPACT`]: `json.dumps(v, ensure_ascii=False, separators=(",", ":"))`:
//!   insertion order, raw UTF-8; only `"`, `\` and control characters are
//!   escaped. (A lone surrogate, which a Rust `String` cannot hold, is written
//!   as a `\udXXX` escape.)
//!
//! Floats print as Python `repr` (via [`crate::py::float`]), non-finite ones
//! as `NaN`, `Infinity`, `-Infinity`; integers as their digits.
//!
//! The printer is iterative: no value, however deep, can overflow the stack.

use super::doc::{Items, Members, Ref};
use super::value::{PyStr, Value};
use crate::py::float;

/// How to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Sort object members by key (code point order) instead of insertion order.
    pub sort_keys: bool,
    /// Escape every code point outside printable ASCII (Python `ensure_ascii=True`).
    pub ensure_ascii: bool,
}

impl Options {
    /// The canonical form the server hashes.
    pub const CANONICAL: Options = Options { sort_keys: true, ensure_ascii: true };
    /// Compact, insertion order, raw UTF-8: for output lines.
    pub const COMPACT: Options = Options { sort_keys: false, ensure_ascii: false };
}

/// A JSON value the printer walks: the owned [`Value`] (as `&Value`) and
/// the borrowed [`Ref`] of a [`Doc`](super::Doc). One printer for both.
pub trait Tree<'a>: Copy {
    /// What this value is (containers without their children).
    fn shape(self) -> Shape<'a>;
    /// The number of children (array items or object members; 0 for scalars).
    fn child_count(self) -> usize;
    /// The `i`th child (`i < len()`): an array item with an empty key, or an
    /// object member (key bytes, WTF-8). Children are read by index, so a
    /// walk holds one frame per open container, not a list of its children.
    fn child(self, i: usize) -> (&'a [u8], Self);
    /// This value as a [`Walk`] (the printer is compiled once, for [`Walk`]).
    fn walk(self) -> Walk<'a>;
}

/// Either tree, so that the printer is one function in the wasm, not one per tree type.
#[derive(Clone, Copy)]
pub enum Walk<'a> {
    /// An owned value.
    Value(&'a Value),
    /// A node of a [`Doc`](super::Doc).
    Doc(Ref<'a>),
}

impl<'a> Tree<'a> for Walk<'a> {
    fn shape(self) -> Shape<'a> {
        match self {
            Walk::Value(v) => v.shape(),
            Walk::Doc(r) => Tree::shape(r),
        }
    }
    fn child_count(self) -> usize {
        match self {
            Walk::Value(v) => v.child_count(),
            Walk::Doc(r) => Tree::child_count(r),
        }
    }
    fn child(self, i: usize) -> (&'a [u8], Self) {
        match self {
            Walk::Value(v) => {
                let (k, c) = v.child(i);
                (k, Walk::Value(c))
            }
            Walk::Doc(r) => {
                let (k, c) = r.child(i);
                (k, Walk::Doc(c))
            }
        }
    }
    fn walk(self) -> Walk<'a> {
        self
    }
}

/// A value's shape, for [`Tree`].
pub enum Shape<'a> {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// Integer digits.
    Int(&'a str),
    /// A float.
    Float(f64),
    /// A float given as the text Python's `repr` prints for it (the printer checks that it is one).
    Lexeme(&'a str),
    /// A string's WTF-8 bytes.
    Str(&'a [u8]),
    /// An array (children from [`Tree::child`]).
    Array,
    /// An object (children from [`Tree::child`]).
    Object,
}

static NULL: Value = Value::Null;

impl<'a> Tree<'a> for &'a Value {
    fn shape(self) -> Shape<'a> {
        match self {
            Value::Null => Shape::Null,
            Value::Bool(b) => Shape::Bool(*b),
            Value::Int(d) => Shape::Int(d),
            Value::Float(f) => Shape::Float(*f),
            Value::Str(s) => Shape::Str(s.as_bytes()),
            Value::Array(_) => Shape::Array,
            Value::Object(_) => Shape::Object,
        }
    }
    fn child_count(self) -> usize {
        match self {
            Value::Array(items) => items.len(),
            Value::Object(o) => o.len(),
            _ => 0,
        }
    }
    fn child(self, i: usize) -> (&'a [u8], Self) {
        match self {
            Value::Array(items) => (b"", items.get(i).unwrap_or(&NULL)),
            Value::Object(o) => o.members().get(i).map_or((&b""[..], &NULL), |(k, v)| (k.as_bytes(), v)),
            _ => (b"", &NULL),
        }
    }
    fn walk(self) -> Walk<'a> {
        Walk::Value(self)
    }
}

impl<'a> Tree<'a> for Ref<'a> {
    fn shape(self) -> Shape<'a> {
        self.shape()
    }
    fn child_count(self) -> usize {
        match (self.as_object(), self.as_array()) {
            (Some(m), _) => m.len(),
            (_, Some(items)) => items.len(),
            _ => 0,
        }
    }
    fn child(self, i: usize) -> (&'a [u8], Self) {
        // (Not through `kind()`, which also reads a float's value: a
        // container is asked for its children here, a child for its shape.)
        if let Some(m) = self.as_object() {
            if i < m.len() {
                let (k, v) = m.at(i);
                return (k.as_bytes(), v);
            }
        } else if let Some(items) = self.as_array() {
            return (b"", items.get(i).unwrap_or(self));
        }
        (b"", self)
    }
    fn walk(self) -> Walk<'a> {
        Walk::Doc(self)
    }
}

/// Print `value` as a `String`.
pub fn write<'a, T: Tree<'a>>(value: T, options: Options) -> String {
    let mut out = Vec::new();
    write_into(value, options, &mut out);
    // Only valid UTF-8 is ever written (lone surrogates are escaped).
    match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// A container's children as the printer reads them: a document node's
/// items or members resolved once per container, not once per child.
#[derive(Clone, Copy)]
enum Kids<'a> {
    Value(&'a Value),
    Items(Items<'a>),
    Members(Members<'a>),
}

impl<'a> Kids<'a> {
    fn of(v: Walk<'a>) -> Kids<'a> {
        match v {
            Walk::Value(v) => Kids::Value(v),
            Walk::Doc(r) => match (r.as_object(), r.as_array()) {
                (Some(m), _) => Kids::Members(m),
                (_, Some(items)) => Kids::Items(items),
                _ => Kids::Value(&NULL),
            },
        }
    }
    fn len(self) -> usize {
        match self {
            Kids::Value(v) => v.child_count(),
            Kids::Items(items) => items.len(),
            Kids::Members(m) => m.len(),
        }
    }
    /// As [`Tree::child`].
    fn child(self, i: usize) -> (&'a [u8], Walk<'a>) {
        match self {
            Kids::Value(v) => {
                let (k, c) = v.child(i);
                (k, Walk::Value(c))
            }
            Kids::Items(items) => (b"", items.get(i).map_or(Walk::Value(&NULL), Walk::Doc)),
            Kids::Members(m) if i < m.len() => (m.key_bytes_at(i), Walk::Doc(m.value_at(i))),
            Kids::Members(_) => (b"", Walk::Value(&NULL)),
        }
    }
    /// The key of child `i` (`b""` for an array's).
    fn key(self, i: usize) -> &'a [u8] {
        match self {
            Kids::Members(m) if i < m.len() => m.key_bytes_at(i),
            _ => self.child(i).0,
        }
    }
    /// The value of child `i`.
    fn value(self, i: usize) -> Walk<'a> {
        match self {
            Kids::Members(m) if i < m.len() => Walk::Doc(m.value_at(i)),
            _ => self.child(i).1,
        }
    }
}

/// An open container of the printer: the value, its next child, and for
/// an object the start of its member order in the shared order stack.
struct Frame<T> {
    v: T,
    next: usize,
    len: usize,
    /// For an object: its members' indices start here in `order` (or, for
    /// a wide object, in `wide`).
    order: Option<usize>,
    /// An object of more than [`WIDE`] members: its order is in `wide`.
    wide: bool,
}

/// Objects with more members than this keep their printing order as `u32`
/// member indices (4 bytes a member, keys read again from the tree while
/// sorting), not as (key slice, index) pairs (12 bytes on wasm32): a wide
/// object of short members then costs less than its body.
const WIDE: usize = 1024;

/// Append the text of `value` to `out`.
pub fn write_into<'a, T: Tree<'a>>(value: T, options: Options, out: &mut Vec<u8>) {
    print(value.walk(), options, out, None);
}

/// Text handed to a [`write_chunks`] sink at a time (about).
const CHUNK: usize = 1 << 16;

/// Print `value`, handing the text to `sink` in pieces of about 64 KiB:
/// what is hashed without holding the whole text (a receipt of megabytes of
/// non-ASCII text prints up to 3× its size with `ensure_ascii`).
pub fn write_chunks<'a, T: Tree<'a>>(value: T, options: Options, sink: &mut dyn FnMut(&[u8])) {
    let mut out = Vec::with_capacity(CHUNK + 1024);
    print(value.walk(), options, &mut out, Some(sink));
    sink(&out);
}

/// Where [`write_chunks`] hands the text (none: it stays in `out`).
type Flush<'s> = Option<&'s mut dyn FnMut(&[u8])>;

fn print<'a>(value: Walk<'a>, options: Options, out: &mut Vec<u8>, mut sink: Flush<'_>) {
    let mut frames: Vec<Frame<Kids<'a>>> = Vec::new();
    // The member order of each open object, innermost last: (key, child index).
    let mut order: Vec<(&'a [u8], u32)> = Vec::new();
    // The same for objects of more than `WIDE` members: child indices only.
    let mut wide: Vec<u32> = Vec::new();
    let mut next = Some(value);
    loop {
        if let Some(v) = next.take() {
            match v.shape() {
                Shape::Null => out.extend_from_slice(b"null"),
                Shape::Bool(true) => out.extend_from_slice(b"true"),
                Shape::Bool(false) => out.extend_from_slice(b"false"),
                Shape::Int(digits) => put(out, digits.as_bytes()),
                Shape::Float(f) => write_float(f, out),
                Shape::Lexeme(text) => put(out, text.as_bytes()),
                Shape::Str(s) => match sink.as_deref_mut() {
                    Some(sink) if s.len() > CHUNK => write_long(s, options.ensure_ascii, out, sink),
                    _ => write_bytes(s, options.ensure_ascii, out),
                },
                Shape::Array => {
                    out.push(b'[');
                    let v = Kids::of(v);
                    frames.push(Frame { v, next: 0, len: v.len(), order: None, wide: false });
                }
                Shape::Object => {
                    out.push(b'{');
                    let v = Kids::of(v);
                    let len = v.len();
                    if len > WIDE {
                        let at = wide.len();
                        // Room for this object at once (a doubling push loop held up to 3x).
                        wide.reserve(len);
                        wide.extend(0..len as u32);
                        if options.sort_keys {
                            sort_wide(&mut wide[at..], &|i| v.key(i as usize));
                        }
                        frames.push(Frame { v, next: 0, len, order: Some(at), wide: true });
                    } else {
                        let at = order.len();
                        order.reserve(len);
                        for i in 0..len {
                            order.push((v.key(i), i as u32));
                        }
                        if options.sort_keys {
                            sort_keys(&mut order[at..]);
                        }
                        frames.push(Frame { v, next: 0, len, order: Some(at), wide: false });
                    }
                }
            }
        }
        if let Some(sink) = sink.as_deref_mut() {
            if out.len() >= CHUNK {
                sink(out);
                out.clear();
            }
        }
        let Some(f) = frames.last_mut() else { break };
        if f.next == f.len {
            match f.order {
                Some(at) => {
                    if f.wide {
                        wide.truncate(at);
                    } else {
                        order.truncate(at);
                    }
                    out.push(b'}');
                }
                None => out.push(b']'),
            }
            frames.pop();
            continue;
        }
        if f.next > 0 {
            out.push(b',');
        }
        let i = f.next;
        f.next += 1;
        match f.order {
            Some(at) => {
                let (k, c) = if f.wide {
                    let c = wide[at + i] as usize;
                    (f.v.key(c), c)
                } else {
                    let (k, c) = order[at + i];
                    (k, c as usize)
                };
                write_bytes(k, options.ensure_ascii, out);
                out.push(b':');
                next = Some(f.v.value(c));
            }
            None => next = Some(f.v.value(i)),
        }
    }
}

/// [`write_bytes`] of a long string in pieces, flushing `out` to `sink`
/// between them (each piece ends before a lead byte: no sequence is split).
fn write_long(b: &[u8], ensure_ascii: bool, out: &mut Vec<u8>, sink: &mut dyn FnMut(&[u8])) {
    out.push(b'"');
    let mut i = 0;
    while i < b.len() {
        let mut end = (i + CHUNK).min(b.len());
        while end < b.len() && (b[end] & 0xC0) == 0x80 {
            end += 1;
        }
        write_run(&b[i..end], ensure_ascii, out);
        i = end;
        if out.len() >= CHUNK {
            sink(out);
            out.clear();
        }
    }
    out.push(b'"');
}

/// Sort members by key bytes (WTF-8 order = code point order; keys are
/// unique, so any correct sort gives the same order). Not generic over the
/// tree type, so the wasm carries one sort.
/// Insertion sort for the usual handful of keys, heapsort (O(n log n), no
/// allocation, little code) for large objects.
#[inline(never)]
fn sort_keys(v: &mut [(&[u8], u32)]) {
    let n = v.len();
    if n <= 24 {
        for i in 1..n {
            let mut j = i;
            while j > 0 && key_gt(v[j - 1].0, v[j].0) {
                v.swap(j - 1, j);
                j -= 1;
            }
        }
        return;
    }
    heapsort(v, |a, b| key_gt(a.0, b.0));
}

/// [`sort_keys`] of a wide object's member indices, the keys read through
/// `key` (heapsort: no allocation).
#[inline(never)]
fn sort_wide<'k>(v: &mut [u32], key: &dyn Fn(u32) -> &'k [u8]) {
    heapsort(v, |&a, &b| key_gt(key(a), key(b)));
}

/// Heapsort of `v` into ascending order by `gt` (no allocation), inlined into
/// [`sort_keys`] and [`sort_wide`].
#[inline(always)]
fn heapsort<T>(v: &mut [T], gt: impl Fn(&T, &T) -> bool) {
    let n = v.len();
    // Sift `root` down within `v[..end]` (a max-heap by `gt`).
    let sift = |v: &mut [T], mut root: usize, end: usize| loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && gt(&v[child + 1], &v[child]) {
            child += 1;
        }
        if !gt(&v[child], &v[root]) {
            return;
        }
        v.swap(root, child);
        root = child;
    };
    for root in (0..n / 2).rev() {
        sift(v, root, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift(v, 0, end);
    }
}

/// `a > b` in byte order, decided by the first bytes when they differ
/// (keys of one object mostly do): `>` on slices calls `memcmp`, a call
/// and a byte loop in wasm, and sorting a receipt's objects compares keys
/// tens of thousands of times.
#[inline]
fn key_gt(a: &[u8], b: &[u8]) -> bool {
    match (a.first(), b.first()) {
        (Some(x), Some(y)) if x != y => x > y,
        _ => a > b,
    }
}

/// Python json's float text: `repr` for finite values, else `NaN`/`Infinity`/`-Infinity`.
pub fn write_float(f: f64, out: &mut Vec<u8>) {
    if f.is_nan() {
        out.extend_from_slice(b"NaN");
    } else if f.is_infinite() {
        out.extend_from_slice(if f > 0.0 { b"Infinity" } else { b"-Infinity" });
    } else {
        let mut s = String::new();
        float::write_repr(f, &mut s);
        out.extend_from_slice(s.as_bytes());
    }
}

/// Is this JSON number token (with `.` or an exponent) exactly what Python's
/// `repr` prints for the double it denotes? True for fixed notation
/// `-?D.F` with at most 15 significant digits, no trailing zero in `F`
/// (except `F` = `0`) and `1e-4 ≤ |x| < 1e16` or zero. Why: a decimal of at
/// most 15 significant digits survives decimal → double → 15 digits
/// (DBL_DIG), so the shortest round-tripping digits repr finds denote the
/// same decimal, and repr writes them in this very fixed form in that range.
pub(crate) fn is_repr_lexeme(t: &str) -> bool {
    let b = t.as_bytes();
    let b = b.strip_prefix(b"-").unwrap_or(b);
    let Some(dot) = b.iter().position(|&c| c == b'.') else { return false };
    let (int, frac) = (&b[..dot], &b[dot + 1..]);
    if int.is_empty() || frac.is_empty() || !int.iter().chain(frac).all(u8::is_ascii_digit) {
        return false;
    }
    if frac.len() > 1 && frac.last() == Some(&b'0') {
        return false;
    }
    let significant = if int == b"0" {
        let zeros = frac.iter().take_while(|&&c| c == b'0').count();
        if zeros == frac.len() {
            return true; // 0.0 / -0.0
        }
        if zeros > 3 {
            return false; // below 1e-4: repr uses an exponent
        }
        frac.len() - zeros
    } else {
        if int[0] == b'0' {
            return false;
        }
        int.len() + if frac == b"0" { 0 } else { frac.len() }
    };
    significant <= 15
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn push_u_escape(out: &mut Vec<u8>, unit: u32) {
    out.extend_from_slice(&[
        b'\\',
        b'u',
        HEX[((unit >> 12) & 0xF) as usize],
        HEX[((unit >> 8) & 0xF) as usize],
        HEX[((unit >> 4) & 0xF) as usize],
        HEX[(unit & 0xF) as usize],
    ]);
}

/// The escape for an ASCII byte that is not written as itself, if any.
#[inline]
fn ascii_escape(c: u8, ensure_ascii: bool, out: &mut Vec<u8>) -> bool {
    match c {
        b'"' => out.extend_from_slice(b"\\\""),
        b'\\' => out.extend_from_slice(b"\\\\"),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\r' => out.extend_from_slice(b"\\r"),
        b'\t' => out.extend_from_slice(b"\\t"),
        0x08 => out.extend_from_slice(b"\\b"),
        0x0C => out.extend_from_slice(b"\\f"),
        0x00..=0x1F => push_u_escape(out, c as u32),
        0x7F if ensure_ascii => push_u_escape(out, 0x7F),
        _ => return false,
    }
    true
}

/// `out.extend_from_slice(b)`, a piece of at most 16 bytes copied by words: in wasm
/// `extend_from_slice` is a `memory.copy`, which V8 (Node 20) runs as a call out to C, and
/// the printer copies a key, a number or a run of a string at a time (most are short).
#[inline(always)]
fn put(out: &mut Vec<u8>, b: &[u8]) {
    let n = b.len();
    if n > 16 {
        out.extend_from_slice(b);
        return;
    }
    out.reserve(16);
    let at = out.len();
    // SAFETY: `out` has room for 16 more bytes (reserved), so for `at..at + n`; every read is
    // inside `b` (two overlapping words of 8 or 4 bytes for n >= 8 or >= 4, else single bytes),
    // every write inside `at..at + n`, and all of it is written before the length covers it.
    unsafe {
        let (src, dst) = (b.as_ptr(), out.as_mut_ptr().add(at));
        if n >= 8 {
            dst.cast::<u64>().write_unaligned(src.cast::<u64>().read_unaligned());
            dst.add(n - 8).cast::<u64>().write_unaligned(src.add(n - 8).cast::<u64>().read_unaligned());
        } else if n >= 4 {
            dst.cast::<u32>().write_unaligned(src.cast::<u32>().read_unaligned());
            dst.add(n - 4).cast::<u32>().write_unaligned(src.add(n - 4).cast::<u32>().read_unaligned());
        } else if n > 0 {
            *dst = *src;
            *dst.add(n / 2) = *src.add(n / 2);
            *dst.add(n - 1) = *src.add(n - 1);
        }
        out.set_len(at + n);
    }
}

/// Write a quoted, escaped string.
pub fn write_str(s: &PyStr, ensure_ascii: bool, out: &mut Vec<u8>) {
    write_bytes(s.as_bytes(), ensure_ascii, out)
}

/// Write a quoted, escaped string given as WTF-8 bytes.
pub fn write_bytes(b: &[u8], ensure_ascii: bool, out: &mut Vec<u8>) {
    out.reserve(b.len() + 2);
    out.push(b'"');
    write_run(b, ensure_ascii, out);
    out.push(b'"');
}

/// The escaped text of whole WTF-8 sequences, without quotes.
fn write_run(b: &[u8], ensure_ascii: bool, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < b.len() {
        // Copy a run of bytes written as themselves (eight at a time while
        // no byte of the word can need an escape, then byte by byte).
        let run = i;
        i = skip_plain_words(b, i, ensure_ascii);
        while i < b.len() {
            let c = b[i];
            let plain = if ensure_ascii {
                (0x20..0x7F).contains(&c) && c != b'"' && c != b'\\'
            } else {
                c >= 0x20 && c != b'"' && c != b'\\' && !(c == 0xED && i + 1 < b.len() && b[i + 1] >= 0xA0)
            };
            if !plain {
                break;
            }
            i += 1;
        }
        put(out, &b[run..i]);
        if i >= b.len() {
            break;
        }
        let c = b[i];
        if c < 0x80 {
            ascii_escape(c, ensure_ascii, out);
            i += 1;
            continue;
        }
        // A multi-byte sequence: decode the code point.
        let (cp, len) = decode_wtf8(b, i);
        i += len;
        if cp >= 0x10000 {
            let v = cp - 0x10000;
            push_u_escape(out, 0xD800 + (v >> 10));
            push_u_escape(out, 0xDC00 + (v & 0x3FF));
        } else {
            push_u_escape(out, cp);
        }
    }
}

/// Advance over whole 8-byte words of `b` from `i` that hold no byte that
/// could need escaping: `"`, `\\`, controls below 0x20, and with
/// `ensure_ascii` also DEL and every byte ≥ 0x80; without it, 0xED (the lead
/// byte of a WTF-8 lone surrogate) is treated as possibly special. Same SWAR
/// zero-byte test as the parser's `skip_plain`. Stops at the first word
/// with a candidate; the caller's byte loop decides exactly.
#[inline]
fn skip_plain_words(b: &[u8], mut i: usize, ensure_ascii: bool) -> usize {
    // wasm: sixteen bytes at a time with SIMD128 (stops at the first candidate).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::*;
        let (quote, backslash, space) = (u8x16_splat(b'"'), u8x16_splat(b'\\'), u8x16_splat(0x20));
        // ensure_ascii: DEL and every byte >= 0x80 (> 0x7E); else the WTF-8 surrogate lead 0xED.
        let (high, ed) = (u8x16_splat(0x7E), u8x16_splat(0xED));
        while i + 16 <= b.len() {
            // SAFETY: b[i..i + 16] is in bounds; v128_load reads unaligned.
            let v = unsafe { v128_load(b.as_ptr().add(i).cast::<v128>()) };
            let mut special = v128_or(v128_or(u8x16_eq(v, quote), u8x16_eq(v, backslash)), u8x16_lt(v, space));
            special = v128_or(special, if ensure_ascii { u8x16_gt(v, high) } else { u8x16_eq(v, ed) });
            let bits = u8x16_bitmask(special);
            if bits != 0 {
                return i + bits.trailing_zeros() as usize;
            }
            i += 16;
        }
    }
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(LO) & !x;
    let plain = |chunk: &[u8]| {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0; 8]));
        let mut special =
            zero(w ^ (LO * b'"' as u64)) | zero(w ^ (LO * b'\\' as u64)) | (w.wrapping_sub(LO * 0x20) & !w);
        if ensure_ascii {
            special |= w | zero(w ^ (LO * 0x7F));
        } else {
            special |= zero(w ^ (LO * 0xED));
        }
        special & HI == 0
    };
    while let Some(chunk) = b.get(i..i + 8) {
        if !plain(chunk) {
            return i;
        }
        i += 8;
    }
    // The last 1-7 bytes as the last whole word (overlapping bytes already passed): a key or
    // a short string then needs no byte loop.
    match b.len().checked_sub(8) {
        Some(at) if i < b.len() && plain(&b[at..]) => b.len(),
        _ => i,
    }
}

fn decode_wtf8(b: &[u8], i: usize) -> (u32, usize) {
    let b0 = b[i] as u32;
    let at = |k: usize| b.get(i + k).map(|&x| x as u32 & 0x3F).unwrap_or(0);
    if b0 < 0xE0 {
        (((b0 & 0x1F) << 6) | at(1), 2)
    } else if b0 < 0xF0 {
        (((b0 & 0x0F) << 12) | (at(1) << 6) | at(2), 3)
    } else {
        (((b0 & 0x07) << 18) | (at(1) << 12) | (at(2) << 6) | at(3), 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn canon(text: &str) -> String {
        write(&parse(text).unwrap(), Options::CANONICAL)
    }

    #[test]
    fn hazard_vector() {
        let text = r#"{"zeta":[1,1.0,-0.0,1e-7,0.00005,0.0001,1e16,1000000000000000.0,0.30000000000000004,18446744073709551616,true,null],"😀":"grinning face","～":"fullwidth tilde","ctl":"tab\there\nnl \u0000 nul \u001f us DEL del LS ls \"q\" \\ \/","café":"e-acute key","Z":{"b":2,"a":[],"":{}}}"#
            .replace("DEL", "\u{7f}")
            .replace("LS", "\u{2028}");
        let text = text.as_str();
        let expected = r#"{"Z":{"":{},"a":[],"b":2},"caf\u00e9":"e-acute key","ctl":"tab\there\nnl \u0000 nul \u001f us \u007f del \u2028 ls \"q\" \\ /","zeta":[1,1.0,-0.0,1e-07,5e-05,0.0001,1e+16,1000000000000000.0,0.30000000000000004,18446744073709551616,true,null],"\uff5e":"fullwidth tilde","\ud83d\ude00":"grinning face"}"#;
        assert_eq!(canon(text), expected);
        assert_eq!(
            crate::hash::sha256_hex(expected.as_bytes()),
            "e4a901a12b05216aba1effcb9f2d53d16a9736d48ddcdc8fb655ab2177630364"
        );
    }

    #[test]
    fn escapes() {
        assert_eq!(canon(r#""\ud800""#), r#""\ud800""#);
        assert_eq!(canon(r#""\uDBFF\uDFFF""#), r#""\udbff\udfff""#);
        assert_eq!(canon(r#""\u000B\u0008\u000c""#), r#""\u000b\b\f""#);
        assert_eq!(canon("[NaN,Infinity,-Infinity,1e400]"), "[NaN,Infinity,-Infinity,Infinity]");
        assert_eq!(canon("[-0,-0e0,0e-5]"), "[0,-0.0,0.0]");
        let v = parse(r#"{"b":"é\u007f\ud800","a":1}"#).unwrap();
        assert_eq!(write(&v, Options::COMPACT), "{\"b\":\"é\u{7f}\\ud800\",\"a\":1}");
    }

    /// Every lexeme the printer copies is what repr prints (and the rule
    /// accepts the common shapes): random fixed-notation tokens of 1..=18
    /// digits, with and without a sign and leading zeros in the fraction.
    #[test]
    fn repr_lexemes_are_repr() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut accepted = 0;
        for _ in 0..200_000 {
            let int_len = next(17) as usize;
            let frac_len = 1 + next(17) as usize;
            let mut t = String::new();
            if next(2) == 0 {
                t.push('-');
            }
            if int_len == 0 {
                t.push('0');
            } else {
                t.push((b'1' + next(9) as u8) as char);
                for _ in 1..int_len {
                    t.push((b'0' + next(10) as u8) as char);
                }
            }
            t.push('.');
            let zeros = if next(3) == 0 { next(6) as usize } else { 0 };
            for k in 0..frac_len {
                t.push(if k < zeros { '0' } else { (b'0' + next(10) as u8) as char });
            }
            if is_repr_lexeme(&t) {
                accepted += 1;
                let mut out = Vec::new();
                write_float(t.parse().unwrap(), &mut out);
                assert_eq!(String::from_utf8(out).unwrap(), t);
            }
        }
        assert!(accepted > 20_000, "{accepted}");
        for (t, ok) in [("0.0", true), ("-0.0", true), ("1.0", true), ("0.0001", true), ("0.00001", false)] {
            assert_eq!(is_repr_lexeme(t), ok, "{t}");
        }
        for t in [
            "1e5",
            "1.50",
            "01.5",
            "1.",
            ".5",
            "1234567890123456.0",
            "0.1000000000000000055511151231257827",
            "",
            "-",
            "-.5",
            "--1.5",
            "1.5.5",
            "1a.5",
            "1.5e3",
            "1.-5",
            "1..5",
        ] {
            assert!(!is_repr_lexeme(t), "{t}");
        }
    }

    /// `put` appends exactly the piece, for every length around its word cases.
    #[test]
    fn put_appends_the_piece() {
        let src: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(37).wrapping_add(1)).collect();
        for pre in [0, 1, 7, 15, 16, 17] {
            for n in 0..=33 {
                for at in [0, 1, 3] {
                    let mut out: Vec<u8> = vec![0xAA; pre];
                    out.shrink_to_fit();
                    put(&mut out, &src[at..at + n]);
                    let mut want = vec![0xAA; pre];
                    want.extend_from_slice(&src[at..at + n]);
                    assert_eq!(out, want, "pre {pre}, n {n}, at {at}");
                }
            }
        }
    }

    /// The printer's own sort agrees with the standard one, small and large.
    #[test]
    fn key_sort() {
        for n in [0usize, 1, 2, 7, 24, 25, 100, 1000] {
            let keys: Vec<Vec<u8>> = (0..n).map(|i| format!("k{}", (i * 7919) % 1009).into_bytes()).collect();
            let mut keys: Vec<Vec<u8>> =
                keys.into_iter().collect::<std::collections::BTreeSet<_>>().into_iter().rev().collect();
            keys.rotate_left(n / 3);
            let mut order: Vec<(&[u8], u32)> = keys.iter().enumerate().map(|(i, k)| (&k[..], i as u32)).collect();
            sort_keys(&mut order);
            let mut want: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
            want.sort();
            assert_eq!(order.iter().map(|p| p.0).collect::<Vec<_>>(), want, "{n}");
            let mut wide: Vec<u32> = (0..keys.len() as u32).collect();
            sort_wide(&mut wide, &|i| &keys[i as usize][..]);
            assert_eq!(wide.iter().map(|&i| &keys[i as usize][..]).collect::<Vec<_>>(), want, "{n}");
        }
        // A wide object (over WIDE members, duplicates merged) prints as the sorted,
        // deduplicated dict, from a document and from a value.
        let body = format!(
            "{{{}}}",
            (0..3000).map(|i| format!("\"k{}\":{}", (i * 7919) % 2503, i)).collect::<Vec<_>>().join(",")
        );
        let doc = crate::json::parse_doc(&body).unwrap();
        let doc_text = write(doc.root(), Options::CANONICAL);
        let value_text = write(&crate::json::parse(&body).unwrap(), Options::CANONICAL);
        assert_eq!(doc_text, value_text);
        let mut m: std::collections::BTreeMap<String, usize> = Default::default();
        for i in 0..3000 {
            m.insert(format!("k{}", (i * 7919) % 2503), i);
        }
        let want = format!("{{{}}}", m.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>().join(","));
        assert_eq!(value_text, want);
        // key_gt is `>` on bytes: prefixes, zero bytes, high bytes, word boundaries.
        let keys: Vec<&[u8]> = vec![
            b"",
            b"\0",
            b"\0\0",
            b"a",
            b"a\0",
            b"ab",
            b"abcdefgh",
            b"abcdefgh\0",
            b"abcdefghi",
            b"abcdefgg\xff",
            b"\xff",
            b"\xc3\xa9",
            b"\xf0\x9f\x98\x80",
            b"score",
            b"score_breakdown",
            b"scores",
            b"0123456789abcdef0",
            b"0123456789abcdef",
            b"0123456789abcdeg",
        ];
        for a in &keys {
            for b in &keys {
                assert_eq!(key_gt(a, b), a > b, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn deep_value_prints_without_recursion() {
        let mut v = Value::Null;
        for _ in 0..100_000 {
            v = Value::Array(vec![v]);
        }
        let s = write(&v, Options::CANONICAL);
        assert_eq!(s.len(), 200_004);
        // Drop iteratively (the recursive drop of 100,000 levels would be deep).
        let mut cur = v;
        while let Value::Array(mut items) = cur {
            cur = items.pop().unwrap_or(Value::Null);
        }
    }
}
