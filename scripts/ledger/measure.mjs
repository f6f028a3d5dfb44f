#!/usr/bin/env node
// Measure the consistency ledger (docs/ledger.md, BENCHMARKS.md "Consistency ledger"):
//   node scripts/ledger/measure.mjs [N]
// 1. size: N memories (default 10,000) written and then read back once through
//    the ledger's SQLite store; the file size per 1,000 memories.
// 2. cost per recorded response: tests/data/ledger/honest.jsonl replayed
//    (verification + ledger) against verification alone, median of 5 runs.
import { mkdtempSync, rmSync, statSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID, createHash } from "node:crypto";
import { createLedger, verifyRecallReceipt, verifyContextReceipt } from "../../js/node.mjs";

const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const N = Number(process.argv[2] ?? 10_000);
const dir = mkdtempSync(path.join(tmpdir(), "ledger-measure-"));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  // 1. Size.
  const file = path.join(dir, "size.db");
  const ledger = await createLedger({ path: file });
  const t0 = Date.parse("2026-12-01T00:00:00Z");
  const sources = ["crm", "ops-log", "finance", null, "user_correction"];
  for (let i = 0; i < N; i++) {
    const id = randomUUID();
    const content = `memory ${i}: ${randomUUID()}`;
    const et = new Date(t0 - i * 60_000).toISOString().replace(".000Z", "");
    const ing = new Date(t0 + i * 10).toISOString().replace("Z", "123");
    const body = JSON.stringify({
      id, namespace: "ns-measure", agent_id: "ops", content, subject_id: i % 10 === 0 ? `subject-${i % 97}` : null,
      event_time: `${et}+00:00`, ingestion_time: ing, valid_from: `${et}+00:00`, valid_to: null, superseded_by: null,
      supersession_confidence: null, barrier_group: null, importance: 0.5, source: sources[i % sources.length],
      content_hash: createHash("sha256").update(content).digest("hex"), erased_at: null,
    });
    const t = new Date(t0 + i * 10).toISOString().replace("Z", "+00:00");
    await ledger.record({ client: "measure", t_sent: t, t_recv: t, request: { method: "POST", url: "http://lians.invalid/v1/memories", body: JSON.stringify({ agent_id: "ops", content }) }, response: { status: 200, body } });
  }
  const stats = await ledger.stats();
  await ledger.close();
  const bytes = statSync(file).size;
  console.log(`size: ${stats.memories} memories, ${stats.exchanges} exchanges: ${bytes} B on disk = ${(bytes / (stats.memories / 1000) / 1024).toFixed(1)} KiB per 1,000 memories (one write exchange each)`);

  // 2. Cost per recorded response.
  const honest = readFileSync(path.join(ROOT, "tests/data/ledger/honest.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const reads = honest.filter((e) => /\/v1\/(recall|context)$/.test(e.request.url));
  const enc = new TextEncoder();
  const verifyOnly = [];
  const withLedger = [];
  const ledgerOnly = [];
  for (let run = 0; run < 5; run++) {
    let t = performance.now();
    for (const e of reads) {
      const query = JSON.parse(e.request.body).query;
      const v = e.request.url.endsWith("/recall") ? verifyRecallReceipt : verifyContextReceipt;
      v(enc.encode(e.response.body), { query });
    }
    verifyOnly.push((performance.now() - t) / reads.length);
    const l = await createLedger({ path: path.join(dir, `cost-${run}.db`) });
    t = performance.now();
    for (const e of honest) await l.record(e);
    withLedger.push((performance.now() - t) / honest.length);
    await l.close();
    // The ledger alone: the caller's verification report passed in (as createVerifyingFetch and the guard do).
    const l2 = await createLedger({ path: path.join(dir, `cost2-${run}.db`) });
    t = performance.now();
    for (const e of honest) await l2.record(e, { verification: { valid: true, failures: [] } });
    ledgerOnly.push((performance.now() - t) / honest.length);
    await l2.close();
  }
  const avgBody = reads.reduce((s, e) => s + e.response.body.length, 0) / reads.length;
  console.log(`cost: ${honest.length} exchanges (${reads.length} recall/context answers, mean ${(avgBody / 1024).toFixed(1)} KiB): ` +
    `verify alone ${median(verifyOnly).toFixed(2)} ms/answer; record (verify + ledger) ${median(withLedger).toFixed(2)} ms/exchange; ` +
    `ledger alone (report given) ${median(ledgerOnly).toFixed(2)} ms/exchange (median of 5)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
