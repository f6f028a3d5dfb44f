// The host's SHA-256 (issue #32 round 10, js/limits.mjs hostSha256): the Node entry hands the wasm
// node:crypto's SHA-256, and the wasm uses it (the calls are counted through node:crypto itself,
// whose functions the host looks up at each call); a host that throws is dropped and the wasm
// hashes with its own SHA-256: the same results, no trap. This file patches node:crypto for its own
// process only (node --test runs each file in a process of its own).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT, SAMPLES } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const crypto = require("node:crypto");
const real = { hash: crypto.hash, createHash: crypto.createHash };
const calls = { hash: 0, createHash: 0, update: 0 };
let failing = null; // "hash" | "createHash" | "update": that call throws
crypto.createHash = function createHash(...args) {
  calls.createHash++;
  if (failing === "createHash") throw new Error("test: createHash fails");
  const h = real.createHash.apply(this, args);
  const update = h.update;
  h.update = function (...a) {
    calls.update++;
    if (failing === "update") throw new Error("test: update fails");
    return update.apply(this, a);
  };
  return h;
};
if (typeof real.hash === "function") {
  crypto.hash = function hash(...args) {
    calls.hash++;
    if (failing === "hash") throw new Error("test: hash fails");
    return real.hash.apply(this, args);
  };
}
const api = require("../../js/node.cjs");
const { HOST_SHA256_MIN_BYTES } = require("../../js/limits.cjs");

const recall = readFileSync(path.join(SAMPLES, "recall-08-fast-filters-acme-tinyfloat.json"));
const pack = readFileSync(path.join(SAMPLES, "pack-01-v2-signed.json"));
const key = readFileSync(path.join(SAMPLES, "evidence_public_key.b64"), "utf8").trim();
const long = "x".repeat(Math.max(HOST_SHA256_MIN_BYTES, 1) * 4) + "é";
const expectedLong = real.createHash.call(crypto, "sha256").update(long).digest("hex");
const total = () => calls.hash + calls.createHash;

function run() {
  return {
    long: api.sha256Hex(long),
    recall: api.verifyRecallReceipt(recall, {}),
    pack: api.verifyEvidencePack(pack, { trusted_public_key: key }),
  };
}

test("the Node entry hashes through node:crypto, with the same results", () => {
  const before = { ...calls };
  const out = run();
  assert.equal(out.long, expectedLong);
  assert.equal(out.recall.valid, true, JSON.stringify(out.recall.failures));
  assert.equal(out.recall.receipt_sha256, JSON.parse(recall).receipt_sha256);
  assert.equal(out.pack.valid, true, JSON.stringify(out.pack.failures));
  // The one-shot digest (sha256Hex of a long string) and the streamed canonical texts (receipt, pack).
  assert.ok(calls.hash + calls.createHash - before.hash - before.createHash >= 2, JSON.stringify(calls));
  assert.ok(calls.createHash > before.createHash, "the canonical receipt is streamed to createHash");
  assert.ok(calls.update > before.update);
});

test("the entries over js/core.mjs find node:crypto by feature detection (process.getBuiltinModule)", async (t) => {
  if (typeof process.getBuiltinModule !== "function") return t.skip("this Node has no process.getBuiltinModule");
  const web = await import("../../js/web.mjs");
  web.initSync({ module: readFileSync(path.join(ROOT, "dist/web/lians_score_bg.wasm")) });
  const before = calls.createHash;
  const report = web.verifyRecallReceipt(recall, {});
  assert.equal(report.valid, true, JSON.stringify(report.failures));
  assert.ok(calls.createHash > before, "the canonical receipt is streamed to node:crypto");
});

for (const fails of ["hash", "createHash", "update"]) {
  test(`a host whose ${fails}() throws is dropped: the wasm's own SHA-256, the same results, no trap`, () => {
    const expected = run();
    // Every call resets the instance (js/node.cjs hands each new instance the host again).
    api.configureLimits({ resetMemoryBytes: 0 });
    try {
      failing = fails;
      const before = total();
      assert.deepEqual(run(), expected);
      assert.ok(total() > before, "the host was called (and threw)");
      const after = total();
      assert.deepEqual(run(), expected);
      assert.ok(total() > after, "each fresh instance gets the host again");
    } finally {
      failing = null;
      api.configureLimits({ resetMemoryBytes: 128 * 1024 * 1024 });
    }
    // The same instance, once its host has thrown, no longer calls it.
    failing = fails;
    try {
      run();
      const dropped = total();
      assert.deepEqual(run(), expected);
      assert.equal(total(), dropped, "a host that threw is not called again by that instance");
    } finally {
      failing = null;
    }
  });
}
