//! The risk detectors (spec `scoring-admission.md` §8.2): the tag names, the scanners that restate
//! the reference's `re` patterns over code points, `is_too_vague`,
//! `detect_risk_tags`, and where they match (`risk_spans`).

use crate::contract::risk::declared;
use crate::json::{Object, Value};
use crate::py::unicode::{decimal_value, is_decimal, is_py_space, is_py_word};
use crate::text::ieq_str;

// Tag names in detector order (each a row of the contract's RISK_TAGS, checked when it builds).
/// Social security number (`ddd-dd-dddd`).
pub const TAG_SSN: &str = declared("pii:ssn");
/// E-mail address.
pub const TAG_EMAIL: &str = declared("pii:email");
/// Medical record number (`MRN` + ≥ 4 digits).
pub const TAG_MRN: &str = declared("phi:mrn");
/// National provider identifier (`NPI` + 10 digits).
pub const TAG_NPI: &str = declared("phi:npi");
/// Luhn-valid card number (13–16 digits).
pub const TAG_CARD: &str = declared("pii:credit_card");
/// Material non-public information phrase.
pub const TAG_MNPI: &str = declared("mnpi");
/// Prompt-injection / instruction-override phrase.
pub const TAG_INJECTION: &str = declared("injection");
/// Too vague to be a durable memory (fewer than 3 distinct ASCII words).
pub const TAG_VAGUE: &str = declared("vague");
/// The write's source is on the block list.
pub const TAG_BLOCKED: &str = declared("source:blocked");

/// The content as the detectors read it: its chars, and whether each is a
/// Py-word char (computed once, so every `\b` test is two array reads
/// instead of two Unicode table lookups).
struct Text {
    chars: Vec<char>,
    word: Vec<bool>,
}

impl Text {
    fn new(content: &str) -> Text {
        let chars: Vec<char> = content.chars().collect();
        let word = chars.iter().map(|&c| is_py_word(c)).collect();
        Text { chars, word }
    }

    /// Is the char at `i` (if any) a word char?
    #[inline]
    fn is_word(&self, i: usize) -> bool {
        self.word.get(i).copied().unwrap_or(false)
    }

    /// Python `\b` at `i`: exactly one of `chars[i-1]`, `chars[i]` is a word char.
    #[inline]
    fn boundary(&self, i: usize) -> bool {
        let before = i > 0 && self.is_word(i - 1);
        before != self.is_word(i)
    }

    fn digits_at(&self, i: usize, n: usize) -> bool {
        self.chars.get(i..i + n).is_some_and(|s| s.iter().all(|&c| is_decimal(c)))
    }
}

/// The ASCII byte `p` for which [`crate::text::ieq`]`(p, c)` holds, if any:
/// an ASCII char lowercased, `İ`/`ı` → `i`, `ſ` → `s`, Kelvin → `k`, else 0.
/// So `ieq(p, c) == (letter(c) == p)` for every ASCII `p`.
#[inline]
fn letter(c: char) -> u8 {
    if c.is_ascii() {
        (c as u8).to_ascii_lowercase()
    } else {
        match c {
            '\u{130}' | '\u{131}' => b'i',
            '\u{17F}' => b's',
            '\u{212A}' => b'k',
            _ => 0,
        }
    }
}

/// `\b\d{3}-\d{2}-\d{4}\b` starting at `i`: the match's end.
fn ssn_at(t: &Text, i: usize) -> Option<usize> {
    let chars = &t.chars;
    (is_decimal(chars[i])
        && t.boundary(i)
        && t.digits_at(i, 3)
        && chars.get(i + 3) == Some(&'-')
        && t.digits_at(i + 4, 2)
        && chars.get(i + 6) == Some(&'-')
        && t.digits_at(i + 7, 4)
        && t.boundary(i + 11))
    .then_some(i + 11)
}

/// `finditer` of `\b[\w.+-]+@[\w-]+\.[\w.-]+\b` (the e-mail rule of spec
/// `scoring-admission.md` §8.2), evaluated at each `@`: `found(start, end)` for each match, in
/// order, until it returns false.
///
/// At an `@`, the local part is the maximal run of {word, `.`, `+`, `-`}
/// chars before it and must end there (`@` is in no class, so no shorter run
/// helps); the match starts at the leftmost `\b` in that run at or after
/// where the search resumes (the run's first word char when it resumes
/// before the run). The label after `@` is the maximal run of {word, `-`}
/// and must be non-empty and followed by `.`; the domain after that `.` is
/// the maximal run of {word, `.`, `-`}, and the match ends at its last `\b`,
/// just after its last word char (none: no match at this `@`). Runs stop at
/// `@`, so each char is read for at most two `@`s: linear.
#[inline(never)]
fn email_matches(t: &Text, found: &mut dyn FnMut(usize, usize) -> bool) {
    let chars = &t.chars;
    let local = |i: usize| t.word[i] || matches!(chars[i], '.' | '+' | '-');
    let label = |i: usize| t.word[i] || chars[i] == '-';
    let domain = |i: usize| t.word[i] || matches!(chars[i], '.' | '-');
    let (mut pos, mut from) = (0, 0);
    while let Some(off) = chars[from..].iter().position(|&c| c == '@') {
        let at = from + off;
        from = at + 1;
        // The label: a non-empty run of label chars, then `.`.
        let label_len = (at + 1..chars.len()).take_while(|&i| label(i)).count();
        let dot = at + 1 + label_len;
        if label_len == 0 || chars.get(dot) != Some(&'.') {
            continue;
        }
        // The domain's last word char: the match ends just after it.
        let Some(last) = (dot + 1..chars.len()).take_while(|&i| domain(i)).filter(|&i| t.word[i]).last() else {
            continue;
        };
        // The local part's leftmost boundary at or after `pos`.
        let run_start = (0..at).rev().take_while(|&i| local(i)).last().unwrap_or(at);
        let Some(start) = (run_start.max(pos)..at).find(|&i| t.boundary(i)) else {
            continue;
        };
        // The domain holds no `@`: the next one is past the match.
        (pos, from) = (last + 1, last + 1);
        if !found(start, pos) {
            return;
        }
    }
}

/// `\b<word>[-:\s]?\d{n,}\b` starting at `i` (`word` ieq), with `exact` =
/// `\d{n}\b` instead: the match's end. Backtracking cannot help: no
/// boundary falls inside a digit run, and a skipped separator is no digit.
fn labelled_number_at(t: &Text, i: usize, word: &str, min_digits: usize, exact: bool) -> Option<usize> {
    let chars = &t.chars;
    let wl = word.len();
    if !(t.boundary(i) && chars.get(i..i + wl).is_some_and(|s| ieq_str(word, s))) {
        return None;
    }
    let mut j = i + wl;
    if chars.get(j).is_some_and(|&c| matches!(c, '-' | ':') || is_py_space(c)) {
        j += 1;
    }
    let run = chars[j.min(chars.len())..].iter().take_while(|&&c| is_decimal(c)).count();
    let long_enough = if exact { run == min_digits } else { run >= min_digits };
    (long_enough && !t.is_word(j + run)).then_some(j + run)
}

/// Luhn over 13–16 digit values.
fn luhn(digits: &[u8]) -> bool {
    if !(13..=16).contains(&digits.len()) {
        return false;
    }
    let parity = digits.len() % 2;
    let sum: u32 = digits
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let mut d = d as u32;
            if i % 2 == parity {
                d *= 2;
                if d > 9 {
                    d -= 9;
                }
            }
            d
        })
        .sum();
    sum % 10 == 0
}

/// The credit-card scan (spec `scoring-admission.md` §8.2): `finditer` over `\b(?:\d[ -]?){13,16}\b`
/// with a Luhn check on each match; `found(start, end)` for each Luhn-valid
/// match, in order, until it returns false.
#[inline(never)]
fn card_matches(t: &Text, found: &mut dyn FnMut(usize, usize) -> bool) {
    let chars = &t.chars;
    let n = chars.len();
    let mut s = 0;
    while s < n {
        if !(is_decimal(chars[s]) && t.boundary(s)) {
            s += 1;
            continue;
        }
        // Read up to 16 digits, each optionally followed by one separator.
        let mut digit_end = [0usize; 17];
        let mut sep_end = [None::<usize>; 17];
        let mut count = 0;
        let mut j = s;
        while j < n && is_decimal(chars[j]) {
            count += 1;
            digit_end[count] = j + 1;
            j += 1;
            if j < n && matches!(chars[j], ' ' | '-') {
                sep_end[count] = Some(j + 1);
                if count == 16 || !(j + 1 < n && is_decimal(chars[j + 1])) {
                    break;
                }
                j += 1;
            } else if count == 16 {
                break;
            }
        }
        let mut accepted = None;
        for k in (13..=count.min(16)).rev() {
            if let Some(e) = sep_end[k] {
                if t.boundary(e) {
                    accepted = Some(e);
                    break;
                }
            }
            if t.boundary(digit_end[k]) {
                accepted = Some(digit_end[k]);
                break;
            }
        }
        match accepted {
            None => s += 1,
            Some(e) => {
                let digits: Vec<u8> = chars[s..e].iter().filter_map(|&c| decimal_value(c)).collect();
                if luhn(&digits) && !found(s, e) {
                    return;
                }
                // finditer resumes at the match's end, Luhn-valid or not.
                s = e;
            }
        }
    }
}

/// The MNPI phrases (matched case-insensitively with word boundaries, spec `scoring-admission.md` §8.2).
pub const MNPI_PHRASES: [&str; 12] = [
    "material non-public",
    "material non public",
    "material nonpublic",
    "insider information",
    "mnpi",
    "embargoed earnings",
    "unannounced merger",
    "unannounced acquisition",
    "unannounced deal",
    "pre-announcement",
    "pre announcement",
    "preannouncement",
];

/// One of `phrases` (ieq) at `i`, with a boundary at both ends: the match's
/// end. No phrase is a prefix of another, so at most one matches at `i`.
fn phrase_with_boundaries_at(t: &Text, i: usize, phrases: &[&str]) -> Option<usize> {
    let chars = &t.chars;
    let l = letter(chars[i]);
    if !t.boundary(i) {
        return None;
    }
    phrases
        .iter()
        .find(|p| {
            let end = i + p.len();
            p.as_bytes()[0] == l && chars.get(i..end).is_some_and(|s| ieq_str(p, s)) && t.boundary(end)
        })
        .map(|p| i + p.len())
}

/// The prompt-injection phrases (matched case-insensitively anywhere, spec `scoring-admission.md` §8.2).
pub const INJECTION_PHRASES: [&str; 20] = [
    "ignore previous instructions",
    "ignore all previous instructions",
    "ignore prior instructions",
    "ignore all prior instructions",
    "ignore above instructions",
    "ignore all above instructions",
    "disregard system prompt",
    "disregard the system prompt",
    "disregard system instructions",
    "disregard the system instructions",
    "disregard previous prompt",
    "disregard the previous prompt",
    "disregard previous instructions",
    "disregard the previous instructions",
    "reveal your prompt",
    "reveal your system prompt",
    "you are now a",
    "you are now in",
    "override your instructions",
    "override your guardrails",
];

/// One of the injection phrases (ieq, no boundaries) at `i`: the match's
/// end. All phrases that start with the same letter start with the same
/// word and a space, so that word is compared first and settles almost
/// every position. No phrase is a prefix of another (the pattern's
/// `you are now (?:a|an|in)` stops after `a`, as listed), so at most one
/// matches at `i`.
fn injection_at(t: &Text, i: usize) -> Option<usize> {
    let chars = &t.chars;
    let l = letter(chars[i]);
    let first_word = match l {
        b'i' => "ignore ",
        b'd' => "disregard ",
        b'r' => "reveal ",
        b'y' => "you ",
        b'o' => "override ",
        _ => return None,
    };
    if !chars.get(i..i + first_word.len()).is_some_and(|s| ieq_str(first_word, s)) {
        return None;
    }
    INJECTION_PHRASES
        .iter()
        .find(|p| p.as_bytes()[0] == l && chars.get(i..i + p.len()).is_some_and(|s| ieq_str(p, s)))
        .map(|p| i + p.len())
}

/// `is_too_vague(content)`: fewer than 3 distinct runs of ASCII `[a-z0-9]`
/// in `content.lower()` (the `vague` tag).
pub fn is_too_vague(content: &str) -> bool {
    let mut distinct: Vec<String> = Vec::with_capacity(3);
    let mut run = String::new();
    let flush = |run: &mut String, distinct: &mut Vec<String>| {
        if !run.is_empty() {
            if !distinct.iter().any(|d| d == run) {
                distinct.push(std::mem::take(run));
            }
            run.clear();
        }
    };
    for c in content.chars() {
        // The only non-ASCII chars whose lower() contains ASCII: İ → "i" + U+0307, K → "k".
        let (ascii, breaks_after) = match c {
            'A'..='Z' => (Some(c.to_ascii_lowercase()), false),
            'a'..='z' | '0'..='9' => (Some(c), false),
            '\u{130}' => (Some('i'), true),
            '\u{212A}' => (Some('k'), false),
            _ => (None, true),
        };
        if let Some(a) = ascii {
            run.push(a);
        }
        if breaks_after || ascii.is_none() {
            flush(&mut run, &mut distinct);
            if distinct.len() >= 3 {
                return false;
            }
        }
    }
    flush(&mut run, &mut distinct);
    distinct.len() < 3
}

/// The position-anchored detectors (their slots in [`Anchored`]'s arrays).
const SSN: usize = 0;
const MRN: usize = 1;
const NPI: usize = 2;
const MNPI: usize = 3;
const INJECTION: usize = 4;

/// The matches of the five position-anchored detectors, from one pass.
struct Anchored {
    /// Every match (`finditer`), or only each detector's first.
    every: bool,
    /// Per detector, where its search resumes: the end of its last match
    /// (`usize::MAX`: done, its first match found and `every` unset).
    next: [usize; 5],
    /// Detectors still looking (without `every`).
    open: usize,
    /// Per detector, its matches `(start, end)` in code points, in order.
    spans: [Vec<(usize, usize)>; 5],
}

impl Anchored {
    /// Try detector `d` at `i` (`at` gives its match's end, if one starts there).
    #[inline]
    fn try_at(&mut self, d: usize, i: usize, at: impl FnOnce() -> Option<usize>) {
        if i < self.next[d] {
            return;
        }
        if let Some(end) = at() {
            self.spans[d].push((i, end));
            if self.every {
                self.next[d] = end;
            } else {
                self.next[d] = usize::MAX;
                self.open -= 1;
            }
        }
    }
}

/// One pass over the chars for the position-anchored detectors (SSN, MRN,
/// NPI, MNPI, injection): at each position only the detectors whose pattern
/// can start with that char are tried (SSN at Nd digits; `mrn`, `npi`, the
/// MNPI and injection phrases by first letter under ieq). Each detector has
/// at most one match starting at a position, so taking, in position order,
/// each match that starts where that detector's search has resumed is
/// exactly `finditer`. Without `every` each detector stops at its first
/// match (the existence test) and the pass stops once all five have one.
fn scan_anchored(t: &Text, every: bool) -> [Vec<(usize, usize)>; 5] {
    let mut a = Anchored { every, next: [0; 5], open: 5, spans: Default::default() };
    for (i, &c) in t.chars.iter().enumerate() {
        match letter(c) {
            b'0'..=b'9' => a.try_at(SSN, i, || ssn_at(t, i)),
            0 if !c.is_ascii() => a.try_at(SSN, i, || ssn_at(t, i)),
            b'm' => {
                a.try_at(MRN, i, || labelled_number_at(t, i, "mrn", 4, false));
                a.try_at(MNPI, i, || phrase_with_boundaries_at(t, i, &MNPI_PHRASES));
            }
            b'n' => a.try_at(NPI, i, || labelled_number_at(t, i, "npi", 10, true)),
            b'i' => {
                a.try_at(MNPI, i, || phrase_with_boundaries_at(t, i, &MNPI_PHRASES));
                a.try_at(INJECTION, i, || injection_at(t, i));
            }
            b'e' | b'u' | b'p' => a.try_at(MNPI, i, || phrase_with_boundaries_at(t, i, &MNPI_PHRASES)),
            b'd' | b'r' | b'y' | b'o' => a.try_at(INJECTION, i, || injection_at(t, i)),
            _ => {}
        }
        if a.open == 0 {
            break;
        }
    }
    a.spans
}

/// THE detector run, shared by [`detect_risk_tags`] and [`risk_spans`]:
/// `hit(tag, start, end)` (code points) in the reference's order — by tag in
/// detector order (the contract's [`RISK_TAGS`](crate::contract::RISK_TAGS)
/// order), then by position. With `every`,
/// every match `finditer` yields (cards: the Luhn-valid ones); without, only
/// each tag's first (so each tag once). `vague` has no span: not here.
fn detect(t: &Text, every: bool, hit: &mut dyn FnMut(&'static str, usize, usize)) {
    let spans = scan_anchored(t, every);
    let anchored = |d: usize, tag: &'static str, hit: &mut dyn FnMut(&'static str, usize, usize)| {
        for &(s, e) in &spans[d] {
            hit(tag, s, e);
        }
    };
    anchored(SSN, TAG_SSN, hit);
    email_matches(t, &mut |s, e| {
        hit(TAG_EMAIL, s, e);
        every
    });
    anchored(MRN, TAG_MRN, hit);
    anchored(NPI, TAG_NPI, hit);
    card_matches(t, &mut |s, e| {
        hit(TAG_CARD, s, e);
        every
    });
    anchored(MNPI, TAG_MNPI, hit);
    anchored(INJECTION, TAG_INJECTION, hit);
}

/// `detect_risk_tags(content)`: tags in fixed detector order, on the full
/// content: the tags of [`risk_spans`] (each once, from the same detector
/// code, stopping at each one's first match), then `vague` when
/// [`is_too_vague`]. Word flags are computed once for every `\b` test.
pub fn detect_risk_tags(content: &str) -> Vec<&'static str> {
    let t = Text::new(content);
    let mut tags = Vec::new();
    detect(&t, false, &mut |tag, _, _| tags.push(tag));
    if is_too_vague(content) {
        tags.push(TAG_VAGUE);
    }
    tags
}

/// Where an admission detector matched (spec `scoring-admission.md` §8.3): `tag`, the match's
/// `start` and `end` in code points, and its `text` (`content[start:end]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RiskSpan {
    /// The detector's tag (`pii:ssn`, ...; never `vague`).
    pub tag: &'static str,
    /// Start, in code points.
    pub start: usize,
    /// End (exclusive), in code points.
    pub end: usize,
    /// The matched text.
    pub text: String,
}

/// The unit of [`risk_spans_json`]'s offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offsets {
    /// Code points (Python `str` indices; Rust `chars()`).
    CodePoints,
    /// UTF-16 code units (JavaScript `String` indices).
    Utf16,
}

/// `risk_spans(content)`: every match `re.finditer` yields for each
/// detector's pattern in the reference (`admission.py`; cards: only the
/// Luhn-valid matches), by tag in detector order, then by position (spec
/// `scoring-admission.md` §8.3). `vague` has no span. The set of the span tags, plus `vague` when
/// it applies, is [`detect_risk_tags`]`(content)`.
///
/// ```
/// use lians_score::admission::risk_spans;
/// let s = risk_spans("SSN 123-45-6789, mail a@b.io");
/// assert_eq!((s[0].tag, s[0].start, s[0].end, s[0].text.as_str()), ("pii:ssn", 4, 15, "123-45-6789"));
/// assert_eq!((s[1].tag, s[1].text.as_str()), ("pii:email", "a@b.io"));
/// ```
pub fn risk_spans(content: &str) -> Vec<RiskSpan> {
    let t = Text::new(content);
    let mut spans = Vec::new();
    detect(&t, true, &mut |tag, start, end| {
        spans.push(RiskSpan { tag, start, end, text: t.chars[start..end].iter().collect() })
    });
    spans
}

/// `[{tag, start, end, text}]` of `spans` (from [`risk_spans`]`(content)`),
/// offsets in `units`.
pub fn risk_spans_json(content: &str, spans: &[RiskSpan], units: Offsets) -> Value {
    // Code point index → UTF-16 index, only when an astral char makes them differ.
    let utf16: Option<Vec<usize>> = (units == Offsets::Utf16 && content.chars().any(|c| c > '\u{FFFF}')).then(|| {
        let mut at = Vec::with_capacity(content.len() + 1);
        let mut u = 0;
        at.push(0);
        for c in content.chars() {
            u += c.len_utf16();
            at.push(u);
        }
        at
    });
    let offset = |i: usize| Value::int(utf16.as_ref().map_or(i, |at| at[i]) as i64);
    Value::Array(
        spans
            .iter()
            .map(|s| {
                let mut o = Object::with_capacity(4);
                o.push_unique("tag", Value::str(s.tag));
                o.push_unique("start", offset(s.start));
                o.push_unique("end", offset(s.end));
                o.push_unique("text", Value::str(s.text.as_str()));
                Value::Object(o)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn injection_phrases_start_with_their_letters_word() {
        // The premise of `injection_at`'s first-word test.
        for p in INJECTION_PHRASES {
            let word = match p.as_bytes()[0] {
                b'i' => "ignore ",
                b'd' => "disregard ",
                b'r' => "reveal ",
                b'y' => "you ",
                b'o' => "override ",
                _ => panic!("{p}"),
            };
            assert!(p.starts_with(word), "{p}");
        }
    }
}
