//! Native command-line front end: conformance replays and one-off scoring/verification.

mod receipts_replay;
mod scoring_replay;

use std::process::ExitCode;

const USAGE: &str = "usage: lians-score <command> [args]

commands:
  replay FILE.jsonl          replay scoring vectors; prints {\"id\",\"actual\"} lines
  verify-replay FILE.jsonl   replay receipt cases; prints checker result lines
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("replay") => scoring_replay::run(&args[1..]),
        Some("verify-replay") => receipts_replay::run(&args[1..]),
        Some("-h") | Some("--help") | Some("help") => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("lians-score: {message}");
            ExitCode::from(1)
        }
    }
}
