// auditRecall in Node (the package's wasm build) and `lians-score audit` in
// both CLIs: real bodies of every recall mode audit consistent, the same
// report as the native build, lies are caught, bad input throws coded errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as lians from "lians-score";
import { ROOT, SAMPLES } from "./helpers.mjs";

const CAPTURED = path.join(ROOT, "tests/data/audit");
const NATIVE = path.join(ROOT, "target/release/lians-score");
const bodies = readdirSync(CAPTURED)
  .filter((f) => f.endsWith(".json"))
  .map((f) => ({
    name: f,
    file: path.join(CAPTURED, f),
    wire: readFileSync(path.join(CAPTURED, f), "utf8"),
    query: readFileSync(path.join(CAPTURED, f.replace(/\.json$/, ".query.txt")), "utf8"),
  }));
const sample = {
  name: "recall-08",
  file: path.join(SAMPLES, "recall-08-fast-filters-acme-tinyfloat.json"),
  wire: readFileSync(path.join(SAMPLES, "recall-08-fast-filters-acme-tinyfloat.json"), "utf8"),
  query: "Acme revenue",
};

test("auditRecall is exported and typed like the other functions", () => {
  assert.equal(typeof lians.auditRecall, "function");
});

test("real bodies of every recall mode audit consistent", () => {
  assert.ok(bodies.length >= 13);
  for (const b of [...bodies, sample]) {
    const report = lians.auditRecall(b.wire, { query: b.query });
    assert.equal(report.consistent, true, `${b.name}: ${JSON.stringify(report.failures)}`);
    assert.deepEqual(report.failures, []);
    assert.equal(report.cannot_audit.length, 4);
    assert.equal(typeof report.proves, "string");
    for (const r of report.results) {
      const [lo, hi] = r.retrieval_score;
      assert.ok(lo >= 0 && lo <= hi && hi <= 1, `${b.name}: ${r.retrieval_score}`);
      for (const c of r.checks) assert.equal(c.status, "passed");
    }
    // Bytes work too.
    assert.equal(lians.auditRecall(new TextEncoder().encode(b.wire), { query: b.query }).consistent, true);
  }
  // Without a query, query_variants[0] is used when it hashes to query_sha256.
  const report = lians.auditRecall(sample.wire);
  assert.equal(report.query_source, "query_variants/0");
  assert.equal(report.consistent, true);
});

test("a lie about one result's relevance or trust is caught", () => {
  // 0.514078 is result 0's relevance_score, in memories and receipt alike.
  assert.equal(sample.wire.split('"relevance_score":0.514078').length, 3);
  const relevance = lians.auditRecall(sample.wire.replaceAll('"relevance_score":0.514078', '"relevance_score":0.524078'), { query: sample.query });
  assert.equal(relevance.consistent, false);
  assert.deepEqual(relevance.failures, ["relevance_inconsistent"]);
  const failed = relevance.results[0].checks.find((c) => c.status === "failed");
  assert.equal(failed.pointer, "/memories/0/score_breakdown/relevance_score");
  assert.equal(failed.bound, 0.524078);
  assert.ok(Math.abs(failed.rederived - 0.514078) <= 1.01e-6, String(failed.rederived));
  const trust = lians.auditRecall(sample.wire.replaceAll('"trust_score":0.5,', '"trust_score":0.6,'), { query: sample.query });
  assert.deepEqual(trust.failures, ["component_mismatch"]);
});

test("input that cannot be audited throws coded errors", () => {
  const code = (fn) => {
    try {
      fn();
    } catch (e) {
      assert.equal(e.name, "LiansScoreError");
      return [e.code, e.path];
    }
    assert.fail("no error");
  };
  assert.deepEqual(code(() => lians.auditRecall("{")), ["malformed_json", "line 1, column 2"]);
  assert.equal(code(() => lians.auditRecall(JSON.parse(sample.wire)))[0], "wrong_type");
  assert.deepEqual(code(() => lians.auditRecall(JSON.stringify(JSON.parse(sample.wire).receipt), { query: "q" })), ["missing_field", "/memories"]);
  assert.deepEqual(code(() => lians.auditRecall(sample.wire, { query: 5 })), ["wrong_type", "/query"]);
  assert.equal(code(() => lians.auditRecall(sample.wire, 5))[0], "wrong_type");
  // Unknown option names fail closed (a misspelled query would silently audit without it).
  for (const name of ["qeury", "Query", "expected_sha256"]) {
    assert.deepEqual(code(() => lians.auditRecall(sample.wire, { [name]: sample.query })), ["invalid_value", `/${name}`], name);
  }
});

const cli = (args, input) => spawnSync(process.execPath, [path.join(ROOT, "js/cli.mjs"), ...args], { input, encoding: "utf8" });

test("lians-score audit: npm CLI prints the native CLI's bytes and exit statuses", () => {
  const native = existsSync(NATIVE) ? (args, input) => spawnSync(NATIVE, args, { input, encoding: "utf8" }) : null;
  for (const b of [...bodies, sample]) {
    const r = cli(["audit", b.file, "--query", b.query]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.split("\n").length, 2);
    assert.deepEqual(JSON.parse(r.stdout), lians.auditRecall(b.wire, { query: b.query }));
    if (native) {
      const n = native(["audit", b.file, "--query", b.query]);
      assert.equal(n.status, 0);
      assert.equal(r.stdout, n.stdout, b.name);
    }
  }
  const lie = sample.wire.replaceAll('"trust_score":0.5,', '"trust_score":0.6,');
  const r = cli(["audit", "-", "--query", sample.query], lie);
  assert.equal(r.status, 1);
  assert.deepEqual(JSON.parse(r.stdout).failures, ["component_mismatch"]);
  const bad = cli(["audit", "-"], "{");
  assert.equal(bad.status, 1);
  assert.equal(JSON.parse(bad.stdout).error, "malformed_json");
  assert.equal(cli(["audit"]).status, 2);
  assert.equal(cli(["audit", "/nonexistent/file.json"]).status, 2);
  assert.equal(cli(["audit", sample.file, "--nope"]).status, 2);
  if (native) {
    assert.equal(native(["audit", "-", "--query", sample.query], lie).stdout, r.stdout);
    assert.equal(native(["audit", "-"], "{").stdout, bad.stdout);
    assert.equal(native(["audit"]).status, 2);
    assert.equal(native(["audit", "/nonexistent/file.json"]).status, 2);
  }
});

// ---------------------------------------------------------------- issue #29: the request as evidence

const LIES = path.join(CAPTURED, "lies");
const lies = Object.entries(JSON.parse(readFileSync(path.join(LIES, "lies.json"), "utf8"))).map(([name, entry]) => ({
  name,
  code: entry.code,
  file: path.join(LIES, `${name}.json`),
  requestFile: path.join(LIES, `${name}.request.json`),
  wire: readFileSync(path.join(LIES, `${name}.json`), "utf8"),
  request: JSON.parse(readFileSync(path.join(LIES, `${name}.request.json`), "utf8")),
}));

test("the ten lies of issue #29 are caught by auditRecall with the request, and by both CLIs with --request", () => {
  assert.equal(lies.length, 10);
  const native = existsSync(NATIVE) ? (args) => spawnSync(NATIVE, args, { encoding: "utf8" }) : null;
  for (const lie of lies) {
    const report = lians.auditRecall(lie.wire, { request: lie.request });
    assert.equal(report.consistent, false, lie.name);
    assert.ok(report.failures.includes(lie.code), `${lie.name}: ${report.failures}`);
    // The lie still verifies: only the audit sees it.
    assert.equal(lians.verifyRecallReceipt(lie.wire, { query: lie.request.query }).valid, true, lie.name);
    const r = cli(["audit", lie.file, "--request", lie.requestFile]);
    assert.equal(r.status, 1, `${lie.name}: ${r.stderr}`);
    assert.deepEqual(JSON.parse(r.stdout), report, lie.name);
    if (native) {
      const n = native(["audit", lie.file, "--request", lie.requestFile]);
      assert.equal(n.status, 1, lie.name);
      assert.equal(n.stdout, r.stdout, lie.name);
    }
  }
});

test("captured bodies audit consistent with their request; unknown request keys fail closed", () => {
  for (const b of bodies) {
    const request = JSON.parse(readFileSync(path.join(CAPTURED, "requests", b.name), "utf8"));
    const report = lians.auditRecall(b.wire, { request });
    assert.equal(report.consistent, true, `${b.name}: ${report.failures}`);
    for (const r of report.results) assert.ok(r.cannot_audit.includes("metadata"), b.name);
  }
  const b = bodies[0];
  const request = JSON.parse(readFileSync(path.join(CAPTURED, "requests", b.name), "utf8"));
  assert.throws(() => lians.auditRecall(b.wire, { request: { ...request, qeury: "x" } }), (e) => e.code === "invalid_value" && e.path === "/request/qeury");
  assert.throws(() => lians.auditRecall(b.wire, { request, clock_skew_seconds: -1 }), (e) => e.code === "invalid_value");
});

test("createVerifyingFetch({ audit: true }) audits each recall response against its request", async () => {
  const serve = (wire) => async () => new Response(wire, { status: 200, headers: { "content-type": "application/json" } });
  for (const lie of lies) {
    const fetch = lians.createVerifyingFetch(serve(lie.wire), { baseUrl: "http://127.0.0.1:1", audit: true });
    await assert.rejects(
      fetch("http://127.0.0.1:1/v1/recall", { method: "POST", body: JSON.stringify(lie.request) }),
      (e) => e.name === "LiansVerificationError" && e.report.failures.includes(lie.code) && /failed the audit/.test(e.message),
      lie.name,
    );
    const reported = await lians.createVerifyingFetch(serve(lie.wire), { baseUrl: "http://127.0.0.1:1", audit: true, onInvalid: "report" })(
      "http://127.0.0.1:1/v1/recall",
      { method: "POST", body: JSON.stringify(lie.request) },
    );
    assert.equal(reported.headers.get("x-lians-audit"), "inconsistent", lie.name);
    assert.equal(reported.liansAudit.consistent, false);
    // Without audit the lie passes: the receipt is intact.
    const plain = await lians.createVerifyingFetch(serve(lie.wire), { baseUrl: "http://127.0.0.1:1" })("http://127.0.0.1:1/v1/recall", { method: "POST", body: JSON.stringify(lie.request) });
    assert.equal(plain.headers.get("x-lians-verification"), "valid");
    assert.equal(plain.headers.get("x-lians-audit"), null);
  }
  // A genuine body passes the audit through the fetch (its time window is the capture's, so as_of bodies only:
  // without as_of, reference_time is long before this call's sent_at).
  const asof = bodies.find((b) => b.name === "recall-fast-asof.json");
  const request = JSON.parse(readFileSync(path.join(CAPTURED, "requests", asof.name), "utf8"));
  const res = await lians.createVerifyingFetch(serve(asof.wire), { baseUrl: "http://127.0.0.1:1", audit: true })("http://127.0.0.1:1/v1/recall", { method: "POST", body: JSON.stringify(request) });
  assert.equal(res.headers.get("x-lians-audit"), "consistent");
  assert.deepEqual(await res.json(), JSON.parse(asof.wire));
  assert.throws(() => lians.createVerifyingFetch(serve(asof.wire), { baseUrl: "http://127.0.0.1:1", audit: "yes" }), (e) => e.code === "wrong_type");
});
