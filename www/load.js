// Queue loading: the sample, a file, pasted text, a drop, or "Fetch from Lians".
import { state, ui, SAMPLE, fetchText, safeOrigin, renderAll, markQueue, restoreSaved, saveNow, registerConfirm, closeConfirms } from './state.js';
import { h, replace, $ } from './dom.js';
import { parseQueueText, inputsOf, QueueError } from './queue.js';
import { readFileInto, makeDropZone } from './files.js';
import { namespaceOf, scopeLabel, savedKeys, readSaved } from './saved.js';
import { httpProblem } from './resolve.js';

const qStatus = $('#queue-status');
const qWarnings = $('#queue-warnings');
function say(msg, bad = false) {
  qStatus.textContent = msg;
  qStatus.classList.toggle('bad', bad);
}

/** Unsent decisions on the loaded queue (a replacement asks first). */
const unsent = () => state.decisions.size;

// The in-page question before a queue with unsent decisions is replaced (no native dialog).
const replaceBox = $('#replace-box');
let replaceAnswer = null;
function askReplace(n, what) {
  replaceAnswer?.(false); // a newer load supersedes a question still open
  replace($('#replace-text'), `The loaded queue has ${n} unsent decision${n === 1 ? '' : 's'}. Replace it with ${what}? `,
    `${n === 1 ? 'It stays' : 'They stay'} saved in this tab for ${scopeLabel(state.scope?.origin ?? 'file', state.scope?.namespace ?? '')} and come back when that queue is loaded again.`);
  closeConfirms(replaceBox);
  replaceBox.hidden = false;
  $('#replace-cancel').focus();
  return new Promise((resolve) => {
    replaceAnswer = (yes) => { replaceAnswer = null; replaceBox.hidden = true; resolve(yes); };
  });
}
registerConfirm(replaceBox, () => replaceAnswer?.(false));
$('#replace-confirm').addEventListener('click', () => replaceAnswer?.(true));
$('#replace-cancel').addEventListener('click', () => replaceAnswer?.(false));

/**
 * Load a queue's text. A text that does not parse, or holds items but no
 * valid one, never replaces the loaded queue; nor does one the reviewer
 * declines to load over unsent decisions. opts: {origin} the server origin it
 * was fetched from ('file' otherwise), {limit} the fetch's limit, {force}
 * replace without asking (the refresh after a submit). Resolves true if loaded.
 */
export async function loadQueueText(text, source, { origin = 'file', limit = null, force = false } = {}) {
  const load = ++state.loads;
  let parsed;
  try {
    parsed = parseQueueText(text);
  } catch (e) {
    say(`${e instanceof QueueError ? e.message : `Could not read the queue: ${e.message}`}${state.items.length ? ' The loaded queue is kept.' : ''}`, true);
    return false;
  }
  const listed = parsed.info.listed;
  if (!parsed.items.length && (listed > 0 || origin === 'file')) {
    say(`${source} holds no valid review item${listed ? ` (${listed} skipped: ${parsed.warnings.slice(0, 3).join('; ')})` : ''}.${state.items.length ? ' The loaded queue is kept.' : ''}`, true);
    return false;
  }
  if (!force && unsent()) {
    const yes = await askReplace(unsent(), `${parsed.items.length} item${parsed.items.length === 1 ? '' : 's'} from ${source}`);
    if (!yes || load !== state.loads) { if (load === state.loads) say('Kept the loaded queue and its decisions.'); return false; }
  }
  saveNow(); // the old queue's work, before it goes
  state.source = source;
  state.items = parsed.items;
  state.results = new Array(parsed.items.length);
  state.decisions = new Map();
  state.notes = new Map();
  state.checked = new Set();
  state.anchor = null;
  state.undo = [];
  state.selectedId = parsed.items[0]?.obj.id ?? null;
  state.fetched = origin === 'file' ? null : { origin, limit, count: parsed.items.length, truncated: limit != null && listed >= limit };
  replace(qWarnings, ...parsed.warnings.slice(0, 20).map((w) => h('li', null, w)),
    parsed.warnings.length > 20 ? h('li', null, `…and ${parsed.warnings.length - 20} more`) : null);
  qWarnings.hidden = parsed.warnings.length === 0;
  const withInputs = parsed.items.filter((it) => inputsOf(it.obj).metadata || inputsOf(it.obj).importance).length;
  const parts = [`${parsed.items.length} item${parsed.items.length === 1 ? '' : 's'} from ${source}`];
  if (parsed.info.shape === 'AdmissionListResult') parts.push(`status filter ${parsed.info.status_filter ?? 'all'}`);
  if (withInputs) parts.push(`${withInputs} with importance/metadata`);
  ui.startScoring(); // the worker starts while the stored scores are rendered
  ui.buildRows();
  const restored = restoreSaved(origin, namespaceOf(parsed.items.map((it) => it.obj)));
  if (restored) parts.push(`${restored} saved decision${restored === 1 ? '' : 's'} restored`);
  say(parts.join(' · '));
  renderTruncated();
  ui.populateTagFilter();
  renderAll();
  ui.startAtTop();
  renderResume();
  markQueue('listed');
  return true;
}

/** #queue-truncated: the server returned as many items as the limit, so the queue may hold more. */
function renderTruncated() {
  const el = $('#queue-truncated');
  const f = state.fetched;
  el.hidden = !f?.truncated;
  if (f?.truncated) {
    replace(el, h('strong', null, `The server returned ${f.count} items, the limit you asked for: the queue may hold more. `),
      'The list route returns the newest items first and has no offset, so older items are not shown here. Resolve these, then fetch again for the next batch.');
  }
}

$('#load-sample').addEventListener('click', () => loadSampleQueue());
// The sample (fetched on start-up too) is dropped if any other queue load
// began while it was on its way: it never replaces the user's queue.
export async function loadSampleQueue() {
  const began = state.loads;
  try {
    const text = await fetchText(SAMPLE.queue);
    if (state.loads === began) loadQueueText(text, 'the embedded sample queue');
  } catch (e) { if (state.loads === began) say(`Could not load the sample queue: ${e.message}`, true); }
}

$('#queue-file').addEventListener('change', (e) => {
  markQueue('input');
  readFileInto(e.target.files[0], (t, n) => { markQueue('text'); loadQueueText(t, n); });
  e.target.value = '';
});

function toggleDrawer(btn) {
  const area = document.getElementById(btn.getAttribute('aria-controls'));
  const open = area.hidden;
  area.hidden = !open;
  btn.setAttribute('aria-expanded', String(open));
}
$('#paste-toggle').addEventListener('click', (e) => toggleDrawer(e.currentTarget));
$('#api-toggle').addEventListener('click', (e) => { toggleDrawer(e.currentTarget); if (!$('#api-area').hidden) (apiKey.value ? $('#api-fetch') : apiUrl.value ? apiKey : apiUrl).focus(); });
$('#queue-text-load').addEventListener('click', () => loadQueueText($('#queue-text').value, 'pasted text'));

makeDropZone($('#panel-queue'), (t, n) => loadQueueText(t, n));

// Optional, user-initiated fetch from a Lians server. The key lives only in
// the input element's value (page memory); it is never stored or logged.
const apiUrl = $('#api-url');
const apiKey = $('#api-key');
const configuredApi = document.querySelector('meta[name="lians-api-url"]')?.content || '';
if (configuredApi) apiUrl.value = configuredApi;
$('#api-forget').addEventListener('click', () => { apiKey.value = ''; say('API key cleared from the page.'); });
$('#api-fetch').addEventListener('click', async () => {
  if (await fetchQueue({ fromForm: true })) $('#queue-list').focus({ preventScroll: true });
});
// Enter in the key field fetches.
apiKey.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); $('#api-fetch').click(); } });

const fetchBtn = $('#api-fetch');
const cancelBtn = $('#fetch-cancel');
let inFlight = null; // the AbortController of the fetch under way
cancelBtn.addEventListener('click', () => inFlight?.abort(new DOMException('cancelled', 'AbortError')));

/** The form's "Give up after (seconds)", in ms (1–600 s; 30 s when empty or invalid). */
function fetchTimeoutMs() {
  const v = Number($('#api-timeout').value);
  return Number.isFinite(v) && v >= 1 ? Math.min(600, v) * 1000 : 30000;
}

// Requests this page's Content-Security-Policy blocked, by origin (a failed fetch is then explained by it).
const cspBlocked = new Set();
document.addEventListener('securitypolicyviolation', (e) => { const o = safeOrigin(e.blockedURI); if (o) cspBlocked.add(o); });

/**
 * Why a fetch to `url` failed without an answer the page may read: the page's
 * CSP, no server there, or a server that answered without CORS headers for
 * this page (which a server error can cause too). Finds out with one opaque
 * request (mode no-cors: no key, no body is read).
 */
async function whyNoAnswer(url) {
  const origin = url.origin;
  if (cspBlocked.has(origin) || (origin !== location.origin && origin !== safeOrigin(configuredApi))) return `This page's Content-Security-Policy does not allow ${origin}: ${cspHint(origin).trim()}`;
  try {
    await fetch(url, { mode: 'no-cors', credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer', signal: AbortSignal.timeout(5000) });
    return `The server at ${origin} answered, but not with CORS headers that let this page read the answer. Either it does not allow this page's origin (${location.origin}), or it failed before adding them (some set-ups send a 500 without them): look at the server's log.`;
  } catch {
    if (cspBlocked.has(origin)) return `This page's Content-Security-Policy does not allow ${origin}: ${cspHint(origin).trim()}`;
    return `No answer from ${origin}: the server is down, or the address is wrong.`;
  }
}

/** The one-line summary the Fetch form collapses to after a fetch; "Change…" opens it again. */
function showFetchSummary(url, count, limit) {
  const el = $('#fetch-summary');
  const at = new Date().toTimeString().slice(0, 5);
  replace(el, h('span', { class: 'muted' }, 'Fetched '), h('strong', null, `${count} ${$('#api-status').value || 'any status'} item${count === 1 ? '' : 's'}`),
    h('span', { class: 'muted' }, ` from ${url.origin} at ${at}${count >= limit ? ` (the limit, ${limit})` : ''}.`));
  el.hidden = false;
  $('#api-area').hidden = true;
  $('#api-toggle').setAttribute('aria-expanded', 'false');
  $('#api-toggle').textContent = 'Fetch again / change…';
}

/**
 * GET /v1/admissions with the form's URL, key, status and limit; resolves true
 * if a queue loaded. Gives up after the form's timeout; Cancel (#fetch-cancel)
 * stops it; the button is disabled meanwhile (one fetch at a time).
 */
async function fetchQueue({ force = false, fromForm = false } = {}) {
  if (inFlight) { say('A fetch is under way: wait for it, or press Cancel.', true); return false; }
  let url;
  let limit;
  try {
    const base = apiUrl.value.trim();
    const u = new URL(base);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('use an http(s) URL');
    url = new URL('v1/admissions', base.endsWith('/') ? base : `${base}/`);
    url.searchParams.set('status', $('#api-status').value);
    limit = Math.min(500, Math.max(1, Math.trunc(Number($('#api-limit').value) || 500)));
    url.searchParams.set('limit', String(limit));
  } catch (e) {
    say(`Base URL: ${e.message}`, true);
    return false;
  }
  if (!apiKey.value) { say('Enter an API key with admin scope first.', true); if (!$('#api-area').hidden) apiKey.focus(); return false; }
  const timeout = fetchTimeoutMs();
  say(`Fetching ${url.origin}${url.pathname}… (gives up after ${timeout / 1000} s)`);
  const began = ++state.loads; // a sample landing meanwhile is dropped; so is this answer if a later load began
  const ctl = new AbortController();
  inFlight = ctl;
  const timer = setTimeout(() => ctl.abort(new DOMException('timeout', 'TimeoutError')), timeout);
  fetchBtn.disabled = true;
  fetchBtn.textContent = 'Fetching…';
  cancelBtn.hidden = false;
  $('#queue-status').dataset.fetch = 'running';
  let outcome = 'failed';
  try {
    const r = await fetch(url, {
      headers: { 'X-API-Key': apiKey.value, Accept: 'application/json' },
      credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer', redirect: 'error', signal: ctl.signal,
    });
    const text = await r.text();
    if (state.loads !== began) return false;
    if (!r.ok) { say(httpProblem(r.status, r.statusText, text, { what: 'The fetch' }), true); return false; }
    const ok = await loadQueueText(text, url.origin, { origin: url.origin, limit, force });
    if (ok) { outcome = 'loaded'; if (fromForm) showFetchSummary(url, state.rows.length, limit); }
    return ok;
  } catch (e) {
    if (state.loads !== began) return false;
    const reason = ctl.signal.reason;
    if (ctl.signal.aborted && reason?.name === 'TimeoutError') { outcome = 'timeout'; say(`No answer from ${url.origin} within ${timeout / 1000} s: gave up. The server may be overloaded or stuck; try again, or raise "Give up after".`, true); }
    else if (ctl.signal.aborted) { outcome = 'cancelled'; say('Fetch cancelled: nothing was loaded.'); }
    else say(await whyNoAnswer(url), true);
    return false;
  } finally {
    clearTimeout(timer);
    inFlight = null;
    fetchBtn.disabled = false;
    fetchBtn.textContent = 'Fetch queue';
    cancelBtn.hidden = true;
    $('#queue-status').dataset.fetch = outcome;
  }
}

// ─── resume: saved decisions of a server queue, before it is fetched again (after a reload) ───
const resumeEl = $('#resume-notice');
/** #resume-notice: for each server scope with saved decisions not on screen, "N saved decisions for … : enter the key to resume". */
function renderResume() {
  let store = null;
  try { store = window.sessionStorage; } catch { /* storage off */ }
  const items = [];
  for (const key of savedKeys(store)) {
    if (state.scope && key === state.scope.key) continue;
    let origin;
    let ns;
    try { [origin, ns] = JSON.parse(key.slice(key.indexOf('['))); } catch { continue; }
    if (origin === 'file') continue;
    const n = [...readSaved(store, key).values()].filter((d) => d.action).length;
    if (n) items.push({ origin, ns, n });
  }
  resumeEl.hidden = !items.length;
  if (!items.length) return;
  replace(resumeEl, ...items.map(({ origin, ns, n }) => h('p', { class: 'resume', dataset: { origin } },
    h('strong', null, `${n} saved decision${n === 1 ? '' : 's'} for ${origin}${ns ? ` / ${ns}` : ''}`), ': enter the key to resume. ',
    h('button', { type: 'button', class: 'resume-go', dataset: { origin }, on: { click: () => resumeFrom(origin) } }, 'Resume…'))));
}
function resumeFrom(origin) {
  if (apiUrl.value.trim() !== origin) apiUrl.value = origin;
  if ($('#api-area').hidden) toggleDrawer($('#api-toggle'));
  apiKey.focus();
}
renderResume();

/** Why a request to `origin` may have failed: the server or CORS, or this page's CSP. */
function cspHint(origin) {
  const sameOrigin = origin === location.origin;
  return sameOrigin || origin === safeOrigin(configuredApi) ? ' Check that the server is up and allows CORS from this page.' : ` This page's Content-Security-Policy only allows ${location.origin}${configuredApi ? ` and ${safeOrigin(configuredApi)}` : ''}: restart the dashboard with LIANS_API_URL=${origin} (see the README).`;
}

// Entry points (app.js puts them in state.js's `ui`).
export const apiBaseText = () => apiUrl.value.trim();
export const apiKeyText = () => apiKey.value;
export { fetchTimeoutMs };
export { say, fetchQueue, cspHint };
