//! [`ScoreBreakdown`]: the typed form of `score_memory`'s result (spec `scoring-admission.md` §5).

use std::borrow::Cow;

use super::{Scored, COMPONENTS, SCORING_POLICY_VERSION};
use crate::json::{Object, Value};
use crate::py::float::round6;
use crate::scoring::metadata;
use crate::text;

/// `score_memory`'s result, field for field as the reference returns it
/// (spec `scoring-admission.md` §5): the seven components rounded to 6 places, the final score, the
/// gates, the weight table and one reason per component.
///
/// With the `serde` feature it (de)serializes with the Lians wire names, in
/// the reference's key order. [`ScoreBreakdown::to_json`] gives the exact
/// wire object (Python float `repr`, e.g. `1e-06`), which is what the JSON
/// façade and the bindings print.
///
/// ```
/// use lians_score::{score_memory, PyDateTime, ScoreInput};
/// let now = PyDateTime::parse("2026-08-01T00:00:00+00:00").unwrap();
/// let b = score_memory(&ScoreInput::new("NVDA guidance is $36B", now).event_time(now).source("user_provided"));
/// assert!(b.eligible);
/// assert_eq!(b.trust_score, 0.75);
/// assert_eq!(b.weights.get("relevance_score"), Some(0.35));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScoreBreakdown {
    /// `scoring-admission.md` §4.1, in \[0, 1\], rounded to 6 places.
    pub importance_score: f64,
    /// `scoring-admission.md` §4.2.
    pub confidence_score: f64,
    /// `scoring-admission.md` §4.3.
    pub trust_score: f64,
    /// `scoring-admission.md` §4.4 (half-life 90 days).
    pub freshness_score: f64,
    /// `scoring-admission.md` §4.5.
    pub relevance_score: f64,
    /// `scoring-admission.md` §4.6.
    pub stability_score: f64,
    /// `scoring-admission.md` §4.7.
    pub safety_score: f64,
    /// The weighted sum, clamped and rounded; `0.0` when not [`eligible`](Self::eligible).
    pub final_score: f64,
    /// `safety_eligible && temporal_eligible`.
    pub eligible: bool,
    /// False when the safety gate zeroed the score (status or risk tags).
    pub safety_eligible: bool,
    /// False when the memory is superseded, expired or not yet valid.
    pub temporal_eligible: bool,
    /// `recall` or `admission` (or any other purpose, weighted as recall).
    pub purpose: String,
    /// Always [`SCORING_POLICY_VERSION`] for breakdowns computed here.
    pub scoring_policy_version: String,
    /// The reference time as Python's `isoformat()` (naive times as UTC).
    pub reference_time: String,
    /// The text and metadata caps the scorer applied.
    pub scoring_limits: ScoringLimits,
    /// The weight table the purpose selected, in the reference's order.
    pub weights: Weights,
    /// One reason per component, in component order.
    pub reasons: Vec<String>,
}

/// The caps reported in `scoring_limits` (spec `scoring-admission.md` §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScoringLimits {
    /// Characters of content scored (head + tail sample).
    pub text_sample_chars: u64,
    /// Tokens kept per text.
    pub token_cap: u64,
    /// Characters of flattened metadata text.
    pub metadata_chars: u64,
    /// Metadata items flattened.
    pub metadata_items: u64,
    /// Metadata nesting depth flattened.
    pub metadata_depth: u64,
    /// Characters kept per metadata value.
    pub metadata_value_chars: u64,
}

impl ScoringLimits {
    /// The limits this crate applies (the reference's, spec `scoring-admission.md` §3).
    pub const CURRENT: ScoringLimits = ScoringLimits {
        text_sample_chars: text::TEXT_SAMPLE_CHARS as u64,
        token_cap: text::TOKEN_CAP as u64,
        metadata_chars: metadata::METADATA_CHARS as u64,
        metadata_items: metadata::METADATA_ITEMS as u64,
        metadata_depth: metadata::METADATA_DEPTH as u64,
        metadata_value_chars: metadata::METADATA_VALUE_CHARS as u64,
    };

    /// `(wire name, value)` in the order the reference prints them (both printers read this).
    fn members(&self) -> [(&'static str, u64); 6] {
        [
            ("text_sample_chars", self.text_sample_chars),
            ("token_cap", self.token_cap),
            ("metadata_chars", self.metadata_chars),
            ("metadata_items", self.metadata_items),
            ("metadata_depth", self.metadata_depth),
            ("metadata_value_chars", self.metadata_value_chars),
        ]
    }
}

/// A weight table: `(component name, weight)` in the reference's order
/// (which differs between the recall and admission tables, so it is a list,
/// not a struct). Serializes as a JSON object in that order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Weights(pub Vec<(Cow<'static, str>, f64)>);

impl Weights {
    /// The weight of component `name`, if the table has it.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, w)| *w)
    }

    /// The `(name, weight)` pairs in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, f64)> {
        self.0.iter().map(|(n, w)| (n.as_ref(), *w))
    }
}

impl ScoreBreakdown {
    /// The reference's output object, keys in emission order (spec `scoring-admission.md` §5).
    pub fn to_json(&self) -> Value {
        let reasons: Vec<&str> = self.reasons.iter().map(String::as_str).collect();
        Wire {
            components: [
                self.importance_score,
                self.confidence_score,
                self.trust_score,
                self.freshness_score,
                self.relevance_score,
                self.stability_score,
                self.safety_score,
            ],
            final_score: self.final_score,
            eligible: self.eligible,
            safety_eligible: self.safety_eligible,
            temporal_eligible: self.temporal_eligible,
            purpose: Purpose::Str(&self.purpose),
            scoring_policy_version: &self.scoring_policy_version,
            reference_time: &self.reference_time,
            scoring_limits: &self.scoring_limits,
            reasons: &reasons,
        }
        .print(self.weights.iter())
    }
}

/// The fields of the wire object, borrowed: the one printer behind both
/// [`ScoreBreakdown::to_json`] and the scorer's own [`Scored::to_json`]
/// (which prints without building a [`ScoreBreakdown`] first).
pub(super) struct Wire<'a> {
    /// Rounded, in [`COMPONENTS`] order.
    pub components: [f64; 7],
    pub final_score: f64,
    pub eligible: bool,
    pub safety_eligible: bool,
    pub temporal_eligible: bool,
    pub purpose: Purpose<'a>,
    pub scoring_policy_version: &'a str,
    pub reference_time: &'a str,
    pub scoring_limits: &'a ScoringLimits,
    pub reasons: &'a [&'a str],
}

/// The purpose as the two holders keep it (copied into the object as it is printed).
pub(super) enum Purpose<'a> {
    /// Any JSON value, echoed as given (the scorer's [`Scored`]).
    Value(&'a Value),
    /// A string ([`ScoreBreakdown`]).
    Str(&'a str),
}

impl Wire<'_> {
    /// The reference's output object, keys in emission order (spec `scoring-admission.md` §5).
    #[inline]
    pub fn print<'w>(self, weights: impl ExactSizeIterator<Item = (&'w str, f64)>) -> Value {
        let mut o = Object::with_capacity(17);
        for (name, value) in COMPONENTS.iter().zip(self.components) {
            o.push_unique(*name, Value::Float(value));
        }
        o.push_unique("final_score", Value::Float(self.final_score));
        o.push_unique("eligible", Value::Bool(self.eligible));
        o.push_unique("safety_eligible", Value::Bool(self.safety_eligible));
        o.push_unique("temporal_eligible", Value::Bool(self.temporal_eligible));
        o.push_unique(
            "purpose",
            match self.purpose {
                Purpose::Value(v) => v.clone(),
                Purpose::Str(s) => Value::str(s),
            },
        );
        o.push_unique("scoring_policy_version", Value::str(self.scoring_policy_version));
        o.push_unique("reference_time", Value::str(self.reference_time));
        let mut limits = Object::with_capacity(6);
        for (name, n) in self.scoring_limits.members() {
            limits.push_unique(name, Value::int(n as i64));
        }
        o.push_unique("scoring_limits", Value::Object(limits));
        // At least 7: the same allocation for either table (recall 7, admission 6).
        let mut table = Object::with_capacity(weights.len().max(7));
        for (name, w) in weights {
            table.push_unique(name, Value::Float(w));
        }
        o.push_unique("weights", Value::Object(table));
        o.push_unique("reasons", Value::Array(self.reasons.iter().map(|r| Value::str(*r)).collect()));
        Value::Object(o)
    }
}

impl Wire<'_> {
    /// The compact JSON text of [`Wire::print`]'s object (what
    /// [`json::to_json_string`](crate::json::to_json_string) prints for it, byte for byte),
    /// appended to `out` without building the [`Value`]: no key, string or
    /// container is allocated (the `scoreMemory` export parses this text
    /// into the JS object; issue #32). Keys are the contract's names, plain
    /// ASCII that JSON writes as they are.
    #[inline(never)]
    pub fn write_json<'w>(self, weights: impl ExactSizeIterator<Item = (&'w str, f64)>, out: &mut Vec<u8>) {
        use crate::json::write::write_float;
        // One buffer for every float's `repr` (json's `write_float` makes one a float).
        let mut repr = String::new();
        let mut float = |out: &mut Vec<u8>, x: f64| {
            if x.is_finite() {
                repr.clear();
                crate::py::float::write_repr(x, &mut repr);
                put(out, repr.as_bytes());
            } else {
                write_float(x, out);
            }
        };
        let mut sep = b'{';
        for (name, value) in COMPONENTS.iter().zip(self.components) {
            key(out, sep, name);
            sep = b',';
            float(out, value);
        }
        key(out, b',', "final_score");
        float(out, self.final_score);
        for (name, b) in [
            ("eligible", self.eligible),
            ("safety_eligible", self.safety_eligible),
            ("temporal_eligible", self.temporal_eligible),
        ] {
            key(out, b',', name);
            put(out, if b { b"true" } else { b"false" });
        }
        key(out, b',', "purpose");
        match self.purpose {
            // (Any JSON value: the one printer.)
            Purpose::Value(v) => put(out, crate::json::to_json_string(v).as_bytes()),
            Purpose::Str(s) => string(out, s.as_bytes()),
        }
        for (name, text) in
            [("scoring_policy_version", self.scoring_policy_version), ("reference_time", self.reference_time)]
        {
            key(out, b',', name);
            string(out, text.as_bytes());
        }
        key(out, b',', "scoring_limits");
        let mut sep = b'{';
        for (name, n) in self.scoring_limits.members() {
            key(out, sep, name);
            sep = b',';
            digits(out, n);
        }
        put(out, b"}");
        key(out, b',', "weights");
        let mut sep = b'{';
        for (name, w) in weights {
            key(out, sep, name);
            sep = b',';
            float(out, w);
        }
        put(out, if sep == b'{' { b"{}" } else { b"}" });
        key(out, b',', "reasons");
        let mut sep = b'[';
        for r in self.reasons {
            put(out, &[sep]);
            sep = b',';
            string(out, r.as_bytes());
        }
        put(out, if sep == b'[' { b"[]}" } else { b"]}" });
    }
}

/// `sep` (`{` or `,`) and a member's key (a contract name: plain ASCII, written as it is).
#[inline(never)]
fn key(out: &mut Vec<u8>, sep: u8, name: &str) {
    put(out, &[sep, b'"']);
    put(out, name.as_bytes());
    put(out, b"\":");
}

/// `out.extend_from_slice` in one place (not inlined at each of the printer's writes: code size).
#[inline(never)]
fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(bytes);
}

/// A JSON string (json's `write_bytes`, compact: raw UTF-8, only `"`, `\` and controls escaped).
#[inline(never)]
fn string(out: &mut Vec<u8>, s: &[u8]) {
    crate::json::write::write_bytes(s, false, out)
}

/// An integer's digits, as [`Value::int`] prints them.
#[inline(never)]
fn digits(out: &mut Vec<u8>, mut n: u64) {
    let (mut buf, mut at) = ([0u8; 20], 20);
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    put(out, &buf[at..]);
}

impl From<Scored> for ScoreBreakdown {
    fn from(b: Scored) -> ScoreBreakdown {
        let eligible = b.eligible();
        let weights = Weights(b.weights().iter().map(|(n, w)| (Cow::Borrowed(*n), *w)).collect());
        let [importance, confidence, trust, freshness, relevance, stability, safety] = b.components.map(round6);
        ScoreBreakdown {
            importance_score: importance,
            confidence_score: confidence,
            trust_score: trust,
            freshness_score: freshness,
            relevance_score: relevance,
            stability_score: stability,
            safety_score: safety,
            final_score: b.final_score,
            eligible,
            safety_eligible: b.safety_eligible,
            temporal_eligible: b.temporal_eligible,
            // A non-string purpose (only from JSON input) as its JSON text.
            purpose: match &b.purpose {
                Value::Str(s) => s.to_str_lossy().into_owned(),
                other => crate::json::to_json_string(other),
            },
            scoring_policy_version: SCORING_POLICY_VERSION.to_string(),
            reference_time: b.reference_time,
            scoring_limits: ScoringLimits::CURRENT,
            weights,
            reasons: b.reasons.into_iter().map(Cow::into_owned).collect(),
        }
    }
}

impl From<&Scored> for ScoreBreakdown {
    fn from(b: &Scored) -> ScoreBreakdown {
        ScoreBreakdown::from(b.clone())
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use super::*;
    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Weights {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut map = serializer.serialize_map(Some(self.0.len()))?;
            for (name, w) in self.iter() {
                map.serialize_entry(name, &w)?;
            }
            map.end()
        }
    }

    impl<'de> Deserialize<'de> for Weights {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Weights, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Weights;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("an object of component weights")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Weights, A::Error> {
                    let mut out = Vec::new();
                    while let Some((k, v)) = map.next_entry::<String, f64>()? {
                        out.push((Cow::Owned(k), v));
                    }
                    Ok(Weights(out))
                }
            }
            deserializer.deserialize_map(V)
        }
    }
}
