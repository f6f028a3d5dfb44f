// The browser entry's instance reset threshold (issue #32, docs/edge-memory.md): scoreCandidates on
// a batch given as a string through js/web.mjs (the browser entry; initSync in Node), the wasm
// memory one call leaves, and what a reset after every call costs against keeping the instance.
//   node --single-threaded bench/web-reset.mjs BATCH.jsonl [ENTRY]   (ENTRY: another js/web.mjs, e.g. main's; its
//                                                 dist/web/lians_score_bg.wasm beside it)
// For the batch once (1,600 candidates, 11 MB) and three times (4,800, 31.5 MiB, just under the
// 32 MiB cap): memory after one call on a fresh instance (exact), then 15 calls each (blocks of 5) with
// resetMemoryBytes 32 MiB (RESET_MEMORY_BYTES) and 128 MiB (NODE_RESET_MEMORY_BYTES), interleaved,
// their resets and median CPU time of this process (user + system: the kernel's page zeroing of a
// fresh memory counts; run with `node --single-threaded` so that no helper thread adds to it).
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const MiB = 1 << 20;
const [batchPath, entryArg] = process.argv.slice(2);
const entry = path.resolve(entryArg ?? "js/web.mjs");
const lib = await import(pathToFileURL(entry).href);
lib.initSync(readFileSync(path.join(path.dirname(entry), "../dist/web/lians_score_bg.wasm")));
const once = readFileSync(batchPath, "utf8").trimEnd();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(`entry ${path.relative(process.cwd(), entry)}`);
console.log("| batch (string) | wasm memory after one call (fresh instance) | threshold | resets in 15 calls | median CPU ms per call |");
console.log("|---|---:|---:|---:|---:|");
for (const copies of [1, 3]) {
  const text = Array(copies).fill(once).join("\n");
  const bytes = Buffer.byteLength(text);
  // A fresh instance, then one call without a reset.
  lib.configureLimits({ resetMemoryBytes: 0 });
  lib.sha256Hex("");
  lib.configureLimits({ resetMemoryBytes: Number.MAX_SAFE_INTEGER });
  const n = lib.scoreCandidates(null, text).count;
  const after = lib.memoryStats().memoryBytes;
  const runs = { 32: [], 128: [] };
  const resets = { 32: 0, 128: 0 };
  // Blocks of 5 timed calls per threshold, each after one untimed call under that threshold (so a
  // block starts in its own steady state), alternating, 3 rounds: 15 calls each.
  for (let round = 0; round < 6; round++) {
    const t = round % 2 ? 128 : 32;
    lib.configureLimits({ resetMemoryBytes: t * MiB });
    lib.scoreCandidates(null, text);
    for (let i = 0; i < 5; i++) {
      const r0 = lib.memoryStats().resets;
      const start = process.cpuUsage();
      lib.scoreCandidates(null, text);
      const used = process.cpuUsage(start);
      runs[t].push((used.user + used.system) / 1000);
      resets[t] += lib.memoryStats().resets - r0;
    }
  }
  for (const t of [32, 128]) {
    console.log(`| ${n} candidates, ${(bytes / MiB).toFixed(1)} MiB | ${(after / MiB).toFixed(1)} MiB | ${t} MiB | ${resets[t]} | ${median(runs[t]).toFixed(0)} |`);
  }
}
