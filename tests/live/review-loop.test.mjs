// The review loop (issue 31) against a real Lians server (lians-sdk 0.5.0,
// enforce mode) holding more than 500 items, in headless Chromium, through a
// proxy on 127.0.0.1 (tests/live/proxy.mjs) that counts the requests in flight
// and can hang: undo after r, a note written before deciding, a reload and the
// resume notice, 150 decisions submitted with the progress shown and at most 6
// requests at a time, a server that never answers (the fetch gives up; Cancel
// works), and a phone run.
// Run: node --test tests/live/review-loop.test.mjs (starts its own servers).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { liansAvailable, startLians } from './server.mjs';
import { rng, liveSeed } from './capture.mjs';
import { manyHeldWrites } from './held.mjs';
import { startTamperingProxy } from './proxy.mjs';
import { startDashboard, newPage, waitForScoring, outPath, axeSerious } from '../e2e/helpers.mjs';
import { loadPackage } from '../e2e/pkg.mjs';

const REQUIRED = process.env.CI === 'true' || process.env.LIANS_LIVE_REQUIRE === '1';
const avail = await liansAvailable();
const { pkg, reason: pkgReason } = await loadPackage();
if (!pkg && REQUIRED) throw new Error(`live tests need the built package: ${pkgReason}`);
const skip = avail.skip || (pkg ? false : `package not built: ${pkgReason}`);

const RESOLVE = 'POST /v1/admissions/*/resolve';

describe('the review loop against a real server holding 620 items (issue 31)', { skip }, () => {
  const N = 620;
  let lians;
  let proxy;
  let dash;
  let browser;
  let page;
  let rec;
  let key;
  const seed = skip ? 0 : liveSeed('live review loop, 620 items');
  const r = rng(seed);
  const agent = `loop-test-${seed.toString(36)}`;
  const ns = `ns-loop-${seed}`;
  const ids = [];   // pending ids, oldest first
  let shown = [];   // the page's rows after the first fetch
  const bodies = new Map(); // pending id → the resolve body the page sent

  before(async () => {
    lians = await startLians();
    key = await lians.makeKey(ns);
    proxy = await startTamperingProxy(lians.url);
    ({ server: dash, browser } = await startDashboard({ LIANS_API_URL: proxy.url }));
    ({ page, rec } = await newPage(browser, { width: 1440, height: 900 }));
    page.on('request', (q) => {
      const m = /\/v1\/admissions\/([^/]+)\/resolve$/.exec(q.url());
      if (m && q.method() === 'POST') bodies.set(m[1], JSON.parse(q.postData()));
    });
  });
  after(async () => {
    await browser?.close();
    await dash?.stop();
    await proxy?.stop();
    await lians?.stop();
  });

  const list = async (status) => {
    const res = await lians.call('GET', `/v1/admissions?status=${status}&limit=500`, { key });
    assert.equal(res.status, 200, res.text);
    return res.json.pending;
  };
  const snap = (p = page) => p.evaluate(() => window.__liansDashboard.snapshot());
  const current = (p = page) => p.locator('#queue-list [aria-selected="true"]').getAttribute('data-id');
  const decisionOf = async (id, p = page) => (await snap(p)).rows.find((x) => x.id === id)?.decision ?? null;
  const focused = (p = page) => p.evaluate(() => document.activeElement?.id);
  async function clearOfBars(sel, what, p = page) {
    const l = await p.evaluate((s) => {
      const top = document.querySelector('.topbar');
      const b = document.querySelector(s).getBoundingClientRect();
      return { top: b.top, bottom: b.bottom, topbar: getComputedStyle(top).position === 'sticky' ? top.getBoundingClientRect().bottom : 0, bar: document.getElementById('action-bar').getBoundingClientRect().top };
    }, sel);
    assert.ok(l.top >= l.topbar - 1 && l.bottom <= l.bar + 1, `${what}: ${JSON.stringify(l)}`);
  }
  async function axe(label, p = page) {
    for (const colorScheme of ['light', 'dark']) {
      await p.emulateMedia({ colorScheme });
      assert.deepEqual((await axeSerious(p)).map((v) => `${label} ${colorScheme}: ${v}`), []);
      await p.screenshot({ path: outPath(`live-loop-${label}-${colorScheme}.png`) });
    }
    await p.emulateMedia({ colorScheme: 'light' });
  }

  it(`holds ${N} writes for review`, async () => {
    for (const w of manyHeldWrites(r, agent, N)) {
      const res = await lians.call('POST', '/v1/memories', { key, body: w.body });
      assert.equal(res.status, 202, `${w.kind}: ${res.text}`);
      ids.push(res.json.pending_id);
    }
    assert.equal((await list('pending')).length, 500);
  });

  it('fetches 500; the form collapses to one line; the keys work at once; the current row is clear of the bars', async () => {
    await page.goto(`${dash.url}#empty`);
    await page.click('#api-toggle');
    assert.equal(await page.inputValue('#api-url'), proxy.url);
    await page.fill('#api-key', key);
    await page.click('#api-fetch');
    assert.equal(await waitForScoring(page, 180000), 'done');
    shown = (await snap()).rows.map((x) => x.id);
    assert.equal(shown.length, 500);
    assert.equal(await page.isVisible('#api-area'), false);
    assert.match(await page.textContent('#fetch-summary'), /^Fetched 500 pending items from http:\/\/127\.0\.0\.1:\d+ at \d\d:\d\d \(the limit, 500\)\.$/);
    assert.equal(await focused(), 'queue-list');
    assert.equal(await current(), shown[0]);
    await clearOfBars('#queue-list [aria-selected="true"]', 'after the fetch');
    await clearOfBars('#held-why', 'the detail\'s top');
    await axe('fetched');
  });

  it('u after r undoes that reject (not the next item), and nothing is sent', async () => {
    await page.keyboard.press('r');
    assert.equal(await decisionOf(shown[0]), 'reject');
    assert.equal(await current(), shown[1]);
    await page.keyboard.press('u');
    assert.equal(await decisionOf(shown[0]), null);
    assert.equal(await decisionOf(shown[1]), null);
    assert.equal(await current(), shown[0]);
    assert.match(await page.textContent('#undo-toast'), /^Undone/);
    assert.equal(proxy.maxInFlight(RESOLVE), 0, 'nothing sent');
  });

  it('a note written before deciding goes with that item\'s decision', async () => {
    await page.keyboard.press('n');
    assert.equal(await page.getAttribute('#note-input', 'data-for'), shown[0]);
    await page.keyboard.type('same card as the March write');
    await page.keyboard.press('Enter');
    await page.keyboard.press('r');
    assert.equal(await current(), shown[1]);
    assert.equal(await page.inputValue('#note-input'), '');
    for (let i = 0; i < 5; i++) await page.keyboard.press(i % 2 ? 'r' : 'a');
    await page.waitForTimeout(300);
  });

  it('after a reload, #resume-notice names the saved decisions; the resumed queue selects the first undecided item', async () => {
    const before = (await snap()).rows.filter((x) => x.decision).map((x) => [x.id, x.decision]);
    assert.equal(before.length, 6);
    await page.reload();
    assert.equal(rec.unloads, 1, 'the tab asked before going away with unsent decisions');
    await page.waitForSelector('#resume-notice:not([hidden])');
    assert.equal(await page.textContent('#resume-notice p strong'), `6 saved decisions for ${proxy.url} / ${ns}`);
    assert.match(await page.textContent('#resume-notice'), /: enter the key to resume\./);
    await page.click('#resume-notice .resume-go');
    assert.equal(await focused(), 'api-key');
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');
    assert.equal(await waitForScoring(page, 180000), 'done');
    assert.equal(await page.isVisible('#resume-notice'), false);
    const s = await snap();
    assert.deepEqual(s.rows.filter((x) => x.decision).map((x) => [x.id, x.decision]), before);
    assert.equal(await current(), shown[6], 'the first undecided item, not the restored row 0');
    await clearOfBars('#queue-list [aria-selected="true"]', 'after the resume');
  });

  it('submits 150 decisions: "Sending N of 150…" in the bar, at most 6 requests at a time, the summary in view; the server agrees', async () => {
    await page.focus('#queue-list');
    for (let i = 0; i < 144; i++) await page.keyboard.press(i % 4 === 0 ? 'a' : 'r');
    const decided = (await snap()).rows.filter((x) => x.decision).map((x) => [x.id, x.decision]);
    assert.equal(decided.length, 150);
    proxy.resetCounts();
    await page.click('#dec-submit');
    assert.equal(await focused(), 'dec-submit-cancel');
    assert.match(await page.textContent('#dec-confirm-target'), /150 decisions will be sent to .* up to 6 at a time/);
    await page.click('#dec-submit-confirm');
    const seen = [];
    while (await page.getAttribute('#dec-results', 'data-state') !== 'done') {
      const t = await page.textContent('#send-progress');
      if (seen.at(-1) !== t) seen.push(t);
      await page.waitForTimeout(25);
    }
    const progress = seen.filter((t) => /^Sending \d+ of 150…/.test(t));
    assert.ok(progress.length >= 3, `the progress was shown as it went: ${seen.slice(0, 5).join(' | ')}`);
    const max = proxy.maxInFlight(RESOLVE);
    assert.ok(max <= 6 && max >= 2, `at most 6 resolves in flight at the proxy, and more than one: ${max}`);
    process.stderr.write(`live loop: 150 resolves, at most ${max} in flight\n`);
    const summary = await page.textContent('#send-progress');
    const outcomes = await page.$$eval('#dec-results li', (lis) => lis.filter((li) => !['approved', 'rejected'].includes(li.dataset.outcome)).map((li) => `${li.dataset.outcome} ${li.dataset.status}: ${li.textContent}`));
    assert.deepEqual(outcomes, [], summary);
    assert.match(summary, /^Sent 150 decisions to .*: \d+ approved, \d+ rejected\./);
    const b = await page.$eval('#send-progress', (e) => { const q = e.getBoundingClientRect(); return { top: q.top, bottom: q.bottom, vh: innerHeight }; });
    assert.ok(b.top >= 0 && b.bottom <= b.vh, `the summary (in the sticky bar) in view: ${JSON.stringify(b)}`);
    // The server: each decided item resolved as decided; the note went with its decision.
    const approved = new Set((await list('approved')).map((x) => x.id));
    const rejected = new Set((await list('rejected')).map((x) => x.id));
    for (const [id, d] of decided) assert.ok((d === 'approve' ? approved : rejected).has(id), `${id} ${d}`);
    assert.equal(approved.size + rejected.size, 150);
    assert.deepEqual(bodies.get(shown[0]), { action: 'reject', note: 'same card as the March write' });
    assert.equal(bodies.get(shown[1]).note, null);
    await axe('sent');
  });

  it('a server that never answers: the fetch gives up after its timeout, the button is disabled meanwhile, Cancel works', async () => {
    await page.waitForFunction(() => /Queue refreshed/.test(document.getElementById('dec-results').textContent), null, { timeout: 180000 });
    await waitForScoring(page, 180000);
    proxy.hang = true;
    proxy.resetCounts();
    if (await page.isHidden('#api-area')) await page.click('#api-toggle');
    await page.fill('#api-timeout', '3');
    const t0 = Date.now();
    await page.click('#api-fetch');
    assert.equal(await page.isDisabled('#api-fetch'), true);
    await page.click('#api-fetch', { force: true, timeout: 1000 }).catch(() => {});
    await page.waitForSelector('#queue-status[data-fetch="timeout"]', { timeout: 15000 });
    const took = Date.now() - t0;
    assert.ok(took >= 2900 && took < 10000, `gave up after ${took} ms`);
    assert.match(await page.textContent('#queue-status'), /^No answer from http:\/\/127\.0\.0\.1:\d+ within 3 s: gave up/);
    assert.equal(proxy.hung, 1, 'one request: the second click did nothing');
    assert.equal((await snap()).count, 500 - 150 + 120, 'the loaded queue is kept');
    await page.fill('#api-timeout', '30');
    await page.click('#api-fetch');
    await page.click('#fetch-cancel');
    await page.waitForSelector('#queue-status[data-fetch="cancelled"]');
    assert.equal(proxy.hung, 2);
    await axe('hang-cancelled');
    proxy.hang = false;
  });

  it('a phone (390×844): the slim bar decides and moves on with a tap; Undo from the toast', async () => {
    const { page: phone, rec: prec } = await newPage(browser, { width: 390, height: 844, phone: true });
    await phone.goto(`${dash.url}#empty`);
    await phone.tap('#api-toggle');
    await phone.fill('#api-key', key);
    await phone.tap('#api-fetch');
    assert.equal(await waitForScoring(phone, 180000), 'done');
    const rows = (await snap(phone)).rows.map((x) => x.id);
    assert.equal(rows.length, 470);
    const barH = await phone.$eval('#action-bar', (e) => e.getBoundingClientRect().height);
    assert.ok(barH <= 110, `the sticky bar is ${barH}px of 844`);
    assert.equal(await phone.isVisible('.keys'), false);
    const first = await current(phone);
    await phone.tap('#phone-approve');
    assert.equal(await decisionOf(first, phone), 'approve');
    const second = await current(phone);
    assert.notEqual(second, first);
    await phone.tap('#phone-reject');
    assert.equal(await decisionOf(second, phone), 'reject');
    await phone.tap('#undo-btn');
    assert.equal(await decisionOf(second, phone), null);
    assert.equal(await current(phone), second);
    await clearOfBars('#held-why', 'the detail on the phone', phone);
    await axe('phone', phone);
    assert.deepEqual(prec.dialogs, []);
    assert.deepEqual(prec.external, []);
    await phone.context().close();
  });

  it('no native dialog, no request off 127.0.0.1', () => {
    assert.deepEqual(rec.dialogs, []);
    assert.deepEqual(rec.external, []);
  });
});
