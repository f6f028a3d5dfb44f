// scoreMemory's result is printed straight to JSON text in the wasm (Scored::write_json, issue #32
// round 9) instead of through a Value and the one printer. Its JS object must be exactly what the
// printed Value parses to: on every public score_memory vector, the object scoreMemory returns
// (JSON text input, and the same input as a JS object) against JSON.parse of the native-identical
// replay line of dist/cli (api::score_memory -> json::to_json_string), compared as text with key
// order, -0 and non-finite numbers kept; purposes of every JSON type included.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import * as lians from "lians-score";
import { ROOT, vectorLines } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const glue = require(path.join(ROOT, "dist/cli/lians_score.js"));

/** Text of a value with key order, -0 and non-finite numbers visible. */
const show = (v) =>
  JSON.stringify(v, (k, x) => (typeof x === "number" && !Number.isFinite(x) ? String(x) : Object.is(x, -0) ? "-0" : x));

/** scoreMemory's result or its error, as the replay prints an error row. */
function score(input) {
  try {
    return lians.scoreMemory(input);
  } catch (e) {
    return { error: e.code, message: e.message };
  }
}

const PURPOSES = [undefined, '"admission"', "null", "1", "-0.0", "2.5", "123456789012345678901234567890", '{"a":[1,"\\ud800x"],"":{}}', '"tab\\t\\"q\\" é 😀"', "[]"];

test("scoreMemory's object is the printed breakdown parsed (every vector, text and object input)", () => {
  let compared = 0;
  for (const line of vectorLines("score_memory")) {
    // Marker-encoded numbers ({"$float": "NaN"}-like strings) are decoded by the replay only.
    if (/NaN|Infinity/.test(line)) continue;
    const vector = JSON.parse(line);
    for (const purpose of PURPOSES) {
      const input = { ...vector.input };
      if (purpose !== undefined) input.purpose = JSON.parse(purpose);
      const text = JSON.stringify(input);
      const replayed = JSON.parse(glue.replayScoringLine(JSON.stringify({ id: vector.id, fn: "score_memory", input }))).actual;
      const want = show(replayed);
      assert.equal(show(score(text)), want, `text input ${text.slice(0, 300)}`);
      // The object converts as its text reads, unless it holds -0 or an integer past 2^53 (a float there).
      if (show(input) === text && !/\d{16}/.test(text)) assert.equal(show(score(input)), want, `object input ${text.slice(0, 300)}`);
      compared++;
    }
  }
  assert.ok(compared > 10000, `only ${compared} compared`);
});

// The Node entry (js/node.cjs) builds scoreMemory's object in JS from the numbers the wasm leaves in its
// memory (`__lians_score_memory`, issue #32 round 12): it must be the glue's object, key for key, for
// every purpose (strings, lone surrogates, other JSON types), static and built reasons, naive and offset
// reference times; after an instance reset; after the memory grew; and a caller changing a returned
// object (its limits, weights, reasons) must not change the next one.
test("the Node entry's scoreMemory object equals the glue's (resets, memory growth, mutation)", () => {
  const nodeGlue = require(path.join(ROOT, "dist/node/lians_score.js"));
  const entry = require(path.join(ROOT, "js/node.cjs"));
  assert.equal(typeof nodeGlue.__lians_score_memory, "function");
  const purposes = [undefined, "recall", "admission", "", "\ud800", "x\udc00y", "😀 é", "Admission", null, 0, -0, 2.5, true, [], { a: "\ud800" }];
  const sources = [undefined, "user_provided", "chat", "Straße", "\ud800x", "system_verified", "operator", null, 3];
  const base = { content: "Budget 東京 approved on 2024-05-01: $1200 Straße", reference_time: "2026-11-30T00:00:00+00:00", query: "budget 東京 zzz" };
  const inputs = [];
  for (const purpose of purposes) for (const source of sources) inputs.push({ ...base, purpose, source });
  for (const reference_time of ["2026-11-30T00:00:00", "2026-11-30T00:00:00+05:30", "2026-11-30"]) inputs.push({ ...base, reference_time });
  inputs.push({ ...base, verified_trust_level: "trusted_source" }, { ...base, safety_status: "rejected" }, { ...base, superseded: true });
  inputs.push({ ...base, importance: NaN }, { ...base, base_relevance: Infinity }, { ...base, metadata: { trust_level: "high", tags: ["x"] } });
  let compared = 0;
  const compare = (input) => {
    const got = (() => { try { return show(entry.scoreMemory(input)); } catch (e) { return `${e.code} ${e.path} ${e.message}`; } })();
    const want = (() => { try { return show(nodeGlue.scoreMemory(input)); } catch (e) { return `${e.code} ${e.path} ${e.message}`; } })();
    assert.equal(got, want, show(input).slice(0, 300));
    compared++;
  };
  for (const input of inputs) compare(input), compare(JSON.stringify(input));
  // A caller's changes to a result stay in that result.
  const first = entry.scoreMemory(base);
  first.weights.relevance_score = 9;
  first.scoring_limits.token_cap = 9;
  first.reasons[0] = "changed";
  compare(base);
  // Memory growth (a large content), then resets after every call.
  compare({ ...base, content: "é".repeat(3_000_000) });
  for (const input of inputs.slice(0, 20)) compare(input);
  const before = entry.memoryStats();
  entry.configureLimits({ resetMemoryBytes: 0 });
  try {
    for (const input of inputs.slice(0, 30)) compare(input);
    assert.ok(entry.memoryStats().resets >= before.resets + 30, "the instance was reset after each call");
  } finally {
    entry.configureLimits({ resetMemoryBytes: before.resetMemoryBytes });
  }
  assert.ok(compared > 300, `only ${compared} compared`);
  // The objects were built by the entry, not taken from the glue's scoreMemory (the first call checked them).
  const glueScore = nodeGlue.scoreMemory;
  let glueCalls = 0;
  nodeGlue.scoreMemory = (...args) => (glueCalls++, glueScore(...args));
  try {
    for (const input of inputs.slice(0, 40)) entry.scoreMemory({ ...input, purpose: "recall" });
  } finally {
    nodeGlue.scoreMemory = glueScore;
  }
  assert.equal(glueCalls, 0, "the glue's scoreMemory was called");
});
