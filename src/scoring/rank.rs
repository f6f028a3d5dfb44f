//! Rank rules a client can reproduce (spec `ranking-receipts.md` §9.4–9.7,
//! `scoring-admission.md` §12): the stable tie order, rank-calibration-v1
//! position scores, the ranking-stage record, and the 0.8/0.2 quality blend.

use crate::json::{Object, Value};
use crate::py::float::{self, clamp01, round6};
use crate::py::time::PyDateTime;
use crate::py::unicode;
use crate::{Error, ErrorCode, Result};

/// The recall blend weights, as `ranking_weights` reports them.
pub const RANKING_WEIGHTS: [(&str, f64); 2] = [("existing_retrieval_score", 0.8), ("memory_quality_score", 0.2)];
/// The reason the blend appends to a recall breakdown.
pub const BLEND_REASON: &str = "recall rank preserves proven hybrid retrieval with a bounded quality adjustment";
/// The calibration method stage records carry.
pub const RANK_CALIBRATION: &str = "rank-calibration-v1";

/// Python `int(v)` failures, named as Python names them.
fn int_error(path: &str, exception: &str, detail: String) -> Error {
    Error::new(ErrorCode::InvalidValue, path, format!("int() raised {exception}: {detail}"))
}

/// Python `int(v)` for a JSON value (truncation toward zero; strings in
/// Python's integer syntax). Results beyond ±2^127 are refused as out of range.
pub fn py_int(v: &Value, path: &str) -> Result<i128> {
    match v {
        Value::Bool(b) => Ok(*b as i128),
        Value::Int(digits) => {
            digits.parse::<i128>().map_err(|_| Error::new(ErrorCode::OutOfRange, path, "integer too large"))
        }
        Value::Str(s) => parse_py_int(&s.to_str_lossy())
            .ok_or_else(|| int_error(path, "ValueError", format!("invalid literal for int(): {:?}", s.to_str_lossy()))),
        other => match int_part(other, path)? {
            t if t.abs() >= 1.7e38 => Err(Error::new(ErrorCode::OutOfRange, path, "integer too large")),
            t => Ok(t as i128),
        },
    }
}

/// Python `int(v)` of a bool or a float, as the integer-valued double it
/// truncates to; the `int()` errors of NaN, infinity and the other types.
fn int_part(v: &Value, path: &str) -> Result<f64> {
    match v {
        Value::Bool(b) => Ok(f64::from(u8::from(*b))),
        Value::Float(f) if f.is_nan() => {
            Err(int_error(path, "ValueError", "cannot convert float NaN to integer".into()))
        }
        Value::Float(f) if f.is_infinite() => {
            Err(int_error(path, "OverflowError", "cannot convert float infinity to integer".into()))
        }
        Value::Float(f) => Ok(f.trunc()),
        _ => Err(int_error(
            path,
            "TypeError",
            format!("int() argument must be a string or a number, not {}", v.type_name()),
        )),
    }
}

/// Python `int(str)`: surrounding whitespace stripped as `float(str)` does
/// (non-ASCII Py-spaces and ASCII C-`isspace`, not U+001C–001F: see
/// [`crate::py::float::parse_py_float`]), optional sign, decimal digits (any
/// Nd digit) with single `_` between digits.
fn parse_py_int(s: &str) -> Option<i128> {
    let (neg, digits) = parse_py_int_digits(s)?;
    let value: i128 = digits.parse().ok()?;
    Some(if neg { -value } else { value })
}

/// [`parse_py_int`]'s syntax, any size: the sign and the ASCII digits.
fn parse_py_int_digits(s: &str) -> Option<(bool, String)> {
    let t = s.trim_matches(
        |c: char| if c.is_ascii() { c == ' ' || ('\t'..='\r').contains(&c) } else { unicode::is_py_space(c) },
    );
    let (neg, body) = match t.chars().next()? {
        '-' => (true, &t[1..]),
        '+' => (false, &t[1..]),
        _ => (false, t),
    };
    let mut digits = String::with_capacity(body.len());
    let mut prev_digit = false;
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '_' {
            if !prev_digit || !chars.peek().is_some_and(|&n| unicode::is_decimal(n)) {
                return None;
            }
            prev_digit = false;
            continue;
        }
        digits.push((b'0' + unicode::decimal_value(c)?) as char);
        prev_digit = true;
    }
    (!digits.is_empty()).then_some((neg, digits))
}

/// Python `int(v)` of any size, as `(negative, decimal digits without leading
/// zeros)`: what [`rank_position_score`] needs beyond ±2^127 (40-digit strings,
/// `1e300`). A string of more than 4,300 digits is refused as CPython's
/// `int()` refuses it (`ValueError`, `sys.int_info.str_digits_check_threshold`).
fn py_int_decimal(v: &Value, path: &str) -> Result<(bool, String)> {
    let strip = |d: &str| {
        let t = d.trim_start_matches('0');
        if t.is_empty() {
            String::from("0")
        } else {
            t.to_string()
        }
    };
    match v {
        Value::Int(digits) => {
            let neg = digits.starts_with('-');
            Ok((neg, strip(digits.trim_start_matches('-'))))
        }
        Value::Float(f) if f.is_finite() && f.abs() >= 1e18 => {
            // An integer-valued double m·2^e: m in decimal, doubled e times.
            let bits = f.to_bits();
            let exp = ((bits >> 52) & 0x7FF) as i32 - 1075;
            let mut digits: Vec<u8> = ((bits & ((1 << 52) - 1)) | (1 << 52)).to_string().into_bytes();
            for _ in 0..exp {
                let mut carry = 0;
                for d in digits.iter_mut().rev() {
                    let x = (*d - b'0') * 2 + carry;
                    *d = b'0' + x % 10;
                    carry = x / 10;
                }
                if carry > 0 {
                    digits.insert(0, b'0' + carry);
                }
            }
            Ok((*f < 0.0, String::from_utf8(digits).unwrap_or_default()))
        }
        Value::Str(s) => {
            let text = s.to_str_lossy();
            match parse_py_int_digits(&text) {
                Some((_, d)) if d.len() > 4300 => Err(int_error(
                    path,
                    "ValueError",
                    "Exceeds the limit (4300 digits) for integer string conversion".into(),
                )),
                Some((neg, d)) => Ok((neg && d != "0", strip(&d))),
                None => Err(int_error(path, "ValueError", format!("invalid literal for int(): {text:?}"))),
            }
        }
        // A bool, or a float under 1e18 in magnitude (a u64 once truncated:
        // no i128 parsing or printing in the wasm), or an error.
        other => int_part(other, path).map(|t| (t < 0.0, (t.abs() as u64).to_string())),
    }
}

/// Compare two non-negative decimals without leading zeros.
fn cmp_decimal(a: &str, b: &str) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// `a − b` for non-negative decimals with `a ≥ b`.
fn sub_decimal(a: &str, b: &str) -> String {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = 0i8;
    for i in 0..a.len() {
        let x = (a[a.len() - 1 - i] - b'0') as i8
            - borrow
            - b.get(b.len().wrapping_sub(1 + i)).map_or(0, |&d| (d - b'0') as i8);
        borrow = (x < 0) as i8;
        out.push(b'0' + (x + 10 * borrow) as u8);
    }
    while out.len() > 1 && out.last() == Some(&b'0') {
        out.pop();
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Python `float(int)`: correctly rounded; `OverflowError` beyond the double range.
fn int_to_float(digits: &str, path: &str) -> Result<f64> {
    match float::parse_f64(digits) {
        Some(f) if f.is_finite() => Ok(f),
        _ => Err(Error::new(
            ErrorCode::OutOfRange,
            path,
            "int too large to convert to float (the reference raises OverflowError)",
        )),
    }
}

/// `rank_position_score(position, total, input)` (rank-calibration-v1):
/// `round((count − index + 0.5·clamp(input)) / (count + 1), 6)` with
/// `count = max(1, int(total))` and `index` clamped to `[0, count−1]`, in
/// Python's arbitrary-size integers (the sums convert them to float, which
/// raises `OverflowError` beyond the double range).
pub fn rank_position_score(position: &Value, total: &Value, input: &Value) -> Result<f64> {
    let (total_neg, total) = py_int_decimal(total, "/total")?;
    let count = if total_neg || total == "0" { String::from("1") } else { total };
    let (position_neg, position) = py_int_decimal(position, "/position")?;
    let last = sub_decimal(&count, "1");
    let bucket = if position_neg || position == "0" {
        count.clone()
    } else if cmp_decimal(&position, &last).is_ge() {
        String::from("1")
    } else {
        sub_decimal(&count, &position)
    };
    let numerator = int_to_float(&bucket, "/total")? + 0.5 * input.clamp01();
    Ok(round6(numerator / (int_to_float(&count, "/total")? + 1.0)))
}

/// A candidate for the stable tie order.
#[derive(Clone, Debug)]
pub struct SortKey {
    neg_score: f64,
    neg_event: f64,
    neg_created: f64,
    id: Vec<u8>,
}

fn neg_timestamp(v: Option<&Value>, path: &str) -> Result<f64> {
    match v {
        None | Some(Value::Null) => Ok(f64::INFINITY),
        Some(Value::Str(s)) => Ok(-PyDateTime::parse_py(s).map_err(|e| e.under(path))?.timestamp()),
        Some(other) => Err(Error::wrong_type(path, "an ISO-8601 datetime string or null", other.type_name())),
    }
}

/// Python `str(id)` as bytes for ordering.
fn id_text(id: Option<&Value>) -> Vec<u8> {
    match id {
        None | Some(Value::Null) => b"None".to_vec(),
        Some(Value::Str(s)) => s.as_bytes().to_vec(),
        Some(Value::Int(d)) => d.as_bytes().to_vec(),
        Some(Value::Float(f)) => float::repr(*f).into_bytes(),
        Some(Value::Bool(b)) => (if *b { "True" } else { "False" }).as_bytes().to_vec(),
        Some(other) => other.type_name().as_bytes().to_vec(),
    }
}

impl SortKey {
    /// `stable_score_key(id, event_time, created_at, breakdown)` for a
    /// candidate object `{id, event_time, created_at, final_score?}`; the
    /// score may also come from `score_breakdown.final_score`, and the
    /// creation time from `ingestion_time`.
    pub fn of(candidate: &Value, path: &str) -> Result<SortKey> {
        let obj = candidate.as_object().ok_or_else(|| Error::wrong_type(path, "an object", candidate.type_name()))?;
        let score = obj
            .get("final_score")
            .or_else(|| obj.get("score_breakdown").and_then(|b| b.get("final_score")))
            .map(Value::clamp01)
            .unwrap_or(0.0);
        let created = obj.get("created_at").or_else(|| obj.get("ingestion_time"));
        Ok(SortKey {
            neg_score: -score,
            neg_event: neg_timestamp(obj.get("event_time"), &format!("{path}/event_time"))?,
            neg_created: neg_timestamp(created, &format!("{path}/created_at"))?,
            id: id_text(obj.get("id")),
        })
    }

    /// The ascending order of two keys (`Less`: `self` comes first).
    pub fn order(&self, other: &SortKey) -> std::cmp::Ordering {
        self.cmp(other)
    }

    fn cmp(&self, other: &SortKey) -> std::cmp::Ordering {
        self.neg_score
            .total_cmp(&other.neg_score)
            .then(self.neg_event.total_cmp(&other.neg_event))
            .then(self.neg_created.total_cmp(&other.neg_created))
            .then_with(|| self.id.cmp(&other.id))
    }
}

/// Sort candidates by the stable key (final score desc, event time desc,
/// ingestion time desc, id asc; a stable sort, so full ties keep input order).
pub fn sort_candidates(candidates: &[Value]) -> Result<Vec<Value>> {
    let mut keyed = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| SortKey::of(c, &format!("/{i}")).map(|k| (k, c)))
        .collect::<Result<Vec<_>>>()?;
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(keyed.into_iter().map(|(_, c)| c.clone()).collect())
}

/// `record_ranking_stage` (spec `scoring-admission.md` §12.3) on a breakdown object: appends the
/// stage record and reason, sets `final_score`, returns the rounded output.
/// Non-object breakdowns are left alone.
pub fn record_ranking_stage(
    breakdown: Option<&mut Object>,
    stage: &str,
    input: &Value,
    output: &Value,
    details: &Object,
    reason: Option<&str>,
) -> f64 {
    let before = round6(input.clamp01());
    let after = round6(output.clamp01());
    let Some(b) = breakdown else { return after };
    let mut stages: Vec<Value> = match b.get("ranking_stages") {
        Some(Value::Array(items)) => items.iter().filter(|s| s.as_object().is_some()).cloned().collect(),
        _ => Vec::new(),
    };
    let mut record = Object::new();
    record.insert("stage", Value::str(stage));
    record.insert("input_score", Value::Float(before));
    record.insert("output_score", Value::Float(after));
    for (k, v) in details.iter() {
        record.insert(k.clone(), v.clone());
    }
    stages.push(Value::Object(record));
    let mut reasons: Vec<Value> = match b.get("reasons") {
        Some(Value::Array(items)) => items.clone(),
        _ => Vec::new(),
    };
    if let Some(r) = reason.filter(|r| !r.is_empty()) {
        reasons.push(Value::str(r));
    }
    b.insert("final_score", Value::Float(after));
    b.insert("ranking_stages", Value::Array(stages));
    b.insert("reasons", Value::Array(reasons));
    after
}

/// The recall blend (spec `ranking-receipts.md` §9.4) on a recall breakdown object: adds
/// `quality_score` (the scorer's final), sets `final_score` to
/// `round(0.8·clamp01(base) + 0.2·quality, 6)`, adds `ranking_weights`, and
/// (except on the keyed path) the blend reason. Returns the blended score.
pub fn blend_recall(breakdown: &mut Object, base_retrieval: f64, keyed_path: bool) -> f64 {
    let quality = breakdown.get("final_score").map(Value::clamp01).unwrap_or(0.0);
    let blended = round6(RANKING_WEIGHTS[0].1 * clamp01(base_retrieval) + RANKING_WEIGHTS[1].1 * quality);
    breakdown.insert("quality_score", Value::Float(quality));
    breakdown.insert("final_score", Value::Float(blended));
    let mut weights = Object::with_capacity(2);
    for (k, w) in RANKING_WEIGHTS {
        weights.push_unique(k, Value::Float(w));
    }
    breakdown.insert("ranking_weights", Value::Object(weights));
    if !keyed_path {
        if let Some(Value::Array(reasons)) = breakdown.get("reasons").cloned() {
            let mut reasons = reasons;
            reasons.push(Value::str(BLEND_REASON));
            breakdown.insert("reasons", Value::Array(reasons));
        }
    }
    blended
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rps(p: Value, t: Value, i: Value) -> f64 {
        rank_position_score(&p, &t, &i).unwrap()
    }

    #[test]
    fn py_int_decimal_of_bools_and_floats_is_py_int() {
        // py_int_decimal reads bools and floats under 1e18 without i128 (the
        // wasm carries no i128 printer): the same answer and errors as py_int.
        let mut values = vec![Value::Bool(true), Value::Bool(false), Value::Null, Value::Array(vec![])];
        for f in [0.0, -0.0, 0.5, -0.5, 2.9, -2.9, -1.0, 1e17 + 8.0, -9.999999999999998e17, f64::NAN, f64::INFINITY] {
            values.push(Value::Float(f));
        }
        for v in &values {
            let old = py_int(v, "/p").map(|i| (i < 0, i.unsigned_abs().to_string()));
            let new = py_int_decimal(v, "/p");
            assert_eq!(format!("{new:?}"), format!("{old:?}"), "{v:?}");
        }
    }

    #[test]
    fn rank_position_table() {
        assert_eq!(rps(Value::int(0), Value::int(3), Value::Float(0.9)), 0.8625);
        assert_eq!(rps(Value::int(2), Value::int(3), Value::Float(0.1)), 0.2625);
        assert_eq!(rps(Value::int(5), Value::int(3), Value::Float(1.0)), 0.375);
        assert_eq!(rps(Value::int(-1), Value::int(3), Value::int(0)), 0.75);
        assert_eq!(rps(Value::int(0), Value::int(0), Value::Float(0.5)), 0.625);
        assert_eq!(rps(Value::int(0), Value::int(127), Value::int(0)), 0.992188);
        assert_eq!(rps(Value::int(126), Value::int(127), Value::int(0)), 0.007812);
        assert_eq!(rps(Value::Float(2.9), Value::int(10), Value::str("x")), 0.727273);
        assert_eq!(rps(Value::Bool(true), Value::int(4), Value::Null), 0.6);
        assert_eq!(rps(Value::int(0), Value::int(200), Value::int(1)), 0.997512);
        assert_eq!(rps(Value::int(199), Value::int(200), Value::int(0)), 0.004975);
        assert_eq!(rps(Value::str(" 3 "), Value::str("1_0"), Value::str("0.5")), 0.659091);
        assert!(rank_position_score(&Value::str("2.5"), &Value::int(5), &Value::Null).is_err());
        assert!(rank_position_score(&Value::int(1), &Value::Null, &Value::Null).is_err());
        assert!(rank_position_score(&Value::Float(f64::NAN), &Value::int(5), &Value::Null).is_err());
    }

    #[test]
    fn stable_order_example() {
        let older = "2026-01-01T00:00:00Z";
        let newer = "2026-02-01T00:00:00Z";
        let cand = |id: &str, t: &str| {
            let mut o = Object::new();
            o.insert("id", Value::str(id));
            o.insert("event_time", Value::str(t));
            o.insert("created_at", Value::Null);
            o.insert("final_score", Value::Float(0.5));
            Value::Object(o)
        };
        let sorted = sort_candidates(&[cand("b", older), cand("z", newer), cand("a", older)]).unwrap();
        let ids: Vec<_> = sorted.iter().map(|c| c.get("id").and_then(Value::as_str).unwrap().to_string()).collect();
        assert_eq!(ids, ["z", "a", "b"]);
    }

    #[test]
    fn stage_record_rounds_and_gates() {
        let mut b = Object::new();
        b.insert("final_score", Value::Float(0.7));
        b.insert("ranking_stages", Value::Array(vec![Value::int(1)]));
        let after = record_ranking_stage(
            Some(&mut b),
            "mmr-rerank",
            &Value::Float(0.71234567),
            &Value::Float(f64::INFINITY),
            &Object::new(),
            Some("r"),
        );
        assert_eq!(after, 0.0);
        let stages = b.get("ranking_stages").and_then(Value::as_array).unwrap();
        assert_eq!(stages.len(), 1);
        assert_eq!(stages[0].get("input_score"), Some(&Value::Float(0.712346)));
    }
}
