//! The parser's other output: a borrowed, flat document ([`Doc`]).
//!
//! [`super::parse_doc`] reads exactly what [`super::parse`] reads (same
//! parser, same errors, same dict semantics for duplicate keys), but instead
//! of a heap tree of owned values it fills three flat arrays: the nodes,
//! the children of arrays and the members of objects. A string without
//! escapes (nearly all) stays a slice of the input text; integers keep their
//! lexeme as a slice. Nothing is allocated per value, and dropping the
//! document frees a handful of vectors.
//!
//! The receipt verifier reads a whole response body this way: it hashes
//! contents straight from the wire bytes, compares fields in place and
//! prints only the receipt canonically ([`super::write`] prints both forms).
//!
//! [`Ref`] is a cheap copyable handle on one node, with the read API of
//! [`Value`](super::Value) (`get`, `as_array`, `as_object`, `as_str`, ...).

use std::borrow::Cow;

use std::hash::BuildHasher;

use super::parse::{Sink, Token};
use super::value::lossy;

/// Objects with at most this many members find duplicate keys while they
/// are built (a key filter and, on a filter hit, a scan of at most this many
/// keys); a bigger object keeps every member until it closes and then merges
/// duplicates through a hash table sized to it ([`Doc::close_object`]):
/// linear time either way, and no index that doubles while the object grows.
const INDEX_THRESHOLD: usize = 32;

/// The size of a chunk of [`Chunks`] (bytes, at most).
const CHUNK_BYTES: usize = 64 << 10;

/// A growable array in chunks of at most [`CHUNK_BYTES`]: growing never
/// copies (a doubling `Vec` holds its old and new buffers at once, then up to
/// twice its length: 3x at the worst moment), so the slack is one chunk.
/// Chunks emptied by [`Chunks::drain_from`] and [`Chunks::truncate`] are
/// freed at once (wasm: the allocator reuses them for the next array) or
/// kept for the next chunk (native: fresh pages cost page faults).
/// All chunks but the last are full.
struct Chunks<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
    #[cfg(not(target_arch = "wasm32"))]
    free: Vec<Vec<T>>,
}

impl<T: Copy> Chunks<T> {
    const SHIFT: u32 = usize::BITS - 1 - (CHUNK_BYTES / std::mem::size_of::<T>()).leading_zeros();
    const LEN: usize = 1 << Self::SHIFT;
    const MASK: usize = Self::LEN - 1;

    const fn new() -> Chunks<T> {
        Chunks {
            chunks: Vec::new(),
            len: 0,
            #[cfg(not(target_arch = "wasm32"))]
            free: Vec::new(),
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn push(&mut self, x: T) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < Self::LEN => c.push(x),
            _ => self.grow(x),
        }
        self.len += 1;
    }

    /// A new chunk holding `x`: the first grows as a `Vec` does (a small
    /// document stays small), the others are allocated whole.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, x: T) {
        let fresh = || if self.chunks.is_empty() { Vec::new() } else { Vec::with_capacity(Self::LEN) };
        #[cfg(not(target_arch = "wasm32"))]
        let mut c = self.free.pop().unwrap_or_else(fresh);
        #[cfg(target_arch = "wasm32")]
        let mut c = fresh();
        c.push(x);
        self.chunks.push(c);
    }

    /// Append a slice: one copy per chunk it lands in.
    #[inline]
    fn extend(&mut self, mut s: &[T]) {
        while !s.is_empty() {
            let room = match self.chunks.last() {
                Some(c) if c.len() < Self::LEN => Self::LEN - c.len(),
                _ => {
                    self.grow(s[0]);
                    self.len += 1;
                    s = &s[1..];
                    continue;
                }
            };
            let (now, rest) = s.split_at(room.min(s.len()));
            if let Some(c) = self.chunks.last_mut() {
                c.extend_from_slice(now);
            }
            self.len += now.len();
            s = rest;
        }
    }

    /// Move the items from `start` on to the end of `dst` and truncate to
    /// `start`; each chunk wholly past `start` is given back as soon as it
    /// has been copied (`dst` can reuse it).
    fn drain_into(&mut self, start: usize, dst: &mut Chunks<T>) {
        let first = start >> Self::SHIFT;
        for k in first..self.chunks.len() {
            let from = if k == first { start & Self::MASK } else { 0 };
            dst.extend(self.chunks[k].get(from..).unwrap_or(&[]));
            if k > first {
                let c = std::mem::take(&mut self.chunks[k]);
                self.release(c);
            }
        }
        self.truncate(start);
    }

    /// Give back an emptied chunk.
    #[inline]
    fn release(&mut self, mut c: Vec<T>) {
        if c.capacity() == 0 {
            return;
        }
        c.clear();
        #[cfg(not(target_arch = "wasm32"))]
        self.free.push(c);
        #[cfg(target_arch = "wasm32")]
        drop(c);
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&T> {
        self.chunks.get(i >> Self::SHIFT)?.get(i & Self::MASK)
    }

    #[inline]
    fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.chunks.get_mut(i >> Self::SHIFT)?.get_mut(i & Self::MASK)
    }

    /// The items from `i` to the end of `i`'s chunk, at most `n` of them
    /// (empty when `i` is out of range).
    #[inline]
    fn run(&self, i: usize, n: usize) -> &[T] {
        let from = i & Self::MASK;
        self.chunks.get(i >> Self::SHIFT).and_then(|c| c.get(from..c.len().min(from + n))).unwrap_or(&[])
    }

    /// Keep the first `n` items.
    fn truncate(&mut self, n: usize) {
        if n >= self.len {
            return;
        }
        // The chunk that holds position n stays (emptied or cut).
        let keep = (n >> Self::SHIFT) + 1;
        while self.chunks.len() > keep {
            if let Some(c) = self.chunks.pop() {
                self.release(c);
            }
        }
        if let Some(c) = self.chunks.last_mut() {
            c.truncate(n & Self::MASK);
        }
        self.len = n;
    }

    fn clear(&mut self) {
        self.truncate(0);
    }

    /// Call `f` on the items from `start` on, in order, and truncate to
    /// `start`; each chunk wholly past `start` is given back as soon as it
    /// has been read (what `f` appends elsewhere can reuse it).
    #[inline]
    fn drain_from(&mut self, start: usize, mut f: impl FnMut(T)) {
        let first = start >> Self::SHIFT;
        for k in first..self.chunks.len() {
            let from = if k == first { start & Self::MASK } else { 0 };
            for &x in self.chunks[k].get(from..).unwrap_or(&[]) {
                f(x);
            }
            if k > first {
                let c = std::mem::take(&mut self.chunks[k]);
                self.release(c);
            }
        }
        self.truncate(start);
    }

    /// Bytes allocated.
    #[cfg(not(target_arch = "wasm32"))]
    fn bytes(&self) -> usize {
        (self.chunks.iter().chain(&self.free).map(Vec::capacity).sum::<usize>()) * std::mem::size_of::<T>()
    }
}

/// Where a string's WTF-8 bytes are.
#[derive(Clone, Copy, Debug)]
enum Str<'a> {
    /// A slice of the input (no escapes).
    Wire(&'a str),
    /// Decoded text in [`Doc::text`] (start, end).
    Text(u32, u32),
    /// Decoded WTF-8 with lone surrogates in [`Doc::wtf8`] (start, end).
    Wtf8(u32, u32),
}

/// One value: 12 bytes on wasm32 (a body of `[0,0,...]` has a node per two
/// input bytes, so the node size is most of the document's memory). Floats
/// keep their bits as two words (align 4), or, when the lexeme is the text
/// Python's `repr` prints, only the lexeme (the value is read again from it:
/// the same correctly rounded parse, so the same value).
#[derive(Clone, Copy, Debug)]
enum Node<'a> {
    Null,
    Bool(bool),
    Int(&'a str),
    /// A float without a kept lexeme: `f64::to_bits` as (low, high) words.
    Float([u32; 2]),
    /// A float whose lexeme is its `repr`.
    Repr(&'a str),
    Str(Str<'a>),
    /// Children at `Doc::items[start..start + len]`.
    Array(u32, u32),
    /// Members at `Doc::members[start..start + len]`.
    Object(u32, u32),
}

#[cfg(target_pointer_width = "32")]
const _: () = assert!(std::mem::size_of::<Node<'static>>() == 12);

/// A value is a `u32` word: a node index, or (high bit set) a value small
/// enough to need no node at all: `null`, `true`, `false`, empty containers,
/// NaN and the infinities, `0`, and ints, floats and escape-free strings of at
/// most seven bytes, as (kind, length, offset in the input). A body of
/// `[0,0,...]` then costs its item words only (two bytes per input byte, not
/// eight): the densest bodies are the worst case of memory per body byte.
/// A container of at most [`MAX_SMALL_LEN`] children needs no node either
/// ([`SMALL`]), so `[[0],[0],...]` costs two words per four input bytes.
const INLINE: u32 = 1 << 31;
/// Without [`INLINE`]: an array or object of 1 to [`MAX_SMALL_LEN`]
/// children as (object bit, length, start in `Doc::items` / `Doc::members`)
/// (no node: a container per four input bytes is the densest nesting);
/// otherwise (without [`TEXT`]) a node index (nodes are then fewer than
/// 2^29: a node takes at least eight input bytes, and inputs are capped at
/// 32 MiB).
const SMALL: u32 = 1 << 30;
const SMALL_OBJECT: u32 = 1 << 29;
const MAX_SMALL_LEN: u32 = 15;
/// Without [`INLINE`] and [`SMALL`], in a value or a member's key word: a
/// decoded string of at most [`MAX_SMALL_LEN`] bytes in [`Doc::text`] as
/// (length, start), with no node or [`Doc::keys`] entry (`["\n","\n",...]`
/// is a string per five input bytes).
const TEXT: u32 = 1 << 29;
const OFFSET_BITS: u32 = 25;
const OFFSET_MASK: u32 = (1 << OFFSET_BITS) - 1;
const MAX_INLINE_LEN: usize = 7;
/// The longest key kept in a member's key word (six bits of length).
const MAX_KEY_LEN: usize = 63;
/// The word of `null`.
const NULL_WORD: u32 = INLINE;
mod inline {
    pub const NULL: u32 = 0;
    pub const FALSE: u32 = 1;
    pub const TRUE: u32 = 2;
    pub const INT: u32 = 3;
    pub const STR: u32 = 4;
    /// A float whose lexeme is its `repr` (printed as the lexeme).
    pub const REPR: u32 = 5;
    /// A float printed from its value (the value re-read from the lexeme).
    pub const FLOAT: u32 = 6;
    /// The "length" says which: [`super::SPECIALS`].
    pub const SPECIAL: u32 = 7;
}
/// The values of kind `inline::SPECIAL`, by their length field.
const SPECIALS: [Node<'static>; 6] = [
    Node::Float([0, 0x7FF8_0000]),
    Node::Float([0, 0x7FF0_0000]),
    Node::Float([0, 0xFFF0_0000]),
    Node::Array(0, 0),
    Node::Object(0, 0),
    Node::Int("0"),
];

const fn word(kind: u32, len: u32, offset: u32) -> u32 {
    INLINE | kind << 28 | len << OFFSET_BITS | offset
}

impl Node<'_> {
    fn float(bits: [u32; 2]) -> f64 {
        f64::from_bits(bits[0] as u64 | (bits[1] as u64) << 32)
    }
    /// The value of a float lexeme (the parser's own correctly rounded read).
    fn repr(lexeme: &str) -> f64 {
        crate::py::float::parse_f64(lexeme).unwrap_or(f64::NAN)
    }
}

/// An object under construction: its members are `Doc::open_members[start..]`.
struct Open<'a> {
    start: usize,
    key: Option<Str<'a>>,
    /// More than [`INDEX_THRESHOLD`] members: duplicates are merged at the close.
    big: bool,
    /// A 64-bit filter of the keys so far (by length and end bytes): a key
    /// whose bit is clear is new, with no scan.
    seen: u64,
}

/// The filter bit of a key for [`Open::seen`].
fn key_bit(k: &[u8]) -> u64 {
    let h = k.len().wrapping_mul(31) ^ (*k.first().unwrap_or(&0) as usize) ^ ((*k.last().unwrap_or(&0) as usize) << 2);
    1 << (h & 63)
}

/// A parsed JSON document borrowing its input text (see the module docs).
pub struct Doc<'a> {
    /// The input text (inline values are offsets into it).
    src: &'a str,
    nodes: Chunks<Node<'a>>,
    items: Chunks<u32>,
    /// (key word, value): see [`Doc::key_word`].
    members: Chunks<(u32, u32)>,
    /// The keys that are neither short slices of the input nor [`TEXT`] words.
    keys: Chunks<Str<'a>>,
    text: String,
    wtf8: Vec<u8>,
    root: u32,
    /// How many floats are NaN or infinite (`NaN`, `Infinity`, `1e400`).
    non_finite: u32,
    /// How many integers are spelled `-0` (Python reads 0, JavaScript -0).
    negative_zero_ints: u32,
    // Build state (empty once parsed).
    open_items: Chunks<u32>,
    open_members: Chunks<(u32, u32)>,
    /// Start of each open array in `open_items`.
    open_arrays: Vec<usize>,
    open_objects: Vec<Open<'a>>,
}

/// Python's digits of an integer node (`-0` is kept as its token).
#[inline(always)]
fn py_int(d: &str) -> &str {
    if d == "-0" {
        "0"
    } else {
        d
    }
}

#[inline(always)]
fn bytes_of<'s>(text: &'s str, wtf8: &'s [u8], s: Str<'s>) -> &'s [u8] {
    match s {
        Str::Wire(w) => w.as_bytes(),
        Str::Text(a, b) => &text.as_bytes()[a as usize..b as usize],
        Str::Wtf8(a, b) => &wtf8[a as usize..b as usize],
    }
}

/// The [`TEXT`] word of a short decoded string, if it is one.
#[inline]
fn text_word(s: Str<'_>) -> Option<u32> {
    match s {
        Str::Text(a, b) if b - a <= MAX_SMALL_LEN && a <= OFFSET_MASK => Some(TEXT | (b - a) << OFFSET_BITS | a),
        _ => None,
    }
}

/// The string of a [`TEXT`] word.
#[inline(always)]
fn text_at(w: u32) -> Str<'static> {
    let a = w & OFFSET_MASK;
    Str::Text(a, a + ((w >> OFFSET_BITS) & MAX_SMALL_LEN))
}

/// The WTF-8 bytes of a member's key word ([`Doc::key_word`]).
#[inline(always)]
fn key_bytes<'s>(src: &'s str, keys: &'s Chunks<Str<'s>>, text: &'s str, wtf8: &'s [u8], w: u32) -> &'s [u8] {
    if w & INLINE != 0 {
        let (len, offset) = (((w >> OFFSET_BITS) & 63) as usize, (w & OFFSET_MASK) as usize);
        return src.as_bytes().get(offset..offset + len).unwrap_or(&[]);
    }
    if w & TEXT != 0 {
        return bytes_of(text, wtf8, text_at(w));
    }
    keys.get(w as usize).map_or(&[], |&k| bytes_of(text, wtf8, k))
}

/// The big arrays of the last dropped [`Doc`] on this thread, empty, kept
/// for the next parse: a document of a megabyte needs arrays of megabytes,
/// and allocating them afresh per parse costs page faults natively (more
/// kernel time than the parse itself). Not in wasm: its linear memory never
/// shrinks, so freed arrays are simply reused by the allocator (and the pool
/// would cost ~1.3 KB gzip).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Default)]
struct Spare {
    nodes: Chunks<Node<'static>>,
    items: Chunks<u32>,
    members: Chunks<(u32, u32)>,
    open_items: Chunks<u32>,
    open_members: Chunks<(u32, u32)>,
}

#[cfg(not(target_arch = "wasm32"))]
impl<T: Copy> Default for Chunks<T> {
    fn default() -> Self {
        Chunks::new()
    }
}

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    static SPARE: std::cell::RefCell<Spare> = std::cell::RefCell::new(Spare::default());
}

/// Buffers larger than this (bytes) are not kept.
#[cfg(not(target_arch = "wasm32"))]
const MAX_SPARE_BYTES: usize = 64 << 20;

/// An emptied vector of borrowed items as a vector of `'static` ones, same
/// allocation (an empty in-place collect: no item is ever converted).
#[cfg(not(target_arch = "wasm32"))]
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().filter_map(|_| None).collect()
}

/// [`recycle`] for every chunk (all emptied, kept for the next parse).
#[cfg(not(target_arch = "wasm32"))]
fn recycle_chunks<T: Copy, U>(mut c: Chunks<T>) -> Chunks<U> {
    c.clear();
    let mut free: Vec<Vec<U>> = c.free.into_iter().map(recycle).collect();
    free.extend(c.chunks.into_iter().filter(|v| v.capacity() > 0).map(recycle));
    Chunks { chunks: Vec::new(), len: 0, free }
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for Doc<'_> {
    fn drop(&mut self) {
        let bytes = self.nodes.bytes()
            + self.items.bytes()
            + self.members.bytes()
            + self.open_items.bytes()
            + self.open_members.bytes();
        if bytes > MAX_SPARE_BYTES {
            return;
        }
        let spare = Spare {
            nodes: recycle_chunks(std::mem::take(&mut self.nodes)),
            items: recycle_chunks(std::mem::take(&mut self.items)),
            members: recycle_chunks(std::mem::take(&mut self.members)),
            open_items: recycle_chunks(std::mem::take(&mut self.open_items)),
            open_members: recycle_chunks(std::mem::take(&mut self.open_members)),
        };
        let _ = SPARE.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                if s.nodes.bytes() <= spare.nodes.bytes() {
                    *s = spare;
                }
            }
        });
    }
}

impl<'a> Doc<'a> {
    /// An empty document (reusing the arrays of the last one dropped on this thread).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn new(src: &'a str) -> Doc<'a> {
        let spare = SPARE.try_with(|s| s.try_borrow_mut().map(|mut s| std::mem::take(&mut *s)).ok()).ok().flatten();
        let spare = spare.unwrap_or_default();
        Doc {
            src,
            nodes: spare.nodes,
            items: spare.items,
            members: spare.members,
            keys: Chunks::new(),
            text: String::new(),
            wtf8: Vec::new(),
            root: 0,
            non_finite: 0,
            negative_zero_ints: 0,
            open_items: spare.open_items,
            open_members: spare.open_members,
            open_arrays: Vec::new(),
            open_objects: Vec::new(),
        }
    }

    /// An empty document.
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn new(src: &'a str) -> Doc<'a> {
        Doc {
            src,
            nodes: Chunks::new(),
            items: Chunks::new(),
            members: Chunks::new(),
            keys: Chunks::new(),
            text: String::new(),
            wtf8: Vec::new(),
            root: 0,
            non_finite: 0,
            negative_zero_ints: 0,
            open_items: Chunks::new(),
            open_members: Chunks::new(),
            open_arrays: Vec::new(),
            open_objects: Vec::new(),
        }
    }

    /// The root value.
    pub fn root(&self) -> Ref<'_> {
        Ref { doc: self, id: self.root }
    }

    pub(crate) fn set_root(&mut self, root: u32) {
        self.root = root;
        self.open_items.clear();
        self.open_members.clear();
        // Kept (at most `MAX_DEPTH` entries each): the next record of a
        // batch reuses them.
        self.open_arrays.clear();
        self.open_objects.clear();
    }

    /// Empty the document for the next parse, keeping its arrays.
    pub(crate) fn reset(&mut self) {
        self.nodes.clear();
        self.items.clear();
        self.members.clear();
        self.keys.clear();
        self.text.clear();
        self.wtf8.clear();
        self.root = 0;
        self.non_finite = 0;
        self.negative_zero_ints = 0;
        self.open_items.clear();
        self.open_members.clear();
        self.open_arrays.clear();
        self.open_objects.clear();
    }

    #[inline]
    fn push(&mut self, node: Node<'a>) -> u32 {
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    /// A member's key as one word (a member is then 8 bytes, where a
    /// `"ab":0,` member is 7 input bytes): with the [`INLINE`] bit a slice of
    /// the input of at most 63 bytes as (length, offset), else an index of
    /// [`Doc::keys`].
    #[inline]
    fn key_word(src: &'a str, keys: &mut Chunks<Str<'a>>, k: Str<'a>) -> u32 {
        if let Str::Wire(w) = k {
            let offset = (w.as_ptr() as usize).wrapping_sub(src.as_ptr() as usize);
            if w.len() <= MAX_KEY_LEN && offset <= OFFSET_MASK as usize && offset + w.len() <= src.len() {
                return INLINE | (w.len() as u32) << OFFSET_BITS | offset as u32;
            }
        }
        if let Some(w) = text_word(k) {
            return w;
        }
        keys.push(k);
        (keys.len() - 1) as u32
    }

    /// The inline word of a short slice of the input, if it is one.
    #[inline]
    fn inline(&self, kind: u32, s: &'a str) -> Option<u32> {
        let offset = (s.as_ptr() as usize).wrapping_sub(self.src.as_ptr() as usize);
        let fits = s.len() <= MAX_INLINE_LEN && offset <= OFFSET_MASK as usize && offset + s.len() <= self.src.len();
        fits.then(|| word(kind, s.len() as u32, offset as u32))
    }

    /// A float whose lexeme is its `repr`: the lexeme only (inline when short).
    fn repr_float(&mut self, l: &'a str) -> u32 {
        match self.inline(inline::REPR, l) {
            Some(w) => w,
            None => self.push(Node::Repr(l)),
        }
    }

    /// Where a string token's bytes are: an escape-free token (nearly every key and string) is
    /// its slice of the input, here, inline; decoded ones are copied (`intern_decoded`).
    #[inline(always)]
    fn intern(&mut self, t: Token<'a>) -> Str<'a> {
        match t {
            Token::Wire(s) => Str::Wire(s),
            t => self.intern_decoded(t),
        }
    }

    #[inline(never)]
    fn intern_decoded(&mut self, t: Token<'a>) -> Str<'a> {
        match t {
            Token::Wire(s) => Str::Wire(s),
            Token::Text(s) => {
                let a = self.text.len() as u32;
                self.text.push_str(&s);
                Str::Text(a, self.text.len() as u32)
            }
            Token::Wtf8(b) => {
                let a = self.wtf8.len() as u32;
                self.wtf8.extend_from_slice(&b);
                Str::Wtf8(a, self.wtf8.len() as u32)
            }
        }
    }
}

impl<'a> Sink<'a> for Doc<'a> {
    type Value = u32;
    fn null(&mut self) -> u32 {
        word(inline::NULL, 0, 0)
    }
    fn boolean(&mut self, b: bool) -> u32 {
        word(if b { inline::TRUE } else { inline::FALSE }, 0, 0)
    }
    fn int(&mut self, digits: &'a str) -> u32 {
        if digits == "0" {
            return word(inline::SPECIAL, 5, 0);
        }
        if digits == "-0" {
            self.negative_zero_ints += 1;
        }
        match self.inline(inline::INT, digits) {
            Some(w) => w,
            None => self.push(Node::Int(digits)),
        }
    }
    fn float(&mut self, f: f64, lexeme: Option<&'a str>) -> u32 {
        if !f.is_finite() {
            self.non_finite += 1;
        }
        let Some(l) = lexeme else {
            // NaN, Infinity, -Infinity.
            return word(
                inline::SPECIAL,
                if f.is_nan() {
                    0
                } else if f > 0.0 {
                    1
                } else {
                    2
                },
                0,
            );
        };
        if super::write::is_repr_lexeme(l) {
            return self.repr_float(l);
        }
        if let Some(w) = self.inline(inline::FLOAT, l) {
            return w;
        }
        let b = f.to_bits();
        self.push(Node::Float([b as u32, (b >> 32) as u32]))
    }
    fn float_token(&mut self, l: &'a str) -> u32 {
        // A lexeme that is its own `repr` (finite) is all the document
        // keeps: it is read only if the value is asked for.
        if super::write::is_repr_lexeme(l) {
            return self.repr_float(l);
        }
        self.float(super::parse::read_float(l), Some(l))
    }
    fn string(&mut self, s: Token<'a>) -> u32 {
        if let Token::Wire(w) = s {
            if let Some(w) = self.inline(inline::STR, w) {
                return w;
            }
        }
        let s = self.intern(s);
        match text_word(s) {
            Some(w) => w,
            None => self.push(Node::Str(s)),
        }
    }
    fn empty_array(&mut self) -> u32 {
        word(inline::SPECIAL, 3, 0)
    }
    fn empty_object(&mut self) -> u32 {
        word(inline::SPECIAL, 4, 0)
    }
    fn open_array(&mut self) {
        self.open_arrays.push(self.open_items.len());
    }
    fn open_object(&mut self, first_key: Token<'a>) {
        let key = self.intern(first_key);
        self.open_objects.push(Open { start: self.open_members.len(), key: Some(key), big: false, seen: 0 });
    }
    fn item(&mut self, v: u32) {
        self.open_items.push(v);
    }
    fn member(&mut self, v: u32) {
        let Some(open) = self.open_objects.last_mut() else { return };
        let Some(key) = open.key.take() else { return };
        let (src, text, wtf8) = (self.src, self.text.as_str(), self.wtf8.as_slice());
        if !open.big {
            let kb = bytes_of(text, wtf8, key);
            let bit = key_bit(kb);
            if open.seen & bit != 0 {
                let (mut i, end) = (open.start, self.open_members.len());
                while i < end {
                    let run = self.open_members.run(i, end - i);
                    if run.is_empty() {
                        break;
                    }
                    if let Some(j) =
                        run.iter().position(|&(k, _)| same_key(key_bytes(src, &self.keys, text, wtf8, k), kb))
                    {
                        if let Some(m) = self.open_members.get_mut(i + j) {
                            m.1 = v;
                        }
                        return;
                    }
                    i += run.len();
                }
            }
            open.seen |= bit;
            open.big = self.open_members.len() - open.start >= INDEX_THRESHOLD;
        }
        let word = Self::key_word(src, &mut self.keys, key);
        self.open_members.push((word, v));
    }
    fn key(&mut self, k: Token<'a>) {
        let key = self.intern(k);
        if let Some(open) = self.open_objects.last_mut() {
            open.key = Some(key);
        }
    }
    fn close_array(&mut self) -> u32 {
        let start = self.open_arrays.pop().unwrap_or(0);
        let at = self.items.len() as u32;
        if at == 0 && start == 0 {
            // The first container closed holds all open items (a body's one
            // big array): move them, no second copy.
            std::mem::swap(&mut self.items, &mut self.open_items);
        } else {
            self.open_items.drain_into(start, &mut self.items);
        }
        self.container(0, at, self.items.len() as u32 - at)
    }
    fn close_object(&mut self) -> u32 {
        let (start, big) = self.open_objects.pop().map_or((0, false), |o| (o.start, o.big));
        let at = self.members.len() as u32;
        if big {
            self.merge_members(start);
        } else if at == 0 && start == 0 {
            std::mem::swap(&mut self.members, &mut self.open_members);
        } else {
            self.open_members.drain_into(start, &mut self.members);
        }
        self.container(SMALL_OBJECT, at, self.members.len() as u32 - at)
    }
}

impl Doc<'_> {
    /// The word of a closed container ([`SMALL`] when it fits, else a node).
    #[inline]
    fn container(&mut self, object: u32, at: u32, n: u32) -> u32 {
        if n <= MAX_SMALL_LEN && at <= OFFSET_MASK {
            return SMALL | object | n << OFFSET_BITS | at;
        }
        self.push(if object != 0 { Node::Object(at, n) } else { Node::Array(at, n) })
    }

    /// Close a big object: its members move from the open stack to
    /// [`Doc::members`], a duplicate key keeping its first position and
    /// taking the last value (Python's dict), found through a table of
    /// positions sized to the object (load at most 2/3; randomly seeded
    /// SipHash, so crafted keys cannot force collisions), freed on return.
    #[inline(never)]
    fn merge_members(&mut self, start: usize) {
        let (src, text, wtf8, keys) = (self.src, self.text.as_str(), self.wtf8.as_slice(), &self.keys);
        let members = &mut self.members;
        let n = self.open_members.len().saturating_sub(start);
        let size = n + n / 2 + 1;
        let mut slots = vec![u32::MAX; size];
        let hasher = std::collections::hash_map::RandomState::new();
        let at = members.len();
        let mut count = 0;
        self.open_members.drain_from(start, |(k, v)| {
            let kb = key_bytes(src, keys, text, wtf8, k);
            let mut slot = (((hasher.hash_one(kb) >> 32) * size as u64) >> 32) as usize;
            loop {
                let e = slots[slot];
                if e == u32::MAX {
                    slots[slot] = count;
                    count += 1;
                    members.push((k, v));
                    return;
                }
                let seen = members.get(at + e as usize).map_or(NULL_WORD, |m| m.0);
                if same_key(key_bytes(src, keys, text, wtf8, seen), kb) {
                    if let Some(m) = members.get_mut(at + e as usize) {
                        m.1 = v;
                    }
                    return;
                }
                slot += 1;
                if slot == size {
                    slot = 0;
                }
            }
        });
    }
}

/// Key equality with a cheap rejection first (length, last byte): most keys
/// compared during lookups differ there, and a call to `memcmp` is dear in wasm.
#[inline(always)]
pub(crate) fn same_key(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.last() == b.last() && bytes_eq(a, b)
}

/// `a == b` eight bytes at a time (wasm's `memcmp` goes byte by byte; body
/// texts compared with their receipt_view copies run to kilobytes).
pub fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let word =
        |s: &[u8], i: usize| u64::from_le_bytes(s.get(i..i + 8).and_then(|w| w.try_into().ok()).unwrap_or([0; 8]));
    let mut i = 0;
    while i + 8 <= a.len() {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 8;
    }
    a.iter().zip(b).skip(i).all(|(x, y)| x == y)
}

/// Moved to [`crate::utf8`] (issue #32: one pass that validates UTF-8 and
/// finds U+FFFD); re-exported here for this module's callers.
pub use crate::utf8::has_replacement_char;

/// A Python `str` inside a [`Doc`]: WTF-8 bytes, UTF-8 unless it holds a
/// lone surrogate (the borrowed counterpart of [`PyStr`](super::PyStr)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Text<'d> {
    /// Valid UTF-8.
    Utf8(&'d str),
    /// WTF-8 with at least one lone surrogate.
    Wtf8(&'d [u8]),
}

impl<'d> Text<'d> {
    /// The WTF-8 bytes.
    pub fn as_bytes(self) -> &'d [u8] {
        match self {
            Text::Utf8(s) => s.as_bytes(),
            Text::Wtf8(b) => b,
        }
    }

    /// The text, if it has no lone surrogates.
    pub fn as_str(self) -> Option<&'d str> {
        match self {
            Text::Utf8(s) => Some(s),
            Text::Wtf8(_) => None,
        }
    }

    /// The text with each lone surrogate replaced by U+FFFD.
    pub fn to_str_lossy(self) -> Cow<'d, str> {
        match self {
            Text::Utf8(s) => Cow::Borrowed(s),
            Text::Wtf8(b) => Cow::Owned(lossy(b)),
        }
    }

    /// True for the empty string.
    pub fn is_empty(self) -> bool {
        self.as_bytes().is_empty()
    }
}

/// The shape of a node, for matching.
#[derive(Clone, Copy)]
pub enum Kind<'d> {
    /// `None`.
    Null,
    /// `True` / `False`.
    Bool(bool),
    /// A Python `int`: its decimal text (as [`Value::Int`](super::Value::Int)).
    Int(&'d str),
    /// A Python `float`.
    Float(f64),
    /// A Python `str`.
    Str(Text<'d>),
    /// A Python `list`.
    Array(Items<'d>),
    /// A Python `dict`.
    Object(Members<'d>),
}

/// A handle on one node of a [`Doc`].
#[derive(Clone, Copy)]
pub struct Ref<'d> {
    doc: &'d Doc<'d>,
    id: u32,
}

impl std::fmt::Debug for Ref<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&super::write::write(*self, super::WriteOptions::COMPACT))
    }
}

/// The children of an array node.
#[derive(Clone, Copy)]
pub struct Items<'d> {
    doc: &'d Doc<'d>,
    /// The first items, as far as they lie in one chunk (all of them but in
    /// an array that spans chunks): read without the chunk lookup.
    ids: &'d [u32],
    /// `Doc::items[start..start + len]`.
    start: u32,
    len: u32,
}

/// The members of an object node, in insertion order (keys unique).
#[derive(Clone, Copy)]
pub struct Members<'d> {
    doc: &'d Doc<'d>,
    /// The first members, as far as they lie in one chunk (see [`Items`]).
    members: &'d [(u32, u32)],
    /// `Doc::members[start..start + len]`.
    start: u32,
    len: u32,
}

impl<'d> Items<'d> {
    /// The number of items.
    pub fn len(self) -> usize {
        self.len as usize
    }
    /// True when there are no items.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
    /// The `i`th item.
    #[inline]
    pub fn get(self, i: usize) -> Option<Ref<'d>> {
        if i >= self.len as usize {
            return None;
        }
        Some(Ref { doc: self.doc, id: self.word(i) })
    }
    /// The items in order.
    pub fn iter(self) -> impl DoubleEndedIterator<Item = Ref<'d>> + ExactSizeIterator {
        (0..self.len).map(move |i| Ref { doc: self.doc, id: self.word(i as usize) })
    }
    #[inline]
    fn word(self, i: usize) -> u32 {
        match self.ids.get(i) {
            Some(&id) => id,
            None => self.doc.items.get(self.start as usize + i).copied().unwrap_or(NULL_WORD),
        }
    }
}

impl<'d> Members<'d> {
    /// The number of members.
    pub fn len(self) -> usize {
        self.len as usize
    }
    /// True when there are no members.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
    /// The `i`th member.
    #[inline]
    pub fn at(self, i: usize) -> (Text<'d>, Ref<'d>) {
        let (k, id) = self.words(i);
        (self.doc.key_text(k), Ref { doc: self.doc, id })
    }
    /// The `i`th member's (key word, value word).
    #[inline]
    fn words(self, i: usize) -> (u32, u32) {
        match self.members.get(i) {
            Some(&m) => m,
            None if i < self.len as usize => {
                self.doc.members.get(self.start as usize + i).copied().unwrap_or((INLINE, NULL_WORD))
            }
            None => (INLINE, NULL_WORD),
        }
    }
    /// The `i`th member's key as WTF-8 bytes (the printer's view: no
    /// [`Text`], so no UTF-8 boundary checks on the input slice).
    #[inline]
    pub fn key_bytes_at(self, i: usize) -> &'d [u8] {
        let doc = self.doc;
        key_bytes(doc.src, &doc.keys, &doc.text, &doc.wtf8, self.words(i).0)
    }
    /// The `i`th member's key bytes and value, from one read of its words.
    #[inline]
    pub fn entry_at(self, i: usize) -> (&'d [u8], Ref<'d>) {
        let (doc, (k, id)) = (self.doc, self.words(i));
        (key_bytes(doc.src, &doc.keys, &doc.text, &doc.wtf8, k), Ref { doc, id })
    }
    /// The `i`th member's value.
    #[inline]
    pub fn value_at(self, i: usize) -> Ref<'d> {
        Ref { doc: self.doc, id: self.words(i).1 }
    }
    /// The members in order.
    pub fn iter(self) -> impl DoubleEndedIterator<Item = (Text<'d>, Ref<'d>)> + ExactSizeIterator {
        (0..self.len).map(move |i| self.at(i as usize))
    }
    /// The value of `key`, if present.
    pub fn get(self, key: &str) -> Option<Ref<'d>> {
        self.get_bytes(key.as_bytes())
    }
    /// The value of the key with these WTF-8 bytes, if present.
    #[inline(never)]
    pub fn get_bytes(self, key: &[u8]) -> Option<Ref<'d>> {
        let doc = self.doc;
        let (mut i, end) = (self.start as usize, self.start as usize + self.len as usize);
        let mut run = self.members;
        while i < end {
            if i > self.start as usize {
                run = doc.members.run(i, end - i);
            }
            if run.is_empty() {
                break;
            }
            for &(k, id) in run {
                // A key in the input: its length is in the word (most keys differ there).
                let hit = if k & INLINE != 0 {
                    ((k >> OFFSET_BITS) & 63) as usize == key.len()
                        && same_key(key_bytes(doc.src, &doc.keys, &doc.text, &doc.wtf8, k), key)
                } else {
                    same_key(key_bytes(doc.src, &doc.keys, &doc.text, &doc.wtf8, k), key)
                };
                if hit {
                    return Some(Ref { doc, id });
                }
            }
            i += run.len();
        }
        None
    }
}

impl<'d> Doc<'d> {
    /// The text of a member's key word.
    #[inline]
    fn key_text(&'d self, w: u32) -> Text<'d> {
        if w & INLINE != 0 {
            let (len, offset) = (((w >> OFFSET_BITS) & 63) as usize, (w & OFFSET_MASK) as usize);
            return Text::Utf8(self.src.get(offset..offset + len).unwrap_or(""));
        }
        if w & TEXT != 0 {
            return self.text_of(text_at(w));
        }
        self.keys.get(w as usize).map_or(Text::Utf8(""), |&k| self.text_of(k))
    }

    #[inline]
    fn text_of(&'d self, s: Str<'d>) -> Text<'d> {
        match s {
            Str::Wire(w) => Text::Utf8(w),
            Str::Text(a, b) => Text::Utf8(&self.text[a as usize..b as usize]),
            Str::Wtf8(a, b) => Text::Wtf8(&self.wtf8[a as usize..b as usize]),
        }
    }
}

impl<'d> Ref<'d> {
    /// The printer's view of this node.
    pub(crate) fn shape(self) -> super::write::Shape<'d> {
        use super::write::Shape;
        match self.node() {
            Node::Null => Shape::Null,
            Node::Bool(b) => Shape::Bool(b),
            Node::Int(d) => Shape::Int(py_int(d)),
            Node::Repr(lexeme) => Shape::Lexeme(lexeme),
            Node::Float(b) => Shape::Float(Node::float(b)),
            Node::Str(s) => Shape::Str(self.doc.text_of(s).as_bytes()),
            Node::Array(..) => Shape::Array,
            Node::Object(..) => Shape::Object,
        }
    }

    /// What this node is.
    #[inline]
    pub fn kind(self) -> Kind<'d> {
        let doc = self.doc;
        match self.node() {
            Node::Null => Kind::Null,
            Node::Bool(b) => Kind::Bool(b),
            Node::Int(d) => Kind::Int(py_int(d)),
            Node::Float(b) => Kind::Float(Node::float(b)),
            Node::Repr(l) => Kind::Float(Node::repr(l)),
            Node::Str(s) => Kind::Str(doc.text_of(s)),
            Node::Array(a, n) => Kind::Array(self.items(a, n)),
            Node::Object(a, n) => Kind::Object(self.members(a, n)),
        }
    }

    #[inline]
    fn node(self) -> Node<'d> {
        let id = self.id;
        if id & INLINE == 0 {
            if id & SMALL != 0 {
                let (at, n) = (id & OFFSET_MASK, (id >> OFFSET_BITS) & MAX_SMALL_LEN);
                return if id & SMALL_OBJECT != 0 { Node::Object(at, n) } else { Node::Array(at, n) };
            }
            if id & TEXT != 0 {
                return Node::Str(text_at(id));
            }
            return self.doc.nodes.get(id as usize).copied().unwrap_or(Node::Null);
        }
        self.inline_node()
    }

    /// The node an inline word stands for.
    #[inline]
    fn inline_node(self) -> Node<'d> {
        let id = self.id;
        let len = (id >> OFFSET_BITS) & 7;
        let offset = (id & OFFSET_MASK) as usize;
        let lexeme = || self.doc.src.get(offset..offset + len as usize).unwrap_or("");
        match (id >> 28) & 7 {
            inline::NULL => Node::Null,
            inline::FALSE => Node::Bool(false),
            inline::TRUE => Node::Bool(true),
            inline::INT => Node::Int(lexeme()),
            inline::STR => Node::Str(Str::Wire(lexeme())),
            inline::REPR => Node::Repr(lexeme()),
            inline::FLOAT => {
                let b = Node::repr(lexeme()).to_bits();
                Node::Float([b as u32, (b >> 32) as u32])
            }
            _ => SPECIALS.get(len as usize).copied().unwrap_or(Node::Null),
        }
    }

    #[inline]
    fn items(self, a: u32, n: u32) -> Items<'d> {
        let doc = self.doc;
        Items { doc, ids: doc.items.run(a as usize, n as usize), start: a, len: n }
    }

    #[inline]
    fn members(self, a: u32, n: u32) -> Members<'d> {
        let doc = self.doc;
        Members { doc, members: doc.members.run(a as usize, n as usize), start: a, len: n }
    }

    /// Python's type name, as [`Value::type_name`](super::Value::type_name).
    pub fn type_name(self) -> &'static str {
        match self.node() {
            Node::Null => "null",
            Node::Bool(_) => "boolean",
            Node::Int(_) => "integer",
            Node::Float(_) | Node::Repr(_) => "float",
            Node::Str(_) => "string",
            Node::Array(..) => "array",
            Node::Object(..) => "object",
        }
    }

    /// True for a number JavaScript reads as `-0` (`-0`, `-0.0`, `-1e-400`),
    /// which Python reads as `0` or `-0.0`.
    pub fn is_negative_zero(self) -> bool {
        match self.node() {
            Node::Int(d) => d == "-0",
            Node::Float(b) => {
                let f = Node::float(b);
                f == 0.0 && f.is_sign_negative()
            }
            Node::Repr(l) => {
                let f = Node::repr(l);
                f == 0.0 && f.is_sign_negative()
            }
            _ => false,
        }
    }

    /// False when no float of the whole document (not only this node's
    /// subtree) is NaN or infinite: a scan for one can be skipped.
    pub fn doc_has_non_finite(self) -> bool {
        self.doc.non_finite > 0
    }

    /// False when no integer of the whole document is spelled `-0`.
    pub fn doc_has_negative_zero_int(self) -> bool {
        self.doc.negative_zero_ints > 0
    }

    /// True for `null`.
    #[inline]
    pub fn is_null(self) -> bool {
        matches!(self.node(), Node::Null)
    }

    /// The members, if this is an object.
    #[inline]
    pub fn as_object(self) -> Option<Members<'d>> {
        match self.node() {
            Node::Object(a, n) => Some(self.members(a, n)),
            _ => None,
        }
    }

    /// The items, if this is an array.
    #[inline]
    pub fn as_array(self) -> Option<Items<'d>> {
        match self.node() {
            Node::Array(a, n) => Some(self.items(a, n)),
            _ => None,
        }
    }

    /// The string, if this is one (lone surrogates included).
    #[inline]
    pub fn as_text(self) -> Option<Text<'d>> {
        match self.node() {
            Node::Str(s) => Some(self.doc.text_of(s)),
            _ => None,
        }
    }

    /// The string, if this is a string without lone surrogates.
    #[inline]
    pub fn as_str(self) -> Option<&'d str> {
        self.as_text().and_then(Text::as_str)
    }

    /// Look up a member of an object (None for non-objects).
    #[inline]
    pub fn get(self, key: &str) -> Option<Ref<'d>> {
        self.as_object().and_then(|o| o.get(key))
    }

    /// The owned [`Value`](super::Value) of this node.
    pub fn to_value(self) -> super::Value {
        use super::{Object, PyStr, Value};
        let pystr = |t: Text<'_>| match t {
            Text::Utf8(s) => PyStr::from(s),
            Text::Wtf8(b) => PyStr::from_wtf8(b.to_vec()),
        };
        // (Plain loops: smaller wasm than iterator adapters.)
        match self.kind() {
            Kind::Null => Value::Null,
            Kind::Bool(b) => Value::Bool(b),
            Kind::Int(d) => Value::Int(d.into()),
            Kind::Float(f) => Value::Float(f),
            Kind::Str(t) => Value::Str(pystr(t)),
            Kind::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items.iter() {
                    out.push(item.to_value());
                }
                Value::Array(out)
            }
            Kind::Object(m) => {
                let mut out = Vec::with_capacity(m.len());
                for i in 0..m.len() {
                    let (k, v) = m.at(i);
                    out.push((pystr(k), v.to_value()));
                }
                Value::Object(Object::from_unique(out))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{canonical, parse, parse_doc, to_json_string, write};
    use super::*;

    /// The borrowed form reads every document as the owned one does:
    /// same values (via `to_value`), same canonical and compact text, same errors.
    #[test]
    fn doc_equals_value() {
        let mut big = String::from("{");
        for i in 0..40 {
            big.push_str(&format!("\"k{i}\":{i},"));
        }
        big.push_str("\"k5\":\"last\",\"k39\":[1]}");
        // Containers at and past the longest one kept as a word (MAX_SMALL_LEN).
        let small = |n: usize, one: &str| format!("[{}]", vec![one; n].join(","));
        let obj = |n: usize| format!("{{{}}}", (0..n).map(|i| format!("\"{i}\":[{i}]")).collect::<Vec<_>>().join(","));
        let edges = [small(14, "0"), small(15, "[1]"), small(16, "[[2]]"), obj(15), obj(16), obj(33)];
        let texts = [
            r#"{"zeta":[1,1.0,-0.0,1e-7,18446744073709551616,true,null],"😀":"x","ctl":"a\tb\u0000\"\\\/","café":{"b":2,"a":[],"":{}}}"#,
            r#"{"z":1,"y":2,"z":{"q":"\ud800"}}"#,
            r#"["\ud83d\ude00","\udc00\ud800",-0,NaN,-Infinity,"é\u007f"]"#,
            "[]",
            "{}",
            // Inline values (no node) and their neighbours that need one.
            r#"[0,-0,7,-1234567,12345678,0.5,-0.0,1.5e3,1e999,-1e999,12345.678,1e-7,0.30000000000000004,"","abcdefg","abcdefgh","a\u00e9",[],{},[[]],{"":{}},true,false,null,NaN,Infinity,-Infinity]"#,
            "  \"s\" ",
            "-0",
            big.as_str(),
            "[1,]",
            "{\"a\" 1}",
            "\u{feff}{}",
            "[x",
            r#"[[0],[[0]],[0,0],["a"],{"a":0},[{"a":[{"b":[1]}]}],{"a":{"b":{}}}]"#,
            // Decoded strings and keys at and past the longest kept as a word.
            r#"{"\n":"\n","\u00e9\t":["a\"b","0123456789abcd\n","0123456789abcde\n"],"\n":1,"\ud800":"\udc00"}"#,
            // Floats kept as their lexeme without being read at parse time
            // (repr spellings, inline and not) beside ones read at once.
            "[0.1,-0.1,0.0001,0.00001,0.123456789012345,0.1234567890123456,1234567.5,-999999999999999.9,1e16,10.0,10.50,0.0,-0.0]",
            "[0.1,1e400]",
            edges[0].as_str(),
            edges[1].as_str(),
            edges[2].as_str(),
            edges[3].as_str(),
            edges[4].as_str(),
            edges[5].as_str(),
        ];
        for t in texts {
            match (parse(t), parse_doc(t)) {
                (Ok(v), Ok(d)) => {
                    // (Debug, not ==: NaN is not equal to itself.)
                    assert_eq!(format!("{:?}", d.root().to_value()), format!("{v:?}"), "{t}");
                    assert_eq!(write::write(d.root(), write::Options::CANONICAL), canonical(&v), "{t}");
                    assert_eq!(write::write(d.root(), write::Options::COMPACT), to_json_string(&v), "{t}");
                }
                (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{t}"),
                (a, b) => panic!("{t}: {:?} vs {:?}", a.is_ok(), b.is_ok()),
            }
        }
        let deep = "[".repeat(513) + &"]".repeat(513);
        assert!(parse_doc(&deep).is_err());
        // Non-finite floats are counted whether read at parse time or not.
        for (t, non_finite) in
            [("[0.1,1.5,123456789.25]", false), ("[0.1,1e400]", true), ("[-1E999]", true), ("[NaN]", true)]
        {
            assert_eq!(parse_doc(t).unwrap().root().doc_has_non_finite(), non_finite, "{t}");
        }
    }

    /// A dropped document's arrays serve the next parse (same allocation).
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn arrays_are_reused() {
        let text = format!("[{}]", "{\"a\":[1,2,\"a long string\"]},".repeat(1000) + "0");
        let cap = {
            let d = parse_doc(&text).unwrap();
            assert_eq!(d.root().as_array().map(Items::len), Some(1001));
            d.nodes.bytes()
        };
        let d = parse_doc("[]").unwrap();
        assert!(d.nodes.bytes() >= cap, "{} < {cap}", d.nodes.bytes());
        let v: Vec<Node<'static>> = recycle(Vec::<Node<'_>>::with_capacity(77));
        assert!(v.capacity() >= 77);
    }

    /// Containers bigger than a chunk, nested ones closing across chunk
    /// boundaries, big objects with duplicate, long and escaped keys.
    #[test]
    fn chunked_containers() {
        let mut t = String::from("{\"a\":[");
        for i in 0..40_000 {
            t.push_str(&format!("{i},[{i},\"s{i}\"],"));
        }
        t.push_str("0],\"big\":{");
        for i in 0..20_000 {
            let long = "k".repeat(i % 70);
            t.push_str(&format!("\"{long}{}\":{i},\"e\\n{}\":[{i}],\"d\":{i},", i % 9000, i % 5));
        }
        t.push_str("\"z\":{\"q\":1}},\"b\":[[1,2],{\"x\":[]}]}");
        let (v, d) = (parse(&t).unwrap(), parse_doc(&t).unwrap());
        assert_eq!(format!("{:?}", d.root().to_value()), format!("{v:?}"));
        assert_eq!(write::write(d.root(), write::Options::CANONICAL), canonical(&v));
        let big = d.root().get("big").and_then(Ref::as_object).unwrap();
        assert_eq!(big.len(), v.as_object().unwrap().get("big").unwrap().as_object().unwrap().len());
        assert_eq!(big.get("d").map(|r| format!("{r:?}")).as_deref(), Some("19999"));
        assert_eq!(big.at(big.len() - 1).0.as_str(), Some("z"));
        let a = d.root().get("a").and_then(Ref::as_array).unwrap();
        assert_eq!(
            a.iter().rev().nth(1).and_then(|r| r.as_array()).and_then(|r| r.get(1)).and_then(Ref::as_str),
            Some("s39999")
        );
    }

    /// Containers of at most MAX_SMALL_LEN children are words, not nodes
    /// (`[[0],[0],...]` costs two words per item: memory per body byte).
    #[test]
    fn small_containers_take_no_node() {
        let text = format!("[{}[0]]", "[0],[[0]],[0,0],[\"a\"],{\"\\n\":\"\\t\"},".repeat(100));
        let d = parse_doc(&text).unwrap();
        assert_eq!(d.nodes.len(), 1, "only the root (501 items) is a node");
        assert_eq!(d.items.len(), 501 + 100 * 6 + 1);
        assert_eq!(d.members.len(), 100);
        assert_eq!(d.keys.len(), 0, "short decoded keys are words");
        assert_eq!(
            d.root().as_array().and_then(|a| a.get(4)).map(|r| format!("{r:?}")).as_deref(),
            Some(r#"{"\n":"\t"}"#)
        );
        assert_eq!(d.root().as_array().and_then(|a| a.get(500)).map(|r| format!("{r:?}")).as_deref(), Some("[0]"));
        for n in [15, 16] {
            let text = format!("[{}]", vec!["0"; n].join(","));
            let d = parse_doc(&text).unwrap();
            assert_eq!(d.nodes.len(), usize::from(n > 15), "{n} children");
            assert_eq!(d.root().as_array().map(Items::len), Some(n));
        }
    }

    #[test]
    fn lookups() {
        let d = parse_doc(r#"{"a":{"b":[10,"x\n"]},"c":null}"#).unwrap();
        let r = d.root();
        let b = r.get("a").and_then(|a| a.get("b")).and_then(Ref::as_array).unwrap();
        assert_eq!(b.len(), 2);
        assert_eq!(b.get(1).and_then(Ref::as_str), Some("x\n"));
        assert!(matches!(b.get(0).map(Ref::kind), Some(Kind::Int("10"))));
        assert!(r.get("c").is_some_and(Ref::is_null));
        assert_eq!(r.type_name(), "object");
    }
}
