//! A JSON reader that behaves like CPython 3.12's `json.loads`.
//!
//! * Iterative (an explicit stack of open containers), so no input can
//!   overflow the call stack; nesting deeper than [`MAX_DEPTH`] is refused
//!   with [`ErrorCode::NestingTooDeep`] at the moment the 513th container
//!   opens, reading left to right.
//! * Linear time on every input: strings are scanned once, and objects with
//!   many members find duplicate keys through a hash index.
//! * Integer tokens stay exact decimal text ([`Value::Int`]); tokens with `.`,
//!   `e` or `E` become correctly rounded doubles (`1e400` is infinity).
//! * `NaN`, `Infinity` and `-Infinity` are accepted, as Python does.
//! * `\ud800`-style escapes that do not form a pair are kept as lone
//!   surrogates (WTF-8 in [`PyStr`]); an escaped high+low pair is one char.
//! * A duplicate key keeps its first position and takes the last value.
//! * Errors carry Python's message (`Expecting value: line 1 column 1 (char 0)`)
//!   and `path` = `line L, column C`.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

use super::doc::Doc;
use super::value::{Object, PyStr, Value};
use super::MAX_DEPTH;
use crate::{Error, ErrorCode, Result};

/// CPython 3.12's default `sys.get_int_max_str_digits()`: `json.loads`
/// raises ValueError for an integer token with more digits than this.
pub const MAX_INT_DIGITS: usize = 4300;

/// Objects with more members than this get a hash index for duplicate-key
/// detection (below it a linear scan is faster).
const INDEX_THRESHOLD: usize = 16;

/// Parse JSON text as CPython's `json.loads(text)` does.
pub fn parse(text: &str) -> Result<Value> {
    Parser { text, b: text.as_bytes(), pos: 0, record: false, crossed_newline: false }.run(&mut Tree::default())
}

/// Parse JSON text as [`parse`] does (same acceptance, same errors), into the
/// borrowed form ([`Doc`]): strings without escapes stay slices of `text`.
pub fn parse_doc(text: &str) -> Result<Doc<'_>> {
    let mut doc = Doc::new(text);
    let root = Parser { text, b: text.as_bytes(), pos: 0, record: false, crossed_newline: false }.run(&mut doc)?;
    doc.set_root(root);
    Ok(doc)
}

/// The next JSON Lines record of `text` at or after byte `start`: skips
/// blank lines, reads one line as [`parse`] reads that line on its own
/// (same value, same error), and returns it with the offset just past the
/// line's `\n`; `None` when only blank lines remain. A line is blank when
/// `str::trim` leaves nothing.
///
/// The text is read once: a line is parsed in place, and only a line that
/// fails (or whose value spans a newline) is cut out and parsed again by
/// [`parse`], so its error names the line's own positions.
pub fn parse_record(text: &str, start: usize) -> Option<(Result<Value>, usize)> {
    record(text, start, |p| p.run(&mut Tree::default()))
}

/// JSON Lines records read one at a time into one reused [`Doc`] (the
/// borrowed form): the records, errors and offsets of [`parse_record`].
pub struct DocRecords<'a> {
    text: &'a str,
    at: usize,
    doc: Doc<'a>,
}

impl<'a> DocRecords<'a> {
    /// Read `text` from its start.
    pub fn new(text: &'a str) -> DocRecords<'a> {
        DocRecords { text, at: 0, doc: Doc::new(text) }
    }

    /// The next record (its root node) and the number of bytes of text it
    /// took (blank lines before it and its `\n` included); `None` at the end.
    pub fn next_record(&mut self) -> Option<(Result<super::Ref<'_>>, usize)> {
        let doc = &mut self.doc;
        let (r, next) = record(self.text, self.at, |p| {
            doc.reset();
            let root = p.run(doc)?;
            doc.set_root(root);
            Ok(())
        })?;
        let taken = next - self.at;
        self.at = next;
        Some((r.map(|()| self.doc.root()), taken))
    }
}

/// [`parse_record`] with any sink: `read` parses in place, or (the slow
/// path) a line alone as [`parse`] does.
fn record<'a, T>(
    text: &'a str,
    start: usize,
    mut read: impl FnMut(&mut Parser<'a>) -> Result<T>,
) -> Option<(Result<T>, usize)> {
    let b = text.as_bytes();
    let mut at = start;
    loop {
        // Skip ASCII blank lines and indentation.
        let mut line_start = at;
        while let Some(&c) = b.get(at) {
            match c {
                b'\n' => {
                    at += 1;
                    line_start = at;
                }
                b' ' | b'\t' | b'\r' => at += 1,
                _ => break,
            }
        }
        if at >= b.len() {
            return None;
        }
        let mut p = Parser { text, b, pos: at, record: true, crossed_newline: false };
        if b.get(at) != Some(&0xEF) {
            if let Ok(value) = read(&mut p) {
                if !p.crossed_newline {
                    return Some((Ok(value), p.pos));
                }
            }
        }
        // The slow path: this line alone.
        let line_end = b[line_start..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| line_start + k);
        let line = &text[line_start..line_end];
        let next = (line_end + 1).min(b.len().max(line_end));
        if line.trim().is_empty() {
            at = next;
            if at >= b.len() {
                return None;
            }
            continue;
        }
        let mut alone = Parser { text: line, b: line.as_bytes(), pos: 0, record: false, crossed_newline: false };
        return Some((read(&mut alone), next));
    }
}

/// Parse UTF-8 bytes: invalid UTF-8 is reported as [`ErrorCode::MalformedJson`]
/// (never a panic). A leading BOM is an error, as for [`parse`].
pub fn parse_bytes(bytes: &[u8]) -> Result<Value> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(e) => {
            let at = e.valid_up_to();
            // Locate the error in characters of the valid prefix.
            let prefix = std::str::from_utf8(&bytes[..at]).unwrap_or("");
            let (line, col, chars) = line_col(prefix, prefix.len());
            Err(Error::new(
                ErrorCode::MalformedJson,
                format!("line {line}, column {col}"),
                format!(
                    "'utf-8' codec can't decode byte 0x{:02x} in position {}: invalid utf-8: line {} column {} (char {})",
                    bytes[at], at, line, col, chars
                ),
            ))
        }
    }
}

/// (line, column, char index) of byte offset `pos`, Python-style: 1-based
/// line and column, columns and the char index counted in code points.
fn line_col(text: &str, pos: usize) -> (usize, usize, usize) {
    let pos = pos.min(text.len());
    let before = &text.as_bytes()[..pos];
    let line = 1 + before.iter().filter(|&&c| c == b'\n').count();
    let line_start = before.iter().rposition(|&c| c == b'\n').map(|i| i + 1).unwrap_or(0);
    let count_chars = |s: &[u8]| s.iter().filter(|&&c| (c & 0xC0) != 0x80).count();
    let col = 1 + count_chars(&before[line_start..]);
    let chars = count_chars(before);
    (line, col, chars)
}

/// A string token: a slice of the input (no escapes), or decoded text.
pub(crate) enum Token<'a> {
    Wire(&'a str),
    /// Decoded, valid UTF-8.
    Text(String),
    /// Decoded WTF-8 with at least one lone surrogate.
    Wtf8(Vec<u8>),
}

impl Token<'_> {
    fn into_pystr(self) -> PyStr {
        match self {
            Token::Wire(s) => PyStr::from(s),
            Token::Text(s) => PyStr::from(s),
            Token::Wtf8(b) => PyStr::from_wtf8(b),
        }
    }
}

/// What the parser builds: the one parser reads the text, a sink makes the
/// values ([`Tree`]: the owned [`Value`]; [`Doc`]: the borrowed form).
/// The parser guarantees the call order (a `member` always follows the key
/// of the innermost open object, an `item` an open array).
pub(crate) trait Sink<'a> {
    type Value;
    fn null(&mut self) -> Self::Value;
    fn boolean(&mut self, b: bool) -> Self::Value;
    /// Integer digits: Python's decimal text, except that `-0` comes as
    /// its token `-0` (Python reads 0, JavaScript `-0`); sinks normalise it.
    fn int(&mut self, digits: &'a str) -> Self::Value;
    /// A float; `lexeme` is its number token (None for `NaN`/`Infinity`).
    fn float(&mut self, f: f64, lexeme: Option<&'a str>) -> Self::Value;
    /// A float number token (with `.` or an exponent), not yet read: a sink
    /// that keeps only the lexeme of most floats need not read them.
    fn float_token(&mut self, lexeme: &'a str) -> Self::Value {
        self.float(read_float(lexeme), Some(lexeme))
    }
    fn string(&mut self, s: Token<'a>) -> Self::Value;
    fn empty_array(&mut self) -> Self::Value;
    fn empty_object(&mut self) -> Self::Value;
    fn open_array(&mut self);
    fn open_object(&mut self, first_key: Token<'a>);
    /// Append to the innermost open array.
    fn item(&mut self, v: Self::Value);
    /// Insert under the pending key of the innermost open object (dict semantics).
    fn member(&mut self, v: Self::Value);
    /// The next member's key.
    fn key(&mut self, k: Token<'a>);
    fn close_array(&mut self) -> Self::Value;
    fn close_object(&mut self) -> Self::Value;
}

enum Frame {
    Array(Vec<Value>),
    Object(ObjectBuilder),
}

/// The [`Value`] sink.
#[derive(Default)]
struct Tree {
    frames: Vec<Frame>,
}

impl<'a> Sink<'a> for Tree {
    type Value = Value;
    fn null(&mut self) -> Value {
        Value::Null
    }
    fn boolean(&mut self, b: bool) -> Value {
        Value::Bool(b)
    }
    fn int(&mut self, digits: &'a str) -> Value {
        Value::Int(if digits == "-0" { "0" } else { digits }.into())
    }
    fn float(&mut self, f: f64, _lexeme: Option<&'a str>) -> Value {
        Value::Float(f)
    }
    fn string(&mut self, s: Token<'a>) -> Value {
        Value::Str(s.into_pystr())
    }
    fn empty_array(&mut self) -> Value {
        Value::Array(Vec::new())
    }
    fn empty_object(&mut self) -> Value {
        Value::Object(Object::new())
    }
    fn open_array(&mut self) {
        self.frames.push(Frame::Array(Vec::new()));
    }
    fn open_object(&mut self, first_key: Token<'a>) {
        self.frames.push(Frame::Object(ObjectBuilder::new(first_key.into_pystr())));
    }
    fn item(&mut self, v: Value) {
        if let Some(Frame::Array(items)) = self.frames.last_mut() {
            items.push(v);
        }
    }
    fn member(&mut self, v: Value) {
        if let Some(Frame::Object(obj)) = self.frames.last_mut() {
            let key = obj.key.take().unwrap_or_default();
            obj.insert(key, v);
        }
    }
    fn key(&mut self, k: Token<'a>) {
        if let Some(Frame::Object(obj)) = self.frames.last_mut() {
            obj.key = Some(k.into_pystr());
        }
    }
    fn close_array(&mut self) -> Value {
        match self.frames.pop() {
            Some(Frame::Array(items)) => Value::Array(items),
            _ => Value::Null,
        }
    }
    fn close_object(&mut self) -> Value {
        match self.frames.pop() {
            Some(Frame::Object(obj)) => Value::Object(Object::from_unique(obj.members)),
            _ => Value::Null,
        }
    }
}

/// Members of an object under construction, with Python dict semantics.
struct ObjectBuilder {
    members: Vec<(PyStr, Value)>,
    index: Option<KeyIndex>,
    key: Option<PyStr>,
}

/// Open-addressing table of member positions, keyed by a randomly seeded
/// SipHash of the key bytes (so crafted keys cannot force collisions).
pub(crate) struct KeyIndex {
    pub(crate) slots: Vec<u32>,
    hasher: RandomState,
}

pub(crate) const EMPTY: u32 = u32::MAX;

impl KeyIndex {
    /// An index of the `n` keys `key(0..n)` (unique).
    #[inline(never)]
    pub(crate) fn build<'k>(n: usize, key: &dyn Fn(usize) -> &'k [u8]) -> KeyIndex {
        let mut index = KeyIndex { slots: Vec::new(), hasher: RandomState::new() };
        index.rehash(n, key, (n * 2 + 1).next_power_of_two());
        index
    }

    fn rehash<'k>(&mut self, n: usize, key: &dyn Fn(usize) -> &'k [u8], size: usize) {
        self.slots = vec![EMPTY; size];
        for i in 0..n {
            let slot = self.probe(key, key(i));
            self.slots[slot] = i as u32;
        }
    }

    /// The slot holding `key`, or the empty slot where it would go.
    fn probe<'k>(&self, key_at: &dyn Fn(usize) -> &'k [u8], key: &[u8]) -> usize {
        let mask = self.slots.len() - 1;
        let mut slot = (self.hasher.hash_one(key) as usize) & mask;
        loop {
            let at = self.slots[slot];
            if at == EMPTY || key_at(at as usize) == key {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Insert-or-find `key` among `n` keys: `Some(position)` when present,
    /// else records position `n` for it (the caller appends it) and grows.
    #[inline(never)]
    pub(crate) fn insert<'k>(&mut self, n: usize, key_at: &dyn Fn(usize) -> &'k [u8], key: &[u8]) -> Option<usize> {
        let slot = self.probe(key_at, key);
        let at = self.slots[slot];
        if at != EMPTY {
            return Some(at as usize);
        }
        self.slots[slot] = n as u32;
        None
    }

    /// After appending the `n`th key: keep the load factor at most 1/2
    /// (doubling: 8 to 16 bytes of slots per key, where quadrupling took up
    /// to 32, the most memory per body byte of a wide object).
    #[inline(never)]
    pub(crate) fn grown<'k>(&mut self, n: usize, key_at: &dyn Fn(usize) -> &'k [u8]) {
        if n * 2 > self.slots.len() {
            let size = self.slots.len() * 2;
            self.rehash(n, key_at, size);
        }
    }
}

impl ObjectBuilder {
    fn new(key: PyStr) -> ObjectBuilder {
        ObjectBuilder { members: Vec::new(), index: None, key: Some(key) }
    }

    fn insert(&mut self, key: PyStr, value: Value) {
        if let Some(index) = &mut self.index {
            let members = &self.members;
            if let Some(at) = index.insert(members.len(), &|i| members[i].0.as_bytes(), key.as_bytes()) {
                self.members[at].1 = value;
                return;
            }
            self.members.push((key, value));
            let members = &self.members;
            index.grown(members.len(), &|i| members[i].0.as_bytes());
            return;
        }
        if let Some(slot) = self.members.iter_mut().find(|(k, _)| *k == key) {
            slot.1 = value;
            return;
        }
        self.members.push((key, value));
        if self.members.len() > INDEX_THRESHOLD {
            let members = &self.members;
            self.index = Some(KeyIndex::build(members.len(), &|i| members[i].0.as_bytes()));
        }
    }
}

/// A number token.
enum Number<'a> {
    Int(&'a str),
    /// With `.` or an exponent; read by the sink ([`Sink::float_token`]).
    Float(&'a str),
}

/// The value of a float number token as CPython's `float(str)` reads it
/// (correctly rounded, overflowing to infinity). A token of the JSON number
/// grammar always reads (`NaN` is unreachable).
pub(super) fn read_float(token: &str) -> f64 {
    crate::py::float::parse_f64(token).unwrap_or(f64::NAN)
}

struct Parser<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    /// JSON Lines mode ([`parse_record`]): the value ends its line.
    record: bool,
    /// Whitespace skipped so far included a `\n`.
    crossed_newline: bool,
}

impl<'a> Parser<'a> {
    fn err(&self, msg: &str, pos: usize) -> Error {
        let (line, col, chars) = line_col(self.text, pos);
        Error::new(
            ErrorCode::MalformedJson,
            format!("line {line}, column {col}"),
            format!("{msg}: line {line} column {col} (char {chars})"),
        )
    }

    fn too_deep(&self, pos: usize) -> Error {
        let (line, col, _) = line_col(self.text, pos);
        Error::new(
            ErrorCode::NestingTooDeep,
            format!("line {line}, column {col}"),
            format!("arrays and objects nest deeper than {MAX_DEPTH} levels at line {line} column {col}"),
        )
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if c == b' ' || c == b'\n' || c == b'\r' || c == b'\t' {
                self.crossed_newline |= c == b'\n';
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn run<S: Sink<'a>>(&mut self, sink: &mut S) -> Result<S::Value> {
        if !self.record && self.b.starts_with(&[0xEF, 0xBB, 0xBF]) {
            return Err(self.err("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0));
        }
        self.skip_ws();
        // The open containers, innermost last: true for an object.
        let mut stack: Vec<bool> = Vec::new();
        'value: loop {
            // Read one value starting at `pos` (whitespace already skipped).
            let start = self.pos;
            let mut value = match self.peek() {
                Some(b'[') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.too_deep(start));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        sink.empty_array()
                    } else {
                        stack.push(false);
                        sink.open_array();
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.too_deep(start));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    match self.peek() {
                        Some(b'}') => {
                            self.pos += 1;
                            sink.empty_object()
                        }
                        Some(b'"') => {
                            let key = self.key_and_colon()?;
                            stack.push(true);
                            sink.open_object(key);
                            continue 'value;
                        }
                        _ => return Err(self.err("Expecting property name enclosed in double quotes", self.pos)),
                    }
                }
                Some(b'"') => {
                    let s = self.string()?;
                    sink.string(s)
                }
                Some(b'n') if self.b[start..].starts_with(b"null") => {
                    self.pos += 4;
                    sink.null()
                }
                Some(b't') if self.b[start..].starts_with(b"true") => {
                    self.pos += 4;
                    sink.boolean(true)
                }
                Some(b'f') if self.b[start..].starts_with(b"false") => {
                    self.pos += 5;
                    sink.boolean(false)
                }
                Some(b'N') if self.b[start..].starts_with(b"NaN") => self.non_finite(sink, f64::NAN, 3),
                Some(b'I') if self.b[start..].starts_with(b"Infinity") => self.non_finite(sink, f64::INFINITY, 8),
                Some(b'-') if self.b[start..].starts_with(b"-Infinity") => self.non_finite(sink, f64::NEG_INFINITY, 9),
                Some(b'-') | Some(b'0'..=b'9') => match self.number()? {
                    Number::Int(digits) => sink.int(digits),
                    Number::Float(lexeme) => sink.float_token(lexeme),
                },
                _ => return Err(self.err("Expecting value", start)),
            };
            // Attach the finished value to its parent, closing containers.
            loop {
                match stack.last() {
                    None => return self.end(value),
                    Some(false) => {
                        sink.item(value);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_ws();
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                stack.pop();
                                value = sink.close_array();
                            }
                            _ => return Err(self.err("Expecting ',' delimiter", self.pos)),
                        }
                    }
                    Some(true) => {
                        sink.member(value);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_ws();
                                if self.peek() != Some(b'"') {
                                    return Err(self.err("Expecting property name enclosed in double quotes", self.pos));
                                }
                                let key = self.key_and_colon()?;
                                sink.key(key);
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                stack.pop();
                                value = sink.close_object();
                            }
                            _ => return Err(self.err("Expecting ',' delimiter", self.pos)),
                        }
                    }
                }
            }
        }
    }

    /// After the top-level value: the end of the text (whitespace may
    /// follow), or in JSON Lines mode the end of its line. A step of
    /// [`Parser::run`], inlined there: `run`'s code stays what it was.
    #[inline(always)]
    fn end<V>(&mut self, value: V) -> Result<V> {
        if self.record {
            // Only spaces, tabs and `\r` may follow on the line.
            while let Some(b' ' | b'\t' | b'\r') = self.peek() {
                self.pos += 1;
            }
            match self.peek() {
                None => return Ok(value),
                Some(b'\n') => {
                    self.pos += 1;
                    return Ok(value);
                }
                Some(_) => return Err(self.err("Extra data", self.pos)),
            }
        }
        self.skip_ws();
        if self.pos != self.b.len() {
            return Err(self.err("Extra data", self.pos));
        }
        Ok(value)
    }

    /// `NaN`, `Infinity` or `-Infinity` (Python's extensions, `len` bytes
    /// at `pos`, already matched): step over it, make its float.
    #[inline(always)]
    fn non_finite<S: Sink<'a>>(&mut self, sink: &mut S, f: f64, len: usize) -> S::Value {
        self.pos += len;
        sink.float(f, None)
    }

    /// A member name (at `"`), the `:` after it, and the whitespace after that.
    fn key_and_colon(&mut self) -> Result<Token<'a>> {
        // A key is short and nearly always plain and followed by its `:`:
        // one 16-byte block test finds its end (the string scan costs more
        // to set up than such a key has bytes); anything else (an escape, a
        // control char, a longer key, space before the colon, the input's
        // last bytes) takes the general path from the key's start.
        let (b, open) = (self.b, self.pos);
        if let Some(t) = first_special16(b, open + 1) {
            let end = open + 1 + t;
            if b.get(end) == Some(&b'"') && b.get(end + 1) == Some(&b':') {
                self.pos = end + 2;
                self.skip_ws();
                return Ok(Token::Wire(ascii_cut(self.text, open + 1, end)));
            }
        }
        let key = self.string()?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.err("Expecting ':' delimiter", self.pos));
        }
        self.pos += 1;
        self.skip_ws();
        Ok(key)
    }

    /// A number token, as CPython's scanner reads it: `-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`
    /// (a `.` or `e` not followed by digits is left unread).
    fn number(&mut self) -> Result<Number<'a>> {
        let b = self.b;
        let start = self.pos;
        let mut i = start;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                i += 1;
                while matches!(b.get(i), Some(b'0'..=b'9')) {
                    i += 1;
                }
            }
            _ => return Err(self.err("Expecting value", start)),
        }
        let int_end = i;
        let mut is_float = false;
        if b.get(i) == Some(&b'.') && matches!(b.get(i + 1), Some(b'0'..=b'9')) {
            i += 2;
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
            is_float = true;
        }
        if matches!(b.get(i), Some(b'e') | Some(b'E')) {
            let mut j = i + 1;
            if matches!(b.get(j), Some(b'+') | Some(b'-')) {
                j += 1;
            }
            if matches!(b.get(j), Some(b'0'..=b'9')) {
                while matches!(b.get(j), Some(b'0'..=b'9')) {
                    j += 1;
                }
                i = j;
                is_float = true;
            }
        }
        self.pos = i;
        let token = ascii_cut(self.text, start, i);
        if is_float {
            Ok(Number::Float(token))
        } else {
            debug_assert_eq!(int_end, i);
            let digits = token.strip_prefix('-').unwrap_or(token);
            if digits.len() > MAX_INT_DIGITS {
                return Err(self.err(
                    &format!(
                        "Exceeds the limit ({MAX_INT_DIGITS} digits) for integer string conversion: value has {} digits",
                        digits.len()
                    ),
                    start,
                ));
            }
            // `-0` stays `-0` (the sinks normalise it; the document keeps the
            // sign a JavaScript reader sees); `0` is `0`.
            Ok(Number::Int(token))
        }
    }

    /// A string token starting at `"`.
    fn string(&mut self) -> Result<Token<'a>> {
        let b = self.b;
        let open = self.pos;
        let mut i = open + 1;
        // Fast path: no escapes.
        let chunk_start = i;
        loop {
            i = skip_plain(b, i);
            match b.get(i) {
                None => return Err(self.err("Unterminated string starting at", open)),
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(Token::Wire(ascii_cut(self.text, chunk_start, i)));
                }
                Some(b'\\') => break,
                Some(&c) if c < 0x20 => return Err(self.err("Invalid control character at", i)),
                Some(_) => i += 1,
            }
        }
        // Slow path: build WTF-8.
        let mut out: Vec<u8> = Vec::with_capacity(i - chunk_start + 16);
        out.extend_from_slice(&b[chunk_start..i]);
        let mut lone = false;
        loop {
            // Copy a run of plain bytes.
            let run = i;
            i = skip_plain(b, i);
            out.extend_from_slice(&b[run..i]);
            match b.get(i) {
                None => return Err(self.err("Unterminated string starting at", open)),
                Some(b'"') => {
                    self.pos = i + 1;
                    break;
                }
                Some(b'\\') => {
                    let esc = i;
                    let Some(&e) = b.get(i + 1) else {
                        return Err(self.err("Unterminated string starting at", open));
                    };
                    i += 2;
                    let simple = match e {
                        b'"' => Some(b'"'),
                        b'\\' => Some(b'\\'),
                        b'/' => Some(b'/'),
                        b'b' => Some(0x08),
                        b'f' => Some(0x0C),
                        b'n' => Some(b'\n'),
                        b'r' => Some(b'\r'),
                        b't' => Some(b'\t'),
                        b'u' => None,
                        _ => return Err(self.err("Invalid \\escape", esc)),
                    };
                    if let Some(c) = simple {
                        out.push(c);
                        continue;
                    }
                    let Some(mut cp) = hex4(b, i) else {
                        return Err(self.err("Invalid \\uXXXX escape", esc + 1));
                    };
                    i += 4;
                    if (0xD800..0xDC00).contains(&cp) && i + 6 < b.len() && b[i] == b'\\' && b[i + 1] == b'u' {
                        let Some(low) = hex4(b, i + 2) else {
                            return Err(self.err("Invalid \\uXXXX escape", i + 1));
                        };
                        if (0xDC00..0xE000).contains(&low) {
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                            i += 6;
                        }
                    }
                    if (0xD800..0xE000).contains(&cp) {
                        lone = true;
                    }
                    push_wtf8(&mut out, cp);
                }
                Some(_) => return Err(self.err("Invalid control character at", i)),
            }
        }
        if lone {
            Ok(Token::Wtf8(out))
        } else {
            // Only valid UTF-8 was written (input slices and encoded scalars).
            match String::from_utf8(out) {
                Ok(s) => Ok(Token::Text(s)),
                Err(e) => Ok(Token::Wtf8(e.into_bytes())),
            }
        }
    }
}

/// `text[a..b]` where `a <= b <= text.len()` and both ends are char boundaries because the
/// parser has read ASCII bytes there: after a string's opening `"` and at its closing `"`, or
/// around a number's ASCII token. `&text[a..b]` checked both boundaries again (a call in wasm,
/// ~40,000 times for a 200-result body).
#[inline(always)]
fn ascii_cut(text: &str, a: usize, b: usize) -> &str {
    debug_assert!(a <= b && text.is_char_boundary(a) && text.is_char_boundary(b));
    // SAFETY: as above: in bounds, and both ends at char boundaries (next to ASCII bytes the parser matched).
    unsafe { text.get_unchecked(a..b) }
}

/// The index of the first byte at or after `i` that ends a plain run inside
/// a string (`"`, `\\` or a control char below 0x20), or `b.len()`.
///
/// Sixteen bytes at a time with a branch-free test per block that the
/// compiler turns into vector compares (SSE2 natively, SIMD128 in wasm when
/// enabled; plain word operations otherwise); a flagged block is then
/// finished byte by byte.
#[inline]
pub(crate) fn skip_plain(b: &[u8], mut i: usize) -> usize {
    // wasm: explicit SIMD128 (LLVM does not vectorize the block test there:
    // without this the wasm went straight to the words).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::*;
        // The constants stay in locals (`black_box`): LLVM would otherwise
        // rematerialize each `v128.const` inside the loop, and V8 builds one
        // with several instructions each time.
        let (two, space, backslash) = core::hint::black_box((u8x16_splat(2), u8x16_splat(0x20), u8x16_splat(b'\\')));
        // `x ^ 2 <= 0x20` holds for exactly the control chars (0x00..0x1F, permuted) and `"` (0x22 -> 0x20);
        // an unsigned `<=` is two x64 instructions in V8 (`<` four).
        let special = |v: v128| v128_or(u8x16_le(v128_xor(v, two), space), u8x16_eq(v, backslash));
        // Thirty-two bytes a step (one test for both blocks), then one block.
        while i + 32 <= b.len() {
            // SAFETY: b[i..i + 32] is in bounds; v128_load reads unaligned.
            let (lo, hi) = unsafe {
                let p = b.as_ptr().add(i);
                (special(v128_load(p.cast::<v128>())), special(v128_load(p.add(16).cast::<v128>())))
            };
            if u8x16_bitmask(v128_or(lo, hi)) != 0 {
                let bits = u8x16_bitmask(lo) as u32 | (u8x16_bitmask(hi) as u32) << 16;
                return i + bits.trailing_zeros() as usize;
            }
            i += 32;
        }
        if i + 16 <= b.len() {
            // SAFETY: b[i..i + 16] is in bounds; v128_load reads unaligned.
            let bits = u8x16_bitmask(special(unsafe { v128_load(b.as_ptr().add(i).cast::<v128>()) }));
            if bits != 0 {
                return i + bits.trailing_zeros() as usize;
            }
            i += 16;
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    while let Some(block) = b.get(i..i + 16).and_then(|s| <&[u8; 16]>::try_from(s).ok()) {
        if block_has_special(block) {
            break;
        }
        i += 16;
    }
    // Words of eight: the lowest flagged byte of the SWAR test is exact
    // (borrows only ever flag bytes above a true hit), so the first special
    // byte of a word is found without a byte loop.
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0; 8]));
        let zero = |x: u64| x.wrapping_sub(LO) & !x;
        let special =
            (zero(w ^ (LO * b'"' as u64)) | zero(w ^ (LO * b'\\' as u64)) | (w.wrapping_sub(LO * 0x20) & !w)) & HI;
        if special != 0 {
            return i + (special.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

/// The offset of the first `"`, `\\` or control char in `b[i..i + 16]`,
/// when those bytes are in bounds and hold one (what [`skip_plain`] finds
/// from `i`, when it is in that block).
#[inline(always)]
fn first_special16(b: &[u8], i: usize) -> Option<usize> {
    let block = b.get(i..i + 16)?;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::*;
        // SAFETY: `block` is 16 bytes; v128_load reads unaligned.
        let v = unsafe { v128_load(block.as_ptr().cast::<v128>()) };
        // The lane test of `skip_plain`.
        let special =
            v128_or(u8x16_le(v128_xor(v, u8x16_splat(2)), u8x16_splat(0x20)), u8x16_eq(v, u8x16_splat(b'\\')));
        let bits = u8x16_bitmask(special);
        (bits != 0).then(|| bits.trailing_zeros() as usize)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        const LO: u64 = 0x0101_0101_0101_0101;
        const HI: u64 = 0x8080_8080_8080_8080;
        let word = |w: &[u8]| {
            let w = u64::from_le_bytes(<[u8; 8]>::try_from(w).unwrap_or([0; 8]));
            let zero = |x: u64| x.wrapping_sub(LO) & !x;
            (zero(w ^ (LO * b'"' as u64)) | zero(w ^ (LO * b'\\' as u64)) | (w.wrapping_sub(LO * 0x20) & !w)) & HI
        };
        let bits = word(&block[..8]) as u128 | (word(&block[8..]) as u128) << 64;
        (bits != 0).then(|| (bits.trailing_zeros() / 8) as usize)
    }
}

/// Does the block hold a `"`, a `\\` or a control char? Written as a
/// reduction over a fixed-size array so that it compiles to vector compares.
#[inline(always)]
#[cfg(not(target_arch = "wasm32"))]
fn block_has_special(block: &[u8; 16]) -> bool {
    let mut m = 0u8;
    for &c in block {
        m |= ((c == b'"') as u8) | ((c == b'\\') as u8) | ((c < 0x20) as u8);
    }
    m != 0
}

fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let digits = b.get(i..i + 4)?;
    let mut v = 0u32;
    for &d in digits {
        let x = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return None,
        };
        v = (v << 4) | x as u32;
    }
    Some(v)
}

/// Append code point `cp` (surrogates allowed) as WTF-8.
pub(crate) fn push_wtf8(out: &mut Vec<u8>, cp: u32) {
    if cp < 0x80 {
        out.push(cp as u8);
    } else if cp < 0x800 {
        out.push(0xC0 | (cp >> 6) as u8);
        out.push(0x80 | (cp & 0x3F) as u8);
    } else if cp < 0x10000 {
        out.push(0xE0 | (cp >> 12) as u8);
        out.push(0x80 | ((cp >> 6) & 0x3F) as u8);
        out.push(0x80 | (cp & 0x3F) as u8);
    } else {
        out.push(0xF0 | (cp >> 18) as u8);
        out.push(0x80 | ((cp >> 12) & 0x3F) as u8);
        out.push(0x80 | ((cp >> 6) & 0x3F) as u8);
        out.push(0x80 | (cp & 0x3F) as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> Error {
        parse(text).expect_err(text)
    }

    #[test]
    fn string_scan_lane_test() {
        // The wasm block test of `skip_plain`, byte by byte: `x ^ 2 <= 0x20` or `\\`.
        for x in 0..=255u8 {
            assert_eq!((x ^ 2) <= 0x20 || x == b'\\', x < 0x20 || x == b'"' || x == b'\\', "{x:#04x}");
        }
        // And the scan at every position, before and across 16- and 32-byte steps.
        for n in 0..70 {
            for at in 0..n {
                for c in [0x00, 0x1F, b'"', b'\\', 0x20, 0x21, 0x23, 0x5B, 0x7F, 0xC3] {
                    let mut b = "é".repeat(n).into_bytes()[..n].to_vec();
                    b[at] = c;
                    let stop = b.iter().position(|&x| x < 0x20 || x == b'"' || x == b'\\').unwrap_or(n);
                    for from in [0, at.min(3)] {
                        assert_eq!(skip_plain(&b, from), stop.max(from), "{n} {at} {c:#04x} {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn scalars() {
        assert_eq!(parse("null").unwrap(), Value::Null);
        assert_eq!(parse(" true ").unwrap(), Value::Bool(true));
        assert_eq!(parse("-0").unwrap(), Value::Int("0".into()));
        assert_eq!(parse("-12").unwrap(), Value::Int("-12".into()));
        assert_eq!(parse("18446744073709551616").unwrap(), Value::Int("18446744073709551616".into()));
        assert!(matches!(parse("-0.0").unwrap(), Value::Float(f) if f == 0.0 && f.is_sign_negative()));
        assert_eq!(parse("1e400").unwrap(), Value::Float(f64::INFINITY));
        assert_eq!(parse("-1E+999").unwrap(), Value::Float(f64::NEG_INFINITY));
        assert_eq!(parse("-Infinity").unwrap(), Value::Float(f64::NEG_INFINITY));
        assert!(matches!(parse("NaN").unwrap(), Value::Float(f) if f.is_nan()));
        assert_eq!(parse("1E5").unwrap(), Value::Float(100000.0));
    }

    #[test]
    fn malformed() {
        for bad in [
            "",
            "  ",
            "\u{feff}{}",
            "nan",
            "-NaN",
            "+Infinity",
            "infinity",
            "01",
            "1.",
            "1e",
            "-",
            ".5",
            "[1,]",
            "{\"a\":1,}",
            "{'a':1}",
            "{\"a\" 1}",
            "\"\t\"",
            "\"\\x\"",
            "\"\\u12\"",
            "\"abc",
            "[1] [2]",
            "{} {}",
            "/*c*/1",
            "\u{a0}1",
            "\u{b}1",
            "undefined",
            "\"\\\"",
            "[",
            "{\"a\"",
            "{\"a\":",
            "tru",
            "nul",
        ] {
            assert_eq!(err(bad).code, ErrorCode::MalformedJson, "{bad:?}");
        }
    }

    #[test]
    fn python_messages() {
        let e = err("");
        assert_eq!(e.message, "Expecting value: line 1 column 1 (char 0)");
        assert_eq!(e.path, "line 1, column 1");
        let e = err("{\n  \"a\": 1,\n  \"b\" 2}");
        assert_eq!(e.message, "Expecting ':' delimiter: line 3 column 7 (char 18)");
        let e = err("[1] x");
        assert_eq!(e.message, "Extra data: line 1 column 5 (char 4)");
    }

    #[test]
    fn strings_and_surrogates() {
        assert_eq!(parse(r#""a\u00e9\n\/""#).unwrap(), Value::str("aé\n/"));
        assert_eq!(parse(r#""\uD83D\uDE00""#).unwrap(), Value::str("😀"));
        let Value::Str(s) = parse(r#""\ud800""#).unwrap() else { panic!() };
        assert_eq!(s.as_bytes(), &[0xED, 0xA0, 0x80]);
        let Value::Str(s) = parse(r#""\ud83dA""#).unwrap() else { panic!() };
        assert_eq!(s.code_points().collect::<Vec<_>>(), vec![0xD83D, 0x41]);
        let Value::Str(s) = parse(r#""\ud83d\u0041""#).unwrap() else { panic!() };
        assert_eq!(s.code_points().collect::<Vec<_>>(), vec![0xD83D, 0x41]);
        let Value::Str(s) = parse(r#""\udc00\ud800""#).unwrap() else { panic!() };
        assert_eq!(s.code_points().collect::<Vec<_>>(), vec![0xDC00, 0xD800]);
    }

    /// JSON Lines records equal `str::lines` + `parse` per non-blank line:
    /// values and errors (with the line's own positions), blank lines of
    /// every kind, CRLF, a value spanning lines, a BOM line, trailing data.
    #[test]
    fn records_equal_per_line_parse() {
        let texts = [
            "{\"a\":1}\n{\"b\":[1,2]}\n",
            "\n\n  {\"a\":1}  \r\n\t\n[1]\r\n",
            "{\"a\":\n1}\n{\"b\":2}",
            "{\"a\":1} x\n2\n",
            "\u{3000}\n{\"a\":1}\n\u{a0}\n",
            "\u{feff}{\"a\":1}\n{}",
            "{\"a\":1}{\"b\":2}\n",
            "{\"s\":\"x\\ny\"}\n{\"t\":\"\u{10000}\"}",
            "  x\n",
            "",
            "\n\n",
            "{\"a\":1}",
            "nul\n[",
        ];
        for text in texts {
            let want: Vec<String> =
                text.lines().filter(|l| !l.trim().is_empty()).map(|l| format!("{:?}", parse(l))).collect();
            let mut got = Vec::new();
            let mut at = 0;
            while let Some((r, next)) = parse_record(text, at) {
                got.push(format!("{r:?}"));
                assert!(next > at);
                at = next;
            }
            assert_eq!(got, want, "{text:?}");
            // The borrowed form: the same records, errors and offsets.
            let (mut records, mut at, mut docs) = (DocRecords::new(text), 0, Vec::new());
            while let Some((r, taken)) = records.next_record() {
                docs.push(format!("{:?}", r.map(|d| d.to_value())));
                at += taken;
                assert_eq!(parse_record(text, at - taken).map(|(_, n)| n), Some(at));
            }
            assert_eq!(docs, want, "{text:?}");
        }
    }

    /// Keys (read by `key_and_colon`'s one-block fast path when plain, short,
    /// followed by `:` and 16 bytes from the end, else by the string scan):
    /// every mix of plain ASCII and non-ASCII chars, escapes, lone
    /// surrogates, 0-30 pieces, with or without space before the colon, at
    /// every distance from the end of the input, in all three readers; raw
    /// control chars and unterminated keys give their errors at their chars.
    #[test]
    fn keys_read_as_the_string_scan_reads_them() {
        let pieces: [(&str, &[u8]); 10] = [
            ("a", b"a"),
            ("Z", b"Z"),
            ("é", "é".as_bytes()),
            ("東", "東".as_bytes()),
            ("\\\"", b"\""),
            ("\\\\", b"\\"),
            ("\\u0041", b"A"),
            ("\\ud800", &[0xED, 0xA0, 0x80]),
            (" ", b" "),
            ("_", b"_"),
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for case in 0..6000 {
            let (mut wire, mut want) = (String::new(), Vec::new());
            let plain = case % 2 == 0;
            for _ in 0..next(31) {
                let (w, d) = pieces[if plain { [0, 1, 2, 3, 8, 9][next(6)] } else { next(10) }];
                wire.push_str(w);
                want.extend_from_slice(d);
            }
            let sep = ["", " ", "\n\t"][next(3)];
            let tail = " ".repeat(next(20));
            let text = format!("{{\"{wire}\"{sep}:1,\"k\":2}}{tail}");
            let v = parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e:?}"));
            let o = v.as_object().unwrap();
            assert_eq!(o.members()[0].0.as_bytes(), &want[..], "{text:?}");
            assert_eq!(o.len(), if want == b"k" { 1 } else { 2 }, "{text:?}");
            assert_eq!(parse_doc(&text).unwrap().root().to_value(), v, "{text:?}");
            if !sep.contains('\n') {
                assert_eq!(parse_record(&text, 0).unwrap().0.unwrap(), v, "{text:?}");
            }
            // A raw control char inside the key, and the key left open at the end.
            let at = text[..text.len() - tail.len()].find(":1").unwrap() - sep.len() - 1;
            let cut = &text[..at];
            let bad = format!("{cut}\u{1}\"{sep}:1}}{tail}");
            let chars = cut.chars().count();
            let want_err = format!("Invalid control character at: line 1 column {} (char {chars})", chars + 1);
            assert_eq!(parse(&bad).unwrap_err().message, want_err, "{bad:?}");
            if !cut.ends_with('\\') {
                assert_eq!(
                    parse(cut).unwrap_err().message,
                    "Unterminated string starting at: line 1 column 2 (char 1)"
                );
            }
        }
    }

    #[test]
    fn duplicate_keys() {
        let v = parse(r#"{"z":1,"y":2,"z":3}"#).unwrap();
        let o = v.as_object().unwrap();
        let keys: Vec<_> = o.iter().map(|(k, _)| k.to_string()).collect();
        assert_eq!(keys, ["z", "y"]);
        assert_eq!(o.get("z"), Some(&Value::int(3)));
        // Large object: index path.
        let mut text = String::from("{");
        for i in 0..100 {
            text.push_str(&format!("\"k{i}\":{i},"));
        }
        text.push_str("\"k5\":\"last\"}");
        let v = parse(&text).unwrap();
        let o = v.as_object().unwrap();
        assert_eq!(o.len(), 100);
        assert_eq!(o.members()[5].1, Value::str("last"));
    }

    #[test]
    fn depth_limit() {
        let ok = "[".repeat(512) + &"]".repeat(512);
        assert!(parse(&ok).is_ok());
        let deep = "[".repeat(513) + &"]".repeat(513);
        assert_eq!(err(&deep).code, ErrorCode::NestingTooDeep);
        let unclosed = "[".repeat(100_000);
        assert_eq!(err(&unclosed).code, ErrorCode::NestingTooDeep);
        // A syntax error before the limit is reached wins.
        let early = "[x".to_string() + &"[".repeat(1000);
        assert_eq!(err(&early).code, ErrorCode::MalformedJson);
    }

    #[test]
    fn int_digit_limit() {
        assert!(parse(&"1".repeat(4300)).is_ok());
        assert_eq!(err(&"1".repeat(4301)).code, ErrorCode::MalformedJson);
    }

    #[test]
    fn invalid_utf8_bytes() {
        let e = parse_bytes(b"\"a\xff\"").unwrap_err();
        assert_eq!(e.code, ErrorCode::MalformedJson);
        assert_eq!(parse_bytes(b"[1]").unwrap(), Value::Array(vec![Value::int(1)]));
    }
}
