// Recall audit vs receipt verification in the wasm package (Node), on every
// real recall body: `node bench/audit-bench.mjs [--quick]`. The native side is
// `cargo run --release --example audit_bench`. For each body, the median CPU
// time (process.cpuUsage) of verifyRecallReceipt(wire, {query}) and of
// auditRecall(wire, {query}), sampled interleaved, and their ratio. Both
// include building the JS report object.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as lians from "lians-score";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const dir = path.join(ROOT, "tests/data/audit");
const bodies = readdirSync(dir).filter((f) => f.endsWith(".json")).sort().map((f) => ({
  name: f.replace(/\.json$/, ""),
  wire: readFileSync(path.join(dir, f), "utf8"),
  query: readFileSync(path.join(dir, f.replace(/\.json$/, ".query.txt")), "utf8"),
}));
bodies.push({
  name: "recall-08 (sample)",
  wire: readFileSync(path.join(ROOT, "tests/data/samples/recall-08-fast-filters-acme-tinyfloat.json"), "utf8"),
  query: "Acme revenue",
});

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function reps(fn) {
  for (let n = 1; ; n *= 2) {
    const t = performance.now();
    for (let i = 0; i < n; i++) fn();
    if (performance.now() - t >= 2 || n >= 1 << 20) return n;
  }
}
function interleaved(a, b) {
  for (let i = 0; i < 50; i++) { a(); b(); } // warm-up (tier-up)
  const ra = reps(a), rb = reps(b);
  const sa = [], sb = [];
  for (let s = 0; s < (quick ? 11 : 31); s++) {
    let t = cpuMs(); for (let i = 0; i < ra; i++) a(); sa.push((cpuMs() - t) / ra);
    t = cpuMs(); for (let i = 0; i < rb; i++) b(); sb.push((cpuMs() - t) / rb);
  }
  const med = (x) => x.sort((p, q) => p - q)[x.length >> 1];
  return [med(sa), med(sb)];
}

console.log("| body | verify ms (CPU) | audit ms (CPU) | audit / verify |");
console.log("|---|---:|---:|---:|");
let tv = 0, ta = 0, worst = 0;
for (const b of bodies) {
  const given = { query: b.query };
  const [v, a] = interleaved(() => lians.verifyRecallReceipt(b.wire, given), () => lians.auditRecall(b.wire, given));
  tv += v; ta += a; worst = Math.max(worst, a / v);
  console.log(`| ${b.name} | ${v.toFixed(3)} | ${a.toFixed(3)} | ${(a / v).toFixed(2)} |`);
}
console.log(`| **all ${bodies.length} bodies** | ${tv.toFixed(3)} | ${ta.toFixed(3)} | ${(ta / tv).toFixed(2)} (worst ${worst.toFixed(2)}) |`);
