// The queue list: view rows, filters and sort (kept in the page URL), the
// listbox, selection (the current item and the checked ones), grouping of like
// items, the counts and the keyboard (j/k, arrows, Home/End, a/r, u/z undo,
// n note, x, / search, ? help, Escape).
//
// A keypress repaints only what it changed: the decided row is patched in
// place (rowsChanged), the selection moves by two attributes, and the counts
// are one text (set only when it changed); the whole list is rebuilt only
// when the filters or the sort change, or a decision brings a hidden row into
// the filter. How that is timed: bench/dashboard-bench.mjs --keys.
import { state, ui, numOrNull, rowById, decide, isOpen, closeConfirms } from './state.js';
import { h, replace, $, setText } from './dom.js';
import { driftView, filterRows, SORTS } from './queue.js';
import { chip, fmt } from './format.js';
import { hasControls, showControls } from './controls.js';
import * as lians from './lians.js';

function makeRow(it, index) {
  const o = it.obj;
  const stored = o.score_breakdown && typeof o.score_breakdown === 'object' ? o.score_breakdown : null;
  const tags = Array.isArray(o.risk_tags) ? o.risk_tags.map(String) : [];
  return withResult({
    index,
    id: o.id,
    obj: o,
    raw: it.raw,
    tags,
    status: typeof o.status === 'string' ? o.status : 'pending',
    created: typeof o.created_at === 'string' ? o.created_at : null,
    stored,
    storedFinal: numOrNull(stored?.final_score),
    searchText: [o.content, o.id, o.source, o.agent_id, o.namespace, ...tags].filter((x) => typeof x === 'string').join('\n').toLowerCase(),
  }, state.results[index]);
}

/** Set a view row's re-score fields from its result (or undefined: none yet). */
function withResult(row, res) {
  row.res = res;
  // A worker's result carries its final scores (scoring.js, Rescore); a main-thread one is full.
  const fin = res?.finals;
  row.heldFinal = numOrNull(fin ? fin.held : res?.held?.final_score);
  row.approvedFinal = numOrNull(fin ? fin.approved : res?.approved?.final_score);
  row.drift = res ? driftView(res.error ? null : res) : null;
  return row;
}

function buildRows() {
  state.rows = state.items.map(makeRow);
  state.byId = new Map(state.rows.map((r) => [r.id, r]));
}

// ───────────────────────────── filters ─────────────────────────────
const f = {
  tag: $('#f-tag'), status: $('#f-status'), decision: $('#f-decision'), drift: $('#f-drift'),
  min: $('#f-min'), text: $('#f-text'), sort: $('#f-sort'),
};
// Like items together: the same detected text (one card number in 123 items), biggest groups first.
const GROUPED = {
  found: { label: 'Like items together (same text found)', cmp: (a, b) => (groupSize(b) - groupSize(a)) || cmpKey(a.found, b.found) || a.index - b.index },
};
const cmpKey = (x, y) => (x === y ? 0 : x < y ? -1 : 1);
const sortOf = (k) => SORTS[k] ?? GROUPED[k] ?? SORTS.server;
for (const [k, s] of [...Object.entries(SORTS), ...Object.entries(GROUPED)]) f.sort.appendChild(h('option', { value: k }, s.label));

// ─── filters and sort in the page URL (?tag=…&sort=…): a reload or a shared link keeps them ───
const URL_KEYS = { tag: 'tag', status: 'status', decision: 'decision', drift: 'drift', min: 'min', text: 'q', sort: 'sort' };
const DEFAULTS = { tag: '*', status: '*', decision: '*', drift: '*', min: '0', text: '', sort: 'server' };
let wantedTag = '*'; // the URL's tag, until a queue that has it is loaded
function readUrlFilters() {
  const q = new URLSearchParams(location.search);
  for (const [k, name] of Object.entries(URL_KEYS)) {
    const v = q.get(name);
    if (v == null) continue;
    if (k === 'tag') { wantedTag = v; continue; }
    const el = f[k];
    if (el.tagName === 'SELECT' && ![...el.options].some((o) => o.value === v)) continue;
    el.value = v;
  }
}
function writeUrlFilters() {
  const q = new URLSearchParams(location.search);
  for (const [k, name] of Object.entries(URL_KEYS)) {
    const v = k === 'tag' && f.tag.value === '*' && wantedTag !== '*' && !state.rows.length ? wantedTag : f[k].value;
    if (v === DEFAULTS[k] || v === '') q.delete(name); else q.set(name, v);
  }
  const s = q.toString();
  const url = `${location.pathname}${s ? `?${s}` : ''}${location.hash}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url);
}
readUrlFilters();
for (const el of Object.values(f)) {
  el.addEventListener('input', () => {
    if (el === f.tag) wantedTag = f.tag.value;
    if (el === f.sort && GROUPED[f.sort.value]) ensureFound();
    renderList(true);
    writeUrlFilters();
  });
}

// ─── what was found in each item (lians.riskSpans), for grouping like items; computed when first needed ───
let foundOf = { rows: null, sizes: new Map() };
function foundKey(content) {
  const spans = lians.riskSpans(String(content)) ?? [];
  // The detected texts, without a card number's trailing separator (the engine's match keeps it).
  const texts = [...new Set(spans.map((p) => `${p.tag}\u0000${p.tag === 'pii:credit_card' ? p.text.replace(/[ -]+$/, '') : p.text}`))].sort();
  return texts.join('\u0001');
}
function ensureFound() {
  if (foundOf.rows === state.rows) return foundOf;
  // riskSpans needs the package on this thread (the workers load their own): until it is loaded nothing is
  // found, so nothing is kept; the list is grouped again once it is.
  if (!lians.isLoaded()) {
    lians.load().then((ok) => { if (ok && GROUPED[f.sort.value]) { ensureFound(); renderList(true); } });
    return foundOf;
  }
  const sizes = new Map();
  for (const r of state.rows) {
    r.found = foundKey(r.obj.content);
    if (r.found) sizes.set(r.found, (sizes.get(r.found) ?? 0) + 1);
  }
  foundOf = { rows: state.rows, sizes };
  return foundOf;
}
const groupSize = (r) => (r.found ? foundOf.sizes.get(r.found) ?? 0 : 0);
/** How many items of the queue hold exactly what this one was found to hold (itself included; 0: nothing found). */
export function likeCount(id) {
  const r = rowById(id);
  if (!r) return 0;
  ensureFound();
  return groupSize(r);
}

function populateTagFilter() {
  const tags = new Set();
  let untagged = false;
  for (const r of state.rows) { r.tags.forEach((t) => tags.add(t)); if (!r.tags.length) untagged = true; }
  const cur = wantedTag;
  replace(f.tag, h('option', { value: '*' }, 'all'), ...[...tags].sort().map((t) => h('option', { value: t }, t)),
    untagged ? h('option', { value: '(none)' }, '(none)') : null);
  f.tag.value = [...f.tag.options].some((o) => o.value === cur) ? cur : '*';
}

function currentFilter() {
  const min = Number(f.min.value);
  return {
    tag: f.tag.value, status: f.status.value, decision: f.decision.value, decisions: state.decisions, drift: f.drift.value,
    minScore: Number.isFinite(min) ? min : 0, text: f.text.value,
  };
}

// ───────────────────────────── list ─────────────────────────────
const list = $('#queue-list');

const optId = (r) => `opt-${r.index}`;
// Listed rows go in blocks of BLOCK (plain <div role="none">, invisible to assistive technology: the
// options stay the listbox's own). Each block, not each row, is `content-visibility: auto` (style.css),
// so a frame checks 30 blocks' visibility at 1,500 rows, not 1,500 rows'.
const BLOCK = 50;

function driftBadge(d) {
  if (!d || d.status !== 'drift') return null;
  return h('span', { class: `badge drift${d.explained ? '' : ' unexplained'}`, title: d.causes.map((c) => c.text).join('\n') },
    d.explained ? 'drift (explained)' : 'drift');
}

// The element of each listed row, by item index (the last renderList's rows),
// and the one with aria-selected="true" (markSelected moves it without a query).
let rowEls = new Map();
let selectedEl = null;

// Rows are built with direct DOM calls (up to 1,500 of them per queue); untrusted
// text still only becomes Text nodes (textContent), as in dom.js.
function span(cls, text) {
  const e = document.createElement('span');
  e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/** A score in the list: always three decimals (the exact value is in the detail, and the cell's title). */
export const listScore = (v) => (v == null ? '—' : v.toFixed(3));

function approvedCell(r) {
  const e = span(`score${r.approvedFinal > 0 ? ' up' : ''}`, r.res ? `→ ${listScore(r.approvedFinal)}` : state.scoring ? '…' : '—');
  if (r.res && r.approvedFinal != null) e.title = `If approved: ${fmt(r.approvedFinal)}`;
  e.dataset.col = 'approved';
  return e;
}

/** "2026-11-30 13:46" from an ISO time (the server's text, cut, never reinterpreted). */
function createdText(c) {
  return typeof c === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(c) ? `${c.slice(0, 10)} ${c.slice(11, 16)}` : '—';
}

function metaEl(r) {
  const like = r.found && GROUPED[f.sort.value] ? groupSize(r) : 0;
  return h('span', { class: 'meta' }, ...r.tags.map(chip), r.status !== 'pending' ? h('span', { class: 'badge status' }, `${r.status} · read-only`) : null,
    hasControls(r.obj.content) ? h('span', { class: 'badge drift unexplained', dataset: { controls: 'true' }, title: 'The text holds invisible or text-direction characters (shown as ⟨…⟩)' }, 'hidden characters') : null,
    like > 1 ? h('span', { class: 'badge status', dataset: { like: String(like) } }, `same text in ${like} items`) : null,
    typeof r.obj.source === 'string' && r.obj.source ? h('span', { class: 'muted' }, `source ${showControls(r.obj.source)}`) : null,
    driftBadge(r.drift), r.res?.error ? h('span', { class: 'badge drift unexplained' }, 'scoring error') : null);
}

function rowEl(r) {
  const decision = state.decisions.get(r.id);
  const row = document.createElement('div');
  row.setAttribute('role', 'option');
  row.id = optId(r);
  row.className = 'opt';
  row.setAttribute('aria-selected', String(r.id === state.selectedId));
  if (r.id === state.selectedId) selectedEl = row;
  row.dataset.id = r.id;
  if (decision) row.dataset.decision = decision;
  const open = isOpen(r);
  if (open) row.setAttribute('aria-checked', String(state.checked.has(r.id)));
  else row.dataset.readonly = 'true';
  // The row checkbox: drawn, not an <input> (an option holds no focusable control); its
  // state is the option's aria-checked, toggled by a click here or x.
  const box = span('check', open ? (state.checked.has(r.id) ? '☑' : '☐') : '');
  box.setAttribute('aria-hidden', 'true');
  box.title = open ? 'Select (x); shift-click selects a range' : 'Resolved: read-only';
  const snippet = span('snippet');
  if (decision) snippet.append(span(`badge ${decision}`, decision === 'approve' ? '✓ approve' : '✕ reject'), ' ');
  snippet.append(showControls(String(r.obj.content)));
  const created = span('created', createdText(r.created));
  if (r.created) created.title = r.created;
  created.dataset.col = 'created';
  row.append(box, snippet, created, approvedCell(r), metaEl(r));
  return row;
}

/**
 * Bring a listed row's decision and check up to date in place (its size does not
 * change, so only that row is laid out again, not the list).
 */
function patchRow(r, el) {
  const decision = state.decisions.get(r.id);
  const open = isOpen(r);
  if (decision) el.dataset.decision = decision; else delete el.dataset.decision;
  if (open) el.setAttribute('aria-checked', String(state.checked.has(r.id)));
  const box = el.children[0];
  const mark = open ? (state.checked.has(r.id) ? '☑' : '☐') : '';
  if (box.textContent !== mark) box.textContent = mark;
  const snippet = el.children[1];
  const badge = snippet.firstChild instanceof HTMLElement && snippet.firstChild.classList.contains('badge') ? snippet.firstChild : null;
  if (badge && !decision) { badge.nextSibling?.remove(); badge.remove(); }
  if (decision) {
    const text = decision === 'approve' ? '✓ approve' : '✕ reject';
    if (badge) { badge.className = `badge ${decision}`; badge.textContent = text; }
    else snippet.prepend(span(`badge ${decision}`, text), ' ');
  }
}

// One click handler for every row (event delegation).
list.addEventListener('click', (e) => {
  const t = e.target instanceof Element ? e.target : null;
  const opt = t?.closest('#queue-list .opt');
  if (!opt) return;
  if (t.closest('.check')) { toggleCheck(opt.dataset.id, e.shiftKey); return; }
  select(opt.dataset.id, false);
  // On a narrow screen the detail is below the list: bring it into view.
  if (narrow()) $('#detail').scrollIntoView({ block: 'start' });
});
const narrowMq = matchMedia('(max-width: 900px)');
const narrow = () => narrowMq.matches;

function visibleRows() {
  if (GROUPED[f.sort.value]) ensureFound();
  return filterRows(state.rows, currentFilter()).sort(sortOf(f.sort.value).cmp);
}
const emptyEl = $('#queue-empty');
function showEmpty(text) {
  if (text) setText(emptyEl, text);
  if (emptyEl.hidden !== !text) emptyEl.hidden = !text;
}

function renderList(keepSelection = true) {
  const rows = visibleRows();
  state.visible = rows;
  if (!keepSelection || !rows.some((r) => r.id === state.selectedId)) state.selectedId = rows[0]?.id ?? null;
  const frag = document.createDocumentFragment();
  rowEls = new Map();
  selectedEl = null;
  let block = null;
  rows.forEach((r, k) => {
    if (k % BLOCK === 0) {
      block = document.createElement('div');
      block.className = 'rows';
      block.setAttribute('role', 'none');
      frag.appendChild(block);
    }
    const el = rowEl(r);
    rowEls.set(r.index, el);
    block.appendChild(el);
  });
  replace(list, frag);
  // The message stays out of the listbox (a listbox holds options only).
  showEmpty(rows.length ? '' : state.rows.length ? 'No item matches the filters.' : 'No queue loaded.');
  activeDescendant();
  renderCounts();
  ui.renderDetail();
  ui.renderDecisions();
}

function activeDescendant() {
  const r = state.selectedId != null ? rowById(state.selectedId) : null;
  if (r) list.setAttribute('aria-activedescendant', optId(r)); else list.removeAttribute('aria-activedescendant');
}

/**
 * Some rows' decision or check changed: rebuild those rows in place; a row the
 * filters no longer show leaves the list (the selection moves on first, see
 * decideAndNext). A row the filters now show that is not listed: rebuild all.
 */
function rowsChanged(ids, { detail = true } = {}) {
  const fl = currentFilter();
  let rebuild = false;
  const gone = new Set();
  for (const id of ids) {
    const r = rowById(id);
    if (!r) continue;
    const el = rowEls.get(r.index);
    const shown = filterRows([r], fl).length === 1;
    if (!el) { if (shown) rebuild = true; continue; }
    if (!shown) { el.remove(); rowEls.delete(r.index); gone.add(r.id); continue; }
    patchRow(r, el);
  }
  if (rebuild) { renderList(true); return; }
  if (gone.size) {
    state.visible = state.visible.filter((r) => !gone.has(r.id));
    if (!state.visible.length) showEmpty('No item matches the filters.');
    if (gone.has(state.selectedId)) { state.selectedId = state.visible[0]?.id ?? null; markSelected(); detail = true; }
  }
  renderCounts();
  if (detail) ui.detailDecision();
  ui.renderDecisions();
}

const countEl = $('#queue-count');
const bulk = { approve: $('#bulk-approve'), reject: $('#bulk-reject'), none: $('#select-none') };

/** #queue-count "N of M shown · K undecided" and the action bar's selection buttons. */
// How many of state.rows are open (pending), counted once per queue: a key then counts only its decisions.
let openOf = { rows: null, open: 0 };

function renderCounts() {
  if (openOf.rows !== state.rows) openOf = { rows: state.rows, open: state.rows.reduce((n, r) => n + (isOpen(r) ? 1 : 0), 0) };
  let decidedOpen = 0;
  for (const id of state.decisions.keys()) if (isOpen(rowById(id))) decidedOpen++;
  const undecided = openOf.open - decidedOpen;
  const readOnly = state.rows.length - openOf.open;
  setText(countEl, state.rows.length
    ? `${state.visible.length} of ${state.rows.length} shown · ${undecided} undecided${readOnly ? ` · ${readOnly} resolved (read-only)` : ''}${state.checked.size ? ` · ${state.checked.size} selected` : ''}`
    : 'no queue');
  const none = state.checked.size === 0;
  if (actionBar.classList.contains('has-selection') === none) actionBar.classList.toggle('has-selection', !none);
  bulk.approve.disabled = none;
  bulk.reject.disabled = none;
  bulk.none.disabled = none;
  setText(bulk.approve, `✓ Approve selected${none ? '' : ` (${state.checked.size})`}…`);
  setText(bulk.reject, `✕ Reject selected${none ? '' : ` (${state.checked.size})`}…`);
}

/**
 * Re-scores of some items arrived (state.results holds them): update their
 * view rows, and the listed elements' score cell and badges in place.
 */
function applyResults(results) {
  for (const res of results) {
    const r = state.rows[res.i];
    if (!r || r.index !== res.i) continue;
    withResult(r, state.results[res.i]);
    const el = rowEls.get(r.index);
    if (el?.children.length === 5) {
      el.children[3].replaceWith(approvedCell(r));
      el.children[4].replaceWith(metaEl(r));
    }
  }
}

/**
 * Re-scoring finished: rebuild the list only if the scores change which
 * rows the filters show or their order; otherwise the rows are up to date
 * (applyResults) and only the detail and decisions are redrawn.
 */
function scoringDone() {
  const rows = visibleRows();
  const same = rows.length === state.visible.length && rows.every((r, k) => r === state.visible[k])
    && rows.every((r) => rowEls.get(r.index)?.children[3]?.textContent !== '…');
  if (!same) { renderList(true); return; }
  ui.renderDetail();
  ui.renderDecisions();
}

/** Scroll the list (only the list, never the page around it) so that `el` is in view. */
function scrollRowIntoList(el) {
  // (The rows' offsetParent is their block, not the list: measure against the list's box.)
  const top = el.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientTop + list.scrollTop;
  const bottom = top + el.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}

const topbar = $('.topbar');
const actionBar = $('#action-bar');
/**
 * Scroll the page (by the least amount) so that `el` is neither under the sticky
 * top bar nor under the sticky action bar. (Reads the layout the list scroll
 * already brought up to date.)
 */
function clearOfBars(el) {
  const r = el.getBoundingClientRect();
  const top = getComputedStyle(topbar).position === 'sticky' ? topbar.getBoundingClientRect().bottom : 0;
  const bottom = actionBar.getBoundingClientRect().top;
  if (r.bottom > bottom - 4) window.scrollBy(0, Math.min(r.bottom - bottom + 8, r.top - top - 8));
  else if (r.top < top + 4) window.scrollBy(0, r.top - top - 8);
}

/** Move aria-selected="true" to the current row (and scroll it into view, clear of the sticky bars). */
function markSelected(scroll = false) {
  const r = state.selectedId != null ? rowById(state.selectedId) : null;
  const el = r ? rowEls.get(r.index) ?? null : null;
  if (selectedEl && selectedEl !== el) selectedEl.setAttribute('aria-selected', 'false');
  selectedEl = el;
  if (el) {
    el.setAttribute('aria-selected', 'true');
    if (scroll) { scrollRowIntoList(el); clearOfBars(el); }
  }
  activeDescendant();
}

/** Select an item (undo brings back the one it concerns); the filters are cleared if they hide it. */
function selectItem(id) {
  const r = rowById(id);
  if (!r) return;
  if (!rowEls.has(r.index)) { state.selectedId = id; renderList(true); if (!rowEls.has(r.index)) return; }
  select(id);
}

/**
 * A queue was loaded: the list at its top, the first undecided item selected
 * (a restored decision is never the one a key acts on first), the work area
 * in view.
 */
function startAtTop() {
  list.scrollTop = 0;
  $('#detail').scrollTop = 0;
  const first = state.visible.find((r) => isOpen(r) && !state.decisions.has(r.id)) ?? state.visible[0];
  if (!first) return;
  if (first.id !== state.selectedId) { state.selectedId = first.id; ui.renderDetail(); }
  markSelected(true);
  clearOfBars(narrow() ? list : $('.list-head'));
}

function select(id, scroll = true) {
  state.selectedId = id;
  ui.renderDetail(); // first: the scroll below reads the layout once, with the new detail in it
  markSelected(scroll);
}

function move(delta) {
  const vis = state.visible;
  if (!vis.length) return;
  const i = vis.findIndex((r) => r.id === state.selectedId);
  const n = i < 0 ? 0 : Math.min(vis.length - 1, Math.max(0, i + delta));
  select(vis[n].id);
}

/** The next undecided, pending item after the current one in the list (wrapping), or null. */
function nextUndecided(fromId) {
  const vis = state.visible;
  const i = vis.findIndex((r) => r.id === fromId);
  for (let k = 1; k <= vis.length; k++) {
    const r = vis[(i + k + vis.length) % vis.length];
    if (r.id !== fromId && isOpen(r) && !state.decisions.has(r.id)) return r.id;
  }
  return null;
}

/** a / r (and the Approve / Reject buttons): decide the current item, then move to the next undecided one. */
function decideAndNext(action) {
  if (state.sending) { ui.say('Decisions are being sent: wait for the submit to finish.', true); return; }
  const id = state.selectedId;
  const r = id != null ? rowById(id) : null;
  if (!r) return;
  if (!isOpen(r)) { ui.say(`That item is already ${r.status}: it is read-only.`, true); return; }
  const next = nextUndecided(id);
  if (next) state.selectedId = next; // before the row may leave the list (a decision filter)
  decide(id, action);
  if (next) markSelected(true);
}

/** Check every open item whose detected text is exactly this item's ("select all like this"). Returns how many. */
function checkLike(id) {
  const r = rowById(id);
  if (!r) return 0;
  ensureFound();
  if (!r.found) { ui.say('Nothing was detected in this item: no like items to select.', true); return 0; }
  const like = state.rows.filter((x) => x.found === r.found && isOpen(x));
  for (const x of like) state.checked.add(x.id);
  renderList(true);
  ui.say(`Selected ${like.length} item${like.length === 1 ? '' : 's'} holding the same detected text. Approve or reject them with the buttons below.`);
  return like.length;
}

// ─── checked rows (bulk) ───
function toggleCheck(id, range = false) {
  const r = rowById(id);
  if (!isOpen(r)) return;
  const changed = [];
  if (range && state.anchor != null && state.anchor !== id) {
    const vis = state.visible;
    const a = vis.findIndex((x) => x.id === state.anchor);
    const b = vis.findIndex((x) => x.id === id);
    if (a >= 0 && b >= 0) {
      for (const x of vis.slice(Math.min(a, b), Math.max(a, b) + 1)) {
        if (isOpen(x) && !state.checked.has(x.id)) { state.checked.add(x.id); changed.push(x.id); }
      }
    }
  } else {
    if (state.checked.has(id)) state.checked.delete(id); else state.checked.add(id);
    changed.push(id);
  }
  state.anchor = id;
  rowsChanged(changed, { detail: false }); // a check changes no decision: the detail stays
}

function checkAllShown() {
  const add = state.visible.filter((r) => isOpen(r) && !state.checked.has(r.id)).map((r) => r.id);
  for (const id of add) state.checked.add(id);
  renderList(true);
}
function checkNone() {
  state.checked = new Set();
  state.anchor = null;
  renderList(true);
}
$('#select-all-filtered').addEventListener('click', checkAllShown);
$('#select-none').addEventListener('click', checkNone);

// ─── keyboard (bench/dashboard-bench.mjs --keys times each key to the painted frame) ───

const help = $('#key-help');
$('#key-help-close').addEventListener('click', () => help.close());
help.addEventListener('close', () => list.focus({ preventScroll: true }));

document.addEventListener('keydown', (e) => {
  if ($('#panel-queue').hidden || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === 'Escape' && !help.open && closeConfirms()) { list.focus({ preventScroll: true }); e.preventDefault(); return; }
  const t = e.target;
  if (t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
  if (help.open) return;
  const inList = t === list;
  switch (e.key) {
    case 'j': move(1); break;
    case 'k': move(-1); break;
    case 'ArrowDown': if (!inList) return; move(1); break;
    case 'ArrowUp': if (!inList) return; move(-1); break;
    case 'Home': if (!inList) return; if (state.visible[0]) select(state.visible[0].id); break;
    case 'End': if (!inList) return; if (state.visible.length) select(state.visible[state.visible.length - 1].id); break;
    case 'a': decideAndNext('approve'); break;
    case 'r': decideAndNext('reject'); break;
    case 'u': case 'z': ui.undo(); break;
    case 'n': { const note = $('#note-input'); if (note) { note.focus(); note.select(); } else ui.say('This item is read-only: no note can be sent.', true); break; }
    case 'x': if (state.selectedId != null) toggleCheck(state.selectedId, e.shiftKey); break;
    case '/': f.text.focus(); f.text.select(); break;
    case '?': help.showModal(); break;
    default: return;
  }
  e.preventDefault();
});

// Entry points (app.js puts them in state.js's `ui`).
export { buildRows, populateTagFilter, renderList, applyResults, scoringDone, rowsChanged, renderCounts, decideAndNext, startAtTop, checkLike, selectItem };

// The phone bar (narrow screens): Approve, Reject as the keys; Next moves on.
const afterTap = () => { if (narrow()) $('#detail').scrollIntoView({ block: 'start' }); };
$('#phone-approve').addEventListener('click', () => { decideAndNext('approve'); afterTap(); });
$('#phone-reject').addEventListener('click', () => { decideAndNext('reject'); afterTap(); });
$('#phone-next').addEventListener('click', () => { move(1); afterTap(); });
