//! Command logic shared by the native CLI (`src/bin/lians-score`) and the
//! package's CLI (`js/cli.mjs` through `src/wasm/cli.rs`): pure functions
//! from input *texts* to output text and an exit status. Each front end only
//! reads files and flags, so both print the same bytes and exit the same way
//! by construction.

use crate::json::{self, Object, Value};
use crate::{api, Error, ErrorCode, Result};

/// Exit status: everything scored / verified valid.
pub const OK: u8 = 0;
/// Exit status: an input failed to score, or a verification found failures.
pub const INVALID: u8 = 1;

/// A command's output lines (each ending in `\n`) and its exit status.
pub struct Outcome {
    pub output: String,
    pub status: u8,
}

fn usage(message: String) -> Error {
    Error::new(ErrorCode::InvalidValue, "", message)
}

/// An `{"error", "message", "path"}` line for an input that could not be processed.
pub fn error_value(e: &Error) -> Value {
    let mut o = Object::new();
    o.push_unique("error", Value::str(e.code.as_str()));
    o.push_unique("message", Value::str(e.message.as_str()));
    o.push_unique("path", Value::str(e.path.as_str()));
    Value::Object(o)
}

/// `score`: `text` is one JSON document (an object, or an array of inputs)
/// or JSON Lines; `function` names the API function (`score_memory`,
/// `evaluate`, `tokenize_for_scoring`, `detect_risk_tags`,
/// `rescore_review_item`, `sort_candidates`). One output line per input; an
/// input that fails gives an error line and exit status [`INVALID`]. A JSONL
/// line that is not JSON is a usage-level error (`label` names the input).
pub fn score(text: &str, function: &str, label: &str) -> Result<Outcome> {
    let call: fn(&Value) -> Result<Value> = match function {
        "score_memory" => api::score_memory,
        "evaluate" => api::evaluate_admission,
        "tokenize_for_scoring" => api::tokenize_for_scoring,
        "detect_risk_tags" => api::detect_risk_tags,
        "rescore_review_item" => api::rescore_review_item,
        "sort_candidates" => api::sort_candidates,
        other => return Err(usage(format!("unknown function {other:?}"))),
    };
    let inputs: Vec<Value> = match json::parse(text) {
        Ok(Value::Array(items)) if function != "sort_candidates" => items,
        Ok(one) => vec![one],
        Err(whole) => {
            let mut items = Vec::new();
            for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let item = json::parse(line).map_err(|e| usage(format!("{label}: {whole}; as JSONL, line {}: {e}", n + 1)))?;
                items.push(item);
            }
            items
        }
    };
    if function == "score_memory" {
        // The batch scorer: the same lines, the query tokenized once per distinct query.
        let (mut output, mut status) = (String::new(), OK);
        for chunk in inputs.chunks(crate::limits::MAX_ARRAY_ITEMS) {
            let batch = crate::batch::score_candidates(&Value::Null, chunk)?;
            if batch.errors() > 0 {
                status = INVALID;
            }
            output.push_str(&batch.to_jsonl());
        }
        return Ok(Outcome { output, status });
    }
    let mut status = OK;
    let mut output = String::new();
    for input in &inputs {
        let out = call(input).unwrap_or_else(|e| {
            status = INVALID;
            error_value(&e)
        });
        output.push_str(&json::to_json_string(&out));
        output.push('\n');
    }
    Ok(Outcome { output, status })
}

/// Build a `given`/`options` object from `(key, JSON text)` pairs; the key
/// `""` merges the members of a `--given FILE` object in order.
pub fn options<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Value> {
    let mut o = Object::new();
    for (key, value) in pairs {
        let parsed = json::parse(value)?;
        if key.is_empty() {
            let Value::Object(g) = parsed else { return Err(usage("--given must be a JSON object".into())) };
            for (k, v) in g.iter() {
                o.insert(k.clone(), v.clone());
            }
        } else {
            o.insert(key, parsed);
        }
    }
    Ok(Value::Object(o))
}


/// Which receipt a wire text holds: a `lians.context-receipt*` schema (of
/// the body's `receipt`, or of a bare receipt) is context; anything else recall.
pub fn detect_kind(wire: &str) -> &'static str {
    let parsed = json::parse(wire).ok();
    let schema = parsed
        .as_ref()
        .and_then(|v| v.get("receipt").or(Some(v)))
        .and_then(|r| r.get("schema"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if schema.starts_with("lians.context-receipt") {
        "context"
    } else {
        "recall"
    }
}

/// `verify`: `kind` is `recall`, `context`, or `None` to detect it.
///
/// Goes through [`api`], so the CLIs apply exactly the input caps of the JS
/// API ([`crate::limits`]): an over-cap wire or `given` prints an
/// `{"error": "too_large", ...}` line and exits [`INVALID`].
pub fn verify(wire: &str, kind: Option<&str>, given: &Value) -> Result<Outcome> {
    // Caps first: detecting the kind parses the wire.
    if let Err(e) = crate::limits::check_text(wire, "the response") {
        return Ok(error_outcome(&e));
    }
    let kind = kind.unwrap_or_else(|| detect_kind(wire));
    let result = match kind {
        "recall" => api::verify_recall_receipt(wire, given),
        "context" => api::verify_context_receipt(wire, given),
        other => return Err(usage(format!("--kind must be recall or context, not {other:?}"))),
    };
    Ok(match result {
        Ok(v) => report_value(v),
        Err(e) => error_outcome(&e),
    })
}

/// `verify-pack` (through [`api`], with its input caps).
pub fn verify_pack(wire: &str, options: &Value) -> Outcome {
    match api::verify_evidence_pack(wire, options) {
        Ok(v) => report_value(v),
        Err(e) => error_outcome(&e),
    }
}

fn error_outcome(e: &Error) -> Outcome {
    Outcome { output: format!("{}\n", json::to_json_string(&error_value(e))), status: INVALID }
}

fn report_value(v: Value) -> Outcome {
    let valid = matches!(v.get("valid"), Some(Value::Bool(true)));
    Outcome { output: format!("{}\n", json::to_json_string(&v)), status: if valid { OK } else { INVALID } }
}

/// `audit`: one JSON report line; status [`OK`] when consistent, [`INVALID`]
/// on any finding, and also [`INVALID`] with an `{"error",...}` line when the
/// body cannot be audited (as `score` does for an input that fails).
pub fn audit(wire: &str, query: Option<&str>) -> Outcome {
    let mut options = Object::new();
    if let Some(q) = query {
        options.push_unique("query", Value::str(q));
    }
    match api::audit_recall(wire, &Value::Object(options)) {
        Ok(report) => {
            let consistent = report.get("consistent") == Some(&Value::Bool(true));
            Outcome {
                output: format!("{}\n", json::to_json_string(&report)),
                status: if consistent { OK } else { INVALID },
            }
        }
        Err(e) => Outcome { output: format!("{}\n", json::to_json_string(&error_value(&e))), status: INVALID },
    }
}
