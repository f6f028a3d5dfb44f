// The consistency ledger on IndexedDB in real headless Chromium (playwright-core,
// /usr/bin/chromium): the same fixtures and the same alarms as on SQLite in Node
// (tests/js/ledger.test.mjs) and on a Durable Object in workerd (tests/edge/ledger-workerd.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { runPage } from "./chromium.mjs";
import { ROOT } from "./helpers.mjs";

test("the ledger on IndexedDB in Chromium: no alarm on the honest sequence, each lie its invariants", async () => {
  const lies = JSON.parse(readFileSync(path.join(ROOT, "tests/data/ledger/lies.json"), "utf8"));
  const { results: r, errors } = await runPage("/tests/js/browser/ledger.html", "__results", 240_000);
  assert.deepEqual(errors, []);
  assert.ok(r.ok, r.error);
  const honest = r.results["honest.jsonl"];
  assert.deepEqual(honest.invariants, []);
  assert.equal(honest.invalid, 0);
  assert.ok(honest.recorded >= 100);
  assert.equal(honest.stats.exchanges, honest.recorded);
  assert.deepEqual(r.results.reopened, honest.stats);
  for (const [file, expect] of Object.entries(lies)) {
    assert.deepEqual(r.results[file].invariants, [...expect].sort(), file);
    assert.equal(r.results[file].invalid, 0, file);
  }
});
