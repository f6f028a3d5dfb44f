// Freshness near 6-place rounding boundaries, in wasm (issue #24 class 8):
// exp(-ln 2 · age / 90) within 2 ulp of a half point, where one ulp of exp
// moves freshness_score by 1e-6. Rust's own f64::exp in wasm gave 0.372645,
// 0.672543, 0.331229, 0.409502, 0.093114; py::exp (glibc's algorithm) gives
// the reference's values (lians-sdk 0.5.0, CPython 3.12 math.exp).
// tests/scoring_properties.rs checks the same five natively.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as lians from "lians-score";

const CASES = [
  ["2000-05-08T04:06:30.221254+00:00", 0.372646, 0.469765],
  ["2000-02-21T12:10:08.772981+00:00", 0.672544, 0.499754],
  ["2000-05-23T11:15:31.572234+00:00", 0.331228, 0.465623],
  ["2000-04-25T22:12:02.175961+00:00", 0.409503, 0.47345],
  ["2000-11-04T05:40:36.280933+00:00", 0.093115, 0.441811],
];

test("freshness near rounding boundaries is CPython's (glibc exp in wasm)", () => {
  for (const [reference_time, freshness, final] of CASES) {
    const input = { content: "x", event_time: "2000-01-01T00:00:00+00:00", reference_time };
    const out = lians.scoreMemory(input);
    assert.equal(out.freshness_score, freshness, reference_time);
    assert.equal(out.final_score, final, reference_time);
    assert.deepEqual(lians.scoreMemory(JSON.stringify(input)), out);
  }
});
