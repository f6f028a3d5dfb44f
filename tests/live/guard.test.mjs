// `lians-score guard` (js/guard-node.mjs), from the packed tarball, in front of a
// real Lians server (lians-sdk 0.5.0), with the tampering proxy (tests/live/proxy.mjs)
// between the guard and the server:
//   client ──▶ guard ──▶ tampering proxy ──▶ Lians server
//   - the real Python client of lians-sdk (lians.LiansClient, tests/live/guard_client.py)
//     pointed at the guard writes, recalls, compiles context, walks the review queue and
//     erases normally; while the proxy rewrites answers, its recall and context raise
//     (HTTP 502 from the guard) and its writes still work;
//   - a valid answer is the server's bytes, byte for byte, plus the verification headers;
//     other routes, methods and statuses (writes, the review queue, erase, a 401, a 307)
//     are the server's answers byte for byte, headers included, redirects not followed;
//   - --audit, --max-body, --timeout, GET /healthz, SIGTERM with a request in flight;
//   - 1,000 requests through it leave its RSS flat (a leak test, not a timing test).
// Run: node --test tests/live/guard.test.mjs (packs the tarball, starts its own server).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { liansAvailable, startLians, REPO } from './server.mjs';
import { startTamperingProxy } from './proxy.mjs';
import { installTarball } from '../package/tarball.mjs';
import { run } from '../js/proc.mjs';

const avail = await liansAvailable();
const AGENT = 'guard-agent';
const REQUESTS = 1000;
/**
 * Generous against noise (measured: under 1 MB either way), yet below the bytes the guard verifies in the
 * measured rounds (asserted), so keeping the answers it handled would fail it.
 */
const RSS_GROWTH_LIMIT = 16 * 1024 * 1024;
const RSS_AGENT = 'guard-rss-agent';

/** Start `lians-score guard` (the tarball's bin); resolves { url, child, pid, output(), stop() } once it listens. */
async function startGuard(cli, args) {
  const child = spawn(process.execPath, [cli, 'guard', '--listen', '127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the guard did not start:\n${out}`)), 30_000);
    const poll = setInterval(() => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+),/.exec(out);
      if (m) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(m[1]);
      }
    }, 20);
    exited.then(({ code }) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`the guard exited ${code}:\n${out}`));
    });
  });
  return {
    url,
    child,
    pid: child.pid,
    exited,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

describe('lians-score guard against a real Lians server, from the packed tarball', { skip: avail.skip }, () => {
  let lians;
  let proxy;
  let key;
  let cli;
  let guard;
  const headers = () => ({ 'Content-Type': 'application/json', 'X-API-Key': key });
  const post = (base, path, body, extra = {}) => fetch(`${base}${path}`, { method: 'POST', headers: { ...headers(), ...extra }, body: JSON.stringify(body) });

  before(async () => {
    const app = installTarball();
    cli = join(app.dir, 'node_modules/lians-score/js/cli.mjs');
    lians = await startLians();
    key = await lians.makeKey('ns-guard');
    for (const content of [
      'The Kestrel release train leaves every second Tuesday.',
      'Kestrel release notes are written by the docs team.',
      'The Kestrel launch checklist lives in the release wiki.',
    ]) {
      const r = await lians.call('POST', '/v1/memories', { key, body: { agent_id: AGENT, content, source: 'user_provided', event_time: new Date().toISOString() } });
      assert.ok(r.status === 200 || r.status === 201, `write -> ${r.status}: ${r.text.slice(0, 300)}`);
    }
    // Large memories for the leak test: its recall answers are ~60 KB each.
    const topics = ['billing', 'payments', 'search', 'mobile', 'desktop', 'storage', 'network', 'identity', 'reports', 'exports'];
    for (const [i, topic] of topics.entries()) {
      const content = `Kestrel ${topic} runbook, part ${i + 1}: ` + Array.from({ length: 90 }, (_, j) => `step ${j + 1} checks the ${topic} service health page and its ${j % 7}-hour error budget`).join('; ') + '.';
      const r = await lians.call('POST', '/v1/memories', { key, body: { agent_id: RSS_AGENT, content, source: 'user_provided', event_time: new Date().toISOString() } });
      assert.ok(r.status === 200 || r.status === 201, `write -> ${r.status}: ${r.text.slice(0, 300)}`);
    }
    proxy = await startTamperingProxy(lians.url);
    guard = await startGuard(cli, ['--upstream', proxy.url]);
  });
  after(async () => {
    await guard?.stop();
    await proxy?.stop();
    await lians?.stop();
  });

  it('GET /healthz answers, and --help/usage errors behave as a CLI', async () => {
    const res = await fetch(`${guard.url}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
    const help = spawnSync(process.execPath, [cli, 'guard', '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^usage: lians-score guard --upstream URL/);
    for (const args of [[], ['--upstream'], ['--upstream', 'ftp://x'], ['--upstream', proxy.url, '--listen', 'nowhere'], ['--upstream', proxy.url, '--max-body', '0'], ['--upstream', proxy.url, '--frobnicate']]) {
      const r = spawnSync(process.execPath, [cli, 'guard', ...args], { encoding: 'utf8' });
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^lians-score guard: /, args.join(' '));
    }
  });

  it('the real Python client (lians.LiansClient) works through the guard: writes, recall, context, review queue, erase', async () => {
    proxy.tamper = false;
    const before = proxy.log.length;
    // Asynchronously: the tampering proxy runs in this process.
    const r = await run(avail.python, [join(REPO, 'tests/live/guard_client.py'), 'honest', guard.url, key, AGENT], { timeout: 120_000, allowFail: true });
    assert.equal(r.code, 0, `python exited ${r.code}:\n${r.out}`);
    const out = JSON.parse(r.out.trim().split('\n').pop());
    assert.ok(out.write.id, JSON.stringify(out.write));
    assert.ok(out.recall.count > 0, JSON.stringify(out.recall));
    assert.ok(out.recall.contents.some((c) => c.includes('Osprey')), JSON.stringify(out.recall));
    assert.match(out.recall.receipt_sha256, /^[0-9a-f]{64}$/);
    assert.ok(out.context.text.includes('Osprey'), JSON.stringify(out.context));
    assert.match(out.context.receipt_sha256, /^[0-9a-f]{64}$/);
    assert.equal(out.held.status, 'held_for_review', JSON.stringify(out.held));
    assert.ok(out.queue.ids.includes(out.held.pending_id), JSON.stringify(out.queue));
    assert.equal(out.resolved.status, 'rejected', JSON.stringify(out.resolved));
    assert.equal(out.erase.subject_id, 'subject-osprey', JSON.stringify(out.erase_keys));
    assert.ok(out.erase.memories_erased >= 1, JSON.stringify(out.erase));
    // Every exchange went through the proxy, none was tampered with, and the guard verified the two answers.
    const seen = proxy.log.slice(before);
    for (const route of ['/v1/memories', '/v1/recall', '/v1/context', '/v1/admissions', '/v1/erase']) {
      assert.ok(seen.some((l) => l.path.startsWith(route)), `${route} reached the server through the guard`);
    }
    assert.ok(seen.every((l) => !l.tampered));
  });

  it('a tampered answer makes the Python client raise (HTTP 502 from the guard); its writes still work', async () => {
    proxy.tamper = true;
    try {
      const r = await run(avail.python, [join(REPO, 'tests/live/guard_client.py'), 'tamper', guard.url, key, AGENT], { timeout: 120_000, allowFail: true });
      assert.equal(r.code, 0, `python exited ${r.code}:\n${r.out}`);
      const out = JSON.parse(r.out.trim().split('\n').pop());
      assert.deepEqual(
        { raised: out.recall.raised, type: out.recall.type, status: out.recall.status, error: out.recall.error },
        { raised: true, type: 'HTTPStatusError', status: 502, error: 'lians_verification_failed' },
        JSON.stringify(out.recall),
      );
      assert.ok(out.recall.failures.includes('content_hash_mismatch'), JSON.stringify(out.recall));
      assert.equal(out.context.raised, true, JSON.stringify(out.context));
      assert.equal(out.context.status, 502);
      assert.ok(out.context.failures.includes('context_hash_mismatch'), JSON.stringify(out.context));
      assert.ok(out.write.id);
      assert.ok(proxy.log.some((l) => l.tampered), 'the proxy did rewrite answers');
    } finally {
      proxy.tamper = false;
    }
  });

  it('a valid answer is the server\'s bytes, byte for byte, with the verification headers; a tampered one is 502 with the report', async () => {
    for (const [route, body] of [['/v1/recall', { agent_id: AGENT, query: 'Kestrel release train', k: 3 }], ['/v1/context', { agent_id: AGENT, query: 'Kestrel' }]]) {
      proxy.tamper = false;
      const res = await post(guard.url, route, body);
      const bytes = Buffer.from(await res.arrayBuffer());
      const sent = proxy.log.at(-1);
      assert.equal(res.status, 200, bytes.toString().slice(0, 300));
      assert.equal(sent.path, route);
      assert.equal(Buffer.compare(bytes, sent.sent), 0, `${route}: the body is the server's bytes`);
      assert.equal(res.headers.get('x-lians-verification'), 'valid');
      assert.equal(res.headers.get('x-lians-receipt-sha256'), JSON.parse(bytes).receipt_sha256);
      assert.equal(res.headers.get('content-length'), String(bytes.length));
      assert.equal(res.headers.get('content-type'), 'application/json');

      proxy.tamper = true;
      const bad = await post(guard.url, route, body);
      const report = await bad.json();
      assert.equal(bad.status, 502);
      assert.equal(bad.headers.get('x-lians-verification'), 'invalid');
      assert.equal(report.error, 'lians_verification_failed');
      const want = route === '/v1/recall' ? 'content_hash_mismatch' : 'context_hash_mismatch';
      assert.ok(report.failures.includes(want), JSON.stringify(report.failures));
      assert.equal(report.report.valid, false);
      assert.ok(Array.isArray(report.report.checks));
      assert.ok(proxy.log.at(-1).tampered);
    }
    proxy.tamper = false;
  });

  it('other routes, methods and statuses pass through unchanged (writes, review queue, erase, 401, 307)', async () => {
    proxy.tamper = true; // only recall/context answers are ever rewritten; everything else must be the server's
    try {
      const calls = [
        ['POST', '/v1/memories', { agent_id: AGENT, content: 'The Kestrel retro moved to Monday.', source: 'user_provided', event_time: new Date().toISOString() }],
        ['GET', '/v1/admissions?status=pending&limit=5'],
        ['POST', '/v1/erase', { subject_id: 'subject-none', request_ref: 'guard-pass-1' }],
        ['GET', '/v1/memories/00000000-0000-0000-0000-000000000000'],
        ['POST', '/v1/recall', { agent_id: AGENT, query: 'x' }, { 'X-API-Key': 'wrong' }], // 401 of a verified route
        ['POST', '/v1/recall', { agent_id: AGENT }], // 422: no query
        ['POST', '/v1/memories/', { agent_id: AGENT, content: 'x' }], // the server's redirect: an answer, not followed
        ['GET', '/livez'],
      ];
      for (const [method, path, body, extra] of calls) {
        const init = { method, headers: { ...headers(), ...extra }, redirect: 'manual', body: body === undefined ? undefined : JSON.stringify(body) };
        const res = await fetch(`${guard.url}${path}`, init);
        const bytes = Buffer.from(await res.arrayBuffer());
        const upstream = proxy.log.at(-1);
        assert.equal(upstream.path, path.split('?')[0], `${method} ${path} reached the server`);
        assert.equal(res.status, upstream.status, `${method} ${path}`);
        assert.equal(Buffer.compare(bytes, upstream.sent), 0, `${method} ${path}: byte for byte`);
        assert.equal(upstream.tampered, false);
        assert.equal(res.headers.get('x-lians-verification'), null, `${method} ${path}`);
        if (res.status >= 300 && res.status < 400) assert.ok(res.headers.get('location'), `${method} ${path}: the redirect is passed on`);
      }
      const statuses = proxy.log.slice(-calls.length).map((l) => l.status);
      assert.ok(statuses.includes(401) && statuses.includes(422), JSON.stringify(statuses));
      assert.ok(statuses.some((s) => s >= 300 && s < 400), `a redirect among ${JSON.stringify(statuses)}`);
    } finally {
      proxy.tamper = false;
    }
  });

  it('--audit adds x-lians-audit: consistent to recall answers; --max-body bounds buffered bodies', async () => {
    const audited = await startGuard(cli, ['--upstream', proxy.url, '--audit']);
    const small = await startGuard(cli, ['--upstream', proxy.url, '--max-body', '200']);
    try {
      const res = await post(audited.url, '/v1/recall', { agent_id: AGENT, query: 'Kestrel release train', k: 3 });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-lians-verification'), 'valid');
      assert.equal(res.headers.get('x-lians-audit'), 'consistent');
      const big = await post(small.url, '/v1/recall', { agent_id: AGENT, query: `Kestrel ${'x'.repeat(300)}` });
      assert.equal(big.status, 413);
      assert.equal((await big.json()).error, 'lians_request_too_large');
      const longAnswer = await post(small.url, '/v1/recall', { agent_id: AGENT, query: 'Kestrel', k: 3 });
      assert.equal(longAnswer.status, 502);
      assert.equal((await longAnswer.json()).error, 'lians_response_too_large');
    } finally {
      await audited.stop();
      await small.stop();
    }
  });

  it('an upstream that does not answer in --timeout gives 504; SIGTERM lets a request in flight finish, then exits 0', async () => {
    const held = [];
    const slow = http.createServer((req, res) => {
      req.resume();
      if (req.url === '/never') return void held.push(res);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('slow but here');
      }, 700);
    });
    await new Promise((r) => slow.listen(0, '127.0.0.1', r));
    const g = await startGuard(cli, ['--upstream', `http://127.0.0.1:${slow.address().port}`, '--timeout', '300']);
    try {
      const t = await fetch(`${g.url}/v1/recall`, { method: 'POST', headers: headers(), body: '{"query":"q"}' });
      assert.equal(t.status, 504);
      assert.equal((await t.json()).error, 'lians_upstream_timeout');
      const t2 = await fetch(`${g.url}/never`);
      assert.equal(t2.status, 504);
    } finally {
      await g.stop();
    }
    const g2 = await startGuard(cli, ['--upstream', `http://127.0.0.1:${slow.address().port}`]);
    try {
      const inFlight = fetch(`${g2.url}/slow`).then(async (r) => ({ status: r.status, text: await r.text() }));
      await new Promise((r) => setTimeout(r, 200));
      g2.child.kill('SIGTERM');
      assert.deepEqual(await inFlight, { status: 200, text: 'slow but here' });
      const { code } = await g2.exited;
      assert.equal(code, 0, g2.output());
      assert.match(g2.output(), /lians-score guard: stopped/);
      await assert.rejects(fetch(`${g2.url}/healthz`), 'no longer listening');
    } finally {
      await g2.stop();
      for (const res of held) res.destroy();
      slow.closeAllConnections?.();
      await new Promise((r) => slow.close(r));
    }
  });

  it(`${REQUESTS} requests through the guard leave its RSS flat`, async () => {
    proxy.tamper = false;
    const logStart = proxy.log.length;
    const kinds = [
      () => post(guard.url, '/v1/recall', { agent_id: RSS_AGENT, query: 'Kestrel runbook service health', k: 10 }),
      // (context answers take the same path through the guard; the server builds them far more slowly)
      () => post(guard.url, '/v1/recall', { agent_id: RSS_AGENT, query: 'Kestrel error budget', k: 10 }),
      () => fetch(`${guard.url}/v1/admissions?status=pending&limit=5`, { headers: headers() }),
      () => fetch(`${guard.url}/livez`),
    ];
    let verifiedBytes = 0;
    const round = async (n, offset = 0) => {
      for (let i = 0; i < n; i += 4) {
        const answers = await Promise.all(kinds.map((k) => k()));
        for (const [j, res] of answers.entries()) {
          const size = (await res.arrayBuffer()).byteLength;
          assert.equal(res.status, 200, `request ${offset + i + j}`);
          if (j < 2) {
            assert.equal(res.headers.get('x-lians-verification'), 'valid');
            verifiedBytes += size;
          }
        }
      }
    };
    await round(200); // warm-up: JIT, wasm memory, sockets, allocator
    verifiedBytes = 0;
    const rss0 = rssOf(guard.pid);
    await round(REQUESTS / 2, 200);
    const rssMid = rssOf(guard.pid);
    await round(REQUESTS / 2, 200 + REQUESTS / 2);
    const rss1 = rssOf(guard.pid);
    proxy.log.splice(logStart); // the proxy's own log is not the guard's memory
    const mb = (b) => (b / 1024 / 1024).toFixed(1);
    process.stderr.write(`guard RSS after warm-up ${mb(rss0)} MB, after ${REQUESTS / 2} more ${mb(rssMid)} MB, after ${REQUESTS} more ${mb(rss1)} MB (growth ${mb(rss1 - rss0)} MB, limit ${mb(RSS_GROWTH_LIMIT)} MB; ${mb(verifiedBytes)} MB of answers verified)\n`);
    assert.ok(verifiedBytes > RSS_GROWTH_LIMIT, `the bound must be below what a leak of the answers would add (${mb(verifiedBytes)} MB)`);
    assert.ok(rss1 - rss0 < RSS_GROWTH_LIMIT, `RSS grew ${mb(rss1 - rss0)} MB over ${REQUESTS} requests`);
  });
});
