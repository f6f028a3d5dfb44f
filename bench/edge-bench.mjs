// Wasm side of scripts/bench-edge.sh (issue #15): the package as built (dist/node) in Node.
//
//   node bench/edge-bench.mjs BATCH.jsonl BODY.json QUERY [RECEIPT.json] [--dist DIR]
//
// One JSON line per case on stdout ({"side":"wasm","case","median_ms","cpu_median_ms","samples"}),
// a readable line per case on stderr. Same cases as benches/edge_bench.rs, plus the per-candidate
// scoreMemory from JS objects, the bare-receipt canonicalize+hash throughput and the cold start
// (fresh processes). Verification runs twice: the body as a string and as its UTF-8 bytes (`_bytes`).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

const args = process.argv.slice(2);
const distAt = args.indexOf("--dist");
const dist = resolve(distAt >= 0 ? args.splice(distAt, 2)[1] : "dist/node");
const [batchPath, bodyPath, query, receiptPath] = args;
if (!query) {
  console.error("usage: node bench/edge-bench.mjs BATCH.jsonl BODY.json QUERY [RECEIPT.json] [--dist DIR]");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const pkg = require(`${dist}/lians_score.js`);
// Plain JS data goes through the package's entry (js/node.cjs), as users call it.
const entry = distAt >= 0 ? pkg : require(resolve("js/node.cjs"));

const batchText = readFileSync(batchPath, "utf8");
const body = readFileSync(bodyPath, "utf8");

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1];
}

const only = process.env.EDGE_FILTER; // run only the cases whose name contains this
function time(name, bytes, min, f) {
  if (only && !name.includes(only)) return { median_ms: NaN };
  for (let i = 0; i < 3; i++) f();
  const wall = [];
  const cpu = [];
  const start = performance.now();
  while (wall.length < min || (performance.now() - start < 1000 && wall.length < 500)) {
    const c = process.cpuUsage();
    const t = performance.now();
    f();
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  const row = { side: "wasm", case: name, median_ms: median(wall), cpu_median_ms: median(cpu), samples: wall.length, bytes };
  console.log(JSON.stringify(row));
  console.error(`wasm   ${name.padEnd(28)} ${row.median_ms.toFixed(3).padStart(9)} ms (cpu ${row.cpu_median_ms.toFixed(3)}, n=${row.samples})`);
  return row;
}

time("batch_scoreCandidates", batchText.length, 15, () => {
  const r = pkg.scoreCandidates(null, batchText);
  if (r.errors.length) throw new Error(JSON.stringify(r.errors[0]));
});
const objects = batchText.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
time("batch_per_candidate_objects", batchText.length, 7, () => {
  for (const o of objects) entry.scoreMemory(o);
});
const lines = batchText.split("\n").filter((l) => l.trim());
time("batch_per_candidate_text", batchText.length, 7, () => {
  for (const l of lines) pkg.scoreMemory(l);
});
time("verify_200", body.length, 31, () => {
  const r = pkg.verifyRecallReceipt(body, { query });
  if (!r.valid) throw new Error("the body must verify: " + r.failures.join(", "));
});
// The same body as its UTF-8 bytes (a Uint8Array, as from `await response.arrayBuffer()`):
// no UTF-16 → UTF-8 conversion of the string on the way in.
const bodyBytes = new Uint8Array(readFileSync(bodyPath));
time("verify_200_bytes", bodyBytes.length, 31, () => {
  const r = pkg.verifyRecallReceipt(bodyBytes, { query });
  if (!r.valid) throw new Error("the body must verify: " + r.failures.join(", "));
});
// Canonicalize + hash in one call: the bare receipt as it appears in the body (no given).
if (receiptPath) {
  const receiptText = readFileSync(receiptPath, "utf8");
  const bytes = Buffer.byteLength(receiptText);
  const row = time("canonical_hash_receipt_200", bytes, 31, () => pkg.verifyRecallReceipt(receiptText));
  console.error(`wasm   canonicalize+hash: ${(bytes / 1e6 / (row.median_ms / 1e3)).toFixed(1)} MB/s`);
  const receiptBytes = new Uint8Array(readFileSync(receiptPath));
  const rowB = time("canonical_hash_receipt_200_bytes", bytes, 31, () => pkg.verifyRecallReceipt(receiptBytes));
  console.error(`wasm   canonicalize+hash (bytes): ${(bytes / 1e6 / (rowB.median_ms / 1e3)).toFixed(1)} MB/s`);
}

if (!only || "cold_start".includes(only)) coldStart();
function coldStart() {
// Cold start: fresh Node processes; the clock starts just before the package loads.
const probe = `
const t0 = performance.now();
const pkg = require(${JSON.stringify(`${dist}/lians_score.js`)});
const t1 = performance.now();
pkg.scoreMemory({ content: "NVDA guidance is $36B", reference_time: "2026-08-01T00:00:00+00:00", query: "NVDA guidance" });
const t2 = performance.now();
console.log(JSON.stringify({ load: t1 - t0, first: t2 - t1, total: t2 - t0 }));`;
const runs = [];
for (let i = 0; i < 15; i++) runs.push(JSON.parse(execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" })));
const cold = { side: "wasm", case: "cold_start", median_ms: median(runs.map((r) => r.total)), load_ms: median(runs.map((r) => r.load)), first_call_ms: median(runs.map((r) => r.first)), samples: runs.length };
console.log(JSON.stringify(cold));
console.error(`wasm   cold start (require + first scoreMemory) ${cold.median_ms.toFixed(2)} ms (load ${cold.load_ms.toFixed(2)}, first call ${cold.first_call_ms.toFixed(2)})`);
}
