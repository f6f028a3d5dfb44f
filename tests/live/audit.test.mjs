// The recall audit on fresh bodies from a real Lians server (lians-sdk
// 0.5.0): every recall body the live capture produces (fast, deep,
// reconstruct, as_of, filters, include_context, MMR, graph proximity,
// adaptive, an envelope-bound recall; fresh random content each run, seed
// printed, LIANS_LIVE_SEED replays it) audits 100% consistent in the package
// (Node), the native CLI and the npm CLI, with the same report everywhere;
// a lie about one relevance is caught. Each body also audits consistent
// with the request it answered (its JSON body, sent_at and received_at
// around the call). A second server runs with RECALL_MMR_LAMBDA=0.5, so that
// hybrid recall writes `mmr-selection` stages: its recalls all carry `as_of`,
// because without one the reference answers HTTP 500 (MissingGreenlet in
// _mmr_select, the embedding column lazy-loaded outside the async session).
// Every stage kind the server can produce here is audited: adaptive-fusion,
// mmr-selection, mmr-rerank, graph-proximity (the cross-encoder needs a
// reranker model, which this offline machine does not have; context
// learning is /v1/context). Starts and stops its own servers.
// Run: node --test tests/live/audit.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { liansAvailable, startLians, REPO } from './server.mjs';
import { captureLive, liveSeed } from './capture.mjs';
import { loadPackage } from '../e2e/pkg.mjs';

const REQUIRED = process.env.CI === 'true' || process.env.LIANS_LIVE_REQUIRE === '1';
const avail = await liansAvailable();
const { pkg, reason } = await loadPackage();
if (!pkg && REQUIRED) throw new Error(`live tests need the built package: ${reason}`);
const skip = avail.skip || (pkg ? false : `package not built: ${reason}`) || (pkg && typeof pkg.auditRecall !== 'function' ? 'no auditRecall in this build' : false);
const NATIVE = join(REPO, 'target', 'release', 'lians-score');
const OUT = join(REPO, 'test-output', 'live-audit');

describe('recall audit on a real Lians server', { skip }, () => {
  let lians;
  let manifest;
  let recalls;
  before(async () => {
    lians = await startLians();
    manifest = await captureLive(lians, { outDir: OUT, seed: liveSeed('audit') });
    recalls = manifest.items.filter((x) => x.kind === 'recall').map((x) => ({ ...x, path: join(OUT, x.file) }));
  });
  after(async () => { await lians?.stop(); });

  it('every recall body audits consistent, in the package and both CLIs', async () => {
    const { readFileSync } = await import('node:fs');
    assert.ok(recalls.length >= 10, `${recalls.length} recall bodies`);
    let results = 0;
    for (const item of recalls) {
      const wire = readFileSync(item.path, 'utf8');
      const report = pkg.auditRecall(wire, { query: item.query });
      const withRequest = pkg.auditRecall(wire, { request: { ...item.request, sent_at: item.sent_at, received_at: item.received_at } });
      assert.equal(withRequest.consistent, true, `${item.name} with its request (seed ${manifest.seed}): ${withRequest.failures}`);
      const failed = report.results.flatMap((r) => r.checks.filter((c) => c.status === 'failed').map((c) => `#${r.rank} ${c.check}: ${JSON.stringify(c.bound)} vs ${JSON.stringify(c.rederived)}`));
      assert.equal(report.consistent, true, `${item.name} (seed ${manifest.seed}): ${failed.join('; ')}`);
      for (const r of report.results) assert.ok(Array.isArray(r.retrieval_score), `${item.name} #${r.rank}`);
      results += report.results.length;
      const npm = spawnSync(process.execPath, [join(REPO, 'js', 'cli.mjs'), 'audit', item.path, '--query', item.query], { encoding: 'utf8' });
      assert.equal(npm.status, 0, `${item.name}: ${npm.stderr}`);
      assert.deepEqual(JSON.parse(npm.stdout), report);
      if (existsSync(NATIVE) || REQUIRED) {
        const native = spawnSync(NATIVE, ['audit', item.path, '--query', item.query], { encoding: 'utf8' });
        assert.equal(native.status, 0, `${item.name}: ${native.stderr}`);
        assert.equal(native.stdout, npm.stdout, item.name);
      }
    }
    assert.ok(results >= 30, `${results} results`);
    process.stderr.write(`live audit: ${recalls.length} recall bodies, ${results} results, all consistent (seed ${manifest.seed})\n`);
  });

  it('a lie about one relevance score is caught', async () => {
    const { readFileSync } = await import('node:fs');
    const item = recalls.find((x) => x.name === 'recall-fast');
    const wire = readFileSync(item.path, 'utf8');
    // A result's recall relevance (not 0.5, which admission breakdowns in metadata._score also carry).
    const body = JSON.parse(wire);
    const value = body.memories.map((x) => x.score_breakdown.relevance_score).find((v) => v !== 0.5 && String(v).startsWith('0.'));
    assert.ok(value !== undefined, 'a relevance_score');
    const from = `"relevance_score":${value}`;
    assert.ok(wire.split(from).length >= 3, 'in the memories and the receipt');
    const lie = wire.replaceAll(from, `"relevance_score":${(value > 0.5 ? value - 0.05 : value + 0.05).toFixed(6)}`);
    const report = pkg.auditRecall(lie, { query: item.query });
    assert.equal(report.consistent, false);
    assert.ok(report.failures.includes('relevance_inconsistent'), JSON.stringify(report.failures));
  });
});

describe('recall audit on a real Lians server with RECALL_MMR_LAMBDA=0.5', { skip }, () => {
  let lians;
  let manifest;
  let recalls;
  const out = join(REPO, 'test-output', 'live-audit-mmr');
  before(async () => {
    lians = await startLians({ env: { RECALL_MMR_LAMBDA: '0.5' } });
    manifest = await captureLive(lians, { outDir: out, seed: liveSeed('audit-mmr'), asOfEverywhere: true, recallsOnly: true });
    recalls = manifest.items.filter((x) => x.kind === 'recall').map((x) => ({ ...x, path: join(out, x.file) }));
  });
  after(async () => { await lians?.stop(); });

  it('every body, with mmr-selection and every other stage kind, audits consistent with its request', async () => {
    const { readFileSync } = await import('node:fs');
    const kinds = new Set();
    for (const item of recalls) {
      const wire = readFileSync(item.path, 'utf8');
      for (const m of JSON.parse(wire).memories) for (const st of m.score_breakdown.ranking_stages ?? []) kinds.add(st.stage);
      const report = pkg.auditRecall(wire, { request: { ...item.request, sent_at: item.sent_at, received_at: item.received_at } });
      const failed = [...report.checks, ...report.results.flatMap((r) => r.checks)].filter((c) => c.status === 'failed').map((c) => `${c.check} at ${c.pointer}: ${c.message}`);
      assert.equal(report.consistent, true, `${item.name} (seed ${manifest.seed}): ${failed.join('; ')}`);
    }
    for (const kind of ['mmr-selection', 'adaptive-fusion', 'mmr-rerank', 'graph-proximity']) assert.ok(kinds.has(kind), `no ${kind} stage in ${[...kinds]}`);
    process.stderr.write(`live audit (λ 0.5): ${recalls.length} recall bodies, stages ${[...kinds].join(', ')}, all consistent (seed ${manifest.seed})\n`);
  });
});

