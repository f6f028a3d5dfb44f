//! One-off commands: `score`, `verify`, `verify-pack`. This file only reads
//! files and flags; the command logic is `lians_score::cli`, shared with the
//! npm package's CLI.
//!
//! Inputs are files (or `-` for standard input) read as raw text, so number
//! lexemes and key order survive exactly as the wire carried them.

use std::io::{Read, Write};

use lians_score::cli::{self, Outcome};
use lians_score::json::{self, Value};

fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| format!("stdin: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
    }
}

fn emit(outcome: Outcome) -> Result<u8, String> {
    std::io::stdout().write_all(outcome.output.as_bytes()).map_err(|e| e.to_string())?;
    Ok(outcome.status)
}

struct Flags {
    positional: Vec<String>,
    /// `(key, JSON text)` pairs for `cli::options`; key `""` is a `--given` file.
    pairs: Vec<(String, String)>,
    kind: Option<String>,
    function: Option<String>,
}

/// Parse `--name value` flags: `strings` take a text value, `bools` none.
fn flags(args: &[String], strings: &[&str], bools: &[&str]) -> Result<Flags, String> {
    let mut f = Flags { positional: Vec::new(), pairs: Vec::new(), kind: None, function: None };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let Some(name) = a.strip_prefix("--") else {
            f.positional.push(a.clone());
            i += 1;
            continue;
        };
        let key = name.replace('-', "_");
        if bools.contains(&key.as_str()) {
            f.pairs.push((key, "true".into()));
        } else if strings.contains(&key.as_str()) || ["kind", "given", "fn"].contains(&key.as_str()) {
            let v = args.get(i + 1).ok_or_else(|| format!("--{name} needs a value"))?.clone();
            i += 1;
            match key.as_str() {
                "kind" => f.kind = Some(v),
                "fn" => f.function = Some(v),
                "given" => f.pairs.push((String::new(), read_input(&v)?)),
                _ => f.pairs.push((key, json::to_json_string(&Value::str(v)))),
            }
        } else {
            return Err(format!("unknown option --{name}"));
        }
        i += 1;
    }
    Ok(f)
}

fn options(f: &Flags) -> Result<Value, String> {
    cli::options(f.pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))).map_err(|e| e.to_string())
}

/// `score FILE|- [--fn NAME]`.
pub fn score(args: &[String]) -> Result<u8, String> {
    let f = flags(args, &[], &[])?;
    let [path] = f.positional.as_slice() else { return Err("usage: lians-score score FILE|- [--fn NAME]".into()) };
    let function = f.function.as_deref().unwrap_or("score_memory");
    emit(cli::score(&read_input(path)?, function, path).map_err(|e| e.message)?)
}

/// `verify FILE|- [--kind recall|context] [--query Q] [--expected-sha256 H]
/// [--context-text T] [--given GIVEN.json] [--privacy-minimal] [--include-canonical]`.
pub fn verify(args: &[String]) -> Result<u8, String> {
    let f = flags(args, &["query", "expected_sha256", "context_text"], &["include_canonical", "privacy_minimal"])?;
    let [path] = f.positional.as_slice() else {
        return Err("usage: lians-score verify FILE|- [--kind recall|context] [--query Q] [--expected-sha256 H] [--given GIVEN.json] [--privacy-minimal]".into());
    };
    let wire = read_input(path)?;
    emit(cli::verify(&wire, f.kind.as_deref(), &options(&f)?).map_err(|e| e.message)?)
}

/// `verify-pack FILE|- [--trusted-public-key B64] [--expected-key-id ID] [--allow-unsigned]`.
pub fn verify_pack(args: &[String]) -> Result<u8, String> {
    let f = flags(args, &["trusted_public_key", "expected_key_id"], &["allow_unsigned", "include_canonical"])?;
    let [path] = f.positional.as_slice() else {
        return Err("usage: lians-score verify-pack FILE|- [--trusted-public-key B64] [--expected-key-id ID] [--allow-unsigned]".into());
    };
    emit(cli::verify_pack(&read_input(path)?, &options(&f)?))
}
