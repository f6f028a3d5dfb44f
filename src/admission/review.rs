//! Review-queue re-scoring: a held item (`PendingAdmissionOut`, spec `scoring-admission.md` §10.1)
//! scored as held, as the reviewer's approval would store it, and on the
//! trusted-review path (`scoring-admission.md` §9.3), with the write inputs the list route does not
//! return recovered from the item's stored `score_breakdown`.
//!
//! # What the admission score depends on, and what the breakdown pins down
//!
//! Attach (`scoring-admission.md` §9.2) scores with `reference_time = event_time = valid_from`, no
//! query and no verified trust level. The list item carries the content,
//! event time, source and risk tags; it lacks the caller's `importance` and
//! `metadata` (`scoring-admission.md` §11.1). With no query, metadata reaches `score_memory` in
//! exactly two ways:
//!
//! * **public metadata present** (`scoring-admission.md` §3.6): importance heuristic +0.1,
//!   confidence +0.15, stability +0.1. Confidence can never reach the clamp
//!   without it (at most 0.85), so the stored confidence always tells.
//! * **a trust claim** (`scoring-admission.md` §4.3): the trust reason gains
//!   `caller metadata trust claim ignored`; the trust score is unchanged.
//!
//! and the caller's importance enters as `max(heuristic, clamp(importance))`:
//! if the stored `importance_score` is above the (rounded) heuristic, the
//! caller's importance is that value (to the 6 places the breakdown stores);
//! if it equals the heuristic, the caller's importance was at most the
//! heuristic, and its value changes no score (held, approved or trusted:
//! the heuristic depends only on the content and the public-metadata flag).
//!
//! The event time enters only the breakdown's `reference_time` text
//! (freshness is 1.0 at admission, as reference = event): the stored
//! `reference_time` *is* the write's event time, while the list returns the
//! stored column (UTC on Postgres, naive wall-clock on SQLite, `scoring-admission.md` §11.2). The
//! held re-score uses the stored one; approval reads the stored column, so
//! "If approved" and trusted review use the listed one, as the server does.
//!
//! So [`rescore`] tries the (at most four) combinations of the two flags,
//! derives the importance for each, and keeps the one whose held re-score
//! reproduces the stored breakdown; drift is flagged only when none does.
//! Inputs the caller supplies (`importance`, `metadata` on the item) are
//! used as given and not inferred. Without a stored breakdown (or one from
//! another scoring policy), missing inputs take the write defaults
//! (importance 0.5, metadata `{}`).
//!
//! Inferred metadata is represented to the scorer by a stand-in object with
//! exactly the inferred properties (a public key and/or a `trust_level`
//! claim); it never appears in the output, which reports the two flags.

use crate::admission::{self, WriteRequest};
use crate::args::{optional_str, required_str};
use crate::json::{Object, Value};
use crate::py::float::round6;
use crate::py::time::PyDateTime;
use crate::scoring::metadata;
use crate::scoring::{components, Scored, COMPONENTS, SCORING_POLICY_VERSION};
use crate::{Error, Result};

/// Where a re-score input came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputSource {
    /// Given on the item (`importance`, `metadata`).
    Supplied,
    /// Recovered from the stored `score_breakdown`.
    Inferred,
    /// Neither: the write default (importance 0.5, metadata `{}`).
    Default,
}

impl InputSource {
    /// The wire name: `supplied`, `inferred` or `default`.
    pub fn as_str(self) -> &'static str {
        match self {
            InputSource::Supplied => "supplied",
            InputSource::Inferred => "inferred",
            InputSource::Default => "default",
        }
    }
}

/// What is known about the caller's importance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportanceBound {
    /// The caller's importance is `value` (inferred: to the 6 places stored).
    Exact,
    /// The caller's importance was at most `value`, the content's heuristic
    /// importance; any such value gives the same scores.
    AtMost,
}

/// The importance the re-scores use.
#[derive(Clone, Debug)]
pub struct ImportanceInput {
    /// As the scorer sees it (after `clamp`), unrounded.
    pub value: f64,
    /// Where the value came from.
    pub source: InputSource,
    /// Exact, or an upper bound that changes no score.
    pub bound: ImportanceBound,
}

/// A boolean property of the caller metadata.
#[derive(Clone, Copy, Debug)]
pub struct FlagInput {
    /// The property holds.
    pub value: bool,
    /// Where the value came from.
    pub source: InputSource,
}

/// The event time the held re-score uses (`isoformat`, as the breakdown
/// prints it); supplied = the item's `event_time`.
#[derive(Clone, Debug)]
pub struct EventTimeInput {
    /// The `isoformat` text.
    pub value: String,
    /// Where the value came from.
    pub source: InputSource,
}

/// The write inputs the re-scores use, and where each came from.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// The event time of the held re-score.
    pub event_time: EventTimeInput,
    /// The caller's importance as the scorer sees it.
    pub importance: ImportanceInput,
    /// Public metadata present (`scoring-admission.md` §3.6).
    pub public_metadata: FlagInput,
    /// A `trust_level`/`source_trust` claim in the metadata (`scoring-admission.md` §4.3).
    pub trust_claim: FlagInput,
}

impl Inputs {
    /// `{event_time, importance, public_metadata, trust_claim}`, each `{value, source}` (importance adds `bound`).
    pub fn to_json(&self) -> Value {
        let flag = |f: &FlagInput| {
            let mut o = Object::with_capacity(2);
            o.push_unique("value", Value::Bool(f.value));
            o.push_unique("source", Value::str(f.source.as_str()));
            Value::Object(o)
        };
        let mut imp = Object::with_capacity(3);
        imp.push_unique("value", Value::Float(self.importance.value));
        imp.push_unique("source", Value::str(self.importance.source.as_str()));
        imp.push_unique(
            "bound",
            Value::str(match self.importance.bound {
                ImportanceBound::Exact => "exact",
                ImportanceBound::AtMost => "at_most",
            }),
        );
        let mut event = Object::with_capacity(2);
        event.push_unique("value", Value::str(self.event_time.value.as_str()));
        event.push_unique("source", Value::str(self.event_time.source.as_str()));
        let mut o = Object::with_capacity(4);
        o.push_unique("event_time", Value::Object(event));
        o.push_unique("importance", Value::Object(imp));
        o.push_unique("public_metadata", flag(&self.public_metadata));
        o.push_unique("trust_claim", flag(&self.trust_claim));
        Value::Object(o)
    }
}

/// A review-queue item: the list fields the score depends on, plus the
/// optional inputs the list route omits.
#[derive(Clone, Debug)]
pub struct ReviewItem {
    /// The held content.
    pub content: String,
    /// The listed `event_time`.
    pub event_time: PyDateTime,
    /// The write's source, if any.
    pub source: Option<String>,
    /// The risk tags the queue stores.
    pub risk_tags: Vec<String>,
    /// The write's `importance`, when the caller supplies it.
    pub importance: Option<Value>,
    /// The write's `metadata`, when the caller supplies it.
    pub metadata: Option<Object>,
    /// `score_breakdown` when it is an object.
    pub stored: Option<Object>,
}

impl ReviewItem {
    /// Read a `PendingAdmissionOut` (other fields are ignored). Errors name
    /// the field as a JSON pointer.
    pub fn from_json(item: &Value) -> Result<ReviewItem> {
        let obj = item.as_object().ok_or_else(|| Error::wrong_type("", "an object", item.type_name()))?;
        let content = required_str(obj.get("content"), "/content")?;
        let event_text = required_str(obj.get("event_time"), "/event_time")?;
        let event_time = PyDateTime::parse(&event_text).map_err(|e| e.under("/event_time"))?;
        let source = optional_str(obj.get("source"), "/source")?;
        let risk_tags = match obj.get("risk_tags") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| required_str(Some(v), &format!("/risk_tags/{i}")))
                .collect::<Result<_>>()?,
            Some(other) => return Err(Error::wrong_type("/risk_tags", "an array of strings", other.type_name())),
        };
        let metadata = match obj.get("metadata") {
            None | Some(Value::Null) => None,
            Some(Value::Object(o)) => Some(o.clone()),
            Some(other) => return Err(Error::wrong_type("/metadata", "an object or null", other.type_name())),
        };
        let stored = match obj.get("score_breakdown") {
            Some(Value::Object(o)) => Some(o.clone()),
            _ => None,
        };
        Ok(ReviewItem {
            content,
            event_time,
            source,
            risk_tags,
            importance: obj.get("importance").cloned(),
            metadata,
            stored,
        })
    }
}

/// One re-scored item.
#[derive(Clone, Debug)]
pub struct Rescore {
    /// As held: safety `review_needed` (what the queue stores).
    pub held: Scored,
    /// As the reviewer's approval stores it: safety `approved`, the item's tags.
    pub approved: Scored,
    /// The trusted-review path: safety `approved`, tags re-detected.
    pub trusted_review: Scored,
    /// The tags re-detected from the content (trusted review).
    pub trusted_review_risk_tags: Vec<String>,
    /// The write inputs used, and where each came from.
    pub inputs: Inputs,
    /// Null when there is no stored breakdown.
    pub drift: Option<Value>,
}

impl Rescore {
    /// `{held, approved, trusted_review, trusted_review_risk_tags, inputs, drift}`.
    pub fn to_json(&self) -> Value {
        let mut out = Object::with_capacity(6);
        out.push_unique("held", self.held.to_json());
        out.push_unique("approved", self.approved.to_json());
        out.push_unique("trusted_review", self.trusted_review.to_json());
        out.push_unique("trusted_review_risk_tags", strings(&self.trusted_review_risk_tags));
        out.push_unique("inputs", self.inputs.to_json());
        out.push_unique("drift", self.drift.clone().unwrap_or(Value::Null));
        Value::Object(out)
    }
}

/// The importance and metadata one candidate scores with.
struct Candidate {
    importance: ImportanceInput,
    public_metadata: FlagInput,
    trust_claim: FlagInput,
    /// The supplied metadata, or a stand-in with the inferred properties.
    metadata: Object,
    /// The importance argument (the supplied JSON value, or the inferred one).
    importance_arg: Value,
    /// The held breakdown, when inference already computed it.
    held: Option<Scored>,
}

/// Re-score a review item (see the module docs).
pub fn rescore(item: &ReviewItem) -> Rescore {
    let comparable = item
        .stored
        .as_ref()
        .is_some_and(|s| s.get("scoring_policy_version").and_then(Value::as_str) == Some(SCORING_POLICY_VERSION));
    // The write's event time, as the stored reference_time prints it.
    let listed = EventTimeInput { value: item.event_time.isoformat_utc_if_naive(), source: InputSource::Supplied };
    let (held_event, event_input) =
        match item.stored.as_ref().and_then(|s| s.get("reference_time")).and_then(Value::as_str) {
            Some(text) if comparable && text != listed.value => match PyDateTime::parse(text) {
                Ok(t) if t.isoformat_utc_if_naive() == text => {
                    (t, EventTimeInput { value: text.to_string(), source: InputSource::Inferred })
                }
                _ => (item.event_time, listed),
            },
            _ => (item.event_time, listed),
        };
    let candidate = if comparable { infer(item, held_event) } else { None }.unwrap_or_else(|| defaults(item));
    let inputs = Inputs {
        event_time: event_input,
        importance: candidate.importance,
        public_metadata: candidate.public_metadata,
        trust_claim: candidate.trust_claim,
    };

    let mut req = WriteRequest {
        content: item.content.clone(),
        event_time: held_event,
        source: item.source.clone(),
        metadata: candidate.metadata,
        importance: candidate.importance_arg,
    };
    let held = candidate.held.unwrap_or_else(|| held_of(&req, &item.risk_tags));
    req.event_time = item.event_time;
    let (_, approved) = admission::attach(&req, "admit", &item.risk_tags, Some("approved"), Some("approved"));
    let fresh: Vec<String> = admission::detect_risk_tags(&item.content).into_iter().map(String::from).collect();
    let (_, trusted_review) = admission::attach(&req, "admit", &fresh, Some("approved"), Some("approved"));
    let drift = item.stored.as_ref().map(|stored| drift(stored, &held.to_json()));
    Rescore { held, approved, trusted_review, trusted_review_risk_tags: fresh, inputs, drift }
}

fn held_of(req: &WriteRequest, tags: &[String]) -> Scored {
    admission::attach(req, "review", tags, None, None).1
}

/// The supplied inputs, and the write defaults for the rest.
fn defaults(item: &ReviewItem) -> Candidate {
    let (public, claim, metadata_source) = match &item.metadata {
        Some(m) => (metadata::public_metadata_present(m), components::trust_claim_present(m), InputSource::Supplied),
        None => (false, false, InputSource::Default),
    };
    let (importance, source) = match &item.importance {
        Some(v) => (v.clone(), InputSource::Supplied),
        None => (Value::Float(0.5), InputSource::Default),
    };
    Candidate {
        importance: ImportanceInput { value: importance.clamp01(), source, bound: ImportanceBound::Exact },
        public_metadata: FlagInput { value: public, source: metadata_source },
        trust_claim: FlagInput { value: claim, source: metadata_source },
        metadata: item.metadata.clone().unwrap_or_default(),
        importance_arg: importance,
        held: None,
    }
}

/// A stand-in caller metadata with exactly these properties.
fn stand_in(public: bool, claim: bool) -> Object {
    let mut m = Object::new();
    if claim {
        m.push_unique("trust_level", Value::str("claimed"));
    }
    if public {
        m.push_unique("public", Value::Null);
    }
    m
}

/// The candidate whose held re-score reproduces `stored` (by key, numbers
/// to 6 places, a same-instant `reference_time` in another offset allowed),
/// or `None` when no combination of the missing inputs does.
fn infer(item: &ReviewItem, event_time: PyDateTime) -> Option<Candidate> {
    let stored = item.stored.as_ref()?;
    if item.importance.is_some() && item.metadata.is_some() {
        return None; // nothing to infer
    }
    let flags: Vec<(bool, bool)> = match &item.metadata {
        Some(m) => vec![(metadata::public_metadata_present(m), components::trust_claim_present(m))],
        None => {
            // The stored trust reason says whether there was a claim; try that first.
            let hinted = stored
                .get("reasons")
                .and_then(Value::as_array)
                .and_then(|r| r.get(2))
                .and_then(Value::as_str)
                .is_some_and(|r| r.starts_with("caller metadata trust claim ignored"));
            vec![(false, hinted), (true, hinted), (false, !hinted), (true, !hinted)]
        }
    };
    let stored_importance = num(stored.get("importance_score"));
    for (public, claim) in flags {
        let (metadata, metadata_source) = match &item.metadata {
            Some(m) => (m.clone(), InputSource::Supplied),
            None => (stand_in(public, claim), InputSource::Inferred),
        };
        let mut req = WriteRequest {
            content: item.content.clone(),
            event_time,
            source: item.source.clone(),
            metadata,
            importance: Value::Float(0.0),
        };
        let importance = match &item.importance {
            Some(v) => {
                ImportanceInput { value: v.clamp01(), source: InputSource::Supplied, bound: ImportanceBound::Exact }
            }
            None => {
                // Importance 0 scores the heuristic alone: max(heuristic, 0.0).
                let heuristic = held_of(&req, &item.risk_tags).components[0];
                let stored_importance = stored_importance?;
                if stored_importance == round6(heuristic) {
                    ImportanceInput { value: heuristic, source: InputSource::Inferred, bound: ImportanceBound::AtMost }
                } else if stored_importance > round6(heuristic) && stored_importance <= 1.0 {
                    ImportanceInput {
                        value: stored_importance,
                        source: InputSource::Inferred,
                        bound: ImportanceBound::Exact,
                    }
                } else {
                    continue; // below the heuristic: not this metadata
                }
            }
        };
        req.importance = match &item.importance {
            Some(v) => v.clone(),
            None => Value::Float(importance.value),
        };
        let held = held_of(&req, &item.risk_tags);
        if differing_fields(stored, &held.to_json()).is_empty() {
            let flag = |value| FlagInput { value, source: metadata_source };
            return Some(Candidate {
                importance,
                public_metadata: flag(public),
                trust_claim: flag(claim),
                metadata: req.metadata,
                importance_arg: req.importance,
                held: Some(held),
            });
        }
    }
    None
}

/// The breakdown keys compared for drift.
const COMPARED: [&str; 10] = [
    "final_score",
    "eligible",
    "safety_eligible",
    "temporal_eligible",
    "purpose",
    "weights",
    "scoring_limits",
    "reasons",
    "reference_time",
    "scoring_policy_version",
];

/// The keys whose stored and re-scored values differ.
fn differing_fields(stored: &Object, rescored: &Value) -> Vec<&'static str> {
    COMPONENTS
        .iter()
        .copied()
        .chain(COMPARED)
        .filter(|key| match (rescored.get(key), stored.get(key)) {
            (Some(a), Some(b)) => !same_value(a, b),
            (None, None) => false,
            _ => true,
        })
        .collect()
}

/// Compare a stored breakdown with the held re-score, by key (Postgres
/// JSONB reorders keys), numbers after rounding to 6 places, and explain the
/// differences where a known cause accounts for them:
///
/// * `policy-version`: scores from another policy are not comparable, so
///   every difference counts as explained by it.
///
/// Anything left is listed in `unexplained_fields` with an `unexplained`
/// cause: no importance and metadata reproduce the stored breakdown.
fn drift(stored: &Object, rescored: &Value) -> Value {
    let fields = differing_fields(stored, rescored);
    let mut unexplained: Vec<&str> = fields.clone();
    let mut causes: Vec<Value> = Vec::new();
    let mut cause = |code: &str, text: String| {
        let mut c = Object::new();
        c.push_unique("code", Value::str(code));
        c.push_unique("text", Value::str(text));
        causes.push(Value::Object(c));
    };
    if fields.contains(&"scoring_policy_version") {
        let stored_version =
            stored.get("scoring_policy_version").map(crate::json::to_json_string).unwrap_or_else(|| "null".into());
        cause(
            "policy-version",
            format!("stored with scoring policy {stored_version}; the client implements \"{SCORING_POLICY_VERSION}\". Scores from another policy version are not comparable."),
        );
        unexplained.clear();
    }
    if !unexplained.is_empty() {
        cause(
            "unexplained",
            format!(
                "no importance and caller metadata reproduce the stored breakdown (differing: {}).",
                unexplained.join(", ")
            ),
        );
    }
    let mut o = Object::new();
    o.push_unique("drifted", Value::Bool(!fields.is_empty()));
    o.push_unique("fields", strings(&fields));
    o.push_unique("explained", Value::Bool(unexplained.is_empty()));
    o.push_unique("unexplained_fields", strings(&unexplained));
    o.push_unique("causes", Value::Array(causes));
    Value::Object(o)
}

fn num(v: Option<&Value>) -> Option<f64> {
    match v {
        Some(Value::Float(f)) => Some(*f),
        Some(Value::Int(d)) => crate::py::float::parse_f64(d),
        _ => None,
    }
}

fn same_value(a: &Value, b: &Value) -> bool {
    match (num(Some(a)), num(Some(b))) {
        (Some(x), Some(y)) => round6(x) == round6(y),
        _ => match (a, b) {
            (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q)),
            // By key: JSONB storage reorders object keys.
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.iter().any(|(k2, v2)| k2 == k && same_value(v, v2)))
            }
            _ => a == b,
        },
    }
}

fn strings<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> Value {
    Value::Array(items.into_iter().map(|s| Value::str(s.as_ref())).collect())
}
