// One wasm instance survives every kind of bad input (tests/js/hostile.mjs):
// wrong JS types (numbers for strings, null, arrays, BigInt, Symbols,
// functions, class instances), getters and proxies that throw, getters that
// re-enter the module, cycles, shared-reference bombs, sparse arrays with a
// huge length, deep nesting, oversized strings and bytes, malformed text.
// Every call succeeds or throws a coded LiansScoreError, and after each one
// the same instance gives byte-identical answers to a fixed set of good calls.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import * as lians from "lians-score";
import { SAMPLES } from "./helpers.mjs";
import { runHostileMatrix } from "./hostile.mjs";

function samples() {
  const read = (name) => readFileSync(path.join(SAMPLES, name), "utf8");
  return {
    recall: read("recall-08-fast-filters-acme-tinyfloat.json"),
    context: read("context-01-deep-acme-summary.json"),
    pack: read("pack-01-v2-signed.json"),
    key: read("evidence_public_key.b64").trim(),
  };
}

test("the same instance keeps answering correctly after every kind of bad input", () => {
  const r = runHostileMatrix(lians, samples());
  assert.deepEqual(r.problems, [], r.problems.join("\n"));
  assert.ok(r.calls > 1000, `${r.calls} calls`);
  // Each limit and type rule was actually reached.
  for (const code of ["wrong_type", "invalid_value", "too_large", "nesting_too_deep", "malformed_json", "missing_field", "invalid_datetime"]) {
    assert.ok(r.codes[code] > 0, `no ${code} error in ${JSON.stringify(r.codes)}`);
  }
});

test("limits in the JS binding are checked before copying (fast, typed)", () => {
  const t = Date.now();
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  for (const call of [
    () => lians.sortCandidates(sparse),
    () => lians.canonicalJson({ a: sparse }),
    () => lians.scoreMemory(" ".repeat(33 << 20)),
    () => lians.verifyRecallReceipt(new Uint8Array(33 << 20)),
    () => lians.sha256Hex(new Uint8Array(33 << 20)),
  ]) {
    assert.throws(call, (e) => e.name === "LiansScoreError" && e.code === "too_large");
  }
  let level = "x";
  for (let i = 0; i < 5; i++) level = Array(64).fill(level);
  assert.throws(() => lians.canonicalJson(level), (e) => e.code === "too_large" && /shared references/.test(e.message));
  assert.ok(Date.now() - t < 10000, `${Date.now() - t} ms`);
});
