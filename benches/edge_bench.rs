//! Native side of `scripts/bench-edge.sh` (issue #15's side-by-side numbers).
//!
//! `cargo run --release --example edge_bench -- BATCH.jsonl BODY.json QUERY`
//!
//! Prints one JSON object per case on stdout (`{"side":"native","case",
//! "median_ms","cpu_median_ms","samples"}`); `bench/edge-bench.mjs` times the
//! same cases in wasm and `bench/edge-report.mjs` puts them beside the
//! reference. Every case works from text already in memory, as the wasm
//! side does (the reference is handed parsed Python objects).

use std::time::Instant;

#[path = "clock.rs"]
mod clock;
use clock::{median, thread_cpu_ms};

use lians_score::api;
use lians_score::json::{self, Value};

/// Warm up, then at least `min` samples and 1 s; median wall and CPU ms.
fn time(case: &str, bytes: usize, min: usize, mut f: impl FnMut()) {
    for _ in 0..3 {
        f();
    }
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    let start = Instant::now();
    while wall.len() < min || (start.elapsed().as_secs_f64() < 1.0 && wall.len() < 500) {
        let c = thread_cpu_ms();
        let t = Instant::now();
        f();
        wall.push(t.elapsed().as_secs_f64() * 1e3);
        cpu.push(thread_cpu_ms() - c);
    }
    let n = wall.len();
    let (w, c) = (median(wall), median(cpu));
    println!(
        "{{\"side\":\"native\",\"case\":\"{case}\",\"median_ms\":{w:.6},\"cpu_median_ms\":{c:.6},\"samples\":{n},\"bytes\":{bytes}}}"
    );
    eprintln!("native {case:<28} {w:>9.3} ms (cpu {c:>8.3}, n={n})");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [batch_path, body_path, query] = &args[..] else {
        eprintln!("usage: edge_bench BATCH.jsonl BODY.json QUERY");
        std::process::exit(2);
    };
    let batch_text = std::fs::read_to_string(batch_path).expect("read the batch");
    let body = std::fs::read_to_string(body_path).expect("read the body");
    if std::env::var("EDGE_ONCE").is_ok() {
        // One call of each, for instruction-count profiles (valgrind --tool=callgrind).
        let b = api::score_candidates_text(&Value::Null, &batch_text).expect("batch");
        std::hint::black_box(b.write_compact());
        let mut given = json::Object::new();
        given.push_unique("query", Value::str(query.as_str()));
        std::hint::black_box(api::verify_recall_receipt(&body, &Value::Object(given)).expect("verify"));
        return;
    }

    time("batch_scoreCandidates", batch_text.len(), 15, || {
        let b = api::score_candidates_text(&Value::Null, &batch_text).expect("batch");
        assert_eq!(b.errors(), 0);
        std::hint::black_box(b.write_compact());
    });
    time("batch_per_candidate", batch_text.len(), 7, || {
        for line in batch_text.lines() {
            let v = json::parse(line).expect("json");
            std::hint::black_box(json::to_json_string(&api::score_memory(&v).expect("score")));
        }
    });
    let mut given = json::Object::new();
    given.push_unique("query", Value::str(query.as_str()));
    let given = Value::Object(given);
    time("verify_200", body.len(), 31, || {
        let report = api::verify_recall_receipt(&body, &given).expect("verify");
        assert_eq!(report.get("valid"), Some(&Value::Bool(true)), "the body must verify");
        std::hint::black_box(report);
    });
}
