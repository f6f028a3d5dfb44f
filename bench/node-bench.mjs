// Node benchmark of the wasm package over the shared workloads.
//
//   cargo run --release --example gen_workloads   # writes target/bench-data
//   npm run build                                 # dist/node (wasm branch's build)
//   node bench/node-bench.mjs [--quick] [--filter substr] [--data DIR] [--dist DIR]
//
// Same protocol as benches/native.rs: calibrate an inner repeat count so a
// sample lasts >= 2 ms, warm up (~10 % of the budget; this also lets V8 tier
// the wasm up from Liftoff to TurboFan), then take samples until >= 21 samples
// and >= 1.5 s, and report the median with p10/p90. Each sample also records
// process CPU time (process.cpuUsage), which is less disturbed by other load
// on the machine than wall time.
//
// Output: one JSON object per case on stdout, a readable table on stderr.
// Sides: "wasm" (the package), "node-crypto" (node:crypto createHash),
// "webcrypto" (crypto.subtle.digest), "startup" (fresh-process timings).

import { readFileSync, existsSync } from "node:fs";
import { createHash, webcrypto } from "node:crypto";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const QUICK = args.includes("--quick") || !!process.env.BENCH_QUICK;
const FILTER = opt("--filter", process.env.BENCH_FILTER || "");
const DATA = path.resolve(opt("--data", path.join(ROOT, "target/bench-data")));
const DIST = path.resolve(opt("--dist", path.join(ROOT, "dist/node")));
const want = (c) => !FILTER || c.includes(FILTER);

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------- data

if (!existsSync(path.join(DATA, "manifest.json"))) {
  console.error(`node-bench: no workloads in ${DATA}; run: cargo run --release --example gen_workloads`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(path.join(DATA, "manifest.json"), "utf8"));
const file = (name) => {
  const bytes = readFileSync(path.join(DATA, name));
  const sha = createHash("sha256").update(bytes).digest("hex");
  if (sha !== manifest.files[name].sha256) throw new Error(`${name}: SHA-256 differs from manifest.json`);
  return bytes;
};
const lines = (name) => file(name).toString("utf8").split("\n").filter((l) => l !== "");

// ---------------------------------------------------------------- timer

function percentile(sorted, p) {
  return sorted[Math.round((sorted.length - 1) * p)];
}

function summarize(wall, cpu) {
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    median: percentile(wall, 0.5),
    p10: percentile(wall, 0.1),
    p90: percentile(wall, 0.9),
    cpu_median: percentile(cpu, 0.5),
    samples: wall.length,
  };
}

function budget() {
  return QUICK ? { minSamples: 7, minTime: 300 } : { minSamples: 21, minTime: 1500 };
}

/** Time a synchronous unit of work; per-call milliseconds. */
function measure(fn) {
  const { minSamples, minTime } = budget();
  let t = performance.now();
  fn();
  const once = Math.max(performance.now() - t, 1e-6);
  const reps = Math.min(1e6, Math.max(1, Math.ceil(2 / once)));
  const warmEnd = performance.now() + minTime / 10;
  while (performance.now() < warmEnd) for (let i = 0; i < reps; i++) fn();
  const wall = [];
  const cpu = [];
  const start = performance.now();
  while (wall.length < minSamples || (performance.now() - start < minTime && wall.length < 1000)) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) fn();
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    wall.push((t1 - t0) / reps);
    cpu.push((c1.user + c1.system) / 1e3 / reps);
  }
  return summarize(wall, cpu);
}

/** Time an async unit of work (awaited one after another). */
async function measureAsync(fn) {
  const { minSamples, minTime } = budget();
  let t = performance.now();
  await fn();
  const once = Math.max(performance.now() - t, 1e-6);
  const reps = Math.min(1e6, Math.max(1, Math.ceil(2 / once)));
  const warmEnd = performance.now() + minTime / 10;
  while (performance.now() < warmEnd) for (let i = 0; i < reps; i++) await fn();
  const wall = [];
  const cpu = [];
  const start = performance.now();
  while (wall.length < minSamples || (performance.now() - start < minTime && wall.length < 1000)) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) await fn();
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    wall.push((t1 - t0) / reps);
    cpu.push((c1.user + c1.system) / 1e3 / reps);
  }
  return summarize(wall, cpu);
}

function report(side, kase, s, extra = {}) {
  const out = {
    side,
    case: kase,
    median_ms: +s.median.toFixed(6),
    p10_ms: +s.p10.toFixed(6),
    p90_ms: +s.p90.toFixed(6),
    cpu_median_ms: +s.cpu_median.toFixed(6),
    samples: s.samples,
    ...extra,
  };
  console.log(JSON.stringify(out));
  const mbps = extra.bytes ? `  ${(extra.bytes / 1e6 / (s.median / 1e3)).toFixed(1)} MB/s` : "";
  console.error(
    `${(side + " " + kase).padEnd(52)} median ${s.median.toFixed(4).padStart(10)} ms  ` +
      `(p10 ${s.p10.toFixed(4).padStart(9)}, p90 ${s.p90.toFixed(4).padStart(9)}, cpu ${s.cpu_median
        .toFixed(4)
        .padStart(9)}, n=${String(s.samples).padStart(3)})${mbps}`,
  );
}

// ---------------------------------------------------------------- startup (fresh processes)

// Instantiate + first scoreMemory call, measured inside fresh Node processes
// (Node's own start-up is excluded: the clock starts just before the
// package is loaded). CommonJS require() (synchronous compile + instantiate
// of the nodejs target), ESM import of the package entry, and the web
// entry's initSync({module: bytes}) path.
function startup() {
  const runs = QUICK ? 5 : 15;
  const input = lines("recall_batch.jsonl")[0];
  // The package entries when timing this checkout's build; the bare glue for --dist.
  const defaultDist = DIST === path.join(ROOT, "dist/node");
  const cjsEntry = defaultDist ? path.join(ROOT, "js/node.cjs") : path.join(DIST, "lians_score.js");
  const esmEntry = defaultDist ? path.join(ROOT, "js/node.mjs") : path.join(DIST, "lians_score.js");
  const scripts = {
    startup_cjs_require_first_call: `
      const t0 = performance.now();
      const m = require(${JSON.stringify(cjsEntry)});
      const t1 = performance.now();
      m.scoreMemory(${JSON.stringify(input)});
      const t2 = performance.now();
      console.log(JSON.stringify({ load: t1 - t0, first: t2 - t1, total: t2 - t0 }));`,
    startup_esm_import_first_call: `
      const t0 = performance.now();
      import(${JSON.stringify(esmEntry)}).then((m) => {
        const t1 = performance.now();
        m.scoreMemory(${JSON.stringify(input)});
        const t2 = performance.now();
        console.log(JSON.stringify({ load: t1 - t0, first: t2 - t1, total: t2 - t0 }));
      });`,
    // The parts: reading the .wasm, and WebAssembly.Module (V8 decodes and
    // validates every function; compilation itself is lazy, on first call).
    startup_module_read_and_compile: `
      const fs = require("fs");
      const t0 = performance.now();
      const bytes = fs.readFileSync(${JSON.stringify(path.join(DIST, "lians_score_bg.wasm"))});
      const t1 = performance.now();
      new WebAssembly.Module(bytes);
      const t2 = performance.now();
      console.log(JSON.stringify({ load: t1 - t0, first: t2 - t1, total: t2 - t0 }));`,
  };
  for (const [kase, code] of Object.entries(scripts)) {
    if (!want(kase)) continue;
    const res = [];
    for (let i = 0; i < runs; i++) {
      const out = execFileSync(process.execPath, ["-e", code], { encoding: "utf8" });
      res.push(JSON.parse(out.trim().split("\n").pop()));
    }
    const med = (k) => {
      const xs = res.map((r) => r[k]).sort((a, b) => a - b);
      return { median: percentile(xs, 0.5), p10: percentile(xs, 0.1), p90: percentile(xs, 0.9) };
    };
    const total = med("total");
    report("startup", kase, { ...total, cpu_median: NaN, samples: runs }, {
      load_median_ms: +med("load").median.toFixed(3),
      first_call_median_ms: +med("first").median.toFixed(3),
    });
  }
}

// ---------------------------------------------------------------- main

async function main() {
  // cliScore is a CLI export: the default build's is dist/cli (cargo feature js-cli).
  const glue = require(path.join(DIST === path.join(ROOT, "dist/node") ? path.join(ROOT, "dist/cli") : DIST, "lians_score.js"));
  // The package entry (js/node.cjs) re-exports exactly these glue functions;
  // calling the glue directly lets --dist point at another build (before/after).
  const api = glue;
  console.error(`node ${process.version}, wasm ${path.join(DIST, "lians_score_bg.wasm")}, data ${DATA}`);

  if (["recall_batch_1600", "recall_batch_1600_short", "recall_batch_1600_api_text", "recall_batch_1600_api_object"].some(want)) {
    const recall = lines("recall_batch.jsonl");
    const recallText = file("recall_batch.jsonl").toString("utf8");
    // Same work as the native case: the JSONL batch in, compact JSON lines
    // out, in one call (the package CLI's helper; no per-item JS crossing).
    if (want("recall_batch_1600") && !FILTER.includes("api") && !FILTER.includes("short")) {
      report("wasm", "recall_batch_1600", measure(() => glue.cliScore(recallText, "score_memory", "bench")), {
        items: recall.length,
      });
    }
    // Sensitivity: the same batch with short contents only.
    if (want("recall_batch_1600_short")) {
      const shortText = file("recall_batch_short.jsonl").toString("utf8");
      report("wasm", "recall_batch_1600_short", measure(() => glue.cliScore(shortText, "score_memory", "bench")), {
        items: 1600,
      });
    }
    // The public API: JSON text in, a JS object out.
    if (want("recall_batch_1600_api_text")) {
      report("wasm", "recall_batch_1600_api_text", measure(() => {
        for (const t of recall) api.scoreMemory(t);
      }), { items: recall.length });
    }
    // The public API with plain JS objects (JSON.parse'd outside the timing;
    // note JS cannot keep 1 vs 1.0 in metadata, so a few results may differ).
    if (want("recall_batch_1600_api_object")) {
      const objs = recall.map((t) => JSON.parse(t));
      report("wasm", "recall_batch_1600_api_object", measure(() => {
        for (const o of objs) api.scoreMemory(o);
      }), { items: objs.length });
    }
  }

  if (want("review_queue_500")) {
    const review = lines("review_queue.jsonl");
    const reviewText = file("review_queue.jsonl").toString("utf8");
    if (!FILTER.includes("api")) {
      report("wasm", "review_queue_500", measure(() => glue.cliScore(reviewText, "rescore_review_item", "bench")), {
        items: review.length,
      });
    }
    if (want("review_queue_500_api_text")) {
      report("wasm", "review_queue_500_api_text", measure(() => {
        for (const t of review) api.rescoreReviewItem(t);
      }), { items: review.length });
    }
  }

  for (const n of [10, 200]) {
    const wire = file(`recall_receipt_${n}.wire.json`).toString("utf8");
    const given = file(`recall_receipt_${n}.given.json`).toString("utf8");
    const bytes = Buffer.byteLength(wire);
    if (want(`verify_recall_receipt_${n}`)) {
      const r = api.verifyRecallReceipt(wire, given);
      if (!r.valid || r.receipt_sha256 !== manifest.receipt_sha256[String(n)]) {
        throw new Error(`receipt ${n} does not verify in wasm: ${JSON.stringify(r.failures)}`);
      }
      report("wasm", `verify_recall_receipt_${n}`, measure(() => api.verifyRecallReceipt(wire, given)), {
        bytes,
        items: n,
      });
    }
    if (want(`receipt_hash_${n}`)) {
      // The bare receipt in one call: parse, canonicalize, hash, structural checks.
      const bare = file(`recall_receipt_${n}.receipt.json`).toString("utf8");
      const r = api.verifyRecallReceipt(bare);
      if (!r.valid || r.receipt_sha256 !== manifest.receipt_sha256[String(n)]) throw new Error(`bare receipt ${n} does not verify`);
      report("wasm", `receipt_hash_${n}`, measure(() => api.verifyRecallReceipt(bare)), { bytes: Buffer.byteLength(bare) });
    }
    if (want(`canonicalize_hash_${n}`)) {
      // Wire text -> canonical text -> SHA-256 (two calls through the public API).
      report("wasm", `canonicalize_hash_${n}`, measure(() => api.sha256Hex(api.canonicalJson(wire))), { bytes });
    }
  }

  for (const size of [64, 1024, 65536, 1048576]) {
    const kase = `sha256_${size}`;
    if (!want(kase)) continue;
    const data = new Uint8Array(file(`hash_${size}.bin`));
    const expect = createHash("sha256").update(data).digest("hex");
    if (api.sha256Hex(data) !== expect) throw new Error("wasm sha256 disagrees with node:crypto");
    report("wasm", kase, measure(() => api.sha256Hex(data)), { bytes: size });
    report("node-crypto", kase, measure(() => createHash("sha256").update(data).digest("hex")), { bytes: size });
    report("webcrypto", kase, await measureAsync(() => webcrypto.subtle.digest("SHA-256", data)), { bytes: size });
  }

  startup();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
