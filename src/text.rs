//! Text rules: the head/tail sample, the scoring tokenizer, and the three
//! content signals (ephemeral, durable, date).
//!
//! The reference implements these with Python `re` patterns over `str`. The
//! Rust `regex` crate disagrees with Python on `\w`, `\b`, `\d`, `\s` and
//! case-insensitive `i`, and its Unicode tables are both newer and large, so
//! each pattern is restated here as a small scanner over
//! [`crate::py::unicode`]'s pinned Unicode 15.0 tables (spec §8.1 gives the
//! restatements, fuzzed against the reference). Everything counts in code
//! points, as Python does.

use crate::json::Value;
use crate::py::float;
use crate::py::unicode::{self, is_alnum, is_decimal, is_py_space, is_py_word};

/// Text sample cap in code points (spec §1).
pub const TEXT_SAMPLE_CHARS: usize = 8192;
/// Token cap (spec §1).
pub const TOKEN_CAP: usize = 1024;
const HEAD_CHARS: usize = 4095;
const TAIL_CHARS: usize = 4096;

/// The deterministic head/tail sample (spec §3.3): unchanged when at most
/// 8,192 code points, else the first 4,095, one space, and the last 4,096.
pub fn sample(text: &str) -> std::borrow::Cow<'_, str> {
    // Fast path: byte length bounds the code-point count.
    if text.len() <= TEXT_SAMPLE_CHARS {
        return std::borrow::Cow::Borrowed(text);
    }
    let count = text.chars().count();
    if count <= TEXT_SAMPLE_CHARS {
        return std::borrow::Cow::Borrowed(text);
    }
    let head_end = text.char_indices().nth(HEAD_CHARS).map(|(i, _)| i).unwrap_or(text.len());
    let tail_start = text.char_indices().nth(count - TAIL_CHARS).map(|(i, _)| i).unwrap_or(text.len());
    let mut out = String::with_capacity(head_end + 1 + text.len() - tail_start);
    out.push_str(&text[..head_end]);
    out.push(' ');
    out.push_str(&text[tail_start..]);
    std::borrow::Cow::Owned(out)
}

/// Is `c` in one of the unsegmented-script ranges that are bigrammed?
pub fn is_unsegmented(c: char) -> bool {
    unicode::is_unsegmented(c)
}

/// `tokenize_for_scoring(value)` for a string (spec §3.4): sample, casefold,
/// split into `isalnum` word runs, bigram unsegmented-script segments, keep
/// the first 1,024 tokens.
pub fn tokenize(text: &str) -> Vec<String> {
    let sampled = sample(text);
    let mut folded = String::with_capacity(sampled.len());
    unicode::casefold_into(&sampled, &mut folded);
    tokenize_folded(&folded)
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

/// Split already-sampled, casefolded text into tokens.
fn tokenize_folded(folded: &str) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = folded.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if !is_alnum(c) {
            chars.next();
            continue;
        }
        // One word: a maximal run of isalnum chars, emitted segment by segment.
        let mut seg_start = start;
        let mut seg_unsegmented = is_unsegmented(c);
        let mut end = start;
        while let Some(&(i, ch)) = chars.peek() {
            if !is_alnum(ch) {
                break;
            }
            let uns = is_unsegmented(ch);
            if uns != seg_unsegmented {
                emit_segment(&folded[seg_start..i], seg_unsegmented, &mut tokens);
                if tokens.len() >= TOKEN_CAP {
                    tokens.truncate(TOKEN_CAP);
                    return tokens;
                }
                seg_start = i;
                seg_unsegmented = uns;
            }
            end = i + ch.len_utf8();
            chars.next();
        }
        emit_segment(&folded[seg_start..end], seg_unsegmented, &mut tokens);
        if tokens.len() >= TOKEN_CAP {
            tokens.truncate(TOKEN_CAP);
            return tokens;
        }
    }
    tokens
}

fn emit_segment(segment: &str, unsegmented: bool, tokens: &mut Vec<String>) {
    if !unsegmented {
        tokens.push(segment.to_string());
        return;
    }
    let mut iter = segment.char_indices();
    let Some((_, first)) = iter.next() else { return };
    let mut prev_start = 0;
    let mut prev_len = first.len_utf8();
    let mut any_pair = false;
    for (i, c) in iter {
        tokens.push(segment[prev_start..i + c.len_utf8()].to_string());
        any_pair = true;
        if tokens.len() >= TOKEN_CAP {
            return;
        }
        prev_start = i;
        prev_len = c.len_utf8();
    }
    let _ = prev_len;
    if !any_pair {
        tokens.push(segment.to_string());
    }
}

/// Python `re.IGNORECASE` equality of a pattern char (lowercase ASCII letter
/// or other ASCII) with a text char (spec §7.6): ASCII pairs, plus `İ`/`ı`
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

const EPHEMERAL_WORDS: [&str; 9] = ["hi", "hello", "hey", "thanks", "thank you", "ok", "okay", "lol", "bye"];

/// Ephemeral signal (spec §8.1): after Py-strip, a greeting or
/// acknowledgement followed only by `.`, `!` and spaces.
pub fn is_ephemeral(sample: &str) -> bool {
    let stripped = unicode::py_strip(sample);
    // Longest word is 9 chars; anything with a long non-punctuation tail fails fast.
    let chars: Vec<char> = stripped.chars().take(64).collect();
    if stripped.chars().count() > 64 {
        // Only `.`, `!` and spaces may follow the word: check the rest lazily.
        if !stripped.chars().skip(64).all(|c| matches!(c, '.' | '!' | ' ')) {
            return false;
        }
    }
    EPHEMERAL_WORDS.iter().any(|w| {
        let n = w.len();
        chars.len() >= n
            && ieq_str(w, &chars[..n])
            && chars[n..].iter().all(|c| matches!(c, '.' | '!' | ' '))
    })
}

const DURABLE_WORDS: [&str; 23] = [
    "decided", "decision", "deadline", "must", "shall", "required", "constraint", "policy", "revenue", "guidance",
    "budget", "price", "contract", "prefer", "prefers", "allergic", "diagnos", "legal", "regulat", "compliance",
    "effective", "expire", "expires",
];

/// Visit every maximal run of Py-word chars (`isalnum` or `_`) as a slice of chars.
fn for_each_word_run(chars: &[char], mut f: impl FnMut(usize, usize) -> bool) -> bool {
    let mut i = 0;
    while i < chars.len() {
        if is_py_word(chars[i]) {
            let start = i;
            while i < chars.len() && is_py_word(chars[i]) {
                i += 1;
            }
            if f(start, i) {
                return true;
            }
        } else {
            i += 1;
        }
    }
    false
}

/// The three content signals computed on the sample (spec §3.5, §8.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Signals {
    pub durable: bool,
    pub date: bool,
    pub ephemeral: bool,
}

/// Compute durable, date and ephemeral in one pass over the sample's chars.
pub fn signals(sample: &str) -> Signals {
    let chars: Vec<char> = sample.chars().collect();
    let mut durable = currency_amount(&chars);
    let mut date = false;
    for_each_word_run(&chars, |start, end| {
        let run = &chars[start..end];
        if !durable {
            durable = (run.len() <= 10 && DURABLE_WORDS.iter().any(|w| ieq_str(w, run)))
                || (run.iter().all(|&c| is_decimal(c))
                    && chars.get(end) == Some(&'%')
                    && chars.get(end + 1).is_some_and(|&c| is_py_word(c)));
        }
        if !date && run.len() == 4 {
            date = ((run[0] == '1' && run[1] == '9') || (run[0] == '2' && run[1] == '0'))
                && is_decimal(run[2])
                && is_decimal(run[3]);
        }
        durable && date
    });
    Signals { durable, date, ephemeral: is_ephemeral(sample) }
}

/// `[$€£]\s?\d`: a currency sign, at most one Py-space, then an Nd digit.
fn currency_amount(chars: &[char]) -> bool {
    chars.iter().enumerate().any(|(i, &c)| {
        matches!(c, '$' | '€' | '£')
            && match chars.get(i + 1) {
                Some(&d) if is_decimal(d) => true,
                Some(&s) if is_py_space(s) => chars.get(i + 2).is_some_and(|&d| is_decimal(d)),
                _ => false,
            }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        tokenize(s)
    }

    #[test]
    fn tokenizer_examples_from_spec() {
        assert_eq!(toks("贷款风险评估已经完成"), ["贷款", "款风", "风险", "险评", "评估", "估已", "已经", "经完", "完成"]);
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
        for yes in ["diagnos", "regulat", "MUST", "\u{17F}hall", "dec\u{131}ded", "US$5", "$ 5", "$\u{a0}5", "$\u{665}", "5%x", "v 1.5%abc", "decided\u{301}"] {
            assert!(signals(yes).durable, "{yes:?}");
        }
        for no in ["diagnosis", "regulation", "regulatory", "preferred", "expired", "illegal", "price_x", "price1", "pricé", "5%", "5% growth", "up 12.5% in", "$  5"] {
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
