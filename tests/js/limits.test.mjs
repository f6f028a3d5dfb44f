// Body caps and the instance reset (issue #32, js/limits.mjs, js/core.mjs,
// js/node.cjs; docs/edge-memory.md), on the browser entry (js/web.mjs over
// dist/web, the code the workerd and edge-light entries run) and the Node entry. The workerd
// entry's default cap and a reset inside workerd: tests/edge/workerd.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT, SAMPLES } from "./helpers.mjs";

const web = await import("../../js/web.mjs");
web.initSync(readFileSync(path.join(ROOT, "dist/web/lians_score_bg.wasm")));
const node = createRequire(import.meta.url)("../../js/node.cjs");
const MiB = 1 << 20;
const wire = readFileSync(path.join(SAMPLES, "recall-08-fast-filters-acme-tinyfloat.json"), "utf8");
const wireBytes = Buffer.byteLength(wire);
const pack = readFileSync(path.join(SAMPLES, "pack-01-v2-signed.json"));

function tooLarge(fn) {
  assert.throws(fn, (e) => e.code === "too_large" && e.path === "" && e.name === "LiansScoreError", "too_large at the body");
}

for (const [name, lib] of [["web", web], ["node", node]]) {
  test(`${name}: the default cap is the library's 32 MiB; maxBodyBytes per call`, () => {
    assert.equal(lib.memoryStats().maxBodyBytes, 32 * MiB);
    const report = lib.verifyRecallReceipt(wire);
    assert.equal(report.valid, true, JSON.stringify(report.failures));
    // The option is taken out in JavaScript: the report is the same as without it.
    assert.deepEqual(lib.verifyRecallReceipt(wire, { maxBodyBytes: wireBytes }), report);
    tooLarge(() => lib.verifyRecallReceipt(wire, { maxBodyBytes: wireBytes - 1 }));
    tooLarge(() => lib.verifyRecallReceipt(new TextEncoder().encode(wire), { maxBodyBytes: 100 }));
    tooLarge(() => lib.verifyEvidencePack(pack, { allow_unsigned: true, maxBodyBytes: pack.length - 1 }));
    tooLarge(() => lib.verifyContextReceipt(wire, { maxBodyBytes: 0 }));
    // Refused before any parsing: malformed text over the cap is too_large, not malformed_json.
    tooLarge(() => lib.verifyRecallReceipt("{".repeat(50), { maxBodyBytes: 49 }));
    // UTF-8 bytes are counted, not UTF-16 units: 1,000 "é" are 2,000 bytes.
    const e = `"${"é".repeat(1000)}"`;
    tooLarge(() => lib.verifyRecallReceipt(e, { maxBodyBytes: 1500 }));
    assert.equal(lib.verifyRecallReceipt(e, { maxBodyBytes: 2002 }).valid, false);
    for (const bad of [-1, 1.5, "10", null]) {
      assert.throws(() => lib.verifyRecallReceipt(wire, { maxBodyBytes: bad }), (err) => err.code === "invalid_value");
    }
  });

  test(`${name}: configureLimits sets the default cap (never above 32 MiB)`, () => {
    try {
      lib.configureLimits({ maxBodyBytes: 1000 });
      assert.equal(lib.memoryStats().maxBodyBytes, 1000);
      tooLarge(() => lib.verifyRecallReceipt(wire));
      assert.equal(lib.verifyRecallReceipt(wire, { maxBodyBytes: wireBytes }).valid, true);
      lib.configureLimits({ maxBodyBytes: 64 * MiB });
      assert.equal(lib.memoryStats().maxBodyBytes, 32 * MiB);
      assert.throws(() => lib.configureLimits({ maxBody: 1 }), (err) => err.code === "invalid_value");
      assert.throws(() => lib.configureLimits(5), (err) => err.code === "wrong_type");
    } finally {
      lib.configureLimits({ maxBodyBytes: 32 * MiB });
    }
  });
}

for (const [name, lib] of [["web", web], ["node", node]]) {
  test(`${name}: an input that grew memory past the threshold leaves a fresh instance`, () => {
    const fresh = lib.memoryStats();
    assert.ok(fresh.memoryBytes > 0);
    // The default threshold in Node and the browser, whose cap is the whole 32 MiB: 128 MiB
    // (src/api/limits.rs; the workerd and edge-light entries keep 32 MiB: tests/edge/workerd.test.mjs).
    assert.equal(fresh.resetMemoryBytes, 128 * MiB);
    // A dense 4 MiB body (a value per two bytes) grows memory by tens of MiB.
    const dense = `{"receipt":{"schema":"lians.recall-receipt.v2","pad":[${"0,".repeat(2 * MiB)}0]}}`;
    const limit = fresh.memoryBytes + 8 * MiB;
    try {
      lib.configureLimits({ resetMemoryBytes: limit });
      const before = lib.memoryStats().resets;
      const first = lib.verifyRecallReceipt(dense);
      const after = lib.memoryStats();
      assert.equal(after.resets, before + 1, "the instance was dropped");
      assert.ok(after.memoryBytes <= limit, `${after.memoryBytes} bytes after the reset`);
      // The fresh instance answers as the old one did.
      assert.deepEqual(lib.verifyRecallReceipt(dense), first);
      assert.equal(lib.verifyRecallReceipt(wire).valid, true);
      // Small calls do not reset.
      const resets = lib.memoryStats().resets;
      for (let i = 0; i < 20; i++) lib.sha256Hex("abc");
      assert.equal(lib.memoryStats().resets, resets);
      // A body that fails to parse near its end grew memory too: reset as well.
      assert.equal(lib.verifyRecallReceipt(dense.slice(0, -1)).valid, false);
      assert.equal(lib.memoryStats().resets, resets + 1);
      // A call re-entered from a getter of the argument (memory grown inside the outer call): the
      // instance is not swapped under the outer call, only after it (one reset), and its answer holds.
      const plain = lib.canonicalJson({ content: "Acme renewal", query: "acme" });
      let inner;
      const outer = lib.canonicalJson({
        get content() {
          inner = lib.verifyRecallReceipt(dense);
          return "Acme renewal";
        },
        query: "acme",
      });
      assert.deepEqual(outer, plain);
      assert.deepEqual(inner, first);
      assert.equal(lib.memoryStats().resets, resets + 2);
    } finally {
      lib.configureLimits({ resetMemoryBytes: fresh.resetMemoryBytes });
    }
  });
}

test("node: at the default threshold no hostile body at the cap leaves more than 128 MiB behind (identical answers after)", () => {
  const report = node.verifyRecallReceipt(wire);
  const canonical = node.canonicalJson({ content: "Acme renewal", score: 0.5 });
  const baseline = node.memoryStats();
  assert.equal(baseline.resetMemoryBytes, 128 * MiB);
  assert.ok(baseline.memoryBytes < 8 * MiB, `${baseline.memoryBytes} bytes before`);
  // The densest shapes of docs/edge-memory.md, as bytes just under the 32 MiB cap: each either stays
  // within the threshold (memory per body byte <= 4) or is dropped after the call (a fresh instance).
  const bodies = {
    "[[0],[0],…]": `{"receipt":{"schema":"lians.recall-receipt.v2","pad":[${"[0],".repeat(7.5 * MiB)}[0]]}}`,
    "[0,0,…]": `{"receipt":{"schema":"lians.recall-receipt.v2","pad":[${"0,".repeat(15 * MiB)}0]}}`,
  };
  let resets = baseline.resets;
  for (const [shape, text] of Object.entries(bodies)) {
    const hostile = new TextEncoder().encode(text);
    assert.equal(node.verifyRecallReceipt(hostile).valid, false, shape);
    const after = node.memoryStats();
    assert.ok(after.memoryBytes <= 128 * MiB, `${shape}: ${after.memoryBytes} bytes left after the call`);
    if (after.resets > resets) {
      assert.equal(after.resets, resets + 1, shape);
      assert.ok(after.memoryBytes <= Math.max(baseline.memoryBytes, 2 * MiB), `${shape}: ${after.memoryBytes} bytes after the reset`);
    }
    resets = after.resets;
    // The instance (fresh or kept) gives the same answers.
    assert.deepEqual(node.verifyRecallReceipt(wire), report, shape);
    assert.equal(node.canonicalJson({ content: "Acme renewal", score: 0.5 }), canonical, shape);
    assert.equal(node.memoryStats().resets, resets, shape);
  }
  // resetMemoryBytes at its largest: never reset, the memory stays grown past the body.
  const hostile = new TextEncoder().encode(bodies["[[0],[0],…]"]);
  try {
    node.configureLimits({ resetMemoryBytes: Number.MAX_SAFE_INTEGER });
    node.verifyRecallReceipt(hostile);
    assert.equal(node.memoryStats().resets, resets);
    assert.ok(node.memoryStats().memoryBytes > hostile.length, `${node.memoryStats().memoryBytes} bytes without a reset`);
  } finally {
    node.configureLimits({ resetMemoryBytes: 128 * MiB });
  }
});
