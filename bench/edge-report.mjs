// Table for scripts/bench-edge.sh: reference, native and wasm side by side, ratios, issue #15 targets.
//   node bench/edge-report.mjs reference.jsonl native.jsonl wasm.jsonl [--md]
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const md = args.includes("--md");
const rows = args
  .filter((a) => a !== "--md")
  .flatMap((f) => readFileSync(f, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l)));
const get = (side, c) => rows.find((r) => r.side === side && r.case === c);
const ms = (r) => (r ? r.median_ms : NaN);
const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : "–");

const cpu = (r) => (r && r.cpu_median_ms != null ? r.cpu_median_ms : NaN);
const refB = get("reference", "batch");
const refV = get("reference", "verify_200");
const x = (a, b) => (Number.isFinite(a / b) ? (a / b).toFixed(1) + "×" : "–");
// [label, row, reference row, target]
const cases = [
  ["batch, 1,600 candidates (11 MB JSONL)"],
  ["  reference score_memory per item (CPython 3.12, pre-parsed)", refB, refB, ""],
  ["  native scoreCandidates (JSONL text → compact)", get("native", "batch_scoreCandidates"), refB, "≥ 150×"],
  ["  native score_memory per candidate (text → JSON text)", get("native", "batch_per_candidate"), refB, ""],
  ["  wasm scoreCandidates (JSONL text → compact)", get("wasm", "batch_scoreCandidates"), refB, "≥ 100×"],
  ["  wasm scoreMemory per candidate (JS objects)", get("wasm", "batch_per_candidate_objects"), refB, "≥ 50×"],
  ["  wasm scoreMemory per candidate (JSON text)", get("wasm", "batch_per_candidate_text"), refB, ""],
  ["verify the 200-result recall body (1.44 MB)"],
  ["  reference: exact Python client (json + hashlib)", refV, refV, ""],
  ["  native verify_recall_receipt(body, {query})", get("native", "verify_200"), refV, "≥ 6×"],
  ["  wasm verifyRecallReceipt(body, {query}), body a string", get("wasm", "verify_200"), refV, "≥ 3×"],
  ["  wasm verifyRecallReceipt(bytes, {query}), body a Uint8Array", get("wasm", "verify_200_bytes"), refV, "≥ 3×"],
];
const table = cases.map(([label, r, ref, target]) =>
  r ? [label, f(ms(r), 3), f(cpu(r), 3), x(ms(ref), ms(r)), x(cpu(ref), cpu(r)), target] : [label, "", "", "", "", ""],
);
for (const [c, what] of [["canonical_hash_receipt_200", "a string"], ["canonical_hash_receipt_200_bytes", "a Uint8Array"]]) {
  const ch = get("wasm", c);
  if (!ch) continue;
  table.push([
    `wasm canonicalize+hash: bare 200-result receipt, one call, ${what}`,
    f(ms(ch), 3),
    f(cpu(ch), 3),
    f(ch.bytes / 1e6 / (ms(ch) / 1e3), 1) + " MB/s",
    f(ch.bytes / 1e6 / (cpu(ch) / 1e3), 1) + " MB/s",
    "≥ 150 MB/s",
  ]);
}
const cold = get("wasm", "cold_start");
if (cold) {
  table.push(["Node cold start: require + first scoreMemory", f(cold.median_ms), "", `load ${f(cold.load_ms)}`, `first ${f(cold.first_call_ms)}`, "≤ 10 ms"]);
}
for (const [c, label, target] of [
  ["workerd_verify_200", "workerd: verify the 200-result body (a string), CPU per request", "≤ 5 ms"],
  ["workerd_verify_200_bytes", "workerd: verify the 200-result body (a Uint8Array), CPU per request", "≤ 5 ms"],
  ["workerd_score_1600", "workerd: scoreCandidates 1,600, CPU per request", "≤ 10 ms"],
]) {
  const r = get("workerd", c);
  if (r) table.push([label, f(r.wall_ms_per_request, 1), f(r.cpu_ms_per_request, 2), "", `${f(r.requests_per_cpu_second, 0)} req/CPU-s`, target]);
}
const head = ["case", "wall ms", "cpu ms", "× ref (wall)", "× ref (cpu)", "target"];
if (md) {
  console.log(`| ${head.join(" | ")} |`);
  console.log("|---|---:|---:|---:|---:|---|");
  for (const r of table) console.log(`| ${r.join(" | ")} |`);
} else {
  const w = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join("  ");
  console.log(line(head));
  for (const r of table) console.log(line(r));
}
