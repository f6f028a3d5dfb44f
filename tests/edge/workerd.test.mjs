// Real workerd (npm `workerd`) serving the worker on 127.0.0.1: a score and a
// verify request. The process is started and stopped by this test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, SAMPLES } from "../js/helpers.mjs";
import { freePort, start, waitFor } from "../js/proc.mjs";

test("workerd serves score and verify requests", async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const bin = path.join(ROOT, "node_modules/.bin/workerd");
  const config = path.join(ROOT, "tests/edge/workerd/config.capnp");
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

    const bad = await fetch(`${base}/score`, { method: "POST", body: "{" });
    assert.equal(bad.status, 400);
    const badError = (await bad.json()).error;
    assert.equal(badError.code, "malformed_json");
    assert.equal(badError.typed, true, "a LiansScoreError instance in workerd");
  } finally {
    await proc.stop();
  }
});
