//! Python 3.12 (Unicode 15.0.0) character semantics, from pinned tables.
//!
//! The reference scorer runs on CPython 3.12.1, whose `str` methods and `re`
//! classes use the Unicode 15.0.0 database and CPython's own definitions.
//! Nothing in Rust gives the same answers:
//!
//! - `char::is_alphanumeric` is Alphabetic ∪ Numeric (Alphabetic includes
//!   combining vowel signs such as U+093F and U+0E31, which Python's
//!   `isalnum()` rejects), and it follows whatever Unicode version the
//!   compiler ships (Rust 1.95 is on a newer Unicode than 15.0).
//! - `char::is_whitespace` and regex `\s` lack U+001C–U+001F, which
//!   `str.isspace()` / `str.strip()` treat as spaces.
//! - The `regex` crate's `\w`/`\b` include marks, all connector punctuation
//!   and Join_Control, and exclude `No` (`²`, `½`, `①`); Python's `\w` is
//!   exactly `isalnum()` or `_`.
//! - Rust std has no case folding, and `to_lowercase` applies Final_Sigma by
//!   the Unicode rule, not by CPython's `handle_capital_sigma` (which differs,
//!   e.g. for `"\u{345}Σ"`), and again from a newer Unicode version.
//!
//! So every property here comes from `unicode_tables.rs`, which
//! `scripts/gen_unicode_tables.py` generates by calling CPython 3.12's own
//! `c.isalnum()`, `c.isdecimal()`/`unicodedata.decimal(c)`, `c.isspace()`,
//! `c.casefold()`, `c.lower()` on every code point (and probing `str.lower()`
//! for the Final_Sigma classes). `tests/unicode_exhaustive.rs` compares all
//! 0x110000 code points against Python when it is installed and against a
//! recorded SHA-256 of the same dump when it is not.
//!
//! Table layout (kept small because this compiles to WebAssembly):
//! - boolean properties are inversion lists (sorted boundaries; a char is a
//!   member iff an odd number of boundaries are `<=` it), `u16` for the BMP
//!   and `u32` above it, searched by binary search;
//! - decimal digits are the 68 digit-zero code points of their blocks of ten;
//! - case mappings are only for chars that change: single-char mappings
//!   compressed into runs of constant delta (stride 1 or 2), multi-char
//!   outputs as sorted keys into one concatenated string.
//!
//! ASCII takes a fast path everywhere: no table is touched for ASCII input.

#[rustfmt::skip]
#[path = "unicode_tables.rs"]
mod tables;

use tables::*;

/// The Unicode version of the tables (`unicodedata.unidata_version` of the
/// CPython that generated them).
pub const UNIDATA_VERSION: &str = tables::UNIDATA_VERSION;

/// SHA-256 (hex) of the canonical per-code-point dump the generator recorded;
/// see `scripts/gen_unicode_tables.py --dump` and `tests/unicode_exhaustive.rs`.
pub const TABLES_DUMP_SHA256: &str = tables::DUMP_SHA256;

const CAPITAL_SIGMA: char = '\u{3A3}';
const SMALL_SIGMA: char = '\u{3C3}';
const FINAL_SIGMA: char = '\u{3C2}';

// ------------------------------------------------------------------ lookups

#[inline]
fn in_inversion(bmp: &[u16], astral: &[u32], c: char) -> bool {
    let cp = c as u32;
    let n = if cp < 0x1_0000 {
        let cp = cp as u16;
        bmp.partition_point(|&b| b <= cp)
    } else {
        astral.partition_point(|&b| b <= cp)
    };
    n % 2 == 1
}

/// The result of a per-char case mapping.
enum Mapped {
    Same,
    One(char),
    Many(&'static str),
}

#[inline]
fn case_lookup(runs: &[(u32, i32)], keys: &[u32], offs: &[u16], data: &'static str, c: char) -> Mapped {
    let cp = c as u32;
    let i = runs.partition_point(|&(w, _)| (w & 0x1F_FFFF) <= cp);
    // `get` rather than indexing: no panic paths (they pull formatting code into wasm).
    if let Some(&(w, delta)) = i.checked_sub(1).and_then(|j| runs.get(j)) {
        let start = w & 0x1F_FFFF;
        let count = ((w >> 21) & 0x3FF) + 1;
        let step = if w >> 31 != 0 { 2 } else { 1 };
        let off = cp - start;
        if off % step == 0 && off / step < count {
            let mapped = (cp as i64 + delta as i64) as u32;
            return Mapped::One(char::from_u32(mapped).unwrap_or(c));
        }
    }
    match keys.binary_search(&cp) {
        Ok(k) => match (offs.get(k), offs.get(k + 1)) {
            (Some(&a), Some(&b)) => Mapped::Many(data.get(a as usize..b as usize).unwrap_or("")),
            _ => Mapped::Same,
        },
        Err(_) => Mapped::Same,
    }
}

#[inline]
fn push_mapped(out: &mut String, c: char, m: Mapped) {
    match m {
        Mapped::Same => out.push(c),
        Mapped::One(x) => out.push(x),
        Mapped::Many(s) => out.push_str(s),
    }
}

#[inline]
fn lower_char(c: char) -> Mapped {
    case_lookup(&LOWER_RUNS, &LOWER_MULTI_KEYS, &LOWER_MULTI_OFFS, LOWER_MULTI_DATA, c)
}

#[inline]
fn casefold_char(c: char) -> Mapped {
    case_lookup(&CASEFOLD_RUNS, &CASEFOLD_MULTI_KEYS, &CASEFOLD_MULTI_OFFS, CASEFOLD_MULTI_DATA, c)
}

// ------------------------------------------------------------ fast lookups

/// Lookup structures derived once (lazily, in a few microseconds) from the
/// generated tables, so the hot per-char questions cost one memory access
/// instead of a binary search:
/// - `alnum`: a 65,536-bit map of `isalnum()` over the BMP (8 KB), built from
///   the `ALNUM_BMP` inversion list;
/// - `fold_pages`: which 256-char BMP pages hold any char with a case-fold
///   mapping (most scripts — Arabic, Indic, CJK, kana, Hangul — hold none,
///   so their chars are copied without looking anything up).
///
/// Derived, not generated: the tables stay the single source of truth, and
/// `tests/unicode_exhaustive.rs` checks every code point through these paths.
/// - `pages`: per BMP page, [`token_class`]'s page-wide answer: `PAGE_FOLDS`
///   (a fold page), else whether none, all or some of its chars are in the
///   unsegmented ranges (`PAGE_SEGMENTED`, `PAGE_UNSEGMENTED`, `PAGE_MIXED`).
struct Fast {
    alnum: [u64; 1024],
    fold_pages: [u64; 4],
    pages: [u8; 256],
}

const PAGE_SEGMENTED: u8 = 0;
const PAGE_UNSEGMENTED: u8 = 1;
const PAGE_MIXED: u8 = 2;
const PAGE_FOLDS: u8 = 3;

/// The ranges of [`is_unsegmented`] (inclusive), for the page classes.
const UNSEGMENTED_RANGES: [(u32, u32); 9] = [
    (0x0E00, 0x0E7F),
    (0x0E80, 0x0EFF),
    (0x1000, 0x109F),
    (0x1780, 0x17FF),
    (0x3040, 0x30FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF),
    (0xF900, 0xFAFF),
];

fn build_fast() -> Fast {
    let mut f = Fast { alnum: [0; 1024], fold_pages: [0; 4], pages: [PAGE_SEGMENTED; 256] };
    // Inversion list: [b0, b1) is in, [b1, b2) out, ...; an odd-length list ends "in" at 0x10000.
    for pair in ALNUM_BMP.chunks(2) {
        let start = pair.first().map(|&s| s as usize).unwrap_or(0);
        let end = pair.get(1).map(|&e| e as usize).unwrap_or(0x1_0000);
        set_bits(&mut f.alnum, start, end);
    }
    let mut mark = |cp: u32| {
        if cp < 0x1_0000 {
            let page = (cp >> 8) as usize;
            f.fold_pages[page >> 6] |= 1 << (page & 63);
        }
    };
    for &(w, _) in CASEFOLD_RUNS.iter() {
        let start = w & 0x1F_FFFF;
        let count = ((w >> 21) & 0x3FF) + 1;
        let step = if w >> 31 != 0 { 2 } else { 1 };
        for k in 0..count {
            mark(start + k * step);
        }
    }
    for &cp in CASEFOLD_MULTI_KEYS.iter() {
        mark(cp);
    }
    for (page, class) in f.pages.iter_mut().enumerate() {
        let (lo, hi) = ((page as u32) << 8, ((page as u32) << 8) | 0xFF);
        // The ranges are disjoint: their overlaps with the page add up.
        let covered: u32 = UNSEGMENTED_RANGES.iter().map(|&(a, b)| (b.min(hi) + 1).saturating_sub(a.max(lo))).sum();
        *class = if f.fold_pages[page >> 6] & (1 << (page & 63)) != 0 {
            PAGE_FOLDS
        } else if covered == 0 {
            PAGE_SEGMENTED
        } else if covered == 256 {
            PAGE_UNSEGMENTED
        } else {
            PAGE_MIXED
        };
    }
    f
}

/// Set bits `[start, end)` of `words`, a whole 64-bit word at a time where
/// possible (this runs once, on the first lookup: keep it cheap even before
/// the wasm engine has optimized it).
fn set_bits(words: &mut [u64], start: usize, end: usize) {
    let mut cp = start;
    while cp < end {
        let (w, bit) = (cp >> 6, cp & 63);
        let n = (64 - bit).min(end - cp);
        let mask = if n == 64 { u64::MAX } else { ((1u64 << n) - 1) << bit };
        if let Some(word) = words.get_mut(w) {
            *word |= mask;
        }
        cp += n;
    }
}

#[inline(always)]
fn fast() -> &'static Fast {
    static FAST: std::sync::OnceLock<Fast> = std::sync::OnceLock::new();
    FAST.get_or_init(build_fast)
}

// ------------------------------------------------------------ properties

/// Python `c.isalnum()` (Unicode 15.0): `isalpha()` (L*) or `isdecimal()` or
/// `isdigit()` or `isnumeric()`. Combining marks are **not** alnum.
#[inline]
pub fn is_alnum(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    alnum_non_ascii(c)
}

#[inline(always)]
fn alnum_non_ascii(c: char) -> bool {
    let cp = c as u32;
    if cp < 0x1_0000 {
        let cp = cp as usize;
        return fast().alnum[cp >> 6] & (1 << (cp & 63)) != 0;
    }
    in_inversion(&ALNUM_BMP, &ALNUM_ASTRAL, c)
}

/// A Python `re` word char (`\w` for `str` patterns): `isalnum()` or `_`.
#[inline]
pub fn is_py_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    alnum_non_ascii(c)
}

/// The digit value of a decimal char (`str.isdecimal()`, General_Category
/// Nd; the value is `unicodedata.decimal(c)`). Also Python `re` `\d`.
#[inline]
pub fn decimal_value(c: char) -> Option<u8> {
    if c.is_ascii() {
        return if c.is_ascii_digit() { Some(c as u8 - b'0') } else { None };
    }
    let cp = c as u32;
    let i = DECIMAL_ZEROS.partition_point(|&z| z <= cp);
    let zero = *i.checked_sub(1).and_then(|j| DECIMAL_ZEROS.get(j))?;
    let off = cp - zero;
    if off < 10 {
        Some(off as u8)
    } else {
        None
    }
}

/// Python `str.isdecimal()` for one char.
#[inline]
pub fn is_decimal(c: char) -> bool {
    decimal_value(c).is_some()
}

/// Python `str.isspace()` for one char (also `re` `\s` and what `strip()`
/// removes): exactly 29 chars, U+0009–000D, U+001C–0020, U+0085, U+00A0,
/// U+1680, U+2000–200A, U+2028, U+2029, U+202F, U+205F, U+3000. U+200B and
/// U+FEFF are not spaces.
#[inline]
pub fn is_py_space(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '\t'..='\r' | '\x1c'..=' ');
    }
    let cp = c as u32;
    cp <= 0xFFFF && SPACE_NON_ASCII.binary_search(&(cp as u16)).is_ok()
}

/// Whether `c` is in one of the tokenizer's unsegmented-script ranges
/// (spec `scoring-admission.md` §3.4 step 3, inclusive): Thai, Lao, Myanmar, Khmer, Hiragana and
/// Katakana, CJK Extension A, CJK Unified Ideographs, Hangul syllables, CJK
/// Compatibility Ideographs. Not CJK Extension B+, Hangul Jamo, half-width
/// katakana or U+3007.
#[inline]
pub fn is_unsegmented(c: char) -> bool {
    matches!(
        c as u32,
        0x0E00..=0x0E7F
            | 0x0E80..=0x0EFF
            | 0x1000..=0x109F
            | 0x1780..=0x17FF
            | 0x3040..=0x30FF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xAC00..=0xD7AF
            | 0xF900..=0xFAFF
    )
}

/// [`token_class`]: a separator whose casefold is itself.
pub const CLASS_SEP: u8 = 0;
/// [`token_class`]: an `isalnum` char outside the unsegmented scripts, its own casefold.
pub const CLASS_WORD: u8 = 1;
/// [`token_class`]: an `isalnum` char in an unsegmented script ([`is_unsegmented`]), its own casefold.
pub const CLASS_UNSEGMENTED: u8 = 2;
/// [`token_class`]: a char whose casefold may differ from it (ASCII capitals
/// excepted: [`token_class`] is for non-ASCII chars).
pub const CLASS_FOLDS: u8 = 3;

/// The tokenizer's view of a non-ASCII char, without casefolding it:
/// [`CLASS_FOLDS`] for every astral char and every char on a BMP page (256
/// code points) that holds some char with a case-fold mapping (so any other
/// class means `casefold(c) == c`), else whether it is a token char and
/// whether it is in an unsegmented script. Most non-Latin scripts (Arabic,
/// Indic, CJK, kana, Hangul) are on pages without any mapping.
#[inline(always)]
pub fn token_class(c: char) -> u8 {
    let cp = c as u32;
    if cp >= 0x1_0000 {
        return CLASS_FOLDS;
    }
    let f = fast();
    let page = f.pages[(cp >> 8) as usize & 0xFF];
    if page == PAGE_FOLDS {
        return CLASS_FOLDS;
    }
    let i = cp as usize;
    if f.alnum[i >> 6] & (1 << (i & 63)) == 0 {
        CLASS_SEP
    } else if page == PAGE_UNSEGMENTED || (page == PAGE_MIXED && is_unsegmented(c)) {
        CLASS_UNSEGMENTED
    } else {
        CLASS_WORD
    }
}

/// Python `s.strip()` (no argument): removes leading and trailing Py-space.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

// ------------------------------------------------------------ case mapping

/// Append Python `s.casefold()` to `out`: full case folding per char, no
/// context (`ß` → `ss`, `İ` → `i` U+0307, `ς` → `σ`, Cherokee small letters
/// → capitals, `ǅ` → `ǆ`).
pub fn casefold_into(s: &str, out: &mut String) {
    out.reserve(s.len());
    // Copy maximal unchanged stretches in bulk: ASCII runs are lowercased in
    // place after copying; non-ASCII chars on pages without any fold mapping
    // are copied as they are; only the rest is looked up char by char.
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        // ASCII runs eight bytes at a time (only bytes with bit 7 clear).
        while let Some(chunk) = bytes.get(i..i + 8) {
            if u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0x80; 8])) & 0x8080_8080_8080_8080 != 0 {
                break;
            }
            i += 8;
        }
        while i < bytes.len() && bytes[i] < 0x80 {
            i += 1;
        }
        if i > start {
            push_ascii_lower(out, &s[start..i]);
        }
        let mut copy_from = i;
        let pages = &fast().fold_pages;
        while i < bytes.len() && bytes[i] >= 0x80 {
            // The BMP page (code point >> 8) straight from the lead bytes:
            // no decoding for the chars that cannot change.
            let b0 = bytes[i];
            let (len, page) = match b0 {
                0xC0..=0xDF => (2, ((b0 & 0x1F) >> 2) as usize),
                0xE0..=0xEF => {
                    (3, (((b0 & 0x0F) as usize) << 4) | ((bytes.get(i + 1).copied().unwrap_or(0) & 0x3F) >> 2) as usize)
                }
                _ => (4, usize::MAX), // astral: always looked up
            };
            if page != usize::MAX && pages[page >> 6] & (1 << (page & 63)) == 0 {
                i += len;
                continue;
            }
            let c = s[i..].chars().next().unwrap_or('\u{FFFD}');
            out.push_str(&s[copy_from..i]);
            push_mapped(out, c, casefold_char(c));
            i += c.len_utf8();
            copy_from = i;
        }
        out.push_str(&s[copy_from..i]);
    }
}

/// Append ASCII `run` lowercased (a branch-free byte loop the compiler vectorizes).
#[inline]
fn push_ascii_lower(out: &mut String, run: &str) {
    let at = out.len();
    out.push_str(run);
    if let Some(tail) = out.get_mut(at..) {
        tail.make_ascii_lowercase();
    }
}

/// Python `s.casefold()`.
pub fn casefold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    casefold_into(s, &mut out);
    out
}

/// Append Python `s.lower()` to `out`: the full lowercase mapping per char
/// (`İ` → `i` U+0307, `K` (Kelvin) → `k`), and U+03A3 `Σ` becomes `ς` or `σ`
/// by CPython's `handle_capital_sigma`.
pub fn lower_into(s: &str, out: &mut String) {
    out.reserve(s.len());
    for (i, c) in s.char_indices() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if c == CAPITAL_SIGMA {
            out.push(if is_final_sigma(s, i) { FINAL_SIGMA } else { SMALL_SIGMA });
        } else {
            push_mapped(out, c, lower_char(c));
        }
    }
}

/// Python `s.lower()` (full lowercase mapping with CPython's Final_Sigma rule).
pub fn lower(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    lower_into(s, &mut out);
    out
}

/// `_PyUnicode_IsCaseIgnorable`, as far as `str.lower()` can observe it.
#[inline]
fn is_case_ignorable(c: char) -> bool {
    in_inversion(&SIGMA_IGNORABLE_BMP, &SIGMA_IGNORABLE_ASTRAL, c)
}

/// `_PyUnicode_IsCased` for chars that are not case-ignorable (the only ones
/// `handle_capital_sigma` ever asks about).
#[inline]
fn is_cased_not_ignorable(c: char) -> bool {
    in_inversion(&SIGMA_CASED_BMP, &SIGMA_CASED_ASTRAL, c)
}

/// CPython's `handle_capital_sigma` for the `Σ` at byte offset `i` of `s`:
/// skip case-ignorable chars backwards; the first other char must exist and
/// be cased. Then skip case-ignorable chars forwards; the string must end or
/// the next other char must not be cased. Ignorable is tested before cased,
/// so a char that is both (U+0345) is always skipped.
fn is_final_sigma(s: &str, i: usize) -> bool {
    let (before, rest) = (s.get(..i).unwrap_or(""), s.get(i + CAPITAL_SIGMA.len_utf8()..).unwrap_or(""));
    match before.chars().rev().find(|&c| !is_case_ignorable(c)) {
        Some(b) if is_cased_not_ignorable(b) => {}
        _ => return false,
    }
    match rest.chars().find(|&c| !is_case_ignorable(c)) {
        None => true,
        Some(a) => !is_cased_not_ignorable(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page-class `token_class` against its definition, at every non-ASCII char.
    #[test]
    fn token_class_is_its_definition() {
        let f = fast();
        for cp in 0x80..=0x10_FFFFu32 {
            let Some(c) = char::from_u32(cp) else { continue };
            let page = (cp >> 8) as usize;
            let want = if cp >= 0x1_0000 || f.fold_pages[page >> 6] & (1 << (page & 63)) != 0 {
                CLASS_FOLDS
            } else if !is_alnum(c) {
                CLASS_SEP
            } else if is_unsegmented(c) {
                CLASS_UNSEGMENTED
            } else {
                CLASS_WORD
            };
            assert_eq!(token_class(c), want, "U+{cp:04X}");
            if want != CLASS_FOLDS {
                assert_eq!(casefold(&c.to_string()), c.to_string(), "U+{cp:04X}");
            }
        }
    }

    #[test]
    fn tables_are_unicode_15() {
        assert_eq!(UNIDATA_VERSION, "15.0.0");
        assert_eq!(TABLES_DUMP_SHA256.len(), 64);
    }

    // ---- `scoring-admission.md` §7.2 casefold hazards, one by one
    #[test]
    fn casefold_sharp_s() {
        assert_eq!(casefold("ß"), "ss");
        assert_eq!(casefold("ẞ"), "ss");
        assert_eq!(casefold("Straße"), "strasse");
    }

    #[test]
    fn casefold_ligatures() {
        assert_eq!(casefold("ﬁ"), "fi");
        assert_eq!(casefold("ﬅ"), "st");
        assert_eq!(casefold("ﬆ"), "st");
        assert_eq!(casefold("ﬁnance"), "finance");
    }

    #[test]
    fn casefold_n_preceded_by_apostrophe() {
        assert_eq!(casefold("ŉ"), "\u{2BC}n");
    }

    #[test]
    fn casefold_dotted_capital_i() {
        assert_eq!(casefold("İ"), "i\u{307}");
        assert_eq!(casefold("İstanbul"), "i\u{307}stanbul");
        assert_eq!(casefold("ı"), "ı");
    }

    #[test]
    fn casefold_sigma_has_no_final_form() {
        assert_eq!(casefold("ς"), "σ");
        assert_eq!(casefold("Σ"), "σ");
        assert_eq!(casefold("ΣΊΣΥΦΟΣ"), "σίσυφοσ");
    }

    #[test]
    fn casefold_cherokee_goes_to_capitals() {
        assert_eq!(casefold("ꭰꭱ"), "ᎠᎡ");
        assert_eq!(casefold("Ꭰ"), "Ꭰ");
        assert_eq!(casefold("ᏸ"), "Ᏸ");
        // lower() goes the other way
        assert_eq!(lower("Ꭰ"), "ꭰ");
        assert_eq!(lower("Ᏸ"), "ᏸ");
    }

    #[test]
    fn casefold_titlecase_digraph() {
        assert_eq!(casefold("ǅ"), "ǆ");
        assert_eq!(casefold("Ǆ"), "ǆ");
        assert_eq!(lower("ǅ"), "ǆ");
    }

    #[test]
    fn casefold_misc() {
        assert_eq!(casefold("ſ"), "s");
        assert_eq!(casefold("µ"), "μ");
        assert_eq!(casefold("\u{212A}"), "k");
        assert_eq!(casefold("ΐ"), "ι\u{308}\u{301}");
        assert_eq!(casefold("𐐀"), "𐐨");
        assert_eq!(casefold("ABC def"), "abc def");
        assert_eq!(casefold(""), "");
        let mut out = String::from("x");
        casefold_into("ÀB", &mut out);
        assert_eq!(out, "xàb");
        let mut out = String::from("É");
        casefold_into("AB", &mut out);
        assert_eq!(out, "Éab");
    }

    // ---- `scoring-admission.md` §7.2 lower()
    #[test]
    fn lower_is_not_casefold() {
        assert_eq!(lower("ß"), "ß");
        assert_eq!(lower("ẞ"), "ß");
        assert_eq!(lower("ﬁ"), "ﬁ");
        assert_eq!(lower("ŉ"), "ŉ");
        assert_eq!(lower("ſ"), "ſ");
        assert_eq!(lower("µ"), "µ");
        assert_eq!(lower("ς"), "ς");
        assert_eq!(lower("İ"), "i\u{307}");
        assert_eq!(lower("\u{212A}"), "k");
        assert_eq!(lower("İİİ"), "i\u{307}i\u{307}i\u{307}");
        assert_eq!(lower("DECİDED"), "deci\u{307}ded");
        assert_eq!(lower("HELLO"), "hello");
        let mut out = String::from("Q");
        lower_into("ΑΣ", &mut out);
        assert_eq!(out, "Qας");
    }

    #[test]
    fn lower_final_sigma_like_cpython() {
        // Expected values from CPython 3.12.1.
        let cases = [
            ("Σ", "σ"),
            ("ΣΣ", "σς"),
            ("AΣ", "aς"),
            ("AΣB", "aσb"),
            ("AΣ\u{301}", "aς\u{301}"),
            ("A\u{301}Σ", "a\u{301}ς"),
            ("A\u{345}Σ", "a\u{345}ς"),
            ("\u{345}Σ", "\u{345}σ"), // U+0345 is ignorable (and cased): skipped
            ("AΣ\u{345}", "aς\u{345}"),
            ("AΣ\u{345}b", "aσ\u{345}b"),
            ("ΣΊΣΥΦΟΣ", "σίσυφος"),
            ("ΌΣΟΣ ΣΟΦΟΣ", "όσος σοφος"),
            ("A'Σ", "a'ς"),
            ("A.Σ.", "a.ς."),
            ("1Σ", "1σ"),
            ("ΑΣ1", "ας1"),
            ("ǅΣ", "ǆς"),
            ("ΑΣ\u{200D}", "ας\u{200D}"),
            ("AΣ'B", "aσ'b"),
        ];
        for (input, want) in cases {
            assert_eq!(lower(input), want, "lower({input:?})");
        }
    }

    // ---- `scoring-admission.md` §7.3 Py-word
    #[test]
    fn word_chars() {
        for c in ['²', '½', '①', 'Ⅻ', '〇', '٣', '３', 'a', 'Z', '0', 'é', '贷', 'ｸ', '𠀀', 'ǅ', 'ꭰ']
        {
            assert!(is_alnum(c), "{c:?} U+{:04X} should be alnum", c as u32);
            assert!(is_py_word(c), "{c:?} should be a word char");
        }
        assert!(is_py_word('_'));
        assert!(!is_alnum('_'));
    }

    #[test]
    fn non_word_chars() {
        for c in [
            '\u{301}', '\u{307}', '\u{93F}', '\u{E31}', '\u{200D}', '\u{200C}', '‿', 'Ⓐ', ' ', '-', '.', '@',
            '\u{FEFF}', '\u{200B}', '%', '$', '€', '\u{3000}',
        ] {
            assert!(!is_alnum(c), "U+{:04X} should not be alnum", c as u32);
            assert!(!is_py_word(c), "U+{:04X} should not be a word char", c as u32);
        }
    }

    // ---- `scoring-admission.md` §7.4 decimal
    #[test]
    fn decimals() {
        assert_eq!(decimal_value('7'), Some(7));
        assert_eq!(decimal_value('٣'), Some(3));
        assert_eq!(decimal_value('３'), Some(3));
        assert_eq!(decimal_value('\u{FF10}'), Some(0));
        assert_eq!(decimal_value('\u{0669}'), Some(9));
        assert_eq!(decimal_value('\u{1D7CE}'), Some(0)); // MATHEMATICAL BOLD DIGIT ZERO
        assert_eq!(decimal_value('\u{1D7FF}'), Some(9));
        assert_eq!(decimal_value('\u{1FBF9}'), Some(9)); // SEGMENTED DIGIT NINE
        assert_eq!(decimal_value('²'), None);
        assert_eq!(decimal_value('①'), None);
        assert_eq!(decimal_value('½'), None);
        assert_eq!(decimal_value('〇'), None);
        assert_eq!(decimal_value('a'), None);
        assert!(is_decimal('٥'));
        assert!(!is_decimal('Ⅻ'));
    }

    // ---- `scoring-admission.md` §7.5 spaces
    #[test]
    fn spaces_are_exactly_the_29() {
        let expected: Vec<u32> = (0x09..=0x0D)
            .chain(0x1C..=0x20)
            .chain([0x85, 0xA0, 0x1680])
            .chain(0x2000..=0x200A)
            .chain([0x2028, 0x2029, 0x202F, 0x205F, 0x3000])
            .collect();
        assert_eq!(expected.len(), 29);
        let got: Vec<u32> =
            (0..=0x10FFFFu32).filter_map(char::from_u32).filter(|&c| is_py_space(c)).map(|c| c as u32).collect();
        assert_eq!(got, expected);
        for c in ['\u{1C}', '\u{1D}', '\u{1E}', '\u{1F}'] {
            assert!(is_py_space(c));
        }
        assert!(!is_py_space('\u{200B}'));
        assert!(!is_py_space('\u{FEFF}'));
        assert!(!is_py_space('\u{180E}'));
    }

    #[test]
    fn strip() {
        assert_eq!(py_strip("  \u{1C}\u{85}a b\u{3000}\u{200B}"), "a b\u{3000}\u{200B}");
        assert_eq!(py_strip("\u{FEFF}x\u{FEFF}"), "\u{FEFF}x\u{FEFF}");
        assert_eq!(py_strip("\u{A0}ok\u{A0}"), "ok");
        assert_eq!(py_strip("ok\u{1F}"), "ok");
        assert_eq!(py_strip(" \t\n "), "");
        assert_eq!(py_strip(""), "");
    }

    // ---- `scoring-admission.md` §3.4 unsegmented ranges
    #[test]
    fn unsegmented_ranges() {
        for cp in [
            0x0E00, 0x0E7F, 0x0E80, 0x0EFF, 0x1000, 0x109F, 0x1780, 0x17FF, 0x3040, 0x30FC, 0x30FF, 0x3400, 0x4DBF,
            0x4E00, 0x8D37, 0x9FFF, 0xAC00, 0xD7AF, 0xF900, 0xFAFF,
        ] {
            assert!(is_unsegmented(char::from_u32(cp).unwrap()), "U+{cp:04X}");
        }
        for cp in [
            0x0DFF, 0x0F00, 0x0FFF, 0x10A0, 0x1100, 0x11FF, 0x177F, 0x1800, 0x3007, 0x303F, 0x3100, 0x33FF, 0x4DC0,
            0x4DFF, 0xA000, 0xABFF, 0xD7B0, 0xF8FF, 0xFB00, 0xFF65, 0xFF9F, 0x20000, 0x2A700, 0x41,
        ] {
            assert!(!is_unsegmented(char::from_u32(cp).unwrap()), "U+{cp:04X}");
        }
    }
}
