//! [`ScoreInput`]: `score_memory`'s keyword arguments (spec `scoring-admission.md` §2), typed.

use crate::json::{Object, Value};
use crate::py::time::PyDateTime;
use crate::{Error, ErrorCode, Result};

/// `score_memory`'s keyword arguments (spec `scoring-admission.md` §2), validated: what a Rust
/// caller builds with [`ScoreInput::new`] and the builder methods, and what
/// the JSON façade reads with [`ScoreInput::from_json`].
///
/// Field names are the reference's (and the Lians wire's) argument names.
/// Values that the reference passes through Python's `float()`/`clamp()`
/// (`importance`, `base_relevance`) or `str()` (`verified_trust_level`) are
/// kept as JSON [`Value`]s, so a string `"0.9"` or an `int` behaves exactly
/// as it does in Python.
///
/// ```
/// use lians_score::{score_memory, PyDateTime, ScoreInput};
/// let now = PyDateTime::parse("2026-08-01T00:00:00+00:00").unwrap();
/// let input = ScoreInput::new("NVDA guidance is $36B", now)
///     .query("NVDA guidance")
///     .source("user_provided")
///     .event_time(now);
/// assert_eq!(score_memory(&input).final_score, 0.8475);
/// ```
///
/// With the `serde` feature, `ScoreInput` (de)serializes as the JSON object
/// the façade takes (the same validation and defaults as [`ScoreInput::from_json`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "Value", into = "Value"))]
pub struct ScoreInput {
    /// The memory text (required).
    pub content: String,
    /// "Now" for freshness and validity (required).
    pub reference_time: PyDateTime,
    /// Caller metadata (public keys feed importance, confidence, stability and relevance).
    pub metadata: Object,
    /// Supplied importance, any JSON value (`clamp` decides); default 0.5.
    pub importance: Value,
    /// The claimed source / trust level (`user_provided`, `chat`, ...).
    pub source: Option<String>,
    /// When the remembered event happened.
    pub event_time: Option<PyDateTime>,
    /// Start of validity.
    pub valid_from: Option<PyDateTime>,
    /// End of validity.
    pub valid_to: Option<PyDateTime>,
    /// Superseded by a newer memory (ineligible).
    pub superseded: bool,
    /// The recall query text.
    pub query: Option<String>,
    /// `None` when absent or null; any other JSON value goes through `clamp`.
    pub base_relevance: Option<Value>,
    /// `safe` (default), `review_needed`, `approved`, `rejected`, ...
    pub safety_status: String,
    /// Admission risk tags (`pii:email`, `injection`, ...).
    pub risk_tags: Vec<String>,
    /// A server-verified trust level, which overrides `source`.
    pub verified_trust_level: Option<Value>,
    /// Pre-tokenized query (used instead of tokenizing `query`).
    pub query_tokens: Option<Vec<String>>,
    /// `recall` (default) or `admission`: selects the weight table (any other
    /// value, `null` included, weighs as recall); echoed verbatim, any JSON value.
    pub purpose: Value,
}

impl ScoreInput {
    /// A minimal input: content and reference time, every other argument at
    /// its default (`importance` 0.5, `safety_status` `safe`, `purpose` `recall`).
    pub fn new(content: impl Into<String>, reference_time: PyDateTime) -> ScoreInput {
        ScoreInput {
            content: content.into(),
            reference_time,
            metadata: Object::new(),
            importance: Value::Float(0.5),
            source: None,
            event_time: None,
            valid_from: None,
            valid_to: None,
            superseded: false,
            query: None,
            base_relevance: None,
            safety_status: String::from("safe"),
            risk_tags: Vec::new(),
            verified_trust_level: None,
            query_tokens: None,
            purpose: Value::str("recall"),
        }
    }

    /// Set `query`.
    pub fn query(mut self, query: impl Into<String>) -> ScoreInput {
        self.query = Some(query.into());
        self
    }

    /// Set `query_tokens` (pre-tokenized query).
    pub fn query_tokens<S: Into<String>>(mut self, tokens: impl IntoIterator<Item = S>) -> ScoreInput {
        self.query_tokens = Some(tokens.into_iter().map(Into::into).collect());
        self
    }

    /// Set `metadata`.
    pub fn metadata(mut self, metadata: Object) -> ScoreInput {
        self.metadata = metadata;
        self
    }

    /// Set `importance` to a float.
    pub fn importance(mut self, importance: f64) -> ScoreInput {
        self.importance = Value::Float(importance);
        self
    }

    /// Set `importance` to any JSON value (as Python's `clamp(float(v))` reads it).
    pub fn importance_value(mut self, importance: Value) -> ScoreInput {
        self.importance = importance;
        self
    }

    /// Set `source`.
    pub fn source(mut self, source: impl Into<String>) -> ScoreInput {
        self.source = Some(source.into());
        self
    }

    /// Set `event_time`.
    pub fn event_time(mut self, t: PyDateTime) -> ScoreInput {
        self.event_time = Some(t);
        self
    }

    /// Set `valid_from`.
    pub fn valid_from(mut self, t: PyDateTime) -> ScoreInput {
        self.valid_from = Some(t);
        self
    }

    /// Set `valid_to`.
    pub fn valid_to(mut self, t: PyDateTime) -> ScoreInput {
        self.valid_to = Some(t);
        self
    }

    /// Set `superseded`.
    pub fn superseded(mut self, superseded: bool) -> ScoreInput {
        self.superseded = superseded;
        self
    }

    /// Set `base_relevance` (blended 0.7/0.3 with lexical relevance).
    pub fn base_relevance(mut self, base_relevance: f64) -> ScoreInput {
        self.base_relevance = Some(Value::Float(base_relevance));
        self
    }

    /// Set `safety_status`.
    pub fn safety_status(mut self, status: impl Into<String>) -> ScoreInput {
        self.safety_status = status.into();
        self
    }

    /// Set `risk_tags`.
    pub fn risk_tags<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> ScoreInput {
        self.risk_tags = tags.into_iter().map(Into::into).collect();
        self
    }

    /// Set `verified_trust_level` (a server-verified level overrides `source`).
    pub fn verified_trust_level(mut self, level: impl Into<String>) -> ScoreInput {
        self.verified_trust_level = Some(Value::str(level.into()));
        self
    }

    /// Set `purpose` (`recall` or `admission`).
    pub fn purpose(mut self, purpose: impl Into<String>) -> ScoreInput {
        self.purpose = Value::str(purpose.into());
        self
    }

    /// The keyword arguments as a JSON object (what [`ScoreInput::from_json`]
    /// reads back to an equal input): `content`, `reference_time`, then every
    /// argument that differs from `None`, datetimes as Python `isoformat()`.
    pub fn to_json(&self) -> Value {
        let mut o = Object::with_capacity(16);
        let time = |t: &PyDateTime| Value::str(t.isoformat());
        let opt_str = |s: &Option<String>| s.as_deref().map(Value::str);
        let strs = |v: &[String]| Value::Array(v.iter().map(|s| Value::str(s.as_str())).collect());
        o.push_unique("content", Value::str(self.content.as_str()));
        o.push_unique("reference_time", time(&self.reference_time));
        o.push_unique("metadata", Value::Object(self.metadata.clone()));
        o.push_unique("importance", self.importance.clone());
        let optional = [
            ("source", opt_str(&self.source)),
            ("event_time", self.event_time.as_ref().map(time)),
            ("valid_from", self.valid_from.as_ref().map(time)),
            ("valid_to", self.valid_to.as_ref().map(time)),
        ];
        for (key, value) in optional {
            if let Some(v) = value {
                o.push_unique(key, v);
            }
        }
        o.push_unique("superseded", Value::Bool(self.superseded));
        let optional = [("query", opt_str(&self.query)), ("base_relevance", self.base_relevance.clone())];
        for (key, value) in optional {
            if let Some(v) = value {
                o.push_unique(key, v);
            }
        }
        o.push_unique("safety_status", Value::str(self.safety_status.as_str()));
        o.push_unique("risk_tags", strs(&self.risk_tags));
        if let Some(v) = &self.verified_trust_level {
            o.push_unique("verified_trust_level", v.clone());
        }
        if let Some(tokens) = &self.query_tokens {
            o.push_unique("query_tokens", strs(tokens));
        }
        o.push_unique("purpose", self.purpose.clone());
        Value::Object(o)
    }

    /// Read the keyword arguments from a JSON object. A missing key takes the
    /// reference's default; `null` means Python `None` where the reference
    /// accepts it (and the default for `safety_status`, `purpose` and
    /// `superseded`, which cannot be `None` in the reference). Errors name the
    /// field as a JSON pointer.
    pub fn from_json(input: &Value) -> Result<ScoreInput> {
        let obj = input.as_object().ok_or_else(|| Error::wrong_type("", "an object", input.type_name()))?;
        let content = match obj.get("content") {
            Some(Value::Str(s)) => s.to_str_lossy().into_owned(),
            Some(other) => return Err(Error::wrong_type("/content", "a string", other.type_name())),
            None => return Err(Error::new(ErrorCode::MissingField, "/content", "`content` is required")),
        };
        let reference_time = match obj.get("reference_time") {
            None | Some(Value::Null) => {
                return Err(Error::new(ErrorCode::MissingField, "/reference_time", "`reference_time` is required"))
            }
            Some(v) => datetime(v, "/reference_time")?,
        };
        let mut s = ScoreInput::new(content, reference_time);
        for (key, value) in obj.iter() {
            let Some(key) = key.as_str() else { continue };
            s.set(key, value)?;
        }
        s.check_reference_raises()?;
        Ok(s)
    }

    /// Apply one keyword argument other than `content` and `reference_time`
    /// (which [`ScoreInput::from_json`] reads first and this skips), exactly
    /// as [`ScoreInput::from_json`] does: the batch reader
    /// ([`crate::scoring::batch`]) shares it.
    pub fn set(&mut self, key: &str, value: &Value) -> Result<()> {
        self.set_arg(arg(key), key, value)
    }

    /// [`ScoreInput::set_arg`] for a string value `text` (valid UTF-8) read in
    /// place, for the arguments that keep or parse a string (the batch reader
    /// then makes no owned [`Value`] first); `None` for any other argument.
    pub(crate) fn set_text(&mut self, arg: Arg, text: &str) -> Option<Result<()>> {
        let at = |t: Result<PyDateTime>| t.map(Some).map_err(|e| e.under(ARGS[arg as usize].2));
        match arg {
            Arg::Query => self.query = Some(text.to_string()),
            Arg::Source => self.source = Some(text.to_string()),
            Arg::SafetyStatus => self.safety_status = text.to_string(),
            // The same text keeps the value (no allocation per candidate).
            Arg::Purpose if self.purpose.as_str() == Some(text) => {}
            Arg::Purpose => self.purpose = Value::str(text),
            Arg::EventTime => match at(PyDateTime::parse(text)) {
                Ok(t) => self.event_time = t,
                Err(e) => return Some(Err(e)),
            },
            _ => return None,
        }
        Some(Ok(()))
    }

    /// [`ScoreInput::set`] with the key already looked up by [`arg`] (the
    /// batch reader dispatches on it once per member).
    pub(crate) fn set_arg(&mut self, arg: Option<Arg>, key: &str, value: &Value) -> Result<()> {
        let s = self;
        let path = match arg {
            Some(a) => std::borrow::Cow::Borrowed(ARGS[a as usize].2),
            // An unknown key: its pointer is built only for the error.
            None => std::borrow::Cow::Owned(crate::json::pointer::join("", key)),
        };
        let path = path.as_ref();
        match arg {
            Some(Arg::Content | Arg::ReferenceTime) => {}
            Some(Arg::Metadata) => {
                s.metadata = match value {
                    Value::Null => Object::new(),
                    Value::Object(o) => o.clone(),
                    other => return Err(Error::wrong_type(path, "an object or null", other.type_name())),
                }
            }
            Some(Arg::Importance) => s.importance = value.clone(),
            Some(Arg::Source) => s.source = source_arg(value),
            Some(Arg::EventTime) => s.event_time = opt_datetime(value, path)?,
            Some(Arg::ValidFrom) => s.valid_from = opt_datetime(value, path)?,
            Some(Arg::ValidTo) => s.valid_to = opt_datetime(value, path)?,
            Some(Arg::Superseded) => s.superseded = value.truthy(),
            Some(Arg::Query) => s.query = query_arg(value),
            Some(Arg::BaseRelevance) => s.base_relevance = (!value.is_null()).then(|| value.clone()),
            // The reference calls `status.strip()`: `None` raises (AttributeError), as any non-string does.
            Some(Arg::SafetyStatus) => match value {
                Value::Str(v) => s.safety_status = v.to_str_lossy().into_owned(),
                Value::Null => {
                    return Err(Error::wrong_type(path, "a string (the reference calls safety_status.strip())", "null"))
                }
                other => return Err(Error::wrong_type(path, "a string", other.type_name())),
            },
            Some(Arg::RiskTags) => s.risk_tags = risk_tags_arg(value, path)?,
            Some(Arg::VerifiedTrustLevel) => s.verified_trust_level = (!value.is_null()).then(|| value.clone()),
            Some(Arg::QueryTokens) => s.query_tokens = opt_strings(value, path)?,
            // The reference echoes `purpose` as given (`None` too) and compares it with "admission".
            Some(Arg::Purpose) => s.purpose = value.clone(),
            None => {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    path,
                    format!("unknown argument `{key}` (score_memory takes the reference's keyword arguments)"),
                ))
            }
        }
        Ok(())
    }
}

/// The decimal digits of the smallest integer `float()` refuses: 2^1024 − 2^970,
/// halfway between the largest double and 2^1024 (a tie, rounded to even: up).
const FLOAT_OVERFLOW_INT: &str = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";

/// Does Python's `float(v)` raise `OverflowError` (an `int` too large for a double)?
fn float_overflows(v: &Value) -> bool {
    match v {
        Value::Int(digits) => {
            let d = digits.trim_start_matches('-');
            d.len() > FLOAT_OVERFLOW_INT.len() || (d.len() == FLOAT_OVERFLOW_INT.len() && d >= FLOAT_OVERFLOW_INT)
        }
        _ => false,
    }
}

impl ScoreInput {
    /// Where the reference raises on these arguments once they are read:
    /// `clamp(importance)` (always) and `clamp(base_relevance)` (when the query
    /// is truthy) call `float()`, which raises `OverflowError` for an `int`
    /// beyond the double range (`clamp` catches only `TypeError`/`ValueError`).
    /// A typed `out_of_range` error naming that cause.
    pub fn check_reference_raises(&self) -> Result<()> {
        let overflow = |path: &str| {
            Error::new(
                ErrorCode::OutOfRange,
                path,
                format!(
                    "`{}` is an integer too large to convert to float (the reference raises OverflowError)",
                    &path[1..]
                ),
            )
        };
        if float_overflows(&self.importance) {
            return Err(overflow("/importance"));
        }
        let query_truthy = self.query.as_deref().is_some_and(|q| !q.is_empty());
        if query_truthy && self.base_relevance.as_ref().is_some_and(float_overflows) {
            return Err(overflow("/base_relevance"));
        }
        Ok(())
    }
}

/// `score_memory`'s keyword arguments, in [`ARGS`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arg {
    Content,
    ReferenceTime,
    Metadata,
    Importance,
    Source,
    EventTime,
    ValidFrom,
    ValidTo,
    Superseded,
    Query,
    BaseRelevance,
    SafetyStatus,
    RiskTags,
    VerifiedTrustLevel,
    QueryTokens,
    Purpose,
}

/// Each keyword argument, its name and its JSON pointer, in [`Arg`] order.
const ARGS: [(Arg, &str, &str); 16] = [
    (Arg::Content, "content", "/content"),
    (Arg::ReferenceTime, "reference_time", "/reference_time"),
    (Arg::Metadata, "metadata", "/metadata"),
    (Arg::Importance, "importance", "/importance"),
    (Arg::Source, "source", "/source"),
    (Arg::EventTime, "event_time", "/event_time"),
    (Arg::ValidFrom, "valid_from", "/valid_from"),
    (Arg::ValidTo, "valid_to", "/valid_to"),
    (Arg::Superseded, "superseded", "/superseded"),
    (Arg::Query, "query", "/query"),
    (Arg::BaseRelevance, "base_relevance", "/base_relevance"),
    (Arg::SafetyStatus, "safety_status", "/safety_status"),
    (Arg::RiskTags, "risk_tags", "/risk_tags"),
    (Arg::VerifiedTrustLevel, "verified_trust_level", "/verified_trust_level"),
    (Arg::QueryTokens, "query_tokens", "/query_tokens"),
    (Arg::Purpose, "purpose", "/purpose"),
];

/// The keyword argument named `key`, if any. Names are compared only when
/// their length and first byte match the key's, which no two names share: a
/// key is compared with at most one name (a `match` on the strings compared
/// it with each name in turn, ~60 string compares per candidate in the wasm build).
pub(crate) fn arg(key: &str) -> Option<Arg> {
    let k = key.as_bytes();
    let first = *k.first()?;
    // The one name of this length and first byte (no two share both),
    // compared a word at a time (wasm's `memcmp` compares byte by byte,
    // behind a call).
    ARGS.iter()
        .find(|(_, name, _)| name.len() == k.len() && name.as_bytes()[0] == first)
        .filter(|(_, name, _)| same_bytes(name.as_bytes(), k))
        .map(|&(arg, _, _)| arg)
}

/// `a == b` for two slices of the same length of at least 4 bytes (any
/// other pair: `==`), by overlapping 8- or 4-byte words.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() || n < 4 {
        return a == b;
    }
    let w4 = |s: &[u8], i: usize| s.get(i..i + 4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    if n < 8 {
        return w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4);
    }
    let w8 = |s: &[u8], i: usize| s.get(i..i + 8).map(|w| u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
    let mut i = 0;
    while i + 8 < n {
        if w8(a, i) != w8(b, i) {
            return false;
        }
        i += 8;
    }
    w8(a, n - 8) == w8(b, n - 8)
}

pub(crate) fn datetime(v: &Value, path: &str) -> Result<PyDateTime> {
    match v {
        Value::Str(s) => PyDateTime::parse_py(s).map_err(|e| e.under(path)),
        other => Err(Error::wrong_type(path, "an ISO-8601 datetime string", other.type_name())),
    }
}

fn opt_datetime(v: &Value, path: &str) -> Result<Option<PyDateTime>> {
    if v.is_null() {
        Ok(None)
    } else {
        datetime(v, path).map(Some)
    }
}

/// `source` as the reference uses any value: `if source` (confidence) and
/// `str(source or "unknown").strip().lower()` (trust). A falsy value is no
/// source; the `str()` of any other non-string (`5`, `True`, `[1]`, `{...}`)
/// is never a trust level, so it reads exactly as the source `unknown`.
fn source_arg(v: &Value) -> Option<String> {
    match v {
        Value::Str(s) => Some(s.to_str_lossy().into_owned()),
        other if other.truthy() => Some(String::from("unknown")),
        _ => None,
    }
}

/// `query` as the reference uses any value: `if query` (relevance and the
/// metadata text) and `tokenize_for_scoring(query)`, which reads a
/// non-string as its `str()` (`True`, `5`, `1.5`) or type name (`list`,
/// `dict`): that text, which tokenizes the same. A falsy value is no query.
fn query_arg(v: &Value) -> Option<String> {
    match v {
        Value::Str(s) => Some(s.to_str_lossy().into_owned()),
        other if !other.truthy() => None,
        Value::Bool(b) => Some(String::from(if *b { "True" } else { "False" })),
        Value::Int(digits) => Some(digits.to_string()),
        Value::Float(f) => Some(crate::py::float::repr(*f)),
        Value::Array(_) => Some(String::from("list")),
        _ => Some(String::from("dict")),
    }
}

/// `risk_tags` as the reference uses any value: `list(risk_tags or [])`,
/// then `tag in {"injection", "source:blocked"}` for each tag until one is.
/// A falsy value is no tags; a string is its characters; an object its keys;
/// an array its items, where a non-string scalar never matches (skipped) and
/// an array or object item is unhashable: the reference raises `TypeError`
/// when it reaches one (here: unless an earlier tag already gates safety;
/// the reference would also score it when the status alone is unsafe). Any
/// other truthy value (a number, `true`) is not iterable: `TypeError`.
fn risk_tags_arg(v: &Value, path: &str) -> Result<Vec<String>> {
    let gating = |t: &str| super::components::UNSAFE_TAGS.contains(&t);
    match v {
        other if !other.truthy() => Ok(Vec::new()),
        Value::Str(s) => Ok(s.to_str_lossy().chars().map(String::from).collect()),
        Value::Object(o) => Ok(o.iter().map(|(k, _)| k.to_str_lossy().into_owned()).collect()),
        Value::Array(items) => {
            let mut tags = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item {
                    Value::Str(s) => tags.push(s.to_str_lossy().into_owned()),
                    Value::Array(_) | Value::Object(_) => {
                        if tags.iter().any(|t| gating(t)) {
                            break;
                        }
                        return Err(Error::wrong_type(
                            format!("{path}/{i}"),
                            "a string, number, boolean or null (the reference raises TypeError: unhashable)",
                            item.type_name(),
                        ));
                    }
                    _ => {}
                }
            }
            Ok(tags)
        }
        other => Err(Error::wrong_type(
            path,
            "an array, string, object or a falsy value (the reference calls list(risk_tags))",
            other.type_name(),
        )),
    }
}

fn opt_strings(v: &Value, path: &str) -> Result<Option<Vec<String>>> {
    match v {
        Value::Null => Ok(None),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::Str(s) => Ok(s.to_str_lossy().into_owned()),
                other => Err(Error::wrong_type(format!("{path}/{i}"), "a string", other.type_name())),
            })
            .collect::<Result<Vec<_>>>()
            .map(Some),
        other => Err(Error::wrong_type(path, "an array of strings or null", other.type_name())),
    }
}

impl TryFrom<Value> for ScoreInput {
    type Error = Error;
    fn try_from(value: Value) -> Result<ScoreInput> {
        ScoreInput::from_json(&value)
    }
}

impl From<ScoreInput> for Value {
    fn from(input: ScoreInput) -> Value {
        input.to_json()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `arg` is the plain lookup of its definition (a key equal to one of
    /// the names): every name, every name with any one byte changed (at
    /// every position, to bytes that differ in one bit or are other names'
    /// bytes), cut or extended by one byte, and `same_bytes` against `==`.
    #[test]
    fn arg_is_the_name_lookup() {
        let plain = |k: &[u8]| ARGS.iter().find(|(_, name, _)| name.as_bytes() == k).map(|&(a, _, _)| a);
        let mut keys: Vec<Vec<u8>> = vec![Vec::new(), b"q".to_vec(), b"quer".to_vec()];
        for (_, name, _) in ARGS {
            let n = name.as_bytes();
            keys.push(n.to_vec());
            keys.push(n[..n.len() - 1].to_vec());
            keys.push([n, b"s"].concat());
            for i in 0..n.len() {
                for bit in 0..8 {
                    let mut k = n.to_vec();
                    k[i] ^= 1 << bit;
                    keys.push(k);
                }
                for (_, other, _) in ARGS {
                    if let Some(&c) = other.as_bytes().get(i) {
                        let mut k = n.to_vec();
                        k[i] = c;
                        keys.push(k);
                    }
                }
            }
        }
        for k in &keys {
            if let Ok(s) = std::str::from_utf8(k) {
                assert_eq!(arg(s), plain(k), "{s:?}");
            }
            for (_, name, _) in ARGS {
                assert_eq!(same_bytes(name.as_bytes(), k), name.as_bytes() == &k[..], "{k:?}");
            }
        }
        for (a, name, _) in ARGS {
            assert_eq!(arg(name), Some(a));
        }
    }
}
