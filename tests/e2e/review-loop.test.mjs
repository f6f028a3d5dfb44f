// End-to-end tests of the review loop (issue 31), in headless Chromium: undo
// (u, z, the toast) after single and bulk decisions, notes (n, Enter, Escape),
// key help (?), search (/), Escape and one confirmation at a time with the safe
// button focused, the screen (the fetch form collapses, the current row clear
// of the sticky bars at 1280–1920 px and on a phone, the slim phone bar),
// sending with progress and bounded concurrency, fetch timeout and Cancel,
// errors in plain words, the beforeunload warning, resume after a reload,
// grouping like items, invisible and direction characters shown and flagged,
// accessibility (axe-core on every view and state, a level-one heading, Tabs to
// the list), and the polish items (the verdict in view, the key check, one
// precision, the year, no empty progress bar, a new queue at its top, plain
// words, filters in the URL).
// A Lians server is stood in for by page.route on the dashboard's origin;
// tests/live/dashboard.test.mjs runs the loop against a real one.
// Run: node --test tests/e2e/review-loop.test.mjs (needs the built package).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startDashboard, stopDashboard, openDashboard, loadQueueFile, axeSerious, waitForScoring, outPath } from './helpers.mjs';
import { loadPackage } from './pkg.mjs';
import { bigQueueItems } from './big-queue.mjs';

const { pkg, reason } = await loadPackage();
const noPkg = pkg ? false : `package not built: ${reason}`;

let server;
let browser;
const recorders = [];
before(async () => ({ server, browser } = await startDashboard()));
after(() => stopDashboard({ server, browser }));

const open = (opts = {}, hash = '#empty') => openDashboard(browser, server, recorders, opts, hash);
const queueText = (texts) => `{"pending":[${texts.join(',')}],"total":${texts.length},"status_filter":"pending"}`;
const rowsIds = (page) => page.$$eval('#queue-list [role="option"]', (els) => els.map((e) => e.dataset.id));
const current = (page) => page.locator('#queue-list [aria-selected="true"]').getAttribute('data-id');
const snap = (page) => page.evaluate(() => window.__liansDashboard.snapshot());
const decisionOf = async (page, id) => (await snap(page)).rows.find((r) => r.id === id).decision;
const focused = (page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
const withContent = (text, content) => text.replace(/"content":"(?:[^"\\]|\\.)*"/, `"content":${JSON.stringify(content)}`);

/**
 * A stand-in Lians server on the dashboard's origin (page.route): GET
 * /v1/admissions returns the items; POST …/resolve answers after `delayMs`,
 * counting the requests in flight. opts.get: a function (route) → a custom
 * answer for the GET (or null for the default).
 */
async function fakeLians(context, texts, { delayMs = 0, get = null } = {}) {
  const pending = new Map(texts.map((t) => [JSON.parse(t).id, t]));
  const log = { gets: 0, resolves: [], inFlight: 0, maxInFlight: 0, pending };
  await context.route('**/v1/admissions?*', async (route) => {
    log.gets++;
    if (get) { const done = await get(route); if (done !== null) return done; }
    const limit = Number(new URL(route.request().url()).searchParams.get('limit'));
    return route.fulfill({ status: 200, contentType: 'application/json', body: queueText([...pending.values()].slice(0, limit)) });
  });
  await context.route('**/v1/admissions/*/resolve', async (route) => {
    log.inFlight++;
    log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
    const id = new URL(route.request().url()).pathname.split('/')[3];
    const body = JSON.parse(route.request().postData());
    log.resolves.push({ id, ...body });
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    log.inFlight--;
    if (!pending.has(id)) return route.fulfill({ status: 409, contentType: 'application/json', body: '{"detail":"already resolved"}' });
    pending.delete(id);
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ status: body.action === 'approve' ? 'approved' : 'rejected', pending_id: id, memory_id: body.action === 'approve' ? `aaaaaaaa-0000-4000-8000-${id.slice(-12)}` : null }) });
  });
  return log;
}

async function fetchFromForm(page, { timeout = null, key = 'test-admin-key', url = server.url } = {}) {
  if (await page.isHidden('#api-area')) await page.click('#api-toggle');
  await page.fill('#api-url', url);
  await page.fill('#api-key', key);
  if (timeout != null) await page.fill('#api-timeout', String(timeout));
  await page.click('#api-fetch');
}

/** axe-core: no serious or critical violation, light and dark; a screenshot of each. */
async function axe(page, label) {
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    assert.deepEqual((await axeSerious(page)).map((v) => `${label} ${colorScheme}: ${v}`), []);
    await page.screenshot({ path: outPath(`review-loop-${label}-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The rects that matter for "never under the sticky bars". */
const layout = (page, sel) => page.evaluate((s) => {
  const r = (el) => { const b = el.getBoundingClientRect(); return { top: b.top, bottom: b.bottom }; };
  const top = document.querySelector('.topbar');
  return {
    el: r(document.querySelector(s)),
    topbar: getComputedStyle(top).position === 'sticky' ? r(top).bottom : 0,
    bar: r(document.getElementById('action-bar')).top,
    vh: innerHeight,
  };
}, sel);
async function assertClear(page, sel, what) {
  const l = await layout(page, sel);
  assert.ok(l.el.top >= l.topbar - 1 && l.el.bottom <= l.bar + 1, `${what}: ${sel} at ${l.el.top}–${l.el.bottom}, top bar ends ${l.topbar}, action bar starts ${l.bar}`);
}

describe('1. the keyboard loop', { skip: noPkg }, () => {
  it('u and z undo the last decision (after r: the rejected item, selected again), single and bulk, with a toast', async () => {
    const { page } = await open({}, '');
    await waitForScoring(page);
    const ids = await rowsIds(page);
    await page.focus('#queue-list');
    await page.keyboard.press('r');
    assert.equal(await decisionOf(page, ids[0]), 'reject');
    assert.equal(await current(page), ids[1]);
    assert.equal(await page.isVisible('#undo-toast'), true);
    assert.match(await page.textContent('#undo-toast'), /Rejected “.+” \(not sent yet\)\. Undo/);
    await page.keyboard.press('u');
    assert.equal(await decisionOf(page, ids[0]), null, 'u undid the reject of the item just decided');
    assert.equal(await decisionOf(page, ids[1]), null, 'and left the next one alone');
    assert.equal(await current(page), ids[0], 'the undone item is selected again');
    assert.match(await page.textContent('#undo-toast'), /Undone/);
    // a, a, then z twice: both undone, newest first.
    await page.keyboard.press('a');
    await page.keyboard.press('a');
    await page.keyboard.press('z');
    assert.deepEqual([await decisionOf(page, ids[0]), await decisionOf(page, ids[1])], ['approve', null]);
    await page.keyboard.press('z');
    assert.equal(await decisionOf(page, ids[0]), null);
    // Bulk: three checked, rejected in one go, undone in one go (the toast's button).
    await page.keyboard.press('a'); // ids[0] approved first: undo puts back "approve", not "undecided"
    for (const id of ids.slice(0, 3)) await page.click(`#queue-list [data-id="${id}"] .check`);
    await page.click('#bulk-reject');
    await page.click('#bulk-confirm');
    assert.deepEqual(await Promise.all(ids.slice(0, 3).map((id) => decisionOf(page, id))), ['reject', 'reject', 'reject']);
    assert.match(await page.textContent('#undo-toast'), /Rejected 3 items/);
    await page.click('#undo-btn');
    assert.deepEqual(await Promise.all(ids.slice(0, 3).map((id) => decisionOf(page, id))), ['approve', null, null]);
  });

  it('n writes a note for the item shown, before deciding; Enter keeps it, Escape leaves it as it was', async () => {
    const { page } = await open({}, '');
    await waitForScoring(page);
    const ids = await rowsIds(page);
    await page.focus('#queue-list');
    await page.keyboard.press('j');
    assert.equal(await current(page), ids[1]);
    await page.keyboard.press('n');
    assert.equal(await focused(page), 'note-input');
    assert.equal(await page.getAttribute('#note-input', 'data-for'), ids[1]);
    await page.keyboard.type('duplicate of an earlier write');
    await page.keyboard.press('Enter');
    assert.equal(await focused(page), 'queue-list', 'Enter returns to the list');
    await page.keyboard.press('r'); // the note goes with this decision
    assert.equal(await current(page), ids[2]);
    assert.equal(await page.inputValue('#note-input'), '', 'the next item has no note');
    // Escape: typed text is dropped, the note stays as it was.
    await page.keyboard.press('n');
    await page.keyboard.type('not this');
    await page.keyboard.press('Escape');
    assert.equal(await focused(page), 'queue-list');
    assert.equal(await page.inputValue('#note-input'), '');
    await page.waitForTimeout(250);
    const saved = await page.evaluate(() => Object.entries(sessionStorage).filter(([k]) => k.startsWith('lians-review:')).map(([, v]) => JSON.parse(v).decisions));
    assert.equal(saved.length, 1);
    assert.deepEqual(saved[0][ids[1]], { action: 'reject', note: 'duplicate of an earlier write' });
    assert.equal(saved[0][ids[2]], undefined, 'nothing lands on the next item');
  });

  it('? opens the key help and Escape closes it; / focuses search', async () => {
    const { page } = await open({}, '');
    await waitForScoring(page);
    await page.focus('#queue-list');
    await page.keyboard.press('?');
    assert.equal(await page.isVisible('#key-help'), true);
    assert.match(await page.textContent('#key-help'), /undo the last decision/);
    await axe(page, 'key-help');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#key-help'), false);
    assert.equal(await focused(page), 'queue-list');
    await page.keyboard.press('/');
    assert.equal(await focused(page), 'f-text');
    // The replace question (a new queue over unsent decisions): Keep has the focus, Escape answers Keep.
    await page.focus('#queue-list');
    await page.keyboard.press('a');
    await page.click('#load-sample');
    await page.waitForSelector('#replace-box:not([hidden])');
    assert.equal(await focused(page), 'replace-cancel');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#replace-box'), false);
    await page.waitForFunction(() => /^Kept the loaded queue/.test(document.getElementById('queue-status').textContent));
  });

  it('confirmations: the safe button has the focus, Escape closes them, one at a time, the Submit list is built when sent', async () => {
    const { page, context } = await open();
    const texts = bigQueueItems(12, 7);
    const log = await fakeLians(context, texts);
    await fetchFromForm(page);
    await waitForScoring(page);
    const ids = await rowsIds(page);
    await page.keyboard.press('a');
    await page.keyboard.press('r');
    await page.click('#dec-submit');
    assert.equal(await focused(page), 'dec-submit-cancel', 'Cancel, not Send, has the focus');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#dec-confirm'), false, 'Escape closes Submit');
    // Bulk then Submit: opening one closes the other.
    await page.click(`#queue-list [data-id="${ids[5]}"] .check`);
    await page.click('#bulk-approve');
    assert.equal(await focused(page), 'bulk-cancel');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#bulk-box'), false, 'Escape closes Bulk');
    await page.click('#bulk-approve');
    await page.click('#dec-submit');
    assert.equal(await page.isVisible('#bulk-box'), false, 'only one confirmation at a time');
    assert.equal(await page.isVisible('#dec-confirm'), true);
    await axe(page, 'submit-confirm');
    // Enter on the focused button cancels: nothing sent.
    await page.keyboard.press('Enter');
    assert.equal(log.resolves.length, 0);
    // A decision made while the box is open is in what is sent.
    await page.click('#dec-submit');
    await page.focus('#queue-list');
    await page.keyboard.press('a');
    await page.click('#dec-submit-confirm');
    await page.waitForSelector('#dec-results[data-state="done"]');
    assert.equal(log.resolves.length, 3);
    assert.deepEqual(new Set(log.resolves.map((x) => x.id)), new Set(ids.slice(0, 3)));
  });
});

describe('2. the screen for the work', { skip: noPkg }, () => {
  for (const [width, height] of [[1280, 800], [1440, 900], [1920, 1080]]) {
    it(`${width}×${height}: the fetch form collapses; the current row and the detail's top stay clear of the sticky bars`, async () => {
      const { page, context } = await open({ width, height });
      const texts = bigQueueItems(200, 11);
      await fakeLians(context, texts);
      await fetchFromForm(page);
      await waitForScoring(page);
      assert.equal(await page.isVisible('#api-area'), false, 'the form collapsed');
      assert.equal(await page.isVisible('#fetch-summary'), true);
      assert.match(await page.textContent('#fetch-summary'), /^Fetched 200 pending items from http:\/\/127\.0\.0\.1:\d+ at \d\d:\d\d\.$/);
      const h = await page.$eval('#fetch-summary', (e) => e.getBoundingClientRect().height);
      assert.ok(h < 30, `one line (${h}px)`);
      assert.equal(await focused(page), 'queue-list', 'the keys work at once');
      await assertClear(page, '#queue-list [aria-selected="true"]', 'after the fetch');
      await assertClear(page, '#held-why', 'the detail\'s top');
      for (let i = 0; i < 25; i++) await page.keyboard.press('j');
      await assertClear(page, '#queue-list [aria-selected="true"]', 'after 25 × j');
      for (let i = 0; i < 8; i++) await page.keyboard.press('r');
      await assertClear(page, '#queue-list [aria-selected="true"]', 'after 8 × r');
      const visibleRows = await page.$$eval('#queue-list [role="option"]', (els) => {
        const bar = document.getElementById('action-bar').getBoundingClientRect().top;
        return els.filter((e) => { const b = e.getBoundingClientRect(); return b.bottom > 0 && b.top < bar && b.height > 0; }).length;
      });
      assert.ok(visibleRows >= 7, `${visibleRows} rows above the action bar`);
      await page.screenshot({ path: outPath(`review-loop-screen-${width}.png`) });
    });
  }

  it('390×844 phone: a slim bar (Approve, Reject, Next), no key hints, a tap moves on as the keys do', async () => {
    const { page } = await open({ width: 390, height: 844, phone: true }, '');
    await waitForScoring(page);
    const ids = await rowsIds(page);
    assert.equal(await page.isVisible('.phone-bar'), true);
    const barH = await page.$eval('#action-bar', (e) => e.getBoundingClientRect().height);
    assert.ok(barH <= 110, `the sticky bar is ${barH}px of 844`);
    assert.equal(await page.isVisible('.keys'), false, 'no key hints on a touch screen');
    assert.equal(await page.isVisible('#detail .key-hint'), false);
    assert.equal(await page.isVisible('#bulk-approve'), false, 'the selection buttons only with a selection');
    await page.tap('#phone-approve');
    assert.equal(await decisionOf(page, ids[0]), 'approve');
    assert.equal(await current(page), ids[1], 'a tap on Approve moves on');
    await page.tap('#detail .decide button.reject');
    assert.equal(await decisionOf(page, ids[1]), 'reject');
    assert.equal(await current(page), ids[2], 'so does the detail\'s Reject');
    await page.tap('#phone-next');
    assert.equal(await current(page), ids[3]);
    await assertClear(page, '#held-why', 'the detail after a tap');
    await axe(page, 'phone');
  });
});

describe('3. sending you can see', { skip: noPkg }, () => {
  it('"Sending N of 30…" in the sticky bar, at most 6 requests at a time, the summary in view', async () => {
    const { page, context } = await open({ width: 1440, height: 900 });
    const texts = bigQueueItems(30, 13);
    const log = await fakeLians(context, texts, { delayMs: 120 });
    await fetchFromForm(page);
    await waitForScoring(page);
    await page.selectOption('#f-decision', 'undecided');
    await page.click('#select-all-filtered');
    await page.click('#bulk-reject');
    await page.click('#bulk-confirm');
    await page.click('#dec-submit');
    await page.click('#dec-submit-confirm');
    await page.waitForFunction(() => /^Sending \d+ of 30…/.test(document.getElementById('send-progress').textContent));
    const seen = new Set();
    while (await page.getAttribute('#dec-results', 'data-state') !== 'done') {
      seen.add(await page.textContent('#send-progress'));
      await page.waitForTimeout(40);
    }
    const progress = [...seen].filter((t) => /^Sending (\d+) of 30…/.test(t));
    assert.ok(progress.length >= 2, `progress shown as it went: ${[...seen].join(' | ')}`);
    assert.ok(log.maxInFlight <= 6, `at most 6 at a time (${log.maxInFlight})`);
    assert.ok(log.maxInFlight >= 2, `more than one at a time (${log.maxInFlight})`);
    assert.equal(log.resolves.length, 30);
    await page.waitForFunction(() => /^Sent 30 decisions to .*: 30 rejected\./.test(document.getElementById('send-progress').textContent));
    // The summary is in the sticky bar itself: in view wherever the page is scrolled.
    const b = await page.$eval('#send-progress', (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, vh: innerHeight }; });
    assert.ok(b.top >= 0 && b.bottom <= b.vh, `the summary in view: ${JSON.stringify(b)}`);
    await axe(page, 'sent');
  });

  it('Fetch gives up after its timeout; Cancel stops it; the button is disabled meanwhile (one request)', async () => {
    const { page, context } = await open();
    const log = await fakeLians(context, bigQueueItems(3, 17), { get: () => new Promise(() => {}) }); // never answers
    await fetchFromForm(page, { timeout: 2 });
    assert.equal(await page.isDisabled('#api-fetch'), true);
    assert.equal(await page.isVisible('#fetch-cancel'), true);
    await page.click('#api-fetch', { force: true }).catch(() => {});
    await page.waitForSelector('#queue-status[data-fetch="timeout"]', { timeout: 10000 });
    assert.match(await page.textContent('#queue-status'), /^No answer from http:\/\/127\.0\.0\.1:\d+ within 2 s: gave up/);
    assert.equal(log.gets, 1, 'a click on the disabled button sent nothing');
    assert.equal(await page.isDisabled('#api-fetch'), false);
    await page.fill('#api-timeout', '30');
    await page.click('#api-fetch');
    await page.click('#fetch-cancel');
    await page.waitForSelector('#queue-status[data-fetch="cancelled"]');
    assert.match(await page.textContent('#queue-status'), /^Fetch cancelled/);
    assert.equal(await page.isVisible('#fetch-cancel'), false);
    await axe(page, 'fetch-cancelled');
  });

  it('errors in plain words: 401, 403, 404, 409 and 5xx (never raw HTML)', async () => {
    const { page, context } = await open();
    let answer = null;
    await fakeLians(context, bigQueueItems(3, 19), { get: (route) => route.fulfill(answer) });
    const cases = [
      [{ status: 401, contentType: 'application/json', body: '{"detail":"Invalid or revoked API key"}' }, /^API key refused \(HTTP 401 Unauthorized\): check the key, or make a new one\. The server says: “Invalid or revoked API key”\.$/],
      [{ status: 403, contentType: 'application/json', body: '{"detail":"admin scope required"}' }, /^The API key may not do this \(HTTP 403 Forbidden\): reviewing needs a key with the admin scope/],
      [{ status: 404, contentType: 'text/html', body: '<html><body>Not Found</body></html>' }, /^Not found \(HTTP 404 Not Found\): check the base URL/],
      [{ status: 502, contentType: 'text/html', body: '<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>' }, /^The server failed \(HTTP 502 Bad Gateway\): try again later/],
      [{ status: 500, contentType: 'text/plain', body: 'Internal Server Error' }, /^The server failed \(HTTP 500 Internal Server Error\)/],
    ];
    for (const [a, want] of cases) {
      answer = a;
      await fetchFromForm(page);
      await page.waitForSelector('#queue-status[data-fetch="failed"]');
      const text = await page.textContent('#queue-status');
      assert.match(text, want);
      assert.ok(!/[<>]/.test(text), `no markup: ${text}`);
    }
    // A 409 on a resolve, in the results list.
    const { classifyResolve } = await import('../../www/resolve.js');
    assert.match(classifyResolve(409, '{"detail":"Admission already resolved"}').detail, /^Already resolved \(HTTP 409 Conflict\)/);
    assert.match(classifyResolve(500, '<html>boom</html>').detail, /^The server failed \(HTTP 500 Internal Server Error\)[^<]*$/);
  });

  it('asks before the tab goes away with unsent decisions (beforeunload), not without', async () => {
    const { page, rec } = await open({}, '');
    await waitForScoring(page);
    await page.focus('#queue-list');
    await page.keyboard.press('j'); // a user gesture, no decision
    await page.reload();
    assert.equal(rec.unloads, 0);
    await waitForScoring(page);
    await page.focus('#queue-list');
    await page.keyboard.press('a');
    await page.reload();
    assert.equal(rec.unloads, 1);
    assert.deepEqual(rec.dialogs, []);
  });
});

describe('3b. a server on another origin: no answer, and an answer without CORS headers', { skip: noPkg }, () => {
  let api;
  let dash;
  let mode = 'nocors';
  before(async () => {
    api = http.createServer((req, res) => {
      if (mode === 'nocors') { res.writeHead(500, { 'content-type': 'text/plain' }); res.end('Internal Server Error'); }
    });
    await new Promise((r) => api.listen(0, '127.0.0.1', r));
    dash = await startDashboard({ LIANS_API_URL: `http://127.0.0.1:${api.address().port}` });
  });
  after(async () => { await stopDashboard(dash); api.closeAllConnections?.(); await new Promise((r) => api.close(r)); });

  it('a 500 without CORS headers is told apart from a server that is not there, and from the page\'s CSP', async () => {
    const p = await openDashboard(dash.browser, dash.server, recorders, {}, '#empty');
    const { page } = p;
    const apiUrl = `http://127.0.0.1:${api.address().port}`;
    await fetchFromForm(page, { url: apiUrl });
    await page.waitForSelector('#queue-status[data-fetch="failed"]');
    assert.match(await page.textContent('#queue-status'), /^The server at http:\/\/127\.0\.0\.1:\d+ answered, but not with CORS headers/);
    api.closeAllConnections?.();
    await new Promise((r) => api.close(r));
    await page.click('#api-fetch');
    await page.waitForSelector('#queue-status[data-fetch="failed"]');
    await page.waitForFunction(() => /^No answer from/.test(document.getElementById('queue-status').textContent));
    await fetchFromForm(page, { url: 'http://127.0.0.1:9' });
    await page.waitForFunction(() => /Content-Security-Policy does not allow http:\/\/127\.0\.0\.1:9/.test(document.getElementById('queue-status').textContent));
    mode = 'gone';
  });
});

describe('4. resume after a reload', { skip: noPkg }, () => {
  it('#resume-notice names the saved decisions before any fetch; after it the first undecided item is selected', async () => {
    const { page, context, rec } = await open({ width: 1440, height: 900 });
    const texts = bigQueueItems(40, 23);
    await fakeLians(context, texts);
    await fetchFromForm(page);
    await waitForScoring(page);
    const ids = await rowsIds(page);
    for (const k of ['a', 'r', 'a']) await page.keyboard.press(k);
    await page.waitForTimeout(250);
    await page.reload();
    assert.equal(rec.unloads, 1);
    await page.waitForSelector('#resume-notice:not([hidden])');
    assert.match(await page.textContent('#resume-notice'), new RegExp(`^3 saved decisions for ${server.url.slice(0, -1).replace(/[.:/]/g, '\\$&')} / lians-real-ns: enter the key to resume\\.`));
    await axe(page, 'resume');
    await page.click('#resume-notice .resume-go');
    assert.equal(await page.isVisible('#api-area'), true);
    assert.equal(await page.inputValue('#api-url'), server.url.slice(0, -1));
    assert.equal(await focused(page), 'api-key');
    await page.keyboard.type('test-admin-key');
    await page.keyboard.press('Enter');
    await waitForScoring(page);
    assert.equal(await page.isVisible('#resume-notice'), false);
    assert.equal(await current(page), ids[3], 'the first undecided item, not row 0 (decided)');
    await page.keyboard.press('r');
    assert.equal(await decisionOf(page, ids[0]), 'approve', 'a restored decision is not overwritten');
    assert.equal(await decisionOf(page, ids[3]), 'reject');
  });
});

describe('5. like items', { skip: noPkg }, () => {
  it('"like items together" groups identical detected text; "select all like this" checks them', async () => {
    const { page } = await open();
    const base = bigQueueItems(12, 29);
    const card = 'Corporate card 4111 1111 1111 1111 paid the deposit';
    const texts = base.map((t, i) => (i % 3 === 0 ? withContent(t, `${card} (${i})`) : withContent(t, `Plain note ${i} about the warehouse lease`)));
    await loadQueueFile(page, queueText(texts));
    await page.selectOption('#f-sort', 'found');
    // Grouping needs the package on the page's own thread, which may still be loading (a cold start): the
    // list is grouped once it is, so wait for the first row's "same text" badge.
    await page.waitForSelector('#queue-list [role="option"]:first-child [data-like]', { timeout: 60000 });
    const ids = await rowsIds(page);
    const like = texts.filter((_, i) => i % 3 === 0).map((t) => JSON.parse(t).id);
    assert.deepEqual(new Set(ids.slice(0, 4)), new Set(like), 'the four items with the same card number come first');
    assert.equal(await page.textContent(`#queue-list [data-id="${like[0]}"] [data-like]`), 'same text in 4 items');
    await page.click(`#queue-list [data-id="${like[1]}"]`);
    // The mark covers the card number, not the space after it (the engine's match ends in it).
    assert.deepEqual(await page.$$eval('#detail pre.content mark', (ms) => ms.map((m) => m.textContent)), ['4111 1111 1111 1111']);
    await page.click('#select-like');
    assert.match(await page.textContent('#queue-count'), /· 4 selected$/);
    assert.deepEqual(new Set((await page.$$eval('#queue-list [aria-checked="true"]', (els) => els.map((e) => e.dataset.id)))), new Set(like));
    assert.match(page.url(), /[?&]sort=found/);
    await axe(page, 'grouped');
  });
});

describe('6. invisible and direction characters', { skip: noPkg }, () => {
  it('shows U+202E and zero-width characters as marked placeholders, flags the item, keeps text as text', async () => {
    const { page } = await open();
    const [a, b] = bigQueueItems(2, 31);
    const hostile = '\u202eevil.exe gpj.\u202c SSN 078-05-1120 <b>x</b> zero\u200bwidth';
    await loadQueueFile(page, queueText([withContent(a, hostile), b]));
    const id = JSON.parse(a).id;
    const row = `#queue-list [data-id="${id}"]`;
    const snippet = await page.textContent(`${row} .snippet`);
    assert.ok(snippet.includes('⟨RLO⟩evil.exe gpj.⟨PDF⟩'), snippet);
    assert.ok(snippet.includes('zero⟨ZWSP⟩width'));
    assert.ok(!/[\u202a-\u202e\u200b]/.test(snippet), 'no raw control in the list');
    assert.equal(await page.isVisible(`${row} [data-controls]`), true);
    await page.click(row);
    assert.match(await page.textContent('#controls-warning'), /^3 invisible or text-direction characters in this text\./);
    assert.deepEqual(await page.$$eval('#detail pre.content .ctl', (els) => els.map((e) => [e.dataset.control, e.textContent])), [['U+202E', '⟨RLO⟩'], ['U+202C', '⟨PDF⟩'], ['U+200B', '⟨ZWSP⟩']]);
    assert.equal(await page.$$eval('#detail pre.content b', (els) => els.length), 0, 'markup stays text');
    assert.deepEqual(await page.$$eval('#detail pre.content mark', (ms) => ms.map((m) => m.textContent)), ['078-05-1120']);
    const shown = await page.evaluate(() => document.querySelector('#detail pre.content').innerText);
    assert.ok(!/[\u202a-\u202e\u200b]/.test(shown), 'no raw control in the detail');
    await axe(page, 'controls');
  });
});

describe('7. accessibility', { skip: noPkg }, () => {
  it('axe-core: 0 critical, 0 serious on every view and state; a level-one heading; few Tabs to the list', async () => {
    const { page, context } = await open({ width: 1440, height: 900 });
    assert.equal(await page.textContent('h1'), 'Lians review queue');
    await axe(page, 'empty');
    // Tabs from the top of the page to "Fetch from Lians…".
    await page.evaluate(() => document.activeElement?.blur());
    let tabs = 0;
    while ((await focused(page)) !== 'api-toggle' && tabs < 20) { await page.keyboard.press('Tab'); tabs++; }
    assert.ok(tabs <= 4, `${tabs} Tabs to Fetch from Lians…`);
    // The skip link goes to the list.
    assert.equal(await page.getAttribute('.skip', 'href'), '#queue-list');
    await page.click('#api-toggle');
    await axe(page, 'fetch-form');
    const log = await fakeLians(context, bigQueueItems(20, 37));
    await fetchFromForm(page);
    await waitForScoring(page);
    assert.equal(await focused(page), 'queue-list', '0 Tabs from Fetch to the list');
    assert.ok(log.gets === 1);
    await axe(page, 'loaded');
    await page.keyboard.press('r');
    await axe(page, 'toast');
    await page.click(`#queue-list [data-id="${(await rowsIds(page))[4]}"] .check`);
    await page.click('#bulk-approve');
    await axe(page, 'bulk');
    await page.keyboard.press('Escape');
    await page.click('#discard-saved');
    await axe(page, 'discard');
    await page.keyboard.press('Escape');
    await page.selectOption('#f-tag', '(none)').catch(() => page.fill('#f-text', 'no such text at all'));
    await page.fill('#f-text', 'no such text at all');
    assert.equal(await page.isVisible('#queue-empty'), true);
    await axe(page, 'no-match');
    await page.click('#tab-verify');
    await page.click('#v-sample-recall');
    await page.waitForSelector('#v-result .verdict');
    await axe(page, 'verify');
    await page.click('#tab-pack');
    await page.click('#p-sample');
    await page.waitForFunction(() => document.getElementById('p-wire').value.length > 0);
    await page.click('#p-run');
    await axe(page, 'pack');
  });
});

describe('8. polish', { skip: noPkg }, () => {
  it('one precision in the list, the year in dates, no empty progress bar, plain words with the field in a tooltip', async () => {
    const { page } = await open();
    assert.equal(await page.isVisible('#progress-wrap'), false, 'no progress bar before a queue');
    assert.equal(await page.isVisible('#queue-empty'), true);
    await page.click('#load-sample');
    await waitForScoring(page);
    const cells = await page.$$eval('#queue-list [data-col="approved"]', (els) => els.map((e) => [e.textContent, e.title]));
    for (const [t, title] of cells) {
      assert.match(t, /^→ \d\.\d{3}$/);
      const exact = Number(title.replace('If approved: ', ''));
      assert.equal(t, `→ ${exact.toFixed(3)}`);
    }
    for (const t of await page.$$eval('#queue-list [data-col="created"]', (els) => els.map((e) => e.textContent))) assert.match(t, /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    const text = await page.evaluate(() => document.getElementById('panel-queue').innerText);
    for (const jargon of ['score_breakdown', 'review_needed', 'resolver_note', 'reference_time', 'http_error', 'inferred from the stored breakdown']) {
      assert.ok(!text.includes(jargon), `"${jargon}" in the page text`);
    }
    assert.equal(await page.getAttribute('#note-input', 'title'), 'Sent with the decision as resolver_note');
    assert.equal(await page.$eval('#detail table.scores thead th[title="score_breakdown"]', (e) => e.textContent.startsWith('Stored')), true);
  });

  it('a new queue starts at its top, the first undecided item selected', async () => {
    const { page } = await open();
    await loadQueueFile(page, queueText(bigQueueItems(300, 41)));
    await page.focus('#queue-list');
    await page.keyboard.press('End');
    assert.ok(await page.$eval('#queue-list', (e) => e.scrollTop) > 1000);
    const next = bigQueueItems(300, 43);
    await loadQueueFile(page, queueText(next), 'next.json');
    assert.equal(await page.$eval('#queue-list', (e) => e.scrollTop), 0);
    assert.equal(await current(page), JSON.parse(next[0]).id);
  });

  it('filters and sort are in the URL and survive a reload', async () => {
    const { page } = await open({}, '');
    await waitForScoring(page);
    await page.selectOption('#f-decision', 'undecided');
    await page.selectOption('#f-sort', 'approved_desc');
    await page.fill('#f-text', 'card');
    await page.selectOption('#f-tag', 'pii:credit_card');
    const u = new URL(page.url());
    assert.deepEqual(Object.fromEntries(u.searchParams), { decision: 'undecided', sort: 'approved_desc', q: 'card', tag: 'pii:credit_card' });
    await page.reload();
    await waitForScoring(page);
    assert.equal(await page.inputValue('#f-decision'), 'undecided');
    assert.equal(await page.inputValue('#f-sort'), 'approved_desc');
    assert.equal(await page.inputValue('#f-text'), 'card');
    assert.equal(await page.inputValue('#f-tag'), 'pii:credit_card');
    const ids = await rowsIds(page);
    assert.ok(ids.length >= 1 && ids.length < 15, `${ids.length} rows shown`);
  });

  it('Verify puts its verdict in view; a malformed trusted key is "not a 32-byte Ed25519 public key"', async () => {
    const { page } = await open({ width: 390, height: 844, phone: true });
    await page.click('#tab-verify');
    await page.click('#v-sample-recall');
    await page.waitForSelector('#v-result .verdict');
    await page.waitForTimeout(300);
    const v = await page.$eval('#v-result', (e) => { const b = e.getBoundingClientRect(); return { top: b.top, vh: innerHeight }; });
    assert.ok(v.top >= 0 && v.top < v.vh, `the verdict is in view (${v.top} of ${v.vh})`);
    await page.click('#tab-pack');
    await page.click('#p-sample');
    await page.waitForFunction(() => document.getElementById('p-wire').value.length > 0);
    await page.fill('#p-key', 'AAAA');
    await page.click('#p-run');
    assert.equal(await page.textContent('#p-key-problem'), 'Trusted public key: not a 32-byte Ed25519 public key (it decodes to 3 bytes).');
    await page.fill('#p-key', 'not base64!');
    await page.click('#p-run');
    assert.match(await page.textContent('#p-key-problem'), /not a 32-byte Ed25519 public key \(not base64 text\)/);
  });
});

after(() => {
  for (const rec of recorders) {
    assert.deepEqual(rec.external, [], 'no request left 127.0.0.1');
    assert.deepEqual(rec.pageErrors, [], 'no page errors');
  }
});
