// One workload, N times, in this process: the driver of bench/wasm-instructions.sh
// (valgrind counts the instructions; the difference of two N cancels start-up and compiling).
//   node bench/wasm-ir.mjs DIST|ENTRY.cjs N verify|verify_bytes|receipt|receipt_bytes|batch|batch_bytes|batch_full|memory|parse_lines|parse_sha BATCH BODY RECEIPT QUERY
// (the _bytes cases pass the body's UTF-8 bytes, a Uint8Array as from `await response.arrayBuffer()`,
// instead of the string; batch_full is scoreCandidates with output "full", memory one scoreMemory(JSON text)
// per line of the batch's first 200 lines, memory_objects the same lines JSON.parse'd beforehand (plain objects); the baselines of issue #32's ratios: parse_lines is V8's
// JSON.parse of each batch line, parse_sha JSON.parse of the body plus node:crypto SHA-256 of its bytes)
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";

const [dist, n, what, batchPath, bodyPath, receiptPath, query] = process.argv.slice(2);
// DIST is a glue directory (dist/node), or a CommonJS entry file (js/node.cjs: the wrapper users call).
const pkg = createRequire(import.meta.url)(dist.endsWith(".cjs") ? resolve(dist) : `${resolve(dist)}/lians_score.js`);
const file = { verify: bodyPath, verify_bytes: bodyPath, receipt: receiptPath, receipt_bytes: receiptPath, batch: batchPath, batch_bytes: batchPath, batch_full: batchPath, memory: batchPath, memory_objects: batchPath, parse_lines: batchPath, parse_sha: bodyPath }[what];
const text = readFileSync(file, "utf8");
const bytes = new Uint8Array(readFileSync(file));
const allLines = text.split("\n").filter((l) => l.trim());
const memoryLines = allLines.slice(0, 200);
const memoryObjects = what === "memory_objects" ? memoryLines.map((l) => JSON.parse(l)) : [];
const once = {
  verify: () => pkg.verifyRecallReceipt(text, { query }).valid,
  verify_bytes: () => pkg.verifyRecallReceipt(bytes, { query }).valid,
  receipt: () => pkg.verifyRecallReceipt(text).valid,
  receipt_bytes: () => pkg.verifyRecallReceipt(bytes).valid,
  batch: () => pkg.scoreCandidates(null, text).errors.length === 0,
  batch_bytes: () => pkg.scoreCandidates(null, bytes).errors.length === 0,
  parse_lines: () => memoryLines.length > 0 && allLines.every((l) => JSON.parse(l) !== null),
  parse_sha: () => JSON.parse(text) !== null && createHash("sha256").update(bytes).digest("hex").length === 64,
  batch_full: () => pkg.scoreCandidates(null, text, { output: "full" }).every((r) => !("error" in r)),
  memory: () => memoryLines.every((l) => typeof pkg.scoreMemory(l).final_score === "number"),
  memory_objects: () => memoryObjects.every((o) => typeof pkg.scoreMemory(o).final_score === "number"),
}[what];
for (let i = 0; i < Number(n); i++) if (!once()) throw new Error(`${what}: unexpected result`);
