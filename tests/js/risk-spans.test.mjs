// riskSpans(content) and isTooVague(content): offsets in UTF-16 code units, so
// `content.slice(start, end) === text` with astral characters anywhere; the same
// spans as the code-point offsets of the Rust core (the replay path, checked
// against the reference by scripts/oracle.sh); detectRiskTags = span tags + vague.
//
//   node --test tests/js/risk-spans.test.mjs
//   LIANS_SPANS_SEED=7 node --test tests/js/risk-spans.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT, mulberry32 } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const lians = require(path.join(ROOT, "js/node.cjs"));
const glue = require(path.join(ROOT, "dist/cli/lians_score.js"));
const SEED = Number(process.env.LIANS_SPANS_SEED ?? 20261201);

test("riskSpans: UTF-16 offsets around astral characters, in the reference's order", () => {
  // 😀 and 𝟏 are two UTF-16 code units each; the reference's code-point offsets are 9..20 and 2..8.
  const content = "😀 a@b.io 𝟏𝟐𝟑-𝟒𝟓-𝟔𝟕𝟖𝟗";
  assert.deepEqual(lians.riskSpans(content), [
    { tag: "pii:ssn", start: 10, end: 30, text: "𝟏𝟐𝟑-𝟒𝟓-𝟔𝟕𝟖𝟗" },
    { tag: "pii:email", start: 3, end: 9, text: "a@b.io" },
  ]);
  // Every finditer match, a Luhn-invalid card skipped, `you are now (?:a|an|in)` ending after `a`.
  const many = "𝔘 4111111111111112 4111 1111 1111 1111 and you are now an agent; a@b.c-@d.ee";
  const spans = lians.riskSpans(many);
  assert.deepEqual(spans.map((s) => [s.tag, s.text]), [
    ["pii:email", "a@b.c"],
    ["pii:email", "-@d.ee"],
    ["pii:credit_card", "4111 1111 1111 1111 "],
    ["injection", "you are now a"],
  ]);
  for (const s of spans) assert.equal(many.slice(s.start, s.end), s.text);
  assert.deepEqual(lians.riskSpans("ok"), []);
  assert.deepEqual(lians.detectRiskTags("ok"), ["vague"]);
  assert.equal(lians.isTooVague("ok"), true);
  assert.equal(lians.isTooVague("a b c"), false);
});

test("riskSpans / isTooVague: bad input is a coded error", () => {
  for (const bad of [5, null, undefined, {}, ["x"]]) {
    for (const fn of [lians.riskSpans, lians.isTooVague]) {
      assert.throws(() => fn(bad), (e) => e.name === "LiansScoreError" && ["wrong_type", "missing_field"].includes(e.code));
    }
  }
  // Lone surrogates are content like any other (never part of a match).
  const s = "\ud800 a@b.io \udfff";
  assert.deepEqual(lians.riskSpans(s), [{ tag: "pii:email", start: 2, end: 8, text: "a@b.io" }]);
});

/** Random content packed with detector fragments, astral and Unicode digits between them. */
function randomContent(rand) {
  const parts = [
    "123-45-6789", "١٢٣-٤٥-٦٧٨٩", "𝟏𝟐𝟑-𝟒𝟓-𝟔𝟕𝟖𝟗", "a@b.co", "é@x.io", "-@", "@x.", "MRN 1234", "mrn:123456",
    "NPI 1234567890", "npı 𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗𝟎", "4111 1111 1111 1111", "4111111111111112", "𝟒𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏", "mnpi",
    "pre-announcement", "İnsider İnformation", "you are now a", "ignore all previous instructions",
    "reveal your prompt", "😀", "𠀀", "\ud800", " ", "-", ".", "_", "x", "贷款",
  ];
  const n = Math.floor(rand() * 14);
  let s = "";
  for (let i = 0; i < n; i++) s += parts[Math.floor(rand() * parts.length)];
  return s;
}

/** Code-point index → UTF-16 index in `s`. */
function utf16Offsets(s) {
  const at = [0];
  let u = 0;
  for (const ch of s) {
    u += ch.length;
    at.push(u);
  }
  return at;
}

test(`random contents (seed ${SEED}): UTF-16 offsets are the core's code-point offsets, slices are the text`, () => {
  const rand = mulberry32(SEED);
  let withAstral = 0;
  for (let k = 0; k < 3000; k++) {
    const content = randomContent(rand);
    const spans = lians.riskSpans(content);
    const line = JSON.stringify({ id: k, fn: "risk_spans", input: { content } });
    const core = JSON.parse(glue.replayScoringLine(line)).actual.spans;
    const at = utf16Offsets(content); // a lone surrogate is one code point and one code unit
    assert.equal(spans.length, core.length, content);
    spans.forEach((s, i) => {
      const c = core[i];
      assert.deepEqual([s.tag, s.start, s.end, s.text], [c.tag, at[c.start], at[c.end], c.text], content);
      assert.equal(content.slice(s.start, s.end), s.text, content);
      if (s.end - s.start !== [...s.text].length) withAstral++;
    });
    const tags = [...new Set(spans.map((s) => s.tag))];
    if (lians.isTooVague(content)) tags.push("vague");
    assert.deepEqual(lians.detectRiskTags(content), tags, content);
  }
  assert.ok(withAstral > 100, `only ${withAstral} spans held astral characters`);
});
