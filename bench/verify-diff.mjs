// Every verifier output of two builds compared as JSON text (a differential for speed work that must
// keep outputs byte-identical): the receipt corpus (with and without include_canonical), the airtight
// bodies, the closed-world cases, the 200-result bench body, and N random number/string/key mutations of
// three real bodies; each as a string and as bytes. Exit 1 on any difference.
//   node bench/verify-diff.mjs A_DIST B_DIST [N]     (e.g. /work/main/dist/node dist/node 3000; from the repo root,
//   after scripts/bench-edge.sh has written target/bench-data)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { verificationBodies, mulberry32, SAMPLES } from "../tests/js/helpers.mjs";
import { closedWorldCases } from "../tests/js/closed-world-cases.mjs";
const require = createRequire(import.meta.url);
const [da, db, nm = "3000"] = process.argv.slice(2);
const A = require(path.resolve(da, "lians_score.js")), B = require(path.resolve(db, "lians_score.js"));
const fn = { recall: "verifyRecallReceipt", context: "verifyContextReceipt", evidence_pack: "verifyEvidencePack", pack: "verifyEvidencePack", canonical: null };
let n = 0, bad = 0, mv = 0, mi = 0;
const out = (lib, name, wire, given) => { try { return JSON.stringify(lib[name](wire, given)); } catch (e) { return "THROW " + e.message; } };
function cmp(label, name, wire, given) {
  for (const w of [wire, Buffer.from(wire)]) {
    const a = out(A, name, w, given), b = out(B, name, w, given);
    if (label.startsWith("mut")) { if (a.includes("\"valid\":true")) mv++; else mi++; }
    n++;
    if (a !== b) { bad++; if (bad < 10) console.log("DIFF", label, typeof w, "\n A", a.slice(0, 600), "\n B", b.slice(0, 600)); }
  }
}
for (const line of readFileSync("tests/data/conformance/receipts/cases.jsonl", "utf8").split("\n")) {
  if (!line.trim()) continue;
  const c = JSON.parse(line);
  if (typeof c.wire !== "string") continue;
  if (c.kind === "canonical") { const a = out(A, "canonicalJson", c.wire), b = out(B, "canonicalJson", c.wire); n++; if (a !== b) { bad++; console.log("DIFF canon", c.id); } continue; }
  cmp(c.id, fn[c.kind], c.wire, c.given ?? null);
  cmp(c.id + "+canon", fn[c.kind], c.wire, { ...(c.given ?? {}), include_canonical: true });
}
for (const b of verificationBodies()) cmp(b.name, fn[b.kind], b.text, b.given);
for (const c of closedWorldCases(A)) cmp(c.name, fn[c.kind], c.text, c.options ?? (c.query ? { query: c.query } : null));
const big = readFileSync("target/bench-data/recall_receipt_200.wire.json", "utf8");
const { query } = JSON.parse(readFileSync("target/bench-data/recall_receipt_200.given.json", "utf8"));
cmp("bench200", "verifyRecallReceipt", big, { query });
cmp("bench200+c", "verifyRecallReceipt", big, { query, include_canonical: true });
// Number / string / key mutations of real bodies.
const srcs = [readFileSync(path.join(SAMPLES, "recall-08-fast-filters-acme-tinyfloat.json"), "utf8"), readFileSync(path.join(SAMPLES, "context-01-deep-acme-summary.json"), "utf8"), readFileSync("target/bench-data/recall_receipt_10.wire.json", "utf8")];
const kinds = ["verifyRecallReceipt", "verifyContextReceipt", "verifyRecallReceipt"];
const rnd = mulberry32(12345);
const pick = (a) => a[Math.floor(rnd() * a.length)];
const numVariants = (t) => {
  const v = Number(t);
  return [t + "0", t.includes(".") ? t : t + ".0", "-" + t, "-0", "-0.0", "0", "0.0", String(v * 2), v.toExponential(), String(v + 1e-16), "1e400", "NaN", "Infinity", "1", "1.0", "1E0", "100000000000000000000", "0.000001", "1e-7", "1e-07", "\"" + t + "\"", "null", "true", "[]", "{}", String(Math.round(v))];
};
const strVariants = (s) => [s.toUpperCase(), s + "x", "", s.replace(/T/, " "), s.replace(/Z$/, "+00:00"), s.replace(/\+00:00$/, "Z"), s.slice(0, -1), "\\u0041" + s.slice(1), s + "\\ud800", "2026-04-02T09:00:00Z", "2026-04-02T09:00:00.000000+00:00"];
for (let k = 0; k < Number(nm); k++) {
  const si = Math.floor(rnd() * srcs.length);
  let t = srcs[si];
  const edits = 1 + Math.floor(rnd() * 3);
  for (let e = 0; e < edits; e++) {
    const r = rnd();
    if (r < 0.5) {
      const re = /(?<=[:\[,]\s*)-?\d+(\.\d+)?([eE][-+]?\d+)?/g; const ms = [...t.matchAll(re)]; if (!ms.length) continue;
      const m = pick(ms); t = t.slice(0, m.index) + pick(numVariants(m[0])) + t.slice(m.index + m[0].length);
    } else if (r < 0.85) {
      const re = /(?<=:\s*)"((?:[^"\\]|\\.)*)"/g; const ms = [...t.matchAll(re)]; if (!ms.length) continue;
      const m = pick(ms); t = t.slice(0, m.index) + '"' + pick(strVariants(m[1])) + '"' + t.slice(m.index + m[0].length);
    } else {
      const re = /"((?:[^"\\]|\\.)*)"(?=\s*:)/g; const ms = [...t.matchAll(re)]; if (!ms.length) continue;
      const m = pick(ms); t = t.slice(0, m.index) + '"' + pick([m[1] + "_", "__proto__", m[1].toUpperCase(), "context_" + m[1], "receipt"]) + '"' + t.slice(m.index + m[0].length);
    }
  }
  cmp("mut" + k, kinds[si], t, rnd() < 0.5 ? null : { privacy_minimal: rnd() < 0.3 });
}
console.log(`${n} comparisons, ${bad} differ; mutated valid ${mv} / invalid ${mi}`);
process.exit(bad ? 1 : 0);
