//! The server's query planner (`query_planner.plan_query` of the reference,
//! `ranking-receipts.md` §9.2), restated so the audit can re-derive the
//! query variants a recall was scored with from the query, mode and policy.
//!
//! `query_variants` in a response is **not bound** by the receipt: a server
//! could append a variant that fits any relevance it likes. The audit never
//! takes a variant from the response; it plans them itself and compares.
//!
//! The reference, in Python terms (`re.I` patterns on `str`):
//! * `original = " ".join(query.split())` (Python whitespace); empty → the
//!   plan `([""], ["episodic"])`;
//! * `core` = the `[a-z0-9][a-z0-9'-]*` runs (case-insensitive), each
//!   `.lower()`ed, minus the stop words, joined by one space;
//! * facets in order: `episodic` (the original), `temporal` (a strong time
//!   word, or a relative one together with an aggregate word), `history` (an
//!   aggregate word), `relational` (a relational word), `typed` (deep or
//!   reconstruct), `reconstruction` and `provenance` (reconstruct); each
//!   word test is `\b(w1|w2|…)\b` with `re.I`;
//! * variants equal after `" ".join(v.split()).lower()` are dropped (the
//!   first is kept), then the plan is cut to `max(1, max_variants)`.
//!
//! Case-insensitive matching is [`crate::text::ieq`] (ASCII pairs plus `İ`,
//! `ı`, `ſ` and the Kelvin sign, as the scorer's scanners use it), `\b` is
//! Python's Unicode word boundary and `.lower()` is [`unicode::lower`].

use crate::py::unicode;
use crate::text::ieq;

/// A query plan: the variants and their facet scopes, in facet order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryPlan {
    pub variants: Vec<String>,
    pub scopes: Vec<&'static str>,
}

const STOP: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "did", "do", "does", "for", "from", "had", "has",
    "have", "he", "her", "hers", "him", "his", "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or",
    "our", "she", "so", "that", "the", "their", "them", "they", "this", "to", "was", "we", "were", "what", "when",
    "where", "which", "who", "whom", "why", "will", "with", "you", "your",
];

const TEMPORAL_STRONG: [&str; 14] = [
    "when", "first", "last", "recent", "previous", "formerly", "used to", "how long", "date", "time", "year", "month",
    "week", "day",
];
const TEMPORAL_RELATIVE: [&str; 4] = ["before", "after", "prior", "later"];
const AGGREGATE: [&str; 16] = [
    "all",
    "both",
    "activities",
    "events",
    "ways",
    "examples",
    "kinds",
    "types",
    "places",
    "books",
    "jobs",
    "hobbies",
    "interests",
    "changes",
    "experiences",
    "things",
];
const RELATIONAL: [&str; 15] = [
    "why",
    "would",
    "might",
    "likely",
    "relationship",
    "together",
    "influence",
    "role",
    "attitude",
    "personality",
    "nickname",
    "advice",
    "support",
    "cope",
    "reason",
];

/// The variant suffix of each added facet scope, in the planner's order.
pub const SCOPE_SUFFIXES: [(&str, &str); 6] = [
    ("temporal", " chronology date sequence prior later"),
    ("history", " complete history examples"),
    ("relational", " relationships background reasons preferences"),
    ("typed", " facts preferences procedures policies relationships outcomes"),
    ("reconstruction", " chronology versions superseded valid at requested time"),
    ("provenance", " source provenance evidence lineage decision context"),
];

/// `" ".join(s.split())`: Python whitespace runs collapsed, ends trimmed.
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(unicode::is_py_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// A char of `[a-z0-9]` under `re.I`.
fn token_start(c: char) -> bool {
    c.is_ascii_digit() || (b'a'..=b'z').any(|p| ieq(p, c))
}

/// A char of `[a-z0-9'-]` under `re.I`.
fn token_char(c: char) -> bool {
    c == '\'' || c == '-' || token_start(c)
}

/// `_keywords`: the lowercased token runs that are not stop words.
fn keywords(original: &str) -> String {
    let chars: Vec<char> = original.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !token_start(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < chars.len() && token_char(chars[i]) {
            i += 1;
        }
        let run: String = chars[start..i].iter().collect();
        let word = unicode::lower(&run);
        if !STOP.contains(&word.as_str()) {
            words.push(word);
        }
    }
    words.join(" ")
}

/// `re.search(r"\b(w1|w2|…)\b", text, re.I)` is not None. Every word
/// starts and ends with an ASCII letter, so the boundaries are "no word
/// char before" and "no word char after".
fn search_words(chars: &[char], words: &[&str]) -> bool {
    for p in 0..chars.len() {
        if p > 0 && unicode::is_py_word(chars[p - 1]) {
            continue;
        }
        for w in words {
            let n = w.len();
            if p + n > chars.len() || !w.bytes().zip(&chars[p..p + n]).all(|(b, &c)| ieq(b, c)) {
                continue;
            }
            if !chars.get(p + n).is_some_and(|&c| unicode::is_py_word(c)) {
                return true;
            }
        }
    }
    false
}

/// `plan_query(query, max_variants, retrieval_mode=mode)`.
pub fn plan_query(query: &str, max_variants: i64, mode: &str) -> QueryPlan {
    let original = collapse_whitespace(query);
    if original.is_empty() {
        return QueryPlan { variants: vec![String::new()], scopes: vec!["episodic"] };
    }
    let core = keywords(&original);
    let chars: Vec<char> = original.chars().collect();
    let mut variants = vec![original.clone()];
    let mut scopes = vec!["episodic"];
    let aggregate = search_words(&chars, &AGGREGATE);
    let temporal = search_words(&chars, &TEMPORAL_STRONG) || (search_words(&chars, &TEMPORAL_RELATIVE) && aggregate);
    let mut add = |scope: &'static str| {
        let suffix = SCOPE_SUFFIXES.iter().find(|(s, _)| *s == scope).map(|(_, x)| *x).unwrap_or("");
        variants.push(format!("{core}{suffix}"));
        scopes.push(scope);
    };
    if temporal {
        add("temporal");
    }
    if aggregate {
        add("history");
    }
    if search_words(&chars, &RELATIONAL) {
        add("relational");
    }
    if mode == "deep" || mode == "reconstruct" {
        add("typed");
    }
    if mode == "reconstruct" {
        add("reconstruction");
        add("provenance");
    }
    let mut seen: Vec<String> = Vec::new();
    let mut out = QueryPlan { variants: Vec::new(), scopes: Vec::new() };
    for (v, s) in variants.into_iter().zip(scopes) {
        let normalized = unicode::lower(&collapse_whitespace(&v));
        if !normalized.is_empty() && !seen.contains(&normalized) {
            seen.push(normalized);
            out.variants.push(v);
            out.scopes.push(s);
        }
    }
    let cap = max_variants.max(1) as usize;
    out.variants.truncate(cap);
    out.scopes.truncate(cap);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(q: &str, n: i64, mode: &str) -> Vec<String> {
        plan_query(q, n, mode).variants
    }

    #[test]
    fn plans_of_the_captured_requests() {
        assert_eq!(plan("Acme revenue", 1, "fast"), ["Acme revenue"]);
        assert_eq!(
            plan("When did Acme first sign and why is churn risk low?", 4, "fast"),
            [
                "When did Acme first sign and why is churn risk low?",
                "acme first sign churn risk low chronology date sequence prior later",
                "acme first sign churn risk low relationships background reasons preferences",
            ]
        );
        assert_eq!(
            plan("Umsatz Zürich 売上", 4, "deep"),
            ["Umsatz Zürich 売上", "umsatz z rich facts preferences procedures policies relationships outcomes"]
        );
        let r = plan_query("Acme contract", 4, "reconstruct");
        assert_eq!(r.scopes, ["episodic", "typed", "reconstruction", "provenance"]);
        assert_eq!(plan("Acme contract", 2, "reconstruct").len(), 2);
        assert_eq!(plan("  ", 4, "deep"), [""]);
        assert_eq!(plan("  a  b ", 0, "fast"), ["a b"]);
    }

    /// Offline differential against the reference planner: a JSON-lines file
    /// of `{query, max, mode, variants, scopes}` written by CPython 3.12 with
    /// `lians_engine.lians.query_planner.plan_query` (see docs/audit.md).
    #[test]
    fn matches_the_reference_planner_on_a_cases_file() {
        let Ok(path) = std::env::var("LIANS_PLANNER_CASES") else { return };
        let text = std::fs::read_to_string(path).unwrap();
        let mut n = 0;
        for line in text.lines() {
            let case = crate::json::parse(line).unwrap();
            let s = |k: &str| case.get(k).and_then(crate::json::Value::as_str).unwrap().to_string();
            let list = |k: &str| -> Vec<String> {
                case.get(k)
                    .and_then(crate::json::Value::as_array)
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect()
            };
            let max: i64 = match case.get("max") {
                Some(crate::json::Value::Int(d)) => d.parse().unwrap(),
                _ => panic!(),
            };
            let got = plan_query(&s("query"), max, &s("mode"));
            assert_eq!(got.variants, list("variants"), "{line}");
            assert_eq!(got.scopes, list("scopes"), "{line}");
            n += 1;
        }
        eprintln!("{n} plans identical to the reference");
    }

    #[test]
    fn python_re_ignorecase_and_boundaries() {
        // Kelvin sign and long s match k/s; İ lowers to "i̇".
        assert_eq!(plan("\u{212A}inds of \u{17F}tuff", 4, "fast").len(), 2);
        assert_eq!(plan("WHEN", 4, "fast"), ["WHEN", " chronology date sequence prior later"]);
        // No boundary inside a word, or after an underscore.
        assert_eq!(plan("whenever _when", 4, "fast").len(), 1);
        assert_eq!(plan("used  to", 4, "fast").len(), 2);
        // before/after needs an aggregate word.
        assert_eq!(plan("after lunch", 4, "fast").len(), 1);
        assert_eq!(plan("all events after lunch", 4, "fast").len(), 3);
        assert_eq!(
            plan_query("İstanbul trip", 4, "deep").variants[1],
            "i\u{307}stanbul trip facts preferences procedures policies relationships outcomes"
        );
        // Duplicates after lowercasing are dropped.
        assert_eq!(plan("facts preferences procedures policies relationships outcomes", 4, "deep").len(), 2);
    }
}
