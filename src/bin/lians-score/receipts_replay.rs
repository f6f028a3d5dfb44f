//! `verify-replay`: receipt conformance cases in, checker lines out.
//!
//! Each line of the case file is `{"id", "kind", "wire", "wire_repeat"?,
//! "given"?, ...}`; each output line is
//! `{"id","receipt_sha256","valid","failures","canonical"}`.

use std::io::{BufWriter, Write};

use lians_score::json;
use lians_score::receipt::replay::replay_case;

pub fn run(args: &[String]) -> Result<(), String> {
    let [path] = args else {
        return Err("usage: lians-score verify-replay CASES.jsonl".into());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let case = json::parse(line).map_err(|e| format!("{path}:{}: {}", n + 1, e))?;
        let row = replay_case(&case).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        writeln!(out, "{}", json::to_json_string(&row)).map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

