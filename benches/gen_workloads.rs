//! Write the benchmark workloads (`benches/workload.rs`) to disk for the
//! Node benchmark: `cargo run --release --example gen_workloads [OUT_DIR]`
//! (default `target/bench-data`).
//!
//! Files: `recall_batch.jsonl` (1,600 `score_memory` inputs, one JSON text
//! per line), `recall_batch_short.jsonl` (the same with short contents, a
//! sensitivity case), `review_queue.jsonl` (500 `rescore_review_item`
//! inputs), `recall_receipt_{10,200}.wire.json` (response bodies as sent,
//! pydantic float forms), `recall_receipt_{10,200}.receipt.json` (the bare
//! receipt as it appears in the body), `recall_receipt_{10,200}.given.json`,
//! `hash_{size}.bin`, and `manifest.json` with every file's SHA-256 and the seed.

#[path = "workload.rs"]
mod workload;

use std::fs;
use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let out = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data"));
    fs::create_dir_all(&out)?;

    let receipts = workload::recall_receipts();
    workload::self_check(&receipts);

    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let lines = |v: Vec<String>| {
        let mut s = v.join("\n");
        s.push('\n');
        s.into_bytes()
    };
    files.push(("recall_batch.jsonl".into(), lines(workload::recall_batch())));
    files.push(("recall_batch_short.jsonl".into(), lines(workload::recall_batch_short())));
    files.push(("review_queue.jsonl".into(), lines(workload::review_queue())));
    for (case, n) in receipts.iter().zip(workload::RECEIPT_SIZES) {
        files.push((format!("recall_receipt_{n}.wire.json"), case.wire.clone().into_bytes()));
        files.push((format!("recall_receipt_{n}.given.json"), case.given.clone().into_bytes()));
        files.push((format!("recall_receipt_{n}.receipt.json"), case.bare.clone().into_bytes()));
    }
    for size in workload::HASH_SIZES {
        files.push((format!("hash_{size}.bin"), workload::hash_input(size)));
    }

    let mut manifest = String::from("{\n");
    manifest.push_str(&format!("  \"seed\": \"{:#018x}\",\n", workload::SEED));
    manifest.push_str(&format!("  \"reference_time\": \"{}\",\n", workload::REFERENCE_TIME));
    manifest.push_str("  \"receipt_sha256\": {");
    for (i, (case, n)) in receipts.iter().zip(workload::RECEIPT_SIZES).enumerate() {
        manifest.push_str(&format!("{}\"{n}\": \"{}\"", if i > 0 { ", " } else { "" }, case.sha256));
    }
    manifest.push_str("},\n  \"files\": {\n");
    for (i, (name, bytes)) in files.iter().enumerate() {
        fs::write(out.join(name), bytes)?;
        manifest.push_str(&format!(
            "    \"{name}\": {{\"bytes\": {}, \"sha256\": \"{}\"}}{}\n",
            bytes.len(),
            workload::sha(bytes),
            if i + 1 < files.len() { "," } else { "" }
        ));
    }
    manifest.push_str("  }\n}\n");
    fs::write(out.join("manifest.json"), &manifest)?;
    eprintln!("wrote {} files to {}", files.len() + 1, out.display());
    for (name, bytes) in &files {
        eprintln!("  {name:<32} {:>10} B", bytes.len());
    }
    Ok(())
}
