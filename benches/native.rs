//! Native benchmarks over the shared workloads (`benches/workload.rs`).
//!
//! `cargo bench --bench native` (harness = false: no criterion, no extra
//! dependencies, so `cargo test` compile time is unchanged). Each case is
//! timed as whole batches: warm up, then take samples until both a minimum
//! count and a minimum wall time are reached, and report the **median** (with
//! p10/p90). Tiny operations repeat inside one sample so that a sample lasts
//! at least ~2 ms. The same protocol is implemented in `bench/node-bench.mjs`.
//!
//! Output: one JSON object per case on stdout (`{"case","median_ms",...}`),
//! a readable table on stderr. `scripts/bench.sh` merges both sides.
//!
//! Options (env): `BENCH_QUICK=1` fewer samples; `BENCH_FILTER=substr` only
//! matching cases.

#[path = "clock.rs"]
mod clock;
#[path = "workload.rs"]
mod workload;

use std::hint::black_box;
use std::time::{Duration, Instant};

use clock::{percentile, thread_cpu_ms};

use lians_score::json;
use lians_score::scoring::{self, ScoreInput};
use lians_score::{api, receipt};

struct Stats {
    median: f64,
    p10: f64,
    p90: f64,
    cpu_median: f64,
    samples: usize,
}

/// Time `f` (one unit of work per call). Returns per-call milliseconds.
fn measure(mut f: impl FnMut()) -> Stats {
    let quick = std::env::var("BENCH_QUICK").is_ok();
    let (min_samples, min_time) =
        if quick { (7, Duration::from_millis(300)) } else { (21, Duration::from_millis(1500)) };
    // Calibrate the inner repeat count so one sample lasts >= 2 ms.
    let t = Instant::now();
    f();
    let once = t.elapsed().as_secs_f64().max(1e-9);
    let reps = ((0.002 / once).ceil() as usize).clamp(1, 1_000_000);
    // Warm-up: ~10 % of the budget.
    let warm = Instant::now();
    while warm.elapsed() < min_time / 10 {
        for _ in 0..reps {
            f();
        }
    }
    let mut samples = Vec::new();
    let mut cpu = Vec::new();
    let start = Instant::now();
    while samples.len() < min_samples || (start.elapsed() < min_time && samples.len() < 1000) {
        let c = thread_cpu_ms();
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        samples.push(t.elapsed().as_secs_f64() * 1e3 / reps as f64);
        cpu.push((thread_cpu_ms() - c) / reps as f64);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    cpu.sort_by(|a, b| a.total_cmp(b));
    Stats {
        median: percentile(&samples, 0.5),
        p10: percentile(&samples, 0.1),
        p90: percentile(&samples, 0.9),
        cpu_median: percentile(&cpu, 0.5),
        samples: samples.len(),
    }
}

fn report(case: &str, bytes: Option<usize>, items: Option<usize>, s: &Stats) {
    let mbps = bytes.map(|b| b as f64 / 1e6 / (s.median / 1e3));
    println!(
        "{{\"side\":\"native\",\"case\":\"{case}\",\"median_ms\":{:.6},\"p10_ms\":{:.6},\"p90_ms\":{:.6},\"cpu_median_ms\":{},\"samples\":{}{}{}}}",
        s.median,
        s.p10,
        s.p90,
        if s.cpu_median.is_finite() { format!("{:.6}", s.cpu_median) } else { "null".into() },
        s.samples,
        bytes.map(|b| format!(",\"bytes\":{b}")).unwrap_or_default(),
        items.map(|n| format!(",\"items\":{n}")).unwrap_or_default(),
    );
    eprintln!(
        "native {case:<45} median {:>10.4} ms  (p10 {:>9.4}, p90 {:>9.4}, cpu {:>9.4}, n={:>3}){}",
        s.median,
        s.p10,
        s.p90,
        s.cpu_median,
        s.samples,
        mbps.map(|m| format!("  {m:.1} MB/s")).unwrap_or_default()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; ignore all arguments.
    let filter = std::env::var("BENCH_FILTER").unwrap_or_default();
    let want = |case: &str| filter.is_empty() || case.contains(&filter);
    // Is any case of a group selected?
    let needs = |cases: &[&str]| cases.iter().any(|c| want(c));

    // Generate only what the selected cases need (the review queue and the
    // receipts take a while to build).
    let recall = if needs(&[
        "recall_batch_1600",
        "recall_batch_1600_core",
        "recall_phase_parse",
        "recall_phase_from_json",
        "recall_phase_output",
    ]) {
        workload::recall_batch()
    } else {
        Vec::new()
    };
    let recall_short = if needs(&["recall_batch_1600_short"]) { workload::recall_batch_short() } else { Vec::new() };
    let review = if needs(&["review_queue_500"]) { workload::review_queue() } else { Vec::new() };
    let receipts = if needs(&[
        "verify_recall_receipt_10",
        "verify_recall_receipt_200",
        "canonicalize_hash_10",
        "canonicalize_hash_200",
        "receipt_hash_10",
        "receipt_hash_200",
    ]) {
        let r = workload::recall_receipts();
        workload::self_check(&r);
        r
    } else {
        Vec::new()
    };
    eprintln!(
        "workloads: recall {} candidates ({} B of JSON), review {} items ({} B), receipts {:?} B",
        recall.len(),
        recall.iter().map(String::len).sum::<usize>(),
        review.len(),
        review.iter().map(String::len).sum::<usize>(),
        receipts.iter().map(|r| r.wire.len()).collect::<Vec<_>>()
    );

    // Recall batch through the JSON façade, the same work as the wasm
    // `cliScore` helper does for a JSONL batch: parse each line, score,
    // append the compact JSON output line.
    if want("recall_batch_1600") && !filter.ends_with("_core") && !recall.is_empty() {
        let s = measure(|| {
            let mut output = String::new();
            for text in &recall {
                let input = json::parse(text).expect("input");
                let out = api::score_memory(&input).expect("score");
                output.push_str(&json::to_json_string(&out));
                output.push('\n');
            }
            black_box(output);
        });
        report("recall_batch_1600", None, Some(recall.len()), &s);
    }
    // Sensitivity: the same batch with short contents only.
    if want("recall_batch_1600_short") && !recall_short.is_empty() {
        let s = measure(|| {
            let mut output = String::new();
            for text in &recall_short {
                let input = json::parse(text).expect("input");
                let out = api::score_memory(&input).expect("score");
                output.push_str(&json::to_json_string(&out));
                output.push('\n');
            }
            black_box(output);
        });
        report("recall_batch_1600_short", None, Some(recall_short.len()), &s);
    }
    // The scorer alone (inputs pre-parsed, no JSON output).
    if want("recall_batch_1600_core") {
        let inputs: Vec<ScoreInput> =
            recall.iter().map(|t| ScoreInput::from_json(&json::parse(t).expect("input")).expect("valid")).collect();
        let s = measure(|| {
            for input in &inputs {
                black_box(scoring::score_memory(input));
            }
        });
        report("recall_batch_1600_core", None, Some(inputs.len()), &s);
    }
    // Where the façade's time goes: parsing the inputs, reading them into
    // `ScoreInput` (copies), and building + printing the output objects.
    if want("recall_phase_parse") && !recall.is_empty() {
        let s = measure(|| {
            for text in &recall {
                black_box(json::parse(text).expect("input"));
            }
        });
        report("recall_phase_parse", None, Some(recall.len()), &s);
    }
    if want("recall_phase_from_json") && !recall.is_empty() {
        let values: Vec<json::Value> = recall.iter().map(|t| json::parse(t).expect("input")).collect();
        let s = measure(|| {
            for v in &values {
                black_box(ScoreInput::from_json(v).expect("valid"));
            }
        });
        report("recall_phase_from_json", None, Some(values.len()), &s);
    }
    if want("recall_phase_output") && !recall.is_empty() {
        let outs: Vec<scoring::Scored> = recall
            .iter()
            .map(|t| scoring::score_memory(&ScoreInput::from_json(&json::parse(t).expect("input")).expect("valid")))
            .collect();
        let s = measure(|| {
            for b in &outs {
                black_box(json::to_json_string(&b.to_json()));
            }
        });
        report("recall_phase_output", None, Some(outs.len()), &s);
    }
    if want("review_queue_500") {
        let s = measure(|| {
            let mut output = String::new();
            for text in &review {
                let item = json::parse(text).expect("item");
                let out = api::rescore_review_item(&item).expect("rescore");
                output.push_str(&json::to_json_string(&out));
                output.push('\n');
            }
            black_box(output);
        });
        report("review_queue_500", None, Some(review.len()), &s);
    }
    for (case, n) in receipts.iter().zip(workload::RECEIPT_SIZES) {
        let case: &workload::ReceiptCase = case;
        let name = format!("verify_recall_receipt_{n}");
        if want(&name) {
            // `given` is parsed inside the timing, as the wasm call does with its JSON text.
            let s = measure(|| {
                let given = json::parse(&case.given).expect("given");
                let r = receipt::verify_recall_receipt(&case.wire, &given);
                debug_assert!(r.valid);
                black_box(r.to_json());
            });
            report(&name, Some(case.wire.len()), Some(n), &s);
        }
        // The bare receipt in one call: parse, canonicalize, hash, structural checks.
        let name = format!("receipt_hash_{n}");
        if want(&name) {
            let s = measure(|| {
                let r = receipt::verify_recall_receipt(&case.bare, &json::Value::Null);
                debug_assert!(r.valid);
                black_box(r.to_json());
            });
            report(&name, Some(case.bare.len()), None, &s);
        }
        let name = format!("canonicalize_hash_{n}");
        if want(&name) {
            let s = measure(|| {
                black_box(receipt::canonicalize(&case.wire).expect("canonical"));
            });
            report(&name, Some(case.wire.len()), None, &s);
        }
    }
    for size in workload::HASH_SIZES {
        let name = format!("sha256_{size}");
        if want(&name) {
            let data = workload::hash_input(size);
            let s = measure(|| {
                black_box(receipt::sha256_hex(black_box(&data)));
            });
            report(&name, Some(size), None, &s);
        }
    }
}
