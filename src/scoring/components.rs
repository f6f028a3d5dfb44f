//! The seven components (spec `scoring-admission.md` §4). Each returns its unrounded value and its
//! reason; freshness and safety also return an eligibility flag. All
//! arithmetic is IEEE-754 double in exactly the order the spec states.

use std::borrow::Cow;

use crate::json::{Object, Value};
use crate::py::exp::exp;
use crate::py::float::clamp01;
use crate::py::time::{seconds_between, PyDateTime};
use crate::py::unicode;
use crate::scoring::metadata::Meta;

/// Trust levels, name → score (spec `scoring-admission.md` §1).
pub const TRUST_LEVELS: [(&str, f64); 7] = [
    ("system_verified", 1.0),
    ("trusted_source", 0.9),
    ("user_provided", 0.75),
    ("chat", 0.65),
    ("imported", 0.6),
    ("unknown", 0.5),
    ("untrusted", 0.25),
];

/// `caller-declared source trust level {level}` for `unknown` and each level
/// a caller may declare ([`TRUST_LEVELS`] less [`PRIVILEGED_LEVELS`]; the test
/// `declared_reasons_cover_the_levels` checks the list against both).
const DECLARED_REASONS: [(&str, &str); 5] = [
    ("unknown", "caller-declared source trust level unknown"),
    ("user_provided", "caller-declared source trust level user_provided"),
    ("chat", "caller-declared source trust level chat"),
    ("imported", "caller-declared source trust level imported"),
    ("untrusted", "caller-declared source trust level untrusted"),
];

/// Levels a caller may not claim for itself.
pub const PRIVILEGED_LEVELS: [&str; 2] = ["system_verified", "trusted_source"];

/// Freshness half-life in days.
pub const HALF_LIFE_DAYS: f64 = 90.0;

fn trust_score(level: &str) -> Option<f64> {
    TRUST_LEVELS.iter().find(|(name, _)| *name == level).map(|(_, s)| *s)
}

/// What the content-dependent components share (computed once per memory).
pub struct ContentFacts {
    /// Number of tokens of the content sample. Only `min(n, 12)` matters to
    /// the components, so the scorer may stop counting at 12
    /// ([`TOKENS_NEEDED`]); any value ≥ 12 then stands for "12 or more".
    pub n: usize,
    /// A durable-fact signal (decision words, amounts, percentages).
    pub durable: bool,
    /// A year-like date signal.
    pub date: bool,
    /// The content is a greeting/acknowledgement only.
    pub ephemeral: bool,
    /// Public metadata present (spec `scoring-admission.md` §3.6).
    pub meta: bool,
}

/// A component's value (unrounded) and reason.
pub struct Component {
    /// The unrounded value.
    pub value: f64,
    /// The reason the breakdown reports (a fixed reason is borrowed: no
    /// allocation per candidate for the five that never change).
    pub reason: Cow<'static, str>,
}

impl Component {
    fn new(value: f64, reason: impl Into<Cow<'static, str>>) -> Component {
        Component { value, reason: reason.into() }
    }
}

/// `scoring-admission.md` §4.1 importance.
pub fn importance(facts: &ContentFacts, supplied: &Value) -> Component {
    let mut base = if facts.n < 3 || facts.ephemeral { 0.15 } else { 0.4 };
    if facts.durable {
        base += 0.3;
    }
    if facts.date {
        base += 0.1;
    }
    if facts.meta {
        base += 0.1;
    }
    let caller = supplied.clamp01();
    // Python max(base, caller): the first argument wins unless the second is greater.
    let v = if caller > base { caller } else { base };
    Component::new(clamp01(v), "durable fact signals evaluated; caller importance preserved")
}

/// `scoring-admission.md` §4.2 confidence.
pub fn confidence(facts: &ContentFacts, has_event_time: bool, source_truthy: bool) -> Component {
    let mut v = 0.2 + (facts.n.min(12) as f64 / 30.0);
    if has_event_time {
        v += 0.15;
    }
    if source_truthy {
        v += 0.1;
    }
    if facts.meta {
        v += 0.15;
    }
    Component::new(clamp01(v), "structured content, timestamp, source, and metadata evidence evaluated")
}

/// Python `s.strip().lower()`, borrowed when that is `s` itself or a slice
/// of it (ASCII without upper-case letters: a status or source as usually
/// sent; no allocation per candidate).
fn stripped_lower(s: &str) -> Cow<'_, str> {
    let s = unicode::py_strip(s);
    if s.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(unicode::lower(s))
    }
}

/// Python `str(x).strip().lower()` for a trust level given as a JSON value.
fn normalize_level(x: &Value) -> String {
    match x {
        Value::Str(s) => unicode::lower(unicode::py_strip(&s.to_str_lossy())),
        // str() of a number/bool/container is never one of the seven names.
        _ => String::from("unknown"),
    }
}

/// `scoring-admission.md` §4.3 "the claim is present": a truthy top-level `trust_level`, else a
/// non-null `source_trust`. It only adds the reason
/// `caller metadata trust claim ignored`; it never changes the score.
pub fn trust_claim_present(metadata: &Object) -> bool {
    claim_present(Meta::Value(metadata))
}

fn claim_present(metadata: Meta<'_>) -> bool {
    metadata.get("trust_level").is_some_and(|v| v.truthy())
        || metadata.get("source_trust").is_some_and(|v| !v.is_null())
}

/// `scoring-admission.md` §4.3 trust.
pub fn trust(metadata: &Object, source: Option<&str>, verified_trust_level: Option<&Value>) -> Component {
    trust_of(Meta::Value(metadata), source, verified_trust_level)
}

/// [`trust`] of a [`Meta`].
pub fn trust_of(metadata: Meta<'_>, source: Option<&str>, verified_trust_level: Option<&Value>) -> Component {
    if let Some(verified) = verified_trust_level {
        let mut level = normalize_level(verified);
        if trust_score(&level).is_none() {
            level = String::from("unknown");
        }
        let score = trust_score(&level).unwrap_or(0.5);
        return Component::new(score, format!("server-verified source trust level {level}"));
    }
    let claim_present = claim_present(metadata);
    let mut level = match source {
        Some(s) if !s.is_empty() => stripped_lower(s),
        _ => Cow::Borrowed("unknown"),
    };
    // The common case, a sole reason for a known unprivileged level: a fixed string.
    if !claim_present && !PRIVILEGED_LEVELS.contains(&&*level) {
        let declared = DECLARED_REASONS.iter().find(|(name, _)| *name == level).unwrap_or(&DECLARED_REASONS[0]);
        let score = trust_score(declared.0).unwrap_or(0.5);
        return Component::new(score, declared.1);
    }
    // The reasons joined by "; ", built by concatenation.
    let mut reason = String::with_capacity(96);
    if claim_present {
        reason.push_str("caller metadata trust claim ignored; ");
    }
    if PRIVILEGED_LEVELS.contains(&&*level) {
        reason.push_str("unverified privileged source claim ");
        reason.push_str(&level);
        reason.push_str(" ignored; ");
        level = Cow::Borrowed("unknown");
    } else if trust_score(&level).is_none() {
        level = Cow::Borrowed("unknown");
    }
    reason.push_str("caller-declared source trust level ");
    reason.push_str(&level);
    Component::new(trust_score(&level).unwrap_or(0.5), reason)
}

/// The datetimes freshness looks at.
pub struct Validity<'a> {
    /// The reference time.
    pub reference: &'a PyDateTime,
    /// `event_time`.
    pub event_time: Option<&'a PyDateTime>,
    /// `valid_from`.
    pub valid_from: Option<&'a PyDateTime>,
    /// `valid_to`.
    pub valid_to: Option<&'a PyDateTime>,
    /// `superseded`.
    pub superseded: bool,
}

/// `scoring-admission.md` §4.4 freshness: (value, reason, temporal_eligible).
pub fn freshness(v: &Validity<'_>) -> (Component, bool) {
    let reference = v.reference.instant_micros();
    let start = v.valid_from.or(v.event_time);
    if start.is_some_and(|s| s.instant_micros() > reference) {
        return (Component::new(0.0, "not yet valid at the recall reference time"), false);
    }
    if v.valid_to.is_some_and(|end| reference >= end.instant_micros()) {
        return (Component::new(0.0, "outside the validity window at the recall reference time"), false);
    }
    if v.event_time.is_some_and(|ev| ev.instant_micros() > reference) {
        return (Component::new(0.0, "future-dated relative to the recall reference time"), false);
    }
    if v.superseded && v.valid_to.is_none() {
        return (Component::new(0.1, "marked superseded for present recall"), true);
    }
    let Some(event) = v.event_time else {
        return (Component::new(0.5, "no event time; neutral freshness"), true);
    };
    let secs = seconds_between(v.reference, event);
    let age_days = secs / 86400.0;
    let age = if age_days > 0.0 { age_days } else { 0.0 };
    // `-math.log(2) * age_days / 90.0`; math.log(2) is LN_2 and math.exp is
    // glibc's exp, which py::exp reproduces bit for bit on every target.
    let x = (-std::f64::consts::LN_2 * age) / HALF_LIFE_DAYS;
    (Component::new(clamp01(exp(x)), "valid at reference time with deterministic age decay"), true)
}

/// The query side of relevance.
pub struct Query<'a> {
    /// The query string (its truthiness decides whether relevance is computed).
    pub text: Option<&'a str>,
    /// Pre-tokenized query, replacing tokenization of `text` when given.
    pub tokens: Option<&'a [String]>,
    /// `base_relevance` (any JSON value, through `clamp`).
    pub base_relevance: Option<&'a Value>,
}

/// `scoring-admission.md` §4.5 relevance. `content_tokens` are the content sample's tokens;
/// `metadata_tokens` is called only when the query is truthy.
///
/// The scorer itself uses [`relevance_streamed`], which gives the same
/// component without materializing any token list; this form is kept for
/// callers that already hold tokens.
pub fn relevance(
    query: &Query<'_>,
    content_tokens: &[String],
    metadata_tokens: impl FnOnce() -> Vec<String>,
) -> Component {
    let text = match query.text {
        Some(t) if !t.is_empty() => t,
        _ => return neutral_relevance(),
    };
    let owned_query_tokens;
    let q_tokens: &[String] = match query.tokens {
        Some(tokens) => tokens,
        None => {
            owned_query_tokens = crate::text::tokenize(text);
            &owned_query_tokens
        }
    };
    let mut q: Vec<&str> = q_tokens.iter().map(String::as_str).collect();
    q.sort_unstable();
    q.dedup();
    let meta_tokens = metadata_tokens();
    let mut c: Vec<&str> = content_tokens.iter().chain(meta_tokens.iter()).map(String::as_str).collect();
    c.sort_unstable();
    c.dedup();
    let m = q.iter().filter(|t| c.binary_search(t).is_ok()).count();
    relevance_component(query, m, q.len())
}

fn neutral_relevance() -> Component {
    Component::new(0.5, "no recall query; neutral relevance")
}

/// The relevance component once `m` of the `distinct` query tokens matched.
fn relevance_component(query: &Query<'_>, m: usize, distinct: usize) -> Component {
    let lexical = lexical_overlap(m, distinct);
    // Concatenation, not `format!` (measurably cheaper per candidate), and
    // `m`'s digits written in place (no `to_string`: one allocation, no formatter).
    let reason = |before: &str, after: &str| {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut n = m;
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let mut r = String::with_capacity(before.len() + (digits.len() - at) + after.len());
        r.push_str(before);
        r.extend(digits[at..].iter().map(|&d| d as char));
        r.push_str(after);
        r
    };
    match query.base_relevance {
        None => Component::new(clamp01(lexical), reason("lexical token overlap matched ", " query tokens")),
        Some(base) => Component::new(
            relevance_with_base(base.clamp01(), lexical),
            reason("existing retrieval relevance plus ", " lexical token matches"),
        ),
    }
}

/// The lexical overlap of `scoring-admission.md` §4.5 step 2: `m` of `distinct` query tokens matched.
pub fn lexical_overlap(m: usize, distinct: usize) -> f64 {
    m as f64 / distinct.max(1) as f64
}

/// The relevance component (unrounded) for a clamped base relevance `base`
/// and the lexical overlap: `clamp01(0.7·base + 0.3·lexical)`, in exactly
/// the reference's operation order. The recall audit evaluates it for
/// candidate retrieval scores.
pub fn relevance_with_base(base: f64, lexical: f64) -> f64 {
    clamp01((0.7 * base) + (0.3 * lexical))
}

/// How many content tokens the components need to see: importance,
/// confidence and stability only look at `min(n, 12)` (and `n < 3`).
pub const TOKENS_NEEDED: usize = 12;

/// `scoring-admission.md` §4.5 relevance and the content token count in one streaming pass, with
/// the same result as [`relevance`] over the materialized token lists.
///
/// `folded_content` is the casefolded content sample. Returns the component
/// and the token count, which is exact up to [`TOKENS_NEEDED`] and a lower
/// bound beyond it (the pass stops as soon as every distinct query token has
/// matched and at least 12 tokens were seen; with no query it stops at 12).
///
/// Instead of sorting and deduplicating up to 2,048 content and metadata
/// tokens, the few distinct query tokens are sorted once and each content
/// token is looked up among them; the metadata text is flattened and
/// tokenized only when the query is truthy and some query token is still
/// unmatched after the content (its tokens cannot change the answer otherwise).
pub fn relevance_streamed(query: &Query<'_>, folded_content: &str, metadata: &Object) -> (Component, usize) {
    relevance_streamed_with(query, folded_content, metadata, None)
}

/// The distinct query tokens, sorted, that [`relevance_streamed`] matches
/// against: `query.tokens` when given, else the tokens of `query.text`.
/// (Empty when the query text is falsy: relevance is then neutral.)
pub fn query_tokens(query: &Query<'_>) -> Vec<String> {
    use crate::text::{for_each_token, TOKEN_CAP};
    if !query.text.is_some_and(|t| !t.is_empty()) {
        return Vec::new();
    }
    let mut q_folded = String::new();
    let mut q: Vec<&str> = match query.tokens {
        Some(tokens) => tokens.iter().map(String::as_str).collect(),
        None => {
            let sampled = crate::text::sample(query.text.unwrap_or(""));
            unicode::casefold_into(&sampled, &mut q_folded);
            let mut v = Vec::new();
            for_each_token(&q_folded, TOKEN_CAP, |t| {
                v.push(t);
                true
            });
            v
        }
    };
    q.sort_unstable();
    q.dedup();
    q.into_iter().map(String::from).collect()
}

/// [`query_tokens`], remembering the last query text's tokens per thread:
/// one caller scoring many memories against one query one call at a time
/// (a JS loop over `scoreMemory`) tokenizes it once. Explicit
/// `query.tokens` are not memoized.
fn memo_query_tokens(query: &Query<'_>) -> std::rc::Rc<Vec<String>> {
    use std::cell::RefCell;
    use std::rc::Rc;
    thread_local! {
        static LAST: RefCell<Option<(String, Rc<Vec<String>>)>> = const { RefCell::new(None) };
    }
    let text = match (query.tokens, query.text) {
        (None, Some(text)) if text.len() <= 4096 => text,
        _ => return Rc::new(query_tokens(query)),
    };
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((q, tokens)) = last.as_ref() {
            if q == text {
                return Rc::clone(tokens);
            }
        }
        let tokens = Rc::new(query_tokens(query));
        *last = Some((text.to_string(), Rc::clone(&tokens)));
        tokens
    })
}

/// [`relevance_streamed`] with the query's distinct sorted tokens optionally
/// precomputed by [`query_tokens`] for the same `query` (a batch computes
/// them once per distinct query).
pub fn relevance_streamed_with(
    query: &Query<'_>,
    folded_content: &str,
    metadata: &Object,
    precomputed: Option<&[&str]>,
) -> (Component, usize) {
    relevance_tokens(
        query,
        |cap, m| crate::text::match_tokens(folded_content, cap, m),
        Meta::Value(metadata),
        precomputed,
        &mut MetaScratch::default(),
    )
}

/// [`relevance_streamed_with`] on the content *sample* (not yet casefolded):
/// the sample is folded into `folded` only as far as the token pass reads it
/// ([`crate::text::for_each_folded_token`]).
pub fn relevance_sampled(
    query: &Query<'_>,
    sample: &str,
    folded: &mut String,
    metadata: &Object,
    precomputed: Option<&[&str]>,
) -> (Component, usize) {
    relevance_sampled_in(query, sample, folded, Meta::Value(metadata), precomputed, &mut MetaScratch::default())
}

/// Reusable buffers for the metadata text and its casefold (a batch keeps one).
#[derive(Default)]
pub(crate) struct MetaScratch {
    text: String,
    folded: String,
}

/// [`relevance_sampled`] of a [`Meta`], with reused buffers.
pub(crate) fn relevance_sampled_in(
    query: &Query<'_>,
    sample: &str,
    folded: &mut String,
    metadata: Meta<'_>,
    precomputed: Option<&[&str]>,
    scratch: &mut MetaScratch,
) -> (Component, usize) {
    relevance_tokens(
        query,
        |cap, m| crate::text::match_folded_tokens(sample, folded, cap, m),
        metadata,
        precomputed,
        scratch,
    )
}

/// The shared body: `tokens(cap, matcher)` streams the content tokens (at
/// most `cap`) to [`Matcher::feed`], stopping when it returns false, and
/// returns how many it passed.
fn relevance_tokens(
    query: &Query<'_>,
    tokens: impl FnOnce(usize, &mut crate::text::Matcher<'_>) -> usize,
    metadata: Meta<'_>,
    precomputed: Option<&[&str]>,
    scratch: &mut MetaScratch,
) -> (Component, usize) {
    use crate::text::{Matcher, TOKEN_CAP};
    if !query.text.is_some_and(|t| !t.is_empty()) {
        let mut m = Matcher::new(&[], TOKENS_NEEDED);
        return (neutral_relevance(), tokens(TOKENS_NEEDED, &mut m));
    }
    let owned;
    let owned_refs: Vec<&str>;
    let q: &[&str] = match precomputed {
        Some(q) => q,
        None => {
            owned = memo_query_tokens(query);
            owned_refs = owned.iter().map(String::as_str).collect();
            &owned_refs
        }
    };
    let mut m = Matcher::new(q, TOKENS_NEEDED);
    let n = tokens(TOKEN_CAP, &mut m);
    if m.remaining() > 0 {
        crate::scoring::metadata::metadata_text_into(metadata, &mut scratch.text);
        scratch.folded.clear();
        unicode::casefold_into(&scratch.text, &mut scratch.folded);
        crate::text::mark_tokens(&scratch.folded, &mut m);
    }
    (relevance_component(query, q.len() - m.remaining(), q.len()), n)
}

/// `scoring-admission.md` §4.6 stability.
pub fn stability(facts: &ContentFacts, has_event_time: bool) -> Component {
    let mut v = if facts.n < 3 || facts.ephemeral { 0.15 } else { 0.45 };
    if facts.durable {
        v += 0.25;
    }
    if has_event_time {
        v += 0.1;
    }
    if facts.meta {
        v += 0.1;
    }
    Component::new(clamp01(v), "durability, specificity, timestamp, and evidence evaluated")
}

/// Safety statuses that gate content out entirely.
pub const UNSAFE_STATUSES: [&str; 3] = ["quarantined", "unsafe", "rejected"];
/// Safety statuses that hold content for human review.
pub const REVIEW_STATUSES: [&str; 4] = ["review", "review_needed", "held_for_review", "pending"];
/// Risk tags that gate content whatever its status (the contract's `gates_safety` rows).
pub const UNSAFE_TAGS: [&str; crate::contract::risk::N_GATING] = crate::contract::risk::gating_tags();

/// `scoring-admission.md` §4.7 safety: (value, reason, safety_eligible).
pub fn safety<'a>(safety_status: &str, risk_tags: impl IntoIterator<Item = &'a str>) -> (Component, bool) {
    let s = stripped_lower(safety_status);
    let tagged_unsafe = risk_tags.into_iter().any(|t| UNSAFE_TAGS.contains(&t));
    if UNSAFE_STATUSES.contains(&&*s) || tagged_unsafe {
        (Component::new(0.0, "unsafe or quarantined content is gated from normal recall"), false)
    } else if REVIEW_STATUSES.contains(&&*s) {
        (Component::new(0.5, "human review required before normal recall"), false)
    } else {
        (Component::new(1.0, "not quarantined"), true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixed trust reasons are the concatenation they replace, for
    /// exactly the levels a caller may declare (and `unknown`).
    #[test]
    fn declared_reasons_cover_the_levels() {
        let mut want: Vec<&str> =
            TRUST_LEVELS.iter().map(|(name, _)| *name).filter(|name| !PRIVILEGED_LEVELS.contains(name)).collect();
        let mut have: Vec<&str> = DECLARED_REASONS.iter().map(|(name, _)| *name).collect();
        want.sort_unstable();
        have.sort_unstable();
        assert_eq!(have, want);
        for (name, reason) in DECLARED_REASONS {
            assert_eq!(reason, format!("caller-declared source trust level {name}"));
        }
        for source in [None, Some(""), Some(" Chat "), Some("USER_PROVIDED"), Some("nope"), Some("trusted_source")] {
            let c = trust(&Object::new(), source, None);
            let level = match source {
                Some(s) if !s.is_empty() => unicode::lower(unicode::py_strip(s)),
                _ => String::from("unknown"),
            };
            let known = trust_score(&level).is_some() && !PRIVILEGED_LEVELS.contains(&level.as_str());
            if !PRIVILEGED_LEVELS.contains(&level.as_str()) {
                let shown = if known { level.as_str() } else { "unknown" };
                assert_eq!(c.reason, format!("caller-declared source trust level {shown}"));
                assert_eq!(c.value, trust_score(shown).unwrap());
            }
        }
    }
}
