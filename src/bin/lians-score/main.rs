//! Native command-line front end. The grammar and the commands are
//! `lians_score::cli` (shared with the npm package's `js/cli.mjs`); this
//! file only reads files (raw bytes; `-` is standard input) and writes what
//! the command returns.

use std::io::{Read, Write};
use std::process::ExitCode;

fn read(path: &str) -> Result<Vec<u8>, String> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("stdin: {e}"))?;
        Ok(bytes)
    } else {
        std::fs::read(path).map_err(|e| format!("{path}: {e}"))
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run = lians_score::cli::run(&args, &mut read);
    // A closed stdout (`| head`) is not an error worth reporting.
    let _ = std::io::stdout().write_all(run.stdout.as_bytes()).and_then(|()| std::io::stdout().flush());
    let _ = std::io::stderr().write_all(run.stderr.as_bytes());
    ExitCode::from(run.status)
}
