//! One `scoreCandidates` call over a JSON Lines file, for instruction-count
//! profiles: `valgrind --tool=callgrind target/release/examples/batch_once BATCH.jsonl [N]`.
use lians_score::api;
use lians_score::json::Value;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: batch_once BATCH.jsonl [REPEAT]");
    let repeat: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(path).expect("read the batch");
    for _ in 0..repeat {
        let b = api::score_candidates_text(&Value::Null, &text).expect("batch");
        assert_eq!(b.errors(), 0);
        std::hint::black_box(b.write_compact());
    }
}
