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
