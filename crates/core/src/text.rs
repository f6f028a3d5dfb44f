//! Text rules: the head/tail sample, the scoring tokenizer, and the three
//! content signals (ephemeral, durable, date).
//!
//! The reference implements these with Python `re` patterns over `str`. The
//! Rust `regex` crate disagrees with Python on `\w`, `\b`, `\d`, `\s` and
//! case-insensitive `i`, and its Unicode tables are both newer and large, so
//! each pattern is restated here as a small scanner over
//! [`crate::py::unicode`]'s pinned Unicode 15.0 tables (spec `scoring-admission.md` §8.1 gives the
//! restatements, fuzzed against the reference). Everything counts in code
//! points, as Python does.

use crate::json::Value;
use crate::py::float;
use crate::py::unicode::{
    self, is_alnum, is_decimal, is_py_space, is_py_word, CLASS_FOLDS, CLASS_SEP, CLASS_UNSEGMENTED,
};

/// Text sample cap in code points (spec `scoring-admission.md` §1).
pub const TEXT_SAMPLE_CHARS: usize = 8192;
/// Token cap (spec `scoring-admission.md` §1).
pub const TOKEN_CAP: usize = 1024;
const HEAD_CHARS: usize = 4095;
const TAIL_CHARS: usize = 4096;

/// The deterministic head/tail sample (spec `scoring-admission.md` §3.3): unchanged when at most
/// 8,192 code points, else the first 4,095, one space, and the last 4,096.
pub fn sample(text: &str) -> std::borrow::Cow<'_, str> {
    // Fast path: byte length bounds the code-point count.
    if text.len() <= TEXT_SAMPLE_CHARS {
        return std::borrow::Cow::Borrowed(text);
    }
    // Only the head and the tail are read: the first 4,095 chars end at
    // `head_end`, the last 4,096 start at `tail_start`. The text has more
    // than 8,192 = 4,095 + 4,096 + 1 chars iff at least two chars lie between
    // them, so the middle of a long text is never scanned.
    let head_end = char_offset(text, HEAD_CHARS);
    let tail_start = char_offset_from_end(text, TAIL_CHARS);
    if tail_start <= head_end {
        return std::borrow::Cow::Borrowed(text);
    }
    let (_, first_len) = char_at(text, head_end);
    if head_end + first_len >= tail_start {
        // Exactly one char in between: 8,192 chars, kept whole.
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(head_end + 1 + text.len() - tail_start);
    out.push_str(&text[..head_end]);
    out.push(' ');
    out.push_str(&text[tail_start..]);
    std::borrow::Cow::Owned(out)
}

/// Byte offset where the last `n` chars of `s` start (0 when `s` has at most
/// `n` chars): counts char starts from the end, 64 bytes, then eight bytes,
/// at a time.
#[inline]
pub(crate) fn char_offset_from_end(s: &str, n: usize) -> usize {
    let b = s.as_bytes();
    let mut seen = 0usize;
    let mut i = b.len();
    while i >= BLOCK {
        let starts = block_starts(&b[i - BLOCK..i]);
        if seen + starts >= n {
            break;
        }
        seen += starts;
        i -= BLOCK;
    }
    while i >= 8 {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(&b[i - 8..i]).unwrap_or([0; 8]));
        let starts = char_starts(w);
        if seen + starts as usize >= n {
            break;
        }
        seen += starts as usize;
        i -= 8;
    }
    while i > 0 {
        i -= 1;
        if (b[i] & 0xC0) != 0x80 {
            seen += 1;
            if seen == n {
                return i;
            }
        }
    }
    0
}

/// Bytes per step of the block loops of the char counters.
const BLOCK: usize = 64;

/// One bit (bit 0 of each byte) per continuation byte (`10xxxxxx`) of `w`.
#[inline(always)]
fn continuation_lanes(w: u64) -> u64 {
    const HI: u64 = 0x8080_8080_8080_8080;
    // Bit 7 set and bit 6 clear.
    (w & !(w << 1) & HI) >> 7
}

/// How many bytes of the word `w` start a char (are not `10xxxxxx`).
#[inline(always)]
fn char_starts(w: u64) -> u32 {
    // Summed by a multiply (no popcount instruction in baseline x86-64).
    8 - (continuation_lanes(w).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// How many bytes of `block` (`BLOCK` bytes) start a char: in wasm with
/// SIMD128, sixteen lanes at a time (a signed compare with `0xBF`: the
/// continuation bytes are -128..=-65; the bitmask's ones counted);
/// elsewhere the eight words' continuation lanes are added (at most 8 per
/// byte lane) and summed once.
#[inline(always)]
fn block_starts(block: &[u8]) -> usize {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::*;
        let last_continuation = i8x16_splat(-65);
        let mut n = 0u32;
        for chunk in block.chunks_exact(16) {
            // SAFETY: sixteen readable bytes; v128_load reads unaligned.
            let v = unsafe { v128_load(chunk.as_ptr().cast::<v128>()) };
            n += i8x16_bitmask(i8x16_gt(v, last_continuation)).count_ones();
        }
        #[allow(clippy::needless_return)]
        return n as usize;
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    block_starts_words(block)
}

/// [`block_starts`] with eight-byte words (natively, and its test model).
#[inline(always)]
#[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]
fn block_starts_words(block: &[u8]) -> usize {
    let mut lanes = 0u64;
    for chunk in block.chunks_exact(8) {
        lanes += continuation_lanes(u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0; 8])));
    }
    block.len() - (lanes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
}

/// Is `c` in one of the unsegmented-script ranges that are bigrammed?
pub fn is_unsegmented(c: char) -> bool {
    unicode::is_unsegmented(c)
}

/// `tokenize_for_scoring(value)` for a string (spec `scoring-admission.md` §3.4): sample, casefold,
/// split into `isalnum` word runs, bigram unsegmented-script segments, keep
/// the first 1,024 tokens.
pub fn tokenize(text: &str) -> Vec<String> {
    let sampled = sample(text);
    let mut folded = String::with_capacity(sampled.len());
    unicode::casefold_into(&sampled, &mut folded);
    let mut tokens: Vec<String> = Vec::new();
    for_each_token(&folded, TOKEN_CAP, |t| {
        tokens.push(t.to_string());
        true
    });
    tokens
}

/// `tokenize_for_scoring(value)` for any JSON value: strings as [`tokenize`],
/// null as empty, booleans/numbers through Python `str()`, containers
/// through their Python type name.
pub fn tokenize_value(value: &Value) -> Vec<String> {
    match value {
        Value::Str(s) => tokenize(&s.to_str_lossy()),
        Value::Null => Vec::new(),
        Value::Bool(b) => tokenize(if *b { "True" } else { "False" }),
        Value::Int(digits) => tokenize(digits),
        Value::Float(f) => tokenize(&float::repr(*f)),
        Value::Array(_) => tokenize("list"),
        Value::Object(_) => tokenize("dict"),
    }
}

/// The char starting at byte `i` of `s` and its UTF-8 length, decoded by
/// hand: `s` is valid UTF-8 and `i` a char boundary, so the lead byte gives
/// the length. (No `str` slicing or `Chars` iterator: in the size-optimized
/// wasm build those stay out-of-line calls on the hottest paths.)
#[inline(always)]
pub(crate) fn char_at(s: &str, i: usize) -> (char, usize) {
    let b = s.as_bytes();
    let b0 = b[i];
    if b0 < 0x80 {
        return (b0 as char, 1);
    }
    let cont = |k: usize| (b.get(i + k).copied().unwrap_or(0x80) & 0x3F) as u32;
    let (cp, len) = if b0 < 0xE0 {
        (((b0 as u32 & 0x1F) << 6) | cont(1), 2)
    } else if b0 < 0xF0 {
        (((b0 as u32 & 0x0F) << 12) | (cont(1) << 6) | cont(2), 3)
    } else {
        (((b0 as u32 & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3), 4)
    };
    // SAFETY: `s` is valid UTF-8, so the bytes from a lead byte at `i` are
    // one whole char (a scalar value: no surrogate, at most U+10FFFF), and a
    // continuation byte at `i` (not a boundary) reads as a two-byte lead:
    // below U+0800, a scalar value too.
    (unsafe { char::from_u32_unchecked(cp) }, len)
}

/// `s[a..b]`, where `a <= b` are char boundaries of `s` (positions the
/// tokenizer's scans stopped at), without the checks and the panic path.
#[inline(always)]
fn piece(s: &str, a: usize, b: usize) -> &str {
    debug_assert!(a <= b && s.is_char_boundary(a) && s.is_char_boundary(b));
    // SAFETY: as above (checked in debug builds).
    unsafe { s.get_unchecked(a..b) }
}

/// Byte offset of the char with index `n` in `s` (or `s.len()` when `s` has
/// at most `n` chars): counts char starts (non-continuation bytes).
#[inline]
pub fn char_offset(s: &str, n: usize) -> usize {
    let b = s.as_bytes();
    let mut seen = 0usize;
    let mut i = 0usize;
    // Whole blocks, then words, while the n-th char start cannot be inside them.
    while let Some(block) = b.get(i..i + BLOCK) {
        let starts = block_starts(block);
        if seen + starts > n {
            break;
        }
        seen += starts;
        i += BLOCK;
    }
    while let Some(chunk) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0; 8]));
        let starts = char_starts(w) as usize;
        if seen + starts > n {
            break;
        }
        seen += starts;
        i += 8;
    }
    while i < b.len() {
        if (b[i] & 0xC0) != 0x80 {
            if seen == n {
                return i;
            }
            seen += 1;
        }
        i += 1;
    }
    s.len()
}

/// Number of chars in `s` (counting char starts).
#[inline]
pub fn char_count(s: &str) -> usize {
    let b = s.as_bytes();
    let mut blocks = b.chunks_exact(BLOCK);
    let mut n = 0usize;
    for block in blocks.by_ref() {
        n += block_starts(block);
    }
    let mut words = blocks.remainder().chunks_exact(8);
    for chunk in words.by_ref() {
        n += char_starts(u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0; 8]))) as usize;
    }
    n + words.remainder().iter().filter(|&&c| (c & 0xC0) != 0x80).count()
}

/// Stream the scoring tokens of already-sampled, casefolded text (spec `scoring-admission.md` §3.4
/// steps 2–4) without allocating: `f` receives each of the first `cap`
/// tokens as a slice of `folded`, in order, and returns `false` to stop
/// early. Returns how many tokens were passed to `f`.
///
/// This is the one tokenizer: [`tokenize`] collects its output, and the
/// scorer counts and matches tokens through it directly. ASCII bytes take a
/// table-free path (ASCII is never in an unsegmented script).
pub fn for_each_token<'a>(folded: &'a str, cap: usize, mut f: impl FnMut(&'a str) -> bool) -> usize {
    let bytes = folded.as_bytes();
    let len = bytes.len();
    let mut count = 0usize;
    if cap == 0 {
        return 0;
    }
    // Emit one segment; false when the cap is reached or `f` asks to stop.
    let mut emit = |seg: &'a str, unsegmented: bool, count: &mut usize| -> bool {
        if unsegmented {
            // Overlapping 2-code-point bigrams; a lone char is its own token.
            let (_, first_len) = char_at(seg, 0);
            let mut prev = 0usize;
            let mut i = first_len;
            let any_pair = i < seg.len();
            while i < seg.len() {
                let (_, l) = char_at(seg, i);
                *count += 1;
                if !f(piece(seg, prev, i + l)) || *count >= cap {
                    return false;
                }
                prev = i;
                i += l;
            }
            if any_pair {
                return true;
            }
        }
        *count += 1;
        f(seg) && *count < cap
    };
    let mut i = 0usize;
    while i < len {
        // Skip separators (ASCII without any table).
        let b = bytes[i];
        let (c, l) = if b < 0x80 {
            if !b.is_ascii_alphanumeric() {
                i += 1;
                continue;
            }
            (b as char, 1)
        } else {
            let (c, l) = char_at(folded, i);
            if !is_alnum(c) {
                i += l;
                continue;
            }
            (c, l)
        };
        // One word: a maximal run of isalnum chars, emitted segment by segment.
        let mut seg_start = i;
        let mut seg_uns = is_unsegmented(c);
        let mut j = i + l;
        loop {
            // The common case: a run of ASCII letters and digits in a normal segment.
            if !seg_uns {
                while j < len && bytes[j].is_ascii_alphanumeric() {
                    j += 1;
                }
            }
            if j >= len {
                break;
            }
            let b = bytes[j];
            let (uns, l) = if b < 0x80 {
                if !b.is_ascii_alphanumeric() {
                    break;
                }
                (false, 1)
            } else {
                let (c, l) = char_at(folded, j);
                if !is_alnum(c) {
                    break;
                }
                (is_unsegmented(c), l)
            };
            if uns != seg_uns {
                if !emit(piece(folded, seg_start, j), seg_uns, &mut count) {
                    return count;
                }
                seg_start = j;
                seg_uns = uns;
            }
            j += l;
        }
        if !emit(piece(folded, seg_start, j), seg_uns, &mut count) {
            return count;
        }
        i = j;
    }
    count
}

/// Byte classes of [`for_each_folded_token`]: ASCII as [`unicode::token_class`]
/// classes chars (capitals apart), bytes >= 0x80 as `HIGH` (decode, then
/// `token_class`). A word byte is WORD or CAPITAL (`class & 3 == 1`);
/// CAPITAL's bit 2 flags a capital.
const CAPITAL: u8 = 5;
const HIGH: u8 = 6;
const CLASSES: [u8; 256] = {
    let mut t = [HIGH; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_digit() || c.is_ascii_lowercase() {
            unicode::CLASS_WORD
        } else if c.is_ascii_uppercase() {
            CAPITAL
        } else {
            CLASS_SEP
        };
        b += 1;
    }
    t
};

/// A word char whose casefold is not itself but as long, folded in place
/// ([`lowered`]): `ß` (`ss`). A word class (`class & 3 == 1`); bit 3 flags it.
const SHARP_S: u8 = 9;

/// The class of the char at byte `i` of `sample` and its UTF-8 length.
/// The chars U+00DF–U+00FF (lead byte C3; `ß`, `÷` and the Latin-1 small
/// letters, each its own casefold) are classed here, without the page
/// tables: [`unicode::token_class`] has their page as one that folds.
#[inline(always)]
fn class_at(sample: &str, i: usize) -> (u8, usize) {
    let b = sample.as_bytes();
    let c = CLASSES[b[i] as usize];
    if c != HIGH {
        return (c, 1);
    }
    if b[i] == 0xC3 {
        if let Some(&t) = b.get(i + 1).filter(|&&t| t >= 0x9F) {
            return (
                match t {
                    0x9F => SHARP_S,
                    0xB7 => CLASS_SEP,
                    _ => unicode::CLASS_WORD,
                },
                2,
            );
        }
    }
    let (ch, l) = char_at(sample, i);
    (unicode::token_class(ch), l)
}

/// The casefold of `token`, a word whose chars are their own casefold but
/// for ASCII capitals (`seen & 4`, [`CAPITAL`]) and `ß` (`seen & 8`,
/// [`SHARP_S`]): `token`, or its fold in `buf` (`ß` → `ss`, as long).
#[inline(always)]
fn lowered<'s>(token: &'s str, seen: u8, buf: &'s mut String) -> &'s str {
    if seen & 8 == 0 {
        return ascii_lowered(token, seen & 4 != 0, buf);
    }
    sharp_s_lowered(token, buf)
}

/// [`lowered`] of a word with an `ß`.
#[inline(never)]
fn sharp_s_lowered<'s>(token: &str, buf: &'s mut String) -> &'s str {
    buf.clear();
    buf.push_str(token);
    // SAFETY: each `ß` (C3 9F: C3 is only ever a lead byte) becomes the two
    // ASCII bytes `ss`, and ASCII bytes their lowercase: whole chars are
    // replaced by whole chars, so `buf` stays UTF-8.
    let v = unsafe { buf.as_mut_vec() };
    let mut k = 0;
    while k < v.len() {
        if v[k] == 0xC3 && v.get(k + 1) == Some(&0x9F) {
            v[k] = b's';
            v[k + 1] = b's';
            k += 2;
        } else {
            v[k] = v[k].to_ascii_lowercase();
            k += 1;
        }
    }
    buf.as_str()
}

/// `token`, or (when it has an ASCII capital) its lowercase copy in `buf`.
#[inline(always)]
fn ascii_lowered<'s>(token: &'s str, capital: bool, buf: &'s mut String) -> &'s str {
    if !capital {
        return token;
    }
    buf.clear();
    buf.push_str(token);
    buf.make_ascii_lowercase();
    buf.as_str()
}

/// A token sink of [`for_each_folded_token`]'s slow path.
type TokenFn<'f> = dyn FnMut(&str) -> bool + 'f;

/// Where [`for_each_folded_token_into`] passes its tokens.
pub trait TokenSink {
    /// One token (already folded); false to stop.
    fn token(&mut self, t: &str) -> bool;
    /// The token `sample[start..end]` lowercased: a word of ASCII letters and
    /// digits, whose lowercase is each byte `| 0x20` (`buf`: scratch space).
    fn ascii_word(&mut self, sample: &str, start: usize, end: usize, buf: &mut String) -> bool;
}

/// A closure as a [`TokenSink`].
struct FnSink<F>(F);

impl<F: FnMut(&str) -> bool> TokenSink for FnSink<F> {
    #[inline(always)]
    fn token(&mut self, t: &str) -> bool {
        (self.0)(t)
    }
    #[inline(always)]
    fn ascii_word(&mut self, sample: &str, start: usize, end: usize, buf: &mut String) -> bool {
        let t = &sample[start..end];
        (self.0)(ascii_lowered(t, t.bytes().any(|b| b.is_ascii_uppercase()), buf))
    }
}

/// [`for_each_token`] over `casefold(sample)`, without casefolding the
/// sample as a whole: the tokens, the count and the calls to `f` are exactly
/// those of `for_each_token(&casefold(sample), cap, f)`, and the scan stops
/// as soon as the cap is reached or `f` asks to stop. `folded` is scratch
/// space (cleared first; its contents on return are unspecified).
///
/// Casefolding is per char without context, and a char whose fold is itself
/// (ASCII other than `A`–`Z`, and every non-ASCII char on a BMP page without
/// any fold mapping: [`unicode::token_class`]) is a token char or a
/// separator both before and after folding. So the sample is tokenized in
/// place, in one pass: ASCII capitals are lowered only in the tokens that
/// have them (copied to `folded`), and a char whose fold may change (in a
/// word or between words) makes the stretch from the start of its word (or
/// from itself) to the next self-folding separator be casefolded into
/// `folded` and tokenized there. The stretch's bounds are separators in the
/// folded text too, so no token crosses them, and the tokens of its word
/// already passed to `f` (bigrams before the char, which folding leaves as
/// they are) are the first tokens of the folded stretch: they are skipped.
pub fn for_each_folded_token(sample: &str, folded: &mut String, cap: usize, f: impl FnMut(&str) -> bool) -> usize {
    for_each_folded_token_into(sample, folded, cap, &mut FnSink(f))
}

/// [`for_each_folded_token`] into a [`TokenSink`]: the words of ASCII
/// letters and digits ended by an ASCII separator go to
/// [`TokenSink::ascii_word`] unsliced, every other token to [`TokenSink::token`].
#[inline(always)]
pub fn for_each_folded_token_into<S: TokenSink>(sample: &str, folded: &mut String, cap: usize, sink: &mut S) -> usize {
    folded.clear();
    let bytes = sample.as_bytes();
    let len = bytes.len();
    let mut count = 0usize;
    if cap == 0 {
        return 0;
    }
    // Casefold `sample[from..]` up to the next self-folding separator after
    // byte `at` and tokenize it, skipping its first `already` tokens (passed
    // before); returns where to resume, or None when the scan is over.
    let stretch = |from, at, already, folded: &mut String, count: &mut usize, f: &mut TokenFn| {
        let end = next_fixed_separator(sample, at);
        folded.clear();
        unicode::casefold_into(&sample[from..end], folded);
        let mut skip = already;
        let mut stopped = false;
        let passed = for_each_token(folded, cap - *count + already, |t| {
            if skip > 0 {
                skip -= 1;
                return true;
            }
            let go = f(t);
            stopped = !go;
            go
        });
        *count += passed.saturating_sub(already);
        (!stopped && *count < cap).then_some(end)
    };
    // Pass one token to `f`; returns from the scan when it is over.
    macro_rules! emit {
        ($t:expr, $word_tokens:ident) => {{
            count += 1;
            $word_tokens += 1;
            if !sink.token($t) || count >= cap {
                return count;
            }
        }};
    }
    let mut i = 0usize;
    'words: while i < len {
        // ASCII fast path, 16 bytes at a time: ASCII separators, then each
        // word of ASCII letters and digits ended by an ASCII separator is one
        // token. A non-ASCII char, a word going on with one, and the last
        // bytes (less than a block) take the general path below.
        i = ascii_words(sample, i, folded, &mut count, cap, sink);
        if i == usize::MAX {
            return count;
        }
        // Separators (ASCII ones without decoding).
        while i < len && CLASSES[bytes[i] as usize] == CLASS_SEP {
            i += 1;
        }
        if i >= len {
            break;
        }
        let (class, l) = class_at(sample, i);
        if class == CLASS_SEP {
            i += l;
            continue;
        }
        if class == CLASS_FOLDS {
            match stretch(i, i + l, 0, folded, &mut count, &mut |t| sink.token(t)) {
                Some(end) => i = end,
                None => return count,
            }
            continue;
        }
        // A word: its start and tokens passed so far; its current segment:
        // start, unsegmented or not, last char's start, chars (unsegmented),
        // classes seen (CAPITAL's bit: a capital to lower).
        let word_start = i;
        let mut word_tokens = 0usize;
        let mut seg_start = i;
        let mut seg_uns = class == CLASS_UNSEGMENTED;
        let mut prev = i;
        let mut seg_chars = 1usize;
        let mut seen = class;
        i += l;
        loop {
            if !seg_uns {
                // The common case: a run of ASCII letters and digits.
                while i < len {
                    let c = CLASSES[bytes[i] as usize];
                    if c & 3 != 1 {
                        break;
                    }
                    seen |= c;
                    i += 1;
                }
            }
            let (class, l) = if i < len { class_at(sample, i) } else { (CLASS_SEP, 0) };
            let uns = class == CLASS_UNSEGMENTED;
            if class == CLASS_FOLDS {
                match stretch(word_start, i + l, word_tokens, folded, &mut count, &mut |t| sink.token(t)) {
                    Some(end) => i = end,
                    None => return count,
                }
                continue 'words;
            }
            if class == CLASS_SEP || uns != seg_uns {
                // End the segment: a normal segment is one token; an
                // unsegmented one passed its bigrams, unless it is one char.
                if !seg_uns {
                    emit!(lowered(piece(sample, seg_start, i), seen, folded), word_tokens);
                } else if seg_chars == 1 {
                    emit!(piece(sample, seg_start, i), word_tokens);
                }
                if class == CLASS_SEP {
                    i += l;
                    continue 'words;
                }
                seg_start = i;
                seg_uns = uns;
                seg_chars = 1;
                seen = class;
            } else if uns {
                seg_chars += 1;
                emit!(piece(sample, prev, i + l), word_tokens);
            } else {
                seen |= class;
            }
            prev = i;
            i += l;
        }
    }
    count
}

/// The ASCII words of `sample` from byte `i` (see [`for_each_folded_token`]),
/// block by block: each 16 bytes are classified once ([`classify16`]) and
/// their words are found with `trailing_zeros`. Every word of ASCII letters
/// and digits followed by an ASCII separator goes to
/// [`TokenSink::ascii_word`] (`count` counts it). Returns where the general
/// path must go on (a non-ASCII char between words, the start of a word
/// going on with one or reaching the last partial block, or that block),
/// or `usize::MAX` when the scan is over (the cap, or the sink asked to stop).
///
/// Never inlined: in a function of its own the loop keeps its state in
/// registers (inlined into the general path, V8 spilled most of it to the
/// stack: about 110 instructions a word instead of about 35).
#[inline(never)]
fn ascii_words<S: TokenSink>(
    sample: &str,
    i: usize,
    buf: &mut String,
    count: &mut usize,
    cap: usize,
    sink: &mut S,
) -> usize {
    let mut n = *count;
    let at = ascii_words_from(sample, i, buf, &mut n, cap, sink);
    *count = n;
    at.unwrap_or(usize::MAX)
}

#[inline(always)]
fn ascii_words_from<S: TokenSink>(
    sample: &str,
    i: usize,
    buf: &mut String,
    count: &mut usize,
    cap: usize,
    sink: &mut S,
) -> Option<usize> {
    let b = sample.as_bytes();
    let mut base = i;
    let Some((mut alnum, mut high)) = classify16::<false>(b, base) else {
        return Some(base);
    };
    // Lanes of the block at `base` already read.
    let mut k = 0u32;
    loop {
        let next = (alnum | high) >> k;
        if next == 0 {
            base += 16;
            k = 0;
            match classify16::<false>(b, base) {
                Some(lanes) => (alnum, high) = lanes,
                None => return Some(base),
            }
            continue;
        }
        k += next.trailing_zeros();
        let start = base + k as usize;
        if (high >> k) & 1 != 0 {
            return Some(start);
        }
        // The word's letters and digits (`alnum >> k` is zero from lane 16 - k).
        k += (!(alnum >> k)).trailing_zeros();
        while k == 16 {
            base += 16;
            let Some(lanes) = classify16::<false>(b, base) else {
                return Some(start);
            };
            (alnum, high) = lanes;
            k = (!alnum).trailing_zeros();
        }
        if (high >> k) & 1 != 0 {
            return Some(start);
        }
        *count += 1;
        if !sink.ascii_word(sample, start, base + k as usize, buf) || *count >= cap {
            return None;
        }
    }
}

/// The 16 bytes of `b` from `i` as two 16-bit lane masks (bit `n`: byte
/// `i + n`): the ASCII letters and digits (and `_` when `UNDERSCORE`: the
/// ASCII `\w` bytes), and the bytes >= 0x80. None when fewer than 16 bytes
/// are left.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn classify16<const UNDERSCORE: bool>(b: &[u8], i: usize) -> Option<(u32, u32)> {
    use core::arch::wasm32::*;
    let block = b.get(i..i + 16)?;
    // SAFETY: `block` holds 16 readable bytes; v128_load reads unaligned.
    let v = unsafe { v128_load(block.as_ptr().cast::<v128>()) };
    // Unsigned: `x - lo < n` is `lo <= x < lo + n`; `x | 0x20` is in
    // `a..=z` exactly when `x` is an ASCII letter (bytes >= 0x80 stay >= 0xA0).
    let digit = u8x16_lt(u8x16_sub(v, u8x16_splat(b'0')), u8x16_splat(10));
    let letter = u8x16_lt(u8x16_sub(v128_or(v, u8x16_splat(0x20)), u8x16_splat(b'a')), u8x16_splat(26));
    let mut word = v128_or(digit, letter);
    if UNDERSCORE {
        word = v128_or(word, u8x16_eq(v, u8x16_splat(b'_')));
    }
    Some((u32::from(u8x16_bitmask(word)), u32::from(u8x16_bitmask(v))))
}

/// [`classify16`] without SIMD128: two 8-byte [`ascii_lanes`].
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn classify16<const UNDERSCORE: bool>(b: &[u8], i: usize) -> Option<(u32, u32)> {
    let block = b.get(i..i + 16)?;
    let word = |k: usize| u64::from_le_bytes(<[u8; 8]>::try_from(&block[k..k + 8]).unwrap_or([0; 8]));
    let (lo, hi) = (word(0), word(8));
    let lanes = |w: u64| ascii_lanes(w).0 | if UNDERSCORE { byte_lanes(w, b'_') } else { 0 };
    let mask = |lo: u64, hi: u64| lane_bits(lo) | lane_bits(hi) << 8;
    Some((mask(lanes(lo), lanes(hi)), mask(lo & HI, hi & HI)))
}

/// Bit 7 of each lane of `m` (the only bits set) gathered into bits 0..8:
/// lane `n`'s bit lands in bit `56 + n` of the product, and no two of the
/// 64 partial products share a bit (`8n + 7j` are distinct), so nothing carries.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn lane_bits(m: u64) -> u32 {
    ((m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The lanes of `w` (bit 7 of each byte) holding an ASCII letter or digit,
/// and those holding an ASCII capital. Every sum stays below 0x100 in its
/// lane (no carries): bit 7 of `x + (0x80 - lo)` is `x >= lo`, of
/// `x + (0x7F - hi)` is `x > hi`, for `x < 0x80`; `x | 0x20` is in `a..=z`
/// exactly when `x` is an ASCII letter.
#[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128", not(test)), allow(dead_code))]
#[inline(always)]
fn ascii_lanes(w: u64) -> (u64, u64) {
    let ascii = !w & HI;
    let x = w & !HI;
    let within = |x: u64, lo: u8, hi: u8| (x + ONES * u64::from(0x80 - lo)) & !(x + ONES * u64::from(0x7F - hi));
    let digit = within(x, b'0', b'9');
    let letter = within(x | (ONES * 0x20), b'a', b'z');
    ((digit | letter) & ascii, within(x, b'A', b'Z') & ascii)
}

/// Matches content tokens against the distinct sorted query tokens.
///
/// Most content tokens match no query token. A filter rejects nearly all of
/// them before any string comparison: a mask of the byte lengths of the
/// still-unmatched query tokens, and a 1,024-bit set of a hash of (length,
/// first, second, last byte). It is rebuilt after each new match (at most
/// once per query token), so frequent words that already matched ("the")
/// stop passing it.
pub struct Matcher<'q> {
    q: &'q [&'q str],
    /// `matched[k]`: `q[k]` was seen.
    matched: Vec<bool>,
    remaining: usize,
    seen: usize,
    /// How many tokens must be seen before [`Matcher::feed`] may stop.
    needed: usize,
    filter: Filter,
}

impl<'q> Matcher<'q> {
    /// A matcher of the distinct sorted query tokens `q` that asks to stop
    /// once every one matched and `needed` tokens were fed.
    pub fn new(q: &'q [&'q str], needed: usize) -> Matcher<'q> {
        let mut m =
            Matcher { q, matched: vec![false; q.len()], remaining: q.len(), seen: 0, needed, filter: Filter::EMPTY };
        m.rebuild();
        m
    }

    /// How many query tokens are still unmatched.
    pub fn remaining(&self) -> usize {
        self.remaining
    }

    fn rebuild(&mut self) {
        let mut filter = Filter::EMPTY;
        for (t, _) in self.q.iter().zip(&self.matched).filter(|(_, &m)| !m) {
            filter.lengths |= 1 << t.len().min(63);
            let h = token_hash(t);
            filter.bits[h >> 6] |= 1 << (h & 63);
        }
        self.filter = filter;
    }

    /// Mark `t` if it is a not-yet-matched query token.
    #[inline(always)]
    pub fn mark(&mut self, t: &str) {
        if self.filter.lengths & (1 << t.len().min(63)) == 0 {
            return;
        }
        let h = token_hash(t);
        if self.filter.bits[h >> 6] & (1 << (h & 63)) != 0 {
            self.mark_slow(t);
        }
    }

    #[inline(never)]
    fn mark_slow(&mut self, t: &str) {
        if let Ok(k) = self.q.binary_search(&t) {
            if let Some(m) = self.matched.get_mut(k).filter(|m| !**m) {
                *m = true;
                self.remaining -= 1;
                self.rebuild();
            }
        }
    }

    /// One content token; false when the answer cannot change any more
    /// (every query token matched and `needed` tokens seen).
    #[inline(always)]
    pub fn feed(&mut self, t: &str) -> bool {
        self.seen += 1;
        if self.remaining > 0 {
            self.mark(t);
        }
        !(self.remaining == 0 && self.seen >= self.needed)
    }
}

impl TokenSink for Matcher<'_> {
    #[inline(always)]
    fn token(&mut self, t: &str) -> bool {
        self.feed(t)
    }

    /// [`Matcher::feed`] of the lowered word, lowered only when it passes
    /// the filter: its length and hash (`token_hash`) are those of the raw
    /// bytes `| 0x20`.
    #[inline(always)]
    fn ascii_word(&mut self, sample: &str, start: usize, end: usize, buf: &mut String) -> bool {
        self.seen += 1;
        if self.remaining > 0 && self.filter.lengths & (1 << (end - start).min(63)) != 0 {
            let b = sample.as_bytes();
            let (f, l) = (b[start] | 0x20, b[end - 1] | 0x20);
            let s = if end - start > 1 { b[start + 1] | 0x20 } else { 0 };
            let h = hash_parts(end - start, f, s, l);
            if self.filter.bits[h >> 6] & (1 << (h & 63)) != 0 {
                buf.clear();
                buf.push_str(&sample[start..end]);
                buf.make_ascii_lowercase();
                self.mark_slow(buf);
            }
        }
        !(self.remaining == 0 && self.seen >= self.needed)
    }
}

/// The query-token filter of [`Matcher`].
struct Filter {
    /// Bit `n` set: some unmatched query token is `n` bytes long (63 = 63 or more).
    lengths: u64,
    /// A 1,024-bit set of [`token_hash`] values.
    bits: [u64; 16],
}

impl Filter {
    const EMPTY: Filter = Filter { lengths: 0, bits: [0; 16] };
}

/// A 10-bit hash of a token's length and its first two and last byte.
#[inline(always)]
fn token_hash(t: &str) -> usize {
    let b = t.as_bytes();
    let (f, s, l) = match b {
        [] => (0, 0, 0),
        [only] => (*only, 0, *only),
        [f, l] => (*f, *l, *l),
        [f, s, .., l] => (*f, *s, *l),
    };
    hash_parts(b.len(), f, s, l)
}

/// [`token_hash`] of a token of `len` bytes: first, second (0 when none), last.
#[inline(always)]
fn hash_parts(len: usize, f: u8, s: u8, l: u8) -> usize {
    let x = (len as u32) | (f as u32) << 8 | (s as u32) << 16 | (l as u32) << 24;
    (x.wrapping_mul(0x9E37_79B1) >> 22) as usize
}

/// [`for_each_token`] feeding `m` ([`Matcher::feed`]): instantiated here,
/// so the token pass is compiled with this crate's settings wherever it is
/// called (and never inlined into a caller compiled for size: one call per text).
#[inline(never)]
pub fn match_tokens(folded: &str, cap: usize, m: &mut Matcher<'_>) -> usize {
    for_each_token(folded, cap, |t| m.feed(t))
}

/// [`for_each_folded_token`] feeding `m` ([`Matcher::feed`]), instantiated here.
#[inline(never)]
pub fn match_folded_tokens(sample: &str, folded: &mut String, cap: usize, m: &mut Matcher<'_>) -> usize {
    for_each_folded_token_into(sample, folded, cap, m)
}

/// [`Matcher::mark`] with each of the first [`TOKEN_CAP`] tokens of `folded`,
/// stopping once every query token matched.
#[inline(never)]
pub fn mark_tokens(folded: &str, m: &mut Matcher<'_>) {
    for_each_token(folded, TOKEN_CAP, |t| {
        m.mark(t);
        m.remaining > 0
    });
}

/// The offset of the first char at or after byte `i` of `s` that is a
/// separator and its own casefold (`s.len()` when there is none).
fn next_fixed_separator(s: &str, mut i: usize) -> usize {
    let b = s.as_bytes();
    while i < b.len() {
        if b[i] < 0x80 {
            if !b[i].is_ascii_alphanumeric() {
                return i;
            }
            i += 1;
        } else {
            let (c, l) = char_at(s, i);
            if unicode::token_class(c) == unicode::CLASS_SEP {
                return i;
            }
            i += l;
        }
    }
    b.len()
}

/// Python `re.IGNORECASE` equality of a pattern char (lowercase ASCII letter
/// or other ASCII) with a text char (spec `scoring-admission.md` §7.6): ASCII pairs, plus `İ`/`ı`
/// for `i`, `ſ` for `s`, and the Kelvin sign for `k`.
pub fn ieq(pattern: u8, c: char) -> bool {
    if (c as u32) < 128 {
        return (c as u8).to_ascii_lowercase() == pattern;
    }
    matches!((pattern, c), (b'i', '\u{130}') | (b'i', '\u{131}') | (b's', '\u{17F}') | (b'k', '\u{212A}'))
}

/// Do `chars` equal the ASCII `pattern` under [`ieq`], char for char?
pub fn ieq_str(pattern: &str, chars: &[char]) -> bool {
    pattern.len() == chars.len() && pattern.bytes().zip(chars).all(|(p, &c)| ieq(p, c))
}

/// [`ieq_str`] against a `&str` (the same comparison without a `Vec<char>`).
pub fn ieq_text(pattern: &str, text: &str) -> bool {
    let mut chars = text.chars();
    pattern.bytes().all(|p| chars.next().is_some_and(|c| ieq(p, c))) && chars.next().is_none()
}

/// Greetings and acknowledgements that make a content ephemeral (spec `scoring-admission.md` §3.5).
pub const EPHEMERAL_WORDS: [&str; 9] = ["hi", "hello", "hey", "thanks", "thank you", "ok", "okay", "lol", "bye"];

/// Ephemeral signal (spec `scoring-admission.md` §8.1): after Py-strip, a greeting or
/// acknowledgement followed only by `.`, `!` and spaces.
pub fn is_ephemeral(sample: &str) -> bool {
    let stripped = unicode::py_strip(sample);
    // Every word starts with h, t, o, l or b, which ieq only to themselves
    // in either ASCII case: any other first byte fails without further work.
    if !matches!(stripped.as_bytes().first(), Some(b'h' | b't' | b'o' | b'l' | b'b' | b'H' | b'T' | b'O' | b'L' | b'B'))
    {
        return false;
    }
    // The longest word is 9 chars: keep 64 at most, and require only `.`,
    // `!` and spaces after them (checked lazily, stopping at the first other char).
    let mut head = ['\0'; 64];
    let mut n = 0;
    let mut rest = stripped.chars();
    for c in rest.by_ref().take(64) {
        head[n] = c;
        n += 1;
    }
    if !rest.all(|c| matches!(c, '.' | '!' | ' ')) {
        return false;
    }
    let chars = &head[..n];
    EPHEMERAL_WORDS.iter().any(|w| {
        let n = w.len();
        chars.len() >= n && ieq_str(w, &chars[..n]) && chars[n..].iter().all(|c| matches!(c, '.' | '!' | ' '))
    })
}

/// Durable-fact words (whole `\w` runs, case-insensitive, spec `scoring-admission.md` §3.5).
pub const DURABLE_WORDS: [&str; 23] = [
    "decided",
    "decision",
    "deadline",
    "must",
    "shall",
    "required",
    "constraint",
    "policy",
    "revenue",
    "guidance",
    "budget",
    "price",
    "contract",
    "prefer",
    "prefers",
    "allergic",
    "diagnos",
    "legal",
    "regulat",
    "compliance",
    "effective",
    "expire",
    "expires",
];
/// Shortest and longest durable word, in chars (a run of another length cannot match).
const DURABLE_MIN: usize = 4;
const DURABLE_MAX: usize = 10;

/// The three content signals computed on the sample (spec `scoring-admission.md` §3.5, §8.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Signals {
    /// Durable-fact words, amounts or percentages.
    pub durable: bool,
    /// A 19xx/20xx year.
    pub date: bool,
    /// Only a greeting or acknowledgement.
    pub ephemeral: bool,
}

/// Compute durable, date and ephemeral with one scan of the sample's word
/// runs (stopping as soon as both durable and date are true), on the `&str`
/// itself: no `Vec<char>` of the sample. Never inlined, so the scan keeps
/// this crate's optimization level in a caller compiled for size.
#[inline(never)]
pub fn signals(sample: &str) -> Signals {
    // ASCII `\w` bytes: letters, digits, `_`.
    const WORD: [bool; 128] = {
        let mut t = [false; 128];
        let mut b = 0;
        while b < 128 {
            t[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
            b += 1;
        }
        t
    };
    // Is the char at byte `i` a word char? With its length.
    #[inline(always)]
    fn word_at(s: &str, i: usize) -> (bool, usize) {
        let b = s.as_bytes()[i];
        if b < 0x80 {
            return (WORD[b as usize], 1);
        }
        let (c, l) = char_at(s, i);
        (is_py_word(c), l)
    }
    let mut durable = currency_amount(sample);
    let mut date = false;
    let bytes = sample.as_bytes();
    let len = bytes.len();
    let mut i = 0;
    while i < len && !(durable && date) {
        // ASCII fast path: the runs of ASCII `\w` bytes ended by an ASCII
        // byte, 16 bytes at a time; the general path below from where it stops.
        i = ascii_runs(sample, i, &mut durable, &mut date);
        if i >= len || (durable && date) {
            break;
        }
        let (word, l) = word_at(sample, i);
        if !word {
            i += l;
            continue;
        }
        // One word run [start, i) and its length in chars.
        let start = i;
        let mut chars = 1usize;
        i += l;
        while i < len {
            let (word, l) = word_at(sample, i);
            if !word {
                break;
            }
            i += l;
            chars += 1;
        }
        let run = &sample[start..i];
        if !durable {
            durable = ((DURABLE_MIN..=DURABLE_MAX).contains(&chars)
                && DURABLE_WORDS.iter().any(|w| w.len() == chars && ieq_text(w, run)))
                // The percent quirk: an all-Nd run, `%` right after it, then a word char.
                || (bytes.get(i) == Some(&b'%') && run.chars().all(is_decimal) && {
                    let mut after = sample[i + 1..].chars();
                    after.next().is_some_and(is_py_word)
                });
        }
        if !date && chars == 4 {
            let r = run.as_bytes();
            // `19`/`20` are ASCII, so byte 2 starts the third char.
            date = (r.starts_with(b"19") || r.starts_with(b"20")) && run[2..].chars().all(is_decimal);
        }
    }
    Signals { durable, date, ephemeral: is_ephemeral(sample) }
}

/// The `\w` runs of [`signals`] from byte `i` that are ASCII letters,
/// digits and `_` ended by an ASCII byte, 16 bytes at a time (as
/// [`ascii_words`]), each setting `durable` and `date` as the general scan
/// would. Returns where the general scan must go on (a non-ASCII char
/// between runs, the start of a run going on with one or reaching the last
/// partial block, or that block), or the end of the run that made both true.
/// (Inlined: out of line, as [`ascii_words`], it measured no better.)
#[inline(always)]
fn ascii_runs(sample: &str, i: usize, durable: &mut bool, date: &mut bool) -> usize {
    // The first letters of the durable words (a, b, c, d, e, g, l, m, p, r, s).
    const FIRST: u32 = {
        let mut m = 0u32;
        let mut k = 0;
        while k < DURABLE_WORDS.len() {
            m |= 1 << (DURABLE_WORDS[k].as_bytes()[0] - b'a');
            k += 1;
        }
        m
    };
    let b = sample.as_bytes();
    let mut base = i;
    let Some((mut word, mut high)) = classify16::<true>(b, base) else {
        return base;
    };
    let mut k = 0u32;
    loop {
        let next = (word | high) >> k;
        if next == 0 {
            base += 16;
            k = 0;
            match classify16::<true>(b, base) {
                Some(lanes) => (word, high) = lanes,
                None => return base,
            }
            continue;
        }
        k += next.trailing_zeros();
        let start = base + k as usize;
        if (high >> k) & 1 != 0 {
            return start;
        }
        k += (!(word >> k)).trailing_zeros();
        while k == 16 {
            base += 16;
            let Some(lanes) = classify16::<true>(b, base) else {
                return start;
            };
            (word, high) = lanes;
            k = (!word).trailing_zeros();
        }
        if (high >> k) & 1 != 0 {
            return start;
        }
        // An ASCII run: chars are bytes, `ieq` is ASCII case-insensitive, Nd is `0`-`9`.
        let end = base + k as usize;
        let run = &b[start..end];
        let n = run.len();
        if !*durable {
            let first = (run[0] | 0x20).wrapping_sub(b'a');
            *durable = ((DURABLE_MIN..=DURABLE_MAX).contains(&n)
                && first < 26
                && FIRST & (1 << first) != 0
                && DURABLE_WORDS.iter().any(|w| w.len() == n && w.as_bytes().eq_ignore_ascii_case(run)))
                || (b[end] == b'%'
                    && run.iter().all(u8::is_ascii_digit)
                    && sample[end + 1..].chars().next().is_some_and(is_py_word));
        }
        if !*date && n == 4 {
            *date = (run.starts_with(b"19") || run.starts_with(b"20")) && run[2..].iter().all(u8::is_ascii_digit);
        }
        if *durable && *date {
            return end;
        }
    }
}

/// `[$€£]\s?\d`: a currency sign, at most one Py-space, then an Nd digit.
fn currency_amount(sample: &str) -> bool {
    // `$` is ASCII; `€` (E2 82 AC) and `£` (C2 A3) start with lead bytes,
    // which never occur inside another char: scanning bytes finds every sign.
    let bytes = sample.as_bytes();
    let amount_at = |i: usize| {
        if !matches!(bytes[i], b'$' | 0xE2 | 0xC2) {
            return false;
        }
        let mut it = sample[i..].chars();
        if !matches!(it.next(), Some('$' | '€' | '£')) {
            return false;
        }
        match it.next() {
            Some(d) if is_decimal(d) => true,
            Some(s) if is_py_space(s) => it.next().is_some_and(is_decimal),
            _ => false,
        }
    };
    // Eight bytes at a time: only the lanes holding one of the three bytes are looked at.
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0; 8]));
        let mut lanes = byte_lanes(w, b'$') | byte_lanes(w, 0xE2) | byte_lanes(w, 0xC2);
        while lanes != 0 {
            if amount_at(i + (lanes.trailing_zeros() / 8) as usize) {
                return true;
            }
            lanes &= lanes - 1;
        }
        i += 8;
    }
    (i..bytes.len()).any(amount_at)
}

/// Bit 7 of each byte lane of `w` that equals `b` (exact: no carries between lanes).
#[inline(always)]
fn byte_lanes(w: u64, b: u8) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = w ^ (u64::from(b) * 0x0101_0101_0101_0101);
    // A lane's bit 7 is set here iff the lane of `x` is non-zero.
    let nonzero = ((x & LOW7) + LOW7) | x;
    !nonzero & !LOW7
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seeded xorshift64 stream for the randomised tests.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    fn toks(s: &str) -> Vec<String> {
        tokenize(s)
    }

    #[test]
    fn tokenizer_examples_from_spec() {
        assert_eq!(
            toks("贷款风险评估已经完成"),
            ["贷款", "款风", "风险", "险评", "评估", "估已", "已经", "经完", "完成"]
        );
        assert_eq!(toks("abc贷款x"), ["abc", "贷款", "x"]);
        assert_eq!(toks("贷"), ["贷"]);
        assert_eq!(toks("Straße ﬁnance"), ["strasse", "finance"]);
        assert_eq!(toks("İstanbul"), ["i", "stanbul"]);
        assert_eq!(toks("ΣΊΣΥΦΟΣ"), ["σίσυφοσ"]);
        assert_eq!(toks("e\u{301}te"), ["e", "te"]);
        assert_eq!(toks("हिन्दी भाषा"), ["ह", "न", "द", "भ", "ष"]);
        assert_eq!(toks("カタカナー・テスト"), ["カタ", "タカ", "カナ", "ナー", "テス", "スト"]);
        assert_eq!(toks("x² ①② ３ｘ ｸﾞ"), ["x²", "①②", "３ｘ", "ｸﾞ"]);
        assert_eq!(toks("ꭰꭱ"), ["ᎠᎡ"]);
        assert_eq!(toks("𠀀𠀁𠀂"), ["𠀀𠀁𠀂"]);
        assert!(toks("___").is_empty());
        assert!(toks("").is_empty());
        assert_eq!(toks("credit_limit"), ["credit", "limit"]);
    }

    #[test]
    fn tokenizer_values() {
        assert_eq!(tokenize_value(&Value::Bool(true)), ["true"]);
        assert_eq!(tokenize_value(&Value::Float(1.5)), ["1", "5"]);
        assert_eq!(tokenize_value(&Value::Float(1e20)), ["1e", "20"]);
        assert_eq!(tokenize_value(&Value::int(7)), ["7"]);
        assert!(tokenize_value(&Value::Null).is_empty());
    }

    #[test]
    fn token_cap_and_sample() {
        let many = "w ".repeat(2000);
        assert_eq!(toks(&many).len(), TOKEN_CAP);
        let long: String = "a".repeat(9000);
        let s = sample(&long);
        assert_eq!(s.chars().count(), 8192);
        assert_eq!(s.chars().nth(4095), Some(' '));
        let cjk = "贷".repeat(3000);
        assert_eq!(toks(&cjk).len(), 1024);
    }

    /// The head/tail sample and the word-at-a-time char counting against
    /// the definition (chars collected), at every length around the cap and
    /// with multi-byte chars at every alignment.
    #[test]
    fn sample_matches_definition() {
        fn naive(t: &str) -> String {
            let c: Vec<char> = t.chars().collect();
            if c.len() <= TEXT_SAMPLE_CHARS {
                return t.to_string();
            }
            let mut s: String = c[..HEAD_CHARS].iter().collect();
            s.push(' ');
            s.extend(&c[c.len() - TAIL_CHARS..]);
            s
        }
        let pieces = ["a", "é", "東", "𠀀", "ab", "\u{301}"];
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        for target in [0usize, 1, 7, 8, 9, 4095, 4096, 8190, 8191, 8192, 8193, 8194, 8195, 9000, 20000] {
            for _ in 0..6 {
                let mut t = String::new();
                while t.chars().count() < target {
                    t.push_str(pieces[(next() % pieces.len() as u64) as usize]);
                }
                assert_eq!(sample(&t), naive(&t), "len {}", t.chars().count());
                assert_eq!(char_count(&t), t.chars().count());
                for n in [0, 1, 5, 4095, 8192] {
                    let want = t.char_indices().nth(n).map(|(i, _)| i).unwrap_or(t.len());
                    assert_eq!(char_offset(&t, n), want);
                    let count = t.chars().count();
                    if n > 0 {
                        let want =
                            if count <= n { 0 } else { t.char_indices().nth(count - n).map(|(i, _)| i).unwrap_or(0) };
                        assert_eq!(char_offset_from_end(&t, n), want);
                    }
                }
            }
        }
    }

    /// The word-at-a-time currency scan against the byte-at-a-time definition,
    /// with the sign at every alignment and near the end.
    #[test]
    fn currency_amount_matches_definition() {
        fn naive(s: &str) -> bool {
            let c: Vec<char> = s.chars().collect();
            (0..c.len()).any(|i| {
                matches!(c[i], '$' | '€' | '£')
                    && match c.get(i + 1) {
                        Some(&d) if is_decimal(d) => true,
                        Some(&sp) if is_py_space(sp) => c.get(i + 2).is_some_and(|&d| is_decimal(d)),
                        _ => false,
                    }
            })
        }
        for sign in ["$", "€", "£", "¢", "₤", "$ ", "€\u{a0}", "£  ", "$x", "€ x"] {
            for digit in ["", "1", "٣", "x", " 1"] {
                for pad in 0..20 {
                    for tail in 0..10 {
                        let s = format!("{}{sign}{digit}{}", "a".repeat(pad), "é".repeat(tail));
                        assert_eq!(currency_amount(&s), naive(&s), "{s:?}");
                    }
                }
            }
        }
        for b in 0..=255u8 {
            for lane in 0..8 {
                let mut w = [0x41u8; 8];
                w[lane] = b;
                let lanes = byte_lanes(u64::from_le_bytes(w), b'$');
                assert_eq!(lanes, if b == b'$' { 0x80 << (8 * lane) } else { 0 });
            }
        }
    }

    /// [`for_each_folded_token`] of `t` against the general tokenizer on its
    /// whole fold `folded`: the same tokens and count, under the cap `cap`
    /// and a sink that stops after `stop_after` tokens unless `go_on`.
    fn assert_same_tokens(t: &str, folded: &str, buf: &mut String, cap: usize, stop_after: usize, go_on: bool) {
        let mut want = Vec::new();
        let wn = for_each_token(folded, cap, |tok| {
            want.push(tok.to_string());
            want.len() <= stop_after || go_on
        });
        let mut got = Vec::new();
        let gn = for_each_folded_token(t, buf, cap, |tok| {
            got.push(tok.to_string());
            got.len() <= stop_after || go_on
        });
        assert_eq!((gn, &got), (wn, &want), "{t:?} cap {cap}");
    }

    /// The lazily folded token stream equals the tokens of the whole folded
    /// sample: every cap, early stops, pieces ending inside words, long
    /// unseparated CJK runs, chars whose fold changes length.
    #[test]
    fn folded_tokens_match_whole_fold() {
        let pieces = [
            "ab ",
            "Straße ",
            "İx",
            " ",
            "東京タワー",
            "ﬁ",
            "x²",
            "—",
            "12",
            "ΣΊ ",
            "\u{301}",
            "_",
            "ǅ",
            "AB ",
            "Ab東京",
            "\u{345}",
            "예산",
            "बजट ",
            "ÀB",
            "مرحبا ",
            "ıK",
            "\u{212A}",
            "𐐀",
            "𠀀",
        ];
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut buf = String::new();
        for round in 0..300 {
            let len = [10usize, 100, 2047, 2048, 2049, 5000, 8191, 9000][round % 8];
            let mut t = String::new();
            while t.len() < len {
                t.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            if round % 5 == 0 {
                t = "東".repeat(len / 3 + 1);
            }
            let t = sample(&t).into_owned();
            let folded = unicode::casefold(&t);
            for cap in [0usize, 1, 12, 700, TOKEN_CAP, usize::MAX] {
                let stop_after = (next() % 900) as usize;
                assert_same_tokens(&t, &folded, &mut buf, cap, stop_after, round % 2 == 0);
            }
        }
    }

    /// The ASCII fast path of [`for_each_folded_token`] against the general
    /// tokenizer on the whole fold: every ASCII byte (`_`, digits, capitals,
    /// controls, the bytes next to each class's bounds) and non-ASCII
    /// letters, separators and folding chars right after or before ASCII
    /// words, at every offset from the 8-byte lanes, the 16-byte blocks and the text's end.
    #[test]
    fn ascii_fast_path_matches_general() {
        for b in 0..=255u8 {
            for lane in 0..8 {
                let w = u64::from(b) << (8 * lane) | (0x2020_2020_2020_2020 & !(0xFF << (8 * lane)));
                let (alnum, upper) = ascii_lanes(w);
                let bit = 0x80u64 << (8 * lane);
                assert_eq!((alnum & bit != 0, upper & bit != 0), (b.is_ascii_alphanumeric(), b.is_ascii_uppercase()));
                assert_eq!((alnum | upper) & !bit, 0);
            }
        }
        let ascii: Vec<String> = (0..128u8).map(|b| (b as char).to_string()).collect();
        let others = ["é", "É", "ß", "東京", "\u{a0}", "—", "İ", "\u{212A}", "x²", "ǅ", "ab", "AB", "a_b", "09", "Zz"];
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut buf = String::new();
        for round in 0..20_000 {
            let mut t = String::new();
            for _ in 0..next() % 40 {
                let r = next();
                t.push_str(if r % 8 == 0 {
                    others[(r / 8 % others.len() as u64) as usize]
                } else {
                    &ascii[(r / 8 % 128) as usize]
                });
            }
            let folded = unicode::casefold(&t);
            let cap = [1usize, 3, TOKEN_CAP][round % 3];
            let mut want = Vec::new();
            let wn = for_each_token(&folded, cap, |tok| {
                want.push(tok.to_string());
                true
            });
            let mut got = Vec::new();
            let gn = for_each_folded_token(&t, &mut buf, cap, |tok| {
                got.push(tok.to_string());
                true
            });
            assert_eq!((gn, &got), (wn, &want), "{t:?} cap {cap}");
        }
    }

    /// The general path of [`for_each_folded_token`] (non-ASCII words) against the
    /// tokenizer on the whole fold, for texts mixing each script's letters,
    /// digits and combining marks (Arabic harakat and tatweel, Devanagari
    /// vowel signs and virama, Thai), ZWJ/ZWNJ, CJK punctuation and
    /// U+3005/U+3007, half- and full-width forms, Hangul syllables and jamo,
    /// Latin-1 and other two-byte chars with and without casefold mappings
    /// (`ß`, `ẞ`, `µ`, `Ÿ`, `Σ`, `ς`, U+0345, `և`, `İ`, `ǰ`), astral chars, and
    /// ASCII words right before and after, at every offset from the 16-byte
    /// blocks; the tokens and count through closures and through [`Matcher`].
    #[test]
    fn general_path_matches_whole_fold() {
        let pieces = [
            "مرحبا",
            "بالعالم",
            "ـ",
            "\u{64E}",
            "\u{651}",
            "٠١٢",
            "٫",
            "،",
            "नमस्ते",
            "दुनिया",
            "\u{94D}",
            "\u{93F}",
            "०१२",
            "।",
            "\u{901}",
            "\u{200D}",
            "\u{200C}",
            "東京",
            "予算会議",
            "東",
            "、",
            "。",
            "「",
            "」",
            "\u{3000}",
            "〇",
            "々",
            "ー",
            "ｶﾀｶﾅ",
            "ＡＢ",
            "１２",
            "예산",
            "회의",
            "예",
            "ᄀ",
            "ㄱ",
            "\u{D7A3}",
            "\u{D7B0}",
            "สวัสดี",
            "Straße",
            "STRASSE",
            "ß",
            "ẞ",
            "Größe",
            "É",
            "é",
            "µ",
            "ÿ",
            "Ÿ",
            "×",
            "÷",
            "ª",
            "²",
            "¼",
            "\u{a0}",
            "¿",
            "ﬁ",
            "İ",
            "ı",
            "ŉ",
            "ǰ",
            "Σ",
            "ς",
            "ΣΊ",
            "\u{345}",
            "Привет",
            "ПРИВЕТ",
            "שלום",
            "\u{5B0}",
            "և",
            "ǅ",
            "\u{301}",
            "𐐀",
            "𠀀",
            "abc",
            "ABC",
            "a1",
            "Zz9",
            "x",
            "9",
            "_",
            "-",
            "abcdefghijklmnopq",
            "$12.50",
        ];
        let seps = [" ", "", "", "", "  ", ".", "\n", "\u{3000}", "\u{a0}"];
        let mut next = xorshift(0x6A09_E667_F3BC_C908);
        let mut buf = String::new();
        for round in 0..6000 {
            let mut t = " ".repeat(round % 19);
            for _ in 0..next() % 40 {
                t.push_str(pieces[(next() % pieces.len() as u64) as usize]);
                t.push_str(seps[(next() % seps.len() as u64) as usize]);
            }
            let folded = unicode::casefold(&t);
            let all = tokenize(&t);
            for cap in [1usize, 7, TOKEN_CAP] {
                let stop_after = (next() % 60) as usize;
                assert_same_tokens(&t, &folded, &mut buf, cap, stop_after, round % 2 == 0);
                // Queries drawn from the tokens (non-ASCII ones included).
                let mut q: Vec<&str> = (0..1 + next() % 4)
                    .filter_map(|_| all.get((next() % (all.len() as u64 + 1)) as usize))
                    .map(String::as_str)
                    .collect();
                q.sort_unstable();
                q.dedup();
                let mut want = Matcher::new(&q, 12);
                let wn = for_each_token(&folded, cap, |tok| want.feed(tok));
                let mut got = Matcher::new(&q, 12);
                let gn = match_folded_tokens(&t, &mut buf, cap, &mut got);
                assert_eq!((gn, &got.matched, got.seen), (wn, &want.matched, want.seen), "{t:?} {q:?} cap {cap}");
            }
        }
    }

    /// [`class_at`] of every char against its definition: a separator, a
    /// word char or an unsegmented one is its own casefold; [`SHARP_S`]'s
    /// casefold is as long and folds with [`lowered`].
    #[test]
    fn class_at_is_its_definition() {
        let mut buf = String::new();
        for c in (0x80..=0x10_FFFFu32).filter_map(char::from_u32) {
            let t = c.to_string();
            let (class, l) = class_at(&t, 0);
            assert_eq!(l, t.len(), "U+{:04X}", c as u32);
            let same = unicode::casefold(&t) == t;
            let want = match class {
                CLASS_SEP => same && !is_alnum(c),
                unicode::CLASS_WORD => same && is_alnum(c) && !is_unsegmented(c),
                CLASS_UNSEGMENTED => same && is_alnum(c) && is_unsegmented(c),
                SHARP_S => lowered(&t, class, &mut buf) == unicode::casefold(&t) && is_alnum(c),
                _ => class == CLASS_FOLDS,
            };
            assert!(want, "U+{:04X} class {class}", c as u32);
        }
    }

    /// [`classify16`] lane by lane: every byte in every lane, the other
    /// lanes holding bytes of every class.
    #[test]
    fn classify16_lanes() {
        let fill = [b' ', b'a', b'Z', b'0', b'_', 0x80, 0xFF, b'@', b'[', b'`', b'{', b'/', b':'];
        for b in 0..=255u8 {
            for lane in 0..16 {
                for (f, &other) in fill.iter().enumerate() {
                    let mut block = [0u8; 18];
                    for (k, x) in block.iter_mut().enumerate() {
                        *x = fill[(f + k) % fill.len()];
                    }
                    block[1 + lane] = b;
                    let (alnum, high) = classify16::<false>(&block, 1).unwrap_or((u32::MAX, u32::MAX));
                    let (word, high_w) = classify16::<true>(&block, 1).unwrap_or((u32::MAX, u32::MAX));
                    let want = |p: fn(u8) -> bool| (0..16).filter(|&n| p(block[1 + n])).fold(0u32, |m, n| m | 1 << n);
                    assert_eq!(alnum, want(|x| x.is_ascii_alphanumeric()), "{b:#x} lane {lane} fill {other:#x}");
                    assert_eq!(word, want(|x| x.is_ascii_alphanumeric() || x == b'_'), "{b:#x} lane {lane}");
                    assert_eq!((high, high_w), (want(|x| x >= 0x80), want(|x| x >= 0x80)), "{b:#x} lane {lane}");
                }
            }
        }
        assert_eq!(classify16::<false>(&[b'a'; 15], 0), None);
        assert_eq!(classify16::<true>(&[b'a'; 20], 5), None);
    }

    /// [`signals`]' durable and date (ASCII runs 16 bytes at a time) against
    /// the definition over `\w` runs of chars, on random texts of durable
    /// words in both cases, years, percentages, `_`, digits, non-ASCII word
    /// chars next to ASCII runs, at every offset from the blocks.
    #[test]
    fn signals_match_definition() {
        fn naive(t: &str) -> (bool, bool) {
            let chars: Vec<char> = t.chars().collect();
            let (mut durable, mut date) = (currency_amount(t), false);
            let mut i = 0;
            while i < chars.len() {
                if !is_py_word(chars[i]) {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < chars.len() && is_py_word(chars[i]) {
                    i += 1;
                }
                let run = &chars[start..i];
                durable |= DURABLE_WORDS.iter().any(|w| ieq_str(w, run))
                    || (chars.get(i) == Some(&'%')
                        && run.iter().all(|&c| is_decimal(c))
                        && chars.get(i + 1).is_some_and(|&c| is_py_word(c)));
                date |= run.len() == 4
                    && matches!(run[..2], ['1', '9'] | ['2', '0'])
                    && run[2..].iter().all(|&c| is_decimal(c));
            }
            (durable, date)
        }
        let words = [
            "budget",
            "BUDGET",
            "Budget_",
            "_budget",
            "budgets",
            "must",
            "MUST",
            "mus",
            "ſhall",
            "shall",
            "expires",
            "expire",
            "diagnos",
            "Compliance",
            "2024",
            "1999",
            "2024-05-01",
            "20245",
            "202",
            "19x9",
            "20١٢",
            "١٩٩٩",
            "12",
            "12.5",
            "%",
            "x",
            "a1",
            "_",
            "__",
            "über",
            "é",
            "東京",
            "bud\u{212A}",
            "\u{212A}",
            "budgét",
            "aaaaaaaaaaaaaaaaaaaa",
            "contract",
            "CONTRACTS",
            "$",
            "€",
            "1200",
        ];
        let seps = [" ", "  ", "%", "%x", "%_", ".", "-", "\n", "\u{a0}", "—", "", "", "'"];
        let mut next = xorshift(0x6A09_E667_F3BC_C908);
        for round in 0..20_000 {
            let mut t = " ".repeat(round % 17);
            for _ in 0..(next() % 30) {
                t.push_str(words[(next() % words.len() as u64) as usize]);
                t.push_str(seps[(next() % seps.len() as u64) as usize]);
            }
            let s = signals(&t);
            assert_eq!((s.durable, s.date), naive(&t), "{t:?}");
        }
    }

    /// [`Matcher`] fed by [`match_folded_tokens`] (ASCII words checked
    /// against its filter unlowered, lowered only on a hit) against a
    /// plain [`Matcher::feed`] of the tokens of the whole fold: the same
    /// count and the same matched query tokens, for random texts of ASCII
    /// words (capitals, digits, `_`, words crossing 16-byte blocks, at
    /// every offset) and non-ASCII chars, and queries drawn from the
    /// text's tokens, their prefixes and other words.
    #[test]
    fn matcher_fast_path_matches_feed() {
        let words = [
            "the",
            "The",
            "THE",
            "budget",
            "Budget",
            "BUDGET",
            "deadline",
            "DeadLine",
            "a",
            "A",
            "x",
            "9",
            "42",
            "a1",
            "A1b2",
            "decide",
            "decided",
            "contract",
            "Contracts",
            "abcdefghijklmnop",
            "ABCDEFGHIJKLMNOPQ",
            "abcdefghijklmnopqrstuvwxyz0123456789",
            "Straße",
            "STRASSE",
            "strasse",
            "ß",
            "ẞ",
            "K",
            "\u{212A}",
            "ﬁnance",
            "İstanbul",
            "ı",
            "東京",
            "東京タワー",
            "예산",
            "बजट",
            "é",
            "É",
            "x²",
            "ǅ",
            "über",
            "Über",
        ];
        let seps = [" ", "  ", "_", ".", ", ", "\n", "\u{a0}", "—", "-", "'", "\u{301}", "\u{3000}", "", "", ""];
        let mut next = xorshift(0xD1B5_4A32_D192_ED03);
        let mut buf = String::new();
        for round in 0..6000 {
            let mut t = String::new();
            for _ in 0..(next() % 60) {
                t.push_str(words[(next() % words.len() as u64) as usize]);
                t.push_str(seps[(next() % seps.len() as u64) as usize]);
            }
            // Every offset from the 16-byte blocks.
            t.insert_str(0, &" ".repeat(round % 17));
            let t = sample(&t).into_owned();
            let folded = unicode::casefold(&t);
            let mut pool = tokenize(&t);
            pool.extend(["the", "budget", "strasse", "a", "9", "zz", "deci", "contracts", "東京"].map(String::from));
            let mut q: Vec<String> = (0..(1 + next() % 6))
                .map(|_| {
                    let w = &pool[(next() % pool.len() as u64) as usize];
                    // Sometimes a prefix: same first bytes, another length.
                    match w.char_indices().nth(1 + (next() % 4) as usize) {
                        Some((cut, _)) if next() % 3 == 0 => w[..cut].to_string(),
                        _ => w.clone(),
                    }
                })
                .collect();
            q.sort_unstable();
            q.dedup();
            let q: Vec<&str> = q.iter().map(String::as_str).collect();
            for (cap, needed) in [(TOKEN_CAP, 12usize), (5, 12), (TOKEN_CAP, 0), (TOKEN_CAP, 2000)] {
                let mut want = Matcher::new(&q, needed);
                let wn = for_each_token(&folded, cap, |tok| want.feed(tok));
                let mut got = Matcher::new(&q, needed);
                let gn = match_folded_tokens(&t, &mut buf, cap, &mut got);
                assert_eq!((gn, &got.matched, got.seen), (wn, &want.matched, want.seen), "{t:?} {q:?} cap {cap}");
            }
        }
    }

    #[test]
    fn ephemeral_table() {
        for yes in ["OK!!", "ok .!", "Thank you!", "\u{a0}ok\u{a0}", "ok\x1f", "hı", "o\u{212A}", "bye"] {
            assert!(is_ephemeral(yes), "{yes:?}");
        }
        for no in ["thank  you", "thankyou", "hey!?", "ok\u{200b}", "ok\u{3000}!", "lol ok", "okey"] {
            assert!(!is_ephemeral(no), "{no:?}");
        }
    }

    #[test]
    fn durable_table() {
        for yes in [
            "diagnos",
            "regulat",
            "MUST",
            "\u{17F}hall",
            "dec\u{131}ded",
            "US$5",
            "$ 5",
            "$\u{a0}5",
            "$\u{665}",
            "5%x",
            "v 1.5%abc",
            "decided\u{301}",
        ] {
            assert!(signals(yes).durable, "{yes:?}");
        }
        for no in [
            "diagnosis",
            "regulation",
            "regulatory",
            "preferred",
            "expired",
            "illegal",
            "price_x",
            "price1",
            "pricé",
            "5%",
            "5% growth",
            "up 12.5% in",
            "$  5",
        ] {
            assert!(!signals(no).durable, "{no:?}");
        }
    }

    #[test]
    fn date_table() {
        for yes in ["2026", "in 2026.", "2026-09-30", "2026-9-30", "2026-09-30x", "20\u{662}\u{666}"] {
            assert!(signals(yes).date, "{yes:?}");
        }
        for no in ["20261", "FY2026", "2026_", "2026年", "\u{FF11}\u{FF19}99", "1899", "2100"] {
            assert!(!signals(no).date, "{no:?}");
        }
    }
}
