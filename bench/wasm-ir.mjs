// One workload, N times, in this process: the driver of bench/wasm-instructions.sh
// (valgrind counts the instructions; the difference of two N cancels start-up and compiling).
//   node bench/wasm-ir.mjs DIST N verify|receipt|batch BATCH BODY RECEIPT QUERY
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";

const [dist, n, what, batchPath, bodyPath, receiptPath, query] = process.argv.slice(2);
const pkg = createRequire(import.meta.url)(`${resolve(dist)}/lians_score.js`);
const text = readFileSync({ verify: bodyPath, receipt: receiptPath, batch: batchPath }[what], "utf8");
const once = {
  verify: () => pkg.verifyRecallReceipt(text, { query }).valid,
  receipt: () => pkg.verifyRecallReceipt(text).valid,
  batch: () => pkg.scoreCandidates(null, text).errors.length === 0,
}[what];
for (let i = 0; i < Number(n); i++) if (!once()) throw new Error(`${what}: unexpected result`);
