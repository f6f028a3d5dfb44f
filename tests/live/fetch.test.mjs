// createVerifyingFetch from the packed tarball against a real Lians server
// (lians-sdk 0.5.0), through a proxy that rewrites a memory's content and the
// context text in transit (tests/live/proxy.mjs):
//   - untampered recall/context answers resolve with x-lians-verification:
//     valid, x-lians-receipt-sha256 and a working res.json();
//   - tampered ones reject with LiansVerificationError (content_hash_mismatch,
//     context_hash_mismatch), an instance of the ESM and CommonJS classes;
//   - other requests (writes, GETs, a refused key) pass through untouched;
//   - scoped to the server: another API answering the same paths is untouched;
//   - installed as globalThis.fetch, a LiansClient-style call (global fetch,
//     then res.json()) gets verified results, and tampered ones never arrive.
// Run: node --test tests/live/fetch.test.mjs (packs the tarball, starts its own server).
import { after, before, describe, it } from 'node:test';
import http from 'node:http';
import assert from 'node:assert/strict';
import { liansAvailable, startLians } from './server.mjs';
import { startTamperingProxy, INJECTION } from './proxy.mjs';
import { installTarball } from '../package/tarball.mjs';

const avail = await liansAvailable();

describe('createVerifyingFetch against a real Lians server, from the packed tarball', { skip: avail.skip }, () => {
  let lians;
  let proxy;
  let key;
  let esm;
  let cjs;
  const agent = 'fetch-agent';
  const facts = [
    'Project Falcon ships its public beta on the first Friday of March.',
    'The Falcon beta needs the new billing service before launch.',
    'Falcon design reviews happen every Tuesday at ten.',
    'The Heron team owns the mobile release train.',
  ];

  before(async () => {
    const app = installTarball();
    esm = await app.importEsm();
    cjs = app.requireCjs();
    lians = await startLians();
    key = await lians.makeKey('ns-fetch');
    for (const content of facts) {
      const r = await lians.call('POST', '/v1/memories', { key, body: { agent_id: agent, content, source: 'user_provided', event_time: new Date().toISOString() } });
      assert.ok(r.status === 200 || r.status === 201, `write -> ${r.status}: ${r.text.slice(0, 300)}`);
    }
    proxy = await startTamperingProxy(lians.url);
  });
  after(async () => {
    await proxy?.stop();
    await lians?.stop();
  });

  const headers = () => ({ 'Content-Type': 'application/json', 'X-API-Key': key });
  const recall = (query = 'Falcon beta launch') => ({ method: 'POST', headers: headers(), body: JSON.stringify({ agent_id: agent, query, k: 3 }) });
  const context = (query = 'What do we know about Falcon?') => ({ method: 'POST', headers: headers(), body: JSON.stringify({ agent_id: agent, query }) });

  async function rejection(promise) {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    assert.fail('expected a rejection');
  }

  it('valid answers resolve with the verification headers and a working res.json()', async () => {
    proxy.tamper = false;
    const vfetch = esm.createVerifyingFetch(fetch, { baseUrl: proxy.url });
    const res = await vfetch(`${proxy.url}/v1/recall`, recall());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-lians-verification'), 'valid');
    const body = await res.json();
    assert.ok(body.memories.length > 0, 'the recall found memories');
    assert.equal(res.headers.get('x-lians-receipt-sha256'), body.receipt_sha256);

    const ctx = await vfetch(`${proxy.url}/v1/context`, context());
    assert.equal(ctx.headers.get('x-lians-verification'), 'valid');
    const cbody = await ctx.json();
    assert.equal(typeof cbody.context_text, 'string');
    assert.ok(!cbody.context_text.includes(INJECTION));
    assert.equal(ctx.headers.get('x-lians-receipt-sha256'), cbody.receipt_sha256);
  });

  it('a rewritten memory content rejects with LiansVerificationError (content_hash_mismatch), ESM and CJS', async () => {
    proxy.tamper = true;
    for (const pkg of [esm, cjs]) {
      const error = await rejection(pkg.createVerifyingFetch(fetch, { baseUrl: proxy.url })(`${proxy.url}/v1/recall`, recall()));
      assert.ok(error instanceof esm.LiansVerificationError, String(error));
      assert.ok(error instanceof cjs.LiansVerificationError);
      assert.ok(error instanceof cjs.LiansScoreError);
      assert.equal(error.code, 'verification_failed');
      assert.ok(error.report.failures.includes('content_hash_mismatch'), JSON.stringify(error.report.failures));
    }
    assert.ok(proxy.log.at(-1).tampered, 'the proxy did rewrite the answer');
  });

  it('a rewritten context text rejects with LiansVerificationError (context_hash_mismatch)', async () => {
    proxy.tamper = true;
    const error = await rejection(esm.createVerifyingFetch(fetch, { baseUrl: proxy.url })(`${proxy.url}/v1/context`, context()));
    assert.ok(error instanceof cjs.LiansVerificationError);
    assert.ok(error.report.failures.includes('context_hash_mismatch'), JSON.stringify(error.report.failures));
    assert.ok(proxy.log.at(-1).tampered);
  });

  it('onInvalid: "report" resolves with x-lians-verification: invalid', async () => {
    proxy.tamper = true;
    const res = await cjs.createVerifyingFetch(fetch, { baseUrl: proxy.url, onInvalid: 'report' })(`${proxy.url}/v1/recall`, recall());
    assert.equal(res.headers.get('x-lians-verification'), 'invalid');
    assert.ok(res.liansVerification.failures.includes('content_hash_mismatch'));
  });

  it('other requests pass through untouched', async () => {
    proxy.tamper = true;
    const seen = [];
    const base = async (input, init) => {
      const res = await fetch(input, init);
      seen.push(res);
      return res;
    };
    const vfetch = esm.createVerifyingFetch(base, { baseUrl: proxy.url });
    const write = await vfetch(`${proxy.url}/v1/memories`, { method: 'POST', headers: headers(), body: JSON.stringify({ agent_id: agent, content: 'Heron ships on Mondays.', source: 'user_provided', event_time: new Date().toISOString() }) });
    assert.equal(write, seen.at(-1), 'a write answer is the base fetch answer itself');
    assert.ok(write.status === 200 || write.status === 201, String(write.status));
    assert.equal(write.headers.get('x-lians-verification'), null);
    const live = await vfetch(`${proxy.url}/livez`);
    assert.equal(live, seen.at(-1));
    assert.equal(live.status, 200);
    // A refused key: the 401 of the recall route passes through (nothing to verify).
    const refused = await vfetch(`${proxy.url}/v1/recall`, { ...recall(), headers: { 'Content-Type': 'application/json', 'X-API-Key': 'wrong' } });
    assert.equal(refused, seen.at(-1));
    assert.equal(refused.status, 401);
  });

  it('scoped: a non-Lians API answering /v1/recall and /v1/context on another host passes untouched', async () => {
    // Another service with the same routes (what an unscoped wrapper used to reject as unsupported_schema / missing_field).
    const other = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ context: 'weather: sunny', route: req.url }));
    });
    await new Promise((r) => other.listen(0, '127.0.0.1', r));
    const otherUrl = `http://127.0.0.1:${other.address().port}`;
    try {
      proxy.tamper = false;
      const vfetch = esm.createVerifyingFetch(fetch, { baseUrl: proxy.url });
      for (const path of ['/v1/context', '/v1/recall', '/api/v1/recall']) {
        const res = await vfetch(`${otherUrl}${path}`, { method: 'POST', body: 'no query here' });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('x-lians-verification'), null);
        assert.equal(res.liansVerification, undefined);
        assert.deepEqual(await res.json(), { context: 'weather: sunny', route: path });
      }
      const lians = await vfetch(`${proxy.url}/v1/context`, context());
      assert.equal(lians.headers.get('x-lians-verification'), 'valid');
      assert.equal(lians.liansVerification.valid, true);
    } finally {
      await new Promise((r) => other.close(r));
    }
  });

  it('as globalThis.fetch: a LiansClient-style call gets verified results, tampered ones never arrive', async () => {
    const saved = globalThis.fetch;
    try {
      globalThis.fetch = esm.createVerifyingFetch(fetch, { baseUrl: proxy.url });
      // What the Lians TypeScript SDK does: the global fetch, then res.json().
      const call = async (path, body) => {
        const res = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return res.json();
      };
      proxy.tamper = false;
      const ok = await call('/v1/recall', { agent_id: agent, query: 'Falcon design reviews', k: 2 });
      assert.ok(ok.memories.length > 0);
      proxy.tamper = true;
      const error = await rejection(call('/v1/recall', { agent_id: agent, query: 'Falcon design reviews', k: 2 }));
      assert.ok(error instanceof esm.LiansVerificationError);
      const error2 = await rejection(call('/v1/context', { agent_id: agent, query: 'Falcon' }));
      assert.ok(error2.report.failures.includes('context_hash_mismatch'));
    } finally {
      globalThis.fetch = saved;
    }
  });
});
