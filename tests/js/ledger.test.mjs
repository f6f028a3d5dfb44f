// The consistency ledger (js/ledger.mjs) in Node, on SQLite (js/ledger-sqlite.mjs):
// the honest sequence recorded from the real server raises no alarm; each lie
// raises exactly its invariants; the CLI; persistence; typed errors.
// tests/js/ledger-browser.e2e.mjs and tests/edge/ledger-workerd.test.mjs replay
// the same fixtures on IndexedDB and a Durable Object.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { compareLedgers, createLedger, LiansScoreError } from "../../js/node.mjs";
import { ROOT } from "./helpers.mjs";
import { assemble, invariantsOf, parseLines, replay } from "./ledger-fixtures.mjs";

const DATA = path.join(ROOT, "tests/data/ledger");
const HONEST = parseLines(readFileSync(path.join(DATA, "honest.jsonl"), "utf8"));
const LIES = JSON.parse(readFileSync(path.join(DATA, "lies.json"), "utf8"));
const tmp = mkdtempSync(path.join(tmpdir(), "ledger-test-"));
let n = 0;
const dbPath = () => path.join(tmp, `l${n++}.db`);
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

test("the honest sequence covers every write path of the spec", () => {
  assert.ok(HONEST.length >= 100, `${HONEST.length} exchanges`);
  const seen = new Set(HONEST.map((e) => `${e.request.method} ${new URL(e.request.url).pathname.replace(/[0-9a-f-]{36}/g, "{id}")} ${e.response.status}`));
  for (const route of [
    "POST /v1/memories 200",
    "PATCH /v1/supersessions/{id} 200",
    "POST /v1/memories/{id}/review 200",
    "POST /v1/memories/{id}/feedback 200",
    "POST /v1/conflicts/{id}/resolve 200",
    "POST /v1/erase 200",
    "GET /v1/erase/cust-7/certificate 200",
    "POST /v1/admin/retention/ledger-ns-b/prune 200",
    "POST /v1/admin/retention/ledger-ns-a/prune 409",
    "POST /v1/recall 200",
    "POST /v1/context 200",
    "GET /v1/memories/{id}/lineage 200",
  ]) assert.ok(seen.has(route), route);
  const clients = new Set(HONEST.map((e) => e.client));
  for (const c of ["a1", "a2", "b1"]) assert.ok(clients.has(c), c);
  const bodies = HONEST.map((e) => e.request.body ?? "");
  assert.ok(bodies.some((b) => b.includes('"as_of"')), "as_of recalls");
  assert.ok(bodies.some((b) => /\+02:00/.test(b)), "a +02:00 event time");
  assert.ok(HONEST.some((e) => e.request.headers?.["idempotency-key"]), "an Idempotency-Key replay");
  const neighbours = HONEST.filter((e) => /"context_neighbors":\{"/.test(e.response.body ?? "")).length;
  assert.ok(neighbours > 0, "answers with neighbours");
  assert.ok(HONEST.some((e) => /"open_conflicts":\[\{/.test(e.response.body ?? "")), "a context answer with an open conflict");
});

test("no alarm on the honest sequence (SQLite)", async () => {
  const ledger = await createLedger({ path: dbPath() });
  const r = await replay(ledger, HONEST);
  assert.deepEqual(r.alarms, []);
  assert.equal(r.invalid, 0);
  assert.ok(r.recorded >= 100, `${r.recorded} recorded`);
  const stats = await ledger.stats();
  assert.equal(stats.exchanges, r.recorded);
  await ledger.close();
});

for (const [file, expect] of Object.entries(LIES)) {
  test(`${file} raises ${expect.join(", ")} and nothing else (SQLite)`, async () => {
    const lie = parseLines(readFileSync(path.join(DATA, file), "utf8"));
    const ledger = await createLedger({ path: dbPath() });
    const r = await replay(ledger, assemble(HONEST, lie));
    assert.equal(r.invalid, 0);
    assert.deepEqual(invariantsOf(r.alarms), [...expect].sort());
    await ledger.close();
  });
}

test("every lie fixture of the manifest exists, and every lie file is in it", () => {
  const files = readdirSync(DATA).filter((f) => f.startsWith("lie-"));
  assert.deepEqual(files.sort(), Object.keys(LIES).sort());
  const covered = new Set(Object.values(LIES).flat());
  for (const inv of ["I1", "I1b", "I2", "I3", "I4", "I5", "I6", "I7", "I9", "I10", "I12", "I13", "I14", "I15"]) assert.ok(covered.has(inv), inv);
});

test("an alarm carries the invariant, the memory id, both observations and their receipt hashes", async () => {
  const lie = parseLines(readFileSync(path.join(DATA, "lie-db-event-time.jsonl"), "utf8"));
  const ledger = await createLedger({ path: dbPath() });
  await replay(ledger, HONEST);
  let r;
  let line;
  for (line of lie) {
    r = await ledger.record(line);
    if (r.alarms.length > 0) break;
  }
  const a = r.alarms.find((x) => x.invariant === "I2");
  assert.ok(a, JSON.stringify(r.alarms));
  assert.match(a.memory_id, /^[0-9a-f-]{36}$/);
  // The previous observation is the exchange where the ledger first saw the memory: here its own write (no receipt).
  assert.equal(a.previous.kind, "write");
  assert.equal(a.previous.receipt_sha256, null);
  assert.equal(a.previous.client, "a1");
  assert.match(a.current.receipt_sha256, /^[0-9a-f]{64}$/);
  assert.notEqual(a.previous.value, a.current.value);
  assert.equal(a.current.receipt_sha256, JSON.parse(line.response.body).receipt_sha256);
  assert.deepEqual(r.warnings, []);
  await ledger.close();
});

test("the ledger persists: a lie after a reopen is still caught; the file is written in place", async () => {
  const file = dbPath();
  let ledger = await createLedger({ path: file });
  await replay(ledger, HONEST.slice(0, 60));
  await ledger.close();
  const ino = statSync(file).ino;
  ledger = await createLedger({ path: file });
  await replay(ledger, HONEST.slice(60));
  await ledger.close();
  assert.equal(statSync(file).ino, ino, "the same file, not a rewritten copy");
  ledger = await createLedger({ path: file });
  const lie = parseLines(readFileSync(path.join(DATA, "lie-db-content-source.jsonl"), "utf8"));
  const r = await replay(ledger, lie);
  assert.deepEqual(invariantsOf(r.alarms), ["I1", "I3"]);
  await ledger.close();
});

test("I8: a result of an as_of recall after as_of (a verified answer, by the caller's report)", async () => {
  const ledger = await createLedger({ path: dbPath() });
  const i = HONEST.findIndex((e) => (e.request.body ?? "").includes('"as_of"') && JSON.parse(e.response.body).memories.length > 0);
  const e = structuredClone(HONEST[i]);
  const body = JSON.parse(e.response.body);
  body.receipt.as_of = "2000-01-01T00:00:00+00:00";
  e.response.body = JSON.stringify(body);
  const r = await ledger.record(e, { verification: { valid: true, failures: [] } });
  assert.deepEqual(invariantsOf(r.alarms), ["I8"]);
  // Without the caller's report the edited answer fails verification and is not recorded.
  const again = await ledger.record(e);
  assert.equal(again.recorded, false);
  assert.equal(again.verification.valid, false);
  assert.deepEqual(again.alarms, []);
  await ledger.close();
});

test("fingerprints and compareLedgers list the ids two clients disagree on", async () => {
  const a = await createLedger({ path: dbPath() });
  const b = await createLedger({ path: dbPath() });
  await replay(a, HONEST);
  await replay(b, HONEST);
  const fa = await a.fingerprints();
  assert.ok(fa.length >= 15, `${fa.length} fingerprints`);
  for (const f of fa) assert.match(f.fingerprint, /^[0-9a-f]{64}$/);
  assert.deepEqual((await compareLedgers(a, b)).differ, []);
  // b saw the edited row from its first sight: alone it raises nothing; comparing notes finds it.
  const lie = parseLines(readFileSync(path.join(DATA, "lie-db-event-time.jsonl"), "utf8"));
  const c = await createLedger({ path: dbPath() });
  const r = await replay(c, lie);
  assert.deepEqual(r.alarms, []);
  const cmp = await compareLedgers(a, c);
  assert.equal(cmp.differ.length, 1, JSON.stringify(cmp));
  assert.ok(cmp.shared > 0);
  for (const l of [a, b, c]) await l.close();
});

test("typed errors for a malformed exchange and bad options", async () => {
  await assert.rejects(createLedger(), (e) => e instanceof LiansScoreError && e.code === "wrong_type");
  await assert.rejects(createLedger({ path: dbPath(), skewMs: -1 }), (e) => e.code === "invalid_value" && e.path === "/options/skewMs");
  await assert.rejects(createLedger({ path: dbPath(), pth: "x" }), (e) => e.code === "invalid_value");
  const ledger = await createLedger({ path: dbPath() });
  const e = HONEST[10];
  await assert.rejects(ledger.record({ ...e, t_sent: "2026-12-04T10:00:00" }), (x) => x.code === "invalid_value" && x.path === "/t_sent");
  await assert.rejects(ledger.record({ ...e, client: undefined }), (x) => x.code === "missing_field" && x.path === "/client");
  await assert.rejects(ledger.record({ ...e, response: { status: "200", body: "" } }), (x) => x.path === "/response/status");
  // Other routes and non-2xx answers are not recorded and raise nothing.
  const other = await ledger.record({ ...e, request: { method: "GET", url: "https://x.example/v1/health", body: null } });
  assert.equal(other.kind, "other");
  assert.equal(other.recorded, false);
  await ledger.close();
});

test("lians-score ledger replay / diff (exit 0 honest, 1 with one ALARM line per alarm, 2 usage)", () => {
  const cli = path.join(ROOT, "js/cli.mjs");
  const honestFile = path.join(DATA, "honest.jsonl");
  const db = dbPath();
  const ok = spawnSync(process.execPath, [cli, "ledger", "replay", honestFile, "--db", db], { encoding: "utf8" });
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stdout, "");
  assert.match(ok.stderr, /168 exchanges, \d+ recorded, \d+ memories, 0 alarm\(s\)/);
  const lieFile = path.join(tmp, "lie.jsonl");
  const lie = assemble(HONEST, parseLines(readFileSync(path.join(DATA, "lie-db-content-source.jsonl"), "utf8")));
  writeFileSync(lieFile, lie.map((x) => JSON.stringify(x)).join("\n") + "\n");
  const db2 = dbPath();
  const bad = spawnSync(process.execPath, [cli, "ledger", "replay", lieFile, "--db", db2], { encoding: "utf8" });
  assert.equal(bad.status, 1, bad.stderr);
  const lines = bad.stdout.trim().split("\n");
  assert.ok(lines.length >= 2);
  for (const l of lines) assert.match(l, /^ALARM (I1|I3) [0-9a-f-]{36} line \d+: /);
  const diff = spawnSync(process.execPath, [cli, "ledger", "diff", db, db2], { encoding: "utf8" });
  assert.equal(diff.status, 0, diff.stderr); // db2 saw the truth first, then the lie: its fingerprints are the truth
  const usage = spawnSync(process.execPath, [cli, "ledger", "replay"], { encoding: "utf8" });
  assert.equal(usage.status, 2);
  const missing = spawnSync(process.execPath, [cli, "ledger", "diff", db, path.join(tmp, "none.db")], { encoding: "utf8" });
  assert.equal(missing.status, 2);
});

/** A base fetch that answers each request with the recorded answer of the next exchange of `log`. */
function replayFetch(log) {
  let i = 0;
  return async (input, init) => {
    const e = log[i++];
    const url = typeof input === "string" ? input : input.url;
    assert.equal(url, e.request.url);
    return new Response(e.response.body, { status: e.response.status, headers: { "content-type": "application/json" } });
  };
}

async function drive(fetch, log) {
  const out = [];
  for (const e of log) {
    const headers = { "x-api-key": `key-of-${e.client}`, ...(e.request.headers ? { "Idempotency-Key": e.request.headers["idempotency-key"] } : {}) };
    try {
      const res = await fetch(e.request.url, { method: e.request.method, headers, body: e.request.body ?? undefined });
      out.push({ ok: true, res });
    } catch (error) {
      out.push({ ok: false, error });
    }
  }
  return out;
}

test("createVerifyingFetch({ baseUrl, ledger }) records every exchange; an alarm rejects (or, with onInvalid: report, marks the answer)", async () => {
  const { createVerifyingFetch } = await import("../../js/node.mjs");
  const baseUrl = new URL(HONEST[0].request.url).origin;
  const lie = parseLines(readFileSync(path.join(DATA, "lie-db-content-source.jsonl"), "utf8"));
  // The lie's reads went to the restarted server: the same scope, another port.
  const liar = lie.map((e) => ({ ...e, request: { ...e.request, url: e.request.url.replace(new URL(e.request.url).origin, baseUrl) } }));
  const log = [...HONEST, ...liar];

  // The answers were recorded an hour ago and are replayed now: a clock skew of a year keeps I7/I15 (which would
  // rightly call them replays) out of this test of the wiring.
  const skewMs = 365 * 86_400_000;
  const ledger = await createLedger({ path: dbPath(), skewMs });
  const fetch = createVerifyingFetch(replayFetch(log), { baseUrl, ledger });
  const results = await drive(fetch, log);
  const honestPart = results.slice(0, HONEST.length);
  assert.deepEqual(honestPart.filter((r) => !r.ok).map((r) => r.error.message), []);
  const stats = await ledger.stats();
  assert.ok(stats.exchanges >= 150, `${stats.exchanges} exchanges recorded through the fetch`);
  const rejected = results.slice(HONEST.length).filter((r) => !r.ok);
  assert.ok(rejected.length > 0);
  for (const r of rejected) {
    assert.equal(r.error.name, "LiansVerificationError");
    assert.deepEqual(invariantsOf(r.error.alarms), ["I1", "I3"]);
  }
  await ledger.close();

  const ledger2 = await createLedger({ path: dbPath(), skewMs });
  const reporting = createVerifyingFetch(replayFetch(log), { baseUrl, ledger: ledger2, onInvalid: "report" });
  const results2 = await drive(reporting, log);
  assert.ok(results2.every((r) => r.ok));
  const marked = results2.filter((r) => r.res.headers.get("x-lians-ledger") === "alarm");
  assert.equal(marked.length, rejected.length);
  for (const r of marked) {
    assert.deepEqual(invariantsOf(r.res.liansLedger.alarms), ["I1", "I3"]);
    assert.equal(r.res.liansVerification.valid, true);
    JSON.parse(await r.res.text());
  }
  await ledger2.close();
  assert.throws(() => createVerifyingFetch(fetch, { baseUrl, ledger: {} }), (e) => e.code === "wrong_type" && e.path === "/options/ledger");
});
