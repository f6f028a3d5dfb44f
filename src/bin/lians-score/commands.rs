//! One-off commands: `score`, `verify`, `verify-pack`.
//!
//! Inputs are files (or `-` for standard input) read as raw text, so number
//! lexemes and key order survive exactly as the wire carried them.

use std::io::Read;

use lians_score::json::{self, Object, Value};
use lians_score::{api, receipt};

/// Exit status for a verification that ran but found failures.
pub const INVALID: u8 = 1;

fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| format!("stdin: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
    }
}

/// `score FILE|-`: a JSON object (one input), a JSON array of inputs, or
/// JSONL; prints one breakdown (or `{"error":...}`) per input, one per line.
pub fn score(args: &[String]) -> Result<u8, String> {
    let [path] = args else { return Err("usage: lians-score score FILE|-".into()) };
    let text = read_input(path)?;
    let inputs: Vec<Value> = match json::parse(&text) {
        Ok(Value::Array(items)) => items,
        Ok(one) => vec![one],
        Err(whole) => {
            // Not one JSON document: try JSON Lines.
            let mut items = Vec::new();
            for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                items.push(json::parse(line).map_err(|e| format!("{path}: {whole}; as JSONL, line {}: {e}", n + 1))?);
            }
            items
        }
    };
    let mut status = 0;
    for input in &inputs {
        let out = api::score_memory(input).unwrap_or_else(|e| {
            status = INVALID;
            error_value(&e)
        });
        println!("{}", json::to_json_string(&out));
    }
    Ok(status)
}

fn error_value(e: &lians_score::Error) -> Value {
    let mut o = Object::new();
    o.push_unique("error", Value::str(e.code.as_str()));
    o.push_unique("message", Value::str(e.message.as_str()));
    o.push_unique("path", Value::str(e.path.as_str()));
    Value::Object(o)
}

struct Flags {
    positional: Vec<String>,
    options: Object,
    kind: Option<String>,
}

/// Parse `--name value` pairs into a `given`/`options` object.
fn flags(args: &[String], strings: &[&str], bools: &[&str]) -> Result<Flags, String> {
    let mut f = Flags { positional: Vec::new(), options: Object::new(), kind: None };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if let Some(name) = a.strip_prefix("--") {
            let key = name.replace('-', "_");
            if bools.contains(&key.as_str()) {
                f.options.insert(key.as_str(), Value::Bool(true));
            } else if strings.contains(&key.as_str()) || key == "kind" || key == "given" {
                let v = args.get(i + 1).ok_or_else(|| format!("--{name} needs a value"))?;
                i += 1;
                match key.as_str() {
                    "kind" => f.kind = Some(v.clone()),
                    "given" => {
                        let given = json::parse(&read_input(v)?).map_err(|e| format!("{v}: {e}"))?;
                        let Value::Object(g) = given else { return Err(format!("{v}: --given must be a JSON object")) };
                        for (k, val) in g.iter() {
                            f.options.insert(k.clone(), val.clone());
                        }
                    }
                    _ => f.options.insert(key.as_str(), Value::str(v.as_str())),
                }
            } else {
                return Err(format!("unknown option --{name}"));
            }
        } else {
            f.positional.push(a.clone());
        }
        i += 1;
    }
    Ok(f)
}

fn print_report(report: &receipt::Report) -> u8 {
    println!("{}", json::to_json_string(&report.to_json()));
    if report.valid {
        0
    } else {
        INVALID
    }
}

/// `verify FILE|- [--kind recall|context] [--query Q] [--expected-sha256 H]
/// [--context-text T] [--given GIVEN.json] [--include-canonical]`.
pub fn verify(args: &[String]) -> Result<u8, String> {
    let f = flags(args, &["query", "expected_sha256", "context_text"], &["include_canonical"])?;
    let [path] = f.positional.as_slice() else {
        return Err("usage: lians-score verify FILE|- [--kind recall|context] [--query Q] [--expected-sha256 H] [--given GIVEN.json]".into());
    };
    let wire = read_input(path)?;
    let kind = match f.kind.as_deref() {
        Some(k) => k.to_string(),
        None => detect_kind(&wire),
    };
    let given = Value::Object(f.options);
    let report = match kind.as_str() {
        "recall" => receipt::verify_recall_receipt(&wire, &given),
        "context" => receipt::verify_context_receipt(&wire, &given),
        other => return Err(format!("--kind must be recall or context, not {other:?}")),
    };
    Ok(print_report(&report))
}

/// A context response or receipt names `lians.context-receipt.v2`; anything else is treated as recall.
fn detect_kind(wire: &str) -> String {
    let parsed = json::parse(wire).ok();
    let schema = parsed
        .as_ref()
        .and_then(|v| v.get("receipt").or(Some(v)))
        .and_then(|r| r.get("schema"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if schema.starts_with("lians.context-receipt") { "context" } else { "recall" }.to_string()
}

/// `verify-pack FILE|- [--trusted-public-key B64] [--expected-key-id ID] [--allow-unsigned]`.
pub fn verify_pack(args: &[String]) -> Result<u8, String> {
    let f = flags(args, &["trusted_public_key", "expected_key_id"], &["allow_unsigned", "include_canonical"])?;
    let [path] = f.positional.as_slice() else {
        return Err("usage: lians-score verify-pack FILE|- [--trusted-public-key B64] [--expected-key-id ID] [--allow-unsigned]".into());
    };
    let wire = read_input(path)?;
    Ok(print_report(&receipt::verify_evidence_pack(&wire, &Value::Object(f.options))))
}
