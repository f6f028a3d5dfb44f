// End-to-end tests of the review-queue dashboard (www/) in headless Chromium.
// Run: node --test tests/e2e/   (needs playwright-core and axe-core installed,
// /usr/bin/chromium, and the package built with `npm run build`).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, startDashboard, stopDashboard, openDashboard, loadQueueFile, axeSerious, newPage, waitForScoring, outPath, sampleFile, holdRoute } from './helpers.mjs';
import { loadPackage, verifiersWork, REPO } from './pkg.mjs';
import { spansAt } from '../../www/jsonspan.js';
import { bigQueue, bigQueueItems } from './big-queue.mjs';

// What the dashboard's /sample/ route serves (www/sample, then tests/data/samples).
const read = (f) => readFileSync(sampleFile(f), 'utf8');

/** Replace the first `from` that follows `marker`. */
function tamperAfter(text, marker, from, to) {
  const at = text.indexOf(from, text.indexOf(marker));
  assert.ok(text.indexOf(marker) >= 0 && at >= 0, `tamper target ${from}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

const EXPECTED_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const { pkg, reason: pkgReason } = await loadPackage();
const noPkg = pkg ? false : `package not built: ${pkgReason}`;
const noVerifiers = noPkg || (verifiersWork(pkg) ? false : 'the package\'s receipt verifiers are not implemented yet');

let server;
let browser;
const recorders = [];

const open = (opts = {}, hash = '') => openDashboard(browser, server, recorders, opts, hash);
const loadQueue = loadQueueFile;

before(async () => ({ server, browser } = await startDashboard()));
after(() => stopDashboard({ server, browser }));

// In CI (CI=true) or with LIANS_E2E_REQUIRE_PKG=1 a missing or stubbed package is a failure, not a skip.
const strict = Boolean(process.env.CI || process.env.LIANS_E2E_REQUIRE_PKG);
it('the package is built and its verifiers work', { skip: strict ? false : (noVerifiers ? `not required here: ${noVerifiers}` : false) }, () => {
  assert.equal(noPkg, false, noPkg || '');
  assert.equal(noVerifiers, false, noVerifiers || '');
});

describe('server', () => {
  it('sends the strict CSP header and security headers on every response', async () => {
    for (const path of ['/', '/app.js', '/worker.js', '/sample/admissions.json', '/lians-pkg.js']) {
      const r = await fetch(server.url + path.slice(1));
      assert.equal(r.status, 200, path);
      assert.equal(r.headers.get('content-security-policy'), EXPECTED_CSP, path);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
    }
  });

  it('puts the same policy in the page meta tag (minus frame-ancestors, which meta cannot carry)', async () => {
    const html = await (await fetch(server.url)).text();
    const meta = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)[1];
    assert.equal(meta, EXPECTED_CSP.replace("; frame-ancestors 'none'", ''));
  });

  it('serves the captured samples from tests/data/samples, byte for byte', async () => {
    for (const f of ['admissions.json', 'pack-01-v2-signed.json', 'evidence_public_key.b64', 'recall-08-fast-filters-acme-tinyfloat.json', 'context-01-deep-acme-summary.json']) {
      const got = Buffer.from(await (await fetch(`${server.url}sample/${f}`)).arrayBuffer());
      assert.equal(sampleFile(f), join(REPO, 'tests', 'data', 'samples', f));
      assert.ok(readFileSync(join(REPO, 'tests', 'data', 'samples', f)).equals(got), f);
      const shared = join(REPO, '..', 'shared', 'samples', f);
      if (existsSync(shared)) assert.ok(readFileSync(shared).equals(got), `${f} equals shared/samples/${f}`);
    }
  });

  it('refuses traversal, other repo folders and non-GET methods', async () => {
    for (const path of ['%2e%2e/Cargo.toml', 'lib/src/lib.rs', 'lib/..%2fCargo.toml', 'lib/%2e%2e/package.json', '..%5c..%5cetc/passwd', 'sample/%00',
      'sample/..%2fconformance%2fcheck_scoring.py', 'sample/%2e%2e/%2e%2e/%2e%2e/Cargo.toml', 'sample/..%2f..%2f..%2fCargo.toml', 'sample/']) {
      const r = await fetch(server.url + path);
      assert.equal(r.status, 404, path);
    }
    const r = await fetch(server.url, { method: 'POST', body: 'x' });
    assert.equal(r.status, 405);
  });

  it('widens connect-src (header and meta) only for LIANS_API_URL', async () => {
    const s2 = await startServer({ LIANS_API_URL: 'https://lians.example.com/base/path' });
    try {
      const r = await fetch(s2.url);
      const header = r.headers.get('content-security-policy');
      assert.match(header, /connect-src 'self' https:\/\/lians\.example\.com; /);
      const html = await r.text();
      assert.match(html, /content="[^"]*connect-src 'self' https:\/\/lians\.example\.com;[^"]*"/);
      assert.match(html, /<meta name="lians-api-url" content="https:\/\/lians\.example\.com">/);
    } finally {
      await s2.stop();
    }
  });
});

describe('review queue', () => {
  it('loads the embedded sample queue and re-scores it in a worker', { skip: noPkg }, async () => {
    const { page, rec } = await open();
    assert.equal(await waitForScoring(page), 'done');
    const snap = await page.evaluate(() => window.__liansDashboard.snapshot());
    const sampleCount = JSON.parse(read('queue-sample.json')).pending.length;
    assert.equal(snap.count, sampleCount);
    assert.equal(await page.locator('#queue-list [role="option"]').count(), sampleCount);
    assert.match(await page.textContent('#progress-text'), new RegExp(`Re-scored ${sampleCount} items .*Web Worker`));
    assert.deepEqual(rec.pageErrors, []);
    assert.deepEqual(rec.consoleErrors, []);
    // Every risk type is represented.
    const tags = new Set(snap.rows.flatMap((r) => r.stored ? JSON.parse(read('queue-sample.json')).pending.find((p) => p.id === r.id).risk_tags : []));
    for (const t of ['pii:email', 'pii:ssn', 'pii:credit_card', 'phi:mrn', 'phi:npi', 'mnpi', 'injection', 'source:blocked', 'vague']) assert.ok(tags.has(t), t);
  });

  it('shows the same scores as the package\'s rescoreReviewItem for the same items', { skip: noPkg }, async () => {
    const { page } = await open();
    await waitForScoring(page);
    const snap = await page.evaluate(() => window.__liansDashboard.snapshot());
    const text = read('queue-sample.json');
    const items = spansAt(text, [['pending', '*']]);
    assert.equal(items.length, snap.rows.length);
    for (const [i, span] of items.entries()) {
      const want = pkg.rescoreReviewItem(span.text);
      const got = snap.rows[i];
      assert.equal(got.id, JSON.parse(span.text).id);
      assert.deepEqual(got.held, want.held, `held ${got.id}`);
      assert.deepEqual(got.approved, want.approved, `approved ${got.id}`);
      assert.deepEqual(got.trusted_review, want.trusted_review, `trusted_review ${got.id}`);
      // Cross-check with scoreMemory for the approved state (spec `scoring-admission.md` §9.3), with the inputs the
      // package used: the item's own, or metadata with the inferred properties.
      const o = JSON.parse(span.text);
      const inp = want.inputs;
      const standIn = { ...(inp.trust_claim.value ? { trust_level: 'claimed' } : {}), ...(inp.public_metadata.value ? { note: null } : {}) };
      const sm = pkg.scoreMemory({
        content: o.content, reference_time: o.event_time, event_time: o.event_time, valid_from: o.event_time,
        metadata: o.metadata ?? standIn, importance: o.importance ?? inp.importance.value, source: o.source,
        safety_status: 'approved', risk_tags: o.risk_tags, purpose: 'admission',
      });
      assert.deepEqual(sm, want.approved, `scoreMemory ${o.id}`);
      // The list shows the approved final score.
      const cell = await page.locator(`#queue-list [data-id="${o.id}"] [data-col="approved"]`).textContent();
      const f = want.approved.final_score;
      assert.equal(cell, `→ ${f.toFixed(3)}`); // one precision in the list
    }
  });

  it('what-if approval: safety 1.0 "not quarantined" and the final score follows; injection stays 0', { skip: noPkg }, async () => {
    const { page } = await open();
    await waitForScoring(page);
    const snap = await page.evaluate(() => window.__liansDashboard.snapshot());
    const q = JSON.parse(read('queue-sample.json')).pending;
    const byTag = (t) => snap.rows.find((r) => q.find((p) => p.id === r.id).risk_tags.includes(t));
    const pii = snap.rows.find((r) => r.id === '4636c026-0207-4326-95bc-9261d81c01a4'); // real SSN item
    assert.equal(pii.held.safety_score, 0.5);
    assert.equal(pii.held.final_score, 0);
    assert.equal(pii.approved.safety_score, 1);
    assert.equal(pii.approved.reasons[6], 'not quarantined');
    assert.equal(pii.approved.eligible, true);
    assert.ok(pii.approved.final_score > 0);
    await page.click(`#queue-list [data-id="${pii.id}"]`);
    const safetyCell = page.locator('#detail tr[data-component="safety_score"] td[data-col="approved"]');
    assert.match(await safetyCell.textContent(), /1\.0.*not quarantined/);
    const finalCell = page.locator('#detail tr.final td[data-col="approved"]');
    assert.equal(Number(await finalCell.getAttribute('data-final')), pii.approved.final_score);
    assert.match(await finalCell.textContent(), /eligible/);
    assert.match(await page.locator('#detail tr.final td[data-col="held"]').textContent(), /zeroed by the safety gate: human review required/);

    const inj = byTag('injection');
    for (const col of ['held', 'approved', 'trusted_review']) {
      assert.equal(inj[col].safety_score, 0, col);
      assert.equal(inj[col].final_score, 0, col);
      assert.equal(inj[col].eligible, false, col);
    }
    await page.click(`#queue-list [data-id="${inj.id}"]`);
    assert.match(await page.locator('#detail tr.final td[data-col="approved"]').textContent(), /zeroed by the safety gate: unsafe or quarantined/);
    const blocked = byTag('source:blocked');
    assert.equal(blocked.approved.final_score, 0);
  });

  it('flags drift with the components and the known cause', { skip: noPkg }, async () => {
    const { page } = await open();
    await waitForScoring(page);
    const snap = await page.evaluate(() => window.__liansDashboard.snapshot());
    const drift = Object.fromEntries(snap.rows.map((r) => [r.id, r.drift]));
    // Real item written with public metadata the list route omits: inferred, so it matches.
    assert.equal(drift['1e35e54f-9c82-4991-a132-c3d8d4a5b3ad'].status, 'match');
    // Real item without metadata: exact match.
    assert.equal(drift['4554b705-be38-4d11-baf4-bc6af3fac6ee'].status, 'match');
    const causes = snap.rows.flatMap((r) => r.drift.causes.map((c) => c.code));
    assert.equal(snap.rows.find((r) => r.stored?.reference_time === '2026-11-29T09:00:00+05:30')?.drift.status, 'match');
    assert.ok(causes.includes('policy-version'));
    assert.ok(!causes.includes('unexplained'), JSON.stringify(snap.rows.filter((r) => r.drift.causes.some((c) => c.code === 'unexplained'))));
    await page.click('#queue-list [data-id="1e35e54f-9c82-4991-a132-c3d8d4a5b3ad"]');
    assert.match(await page.locator('#detail [data-inputs="known"]').textContent(), /public metadata present \(worked out from the stored scores\)/);
    // Filter: drift only.
    await page.selectOption('#f-drift', 'drift');
    const shown = await page.locator('#queue-list [role="option"]').count();
    assert.equal(shown, snap.rows.filter((r) => r.drift.status === 'drift').length);
    await page.selectOption('#f-drift', '*');
    await page.selectOption('#f-tag', 'mnpi');
    assert.equal(await page.locator('#queue-list [role="option"]').count(), 3);
  });

  it('keyboard: j/k move, a/r mark and move to the next undecided; export has the exact resolve bodies and curl lines', async () => {
    const { page } = await open();
    await waitForScoring(page);
    const ids = await page.$$eval('#queue-list [role="option"]', (els) => els.map((e) => e.dataset.id));
    const current = () => page.locator('#queue-list [aria-selected="true"]').getAttribute('data-id');
    await page.focus('#queue-list');
    await page.keyboard.press('a');           // first → approve, then the second
    assert.equal(await current(), ids[1]);
    await page.keyboard.press('r');           // second → reject, then the third
    assert.equal(await current(), ids[2]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('a');           // fourth → approve, then the fifth
    assert.equal(await current(), ids[4]);
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    await page.keyboard.press('a');           // third: marked (moves on to the fifth, the next undecided) …
    assert.equal(await current(), ids[4]);
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    await page.keyboard.press('u');           // … then undone
    assert.equal(await current(), ids[2]);
    assert.equal(await page.locator('#queue-list [data-decision]').count(), 3);
    assert.equal(await page.getAttribute(`#queue-list [data-id="${ids[0]}"]`, 'data-decision'), 'approve');
    assert.equal(await page.getAttribute(`#queue-list [data-id="${ids[1]}"]`, 'data-decision'), 'reject');
    await page.click(`#queue-list [data-id="${ids[0]}"]`);
    await page.fill('#note-input', "PII ok'd by J. O'Neil");
    await page.locator('#dec-preview').scrollIntoViewIfNeeded(); // the preview is drawn while on screen
    await page.waitForSelector('#dec-preview:not([data-stale])');
    const doc = JSON.parse(await page.inputValue('#dec-preview'));
    assert.equal(doc.format, 'lians-review-decisions.v1');
    assert.deepEqual(doc.decisions.map((d) => [d.pending_id, d.method, d.path, d.body]), [
      [ids[0], 'POST', `/v1/admissions/${ids[0]}/resolve`, { action: 'approve', note: "PII ok'd by J. O'Neil" }],
      [ids[1], 'POST', `/v1/admissions/${ids[1]}/resolve`, { action: 'reject', note: null }],
      [ids[3], 'POST', `/v1/admissions/${ids[3]}/resolve`, { action: 'approve', note: null }],
    ]);
    assert.deepEqual(Object.keys(doc.decisions[0].body), ['action', 'note']);
    await page.selectOption('#dec-format', 'curl');
    const sh = await page.inputValue('#dec-preview');
    const curls = sh.split('\n').filter((l) => l.startsWith('curl '));
    assert.equal(curls.length, 3);
    assert.equal(curls[0], `curl -sS --fail-with-body -X POST "$LIANS_URL/v1/admissions/${ids[0]}/resolve" -H "X-API-Key: $LIANS_API_KEY" -H 'Content-Type: application/json' --data-raw '{"action":"approve","note":"PII ok'\\''d by J. O'\\''Neil"}'`);
    assert.ok(!/X-API-Key: [^$]/.test(sh), 'no key in the script');
    // The download is the same text.
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#dec-download-sh')]);
    assert.equal(readFileSync(await dl.path(), 'utf8'), sh);
  });

  it('keeps an XSS corpus inert: no dialog, no script, no element from data', async () => {
    const { page, rec } = await open({}, '#empty');
    const payloads = [
      '<script>window.__xss=1;alert(1)</script>',
      '<img src=x onerror="window.__xss=2;alert(2)">',
      '<a href="javascript:alert(3)">click me</a>',
      '<svg onload=alert(4)><circle r=1></circle></svg>',
      '"><iframe srcdoc="<script>parent.alert(5)</script>"></iframe>',
      "'><body onload=alert(6)>",
      '<style>body{display:none}</style><math><mtext><table><mglyph><style><img src=x onerror=alert(7)>',
      'javascript:alert(8)',
      '<details open ontoggle=alert(9)>',
      '{{constructor.constructor("alert(10)")()}}',
    ];
    const items = payloads.map((p, i) => ({
      id: i === 0 ? '"><img src=x onerror=alert(11)>' : `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      namespace: p, agent_id: p, content: `Patient MRN-1234567 ${p}`, event_time: '2026-11-01T00:00:00', source: p,
      subject_id: null, risk_tags: ['phi:mrn', p], reasons: [p], status: 'pending', created_at: p, resolved_at: null, memory_id: null,
      score_breakdown: { importance_score: 0.5, final_score: 0.0, eligible: false, safety_eligible: false, temporal_eligible: true, reference_time: p, scoring_policy_version: p, weights: { [p]: 1 }, reasons: [p, p, p, p, p, p, p] },
      importance: 0.5, metadata: { [p]: p },
    }));
    const state = await loadQueue(page, JSON.stringify({ pending: items, total: items.length, status_filter: null }), '<img src=x onerror=alert(12)>.json');
    assert.ok(state === 'done' || state === 'unavailable');
    for (const [i] of payloads.entries()) {
      await page.click(`#opt-${i}`);
      await page.keyboard.press('a');
      await page.waitForTimeout(20);
    }
    await page.selectOption('#dec-format', 'curl');
    await page.click('#opt-0');
    assert.equal(await page.textContent('#detail pre.content'), `Patient MRN-1234567 ${payloads[0]}`, 'content is shown literally');
    await page.click('#opt-1');
    assert.equal(await page.textContent('#detail pre.content'), `Patient MRN-1234567 ${payloads[1]}`);
    const probe = await page.evaluate(() => ({
      xss: window.__xss ?? null,
      scripts: [...document.scripts].map((s) => s.src),
      bad: document.querySelectorAll('main img, main iframe, main svg, main math, main style, main details[ontoggle], body [onerror], body [onload], main a[href^="javascript"]').length,
    }));
    assert.equal(probe.xss, null);
    assert.deepEqual(probe.scripts, [`${server.url}app.js`]);
    assert.equal(probe.bad, 0);
    assert.deepEqual(rec.dialogs, []);
    assert.deepEqual(rec.pageErrors, []);
    // The non-UUID id is kept out of the export (it would land in a URL and a shell line).
    const sh = await page.inputValue('#dec-preview');
    assert.ok(!sh.includes('onerror=alert(11)'));
    assert.match(await page.textContent('#dec-count'), /1 skipped/);
  });

  it('scores a 500-item queue in the worker with visible progress', { skip: noPkg }, async () => {
    const { page } = await open({}, '#empty');
    const base = spansAt(read('queue-sample.json'), [['pending', '*']]).map((s) => s.text);
    const items = [];
    for (let i = 0; i < 500; i++) {
      const id = `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      items.push(base[i % base.length].replace(/"id":"[0-9a-f-]{36}"/, `"id":"${id}"`));
    }
    await page.evaluate(() => {
      window.__progressSeen = [];
      new MutationObserver(() => {
        const p = document.getElementById('score-progress');
        window.__progressSeen.push([Number(p.getAttribute('value')), Number(p.getAttribute('max')), getComputedStyle(document.getElementById('progress-wrap')).display]);
      }).observe(document.getElementById('score-progress'), { attributes: true });
    });
    const t0 = Date.now();
    assert.equal(await loadQueue(page, `{"pending":[${items.join(',')}],"total":500,"status_filter":"pending"}`, 'big.json'), 'done');
    const seen = await page.evaluate(() => window.__progressSeen);
    const partial = seen.filter(([v, m]) => m === 500 && v > 0 && v < 500);
    assert.ok(partial.length >= 3, `intermediate progress shown: ${JSON.stringify(seen.slice(0, 8))}`);
    assert.ok(seen.every(([, , d]) => d !== 'none'), 'progress visible');
    assert.match(await page.textContent('#progress-text'), /Re-scored 500 items .*Web Worker/);
    assert.equal(await page.locator('#queue-list [role="option"]').count(), 500);
    const snap = await page.evaluate(() => window.__liansDashboard.snapshot());
    assert.ok(snap.rows.every((r) => r.held && r.approved && !r.error));
    await page.screenshot({ path: outPath('queue-500-1280-light.png') });
    console.log(`# 500 items scored and rendered in ${Date.now() - t0} ms`);
  });

  it('a 500-item file renders 500 rows with the scores the Node package computes', { skip: noPkg }, async () => {
    const { page } = await open({}, '#empty');
    const texts = bigQueueItems(500, 7);
    assert.equal(await loadQueue(page, bigQueue(500, 7), 'queue-500.json'), 'done');
    const snap = await page.evaluate(() => window.__liansDashboard.snapshot());
    assert.equal(snap.count, 500);
    assert.equal(await page.locator('#queue-list [role="option"]').count(), 500);
    const cells = new Map(await page.$$eval('#queue-list [role="option"]', (els) => els.map((e) => [e.dataset.id, {
      approved: e.querySelector('[data-col="approved"]').textContent,
      drift: e.querySelector('.badge.drift')?.textContent ?? null,
    }])));
    let drifted = 0;
    const finals = new Set();
    for (const [i, t] of texts.entries()) {
      const want = pkg.rescoreReviewItem(t);
      const got = snap.rows[i];
      assert.equal(got.id, JSON.parse(t).id);
      assert.equal(got.error, null, got.id);
      assert.deepEqual(got.held, want.held, `held ${got.id}`);
      assert.deepEqual(got.approved, want.approved, `approved ${got.id}`);
      assert.deepEqual(got.trusted_review, want.trusted_review, `trusted_review ${got.id}`);
      assert.equal(got.drift?.status ?? null, want.drift ? (want.drift.drifted ? 'drift' : 'match') : 'unknown', `drift ${got.id}`);
      const cell = cells.get(got.id);
      assert.equal(cell.approved, `→ ${want.approved.final_score.toFixed(3)}`, `list cell ${got.id}`);
      assert.equal(cell.drift !== null, Boolean(want.drift?.drifted), `drift badge ${got.id}`);
      if (want.drift?.drifted) drifted++;
      finals.add(want.approved.final_score);
    }
    assert.ok(drifted > 0 && finals.size >= 10, `varied scores (${finals.size} distinct), some drift (${drifted})`);
    assert.deepEqual(snap.visible, snap.rows.map((r) => r.id), 'server order');
  });

  it('reports a malformed queue clearly', async () => {
    const { page } = await open({}, '#empty');
    await page.click('#paste-toggle');
    await page.fill('#queue-text', '{"pending": [ {"id": 1,');
    await page.click('#queue-text-load');
    assert.match(await page.textContent('#queue-status'), /Not valid JSON/);
    await page.fill('#queue-text', '{"memories": []}');
    await page.click('#queue-text-load');
    assert.match(await page.textContent('#queue-status'), /Expected an AdmissionListResult/);
  });

  it('an item whose exact text the package rejects shows that error (no silent retry with the parsed object)', { skip: noPkg }, async () => {
    // An integer of 5000 digits in metadata: Python's json (and so the package's
    // text parser) refuses it (malformed_json: the 4300-digit limit); JSON.parse
    // makes it Infinity, so the parsed object would be scored with other inputs.
    const itemText = JSON.stringify(JSON.parse(read('admissions.json')).pending[0]).replace('{', `{"metadata":{"n":${'7'.repeat(5000)}},`);
    assert.throws(() => pkg.rescoreReviewItem(itemText), { code: 'malformed_json' });
    assert.doesNotThrow(() => pkg.rescoreReviewItem(JSON.parse(itemText)), 'the object form is accepted: the old retry scored it');
    const text = `{"pending":[${itemText}],"total":1,"status_filter":"pending"}`;
    const { page } = await open({}, '#empty');
    assert.equal(await loadQueue(page, text), 'done');
    const snap = await page.evaluate(() => window.__liansDashboard.snapshot());
    assert.equal(snap.rows.length, 1);
    assert.equal(snap.rows[0].error?.code, 'malformed_json');
    assert.equal(snap.rows[0].held, null);
    assert.match(await page.textContent('#queue-list'), /scoring error/);
    assert.match(await page.textContent('#detail .callout.bad'), /Recomputing the score here failed: malformed_json.*4300 digits/);
  });

  it('never fetches from the API URL on its own', async () => {
    const { page, rec } = await open();
    await page.click('#api-toggle');
    await page.fill('#api-url', 'https://lians.example.com');
    await page.fill('#api-key', 'secret-key');
    await page.waitForTimeout(300);
    assert.ok(rec.requests.every((u) => u.startsWith(server.url)), 'only local requests');
    await page.click('#api-fetch');
    await page.waitForFunction(() => /Fetch failed|Content-Security-Policy/.test(document.getElementById('queue-status').textContent));
    assert.match(await page.textContent('#queue-status'), /LIANS_API_URL/);
  });
});

describe('verify panels', () => {
  it('a good recall receipt verifies; tampered variants fail with the right code', { skip: noVerifiers }, async () => {
    const { page } = await open({}, '#empty');
    await page.click('#tab-verify');
    await page.click('#v-sample-recall');
    await page.waitForSelector('#v-result .verdict');
    assert.equal(await page.getAttribute('#v-result .verdict', 'data-valid'), 'true');
    const recall = read('recall-08-fast-filters-acme-tinyfloat.json');
    assert.equal(await page.textContent('#receipt-sha'), JSON.parse(recall).receipt_sha256);
    assert.match(await page.textContent('#v-result'), /integrity, not authorship/);
    const rows = await page.$$eval('#v-result table.checks tbody tr', (trs) => trs.map((t) => [t.dataset.code, t.dataset.status]));
    assert.ok(rows.length > 0 && rows.every(([, s]) => ['passed', 'skipped'].includes(s)));

    const cases = [
      ['receipt_hash_mismatch', () => page.fill('#v-wire', tamperAfter(recall, '"receipt":{', '"retrieval_degraded":false', '"retrieval_degraded":true'))],
      ['query_hash_mismatch', () => page.fill('#v-query', 'Acme revenue!')],
      ['content_hash_mismatch', async () => {
        const c = JSON.parse(await page.inputValue('#v-contents'));
        const k = Object.keys(c)[0];
        c[k] += ' (edited)';
        await page.fill('#v-contents', JSON.stringify(c));
      }],
    ];
    for (const [code, tamper] of cases) {
      await page.click('#v-sample-recall');
      await page.waitForSelector('#v-result .verdict[data-valid="true"]');
      await tamper();
      await page.click('#v-run');
      await page.waitForSelector(`#v-result table.checks tr[data-code="${code}"][data-status="failed"], #v-result .callout.bad`);
      assert.equal(await page.getAttribute('#v-result .verdict', 'data-valid'), 'false', code);
      assert.match(await page.textContent('#v-result .callout.bad'), new RegExp(code));
    }
  });

  it('binds the body with nothing given: an edited memory content fails with its pointer; privacy-minimal skips it (issue 10)', { skip: noVerifiers }, async () => {
    const { page } = await open({}, '#empty');
    await page.click('#tab-verify');
    const recall = read('recall-08-fast-filters-acme-tinyfloat.json');
    const content = JSON.parse(recall).memories[0].content;
    const tampered = recall.split(JSON.stringify(content).slice(1, -1)).join('Acme Corp revenue is $1');
    assert.notEqual(tampered, recall);
    await page.fill('#v-wire', tampered);
    await page.click('#v-run');
    await page.waitForSelector('#v-result .verdict[data-valid="false"]');
    assert.match(await page.textContent('#v-result .callout.bad'), /content_hash_mismatch/);
    const failed = await page.$$eval('#v-result table.checks tr[data-status="failed"] td.ptr', (tds) => tds.map((t) => t.textContent));
    assert.ok(failed.includes('/memories/0/content vs /receipt/results/0/content_hash'), failed.join(' | '));
    assert.ok(failed.some((t) => t.startsWith('/receipt_view/memories_used/0/content')), failed.join(' | '));
    assert.match(await page.textContent('#v-result'), /privacy-minimal/);
    assert.match(await page.textContent('#unbound-fields summary'), /Not bound by the receipt/);
    assert.match(await page.textContent('#unbound-fields'), /\/memories\/\*\/metadata/);
    await page.check('#v-privacy');
    await page.click('#v-run');
    await page.waitForSelector('#v-result .verdict[data-valid="true"]');
    assert.ok(await page.$('#v-result table.checks tr[data-code="content_hash_mismatch"][data-status="skipped"]'));
  });

  it('a sample that lands after the user edited the form is dropped, not written over the edit (issue 11 part 6)', { skip: noVerifiers }, async () => {
    const { page } = await open({}, '#empty');
    const release = await holdRoute(page, '**/sample/recall-08-fast-filters-acme-tinyfloat.json');
    await page.click('#tab-verify');
    await page.click('#v-sample-recall');
    // Until the sample arrives no verdict is shown (a stale one could be taken for the sample's).
    assert.equal(await page.$('#v-result .verdict'), null);
    await page.fill('#v-wire', '{"my":"own text"}');
    release();
    await page.waitForFunction(() => /not loaded: the form was edited/.test(document.getElementById('v-result').textContent));
    assert.equal(await page.inputValue('#v-wire'), '{"my":"own text"}');
    assert.equal(await page.inputValue('#v-query'), '');
    await page.unroute('**/sample/recall-08-fast-filters-acme-tinyfloat.json');
    // A second click after a verdict: the old verdict goes at once, the new one is the sample's.
    await page.click('#v-sample-recall');
    await page.waitForSelector('#v-result .verdict[data-valid="true"]');
    await page.fill('#v-query', 'Acme revenue!');
    await page.click('#v-run');
    await page.waitForSelector('#v-result .verdict[data-valid="false"]');
    const release2 = await holdRoute(page, '**/sample/recall-08-fast-filters-acme-tinyfloat.json');
    await page.click('#v-sample-recall');
    assert.equal(await page.$('#v-result .verdict'), null, 'the invalid verdict is gone while the sample loads');
    release2();
    await page.waitForSelector('#v-result .verdict[data-valid="true"]');
  });

  it('the start-up sample queue never replaces a queue the user loaded first', { skip: noPkg }, async () => {
    const p = await newPage(browser, {});
    recorders.push(p.rec);
    const { page } = p;
    const release = await holdRoute(page, '**/sample/queue-sample.json');
    await page.goto(server.url);
    const mine = JSON.parse(read('admissions.json'));
    mine.pending = mine.pending.slice(0, 2);
    assert.equal(await loadQueue(page, JSON.stringify(mine), 'mine.json'), 'done');
    release();
    await page.waitForResponse('**/sample/queue-sample.json');
    await page.waitForTimeout(300);
    const snap = await page.evaluate(() => window.__liansDashboard.snapshot());
    assert.deepEqual(snap.rows.map((r) => r.id), mine.pending.map((x) => x.id));
    assert.match(await page.textContent('#queue-status'), /2 items from mine\.json/);
  });

  it('a good context receipt verifies; a tampered context text fails', { skip: noVerifiers }, async () => {
    const { page } = await open({}, '#empty');
    await page.click('#tab-verify');
    await page.click('#v-sample-context');
    await page.waitForSelector('#v-result .verdict');
    assert.equal(await page.getAttribute('#v-result .verdict', 'data-valid'), 'true');
    await page.fill('#v-context', `${await page.inputValue('#v-context')} `);
    await page.click('#v-run');
    await page.waitForSelector('#v-result .verdict[data-valid="false"]');
    assert.match(await page.textContent('#v-result .callout.bad'), /context_hash_mismatch/);
  });

  it('renders hostile receipt text inert', { skip: noVerifiers }, async () => {
    const { page, rec } = await open({}, '#empty');
    await page.click('#tab-verify');
    await page.fill('#v-wire', '{"receipt":{"schema":"<img src=x onerror=alert(1)>","query_sha256":"<script>alert(2)</script>"},"receipt_sha256":"<svg onload=alert(3)>"}');
    await page.fill('#v-query', '<b onmouseover=alert(4)>q</b>');
    await page.click('#v-run');
    await page.waitForSelector('#v-result .verdict[data-valid="false"]');
    assert.match(await page.textContent('#v-result'), /unsupported_schema|receipt_hash_mismatch/);
    assert.equal(await page.evaluate(() => document.querySelectorAll('main img, main svg, main b, main script').length), 0);
    await page.click('#tab-pack');
    await page.fill('#p-wire', '{"schema":"https://lians.ai/schemas/evidence-pack/v2","signature":{"status":"signed","key_id":"<img src=x onerror=alert(5)>","identity_note":"<script>alert(6)</script>"}}');
    await page.click('#p-run');
    await page.waitForSelector('#p-result .verdict[data-valid="false"]');
    assert.match(await page.textContent('#p-result'), /<img src=x onerror=alert\(5\)>/);
    assert.equal(await page.evaluate(() => document.querySelectorAll('main img, main svg, main b, main script').length), 0);
    assert.deepEqual(rec.dialogs, []);
  });

  it('Evidence Pack: Verify right after "Load sample" verifies the sample once it arrives (CI run 10B raced here)', { skip: noVerifiers }, async () => {
    const { page } = await open({}, '#empty');
    const release = await holdRoute(page, '**/sample/pack-01-v2-signed.json');
    await page.click('#tab-pack');
    await page.click('#p-sample');
    await page.click('#p-sample-key');
    await page.click('#p-run');
    await page.waitForTimeout(300);
    // Not "Paste a pack first.": the run waits for the sample still on its way.
    assert.doesNotMatch(await page.textContent('#p-result'), /Paste a pack first/);
    release();
    await page.waitForSelector('#p-result .verdict');
    assert.equal(await page.getAttribute('#p-result .verdict', 'data-valid'), 'true');
    await page.unroute('**/sample/pack-01-v2-signed.json');
  });

  it('Evidence Pack: signature and key pinning', { skip: noVerifiers }, async () => {
    const { page } = await open({}, '#empty');
    await page.click('#tab-pack');
    await page.click('#p-sample');
    await page.click('#p-sample-key');
    await page.click('#p-run');
    await page.waitForSelector('#p-result .verdict');
    assert.equal(await page.getAttribute('#p-result .verdict', 'data-valid'), 'true');
    assert.match(await page.textContent('#p-result'), /lians-real-test-key/);
    await page.fill('#p-keyid', 'some-other-key');
    await page.click('#p-run');
    await page.waitForSelector('#p-result .verdict[data-valid="false"]');
    assert.match(await page.textContent('#p-result .callout.bad'), /key_id_mismatch/);
    await page.click('#p-sample-key');
    const pack = read('pack-01-v2-signed.json');
    await page.fill('#p-wire', pack.replace('"approved_price_increase"', '"rejected_price_increase"'));
    await page.click('#p-run');
    await page.waitForSelector('#p-result .verdict[data-valid="false"]');
    assert.match(await page.textContent('#p-result .callout.bad'), /manifest_hash_mismatch|signature_invalid/);
  });
});

describe('look and accessibility', () => {
  async function axe(page, label) {
    assert.deepEqual((await axeSerious(page)).map((v) => `${label}: ${v}`), []);
  }

  for (const scheme of ['light', 'dark']) {
    for (const [w, hgt] of [[1280, 900], [390, 844]]) {
      it(`screenshots and axe scan: ${scheme}, ${w}px`, async () => {
        const { page, rec } = await open({ width: w, height: hgt, colorScheme: scheme });
        await waitForScoring(page);
        await page.click('#queue-list [data-id="1e35e54f-9c82-4991-a132-c3d8d4a5b3ad"]').catch(() => {});
        await page.screenshot({ path: outPath(`queue-${w}-${scheme}.png`), fullPage: w < 800 });
        await axe(page, `queue ${scheme} ${w}`);
        await page.click('#tab-verify');
        if (!noVerifiers) { await page.click('#v-sample-recall'); await page.waitForSelector('#v-result .verdict'); }
        await page.screenshot({ path: outPath(`verify-${w}-${scheme}.png`), fullPage: w < 800 });
        await axe(page, `verify ${scheme} ${w}`);
        await page.click('#tab-pack');
        if (!noVerifiers) { await page.click('#p-sample'); await page.click('#p-sample-key'); await page.click('#p-run'); await page.waitForSelector('#p-result .verdict'); }
        await page.screenshot({ path: outPath(`pack-${w}-${scheme}.png`), fullPage: w < 800 });
        await axe(page, `pack ${scheme} ${w}`);
        assert.deepEqual(rec.pageErrors, []);
      });
    }
  }

  it('the theme toggle switches and is remembered', async () => {
    const { page } = await open({ colorScheme: 'light' }, '#empty');
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await bg();
    await page.click('#theme-toggle');
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    assert.notEqual(await bg(), light);
    await page.reload();
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  });
});

describe('network', () => {
  it('no request left 127.0.0.1 in any test above', () => {
    const all = recorders.flatMap((r) => r.requests);
    assert.ok(all.length > 0);
    assert.deepEqual(recorders.flatMap((r) => r.external), []);
    assert.deepEqual(all.filter((u) => !u.startsWith('http://127.0.0.1:') && !u.startsWith('blob:') && !u.startsWith('data:')), []);
  });
});
