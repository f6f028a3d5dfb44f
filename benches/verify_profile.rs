//! One verification (or `N`), for instruction-count profiles:
//! `valgrind --tool=callgrind target/release/examples/verify_profile BODY.json QUERY [N] [canon RECEIPT.json | sha]`.
//!
//! Prints the report's `receipt_sha256` and `valid` so a run doubles as a smoke test.

use lians_score::json::{self, Value};
use lians_score::{api, receipt};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(body_path), Some(query)) = (args.first(), args.get(1)) else {
        eprintln!("usage: verify_profile BODY.json QUERY [N] [canon RECEIPT.json]");
        std::process::exit(2);
    };
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let body = std::fs::read_to_string(body_path).expect("read the body");
    let mut given = json::Object::new();
    given.push_unique("query", Value::str(query.as_str()));
    let given = Value::Object(given);
    if args.get(3).map(String::as_str) == Some("sha") {
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(lians_score::hash::sha256_hex(body.as_bytes()));
        }
        let s = t.elapsed().as_secs_f64() / n as f64;
        println!("sha256 of {} bytes: {:.3} ms, {:.0} MB/s", body.len(), s * 1e3, body.len() as f64 / s / 1e6);
        return;
    }
    if args.get(3).map(String::as_str) == Some("canon") {
        let receipt = std::fs::read_to_string(&args[4]).expect("read the receipt");
        for _ in 0..n {
            let (_, sha) = receipt::canonicalize(&receipt).expect("canonicalize");
            std::hint::black_box(sha);
        }
    }
    let mut last = Value::Null;
    for _ in 0..n {
        last = api::verify_recall_receipt(&body, &given).expect("verify");
    }
    if std::env::var_os("VP_DUMP").is_some() {
        println!("{}", json::to_json_string(&last));
    } else {
        let field = |k: &str| last.get(k).map(json::to_json_string).unwrap_or_default();
        println!("{} {}", field("receipt_sha256"), field("valid"));
    }
}
