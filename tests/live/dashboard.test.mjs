// The dashboard against a real Lians server (lians-sdk 0.5.0, enforce mode),
// in headless Chromium: fresh random held writes (the seed is printed) are
// fetched with the page's own "Fetch from Lians" form, re-scored, approved and
// rejected from the page and submitted with "Submit decisions to Lians"; the
// server's queue and the approved memories' stored scores are then checked.
// A second part holds more than 500 items (the list route's page): the
// truncation notice, single-key and bulk decisions, a reload mid-way that
// loses nothing, the submit, the server agreeing, and the next batch.
// Run: node --test tests/live/dashboard.test.mjs (starts its own servers).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { liansAvailable, startLians } from './server.mjs';
import { rng, liveSeed } from './capture.mjs';
import { heldWrites, hasHiddenInputs, manyHeldWrites } from './held.mjs';
import { startDashboard, newPage, waitForScoring, outPath, axeSerious } from '../e2e/helpers.mjs';
import { loadPackage } from '../e2e/pkg.mjs';

const REQUIRED = process.env.CI === 'true' || process.env.LIANS_LIVE_REQUIRE === '1';
const avail = await liansAvailable();
const { pkg, reason: pkgReason } = await loadPackage();
if (!pkg && REQUIRED) throw new Error(`live tests need the built package: ${pkgReason}`);
const skip = avail.skip || (pkg ? false : `package not built: ${pkgReason}`);

// Writes whose importance or metadata the list route omits re-score exactly:
// the package infers them from the stored breakdown (src/admission/review.rs).
/** No serious or critical axe-core violation, in light and dark; a screenshot of each. */
async function axeBothSchemes(page, label) {
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    assert.deepEqual((await axeSerious(page)).map((v) => `${label} ${colorScheme}: ${v}`), []);
    await page.screenshot({ path: outPath(`live-${label}-${colorScheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('dashboard against a real Lians server', { skip }, () => {
  let lians;
  let dash;
  let browser;
  let page;
  let rec;
  let key;
  const seed = skip ? 0 : liveSeed('live dashboard');
  const r = rng(seed);
  const agent = `reviewer-test-${seed.toString(36)}`;
  let writes = [];        // [{kind, body, tags, inputs, pending_id}]
  let snap;               // the page's snapshot after the first fetch
  const byId = new Map(); // pending_id → write

  before(async () => {
    lians = await startLians();
    key = await lians.makeKey(`ns-${seed}`);
    ({ server: dash, browser } = await startDashboard({ LIANS_API_URL: lians.url }));
    ({ page, rec } = await newPage(browser));
  });

  after(async () => {
    await browser?.close();
    await dash?.stop();
    await lians?.stop();
  });

  const pending = async (status = 'pending') => {
    const res = await lians.call('GET', `/v1/admissions?status=${status}&limit=500`, { key });
    assert.equal(res.status, 200, res.text);
    return res.json.pending;
  };
  const resolveRequests = () => rec.requests.filter((u) => /\/v1\/admissions\/[^/]+\/resolve$/.test(u));

  it('holds every PII/PHI/MNPI write for review (202) with the expected risk tags', async () => {
    writes = heldWrites(r, agent);
    for (const w of writes) {
      const res = await lians.call('POST', '/v1/memories', { key, body: w.body });
      assert.equal(res.status, 202, `${w.kind}: ${res.text}`);
      assert.equal(res.json.status, 'held_for_review');
      for (const t of w.tags) assert.ok(res.json.risk_tags.includes(t), `${w.kind}: ${t} in ${res.json.risk_tags}`);
      w.pending_id = res.json.pending_id;
      byId.set(w.pending_id, w);
    }
    assert.equal((await pending()).length, writes.length);
  });

  it('"Fetch from Lians" loads the queue (URL pre-filled from LIANS_API_URL, key typed in)', async () => {
    await page.goto(`${dash.url}#empty`);
    await page.click('#api-toggle');
    assert.equal(await page.inputValue('#api-url'), lians.url);
    await page.fill('#api-key', key);
    await page.click('#api-fetch');
    assert.equal(await waitForScoring(page), 'done');
    snap = await page.evaluate(() => window.__liansDashboard.snapshot());
    assert.deepEqual(new Set(snap.rows.map((x) => x.id)), new Set(writes.map((w) => w.pending_id)));
    assert.match(await page.textContent('#queue-status'), new RegExp(`${writes.length} items from ${lians.url.replace(/[.:/]/g, '\\$&')}`));
    for (const row of snap.rows) assert.equal(row.error, null, `${row.id}: ${JSON.stringify(row.error)}`);
  });

  it('the held re-score equals the stored breakdown for every write without hidden inputs', () => {
    const plain = snap.rows.filter((x) => !hasHiddenInputs(byId.get(x.id)));
    assert.ok(plain.length >= 3, 'the plan has writes without importance/metadata');
    for (const row of plain) {
      assert.deepEqual(row.held, row.stored, `${byId.get(row.id).kind} ${row.id}`);
      assert.equal(row.drift?.status, 'match', `${row.id}: ${JSON.stringify(row.drift)}`);
    }
  });

  it('no item shows drift (writes with importance, public metadata, trust claims included)', () => {
    const drifted = snap.rows.filter((x) => x.drift?.status !== 'match');
    assert.deepEqual(drifted.map((x) => [byId.get(x.id).kind, byId.get(x.id).inputs, x.drift?.status]), []);
  });

  let approve = [];
  let reject = [];
  let undecided = [];
  let conflictId;
  let approvedBefore; // id → the page's "If approved" breakdown

  it('approve and reject from the page; nothing is sent before the confirmation', async () => {
    // Both kinds in each set: plain writes (exact today) and writes with hidden inputs.
    const ids = snap.rows.map((x) => x.id);
    const plain = ids.filter((id) => !hasHiddenInputs(byId.get(id)));
    const hidden = ids.filter((id) => hasHiddenInputs(byId.get(id)));
    assert.ok(plain.length >= 3 && hidden.length >= 9, `${plain.length} plain, ${hidden.length} with hidden inputs`);
    approve = [plain[0], plain[1], ...hidden.slice(0, 4)];
    reject = [plain[2], ...hidden.slice(4, 7)];
    undecided = [...plain.slice(3), ...hidden.slice(7)];
    for (const [list, k] of [[approve, 'a'], [reject, 'r']]) {
      for (const id of list) {
        await page.click(`#queue-list [data-id="${id}"]`);
        await page.keyboard.press(k);
      }
    }
    const s = await page.evaluate(() => window.__liansDashboard.snapshot());
    approvedBefore = new Map(s.rows.map((x) => [x.id, x.approved]));
    for (const id of approve) assert.equal(s.rows.find((x) => x.id === id).decision, 'approve');
    for (const id of reject) assert.equal(s.rows.find((x) => x.id === id).decision, 'reject');
    // The list's "if approved" column shows the same final score.
    for (const id of approve) {
      const shown = await page.textContent(`#queue-list [data-id="${id}"] [data-col="approved"]`);
      const v = approvedBefore.get(id).final_score;
      assert.equal(shown, `→ ${v.toFixed(3)}`);
    }

    // Someone else resolves one approved item first: its submit must answer 409.
    conflictId = approve[approve.length - 1];
    const other = await lians.call('POST', `/v1/admissions/${conflictId}/resolve`, { key, body: { action: 'approve', note: 'resolved elsewhere' } });
    assert.equal(other.status, 200, other.text);

    await page.click('#dec-submit');
    assert.equal(await page.isVisible('#dec-submit-confirm'), true);
    const target = await page.textContent('#dec-confirm-target');
    assert.match(target, new RegExp(`${approve.length + reject.length} decisions will be sent to`));
    assert.ok(target.includes(new URL(lians.url).origin));
    const listed = await page.$$eval('#dec-confirm-list li', (lis) => lis.map((li) => [li.dataset.id, li.dataset.action]));
    assert.deepEqual(new Set(listed.map(([id, a]) => `${id} ${a}`)), new Set([...approve.map((id) => `${id} approve`), ...reject.map((id) => `${id} reject`)]));
    await axeBothSchemes(page, 'submit-confirm');
    // Cancel sends nothing; neither did opening.
    await page.click('#dec-submit-cancel');
    assert.equal(await page.isVisible('#dec-confirm'), false);
    assert.deepEqual(resolveRequests(), []);
    assert.equal((await pending()).length, writes.length - 1);
  });

  let outcomes;
  it('"Submit decisions to Lians" resolves each item and shows each outcome; the queue refreshes', async () => {
    await page.click('#dec-submit');
    await page.click('#dec-submit-confirm');
    await page.waitForSelector('#dec-results[data-state="done"]');
    await page.waitForFunction(() => /Queue refreshed/.test(document.getElementById('dec-results').textContent));
    outcomes = new Map(await page.$$eval('#dec-results li', (lis) => lis.map((li) => [li.dataset.id, { outcome: li.dataset.outcome, status: li.dataset.status, memoryId: li.dataset.memoryId, text: li.textContent }])));
    assert.equal(resolveRequests().length, approve.length + reject.length);
    await axeBothSchemes(page, 'submit-results');
    for (const id of approve) {
      const o = outcomes.get(id);
      if (id === conflictId) {
        assert.equal(o.outcome, 'conflict', o.text);
        assert.equal(o.status, '409');
        assert.match(o.text, /already resolved/i);
      } else {
        assert.equal(o.outcome, 'approved', o.text);
        assert.match(o.memoryId, /^[0-9a-f-]{36}$/);
        assert.ok(o.text.includes(o.memoryId));
      }
    }
    for (const id of reject) assert.equal(outcomes.get(id).outcome, 'rejected', outcomes.get(id).text);

    // The server's queue changed accordingly.
    assert.deepEqual(new Set((await pending()).map((x) => x.id)), new Set(undecided));
    const approvedNow = await pending('approved');
    assert.deepEqual(new Set(approvedNow.map((x) => x.id)), new Set(approve));
    for (const x of approvedNow) if (x.id !== conflictId) assert.equal(x.memory_id, outcomes.get(x.id).memoryId);
    assert.deepEqual(new Set((await pending('rejected')).map((x) => x.id)), new Set(reject));
    // And the page shows the refreshed queue: the undecided items only, no decisions left.
    const s = await page.evaluate(() => window.__liansDashboard.snapshot());
    assert.deepEqual(new Set(s.rows.map((x) => x.id)), new Set(undecided));
    assert.ok(s.rows.every((x) => x.decision === null));
  });

  it('each approved memory\'s stored _score (metadata._score in a later recall) equals the page\'s "If approved"', async () => {
    const approvedNow = new Map((await pending('approved')).map((x) => [x.id, x.memory_id]));
    const mismatches = [];
    for (const id of approve) {
      const w = byId.get(id);
      const memoryId = approvedNow.get(id);
      const res = await lians.call('POST', '/v1/recall', { key, body: { agent_id: agent, query: w.body.content, k: 50 } });
      assert.equal(res.status, 200, res.text);
      const m = res.json.memories.find((x) => x.id === memoryId);
      assert.ok(m, `recall returns memory ${memoryId}`);
      const stored = m.metadata?._score;
      assert.equal(typeof stored?.final_score, 'number', `metadata._score of ${memoryId}`);
      const page = approvedBefore.get(id);
      try {
        assert.deepEqual(page, stored);
      } catch {
        mismatches.push({ kind: w.kind, inputs: w.inputs, hidden: hasHiddenInputs(w), page: page.final_score, stored: stored.final_score });
      }
    }
    assert.deepEqual(mismatches, []);
  });

  it('per-item errors: 401 (bad key), 403 (no admin scope), network (an origin the CSP does not allow)', async () => {
    // The remaining undecided items are still in the page: decide them, then submit with broken credentials.
    for (const id of undecided) {
      await page.click(`#queue-list [data-id="${id}"]`);
      await page.keyboard.press('r');
    }
    const cases = [
      ['unauthorized', async () => page.fill('#api-key', 'agentmem_not-a-key')],
      ['forbidden', async () => page.fill('#api-key', await lians.makeKey(`ns-${seed}`, ['read', 'write']))],
      ['network', async () => { await page.fill('#api-key', key); await page.fill('#api-url', 'http://127.0.0.1:9'); }],
    ];
    for (const [outcome, setUp] of cases) {
      if (await page.isHidden('#api-area')) await page.click('#api-toggle'); // collapsed after the fetch
      await setUp();
      const before = resolveRequests().length;
      await page.click('#dec-submit');
      await page.click('#dec-submit-confirm');
      await page.waitForSelector('#dec-results[data-state="done"]');
      const got = await page.$$eval('#dec-results li', (lis) => lis.map((li) => [li.dataset.id, li.dataset.outcome, li.textContent]));
      assert.deepEqual(new Set(got.map(([id]) => id)), new Set(undecided), outcome);
      for (const [id, o, text] of got) assert.equal(o, outcome, `${id}: ${text}`);
      if (outcome === 'network') assert.match(got[0][2], /Content-Security-Policy/);
      else assert.equal(resolveRequests().length, before + undecided.length);
      // The items stay pending on the server; the page keeps the decisions to retry.
      assert.deepEqual(new Set((await pending()).map((x) => x.id)), new Set(undecided));
    }
    assert.deepEqual(rec.external, []);
    assert.deepEqual(rec.dialogs, [], 'no window.confirm or alert');
  });
});

describe('a real queue of more than 500 held items (issue 21)', { skip }, () => {
  const N = 516;
  let lians;
  let dash;
  let browser;
  let page;
  let rec;
  let key;
  const seed = skip ? 0 : liveSeed('live dashboard, 516 items');
  const r = rng(seed);
  const agent = `triage-test-${seed.toString(36)}`;
  const ids = [];           // pending ids, in write order (oldest first)

  before(async () => {
    lians = await startLians();
    key = await lians.makeKey(`ns-big-${seed}`);
    ({ server: dash, browser } = await startDashboard({ LIANS_API_URL: lians.url }));
    ({ page, rec } = await newPage(browser, { width: 1440, height: 900 }));
  });
  after(async () => {
    await browser?.close();
    await dash?.stop();
    await lians?.stop();
  });
  const list = async (status) => {
    const res = await lians.call('GET', `/v1/admissions?status=${status}&limit=500`, { key });
    assert.equal(res.status, 200, res.text);
    return res.json.pending;
  };
  const fetchQueue = async () => {
    if (await page.isHidden('#api-area')) await page.click('#api-toggle');
    await page.fill('#api-key', key);
    await page.click('#api-fetch');
    assert.equal(await waitForScoring(page, 180000), 'done');
  };

  it(`holds ${N} writes for review`, async () => {
    for (const w of manyHeldWrites(r, agent, N)) {
      const res = await lians.call('POST', '/v1/memories', { key, body: w.body });
      assert.equal(res.status, 202, `${w.kind}: ${res.text}`);
      ids.push(res.json.pending_id);
    }
    assert.equal((await list('pending')).length, 500, 'the list route returns at most 500');
  });

  let shown;
  let keyed;
  it('the page fetches 500 (the default limit), says the queue may hold more, and counts', async () => {
    await page.goto(`${dash.url}#empty`);
    await page.click('#api-toggle');
    assert.equal(await page.inputValue('#api-limit'), '500');
    await fetchQueue();
    const s = await page.evaluate(() => window.__liansDashboard.snapshot());
    shown = s.rows.map((x) => x.id);
    assert.equal(shown.length, 500);
    assert.deepEqual(new Set(shown), new Set(ids.slice(N - 500)), 'the newest 500');
    assert.equal(await page.isVisible('#queue-truncated'), true);
    assert.match(await page.textContent('#queue-truncated'), /returned 500 items, the limit.*may hold more/);
    assert.match(await page.textContent('#queue-count'), /^500 of 500 shown · 500 undecided/);
    for (const row of s.rows) assert.equal(row.error, null);
    assert.ok(s.rows.every((x) => x.drift?.status === 'match'), 'held re-scores equal the stored breakdowns');
    // Why each was held: the marked text explains the server's own risk tags (every 25th item).
    const server = new Map((await list('pending')).map((x) => [x.id, x]));
    for (const id of shown.filter((_, i) => i % 25 === 0)) {
      await page.click(`#queue-list [data-id="${id}"]`);
      const marks = await page.$$eval('#detail pre.content mark', (ms) => ms.map((m) => [m.dataset.riskTag, m.textContent]));
      const it = server.get(id);
      assert.deepEqual(new Set(marks.flatMap(([t]) => t.split(' '))), new Set(it.risk_tags.filter((t) => t !== 'vague' && t !== 'source:blocked')), `${id}: ${it.content}`);
      for (const [, text] of marks) assert.ok(it.content.includes(text));
      assert.match(await page.textContent('#held-why'), /^Held for .+\. If approved: [\d.]+, eligible for recall\.$/);
    }
  });

  it('decides with single keys, reloads mid-way without losing a decision, then decides the rest in bulk', async () => {
    await page.focus('#queue-list');
    for (let i = 0; i < 6; i++) await page.keyboard.press('a');
    for (let i = 0; i < 6; i++) await page.keyboard.press('r');
    let s = await page.evaluate(() => window.__liansDashboard.snapshot());
    keyed = s.rows.filter((x) => x.decision).map((x) => [x.id, x.decision]);
    assert.deepEqual(keyed.map(([, d]) => d), [...Array(6).fill('approve'), ...Array(6).fill('reject')]);
    await page.waitForTimeout(300);
    await page.reload();
    await fetchQueue();
    s = await page.evaluate(() => window.__liansDashboard.snapshot());
    assert.deepEqual(s.rows.filter((x) => x.decision).map((x) => [x.id, x.decision]), keyed, 'restored after the reload');
    assert.match(await page.textContent('#queue-status'), /12 saved decisions restored/);
    // The rest: the undecided ones the filter shows, rejected in bulk after the in-page confirmation.
    await page.selectOption('#f-decision', 'undecided');
    await page.click('#select-all-filtered');
    await page.click('#bulk-reject');
    assert.equal(await page.textContent('#bulk-confirm'), 'Reject 488 items');
    await page.click('#bulk-confirm');
    await page.selectOption('#f-decision', '*');
    assert.match(await page.textContent('#queue-count'), /^500 of 500 shown · 0 undecided/);
    assert.deepEqual(rec.dialogs, []);
  });

  it('submits the 500 decisions; the server agrees; the next batch is fetched', async () => {
    await page.click('#dec-submit');
    assert.match(await page.textContent('#dec-confirm-target'), /500 decisions will be sent to/);
    await page.click('#dec-submit-confirm');
    await page.waitForSelector('#dec-results[data-state="done"]', { timeout: 300000 });
    const outcomes = await page.$$eval('#dec-results li', (lis) => lis.map((li) => [li.dataset.id, li.dataset.outcome]));
    assert.equal(outcomes.length, 500);
    const want = new Map(shown.map((id) => [id, 'rejected']));
    for (const [id, d] of keyed) want.set(id, d === 'approve' ? 'approved' : 'rejected');
    assert.deepEqual(new Map(outcomes), want);
    // The server: the oldest 16 still pending, the rest resolved as decided.
    assert.deepEqual(new Set((await list('pending')).map((x) => x.id)), new Set(ids.slice(0, N - 500)));
    const approved = (await list('approved')).map((x) => x.id);
    assert.deepEqual(new Set(approved), new Set(keyed.filter(([, d]) => d === 'approve').map(([id]) => id)));
    // The page: the next batch, no truncation notice, nothing left saved.
    await page.waitForFunction(() => /Queue refreshed from the server: 16 items\. The queue was cut at 500 items before: this is the next batch/.test(document.getElementById('dec-results').textContent));
    const s = await page.evaluate(() => window.__liansDashboard.snapshot());
    assert.deepEqual(new Set(s.rows.map((x) => x.id)), new Set(ids.slice(0, N - 500)));
    assert.ok(s.rows.every((x) => x.decision === null));
    assert.equal(await page.isVisible('#queue-truncated'), false);
    assert.deepEqual(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('lians-review:'))), []);
    await axeBothSchemes(page, 'next-batch');
    assert.deepEqual(rec.external, []);
  });
});
