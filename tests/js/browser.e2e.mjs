// Real headless Chromium (playwright-core, /usr/bin/chromium) loading the
// browser entry from a static server on 127.0.0.1 (tests/js/chromium.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { runPage } from "./chromium.mjs";

test("browser entry in headless Chromium", async () => {
  const { results: r, errors, wasm } = await runPage("/tests/js/browser/index.html", "__results", 30000);
  assert.deepEqual(errors, []);
  assert.equal(r.beforeInit.ok, false);
  assert.equal(r.beforeInit.code, "not_initialized");
  assert.deepEqual(r.init, { ok: true, value: true });
  // init() fetched the lean .wasm, init({ audit: true }) the full one, each once (issue #32 round 8).
  assert.deepEqual(wasm, ["/dist/web-lean/lians_score_lean_bg.wasm", "/dist/web/lians_score_bg.wasm"]);
  assert.equal(r.auditLean.ok, false);
  assert.equal(r.auditLean.name, "LiansScoreError");
  assert.equal(r.auditLean.code, "not_initialized");
  assert.equal(r.auditLean.path, "/");
  assert.match(r.auditLean.message, /call `await init\(\{ audit: true \}\)` first/);
  assert.deepEqual(r.initAudit, { ok: true, value: true });
  assert.equal(r.sha.value, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(r.canonical.value, '{"a":[1e-07,"\\ud800"],"b":1.0}', JSON.stringify(r.canonical));
  assert.equal(r.canonicalObject.value, '{"big":9007199254740992.0,"\\ud800":-0.0}', JSON.stringify(r.canonicalObject));
  assert.equal(r.cycle.code, "invalid_value");
  assert.equal(r.cycle.name, "LiansScoreError");
  assert.equal(r.score.ok, true, JSON.stringify(r.score));
  assert.equal(r.score.value.scoring_policy_version, "lians-memory-scoring-v2");
  assert.equal(r.receiptObject.code, "wrong_type");
  assert.equal(r.verify.ok, true, JSON.stringify(r.verify));
  assert.equal(r.verify.value.report.valid, true, JSON.stringify(r.verify.value.report.failures));
  assert.equal(r.verify.value.report.receipt_sha256, r.verify.value.expected);
  assert.equal(r.verifyBytes.ok, true, JSON.stringify(r.verifyBytes));
  assert.equal(r.verifyBytes.value.valid, true, JSON.stringify(r.verifyBytes.value.failures));
  assert.equal(r.audit.ok, true, JSON.stringify(r.audit));
  for (const [name, a] of Object.entries(r.audit.value)) assert.equal(a.consistent, true, `${name}: ${a.failures}`);
});

test("one instance survives every kind of bad input in Chromium (tests/js/hostile.mjs)", async () => {
  const { results: r, errors } = await runPage("/tests/js/browser/hostile.html", "__hostile", 120000);
  assert.deepEqual(errors, []);
  assert.deepEqual(r.problems, [], r.problems.join("\n"));
  assert.ok(r.calls > 1000 && r.codes.too_large > 0 && r.codes.wrong_type > 0, JSON.stringify(r.codes));
});
