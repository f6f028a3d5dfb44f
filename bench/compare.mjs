// Before/after table from two benchmark runs (JSON lines of benches/native.rs
// and bench/node-bench.mjs):
//
//   node bench/compare.mjs BEFORE_native.jsonl BEFORE_node.jsonl AFTER_native.jsonl AFTER_node.jsonl [--md]
//
// Medians in ms; "×" is before / after (higher is better).
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const md = args.includes("--md");
const [bn, bw, an, aw] = args.filter((a) => !a.startsWith("--"));
const load = (f) =>
  readFileSync(f, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
const before = [...load(bn), ...load(bw)];
const after = [...load(an), ...load(aw)];
const get = (rows, side, kase) => rows.find((r) => r.side === side && r.case === kase);
const ms = (x) => (x == null ? "–" : x >= 100 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(4));
const speedup = (b, a) => (b && a ? (b.median_ms / a.median_ms).toFixed(2) + "×" : "–");

const cases = [
  ["recall batch, 1,600 candidates", "recall_batch_1600"],
  ["  … scoreMemory(JSON text) per candidate", "recall_batch_1600_api_text"],
  ["  … scoreMemory(JS object) per candidate", "recall_batch_1600_api_object"],
  ["  … scorer only (pre-parsed)", "recall_batch_1600_core"],
  ["  … short contents (sensitivity)", "recall_batch_1600_short"],
  ["review queue, 500 items", "review_queue_500"],
  ["  … rescoreReviewItem(JSON text) per item", "review_queue_500_api_text"],
  ["verify receipt, 10 results", "verify_recall_receipt_10"],
  ["verify receipt, 200 results", "verify_recall_receipt_200"],
  ["bare receipt hash, 200 results (one call)", "receipt_hash_200"],
  ["canonicalJson + sha256Hex, 200-result body", "canonicalize_hash_200"],
  ["SHA-256, 64 KiB", "sha256_65536"],
  ["SHA-256, 1 MiB", "sha256_1048576"],
  ["startup: require + first scoreMemory", "startup_cjs_require_first_call"],
];
const head = ["case", "native before", "native after", "native ×", "wasm before", "wasm after", "wasm ×"];
const body = cases.map(([label, k]) => {
  const side = k.startsWith("startup") ? "startup" : "wasm";
  const [nb, na, wb, wa] = [get(before, "native", k), get(after, "native", k), get(before, side, k), get(after, side, k)];
  return [label, ms(nb?.median_ms), ms(na?.median_ms), speedup(nb, na), ms(wb?.median_ms), ms(wa?.median_ms), speedup(wb, wa)];
});
if (md) {
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map((_, i) => (i ? "---:" : "---")).join("|")}|`);
  for (const r of body) console.log(`| ${r.join(" | ")} |`);
} else {
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => (i ? String(c).padStart(w[i]) : String(c).padEnd(w[i]))).join("  ");
  console.log(line(head));
  for (const r of body) console.log(line(r));
}
