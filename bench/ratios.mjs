// Issue #32's speed ratios, side by side in one Node process (benchmarks, not tests):
//   scoreCandidates on the 1,600-candidate batch (bytes, string) / V8 JSON.parse of its lines;
//   verifyRecallReceipt on the 200-result body (bytes, string) / JSON.parse + node:crypto SHA-256;
//   the instance reset of the ESM entries (js/web.mjs): a call that resets vs one that does not.
// Each case runs interleaved with its baseline (round robin, medians), for this build (dist/node)
// and, with --main DIR, another build of the package (e.g. main's dist/node) in the same process.
//
//   node bench/ratios.mjs [--main /work/main/dist/node] [--rounds 15]
// Workloads as scripts/bench-edge.sh writes them: target/bench-edge/batch.jsonl,
// target/bench-data/recall_receipt_200.{wire,given}.json.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const arg = (name, dflt) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : dflt;
};
const rounds = Number(arg("--rounds", "15"));
const builds = [["this", path.join(ROOT, "dist/node")]];
if (arg("--main")) builds.push(["main", path.resolve(arg("--main"))]);

const batchBytes = readFileSync(path.join(ROOT, "target/bench-edge/batch.jsonl"));
const batchText = batchBytes.toString("utf8");
const lines = batchText.split("\n").filter((l) => l.trim());
const bodyBytes = new Uint8Array(readFileSync(path.join(ROOT, "target/bench-data/recall_receipt_200.wire.json")));
const bodyText = Buffer.from(bodyBytes).toString("utf8");
const { query } = JSON.parse(readFileSync(path.join(ROOT, "target/bench-data/recall_receipt_200.given.json"), "utf8"));

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
/** Medians of the cases, run round robin (warm-up first). */
function race(cases) {
  const names = Object.keys(cases);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = -3; r < rounds; r++) {
    for (const n of names) {
      const t = performance.now();
      cases[n]();
      if (r >= 0) times[n].push(performance.now() - t);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n])]));
}

const rows = [];
function row(build, name, ms, base) {
  const r = { build, case: name, median_ms: ms, baseline_ms: base, ratio: ms / base };
  rows.push(r);
  console.log(JSON.stringify(r));
  console.error(`${build.padEnd(5)} ${name.padEnd(34)} ${ms.toFixed(2).padStart(8)} ms  ${r.ratio.toFixed(2).padStart(5)}× the baseline (${base.toFixed(2)} ms)`);
}

for (const [build, dir] of builds) {
  const pkg = require(path.join(dir, "lians_score.js"));
  const check = (r) => {
    if (r.count !== 1600 || r.errors.length) throw new Error(`${build}: ${r.count} ${JSON.stringify(r.errors[0])}`);
  };
  let bytesOk = true;
  try {
    check(pkg.scoreCandidates(null, batchBytes));
  } catch {
    bytesOk = false; // a build without the bytes path
  }
  const batch = race({
    parse: () => {
      for (const l of lines) JSON.parse(l);
    },
    ...(bytesOk ? { bytes: () => check(pkg.scoreCandidates(null, batchBytes)) } : {}),
    string: () => check(pkg.scoreCandidates(null, batchText)),
  });
  if (bytesOk) row(build, "scoreCandidates 1,600 (bytes)", batch.bytes, batch.parse);
  row(build, "scoreCandidates 1,600 (string)", batch.string, batch.parse);

  const valid = (r) => {
    if (!r.valid) throw new Error(`${build}: ${r.failures}`);
  };
  const verify = race({
    base: () => {
      JSON.parse(bodyText);
      createHash("sha256").update(bodyBytes).digest("hex");
    },
    bytes: () => valid(pkg.verifyRecallReceipt(bodyBytes, { query })),
    string: () => valid(pkg.verifyRecallReceipt(bodyText, { query })),
  });
  row(build, "verifyRecallReceipt 200 (bytes)", verify.bytes, verify.base);
  row(build, "verifyRecallReceipt 200 (string)", verify.string, verify.base);
}

// The reset (this build's browser entry, as workerd and edge-light run it).
const web = await import("../js/web.mjs");
web.initSync(readFileSync(path.join(ROOT, "dist/web/lians_score_bg.wasm")));
const reset = race({
  call: () => web.sha256Hex("abc"),
  reset: () => {
    web.configureLimits({ resetMemoryBytes: 0 });
    web.sha256Hex("abc");
    web.configureLimits({ resetMemoryBytes: 32 << 20 });
  },
});
row("this", "sha256Hex + instance reset", reset.reset, reset.call);
console.error(`instance reset: ${(reset.reset - reset.call).toFixed(3)} ms (${web.memoryStats().resets} resets)`);
