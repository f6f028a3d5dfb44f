// Merge the native and Node benchmark outputs into one table.
//
//   node bench/report.mjs native.jsonl node.jsonl [--md] [--size "raw gzip brotli"]
//
// Every figure is a median over samples (see benches/native.rs and
// bench/node-bench.mjs); "cpu" is the median CPU time of the same samples
// (less disturbed by other load on the machine). Ratios are of medians.
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const md = args.includes("--md");
const files = args.filter((a) => !a.startsWith("--") && a.endsWith(".jsonl"));
const rows = files.flatMap((f) =>
  readFileSync(f, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l)),
);
const get = (side, kase) => rows.find((r) => r.side === side && r.case === kase);

const ms = (x) => (x == null || Number.isNaN(x) ? "–" : x >= 100 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(4));
const mbps = (r) => (r && r.bytes ? (r.bytes / 1e6 / (r.median_ms / 1e3)).toFixed(0) : "–");
const ratio = (a, b) => (a && b ? (a.median_ms / b.median_ms).toFixed(2) + "×" : "–");
const cpuRatio = (a, b) => (a && b && a.cpu_median_ms && b.cpu_median_ms ? (a.cpu_median_ms / b.cpu_median_ms).toFixed(2) + "×" : "–");

const table = [];
const head = ["case", "native ms", "wasm ms", "wasm/native", "(cpu ratio)", "MB/s native", "MB/s wasm"];
const add = (label, kase, nativeCase = kase) => {
  const n = get("native", nativeCase);
  const w = get("wasm", kase);
  if (!n && !w) return;
  table.push([label, ms(n?.median_ms), ms(w?.median_ms), ratio(w, n), cpuRatio(w, n), mbps(n), mbps(w)]);
};
add("recall batch, 1,600 candidates (JSONL → lines, one call)", "recall_batch_1600");
add("  … per-candidate scoreMemory(JSON text) → object", "recall_batch_1600_api_text", "recall_batch_1600");
add("  … per-candidate scoreMemory(JS object) → object", "recall_batch_1600_api_object", "recall_batch_1600");
add("  … scorer only (inputs pre-parsed)", "recall_batch_1600_core");
add("  … phase: parse 1,600 inputs", "recall_phase_parse");
add("  … phase: JSON → ScoreInput", "recall_phase_from_json");
add("  … phase: breakdown → JSON text", "recall_phase_output");
add("review queue, 500 items (JSONL → lines, one call)", "review_queue_500");
add("  … per-item rescoreReviewItem(JSON text) → object", "review_queue_500_api_text", "review_queue_500");
add("verify recall receipt, 10 results (wire text)", "verify_recall_receipt_10");
add("verify recall receipt, 200 results (wire text)", "verify_recall_receipt_200");
add("canonicalize + SHA-256, 10-result body", "canonicalize_hash_10");
add("canonicalize + SHA-256, 200-result body", "canonicalize_hash_200");

const hashHead = ["SHA-256", "native ms", "wasm ms", "node:crypto ms", "WebCrypto ms", "wasm/node:crypto", "wasm/WebCrypto", "MB/s wasm"];
const hashRows = [];
for (const size of [64, 1024, 65536, 1048576]) {
  const k = `sha256_${size}`;
  const [n, w, c, s] = ["native", "wasm", "node-crypto", "webcrypto"].map((side) => get(side, k));
  if (!w && !n) continue;
  const label = size >= 1048576 ? `${size / 1048576} MiB` : size >= 1024 ? `${size / 1024} KiB` : `${size} B`;
  hashRows.push([label, ms(n?.median_ms), ms(w?.median_ms), ms(c?.median_ms), ms(s?.median_ms), ratio(w, c), ratio(w, s), mbps(w)]);
}

const startHead = ["startup (fresh Node process)", "median ms", "p10", "p90", "load", "first call"];
const startRows = rows
  .filter((r) => r.side === "startup")
  .map((r) => [r.case, ms(r.median_ms), ms(r.p10_ms), ms(r.p90_ms), ms(r.load_median_ms), ms(r.first_call_median_ms)]);

// Targets (2-core machine): see the issue.
const targets = [];
const t = (name, ok, detail) => targets.push([name, ok == null ? "n/a" : ok ? "met" : "NOT met", detail]);
{
  const w = get("wasm", "recall_batch_1600");
  t("wasm scores the 1,600-candidate batch ≤ 15 ms", w && w.median_ms <= 15, w ? `${ms(w.median_ms)} ms` : "–");
  const n = get("native", "recall_batch_1600");
  const r = w && n ? w.median_ms / n.median_ms : null;
  t("native-vs-wasm ratio ≤ 1.5 (recall batch)", r == null ? null : r <= 1.5, r == null ? "–" : `${r.toFixed(2)}×`);
  const v = get("wasm", "verify_recall_receipt_200");
  t("verify a 200-result receipt from wire text ≤ 5 ms (wasm)", v && v.median_ms <= 5, v ? `${ms(v.median_ms)} ms` : "–");
  const c = get("wasm", "canonicalize_hash_200");
  const cm = c && c.bytes ? c.bytes / 1e6 / (c.median_ms / 1e3) : null;
  t("canonicalize + hash ≥ 100 MB/s (wasm, 200-result body)", cm == null ? null : cm >= 100, cm == null ? "–" : `${cm.toFixed(0)} MB/s`);
  const s = get("startup", "startup_cjs_require_first_call");
  t("instantiate + first scoreMemory ≤ 10 ms (Node)", s && s.median_ms <= 10, s ? `${ms(s.median_ms)} ms` : "–");
}

function print(headRow, body) {
  if (md) {
    console.log(`| ${headRow.join(" | ")} |`);
    console.log(`|${headRow.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`);
    for (const r of body) console.log(`| ${r.join(" | ")} |`);
  } else {
    const w = headRow.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)));
    const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(w[i]) : String(c).padStart(w[i]))).join("  ");
    console.log(line(headRow));
    console.log(w.map((n) => "-".repeat(n)).join("  "));
    for (const r of body) console.log(line(r));
  }
  console.log();
}

print(head, table);
if (hashRows.length) print(hashHead, hashRows);
if (startRows.length) print(startHead, startRows);
print(["target", "status", "measured"], targets);
