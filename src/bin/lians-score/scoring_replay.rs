//! `replay FILE.jsonl`: scoring vectors in, `{"id","actual"}` checker lines out.

use std::io::{BufRead, BufReader, BufWriter, Write};

pub fn run(args: &[String]) -> Result<(), String> {
    if args.is_empty() {
        return Err("replay needs at least one vector file (FILE.jsonl)".into());
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for path in args {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for (n, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{path}:{}: {e}", n + 1))?;
            if line.trim().is_empty() {
                continue;
            }
            writeln!(out, "{}", lians_score::replay::scoring_line(&line)).map_err(|e| e.to_string())?;
        }
    }
    out.flush().map_err(|e| e.to_string())
}
