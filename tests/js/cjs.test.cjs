// The Node CommonJS entry: same functions, same instance as the ESM entry.
const { test } = require("node:test");
const assert = require("node:assert/strict");
const lians = require("lians-score");

test("require('lians-score') works synchronously", async () => {
  assert.equal(typeof lians.scoreMemory, "function");
  assert.equal(lians.SCORING_POLICY_VERSION, "lians-memory-scoring-v2");
  assert.equal(lians.sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const esm = await import("lians-score");
  assert.equal(esm.scoreMemory, lians.scoreMemory, "ESM re-exports the CommonJS instance");
});

test("errors carry code and path", () => {
  try {
    lians.canonicalJson({ a: [1n] });
    assert.fail("should throw");
  } catch (error) {
    assert.ok(error instanceof Error);
    assert.equal(error.code, "wrong_type");
    assert.equal(error.path, "/a/0");
  }
});

test("canonical JSON from CommonJS", () => {
  assert.equal(lians.canonicalJson('{"b":[1.0,2],"a":"\\u00e9"}'), '{"a":"\\u00e9","b":[1.0,2]}');
});
