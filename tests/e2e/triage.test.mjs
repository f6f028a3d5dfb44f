// End-to-end tests of the review dashboard as a triage tool (issue 21), in
// headless Chromium: the decision filter, saved work (reload restore, discard),
// the replace guard, the truncation notice and the next batch, fast decisions
// (a/r move on, x, shift-click, select all shown, bulk with an in-page
// confirmation), read-only resolved items, why an item was held (marks and the
// opening sentence), fit at 1280/1440/390 px, and honest verify states.
// A Lians server is stood in for by page.route on the dashboard's own origin
// (GET /v1/admissions with a limit, POST …/resolve); tests/live runs the same
// against a real one.
// Run: node --test tests/e2e/triage.test.mjs (needs the built package).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDashboard, stopDashboard, openDashboard, loadQueueFile, axeSerious, waitForScoring, outPath, sampleFile } from './helpers.mjs';
import { loadPackage, verifiersWork, REPO } from './pkg.mjs';
import { bigQueue, bigQueueItems } from './big-queue.mjs';
import { markRuns, markSpans } from '../../www/queue.js';

// What the dashboard's /sample/ route serves (www/sample, then tests/data/samples).
const read = (f) => readFileSync(sampleFile(f), 'utf8');
const { pkg, reason } = await loadPackage();
const noPkg = pkg ? false : `package not built: ${reason}`;
const noVerifiers = noPkg || (verifiersWork(pkg) ? false : 'verifiers not implemented');
const noSpans = noPkg || (typeof pkg.riskSpans === 'function' ? false : 'this package build has no riskSpans() yet');

let server;
let browser;
const recorders = [];

before(async () => ({ server, browser } = await startDashboard()));
after(() => stopDashboard({ server, browser }));

const open = (opts = {}, hash = '#empty') => openDashboard(browser, server, recorders, opts, hash);
const loadFile = loadQueueFile;

const queueText = (texts) => `{"pending":[${texts.join(',')}],"total":${texts.length},"status_filter":"pending"}`;

/**
 * A stand-in Lians server on the dashboard's origin: the pending items
 * (newest first), GET /v1/admissions?limit=N returns the first N, and
 * POST /v1/admissions/{id}/resolve resolves one. Returns its log.
 */
async function fakeLians(context, texts) {
  const pending = new Map(texts.map((t) => [JSON.parse(t).id, t]));
  const log = { gets: [], resolves: [], pending };
  await context.route('**/v1/admissions?*', (route) => {
    const limit = Number(new URL(route.request().url()).searchParams.get('limit'));
    log.gets.push({ limit, key: route.request().headers()['x-api-key'] });
    const list = [...pending.values()].slice(0, limit);
    return route.fulfill({ status: 200, contentType: 'application/json', body: queueText(list) });
  });
  await context.route('**/v1/admissions/*/resolve', (route) => {
    const id = new URL(route.request().url()).pathname.split('/')[3];
    const body = JSON.parse(route.request().postData());
    log.resolves.push({ id, ...body });
    if (!pending.has(id)) return route.fulfill({ status: 409, contentType: 'application/json', body: '{"detail":"already resolved"}' });
    pending.delete(id);
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body.action === 'approve' ? { status: 'approved', memory_id: `aaaaaaaa-0000-4000-8000-${id.slice(-12)}` } : { status: 'rejected', memory_id: null }) });
  });
  return log;
}

async function fetchFromForm(page, { limit = null } = {}) {
  if (await page.isHidden('#api-area')) await page.click('#api-toggle');
  await page.fill('#api-url', server.url);
  await page.fill('#api-key', 'test-admin-key');
  if (limit != null) await page.fill('#api-limit', String(limit));
  await page.click('#api-fetch');
}

const rowsIds = (page) => page.$$eval('#queue-list [role="option"]', (els) => els.map((e) => e.dataset.id));
const current = (page) => page.locator('#queue-list [aria-selected="true"]').getAttribute('data-id');
const snap = (page) => page.evaluate(() => window.__liansDashboard.snapshot());

async function axe(page, label) {
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    assert.deepEqual((await axeSerious(page)).map((v) => `${label} ${colorScheme}: ${v}`), []);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('never lose work', () => {
  it('the Decision filter lists what was decided (decisions live in the page state, not on the rows)', async () => {
    const { page } = await open({}, '');
    await waitForScoring(page);
    const ids = await rowsIds(page);
    await page.focus('#queue-list');
    for (let i = 0; i < 4; i++) await page.keyboard.press('a');
    for (let i = 0; i < 4; i++) await page.keyboard.press('r');
    const shown = async (v) => { await page.selectOption('#f-decision', v); return rowsIds(page); };
    assert.deepEqual(await shown('approve'), ids.slice(0, 4));
    assert.deepEqual(await shown('reject'), ids.slice(4, 8));
    assert.deepEqual(await shown('undecided'), ids.slice(8));
    assert.match(await page.textContent('#queue-count'), new RegExp(`^${ids.length - 8} of ${ids.length} shown · ${ids.length - 8} undecided`));
    // Under "undecided", a decision takes the row out of the list and the next one is current.
    const first = ids[8];
    assert.equal(await current(page), first);
    await page.keyboard.press('a');
    assert.deepEqual(await rowsIds(page), ids.slice(9));
    assert.equal(await current(page), ids[9]);
    await page.selectOption('#f-decision', '*');
    assert.equal(await page.getAttribute(`#queue-list [data-id="${first}"]`, 'data-decision'), 'approve');
  });

  it('decisions and notes are saved per server origin + namespace and restored after a reload; never the key or content', { skip: noPkg }, async () => {
    const { page, context } = await open();
    const texts = bigQueueItems(30, 3);
    await fakeLians(context, texts);
    await fetchFromForm(page);
    assert.equal(await waitForScoring(page), 'done');
    assert.match(await page.textContent('#saved-status'), /sessionStorage/);
    const ids = await rowsIds(page);
    await page.focus('#queue-list');
    await page.keyboard.press('a');
    await page.keyboard.press('r');
    await page.keyboard.press('a');
    await page.click(`#queue-list [data-id="${ids[1]}"]`);
    await page.fill('#note-input', 'duplicate of an earlier write');
    await page.waitForTimeout(250); // saved shortly after each change
    const stored = await page.evaluate(() => Object.fromEntries(Object.entries(sessionStorage)));
    const keys = Object.keys(stored).filter((k) => k.startsWith('lians-review:v1:'));
    assert.deepEqual(keys, [`lians-review:v1:${JSON.stringify([new URL(server.url).origin, 'lians-real-ns'])}`]);
    const all = JSON.stringify(stored);
    assert.ok(!all.includes('test-admin-key'), 'the API key is never stored');
    for (const t of texts) assert.ok(!all.includes(JSON.parse(t).content.slice(0, 30)), 'no content is stored');
    assert.deepEqual(JSON.parse(stored[keys[0]]).decisions[ids[1]], { action: 'reject', note: 'duplicate of an earlier write' });

    await page.reload();
    assert.equal((await snap(page)).count, 0);
    await fetchFromForm(page);
    assert.equal(await waitForScoring(page), 'done');
    const s = await snap(page);
    assert.deepEqual(s.rows.slice(0, 4).map((r) => r.decision), ['approve', 'reject', 'approve', null]);
    assert.match(await page.textContent('#queue-status'), /3 saved decisions restored/);
    await page.click(`#queue-list [data-id="${ids[1]}"]`);
    assert.equal(await page.inputValue('#note-input'), 'duplicate of an earlier write');

    // Discard saved decisions: asks in the page, then clears the page and the storage.
    await page.click('#discard-saved');
    assert.match(await page.textContent('#discard-text'), /Discard 3 decisions/);
    await page.click('#discard-cancel');
    assert.equal((await snap(page)).rows.filter((r) => r.decision).length, 3);
    await page.click('#discard-saved');
    await page.click('#discard-confirm');
    assert.equal((await snap(page)).rows.filter((r) => r.decision).length, 0);
    assert.deepEqual(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('lians-review:'))), []);
  });

  it('replacing a queue with unsent decisions asks in the page; a bad or empty load never replaces it', async () => {
    const { page, rec } = await open({}, '');
    await waitForScoring(page);
    const ids = await rowsIds(page);
    await page.focus('#queue-list');
    await page.keyboard.press('a');
    await page.keyboard.press('r');
    // A paste with no valid item: the loaded queue stays (it used to become 0 items).
    await page.click('#paste-toggle');
    await page.fill('#queue-text', '[{"id":"x","content":5}]');
    await page.click('#queue-text-load');
    assert.match(await page.textContent('#queue-status'), /no valid review item.*The loaded queue is kept/);
    assert.deepEqual(await rowsIds(page), ids);
    await page.fill('#queue-text', '{"pending": [');
    await page.click('#queue-text-load');
    assert.match(await page.textContent('#queue-status'), /Not valid JSON.*The loaded queue is kept/);
    await page.fill('#queue-text', '{"pending": []}');
    await page.click('#queue-text-load');
    assert.match(await page.textContent('#queue-status'), /no valid review item/);
    assert.deepEqual(await rowsIds(page), ids);
    // A valid queue: the page asks first (no native dialog); cancel keeps everything.
    const other = queueText(bigQueueItems(3, 9));
    await page.fill('#queue-text', other);
    await page.click('#queue-text-load');
    await page.waitForSelector('#replace-box:not([hidden])');
    assert.match(await page.textContent('#replace-text'), /2 unsent decisions/);
    await page.click('#replace-cancel');
    assert.deepEqual(await rowsIds(page), ids);
    assert.equal((await snap(page)).rows.filter((r) => r.decision).length, 2);
    // The sample button asks too; confirming replaces.
    await page.click('#load-sample');
    await page.waitForSelector('#replace-box:not([hidden])');
    await page.click('#replace-cancel');
    await page.click('#queue-text-load');
    await page.waitForSelector('#replace-box:not([hidden])');
    await page.click('#replace-confirm');
    await waitForScoring(page);
    assert.equal((await snap(page)).count, 3);
    assert.deepEqual(rec.dialogs, []);
    // The replaced queue's decisions were saved: loading it again brings them back.
    await page.click('#load-sample');
    await page.waitForFunction((n) => window.__liansDashboard.snapshot().count === n, ids.length);
    await waitForScoring(page);
    assert.equal((await snap(page)).rows.filter((r) => r.decision).length, 2);
  });
});

describe('see all of it', () => {
  it('default limit 500; a full page shows #queue-truncated; submit, then the next batch; saved work cleared once sent', { skip: noPkg }, async () => {
    const { page, context } = await open();
    const texts = bigQueueItems(12, 4);
    const log = await fakeLians(context, texts);
    await page.click('#api-toggle');
    assert.equal(await page.inputValue('#api-limit'), '500');
    await fetchFromForm(page, { limit: 8 });
    await waitForScoring(page);
    assert.equal(log.gets.at(-1).limit, 8);
    assert.equal(await page.isVisible('#queue-truncated'), true);
    assert.match(await page.textContent('#queue-truncated'), /returned 8 items, the limit.*may hold more.*no offset/);
    assert.match(await page.textContent('#queue-count'), /^8 of 8 shown · 8 undecided/);
    await page.focus('#queue-list');
    for (let i = 0; i < 5; i++) await page.keyboard.press('a');
    for (let i = 0; i < 3; i++) await page.keyboard.press('r');
    assert.match(await page.textContent('#queue-count'), /^8 of 8 shown · 0 undecided/);
    await page.click('#dec-submit');
    assert.match(await page.textContent('#dec-confirm-target'), /8 decisions will be sent/);
    // Each listed decision names its item by a content snippet next to the id.
    const firstContent = JSON.parse(texts[0]).content;
    assert.ok((await page.textContent('#dec-confirm-list li')).includes(firstContent.slice(0, 40)));
    assert.equal(log.resolves.length, 0, 'nothing sent before the confirmation');
    await page.click('#dec-submit-confirm');
    await page.waitForSelector('#dec-results[data-state="done"]');
    assert.equal(log.resolves.length, 8);
    assert.ok((await page.textContent('#dec-results li')).includes(firstContent.slice(0, 40)), 'outcomes name the item');
    assert.match(await page.textContent('#dec-results'), /Queue refreshed from the server: 4 items\. The queue was cut at 8 items before: this is the next batch/);
    assert.equal(await page.isVisible('#fetch-next'), true);
    assert.equal(await page.isVisible('#queue-truncated'), false);
    assert.deepEqual((await snap(page)).rows.map((r) => r.id), texts.slice(8).map((t) => JSON.parse(t).id));
    assert.deepEqual(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('lians-review:'))), [], 'sent decisions are cleared');
  });

  it('resolved items are read-only and show resolved_at, memory_id and the note; a missing source is "—"', async () => {
    const { page } = await open();
    const items = JSON.parse(read('admissions.json')).pending.slice(0, 3);
    items[1] = { ...items[1], status: 'approved', resolved_at: '2026-12-01T10:00:00', memory_id: 'bbbbbbbb-0000-4000-8000-000000000001' };
    await loadFile(page, JSON.stringify({ pending: items, total: 3, status_filter: null }));
    assert.equal(await page.textContent('#detail .kv dd'), '—', 'source null shows as —');
    await page.click(`#queue-list [data-id="${items[1].id}"]`);
    assert.equal(await page.$('#detail .decide'), null, 'no decision buttons');
    const ro = await page.textContent('#detail [data-readonly]');
    assert.match(ro, /Resolved: approved/);
    assert.match(ro, /2026-12-01T10:00:00/);
    assert.match(ro, /bbbbbbbb-0000-4000-8000-000000000001/);
    assert.match(ro, /note/);
    await page.focus('#queue-list');
    await page.keyboard.press('a');
    assert.equal(await page.getAttribute(`#queue-list [data-id="${items[1].id}"]`, 'data-decision'), null);
    assert.match(await page.textContent('#queue-status'), /read-only/);
    assert.match(await page.textContent('#queue-count'), /1 resolved \(read-only\)/);
    await page.click('#select-all-filtered');
    assert.equal(await page.getAttribute(`#queue-list [data-id="${items[1].id}"]`, 'aria-checked'), null);
    assert.match(await page.textContent('#bulk-approve'), /\(2\)/);
  });
});

describe('decide fast', () => {
  it('x, the row checkbox, shift-click ranges, select all shown, bulk with an in-page confirmation stating the count', async () => {
    const { page, rec } = await open({}, '');
    await waitForScoring(page);
    const ids = await rowsIds(page);
    await page.focus('#queue-list');
    await page.keyboard.press('x');
    assert.equal(await page.getAttribute(`#queue-list [data-id="${ids[0]}"]`, 'aria-checked'), 'true');
    await page.click(`#queue-list [data-id="${ids[2]}"] .check`);
    await page.click(`#queue-list [data-id="${ids[5]}"] .check`, { modifiers: ['Shift'] });
    const checked = await page.$$eval('#queue-list [aria-checked="true"]', (els) => els.map((e) => e.dataset.id));
    assert.deepEqual(checked, [ids[0], ids[2], ids[3], ids[4], ids[5]]);
    await page.click('#bulk-reject');
    assert.equal(await page.isVisible('#bulk-box'), true);
    assert.equal(await page.textContent('#bulk-confirm'), 'Reject 5 items');
    assert.match(await page.textContent('#bulk-text'), /Reject 5 selected items\?/);
    await axe(page, 'bulk confirm');
    await page.click('#bulk-cancel');
    assert.equal((await snap(page)).rows.filter((r) => r.decision).length, 0, 'cancel decides nothing');
    await page.click('#bulk-reject');
    await page.click('#bulk-confirm');
    const s = await snap(page);
    assert.deepEqual(s.rows.filter((r) => r.decision === 'reject').map((r) => r.id), checked);
    assert.equal(await page.locator('#queue-list [aria-checked="true"]').count(), 0, 'the selection is cleared');
    // Select what the filters show, approve it in bulk.
    await page.selectOption('#f-tag', 'mnpi');
    await page.click('#select-all-filtered');
    const mnpi = await rowsIds(page);
    assert.equal(mnpi.length, 3);
    await page.click('#bulk-approve');
    assert.equal(await page.textContent('#bulk-confirm'), 'Approve 3 items');
    await page.click('#bulk-confirm');
    await page.selectOption('#f-tag', '*');
    const s2 = await snap(page);
    assert.deepEqual(s2.rows.filter((r) => r.decision === 'approve').map((r) => r.id).sort(), [...mnpi].sort());
    assert.deepEqual(rec.dialogs, []);
  });

  it('a decision on the item shown changes its buttons in place (the note being typed stays); u undoes it', async () => {
    const { page } = await open({}, '');
    await waitForScoring(page);
    const ids = await rowsIds(page);
    await page.click(`#queue-list [data-id="${ids[1]}"]`);
    await page.fill('#note-input', 'checked with the account owner');
    await page.evaluate(() => { window.__noteEl = document.getElementById('note-input'); });
    const pressed = () => page.$$eval('#detail .decide button', (bs) => bs.map((b) => b.getAttribute('aria-pressed')));
    await page.click('#detail button.approve');
    assert.deepEqual(await pressed(), ['true', 'false']);
    assert.equal(await page.getAttribute(`#queue-list [data-id="${ids[1]}"]`, 'data-decision'), 'approve');
    assert.equal(await page.evaluate(() => document.getElementById('note-input') === window.__noteEl), true, 'the pane was not redrawn');
    assert.equal(await page.inputValue('#note-input'), 'checked with the account owner');
    await page.click('#detail button.reject');
    assert.deepEqual(await pressed(), ['false', 'true']);
    await page.click('#detail button.reject'); // pressed again: no decision
    assert.deepEqual(await pressed(), ['false', 'false']);
    assert.equal(await page.getAttribute(`#queue-list [data-id="${ids[1]}"]`, 'data-decision'), null);
    await page.focus('#queue-list');
    await page.keyboard.press('r'); // rejects ids[1], moves on: the pane shows the next item
    assert.equal(await current(page), ids[2]);
    assert.deepEqual(await pressed(), ['false', 'false']);
    await page.keyboard.press('k');
    assert.deepEqual(await pressed(), ['false', 'true']);
    assert.equal(await page.inputValue('#note-input'), 'checked with the account owner', 'the note is kept per item');
    await page.keyboard.press('u');
    assert.deepEqual(await pressed(), ['false', 'false']);
    assert.equal((await snap(page)).rows.find((r) => r.id === ids[1]).decision, null);
  });

  it('the detail pane is patched in place for the next item: its buttons, note and scores are the item shown', { skip: noPkg }, async () => {
    const { page } = await open({}, '');
    await waitForScoring(page);
    const ids = await rowsIds(page);
    await page.click(`#queue-list [data-id="${ids[0]}"]`);
    await page.evaluate(() => { window.__approveEl = document.querySelector('#detail button.approve'); window.__tableEl = document.querySelector('#detail table.scores'); });
    await page.focus('#queue-list');
    await page.keyboard.press('j');
    assert.equal(await current(page), ids[1]);
    assert.equal(await page.evaluate(() => document.querySelector('#detail button.approve') === window.__approveEl && document.querySelector('#detail table.scores') === window.__tableEl), true, 'the same nodes, patched');
    // What the pane shows is ids[1]'s: its id, its content, its "if approved" final score (the list's).
    assert.equal(await page.locator('#detail .ids .mono').textContent(), ids[1]);
    assert.equal(await page.locator('#detail pre.content').textContent(), await page.locator(`#queue-list [data-id="${ids[1]}"] .snippet`).textContent());
    const row = (await snap(page)).rows.find((r) => r.id === ids[1]);
    assert.equal(await page.getAttribute('#detail tr.final td[data-col="approved"]', 'data-final'), String(row.approved.final_score));
    const listed = (await page.locator(`#queue-list [data-id="${ids[1]}"] [data-col="approved"]`).getAttribute('title')).replace(/^If approved: /, '');
    assert.equal(await page.locator('#detail tr.final td[data-col="approved"] .final-val').textContent(), listed);
    // The kept button and note act on the item shown, not on the one they were first drawn for.
    await page.click('#detail button.approve');
    assert.equal(await page.getAttribute(`#queue-list [data-id="${ids[1]}"]`, 'data-decision'), 'approve');
    assert.equal(await page.getAttribute(`#queue-list [data-id="${ids[0]}"]`, 'data-decision'), null);
    await page.fill('#note-input', 'second item');
    await page.focus('#queue-list');
    await page.keyboard.press('k');
    assert.equal(await page.inputValue('#note-input'), '', 'the first item has no note');
    await page.keyboard.press('j');
    assert.equal(await page.inputValue('#note-input'), 'second item');
  });

  it('1,500 rows: every row listed (in blocks the browser may skip drawing), keys scroll the current one into view, a click selects', async () => {
    const { page } = await open();
    await page.setInputFiles('#queue-file', { name: 'queue-1500.json', mimeType: 'application/json', buffer: Buffer.from(bigQueue(1500, 7)) });
    await waitForScoring(page, 300000);
    const ids = await rowsIds(page);
    assert.equal(ids.length, 1500);
    assert.equal(await page.locator('#queue-list [role="option"][aria-selected="true"]').count(), 1);
    // The options stay the listbox's own in the accessibility tree (the blocks are role="none").
    assert.deepEqual(await page.$$eval('#queue-list > *', (els) => [...new Set(els.map((e) => `${e.className}:${e.getAttribute('role')}`))]), ['rows:none']);
    await page.focus('#queue-list');
    await page.keyboard.press('End');
    assert.equal(await current(page), ids[1499]);
    const inView = (id) => page.evaluate((i) => {
      const list = document.getElementById('queue-list').getBoundingClientRect();
      const r = document.querySelector(`#queue-list [data-id="${i}"]`).getBoundingClientRect();
      return r.top >= list.top - 1 && r.bottom <= list.bottom + 1;
    }, id);
    assert.equal(await inView(ids[1499]), true);
    for (let i = 0; i < 3; i++) await page.keyboard.press('k');
    assert.equal(await current(page), ids[1496]);
    assert.equal(await inView(ids[1496]), true);
    await page.keyboard.press('a');
    assert.equal(await page.getAttribute(`#queue-list [data-id="${ids[1496]}"]`, 'data-decision'), 'approve');
    assert.equal(await current(page), ids[1497]);
    await page.keyboard.press('Home');
    assert.equal(await inView(ids[0]), true);
    await page.click(`#queue-list [data-id="${ids[3]}"]`);
    assert.equal(await current(page), ids[3]);
    assert.equal(await page.getAttribute('#queue-list', 'aria-activedescendant'), await page.getAttribute(`#queue-list [data-id="${ids[3]}"]`, 'id'));
    assert.match(await page.textContent('#queue-count'), /^1500 of 1500 shown · 1499 undecided/);
  });

  it('the list sorts by If approved, risk and created (no Stored column)', { skip: noPkg }, async () => {
    const { page } = await open({}, '');
    await waitForScoring(page);
    const sorts = await page.$$eval('#f-sort option', (os) => os.map((o) => o.value));
    assert.ok(!sorts.includes('stored_desc'));
    for (const k of ['approved_desc', 'risk', 'created_desc', 'created_asc']) assert.ok(sorts.includes(k), k);
    assert.equal(await page.locator('#queue-list [data-col="stored"]').count(), 0);
    await page.selectOption('#f-sort', 'approved_desc');
    const s = await snap(page);
    const vals = s.visible.map((id) => s.rows.find((r) => r.id === id).approved.final_score);
    assert.deepEqual(vals, [...vals].sort((a, b) => b - a));
    await page.selectOption('#f-sort', 'risk');
    const first = (await snap(page)).visible[0];
    assert.deepEqual(JSON.parse(read('queue-sample.json')).pending.find((p) => p.id === first).risk_tags, ['injection']);
  });
});

describe('why it was held', () => {
  it('opens with one plain sentence: what was found and what approving does', { skip: noPkg }, async () => {
    const { page } = await open({}, '');
    await waitForScoring(page);
    const ssn = '4636c026-0207-4326-95bc-9261d81c01a4';
    await page.click(`#queue-list [data-id="${ssn}"]`);
    const want = pkg.rescoreReviewItem(JSON.stringify(JSON.parse(read('queue-sample.json')).pending.find((p) => p.id === ssn))).approved.final_score;
    assert.equal(await page.textContent('#held-why'), `Held for an SSN. If approved: ${want}, eligible for recall.`);
    await page.click('#queue-list [data-id="758cc5a8-222d-4f2b-aea6-4589a3179fc7"]');
    assert.match(await page.textContent('#held-why'), /^Held for a prompt-injection phrase\. If approved: 0\.0, still not recallable \(zeroed by the safety gate/);
    await page.click('#queue-list [data-id="b0afdfc7-ac61-4375-9283-da37bb16dcf3"]');
    assert.match(await page.textContent('#held-why'), /^Held for an email address and a card number\./);
  });

  it('marks the spans the package reports as text, never HTML (a stand-in riskSpans, so this runs on any build)', { skip: noPkg }, async () => {
    const { page, context, rec } = await open({}, '#empty');
    const real = await (await fetch(`${server.url}lians-pkg.js`)).text();
    assert.match(real, /export default pkg;/);
    // SSNs and MRNs by a regex, plus an overlapping span and a malformed one (dropped, not guessed at).
    const stub = real.replace('export default pkg;', `const spans = (c) => {
  const out = [];
  for (const m of c.matchAll(/\\d{3}-\\d{2}-\\d{4}/g)) out.push({ tag: 'pii:ssn', start: m.index, end: m.index + m[0].length, text: m[0] });
  for (const m of c.matchAll(/MRN-?\\d+/g)) out.push({ tag: 'phi:mrn', start: m.index, end: m.index + m[0].length, text: m[0] });
  for (const m of c.matchAll(/<img[^>]*>/g)) out.push({ tag: 'injection', start: m.index, end: m.index + m[0].length, text: m[0] }, { tag: 'injection', start: m.index, end: m.index + 3, text: 'nope' });
  return out;
};
export default { ...pkg, riskSpans: spans };`);
    await context.route('**/lians-pkg.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: stub }));
    await page.reload();
    await loadFile(page, read('queue-sample.json'));
    await page.click('#queue-list [data-id="4636c026-0207-4326-95bc-9261d81c01a4"]');
    assert.equal(await page.getAttribute('#detail pre.content', 'data-marks'), 'on');
    assert.deepEqual(await page.$$eval('#detail pre.content mark', (ms) => ms.map((m) => [m.dataset.riskTag, m.textContent])), [['pii:ssn', '078-05-1120']]);
    assert.equal(await page.textContent('#detail pre.content'), "Employee Jordan Lee's SSN on file is 078-05-1120 for payroll setup.");
    await page.click('#queue-list [data-id="a7e3fc69-82ec-4c35-9771-f8fba385e66b"]');
    const probe = await page.evaluate(() => ({
      text: document.querySelector('#detail pre.content').textContent,
      marks: [...document.querySelectorAll('#detail pre.content mark')].map((m) => [m.dataset.riskTag, m.textContent, m.children.length]),
      elements: [...document.querySelectorAll('#detail pre.content *')].map((e) => e.tagName),
    }));
    const content = JSON.parse(read('queue-sample.json')).pending.find((p) => p.id === 'a7e3fc69-82ec-4c35-9771-f8fba385e66b').content;
    assert.equal(probe.text, content, 'the content, exactly');
    assert.ok(probe.marks.some(([t, x]) => t === 'injection' && x.startsWith('<img')), JSON.stringify(probe.marks));
    assert.ok(probe.marks.every(([, , kids]) => kids === 0), 'marks hold text only');
    assert.ok(probe.elements.every((t) => t === 'MARK'), probe.elements.join());
    assert.equal(await page.evaluate(() => document.querySelectorAll('main img, main script:not([src])').length), 0);
    assert.deepEqual(rec.dialogs, []);
    await axe(page, 'stand-in marks');
  });

  it('marks each detected span in the content as text (<mark data-risk-tag>)', { skip: noSpans }, async () => {
    const { page, rec } = await open({}, '');
    await waitForScoring(page);
    await page.click('#queue-list [data-id="4636c026-0207-4326-95bc-9261d81c01a4"]');
    assert.deepEqual(await page.$$eval('#detail pre.content mark', (ms) => ms.map((m) => [m.dataset.riskTag, m.textContent])), [['pii:ssn', '078-05-1120']]);
    await page.click('#queue-list [data-id="b0afdfc7-ac61-4375-9283-da37bb16dcf3"]');
    const marks = await page.$$eval('#detail pre.content mark', (ms) => ms.map((m) => m.dataset.riskTag));
    assert.ok(marks.includes('pii:email') && marks.includes('pii:credit_card'), marks.join());
    // Every sample item: the marked runs are exactly the package's spans (riskSpans in Node), tag and text.
    for (const it of JSON.parse(read('queue-sample.json')).pending) {
      await page.click(`#queue-list [data-id="${it.id}"]`);
      const got = await page.$$eval('#detail pre.content mark', (ms) => ms.map((m) => [m.dataset.riskTag, m.textContent]));
      const want = markRuns(it.content, markSpans(pkg.riskSpans(it.content))).filter((r) => r.tags.length).map((r) => [r.tags.join(' '), r.text]);
      assert.deepEqual(got, want, it.id);
      const tags = new Set(pkg.riskSpans(it.content).map((x) => x.tag));
      assert.deepEqual(new Set(pkg.detectRiskTags(it.content).filter((t) => t !== 'vague')), tags, `${it.id}: the marks explain the detected tags`);
    }
    // Hostile content stays text: the marks hold text nodes only.
    await page.click('#queue-list [data-id="a7e3fc69-82ec-4c35-9771-f8fba385e66b"]');
    const probe = await page.evaluate(() => ({
      text: document.querySelector('#detail pre.content').textContent,
      elements: [...document.querySelectorAll('#detail pre.content *')].map((e) => e.tagName),
    }));
    assert.ok(probe.text.includes('<img src=x onerror=alert(document.domain)>'));
    assert.ok(probe.elements.every((t) => t === 'MARK'), probe.elements.join());
    assert.deepEqual(rec.dialogs, []);
    await axe(page, 'marks');
  });
});

describe('fit', () => {
  for (const [w, hgt] of [[1440, 900], [1280, 800], [390, 844]]) {
    it(`no horizontal overflow of the detail pane at ${w} px${w < 800 ? '; a tap shows the detail, If approved first' : ''}`, { skip: noPkg }, async () => {
      const { page } = await open({ width: w, height: hgt });
      // The sample, plus an item whose stored breakdown (untrusted server text) holds long unbreakable tokens.
      const q = JSON.parse(read('queue-sample.json'));
      const long = structuredClone(q.pending.find((p) => p.id === '4636c026-0207-4326-95bc-9261d81c01a4'));
      long.id = '4636c026-0207-4326-95bc-000000000001';
      long.score_breakdown.reasons[2] = `caller-declared source trust level ${'vendor_portal_bulk_import_connector_'.repeat(3)}`;
      long.score_breakdown.scoring_policy_version = `lians_memory_scoring_${'v2_'.repeat(20)}`;
      long.agent_id = 'agent_'.repeat(30);
      q.pending.push(long);
      await loadFile(page, JSON.stringify(q));
      for (const id of ['4636c026-0207-4326-95bc-9261d81c01a4', 'a7e3fc69-82ec-4c35-9771-f8fba385e66b', '1e35e54f-9c82-4991-a132-c3d8d4a5b3ad', long.id]) {
        await page.click(`#queue-list [data-id="${id}"]`);
        await page.waitForSelector('#detail table.scores'); // the pane is drawn (never measure an empty one)
        const m = await page.evaluate(() => {
          const d = document.getElementById('detail');
          const all = [...d.querySelectorAll('*')].filter((e) => !e.closest('.visually-hidden'));
          const over = all.filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible' && e.clientWidth > 0).map((e) => `${e.tagName}.${e.className} ${e.scrollWidth}>${e.clientWidth}`);
          const r = d.getBoundingClientRect();
          const out = all.filter((e) => { const b = e.getBoundingClientRect(); return b.width > 0 && (b.right > r.right + 1 || b.left < r.left - 1); }).map((e) => `${e.tagName}.${e.className}`);
          return { over, out, doc: document.documentElement.scrollWidth, vw: window.innerWidth };
        });
        assert.deepEqual(m.over, [], `${w}px ${id}: scrolling boxes`);
        assert.deepEqual(m.out.slice(0, 5), [], `${w}px ${id}: outside the pane`);
        assert.ok(m.doc <= m.vw, `${w}px: page ${m.doc} > ${m.vw}`);
        if (w < 800) {
          const box = await page.evaluate(() => {
            const r = document.getElementById('detail').getBoundingClientRect();
            return { top: r.top, vh: window.innerHeight };
          });
          assert.ok(box.top >= -1 && box.top < box.vh / 2, `tap brings the detail into view (top ${box.top})`);
          const order = await page.evaluate(() => ['approved', 'held', 'stored'].map((c) => document.querySelector(`#detail tr[data-component="safety_score"] td[data-col="${c}"]`).getBoundingClientRect().top));
          assert.ok(order[0] < order[1] && order[0] < order[2], `If approved comes first: ${order}`);
        }
      }
      await page.click('#queue-list [data-id="4636c026-0207-4326-95bc-9261d81c01a4"]');
      await page.screenshot({ path: outPath(`triage-${w}-light.png`), fullPage: w < 800 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: outPath(`triage-${w}-dark.png`), fullPage: w < 800 });
      await page.emulateMedia({ colorScheme: 'light' });
      await axe(page, `queue ${w}`);
    });
  }
});

describe('honest states', () => {
  it('privacy-minimal results are amber ("valid for the fields checked; N content comparisons skipped"), never green; failed checks first', { skip: noVerifiers }, async () => {
    const { page } = await open();
    await page.click('#tab-verify');
    const recall = read('recall-08-fast-filters-acme-tinyfloat.json');
    const content = JSON.parse(recall).memories[0].content;
    const tampered = recall.split(JSON.stringify(content).slice(1, -1)).join('Acme Corp revenue is $1');
    await page.fill('#v-wire', tampered);
    await page.click('#v-run');
    await page.waitForSelector('#v-result .verdict[data-valid="false"]');
    const statuses = await page.$$eval('#v-result table.checks tbody tr', (trs) => trs.map((t) => t.dataset.status));
    const firstOther = statuses.findIndex((s) => s !== 'failed');
    assert.ok(statuses.includes('failed') && statuses.slice(firstOther).every((s) => s !== 'failed'), `failed first: ${statuses.join()}`);
    await page.check('#v-privacy');
    await page.click('#v-run');
    await page.waitForSelector('#v-result .verdict[data-valid="true"]');
    assert.equal(await page.getAttribute('#v-result .verdict', 'data-verdict'), 'partial');
    assert.match(await page.textContent('#v-result .verdict'), /valid for the fields checked; 4 content comparisons skipped/);
    const color = await page.evaluate(() => getComputedStyle(document.querySelector('#v-result .verdict')).color);
    const green = await page.evaluate(() => { const e = document.createElement('span'); e.style.color = 'var(--ok)'; document.body.append(e); const c = getComputedStyle(e).color; e.remove(); return c; });
    assert.notEqual(color, green);
    await axe(page, 'privacy-minimal');
    // Unticked, the untampered sample is plainly valid (green).
    await page.uncheck('#v-privacy');
    await page.click('#v-sample-recall');
    await page.waitForSelector('#v-result .verdict[data-verdict="ok"]');
  });
  it('audit results name each memory by a content snippet next to its id', { skip: noVerifiers }, async () => {
    const { page } = await open();
    await page.click('#tab-verify');
    await page.click('#v-sample-recall');
    await page.waitForSelector('#v-result .verdict');
    await page.click('#v-audit-run');
    await page.waitForSelector('#v-audit-out .audit-result');
    const recall = JSON.parse(read('recall-08-fast-filters-acme-tinyfloat.json'));
    const named = await page.$$eval('#v-audit-out .audit-result summary', (ss) => ss.map((s) => [s.querySelector('code').textContent, s.querySelector('[data-snippet]')?.textContent ?? '']));
    assert.ok(named.length > 0);
    for (const [id, snip] of named) {
      const m = recall.memories.find((x) => x.id === id);
      assert.ok(m && snip.includes(m.content.slice(0, 20)), `${id}: ${snip}`);
    }
  });
});

describe('network', () => {
  it('no request left 127.0.0.1', () => {
    assert.deepEqual(recorders.flatMap((r) => r.external), []);
  });
});
