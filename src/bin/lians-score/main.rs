//! Native command-line front end: conformance replays and one-off scoring/verification.

mod commands;
mod receipts_replay;
mod scoring_replay;

use std::process::ExitCode;

const USAGE: &str = "usage: lians-score <command> [args]

commands:
  replay FILE.jsonl          replay scoring vectors; prints {\"id\",\"actual\"} lines
  verify-replay FILE.jsonl   replay receipt cases; prints checker result lines
  score FILE|- [--fn NAME]   score a JSON object, array or JSONL of score_memory inputs
                             (or evaluate, tokenize_for_scoring, detect_risk_tags, ...)
  verify FILE|- [--kind recall|context] [--query Q] [--expected-sha256 H]
                [--context-text T] [--given GIVEN.json] [--privacy-minimal] [--include-canonical]
                             verify a recall/context response body or bare receipt
  verify-pack FILE|- [--trusted-public-key B64] [--expected-key-id ID] [--allow-unsigned]
                             verify an Evidence Pack v2

exit status: 0 ok/valid, 1 invalid input or failed verification, 2 usage error
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("replay") => scoring_replay::run(&args[1..]),
        Some("verify-replay") => receipts_replay::run(&args[1..]),
        Some("score") => finish(commands::score(&args[1..])),
        Some("verify") => finish(commands::verify(&args[1..])),
        Some("verify-pack") => finish(commands::verify_pack(&args[1..])),
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
            ExitCode::from(2)
        }
    }
}

/// Commands that report validity through their exit status.
fn finish(result: Result<u8, String>) -> Result<(), String> {
    match result? {
        0 => Ok(()),
        code => std::process::exit(code as i32),
    }
}
