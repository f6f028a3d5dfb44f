// The lean browser wasm (dist/web-lean, cargo feature lean: every export but
// auditRecall) against the full one (dist/web): every scoring conformance line
// through its function (and all score_memory inputs through scoreCandidates,
// as JSON Lines text and bytes), every receipt case through its verifier (as a
// string and as bytes, with and without include_canonical) and canonicalJson,
// the verification bodies of the tests and the 200-result bench body. Outputs
// are compared as JSON text (or the thrown code and message). Exit 1 on any
// difference. From the repository root, after scripts/build.sh:
//   node bench/lean-diff.mjs
import { existsSync, readFileSync } from "node:fs";
import * as fullGlue from "../dist/web/lians_score.js";
import * as leanGlue from "../dist/web-lean/lians_score_lean.js";
import { verificationBodies } from "../tests/js/helpers.mjs";

fullGlue.initSync({ module: readFileSync("dist/web/lians_score_bg.wasm") });
leanGlue.initSync({ module: readFileSync("dist/web-lean/lians_score_lean_bg.wasm") });
let n = 0;
let bad = 0;
const out = (lib, name, args) => {
  try {
    return JSON.stringify(lib[name](...args), (_, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v));
  } catch (e) {
    return `THROW ${e.code} ${e.path} ${e.message}`;
  }
};
function cmp(label, name, ...args) {
  const a = out(fullGlue, name, args);
  const b = out(leanGlue, name, args);
  n++;
  if (a !== b) {
    bad++;
    if (bad < 10) console.log("DIFF", label, name, "\n full", a.slice(0, 400), "\n lean", b.slice(0, 400));
  }
}
const lines = (file) => readFileSync(file, "utf8").split("\n").filter((l) => l.trim());
const SCORING = "tests/data/conformance/scoring";
const call = {
  score_memory: (i) => ["scoreMemory", i],
  detect_risk_tags: (i) => ["detectRiskTags", i.content],
  evaluate: (i) => ["evaluateAdmission", i],
  rank_position_score: (i) => ["rankPositionScore", i.position, i.total, i.input_score],
  stable_score_key: (i) => ["sortCandidates", i.candidates],
  tokenize_for_scoring: (i) => ["tokenizeForScoring", i.value],
};
const batch = [];
for (const file of ["score_memory", "detect_risk_tags", "evaluate", "rank_position_score", "stable_score_key", "tokenize_for_scoring"]) {
  for (const line of lines(`${SCORING}/${file}.jsonl`)) {
    const c = JSON.parse(line);
    const [name, ...args] = call[c.fn](c.input);
    cmp(c.id, name, ...args);
    if (c.fn === "score_memory") {
      batch.push(JSON.stringify(c.input));
      cmp(c.id, "riskSpans", c.input.content);
      cmp(c.id, "isTooVague", c.input.content);
      cmp(c.id, "rescoreReviewItem", c.input);
    }
  }
}
for (const output of ["jsonl", "full", "compact"]) {
  cmp("batch", "scoreCandidates", null, batch.join("\n"), { output });
  cmp("batch bytes", "scoreCandidates", null, Buffer.from(batch.join("\n")), { output });
}
const fn = { recall: "verifyRecallReceipt", context: "verifyContextReceipt", evidence_pack: "verifyEvidencePack", pack: "verifyEvidencePack" };
for (const line of lines("tests/data/conformance/receipts/cases.jsonl")) {
  const c = JSON.parse(line);
  if (typeof c.wire !== "string") continue;
  if (c.kind === "canonical") {
    cmp(c.id, "canonicalJson", c.wire);
    continue;
  }
  for (const w of [c.wire, Buffer.from(c.wire)]) {
    cmp(c.id, fn[c.kind], w, c.given ?? null);
    cmp(c.id, fn[c.kind], w, { ...(c.given ?? {}), include_canonical: true });
  }
  cmp(c.id, "sha256Hex", c.wire);
}
for (const b of verificationBodies()) for (const w of [b.text, Buffer.from(b.text)]) cmp(b.name, fn[b.kind], w, b.given);
if (existsSync("target/bench-data/recall_receipt_200.wire.json")) {
  const big = readFileSync("target/bench-data/recall_receipt_200.wire.json", "utf8");
  const { query } = JSON.parse(readFileSync("target/bench-data/recall_receipt_200.given.json", "utf8"));
  cmp("bench200", "verifyRecallReceipt", big, { query, include_canonical: true });
  cmp("bench200 bytes", "verifyRecallReceipt", Buffer.from(big), { query });
}
console.log(`lean-diff: ${n} outputs compared, ${bad} differ`);
process.exit(bad ? 1 : 0);
