// The queue list: view rows, filters and sort, the listbox, selection (the
// current item and the checked ones), the counts and the keyboard (j/k,
// arrows, Home/End, a/r/u, x).
//
// A keypress repaints only what it changed: the decided row is patched in
// place (rowsChanged), the selection moves by two attributes, and the counts
// are one text (set only when it changed); the whole list is rebuilt only
// when the filters or the sort change, or a decision brings a hidden row into
// the filter. How that is timed: bench/dashboard-bench.mjs --keys.
import { state, ui, numOrNull, rowById, decide, isOpen } from './state.js';
import { h, replace, $, setText } from './dom.js';
import { driftView, filterRows, SORTS } from './queue.js';
import { chip, fmt } from './format.js';

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

function approvedCell(r) {
  const e = span(`score${r.approvedFinal > 0 ? ' up' : ''}`, r.res ? `→ ${fmt(r.approvedFinal)}` : state.scoring ? '…' : '—');
  e.dataset.col = 'approved';
  return e;
}

/** "11-30 13:46" from an ISO time (the server's text, cut, never reinterpreted). */
function createdText(c) {
  return typeof c === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(c) ? `${c.slice(5, 10)} ${c.slice(11, 16)}` : '—';
}

function metaEl(r) {
  return h('span', { class: 'meta' }, ...r.tags.map(chip), r.status !== 'pending' ? h('span', { class: 'badge status' }, `${r.status} · read-only`) : null,
    typeof r.obj.source === 'string' && r.obj.source ? h('span', { class: 'muted' }, `source ${r.obj.source}`) : null,
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
  snippet.append(String(r.obj.content));
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
  if (matchMedia('(max-width: 900px)').matches) $('#detail').scrollIntoView({ block: 'start' });
});

function visibleRows() {
  return filterRows(state.rows, currentFilter()).sort(SORTS[f.sort.value]?.cmp ?? SORTS.server.cmp);
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
  if (!rows.length) list.appendChild(h('p', { class: 'empty' }, state.rows.length ? 'No item matches the filters.' : 'No queue loaded.'));
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
    if (!state.visible.length) list.appendChild(h('p', { class: 'empty' }, 'No item matches the filters.'));
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

/** Move aria-selected="true" to the current row (and scroll it into view). */
function markSelected(scroll = false) {
  const r = state.selectedId != null ? rowById(state.selectedId) : null;
  const el = r ? rowEls.get(r.index) ?? null : null;
  if (selectedEl && selectedEl !== el) selectedEl.setAttribute('aria-selected', 'false');
  selectedEl = el;
  if (el) {
    el.setAttribute('aria-selected', 'true');
    if (scroll) scrollRowIntoList(el);
  }
  activeDescendant();
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

/** a / r: decide the current item, then move to the next undecided one. */
function decideAndNext(action) {
  const id = state.selectedId;
  const r = id != null ? rowById(id) : null;
  if (!r) return;
  if (!isOpen(r)) { ui.say(`That item is already ${r.status}: it is read-only.`, true); return; }
  const next = nextUndecided(id);
  if (next) state.selectedId = next; // before the row may leave the list (a decision filter)
  decide(id, action);
  if (next) markSelected(true);
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
    case 'a': decideAndNext('approve'); break;
    case 'r': decideAndNext('reject'); break;
    case 'u': if (!decide(state.selectedId, null) && state.selectedId != null) ui.say('That item is read-only.', true); break;
    case 'x': if (state.selectedId != null) toggleCheck(state.selectedId, e.shiftKey); break;
    default: return;
  }
  e.preventDefault();
});

// Entry points (app.js puts them in state.js's `ui`).
export { buildRows, populateTagFilter, renderList, applyResults, scoringDone, rowsChanged, renderCounts };
