// The consistency ledger against the real Lians server (PyPI lians-sdk==0.5.0):
// a client whose createVerifyingFetch({ baseUrl, ledger }) records every answer
// reads, the server is stopped, one SQLite row is edited by hand (a memory's
// event time moved, another's content and source swapped), the server is
// started on the same data, and the same reads are made again: every answer
// still verifies on its own, and the ledger raises I2, I1 and I3.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO, liansAvailable, startLians } from "./server.mjs";
import { createLedger, createVerifyingFetch } from "../../js/node.mjs";
import { freePort, start, waitFor } from "../js/proc.mjs";

const avail = await liansAvailable();

const hex = (id) => id.replaceAll("-", "");
function editRows(db, sql) {
  const py = path.join(REPO, ".lians-venv", "bin", "python");
  const edit = spawnSync(py, ["-c", "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.commit()", db, sql], { encoding: "utf8" });
  assert.equal(edit.status, 0, edit.stderr);
}

test("lians-score guard --ledger PATH: a row edited between two reads turns the answer into a 502", { skip: avail.skip, timeout: 180_000 }, async () => {
  const data = mkdtempSync(path.join(tmpdir(), "lians-ledger-guard-"));
  const port = await freePort();
  let lians = await startLians({ dataDir: path.join(data, "server"), port });
  const guardPort = await freePort();
  const guard = start(process.execPath, [path.join(REPO, "js/cli.mjs"), "guard", "--upstream", lians.url, "--listen", `127.0.0.1:${guardPort}`, "--ledger", path.join(data, "guard.db")]);
  const g = `http://127.0.0.1:${guardPort}`;
  try {
    await waitFor(`${g}/healthz`, guard, { ms: 30000, ok: (res) => res.ok });
    const key = await lians.makeKey("ledger-guard");
    const headers = { "X-API-Key": key, "Content-Type": "application/json" };
    const w = await fetch(`${g}/v1/memories`, { method: "POST", headers, body: JSON.stringify({ agent_id: "ops", content: "DYNA cold-chain sensor rollout in Denver paused at week 30: 90 sensors, owner team south-1", event_time: "2026-11-03T09:00:00+00:00", source: "ops-log" }) });
    assert.equal(w.status, 200);
    const id = (await w.json()).id;
    const read = () => fetch(`${g}/v1/recall`, { method: "POST", headers, body: JSON.stringify({ agent_id: "ops", query: "cold-chain sensor rollout Denver", k: 3 }) });
    const first = await read();
    assert.equal(first.status, 200, await first.clone().text());
    assert.equal(first.headers.get("x-lians-verification"), "valid");
    await first.text();
    const db = lians.dbPath;
    await lians.stop();
    editRows(db, `UPDATE memories SET source = 'board-deck' WHERE id = '${hex(id)}';`);
    lians = await startLians({ dataDir: path.join(data, "server"), port });
    const second = await read();
    const body = await second.json();
    assert.equal(second.status, 502, JSON.stringify(body));
    assert.equal(body.error, "lians_ledger_alarm");
    assert.deepEqual(body.alarms.map((a) => `${a.invariant} ${a.memory_id}`), [`I3 ${id}`]);
    assert.match(guard.output(), new RegExp(`ALARM I3 ${id}`));
  } finally {
    await guard.stop();
    await lians.stop();
    rmSync(data, { recursive: true, force: true });
  }
});

test("a row edited between two reads: the answers verify, the ledger alarms", { skip: avail.skip, timeout: 180_000 }, async () => {
  const data = mkdtempSync(path.join(tmpdir(), "lians-ledger-live-"));
  const ledger = await createLedger({ path: path.join(data, "client-ledger.db") });
  let lians = await startLians({ dataDir: path.join(data, "server") });
  try {
    const key = await lians.makeKey("ledger-live");
    const headers = { "X-API-Key": key, "Content-Type": "application/json" };
    const client = (url) => createVerifyingFetch(fetch, { baseUrl: url, ledger, onInvalid: "report" });
    let f = client(lians.url);
    const ids = [];
    const facts = [
      "HALO rail freight pilot in Porto expanded to week 26: 14 containers, owner team ops-9",
      "BOLT carrier contract in Osaka renegotiated to week 9: 12 trucks, owner team north-2",
      "CRUX pallet audit in Lyon approved for week 22: 41 containers, owner team infra-7",
    ];
    for (const [i, content] of facts.entries()) {
      const res = await f(`${lians.url}/v1/memories`, { method: "POST", headers, body: JSON.stringify({ agent_id: "ops", content, event_time: `2026-11-0${i + 1}T09:00:00+00:00`, source: "ops-log" }) });
      assert.equal(res.status, 200);
      ids.push((await res.json()).id);
    }
    const read = async () => {
      const out = [];
      for (const query of ["rail freight Porto", "carrier contract Osaka", "pallet audit Lyon"]) {
        const res = await f(`${lians.url}/v1/recall`, { method: "POST", headers, body: JSON.stringify({ agent_id: "ops", query, k: 3 }) });
        assert.equal(res.status, 200);
        assert.equal(res.liansVerification.valid, true, JSON.stringify(res.liansVerification.failures));
        out.push(res);
      }
      return out;
    };
    for (const res of await read()) assert.equal(res.headers.get("x-lians-ledger"), null);

    // Stop the server, edit its rows, start it on the same data.
    const db = lians.dbPath;
    await lians.stop();
    const hex = (id) => id.replaceAll("-", "");
    const sql = `UPDATE memories SET event_time = datetime(event_time, '-2 days'), valid_from = datetime(valid_from, '-2 days') WHERE id = '${hex(ids[0])}';
      UPDATE memories SET content_encrypted = (SELECT content_encrypted FROM memories WHERE id = '${hex(ids[2])}'),
        content_hash = (SELECT content_hash FROM memories WHERE id = '${hex(ids[2])}'), source = 'board-deck' WHERE id = '${hex(ids[1])}';`;
    const py = path.join(REPO, ".lians-venv", "bin", "python");
    const edit = spawnSync(py, ["-c", "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.commit()", db, sql], { encoding: "utf8" });
    assert.equal(edit.status, 0, edit.stderr);
    lians = await startLians({ dataDir: path.join(data, "server") });
    f = client(lians.url);

    const after = await read();
    const alarms = after.flatMap((res) => res.liansLedger?.alarms ?? []);
    const found = new Set(alarms.map((a) => `${a.invariant} ${a.memory_id}`));
    assert.ok(found.has(`I2 ${ids[0]}`), JSON.stringify([...found]));
    assert.ok(found.has(`I1 ${ids[1]}`), JSON.stringify([...found]));
    assert.ok(found.has(`I3 ${ids[1]}`), JSON.stringify([...found]));
    assert.deepEqual([...new Set(alarms.map((a) => a.invariant))].sort(), ["I1", "I2", "I3"]);
    for (const a of alarms) {
      assert.match(a.current.receipt_sha256, /^[0-9a-f]{64}$/);
      assert.notDeepEqual(a.previous.value, a.current.value);
    }
  } finally {
    await lians.stop();
    await ledger.close();
    rmSync(data, { recursive: true, force: true });
  }
});
