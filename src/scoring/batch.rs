//! Batch scoring: many `score_memory` candidates that share some inputs.
//!
//! `shared` holds keyword arguments common to every candidate (typically
//! `query`, `reference_time`, `purpose`); each candidate holds its own
//! (`content`, `event_time`, `source`, `metadata`, ...). A candidate is
//! scored exactly as `score_memory` scores the object made of `shared`'s
//! members followed by the candidate's, a candidate's member replacing a
//! shared one of the same name (so `"purpose": null` in a candidate means
//! the default `"recall"`, as in a single call). Every result is
//! byte-identical to [`crate::api::score_memory`] on that merged object.
//!
//! What the batch saves over one call per candidate:
//!
//! * `shared` is read and validated once; the query is sampled, casefolded,
//!   tokenized, sorted and deduplicated once per distinct query (candidates
//!   may still carry their own `query`: each distinct one is tokenized once);
//! * a JSON Lines record is parsed into a borrowed [`json::Doc`] (one,
//!   reused): its content is scored straight from the text, never copied;
//!   only its other (small) members become owned values. Candidates given as
//!   values are read in place. One scoring path serves both
//!   (`Scorer::score_object`). The casefold buffer is reused; the middle of
//!   a long content (beyond the 8,192-char head/tail sample) is never
//!   scanned after parsing;
//! * the result can be compact ([`Batch::write_compact`]: columns of rounded
//!   values) instead of 1,600 seventeen-key objects.
//!
//! The input caps are the caller's ([`InputCaps`]): the JSON façade's
//! [`crate::api::score_candidates`], [`crate::api::score_candidates_text`]
//! and [`crate::api::score_candidates_read`] pass the documented ones of
//! [`crate::api::limits`]; the batch applies them where it reads each record.
//!
//! Errors: a `shared` that is invalid fails the whole call (path under
//! `/shared`); a candidate that is not JSON, breaks an input cap or has an
//! invalid argument gets an error row (the same typed error a single
//! `score_memory` call returns; for a candidate with several invalid
//! members, the first in the candidate's order is named) and the others are
//! still scored.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::json::{self, Object, Value};
use crate::py::float::{round6, write_repr};
use crate::py::time::PyDateTime;
use crate::scoring::metadata::Meta;
use crate::scoring::{self, components, Arg, ScoreInput, Scored, Scratch, COMPONENTS};
use crate::{Error, ErrorCode, Result};

/// One result per candidate, in input order.
pub struct Batch {
    /// Each candidate's scored result, or the typed error of its row.
    pub results: Vec<Result<Scored>>,
}

/// The input caps the batch applies as it reads, given by the caller (the
/// JSON façade, [`crate::api::score_candidates`] and its siblings, owns the
/// policy and its values). The batch applies them itself because it reads
/// the records: a candidate over a cap is that candidate's error row, not a
/// failed call, and a JSON Lines record is checked as it is parsed.
#[derive(Clone, Copy)]
pub struct InputCaps {
    /// The caps of one input object (`shared`, or a candidate).
    pub value: fn(&Value) -> Result<()>,
    /// The cap of the candidates text (`text`, `what`).
    pub text: fn(&str, &str) -> Result<()>,
    /// A record of at most this many bytes of text cannot break `value`, so
    /// it is not walked.
    pub within_text_bytes: usize,
    /// The most candidates one call takes (an array; JSON Lines is bounded by `text`).
    pub max_items: usize,
}

/// The shared inputs, read once.
struct Shared {
    /// Defaults for every keyword argument but `content` / `reference_time`.
    base: ScoreInput,
    content: Option<Value>,
    reference_time: Option<Value>,
}

impl Shared {
    fn read(shared: &Value, caps: &InputCaps) -> Result<Shared> {
        let under = |e: Error| e.under("/shared");
        (caps.value)(shared).map_err(under)?;
        let obj = match shared {
            Value::Null => return Shared::empty(),
            Value::Object(o) => o,
            other => return Err(under(Error::wrong_type("", "an object", other.type_name()))),
        };
        let mut s = Shared::empty()?;
        for (key, value) in obj.iter() {
            let Some(key) = key.as_str() else { continue };
            match key {
                "content" => match value {
                    Value::Str(_) => s.content = Some(value.clone()),
                    other => return Err(under(Error::wrong_type("/content", "a string", other.type_name()))),
                },
                "reference_time" => {
                    if !value.is_null() {
                        scoring::datetime(value, "/reference_time").map_err(under)?;
                    }
                    s.reference_time = Some(value.clone());
                }
                _ => s.base.set(key, value).map_err(under)?,
            }
        }
        Ok(s)
    }

    fn empty() -> Result<Shared> {
        // The placeholder time is always replaced (a candidate without any
        // reference_time is an error). A valid literal: the `?` never fires,
        // and if it did it would be a typed error, not a panic.
        let epoch = PyDateTime::parse("1970-01-01T00:00:00+00:00")?;
        Ok(Shared { base: ScoreInput::new(String::new(), epoch), content: None, reference_time: None })
    }
}

/// Distinct sorted query tokens, computed once per distinct query text.
#[derive(Default)]
struct QueryCache {
    by_query: HashMap<String, Vec<String>>,
}

impl QueryCache {
    fn tokens(&mut self, input: &ScoreInput) -> Option<&[String]> {
        // Explicit query_tokens are per candidate: not cached.
        if input.query_tokens.is_some() {
            return None;
        }
        let q = input.query.as_deref()?;
        if !self.by_query.contains_key(q) {
            let query = components::Query { text: Some(q), tokens: None, base_relevance: None };
            self.by_query.insert(q.to_string(), components::query_tokens(&query));
        }
        self.by_query.get(q).map(Vec::as_slice)
    }
}

/// Scores candidates against one set of shared inputs.
struct Scorer {
    caps: InputCaps,
    shared: Shared,
    cache: QueryCache,
    scratch: Scratch,
    /// The last `reference_time` text read in place and its value (a batch's
    /// candidates mostly share one: parsed once).
    reference_time: Option<(String, PyDateTime)>,
}

impl Scorer {
    fn new(caps: &InputCaps, shared: &Value) -> Result<Scorer> {
        Ok(Scorer {
            caps: *caps,
            shared: Shared::read(shared, caps)?,
            cache: QueryCache::default(),
            scratch: Scratch::default(),
            reference_time: None,
        })
    }

    /// Score one candidate given as a JSON value.
    fn score(&mut self, candidate: &Value) -> Result<Scored> {
        (self.caps.value)(candidate)?;
        match candidate {
            Value::Object(o) => self.score_object(Obj::Value(o)),
            other => Err(Error::wrong_type("", "an object", other.type_name())),
        }
    }

    /// Score one candidate read in place from its text ([`json::Doc`]): the
    /// content stays borrowed from the text. `text_bytes` is the length of
    /// that text: the input caps are checked (on an owned copy) only when it
    /// could break one.
    fn score_doc(&mut self, candidate: json::Ref<'_>, text_bytes: usize) -> Result<Scored> {
        if text_bytes > self.caps.within_text_bytes {
            (self.caps.value)(&candidate.to_value())?;
        }
        match candidate.as_object() {
            Some(m) => self.score_object(Obj::Doc(m)),
            None => Err(Error::wrong_type("", "an object", candidate.type_name())),
        }
    }

    /// The one scoring path. The checks every candidate gets first, in this
    /// order: `content` (its own or the shared one) is a string,
    /// `reference_time` (its own or the shared one) is present and valid;
    /// then its members apply in its order ([`ScoreInput::set`]).
    fn score_object(&mut self, obj: Obj<'_>) -> Result<Scored> {
        let shared = &self.shared;
        let own_content = obj.get("content");
        let content = match own_content.or(shared.content.as_ref().map(Member::Value)) {
            Some(c) => c.text().ok_or_else(|| Error::wrong_type("/content", "a string", c.type_name()))?,
            None => return Err(Error::new(ErrorCode::MissingField, "/content", "`content` is required")),
        };
        let reference_time = match obj.get("reference_time").or(shared.reference_time.as_ref().map(Member::Value)) {
            Some(Member::Value(v)) if !v.is_null() => scoring::datetime(v, "/reference_time")?,
            Some(Member::Doc(v)) if !v.is_null() => match v.as_text().and_then(json::Text::as_str) {
                // Read in place (as `datetime` reads a string without lone surrogates).
                Some(s) => match &self.reference_time {
                    Some((last, t)) if last == s => *t,
                    _ => {
                        let t = PyDateTime::parse(s).map_err(|e| e.under("/reference_time"))?;
                        self.reference_time = Some((s.to_string(), t));
                        t
                    }
                },
                None => scoring::datetime(&v.to_value(), "/reference_time")?,
            },
            _ => return Err(Error::new(ErrorCode::MissingField, "/reference_time", "`reference_time` is required")),
        };
        let mut input = shared.base.clone();
        input.reference_time = reference_time;
        // A candidate's `metadata` object in a document is read in place
        // (`input.metadata` then keeps the shared one, unused).
        let mut doc_meta = None;
        for i in 0..obj.len() {
            // Lone-surrogate keys are skipped (as by `ScoreInput::from_json`).
            let (Some(key), member) = obj.at(i) else { continue };
            let arg = scoring::arg(key);
            match (arg, member) {
                // Read above.
                (Some(Arg::Content | Arg::ReferenceTime), _) => {}
                (_, Member::Value(v)) => input.set_arg(arg, key, v)?,
                (_, Member::Doc(v)) => {
                    // A string argument is read in place; any other value as
                    // an owned copy, but `metadata`, read in place too.
                    let text = v.as_text().and_then(json::Text::as_str);
                    match arg.zip(text).and_then(|(a, t)| input.set_text(a, t)) {
                        Some(done) => done?,
                        None => match (arg, v.as_object()) {
                            (Some(Arg::Metadata), Some(m)) => doc_meta = Some(Meta::Doc(v, m)),
                            _ => input.set_arg(arg, key, &v.to_value())?,
                        },
                    }
                }
            }
        }
        input.check_reference_raises()?;
        let tokens: Option<Vec<&str>> = self.cache.tokens(&input).map(|t| t.iter().map(String::as_str).collect());
        let meta = doc_meta.unwrap_or(Meta::Value(&input.metadata));
        Ok(scoring::score_memory_in(&input, &content, meta, &mut self.scratch, tokens.as_deref()))
    }
}

/// A candidate object: owned, or in a [`json::Doc`].
#[derive(Clone, Copy)]
enum Obj<'a> {
    Value(&'a Object),
    Doc(json::Members<'a>),
}

/// A member value of an [`Obj`] (or a shared value).
#[derive(Clone, Copy)]
enum Member<'a> {
    Value(&'a Value),
    Doc(json::Ref<'a>),
}

impl<'a> Obj<'a> {
    fn len(self) -> usize {
        match self {
            Obj::Value(o) => o.len(),
            Obj::Doc(m) => m.len(),
        }
    }

    /// The `i`th member: its key (None if it holds a lone surrogate) and value.
    fn at(self, i: usize) -> (Option<&'a str>, Member<'a>) {
        match self {
            Obj::Value(o) => {
                let (k, v) = &o.members()[i];
                (k.as_str(), Member::Value(v))
            }
            Obj::Doc(m) => {
                let (k, v) = m.at(i);
                (k.as_str(), Member::Doc(v))
            }
        }
    }

    fn get(self, key: &str) -> Option<Member<'a>> {
        match self {
            Obj::Value(o) => o.get(key).map(Member::Value),
            Obj::Doc(m) => m.get(key).map(Member::Doc),
        }
    }
}

impl<'a> Member<'a> {
    /// The string (lone surrogates as U+FFFD), if this is one.
    fn text(self) -> Option<Cow<'a, str>> {
        match self {
            Member::Value(Value::Str(s)) => Some(s.to_str_lossy()),
            Member::Value(_) => None,
            Member::Doc(v) => v.as_text().map(json::Text::to_str_lossy),
        }
    }

    fn type_name(self) -> &'static str {
        match self {
            Member::Value(v) => v.type_name(),
            Member::Doc(v) => v.type_name(),
        }
    }
}

/// Score candidates given as JSON values (under `caps`; the façade's
/// [`crate::api::score_candidates`] passes its own).
pub fn score_candidates(caps: &InputCaps, shared: &Value, candidates: &[Value]) -> Result<Batch> {
    check_count(caps, candidates.len())?;
    let mut scorer = Scorer::new(caps, shared)?;
    Ok(Batch { results: candidates.iter().map(|c| scorer.score(c)).collect() })
}

fn check_count(caps: &InputCaps, n: usize) -> Result<()> {
    if n > caps.max_items {
        return Err(Error::new(
            ErrorCode::TooLarge,
            "/candidates",
            format!("{n} candidates; the limit is {}", caps.max_items),
        ));
    }
    Ok(())
}

/// Score candidates that were read elsewhere (a binding converting its own
/// data): `Err` items (a candidate the binding could not convert) are kept
/// as their error rows. No count cap: the caller bounds its input.
pub fn score_candidates_read(
    caps: &InputCaps,
    shared: &Value,
    candidates: impl IntoIterator<Item = Result<Value>>,
) -> Result<Batch> {
    let mut scorer = Scorer::new(caps, shared)?;
    Ok(Batch { results: candidates.into_iter().map(|c| c.and_then(|c| scorer.score(&c))).collect() })
}

/// Score candidates given as text: a JSON array of objects, or JSON Lines
/// (one object per line; blank lines are skipped). In JSON Lines, a line
/// that is not JSON gets a `malformed_json` error row; a text that starts
/// with `[` but is not a JSON array fails the call.
pub fn score_candidates_text(caps: &InputCaps, shared: &Value, candidates: &str) -> Result<Batch> {
    (caps.text)(candidates, "the candidates text")?;
    if candidates.trim_start().starts_with('[') {
        return match json::parse(candidates)? {
            Value::Array(items) => {
                check_count(caps, items.len())?;
                score_candidates_read(caps, shared, items.into_iter().map(Ok))
            }
            other => Err(Error::wrong_type("/candidates", "an array of objects", other.type_name())),
        };
    }
    let mut scorer = Scorer::new(caps, shared)?;
    let mut results = Vec::new();
    let mut records = json::DocRecords::new(candidates);
    while let Some((record, taken)) = records.next_record() {
        results.push(record.and_then(|c| scorer.score_doc(c, taken)));
    }
    Ok(Batch { results })
}

impl Batch {
    /// How many candidates failed.
    pub fn errors(&self) -> usize {
        self.results.iter().filter(|r| r.is_err()).count()
    }

    /// One line per candidate, exactly as the CLI's `score` prints single
    /// `score_memory` results: the breakdown object, or an
    /// `{"error","message","path"}` object.
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        for r in &self.results {
            let v = match r {
                Ok(b) => b.to_json(),
                Err(e) => e.to_json(),
            };
            out.push_str(&json::to_json_string(&v));
            out.push('\n');
        }
        out
    }

    /// The compact result as JSON text: columns of the rounded values, one
    /// entry per candidate (`null` for a failed one), and the errors.
    ///
    /// `{"count":N,"errors":[{"index","error","message","path"}...],
    /// "final_score":[...],"eligible":[...],"safety_eligible":[...],
    /// "temporal_eligible":[...],"importance_score":[...],... (the seven
    /// components in breakdown order)}`. Purpose, policy version, limits,
    /// weights and reasons are those of the full breakdown
    /// ([`Batch::to_jsonl`]) and are not repeated here.
    pub fn write_compact(&self) -> String {
        let mut out = String::with_capacity(64 + self.results.len() * 96);
        out.push_str("{\"count\":");
        out.push_str(&self.results.len().to_string());
        out.push_str(",\"errors\":[");
        let mut first = true;
        for (i, r) in self.results.iter().enumerate() {
            if let Err(e) = r {
                if !first {
                    out.push(',');
                }
                first = false;
                out.push_str(&json::to_json_string(&e.to_json_at(i)));
            }
        }
        out.push(']');
        let column = |out: &mut String, name: &str, f: &dyn Fn(&Scored, &mut String)| {
            out.push_str(",\"");
            out.push_str(name);
            out.push_str("\":[");
            for (i, r) in self.results.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                match r {
                    Ok(b) => f(b, out),
                    Err(_) => out.push_str("null"),
                }
            }
            out.push(']');
        };
        let flag = |out: &mut String, v: bool| out.push_str(if v { "true" } else { "false" });
        column(&mut out, "final_score", &|b, out| write_repr(b.final_score, out));
        column(&mut out, "eligible", &|b, out| flag(out, b.eligible()));
        column(&mut out, "safety_eligible", &|b, out| flag(out, b.safety_eligible));
        column(&mut out, "temporal_eligible", &|b, out| flag(out, b.temporal_eligible));
        for (k, name) in COMPONENTS.iter().enumerate() {
            column(&mut out, name, &|b, out| write_repr(round6(b.components[k]), out));
        }
        out.push('}');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::limits;

    fn merged(shared: &Value, cand: &Value) -> Value {
        let mut o = shared.as_object().cloned().unwrap_or_default();
        for (k, v) in cand.as_object().unwrap().iter() {
            o.insert(k.clone(), v.clone());
        }
        Value::Object(o)
    }

    fn line(r: &Result<Scored>) -> String {
        json::to_json_string(&match r {
            Ok(b) => b.to_json(),
            Err(e) => e.to_json(),
        })
    }

    #[test]
    fn equals_single_calls_on_the_merged_object() {
        let shared = json::parse(
            r#"{"query":"budget deadline 東京","reference_time":"2026-11-30T00:00:00+00:00","purpose":"recall"}"#,
        )
        .unwrap();
        let cands = [
            r#"{"content":"The budget deadline is 2026-09-30, decided.","event_time":"2026-11-01T00:00:00+00:00","source":"chat"}"#,
            r#"{"content":"東京タワーの予算会議 budget","query":"予算","base_relevance":0.25,"metadata":{"entity":"x","tags":["a"]}}"#,
            r#"{"content":"ok!","purpose":null,"query_tokens":["ok"]}"#,
            r#"{"content":"x","purpose":"admission","reference_time":"2026-01-01T00:00:00"}"#,
            r#"{"content":5}"#,
            r#"{"content":"y","source":3}"#,
            r#"{"content":"y","risk_tags":5}"#,
            r#"{"content":"y","bogus":1}"#,
            r#"[1]"#,
        ];
        let values: Vec<Value> = cands.iter().map(|c| json::parse(c).unwrap()).collect();
        let batch = crate::api::score_candidates(&shared, &values).unwrap();
        for (c, r) in values.iter().zip(&batch.results) {
            let single = if c.as_object().is_some() {
                crate::api::score_memory(&merged(&shared, c))
            } else {
                crate::api::score_memory(c)
            };
            let want = json::to_json_string(&match single {
                Ok(v) => v,
                Err(e) => e.to_json(),
            });
            assert_eq!(line(r), want, "{c:?}");
        }
        // Same through the text forms.
        let jsonl = cands.join("\n\n");
        let t = crate::api::score_candidates_text(&shared, &jsonl).unwrap();
        assert_eq!(t.to_jsonl(), batch.to_jsonl());
        let arr = format!("[{}]", cands.join(","));
        assert_eq!(crate::api::score_candidates_text(&shared, &arr).unwrap().to_jsonl(), batch.to_jsonl());
        assert_eq!(batch.errors(), 4);
    }

    #[test]
    fn long_content_and_jsonl_errors() {
        let shared = json::parse(r#"{"reference_time":"2026-11-30T00:00:00+00:00","query":"alpha omega"}"#).unwrap();
        let long = format!("alpha {} omega", "β ".repeat(9000));
        let text = format!(
            "{}\nnot json\n{}\n",
            json::to_json_string(&{
                let mut o = Object::new();
                o.push_unique("content", Value::str(long.as_str()));
                Value::Object(o)
            }),
            r#"{"content":"omega"}"#
        );
        let b = crate::api::score_candidates_text(&shared, &text).unwrap();
        assert_eq!(b.results.len(), 3);
        assert_eq!(b.results[1].as_ref().err().map(|e| e.code), Some(ErrorCode::MalformedJson));
        let mut one = shared.as_object().cloned().unwrap();
        one.insert("content", Value::str(long.as_str()));
        assert_eq!(line(&b.results[0]), json::to_json_string(&crate::api::score_memory(&Value::Object(one)).unwrap()));
        let compact = b.write_compact();
        assert!(compact.starts_with(r#"{"count":3,"errors":[{"index":1,"error":"malformed_json""#), "{compact}");
        assert!(json::parse(&compact).is_ok());
    }

    /// Records long enough to break an input cap are checked as a single
    /// call checks them (same error, same pointer); shorter ones cannot break one.
    #[test]
    fn input_caps_of_long_records() {
        let shared = json::parse(r#"{"reference_time":"2026-11-30T00:00:00+00:00","query":"a"}"#).unwrap();
        let many = vec!["0"; limits::MAX_METADATA_VALUES].join(",");
        let lines = [
            format!(r#"{{"content":"a","metadata":{{"x":[{many}]}}}}"#),
            format!(r#"{{"content":"a","metadata":{{"x":"{}"}}}}"#, "a".repeat(limits::WITHIN_CAPS_TEXT_BYTES)),
            format!(r#"{{"content":"a","risk_tags":[{}]}}"#, vec!["\"\""; limits::MAX_METADATA_VALUES].join(",")),
        ];
        let values: Vec<Value> = lines.iter().map(|l| json::parse(l).unwrap()).collect();
        let want = crate::api::score_candidates(&shared, &values).unwrap();
        let got = crate::api::score_candidates_text(&shared, &lines.join("\n")).unwrap();
        assert_eq!(got.to_jsonl(), want.to_jsonl());
        let codes: Vec<_> = got.results.iter().map(|r| r.as_ref().err().map(|e| (e.code, e.path.as_str()))).collect();
        assert_eq!(codes, [Some((ErrorCode::TooLarge, "/metadata")), None, None]);
    }

    /// A candidate's `metadata` read in place from its line (presence, trust
    /// claim, flattened text) scores as the owned object does in a single
    /// call: duplicate keys (first position, last value), escaped and
    /// non-ASCII keys, lone surrogates, hidden and control keys, falsy claims,
    /// nesting past the depth, wrong types; with and without a shared one.
    #[test]
    fn metadata_read_in_place() {
        let metas = [
            r#"{"trust_level":"high","x":1}"#,
            r#"{"trust_level":0,"source_trust":null}"#,
            r#"{"trust_level":"","source_trust":0}"#,
            r#"{"trust_level":[],"source_trust":false}"#,
            r#"{"trust_level":{},"y":2}"#,
            r#"{"trust_level":-0.0}"#,
            r#"{"a":"x","a":"omega","b":{"a":3,"a":["alpha",5]}}"#,
            r#"{"b":1,"a":2,"b":"alpha"}"#,
            r#"{"\u00e9":"x","e":"y","\ud800":"lone","\ud83d\ude00":"alpha","\uffff":"z"}"#,
            r#"{"k\"q":"v\n","\\":"\t omega"}"#,
            r#"{"_h":"alpha","materiality":"omega","pub":null}"#,
            r#"{"_h":1,"trust_level":"x"}"#,
            r#"{"d":{"e":{"f":{"g":{"h":"alpha"}}}},"n":[[[[["omega"]]]]]}"#,
            r#"{"f":[1.0,1e-7,1e22,-0.0,0.1,1E400,-0,123456789012345678901234567890],"t":true,"z":null}"#,
            r#"{}"#,
            r#"null"#,
            r#"[]"#,
            r#""alpha""#,
        ];
        let mut lines = Vec::new();
        for (i, m) in metas.iter().enumerate() {
            let q = ["alpha omega", "omega", "zzz alpha"][i % 3];
            lines.push(format!(r#"{{"content":"alpha text","query":"{q}","source":"chat","metadata":{m}}}"#));
            lines.push(format!(r#"{{"metadata":{m},"content":"nothing here","query":"{q}"}}"#));
        }
        let many: String = (0..70).map(|i| format!(r#""k{:02}":"alpha v{i}","#, 70 - i)).collect();
        lines.push(format!(r#"{{"content":"c","query":"omega","metadata":{{{many}"last":"omega"}}}}"#));
        for shared in [
            r#"{"reference_time":"2026-11-30T00:00:00+00:00"}"#,
            r#"{"reference_time":"2026-11-30T00:00:00+00:00","metadata":{"note":"omega","trust_level":"x"}}"#,
        ] {
            let shared = json::parse(shared).unwrap();
            let values: Vec<Value> = lines.iter().map(|l| json::parse(l).unwrap()).collect();
            let text = crate::api::score_candidates_text(&shared, &lines.join("\n")).unwrap();
            let owned = crate::api::score_candidates(&shared, &values).unwrap();
            assert_eq!(text.to_jsonl(), owned.to_jsonl());
            for (c, r) in values.iter().zip(&text.results) {
                let want = match crate::api::score_memory(&merged(&shared, c)) {
                    Ok(v) => json::to_json_string(&v),
                    Err(e) => json::to_json_string(&e.to_json()),
                };
                assert_eq!(line(r), want, "{c:?}");
            }
            assert_eq!(text.errors(), 4);
        }
        // A candidate's `"metadata": null` replaces the shared one (no public metadata).
        let shared = json::parse(r#"{"reference_time":"2026-11-30T00:00:00+00:00","metadata":{"p":1}}"#).unwrap();
        let t = crate::api::score_candidates_text(&shared, r#"{"content":"x","metadata":null}"#).unwrap();
        let one = json::parse(r#"{"content":"x","reference_time":"2026-11-30T00:00:00+00:00"}"#).unwrap();
        assert_eq!(line(&t.results[0]), json::to_json_string(&crate::api::score_memory(&one).unwrap()));
    }

    #[test]
    fn invalid_shared_fails_the_call() {
        let e = crate::api::score_candidates(&json::parse(r#"{"risk_tags":7}"#).unwrap(), &[]).err().unwrap();
        assert_eq!(e.path, "/shared/risk_tags");
        let e = crate::api::score_candidates(&json::parse(r#"[]"#).unwrap(), &[]).err().unwrap();
        assert_eq!(e.path, "/shared");
    }
}

/// How a batch result is handed back (the `output` option of the wasm
/// `scoreCandidates`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Output {
    /// Columns of the rounded values ([`Batch::columns`]); the default.
    #[default]
    Compact,
    /// One breakdown object, or `{error,message,path}` object, per candidate.
    Full,
    /// The CLI's lines as one text ([`Batch::to_jsonl`]).
    Jsonl,
}

impl Output {
    /// The `output` member of an options object: absent or `null` means
    /// [`Output::Compact`]; errors point at `/options/output`.
    pub fn from_options(options: &Value) -> Result<Output> {
        match options.get("output") {
            None | Some(Value::Null) => Ok(Output::Compact),
            Some(Value::Str(s)) => Output::parse(&s.to_str_lossy()),
            Some(other) => Err(Error::wrong_type("/options/output", "a string", other.type_name())),
        }
    }

    /// `"compact"`, `"full"` or `"jsonl"`; anything else is `invalid_value`.
    pub fn parse(name: &str) -> Result<Output> {
        match name {
            "compact" => Ok(Output::Compact),
            "full" => Ok(Output::Full),
            "jsonl" => Ok(Output::Jsonl),
            _ => Err(Error::new(
                ErrorCode::InvalidValue,
                "/options/output",
                format!("output must be \"compact\", \"full\" or \"jsonl\", got {name:?}"),
            )),
        }
    }
}

/// The names of the flag columns of [`Columns`], in order.
pub const FLAGS: [&str; 3] = ["eligible", "safety_eligible", "temporal_eligible"];

/// The compact result as plain columns (what the wasm binding hands out as
/// `Float64Array`/`Uint8Array`s), one entry per candidate in input order;
/// a failed candidate has `NaN` scores and `0` flags, and an entry in
/// [`Columns::errors`]. The same values as [`Batch::write_compact`] prints.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Columns<'a> {
    /// The failed candidates: their index and error, in input order.
    pub errors: Vec<(usize, &'a Error)>,
    /// `final_score`.
    pub final_score: Vec<f64>,
    /// The [`FLAGS`] columns, `1` for true.
    pub flags: [Vec<u8>; 3],
    /// The [`COMPONENTS`] columns, rounded to 6 places (`round6`).
    pub components: [Vec<f64>; 7],
}

impl Columns<'_> {
    /// How many candidates (the length of every column).
    pub fn count(&self) -> usize {
        self.final_score.len()
    }

    /// The errors as `[{"index","error","message","path"}...]` (each row is
    /// [`Error::to_json_at`]).
    pub fn errors_json(&self) -> Value {
        Value::Array(self.errors.iter().map(|&(i, e)| e.to_json_at(i)).collect())
    }
}

impl Batch {
    /// The compact result as [`Columns`].
    pub fn columns(&self) -> Columns<'_> {
        let n = self.results.len();
        let mut c = Columns { errors: Vec::new(), final_score: Vec::with_capacity(n), ..Default::default() };
        for (i, r) in self.results.iter().enumerate() {
            let (score, flags, components) = match r {
                Ok(b) => {
                    (b.final_score, [b.eligible(), b.safety_eligible, b.temporal_eligible], b.components.map(round6))
                }
                Err(e) => {
                    c.errors.push((i, e));
                    (f64::NAN, [false; 3], [f64::NAN; 7])
                }
            };
            c.final_score.push(score);
            for (column, flag) in c.flags.iter_mut().zip(flags) {
                column.push(flag as u8);
            }
            for (column, x) in c.components.iter_mut().zip(components) {
                column.push(x);
            }
        }
        c
    }
}

#[cfg(test)]
mod columns_tests {
    use super::*;

    #[test]
    fn output_modes() {
        let opts = |t: &str| json::parse(t).unwrap();
        assert_eq!(Output::from_options(&Value::Null).unwrap(), Output::Compact);
        assert_eq!(Output::from_options(&opts(r#"{"output":null}"#)).unwrap(), Output::Compact);
        assert_eq!(Output::from_options(&opts(r#"{"output":"full"}"#)).unwrap(), Output::Full);
        assert_eq!(Output::from_options(&opts(r#"{"output":"jsonl"}"#)).unwrap(), Output::Jsonl);
        let e = Output::from_options(&opts(r#"{"output":"xml"}"#)).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (ErrorCode::InvalidValue, "/options/output"));
        assert_eq!(e.message, r#"output must be "compact", "full" or "jsonl", got "xml""#);
        let e = Output::from_options(&opts(r#"{"output":1}"#)).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (ErrorCode::WrongType, "/options/output"));
    }

    /// The columns hold what `write_compact` prints.
    #[test]
    fn columns_equal_the_compact_text() {
        let shared = json::parse(r#"{"reference_time":"2026-11-30T00:00:00+00:00","query":"budget"}"#).unwrap();
        let text = "{\"content\":\"The budget deadline, decided.\",\"source\":\"chat\"}\nnot json\n{\"content\":5}\n\
                    {\"content\":\"budget ok\",\"safety_status\":\"blocked\"}\n";
        let batch = crate::api::score_candidates_text(&shared, text).unwrap();
        let c = batch.columns();
        assert_eq!(c.count(), 4);
        assert_eq!(c.errors.iter().map(|&(i, _)| i).collect::<Vec<_>>(), [1, 2]);
        let num = |x: f64| if x.is_nan() { Value::Null } else { Value::Float(x) };
        let mut o = Object::new();
        o.push_unique("count", Value::int(c.count() as i64));
        o.push_unique("errors", c.errors_json());
        o.push_unique("final_score", Value::Array(c.final_score.iter().map(|&x| num(x)).collect()));
        for (name, column) in FLAGS.iter().zip(&c.flags) {
            let failed = |i: usize| c.errors.iter().any(|&(j, _)| j == i);
            let v = column.iter().enumerate().map(|(i, &f)| if failed(i) { Value::Null } else { Value::Bool(f == 1) });
            o.push_unique(*name, Value::Array(v.collect()));
        }
        for (name, column) in COMPONENTS.iter().zip(&c.components) {
            o.push_unique(*name, Value::Array(column.iter().map(|&x| num(x)).collect()));
        }
        assert_eq!(json::to_json_string(&Value::Object(o)), batch.write_compact());
    }
}
