// Real workerd (npm `workerd`) serving the worker on 127.0.0.1: a score and a
// verify request. The process is started and stopped by this test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, SAMPLES } from "../js/helpers.mjs";
import { freePort, start, waitFor } from "../js/proc.mjs";

// Without and with workerd's nodejs_compat flag: with it the entry finds node:crypto by feature
// detection and the wasm hashes through it (js/limits.mjs hostSha256); the results are the same.
for (const compat of [false, true]) {
test(`workerd serves score and verify requests${compat ? " (nodejs_compat: node:crypto's SHA-256)" : ""}`, async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const bin = path.join(ROOT, "node_modules/.bin/workerd");
  let config = path.join(ROOT, "tests/edge/workerd/config.capnp");
  if (compat) {
    const text = readFileSync(config, "utf8").replace('compatibilityDate = "2026-01-01",', '$&\n  compatibilityFlags = ["nodejs_compat"],');
    assert.ok(text.includes("nodejs_compat"));
    config = path.join(ROOT, "tests/edge/workerd", `.config-compat-${process.pid}.capnp`);
    writeFileSync(config, text);
  }
  const proc = start(bin, ["serve", config, "--socket-addr", `http=127.0.0.1:${port}`]);
  try {
    const health = await (await waitFor(`${base}/health`, proc, { ms: 30000, ok: (res) => res.ok })).json();
    assert.equal(health.ok, true);
    assert.equal(health.exported, true, "LiansScoreError, LiansVerificationError, createVerifyingFetch");
    assert.equal(health.sha, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

    const scored = await fetch(`${base}/score`, {
      method: "POST",
      body: '{"content":"Alice prefers window seats on long flights","reference_time":"2026-08-01T00:00:00+00:00","query":"window seat"}',
    });
    const breakdown = await scored.json();
    assert.equal(scored.status, 200, JSON.stringify(breakdown));
    assert.equal(breakdown.scoring_policy_version, "lians-memory-scoring-v2");
    assert.equal(typeof breakdown.final_score, "number");

    const wire = readFileSync(path.join(SAMPLES, "recall-08-fast-filters-acme-tinyfloat.json"), "utf8");
    const verified = await fetch(`${base}/verify`, { method: "POST", body: wire });
    const report = await verified.json();
    assert.equal(verified.status, 200, JSON.stringify(report));
    assert.equal(report.valid, true, JSON.stringify(report.failures));
    assert.equal(report.receipt_sha256, JSON.parse(wire).receipt_sha256);

    const audited = await fetch(`${base}/audit?query=${encodeURIComponent("Acme revenue")}`, { method: "POST", body: wire });
    const audit = await audited.json();
    assert.equal(audited.status, 200, JSON.stringify(audit));
    assert.equal(audit.consistent, true, JSON.stringify(audit.failures));
    assert.equal(audit.results.length, 2);
    const lie = wire.replaceAll('"trust_score":0.5,', '"trust_score":0.6,');
    const caught = await (await fetch(`${base}/audit?query=Acme%20revenue`, { method: "POST", body: lie })).json();
    assert.deepEqual(caught.failures, ["component_mismatch"]);

    // Worker-safe defaults (issue #32): a 4 MiB body cap, checked before parsing, and the
    // instance dropped after a call that grew its memory past the reset threshold.
    const limits = await (await fetch(`${base}/limits`)).json();
    assert.equal(limits.maxBodyBytes, 4 * 1024 * 1024);
    assert.equal(limits.resets, 0);
    assert.equal(limits.resetMemoryBytes, 32 * 1024 * 1024, "the edge threshold (the browser's is 128 MiB)");
    const over = await fetch(`${base}/verify-bytes`, { method: "POST", body: "{".repeat(4 * 1024 * 1024 + 1) });
    assert.equal(over.status, 400);
    assert.equal((await over.json()).error.code, "too_large");
    const dense = `{"receipt":{"schema":"lians.recall-receipt.v2","pad":[${"0,".repeat(1024 * 1024)}0]}}`;
    const reset = limits.memoryBytes + 4 * 1024 * 1024;
    const grown = await (await fetch(`${base}/verify-bytes?reset=${reset}`, { method: "POST", body: dense })).json();
    assert.equal(typeof grown.valid, "boolean", JSON.stringify(grown));
    assert.equal(grown.stats.resets, 1, JSON.stringify(grown.stats));
    assert.ok(grown.stats.memoryBytes <= reset, JSON.stringify(grown.stats));
    const again = await fetch(`${base}/verify`, { method: "POST", body: wire });
    assert.equal((await again.json()).valid, true, "the fresh instance verifies");

    const bad = await fetch(`${base}/score`, { method: "POST", body: "{" });
    assert.equal(bad.status, 400);
    const badError = (await bad.json()).error;
    assert.equal(badError.code, "malformed_json");
    assert.equal(badError.typed, true, "a LiansScoreError instance in workerd");
  } finally {
    await proc.stop();
    if (compat) rmSync(config, { force: true });
  }
});
}
