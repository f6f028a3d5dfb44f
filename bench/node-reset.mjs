// The Node entry's instance reset (issue #32, docs/edge-memory.md): the wasm memory a hostile
// 32 MiB body leaves behind in the Node entry, what the next call finds, and what a reset costs.
//   node bench/node-reset.mjs [ENTRY]      (default js/node.cjs; ENTRY is a node.cjs whose glue is
//                                           ../dist/node/lians_score.js and has __lians_memory_bytes)
// Wasm memory is exact (the glue's memory.buffer.byteLength); the times are wall-clock medians
// (noisy on a shared machine: read them as an order of magnitude). Instructions, as
// bench/wasm-instructions.sh counts them (N small verifications, each after a reset with --reset):
//   node bench/node-reset.mjs --count N [--reset]   under valgrind --tool=callgrind, N = 20 and 120
// An ordinary large call must not reset: scoreCandidates on a batch given as a string, 15 times
// through this entry and through OTHER (e.g. main's js/node.cjs), interleaved, median wall time:
//   node bench/node-reset.mjs --batch OTHER BATCH.jsonl      (BATCH: bench/reference/make_batch.py)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { bodyText } from "./memory-bodies.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const batch = process.argv.indexOf("--batch");
if (batch > 0) {
  const require = createRequire(import.meta.url);
  const libs = { this: require(path.join(ROOT, "js/node.cjs")), other: require(path.resolve(process.argv[batch + 1])) };
  const text = readFileSync(process.argv[batch + 2], "utf8");
  const times = { this: [], other: [] };
  for (let i = 0; i < 15; i++) {
    for (const name of i % 2 ? ["other", "this"] : ["this", "other"]) {
      const t = performance.now();
      libs[name].scoreCandidates(null, text);
      times[name].push(performance.now() - t);
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1].toFixed(1);
  console.log(`scoreCandidates(null, string) median ms: this ${median(times.this)} (${libs.this.memoryStats().resets} resets), other ${median(times.other)}`);
  process.exit(0);
}
const count = process.argv.indexOf("--count");
if (count > 0) {
  const lib = createRequire(import.meta.url)(path.join(ROOT, "js/node.cjs"));
  const glue = createRequire(import.meta.url)(path.join(ROOT, "dist/node/lians_score.js"));
  const wire = readFileSync(path.join(ROOT, "tests/data/samples/recall-08-fast-filters-acme-tinyfloat.json"));
  const reset = process.argv.includes("--reset");
  for (let i = Number(process.argv[count + 1]); i > 0; i--) {
    if (reset) glue.__lians_reset();
    if (!lib.verifyRecallReceipt(wire).valid) throw new Error("invalid");
  }
  process.exit(0);
}
const entry = path.resolve(process.argv[2] ?? path.join(ROOT, "js/node.cjs"));
const require = createRequire(import.meta.url);
const lib = require(entry);
const glue = require(path.join(path.dirname(entry), "../dist/node/lians_score.js"));
const MiB = 1 << 20;
const mib = (n) => (n / MiB).toFixed(1);
const mem = () => glue.__lians_memory_bytes();

const wire = readFileSync(path.join(ROOT, "tests/data/samples/recall-08-fast-filters-acme-tinyfloat.json"));
const small = () => lib.verifyRecallReceipt(wire);
const expected = small();
const base = mem();
console.log(`entry ${process.argv[2] ?? "js/node.cjs"}: ${mib(base)} MiB of wasm memory after a small verification`);
console.log("| 32 MiB hostile recall body (bytes) | wasm memory after it | after the next small call | resets | next result identical |");
console.log("|---|---:|---:|---:|---|");
for (const shape of ["members", "ints", "strings-utf8"]) {
  const body = new TextEncoder().encode(bodyText("recall", shape, 32 * MiB - 4096));
  const before = lib.memoryStats().resets;
  lib.verifyRecallReceipt(body);
  const after = mem();
  const same = isDeepStrictEqual(small(), expected);
  console.log(`| ${shape} (${mib(body.length)} MiB) | ${mib(after)} MiB | ${mib(mem())} MiB | ${lib.memoryStats().resets - before} | ${same} |`);
}

if (lib.memoryStats().resets > 0) {
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  const resets = [], warm = [], cold = [];
  for (let i = 0; i < 200; i++) {
    let t = performance.now();
    small();
    warm.push(performance.now() - t);
    t = performance.now();
    glue.__lians_reset();
    resets.push(performance.now() - t);
    t = performance.now();
    small();
    cold.push(performance.now() - t);
  }
  console.log(
    `reset: ${median(resets).toFixed(3)} ms (median of 200); a small verification ${median(warm).toFixed(3)} ms on a warm ` +
      `instance, ${median(cold).toFixed(3)} ms as the first call of a fresh one`,
  );
}
