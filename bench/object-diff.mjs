// The JS-object conversion (crates/wasm/src/interop.rs from_js) of two builds compared: N random plain-data
// trees with the number edge cases (-0, NaN, ±Infinity, 2^53 ± 1, 1e21, fractions), strings with lone
// surrogates, undefined members, holes, and values with no JSON form (functions, symbols, BigInts, Dates,
// Maps, cycles), through canonicalJson (the converted value printed as is) and scoreMemory (the batch's
// first lines as objects, mutated); outputs and error codes/paths/messages as text. Exit 1 on a difference.
//   node bench/object-diff.mjs A_DIST B_DIST [N]     (e.g. target/dist-main/node dist/node 20000)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { mulberry32 } from "../tests/js/helpers.mjs";
const require = createRequire(import.meta.url);
const [da, db, nm = "20000"] = process.argv.slice(2);
const A = require(path.resolve(da, "lians_score.js")), B = require(path.resolve(db, "lians_score.js"));
const r = mulberry32(0x0b1ec7);
const pick = (xs) => xs[Math.floor(r() * xs.length)];
const NUMS = [0, -0, 1, -1, 0.5, 1 / 3, NaN, Infinity, -Infinity, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53 - 1), 1e21, 1e-7, 123.456, 0.606138, 5e-324, Number.MAX_VALUE];
const STRS = ["", "a", "recall", "admission", "2026-11-30T00:00:00+00:00", "\ud800", "x\udc00y", "😀", "Straße", "東京 予算", "\u0000\n\"\\"];
function value(depth) {
  const k = r();
  if (depth > 3 || k < 0.5) {
    const t = r();
    if (t < 0.3) return pick(NUMS);
    if (t < 0.6) return pick(STRS);
    if (t < 0.7) return pick([true, false, null, undefined]);
    if (t < 0.72) return pick([() => 1, Symbol("s"), 10n, new Date(0), new Map()]);
    return r() * 1000 - 500;
  }
  if (k < 0.75) {
    const a = Array.from({ length: Math.floor(r() * 4) }, () => value(depth + 1));
    if (r() < 0.1) a[a.length + 1] = 1; // a hole
    return a;
  }
  const o = r() < 0.05 ? Object.create(null) : {};
  for (let i = Math.floor(r() * 5); i > 0; i--) o[pick(["a", "b", "0", "10", "__x", "\ud800", "content", "metadata"])] = value(depth + 1);
  if (r() < 0.03) o.self = o; // a cycle
  return o;
}
const out = (lib, name, arg) => {
  try {
    return JSON.stringify(lib[name](arg), (k, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : Object.is(v, -0) ? "-0" : v));
  } catch (e) {
    return `THROW ${e.code} ${e.path} ${e.message}`;
  }
};
const lines = readFileSync("target/bench-edge/batch.jsonl", "utf8").split("\n").filter(Boolean).slice(0, 200);
let n = 0, bad = 0;
const cmp = (name, arg) => {
  const a = out(A, name, arg), b = out(B, name, arg);
  n++;
  if (a !== b && bad++ < 5) console.error(`${name}: ${a.slice(0, 200)}\n  vs ${b.slice(0, 200)}`);
};
for (let i = 0; i < Number(nm); i++) {
  cmp("canonicalJson", value(0));
  const o = JSON.parse(pick(lines));
  if (r() < 0.7) o[pick(["base_relevance", "importance", "purpose", "metadata", "event_time", "query", "source", "content"])] = value(1);
  cmp("scoreMemory", o);
}
console.log(`${n} comparisons, ${bad} differ`);
process.exit(bad ? 1 : 0);
