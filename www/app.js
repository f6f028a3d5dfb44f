// Lians review-queue dashboard: page wiring.
// Data from queues, receipts and packs is untrusted: it reaches the DOM only
// through dom.js (text nodes and vetted attributes).

import * as lians from './lians.js';
import { h, replace, $, download } from './dom.js';
import {
  parseQueueText, driftView, componentRows, gateOf, filterRows, SORTS,
  buildDecisionExport, inputsOf, QueueError,
} from './queue.js';
import { scoreBatch } from './scoring.js';
import { spansAt } from './jsonspan.js';
import { mountAuditPanel } from './audit-view.js';

const SAMPLE = {
  queue: 'sample/queue-sample.json',
  recall: 'sample/recall-08-fast-filters-acme-tinyfloat.json',
  recallQuery: 'Acme revenue',
  context: 'sample/context-01-deep-acme-summary.json',
  contextQuery: 'Summarize Acme account facts',
  pack: 'sample/pack-01-v2-signed.json',
  packKey: 'sample/evidence_public_key.b64',
  packKeyId: 'lians-real-test-key',
};

const state = {
  source: '',          // where the queue came from (for the status line)
  items: [],           // [{raw, obj}]
  results: [],         // per item: {held, approved, trusted_review, drift, error} or undefined
  rows: [],            // view rows (see makeRow)
  visible: [],         // rows after filter/sort
  selectedId: null,
  decisions: new Map(), // id → 'approve' | 'reject'
  notes: new Map(),     // id → note text
  job: 0,
  scoring: false,
  scoredWith: '',
};

// ───────────────────────────── theme ─────────────────────────────
const themeBtn = $('#theme-toggle');
function effectiveTheme() {
  const t = document.documentElement.dataset.theme;
  if (t === 'light' || t === 'dark') return t;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
function paintThemeButton() {
  const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
  themeBtn.textContent = next === 'dark' ? '◐ Dark' : '◑ Light';
  themeBtn.setAttribute('aria-label', `Switch to ${next} theme`);
}
function setTheme(t) {
  document.documentElement.dataset.theme = t;
  try { localStorage.setItem('lians-dashboard-theme', t); } catch { /* storage may be off */ }
  paintThemeButton();
}
try {
  const saved = localStorage.getItem('lians-dashboard-theme');
  if (saved === 'light' || saved === 'dark') document.documentElement.dataset.theme = saved;
} catch { /* ignore */ }
themeBtn.addEventListener('click', () => setTheme(effectiveTheme() === 'dark' ? 'light' : 'dark'));
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', paintThemeButton);
paintThemeButton();

// ───────────────────────────── tabs ─────────────────────────────
const tabs = [...document.querySelectorAll('[role="tab"]')];
function selectTab(tab) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
  }
}
tabs.forEach((t, i) => {
  t.addEventListener('click', () => selectTab(t));
  t.addEventListener('keydown', (e) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!d) return;
    const n = tabs[(i + d + tabs.length) % tabs.length];
    selectTab(n); n.focus(); e.preventDefault();
  });
});

// ───────────────────────────── package ─────────────────────────────
const pkgStatus = $('#pkg-status');
const pkgReady = lians.load().then((ok) => {
  if (ok) {
    pkgStatus.textContent = 'scorer ready';
    pkgStatus.className = 'pill ok';
  } else {
    const e = lians.errorInfo(lians.lastLoadError());
    pkgStatus.textContent = 'scorer unavailable';
    pkgStatus.className = 'pill bad';
    pkgStatus.title = `${e.code}: ${e.message}`;
  }
  return ok;
});

// ───────────────────────────── queue loading ─────────────────────────────
const qStatus = $('#queue-status');
const qWarnings = $('#queue-warnings');
function say(msg, bad = false) {
  qStatus.textContent = msg;
  qStatus.classList.toggle('bad', bad);
}

async function fetchText(url) {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.text();
}

function loadQueueText(text, source) {
  let parsed;
  try {
    parsed = parseQueueText(text);
  } catch (e) {
    say(e instanceof QueueError ? e.message : `Could not read the queue: ${e.message}`, true);
    return false;
  }
  state.source = source;
  state.items = parsed.items;
  state.results = new Array(parsed.items.length);
  state.decisions = new Map();
  state.notes = new Map();
  state.selectedId = parsed.items[0]?.obj.id ?? null;
  replace(qWarnings, ...parsed.warnings.slice(0, 20).map((w) => h('li', null, w)),
    parsed.warnings.length > 20 ? h('li', null, `…and ${parsed.warnings.length - 20} more`) : null);
  qWarnings.hidden = parsed.warnings.length === 0;
  const withInputs = parsed.items.filter((it) => inputsOf(it.obj).metadata || inputsOf(it.obj).importance).length;
  const parts = [`${parsed.items.length} item${parsed.items.length === 1 ? '' : 's'} from ${source}`];
  if (parsed.info.shape === 'AdmissionListResult') parts.push(`status filter ${parsed.info.status_filter ?? 'all'}`);
  if (withInputs) parts.push(`${withInputs} with importance/metadata`);
  say(parts.join(' · '));
  buildRows();
  populateTagFilter();
  renderAll();
  startScoring();
  return true;
}

$('#load-sample').addEventListener('click', () => loadSampleQueue());
async function loadSampleQueue() {
  try { loadQueueText(await fetchText(SAMPLE.queue), 'the embedded sample queue'); } catch (e) { say(`Could not load the sample queue: ${e.message}`, true); }
}

function readFileInto(file, onText) {
  if (!file) return;
  if (file.size > 64 * 1024 * 1024) { say(`${file.name} is larger than 64 MiB; not loaded.`, true); return; }
  file.text().then((t) => onText(t, file.name), (e) => say(`Could not read ${file.name}: ${e.message}`, true));
}
$('#queue-file').addEventListener('change', (e) => { readFileInto(e.target.files[0], (t, n) => loadQueueText(t, n)); e.target.value = ''; });

function toggleDrawer(btn) {
  const area = document.getElementById(btn.getAttribute('aria-controls'));
  const open = area.hidden;
  area.hidden = !open;
  btn.setAttribute('aria-expanded', String(open));
}
$('#paste-toggle').addEventListener('click', (e) => toggleDrawer(e.currentTarget));
$('#api-toggle').addEventListener('click', (e) => toggleDrawer(e.currentTarget));
$('#queue-text-load').addEventListener('click', () => loadQueueText($('#queue-text').value, 'pasted text'));

function makeDropZone(zone, onText) {
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('dragover'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragover'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragover');
    const f = e.dataTransfer?.files?.[0];
    if (f) readFileInto(f, onText);
    else {
      const t = e.dataTransfer?.getData('text/plain');
      if (t) onText(t, 'dropped text');
    }
  });
}
makeDropZone($('#panel-queue'), (t, n) => loadQueueText(t, n));

// Optional, user-initiated fetch from a Lians server. The key lives only in
// the input element's value (page memory); it is never stored or logged.
const apiUrl = $('#api-url');
const apiKey = $('#api-key');
const configuredApi = document.querySelector('meta[name="lians-api-url"]')?.content || '';
if (configuredApi) apiUrl.value = configuredApi;
$('#api-forget').addEventListener('click', () => { apiKey.value = ''; say('API key cleared from the page.'); });
$('#api-fetch').addEventListener('click', async () => {
  let url;
  try {
    const base = apiUrl.value.trim();
    const u = new URL(base);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('use an http(s) URL');
    url = new URL('v1/admissions', base.endsWith('/') ? base : `${base}/`);
    url.searchParams.set('status', $('#api-status').value);
    const limit = Math.min(500, Math.max(1, Math.trunc(Number($('#api-limit').value) || 50)));
    url.searchParams.set('limit', String(limit));
  } catch (e) {
    say(`Base URL: ${e.message}`, true);
    return;
  }
  if (!apiKey.value) { say('Enter an API key with admin scope first.', true); return; }
  say(`Fetching ${url.origin}${url.pathname}…`);
  try {
    const r = await fetch(url, {
      headers: { 'X-API-Key': apiKey.value, Accept: 'application/json' },
      credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer', redirect: 'error',
    });
    const text = await r.text();
    if (!r.ok) { say(`The server answered HTTP ${r.status}: ${text.slice(0, 300)}`, true); return; }
    loadQueueText(text, url.origin);
  } catch (e) {
    const sameOrigin = url.origin === location.origin;
    say(`Fetch failed (${e.message}).${sameOrigin || url.origin === safeOrigin(configuredApi) ? ' Check that the server is up and allows CORS from this page.' : ` This page's Content-Security-Policy only allows ${location.origin}${configuredApi ? ` and ${safeOrigin(configuredApi)}` : ''}: restart the dashboard with LIANS_API_URL=${url.origin} (see the README).`}`, true);
  }
});
function safeOrigin(u) { try { return new URL(u).origin; } catch { return ''; } }

// ───────────────────────────── scoring ─────────────────────────────
const progWrap = $('#progress-wrap');
const prog = $('#score-progress');
const progText = $('#progress-text');
let worker = null;
let workerBroken = false;

function getWorker() {
  if (worker || workerBroken) return worker;
  try {
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (e) => onWorkerMessage(e.data);
    worker.onerror = (e) => { e.preventDefault?.(); workerBroken = true; worker = null; fallbackToMainThread(); };
  } catch {
    workerBroken = true;
    worker = null;
  }
  return worker;
}

let pendingJob = null;
function startScoring() {
  const job = ++state.job;
  const items = state.items;
  state.scoring = true;
  progWrap.hidden = false;
  progWrap.dataset.updates = '0';
  progWrap.dataset.state = 'running';
  prog.max = Math.max(1, items.length);
  prog.value = 0;
  progText.textContent = `Re-scoring 0 / ${items.length}…`;
  pendingJob = { job, t0: performance.now() };
  const w = getWorker();
  if (w) {
    state.scoredWith = 'Web Worker';
    w.postMessage({ type: 'score', job, items: items.map((it) => ({ raw: it.raw, obj: it.obj })) });
  } else {
    runOnMainThread(job);
  }
}

function fallbackToMainThread() {
  if (pendingJob && state.scoring) runOnMainThread(pendingJob.job);
}

async function runOnMainThread(job) {
  state.scoredWith = 'main thread';
  const ok = await pkgReady;
  if (job !== state.job) return;
  if (!ok) { onScoringUnavailable(lians.errorInfo(lians.lastLoadError())); return; }
  await scoreBatch(state.items, {
    chunk: 20,
    isCancelled: () => job !== state.job,
    onChunk: (done, total, results) => onWorkerMessage({ type: 'progress', job, done, total, results }),
  });
  if (job === state.job) onWorkerMessage({ type: 'done', job, total: state.items.length, ms: performance.now() - pendingJob.t0 });
}

function onWorkerMessage(msg) {
  if (!msg || msg.job !== state.job) return;
  if (msg.type === 'ready' && !msg.ok) { onScoringUnavailable(msg.error); return; }
  if (msg.type === 'progress') {
    for (const r of msg.results) state.results[r.i] = r;
    prog.max = Math.max(1, msg.total);
    prog.value = msg.done;
    progWrap.dataset.updates = String(Number(progWrap.dataset.updates) + 1);
    progText.textContent = `Re-scoring ${msg.done} / ${msg.total}…`;
  } else if (msg.type === 'done') {
    state.scoring = false;
    progWrap.dataset.state = 'done';
    prog.value = prog.max;
    const failed = state.results.filter((r) => r?.error).length;
    progText.textContent = `Re-scored ${msg.total} item${msg.total === 1 ? '' : 's'} in ${(msg.ms / 1000).toFixed(2)} s (${state.scoredWith})${failed ? ` · ${failed} failed` : ''}`;
    buildRows();
    renderAll();
  }
}

function onScoringUnavailable(err) {
  state.scoring = false;
  progWrap.dataset.state = 'unavailable';
  prog.value = 0;
  progText.textContent = `Client re-scoring unavailable (${err?.code ?? 'error'}: ${err?.message ?? ''}). Showing stored scores only.`;
  buildRows();
  renderAll();
}

// ───────────────────────────── rows ─────────────────────────────
function makeRow(it, index) {
  const o = it.obj;
  const res = state.results[index];
  const stored = o.score_breakdown && typeof o.score_breakdown === 'object' ? o.score_breakdown : null;
  const tags = Array.isArray(o.risk_tags) ? o.risk_tags.map(String) : [];
  return {
    index,
    id: o.id,
    obj: o,
    raw: it.raw,
    tags,
    status: typeof o.status === 'string' ? o.status : 'pending',
    stored,
    res,
    storedFinal: numOrNull(stored?.final_score),
    heldFinal: numOrNull(res?.held?.final_score),
    approvedFinal: numOrNull(res?.approved?.final_score),
    drift: res ? driftView(res.error ? null : res) : null,
    searchText: [o.content, o.id, o.source, o.agent_id, o.namespace, ...tags].filter((x) => typeof x === 'string').join('\n').toLowerCase(),
  };
}
const numOrNull = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function buildRows() {
  state.rows = state.items.map(makeRow);
}

// ───────────────────────────── filters ─────────────────────────────
const f = {
  tag: $('#f-tag'), status: $('#f-status'), decision: $('#f-decision'), drift: $('#f-drift'),
  min: $('#f-min'), text: $('#f-text'), sort: $('#f-sort'),
};
for (const [k, s] of Object.entries(SORTS)) f.sort.appendChild(h('option', { value: k }, s.label));
for (const el of Object.values(f)) el.addEventListener('input', () => renderList(true));

function populateTagFilter() {
  const tags = new Set();
  let untagged = false;
  for (const r of state.rows) { r.tags.forEach((t) => tags.add(t)); if (!r.tags.length) untagged = true; }
  const cur = f.tag.value;
  replace(f.tag, h('option', { value: '*' }, 'all'), ...[...tags].sort().map((t) => h('option', { value: t }, t)),
    untagged ? h('option', { value: '(none)' }, '(none)') : null);
  f.tag.value = [...f.tag.options].some((o) => o.value === cur) ? cur : '*';
}

function currentFilter() {
  const min = Number(f.min.value);
  return {
    tag: f.tag.value, status: f.status.value, decision: f.decision.value, drift: f.drift.value,
    minScore: Number.isFinite(min) ? min : 0, text: f.text.value,
  };
}

// ───────────────────────────── list ─────────────────────────────
const list = $('#queue-list');
const detail = $('#detail');

function tagClass(t) {
  if (t.startsWith('pii:')) return 'pii';
  if (t.startsWith('phi:')) return 'phi';
  if (t === 'mnpi') return 'mnpi';
  if (t === 'injection') return 'injection';
  if (t === 'source:blocked') return 'blocked';
  if (t === 'vague') return 'vague';
  return '';
}
const chip = (t) => h('span', { class: `chip ${tagClass(t)}` }, t);
const fmt = (v) => (v == null ? '—' : Number.isInteger(v) ? v.toFixed(1) : String(v));
const optId = (r) => `opt-${r.index}`;

function driftBadge(d) {
  if (!d || d.status !== 'drift') return null;
  return h('span', { class: `badge drift${d.explained ? '' : ' unexplained'}`, title: d.causes.map((c) => c.text).join('\n') },
    d.explained ? 'drift (explained)' : 'drift');
}

function renderList(keepSelection = true) {
  const rows = filterRows(state.rows, currentFilter()).sort(SORTS[f.sort.value]?.cmp ?? SORTS.server.cmp);
  state.visible = rows;
  if (!keepSelection || !rows.some((r) => r.id === state.selectedId)) state.selectedId = rows[0]?.id ?? null;
  const frag = document.createDocumentFragment();
  for (const r of rows) {
    const decision = state.decisions.get(r.id);
    const up = r.approvedFinal != null && r.storedFinal != null && r.approvedFinal > r.storedFinal;
    frag.appendChild(h('div', {
      role: 'option', id: optId(r), class: 'opt', 'aria-selected': String(r.id === state.selectedId),
      dataset: { id: r.id }, on: { click: () => select(r.id, false) },
    },
    h('span', { class: 'snippet' }, decision ? h('span', { class: `badge ${decision}` }, decision === 'approve' ? '✓ approve' : '✕ reject') : null, decision ? ' ' : null, r.obj.content),
    h('span', { class: `score${r.storedFinal === 0 ? ' zero' : ''}`, dataset: { col: 'stored' } }, fmt(r.storedFinal)),
    h('span', { class: `score${up ? ' up' : ''}`, dataset: { col: 'approved' } }, r.res ? `→ ${fmt(r.approvedFinal)}` : state.scoring ? '…' : '—'),
    h('span', { class: 'meta' }, ...r.tags.map(chip), r.status !== 'pending' ? h('span', { class: 'badge status' }, r.status) : null,
      typeof r.obj.source === 'string' && r.obj.source ? h('span', { class: 'muted' }, `source ${r.obj.source}`) : null,
      driftBadge(r.drift), r.res?.error ? h('span', { class: 'badge drift unexplained' }, 'scoring error') : null),
    ));
  }
  replace(list, frag);
  if (!rows.length) list.appendChild(h('p', { class: 'empty' }, state.rows.length ? 'No item matches the filters.' : 'No queue loaded.'));
  list.setAttribute('aria-activedescendant', state.selectedId != null ? optId(rowById(state.selectedId)) : '');
  if (!state.selectedId) list.removeAttribute('aria-activedescendant');
  renderDetail();
  renderDecisions();
}

const rowById = (id) => state.rows.find((r) => r.id === id);

function select(id, scroll = true) {
  const prev = state.selectedId;
  state.selectedId = id;
  if (prev != null) { const p = rowById(prev); if (p) document.getElementById(optId(p))?.setAttribute('aria-selected', 'false'); }
  const r = rowById(id);
  if (r) {
    const el = document.getElementById(optId(r));
    el?.setAttribute('aria-selected', 'true');
    list.setAttribute('aria-activedescendant', optId(r));
    if (scroll) el?.scrollIntoView({ block: 'nearest' });
  }
  renderDetail();
}

function move(delta) {
  const vis = state.visible;
  if (!vis.length) return;
  const i = vis.findIndex((r) => r.id === state.selectedId);
  const n = i < 0 ? 0 : Math.min(vis.length - 1, Math.max(0, i + delta));
  select(vis[n].id);
}

function decide(id, action) {
  if (id == null) return;
  if (action) state.decisions.set(id, action); else state.decisions.delete(id);
  renderList(true);
}

document.addEventListener('keydown', (e) => {
  if ($('#panel-queue').hidden || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  if (t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
  const inList = t === list;
  switch (e.key) {
    case 'j': move(1); break;
    case 'k': move(-1); break;
    case 'ArrowDown': if (!inList) return; move(1); break;
    case 'ArrowUp': if (!inList) return; move(-1); break;
    case 'Home': if (!inList) return; if (state.visible[0]) select(state.visible[0].id); break;
    case 'End': if (!inList) return; if (state.visible.length) select(state.visible[state.visible.length - 1].id); break;
    case 'a': decide(state.selectedId, 'approve'); break;
    case 'r': decide(state.selectedId, 'reject'); break;
    case 'u': decide(state.selectedId, null); break;
    default: return;
  }
  e.preventDefault();
});

// ───────────────────────────── detail ─────────────────────────────
const COLUMNS = [
  { key: 'stored', label: 'Stored', sub: 'server score_breakdown', bar: 'stored' },
  { key: 'held', label: 'Held', sub: 'client re-score, review_needed', bar: 'held' },
  { key: 'approved', label: 'If approved', sub: 'client, safety approved, queued tags', bar: 'approved' },
  { key: 'trusted_review', label: 'Trusted review', sub: 'client, approved, fresh tags', bar: 'trusted' },
];

function breakdownFor(r, col) {
  if (col === 'stored') return r.stored;
  return r.res?.[col] ?? null;
}

function renderDetail() {
  const r = state.selectedId != null ? rowById(state.selectedId) : null;
  if (!r) { replace(detail, h('p', { class: 'empty' }, state.rows.length ? 'Select an item.' : 'Load a queue to start.')); return; }
  const o = r.obj;
  const decision = state.decisions.get(r.id);
  const has = inputsOf(o);
  const noteInput = h('input', { type: 'text', id: 'note-input', placeholder: 'optional note (resolver_note)', 'aria-label': 'Decision note', autocomplete: 'off' });
  noteInput.value = state.notes.get(r.id) ?? '';
  noteInput.addEventListener('input', () => { state.notes.set(r.id, noteInput.value); renderDecisions(); });

  const kv = (k, v) => [h('dt', null, k), h('dd', null, v)];
  const str = (v) => (v == null ? h('span', { class: 'muted' }, 'null') : typeof v === 'string' ? v : JSON.stringify(v));

  replace(detail,
    h('div', { class: 'detail-head' },
      h('div', null,
        h('h2', null, 'Review item'),
        h('div', { class: 'ids' }, 'id ', h('span', { class: 'mono' }, String(o.id)))),
      h('div', { class: 'decide', role: 'group', 'aria-label': 'Decision' },
        h('button', { type: 'button', class: 'approve', 'aria-pressed': String(decision === 'approve'), on: { click: () => decide(r.id, decision === 'approve' ? null : 'approve') } }, '✓ Approve (a)'),
        h('button', { type: 'button', class: 'reject', 'aria-pressed': String(decision === 'reject'), on: { click: () => decide(r.id, decision === 'reject' ? null : 'reject') } }, '✕ Reject (r)'),
        noteInput)),
    h('h3', null, 'Content'),
    h('pre', { class: 'content', tabindex: '0', 'aria-label': 'Memory content (shown as plain text)' }, String(o.content)),
    h('dl', { class: 'kv' },
      kv('source', str(o.source)),
      kv('risk tags', r.tags.length ? h('span', null, ...r.tags.flatMap((t) => [chip(t), ' '])) : h('span', { class: 'muted' }, 'none')),
      kv('admission reasons', Array.isArray(o.reasons) && o.reasons.length ? h('ul', { class: 'plain' }, ...o.reasons.map((x) => h('li', null, String(x)))) : h('span', { class: 'muted' }, 'none')),
      kv('status', str(o.status)),
      kv('event_time', str(o.event_time)),
      kv('created_at', str(o.created_at)),
      kv('namespace / agent', `${o.namespace ?? '—'} / ${o.agent_id ?? '—'}`),
      kv('inputs', has.importance || has.metadata
        ? `importance ${has.importance ? JSON.stringify(o.importance) : 'not given (0.5 assumed)'} · metadata ${has.metadata ? 'given' : 'not given ({} assumed)'}`
        : 'importance and metadata not in this response (list route): re-scored with 0.5 and {}'),
    ),
    renderDriftBox(r),
    h('h3', null, 'Scores'),
    renderScoreTable(r),
  );
}

function renderDriftBox(r) {
  const d = r.drift;
  if (r.res?.error) {
    return h('div', { class: 'callout bad' }, `Client re-score failed: ${r.res.error.code}${r.res.error.path ? ` at ${r.res.error.path}` : ''}: ${r.res.error.message}`);
  }
  if (!d) return h('div', { class: 'callout' }, state.scoring ? 'Re-scoring…' : 'No client re-score available: showing the stored breakdown only.');
  if (d.status === 'match') return h('div', { class: 'callout ok' }, 'Client re-score of the held state matches the stored score_breakdown exactly.');
  if (d.status === 'unknown') return h('div', { class: 'callout' }, d.causes.map((c) => c.text).join(' '));
  return h('div', { class: `callout ${d.explained ? 'warn' : 'bad'}`, dataset: { drift: d.explained ? 'explained' : 'unexplained' } },
    h('strong', null, `Drift: ${d.differs.join(', ')} differ${d.differs.length === 1 ? 's' : ''} between the stored breakdown and the client re-score.`),
    h('ul', null, ...d.causes.map((c) => h('li', { dataset: { cause: c.code } }, c.text))));
}

function bar(value, kind) {
  const fill = h('span');
  fill.style.width = `${Math.max(0, Math.min(1, value ?? 0)) * 100}%`; // CSSOM, allowed by style-src 'self'
  return h('div', { class: `bar ${kind}`, 'aria-hidden': 'true' }, fill);
}

function renderScoreTable(r) {
  const bds = COLUMNS.map((c) => breakdownFor(r, c.key));
  const rowsBy = bds.map((b) => (b ? componentRows(b) : null));
  const heldRows = rowsBy[1];
  const thead = h('thead', null, h('tr', null,
    h('th', { scope: 'col' }, 'Component', h('small', null, 'weight')),
    ...COLUMNS.map((c) => h('th', { scope: 'col' }, c.label, h('small', null, c.sub)))));
  const body = h('tbody');
  const refWeights = bds.find((b) => b?.weights)?.weights ?? {};
  const firstRows = rowsBy.find(Boolean);
  componentRows({ weights: refWeights }).forEach((base, ci) => {
    const headReason = firstRows ? firstRows[ci].reason : '';
    const tr = h('tr', { dataset: { component: base.key } },
      h('th', { scope: 'row' }, base.label,
        h('small', null, base.weight == null ? 'not weighted' : `weight ${base.weight}`),
        headReason ? h('span', { class: 'why' }, headReason) : null));
    rowsBy.forEach((rows, colIdx) => {
      const col = COLUMNS[colIdx];
      if (!rows) { tr.appendChild(h('td', { class: 'muted' }, '—')); return; }
      const c = rows[ci];
      const differs = colIdx === 0 && heldRows && heldRows[ci].value !== c.value;
      tr.appendChild(h('td', { class: differs ? 'differs' : null, dataset: { col: col.key, value: c.value ?? '' } },
        h('div', { class: 'cell' },
          bar(c.value, col.bar),
          h('span', { class: 'val' }, fmt(c.value)),
          h('span', { class: 'contrib', title: 'contribution = value × weight (from the rounded value)' }, c.weight == null ? '' : `+${(c.contribution ?? 0).toFixed(4)}`),
          c.reason && c.reason !== headReason ? h('span', { class: 'why' }, c.reason) : null)));
    });
    body.appendChild(tr);
  });
  const finalTr = h('tr', { class: 'final' }, h('th', { scope: 'row' }, 'Final score', h('small', null, 'gated, rounded')));
  bds.forEach((b, colIdx) => {
    if (!b) { finalTr.appendChild(h('td', { class: 'muted' }, '—')); return; }
    const g = gateOf(b);
    finalTr.appendChild(h('td', { dataset: { col: COLUMNS[colIdx].key, final: b.final_score } },
      h('span', { class: 'final-val' }, fmt(numOrNull(b.final_score))),
      g ? h('span', { class: 'gate' }, `zeroed by the ${g.gate} gate${g.reason ? `: ${g.reason}` : ''}`)
        : h('span', { class: 'gate none' }, 'eligible')));
  });
  body.appendChild(finalTr);
  const meta = (label, key) => {
    const tr = h('tr', null, h('th', { scope: 'row' }, label));
    bds.forEach((b) => tr.appendChild(h('td', { class: 'mono' }, b ? String(b[key] ?? '—') : '—')));
    return tr;
  };
  body.appendChild(meta('reference_time', 'reference_time'));
  body.appendChild(meta('policy', 'scoring_policy_version'));
  return h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Score components (scrolls sideways on narrow screens)' }, h('table', { class: 'scores' }, h('caption', { class: 'visually-hidden' }, 'Score components: stored versus client re-scores'), thead, body));
}

// ───────────────────────────── decisions ─────────────────────────────
const decPreview = $('#dec-preview');
const decFormat = $('#dec-format');
function currentExport() {
  const m = new Map();
  for (const r of state.rows) {
    const a = state.decisions.get(r.id);
    if (a) m.set(r.id, { action: a, note: state.notes.get(r.id) || null });
  }
  return buildDecisionExport(m, { baseUrl: safeOrigin(apiUrl.value.trim()) || '' });
}
function renderDecisions() {
  const ex = currentExport();
  const a = ex.doc.decisions.filter((d) => d.body.action === 'approve').length;
  const rj = ex.doc.count - a;
  $('#dec-count').textContent = ex.doc.count ? `${a} approve · ${rj} reject${ex.skipped.length ? ` · ${ex.skipped.length} skipped (id not a UUID)` : ''}` : 'none yet';
  decPreview.value = decFormat.value === 'curl' ? ex.curl : ex.json;
}
decFormat.addEventListener('input', renderDecisions);
$('#dec-download-json').addEventListener('click', () => download('lians-review-decisions.json', currentExport().json));
$('#dec-download-sh').addEventListener('click', () => download('lians-review-decisions.sh', currentExport().curl, 'text/x-shellscript'));
$('#dec-copy').addEventListener('click', async () => {
  try { await navigator.clipboard.writeText(decPreview.value); say('Copied to the clipboard.'); } catch { decPreview.select(); say('Select-all done: press Ctrl+C to copy.'); }
});

function renderAll() { renderList(true); }

// ───────────────────────────── verify panel ─────────────────────────────
const v = {
  wire: $('#v-wire'), query: $('#v-query'), expected: $('#v-expected'), contents: $('#v-contents'),
  ncontents: $('#v-ncontents'), nmeta: $('#v-nmeta'), context: $('#v-context'), recall: $('#v-recall'), out: $('#v-result'),
};
const NEIGHBOUR_POS = ['before', 'before_2', 'after', 'after_2'];

function clearGiven() { for (const k of ['query', 'expected', 'contents', 'ncontents', 'nmeta', 'context', 'recall']) v[k].value = ''; }

async function loadVerifySample(which) {
  try {
    clearGiven();
    v.wire.value = await fetchText(which === 'context' ? SAMPLE.context : SAMPLE.recall);
    v.query.value = which === 'context' ? SAMPLE.contextQuery : SAMPLE.recallQuery;
    fillFromResponse();
    runVerify();
  } catch (e) { replace(v.out, h('p', { class: 'status bad' }, e.message)); }
}
$('#v-sample-recall').addEventListener('click', () => loadVerifySample('recall'));
$('#v-sample-context').addEventListener('click', () => loadVerifySample('context'));
$('#v-file').addEventListener('change', (e) => { readFileInto(e.target.files[0], (t) => { v.wire.value = t; }); e.target.value = ''; });
makeDropZone($('#verify-drop'), (t) => { v.wire.value = t; });

/** Build the `given` inputs from the plaintext the response itself carries. */
function fillFromResponse() {
  const text = v.wire.value;
  let body;
  try { body = JSON.parse(text); } catch (e) { replace(v.out, h('p', { class: 'status bad' }, `The response is not valid JSON: ${e.message}`)); return; }
  const mems = Array.isArray(body?.memories) ? body.memories : [];
  const contents = {};
  const nc = {};
  const nm = {};
  let metaSpans = [];
  try { metaSpans = spansAt(text, [['memories', '*', '*']]); } catch { /* fall back to re-serialising */ }
  const rawOf = (i, key) => metaSpans.filter((s) => s.path[1] === i && s.path[2] === key).pop()?.text;
  mems.forEach((m, i) => {
    if (!m || typeof m.id !== 'string') return;
    if (typeof m.content === 'string') contents[m.id] = m.content;
    for (const pos of NEIGHBOUR_POS) {
      if (m[`context_${pos}_id`] == null) continue;
      (nc[m.id] ??= {})[pos] = m[`context_${pos}`] ?? null;
      const raw = rawOf(i, `context_${pos}_metadata`);
      (nm[m.id] ??= {})[pos] = raw ?? JSON.stringify(m[`context_${pos}_metadata`] ?? null);
    }
  });
  v.contents.value = Object.keys(contents).length ? JSON.stringify(contents, null, 1) : '';
  v.ncontents.value = Object.keys(nc).length ? JSON.stringify(nc, null, 1) : '';
  v.nmeta.value = Object.keys(nm).length ? JSON.stringify(nm, null, 1) : '';
  v.context.value = typeof body?.context === 'string' ? body.context : '';
}
$('#v-fill').addEventListener('click', fillFromResponse);

function parseGivenJson(el, label) {
  const t = el.value.trim();
  if (!t) return undefined;
  let x;
  try { x = JSON.parse(t); } catch (e) { throw new Error(`${label}: not valid JSON (${e.message})`); }
  if (!x || typeof x !== 'object' || Array.isArray(x)) throw new Error(`${label}: expected a JSON object`);
  return x;
}

function detectKind(text) {
  const chosen = document.querySelector('input[name="v-kind"]:checked')?.value ?? 'auto';
  if (chosen !== 'auto') return chosen;
  try {
    const b = JSON.parse(text);
    const schema = (b && typeof b.receipt === 'object' && b.receipt ? b.receipt.schema : b?.schema) ?? '';
    return String(schema).startsWith('lians.context-receipt') ? 'context' : 'recall';
  } catch { return 'recall'; }
}

async function runVerify() {
  if (!(await pkgReady)) { replace(v.out, h('p', { class: 'status bad' }, 'The lians-score package is not loaded: cannot verify.')); return; }
  const wire = v.wire.value;
  if (!wire.trim()) { replace(v.out, h('p', { class: 'empty' }, 'Paste a response first.')); return; }
  const given = {};
  try {
    if (v.query.value !== '') given.query = v.query.value;
    if (v.expected.value.trim()) given.expected_sha256 = v.expected.value.trim();
    const c = parseGivenJson(v.contents, 'Memory contents'); if (c) given.contents = c;
    const n = parseGivenJson(v.ncontents, 'Neighbour contents'); if (n) given.neighbor_contents = n;
    const m = parseGivenJson(v.nmeta, 'Neighbour metadata'); if (m) given.neighbor_metadata = m;
    if (v.context.value !== '') given.context_text = v.context.value;
    if (v.recall.value.trim()) given.recall_wire = v.recall.value;
  } catch (e) { replace(v.out, h('p', { class: 'status bad' }, e.message)); return; }
  const kind = detectKind(wire);
  let report;
  try { report = lians.verifyReceipt(kind, wire, given); } catch (e) {
    const info = lians.errorInfo(e);
    replace(v.out, h('p', { class: 'status bad' }, `Verifier error ${info.code}${info.path ? ` at ${info.path}` : ''}: ${info.message}`));
    return;
  }
  renderReport(v.out, report, {
    title: kind === 'context' ? 'Context receipt' : 'Recall receipt',
    explain: [
      'A matching hash proves integrity, not authorship: the receipt you hold is byte-for-byte the one whose hash you compared against, and the plaintext checks show the response agrees with it. Anyone can compute a SHA-256, so a hash alone does not show who produced the receipt. To know that, compare against a hash you obtained from a trusted place (an audit log, a signed Evidence Pack), or verify a signature.',
    ],
    given,
  });
}
$('#v-run').addEventListener('click', runVerify);
mountAuditPanel({ button: $('#v-audit-run'), wire: v.wire, query: v.query, out: $('#v-audit-out'), ready: pkgReady });

// Plain names for the verifier's check codes (a code names the failure it guards against).
const CHECK_LABELS = {
  malformed_json: 'Well-formed JSON', nesting_too_deep: 'Nesting depth', unsupported_schema: 'Schema',
  non_finite_number: 'All numbers finite', receipt_hash_mismatch: 'Receipt hash', query_hash_mismatch: 'Query hash',
  content_hash_mismatch: 'Memory content hash', neighbor_hash_mismatch: 'Neighbour hashes', context_hash_mismatch: 'Context text hash',
  retrieval_receipt_mismatch: 'Linked recall receipt', score_mismatch: 'score = final_score', order_violation: 'Result order',
  stage_chain: 'Ranking stage chain', rank_calibration: 'Rank calibration', body_hash_consistency: 'Hash copies in the body',
  manifest_hash_mismatch: 'Manifest hash', pack_hash_mismatch: 'Pack hash', signature_invalid: 'Ed25519 signature',
  unsigned_pack: 'Pack is signed', untrusted_key: 'Trusted public key', key_id_mismatch: 'Key id',
};
function checkLabel(c) {
  const code = String(c?.code ?? '');
  if (code === 'receipt_hash_mismatch' && String(c?.pointer ?? '').startsWith('/evidence_graph')) return 'Receipt binding';
  return CHECK_LABELS[code] ?? code;
}

function statusCell(s) {
  const st = s === 'passed' || s === 'failed' || s === 'skipped' ? s : 'skipped';
  return h('span', { class: `st ${st}` }, st === 'passed' ? '✓ passed' : st === 'failed' ? '✕ failed' : '– skipped');
}

function renderReport(out, report, { title, explain, extra, hashTitle = 'Canonical hash (SHA-256 of the Python-canonical JSON)' }) {
  const valid = report?.valid === true;
  const checks = Array.isArray(report?.checks) ? report.checks : [];
  const failures = Array.isArray(report?.failures) ? report.failures : [];
  const counts = { passed: 0, failed: 0, skipped: 0 };
  checks.forEach((c) => { if (c && counts[c.status] != null) counts[c.status]++; });
  const canonical = typeof report?.canonical === 'string' ? report.canonical : null;
  replace(out,
    h('div', { class: `verdict ${valid ? 'ok' : 'bad'}`, dataset: { valid: String(valid) } }, h('span', { 'aria-hidden': 'true' }, valid ? '✓' : '✕'), `${title}: ${valid ? 'valid' : 'INVALID'}`),
    h('p', { class: 'muted' }, `${counts.passed} passed · ${counts.failed} failed · ${counts.skipped} skipped`),
    failures.length ? h('div', { class: 'callout bad' }, 'Failure codes: ', ...failures.flatMap((c, i) => [i ? ', ' : '', h('code', null, String(c))])) : null,
    h('h3', null, hashTitle),
    h('div', { class: 'hash', id: 'receipt-sha' }, String(report?.receipt_sha256 ?? '—')),
    canonical != null ? h('details', null, h('summary', null, `Canonical text (${canonical.length.toLocaleString()} characters)`),
      h('pre', { class: 'canonical' }, canonical.length > 200000 ? `${canonical.slice(0, 200000)}\n… (truncated for display)` : canonical)) : null,
    h('div', { class: 'callout', id: 'proves' }, h('strong', null, 'What this proves. '), ...explain.map((t, i) => [i ? ' ' : '', t])),
    extra ?? null,
    h('h3', null, 'Checks'),
    checks.length ? h('table', { class: 'checks' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Result'), h('th', { scope: 'col' }, 'Check'), h('th', { scope: 'col' }, 'JSON pointer'), h('th', { scope: 'col' }, 'Detail'))),
      h('tbody', null, ...checks.map((c) => h('tr', { dataset: { code: String(c?.code ?? ''), status: String(c?.status ?? '') } },
        h('td', null, statusCell(c?.status)),
        h('td', null, checkLabel(c), h('code', { class: 'code' }, String(c?.code ?? '')), c?.severity === 'info' ? h('span', { class: 'muted' }, ' (info)') : null),
        h('td', { class: 'ptr' }, c?.pointer == null || c.pointer === '' ? '(whole document)' : String(c.pointer)),
        h('td', null, String(c?.message ?? '')))))) : h('p', { class: 'muted' }, 'The verifier reported no individual checks.'),
  );
}

// ───────────────────────────── Evidence Pack panel ─────────────────────────────
const p = { wire: $('#p-wire'), key: $('#p-key'), keyId: $('#p-keyid'), unsigned: $('#p-unsigned'), out: $('#p-result') };
$('#p-sample').addEventListener('click', async () => {
  try { p.wire.value = await fetchText(SAMPLE.pack); } catch (e) { replace(p.out, h('p', { class: 'status bad' }, e.message)); }
});
$('#p-sample-key').addEventListener('click', async () => {
  try { p.key.value = (await fetchText(SAMPLE.packKey)).trim(); p.keyId.value = SAMPLE.packKeyId; } catch (e) { replace(p.out, h('p', { class: 'status bad' }, e.message)); }
});
$('#p-file').addEventListener('change', (e) => { readFileInto(e.target.files[0], (t) => { p.wire.value = t; }); e.target.value = ''; });
makeDropZone($('#pack-drop'), (t) => { p.wire.value = t; });

async function runPack() {
  if (!(await pkgReady)) { replace(p.out, h('p', { class: 'status bad' }, 'The lians-score package is not loaded: cannot verify.')); return; }
  const wire = p.wire.value;
  if (!wire.trim()) { replace(p.out, h('p', { class: 'empty' }, 'Paste a pack first.')); return; }
  const opts = {};
  if (p.key.value.trim()) opts.trusted_public_key = p.key.value.trim();
  if (p.keyId.value.trim()) opts.expected_key_id = p.keyId.value.trim();
  if (p.unsigned.checked) opts.allow_unsigned = true;
  let report;
  try { report = lians.verifyEvidencePack(wire, opts); } catch (e) {
    const info = lians.errorInfo(e);
    replace(p.out, h('p', { class: 'status bad' }, `Verifier error ${info.code}${info.path ? ` at ${info.path}` : ''}: ${info.message}`));
    return;
  }
  let sig = null;
  let links = 0;
  try {
    const doc = JSON.parse(wire);
    sig = doc && typeof doc.signature === 'object' ? doc.signature : null;
    links = Array.isArray(doc?.evidence_graph) ? doc.evidence_graph.filter((l) => l?.evidence_type === 'recall_receipt').length : 0;
  } catch { /* the report says why */ }
  const checks = Array.isArray(report?.checks) ? report.checks : [];
  const summarize = (pred) => summarizeBy((c) => pred(String(c?.code ?? '')));
  const summarizeBy = (pred) => {
    const cs = checks.filter(pred);
    if (!cs.length) return 'not reported';
    if (cs.some((c) => c.status === 'failed')) return statusCell('failed');
    if (cs.every((c) => c.status === 'skipped')) return statusCell('skipped');
    return statusCell('passed');
  };
  const kv = (k, val) => [h('dt', null, k), h('dd', null, val)];
  const extra = h('div', null,
    h('h3', null, 'Signature and binding'),
    h('dl', { class: 'kv' },
      kv('signature', summarize((c) => /signature|unsigned/.test(c))),
      kv('trusted key', opts.trusted_public_key ? summarize((c) => /untrusted_key|trusted_key|public_key/.test(c)) : 'no trusted key given: identity not established'),
      kv('key id', opts.expected_key_id ? summarize((c) => /key_id/.test(c)) : 'no key id given'),
      kv('receipt bindings', h('span', null, summarizeBy((c) => String(c?.pointer ?? '').startsWith('/evidence_graph')), ` ${links} recall_receipt link${links === 1 ? '' : 's'}`)),
      kv('manifest / pack hash', summarize((c) => /manifest_hash|pack_hash/.test(c))),
      kv('pack says: algorithm', sig ? String(sig.algorithm ?? '—') : '—'),
      kv('pack says: key id', sig ? String(sig.key_id ?? '—') : '—'),
      kv('pack says: public key', sig ? h('span', { class: 'mono' }, String(sig.public_key ?? '—')) : '—'),
      sig?.identity_note != null ? kv('pack says: note', String(sig.identity_note)) : null));
  renderReport(p.out, report, {
    title: 'Evidence Pack',
    hashTitle: 'Manifest hash (SHA-256 of the canonical manifest)',
    extra,
    explain: [
      'A valid signature proves the manifest was signed by whoever holds the private key matching the pack\'s public_key, and was not changed since. It says who signed only if that public key equals one you obtained independently and entered above: a pack can carry any key, including an attacker\'s.',
      'The manifest and pack hashes prove integrity, not authorship. Receipt bindings check that every recall_receipt link hashes to the receipt body it carries.',
    ],
  });
}
$('#p-run').addEventListener('click', runPack);

// ───────────────────────────── start ─────────────────────────────
// Read-only hook for tests and debugging: plain data, no functions that mutate.
window.__liansDashboard = {
  snapshot: () => JSON.parse(JSON.stringify({
    scoring: state.scoring,
    count: state.rows.length,
    rows: state.rows.map((r) => ({ id: r.id, stored: r.stored, held: r.res?.held ?? null, approved: r.res?.approved ?? null, trusted_review: r.res?.trusted_review ?? null, error: r.res?.error ?? null, drift: r.drift, decision: state.decisions.get(r.id) ?? null })),
    visible: state.visible.map((r) => r.id),
    selected: state.selectedId,
  })),
};

renderList(true);
if (!location.hash.includes('empty')) loadSampleQueue();
