// The consistency ledger on a Durable Object's storage in real workerd (npm
// `workerd`): the same fixtures and the same alarms as on SQLite in Node
// (tests/js/ledger.test.mjs) and IndexedDB in Chromium (tests/js/ledger-browser.e2e.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../js/helpers.mjs";
import { freePort, start, waitFor } from "../js/proc.mjs";
import { assemble, parseLines } from "../js/ledger-fixtures.mjs";

const DATA = path.join(ROOT, "tests/data/ledger");
const jsonl = (lines) => lines.map((e) => JSON.stringify(e)).join("\n") + "\n";

test("the ledger on a Durable Object in workerd: no alarm on the honest sequence, each lie its invariants", async () => {
  const honestText = readFileSync(path.join(DATA, "honest.jsonl"), "utf8");
  const honest = parseLines(honestText);
  const lies = JSON.parse(readFileSync(path.join(DATA, "lies.json"), "utf8"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = start(path.join(ROOT, "node_modules/.bin/workerd"), ["serve", path.join(ROOT, "tests/edge/ledger/config.capnp"), "--socket-addr", `http=127.0.0.1:${port}`]);
  try {
    await waitFor(`${base}/health`, proc, { ms: 30000, ok: (res) => res.ok });
    const post = async (object, body) => {
      const res = await fetch(`${base}/replay?object=${object}`, { method: "POST", body });
      const text = await res.text();
      assert.equal(res.status, 200, text);
      return JSON.parse(text);
    };
    const h = await post("honest", honestText);
    assert.deepEqual(h.invariants, []);
    assert.equal(h.invalid, 0);
    assert.ok(h.recorded >= 100, `${h.recorded}`);
    assert.equal(h.stats.exchanges, h.recorded);
    // The Durable Object keeps its ledger: the content-source lie's reads, sent to the same object, alarm.
    const more = await post("honest", readFileSync(path.join(DATA, "lie-db-content-source.jsonl"), "utf8"));
    assert.deepEqual(more.invariants, ["I1", "I3"]);
    for (const [file, expect] of Object.entries(lies)) {
      const r = await post(file, jsonl(assemble(honest, parseLines(readFileSync(path.join(DATA, file), "utf8")))));
      assert.deepEqual(r.invariants, [...expect].sort(), file);
      assert.equal(r.invalid, 0, file);
    }
  } finally {
    await proc.stop();
  }
});

test("the Worker guard with its ledger in a Durable Object: the honest sequence passes, the edited row's answers are 502", async () => {
  const { createServer } = await import("node:http");
  const honest = parseLines(readFileSync(path.join(DATA, "honest.jsonl"), "utf8"));
  const lie = parseLines(readFileSync(path.join(DATA, "lie-db-content-source.jsonl"), "utf8"));
  const log = [...honest, ...lie];
  // The upstream: answers each request with the recorded answer of the next exchange (checked to be the same request).
  let next = 0;
  const upstream = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const e = log[next++];
      const same = e && req.method === e.request.method && req.url === new URL(e.request.url).pathname + new URL(e.request.url).search && (e.request.body ?? "") === body;
      if (!same) return res.writeHead(599).end(`unexpected ${req.method} ${req.url}`);
      res.writeHead(e.response.status, { "content-type": "application/json" }).end(e.response.body);
    });
  });
  await new Promise((r) => upstream.listen(0, "127.0.0.1", r));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = start(path.join(ROOT, "node_modules/.bin/workerd"), ["serve", path.join(ROOT, "tests/edge/ledger/config.capnp"), "--socket-addr", `http=127.0.0.1:${port}`]);
  try {
    await waitFor(`${base}/health`, proc, { ms: 30000, ok: (res) => res.ok });
    const statuses = [];
    const alarms = [];
    for (const e of log) {
      const u = new URL(e.request.url);
      const headers = { "x-api-key": `key-of-${e.client}`, "x-test-upstream": `http://127.0.0.1:${upstream.address().port}`, "content-type": "application/json" };
      if (e.request.headers?.["idempotency-key"]) headers["idempotency-key"] = e.request.headers["idempotency-key"];
      const res = await fetch(`${base}/guard${u.pathname}${u.search}`, { method: e.request.method, headers, body: e.request.body ?? undefined });
      const text = await res.text();
      statuses.push(res.status);
      if (res.status === 502) {
        const b = JSON.parse(text);
        assert.ok(Array.isArray(b.alarms), `${e.request.method} ${u.pathname}: ${text.slice(0, 300)}`);
        alarms.push(...b.alarms.map((a) => a.invariant));
      }
    }
    assert.deepEqual(statuses.slice(0, honest.length).filter((s) => s === 502 || s === 599), []);
    const after = statuses.slice(honest.length);
    assert.ok(after.includes(502), JSON.stringify(after));
    assert.deepEqual([...new Set(alarms)].sort(), ["I1", "I3"]);
    assert.equal(next, log.length);
  } finally {
    await proc.stop();
    upstream.close();
  }
});
