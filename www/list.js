// The queue list: view rows, filters and sort, the listbox, selection and
// the keyboard (j/k, arrows, Home/End, a/r/u).
import { state, ui, numOrNull, rowById, decide } from './state.js';
import { h, replace, $ } from './dom.js';
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

const optId = (r) => `opt-${r.index}`;

function driftBadge(d) {
  if (!d || d.status !== 'drift') return null;
  return h('span', { class: `badge drift${d.explained ? '' : ' unexplained'}`, title: d.causes.map((c) => c.text).join('\n') },
    d.explained ? 'drift (explained)' : 'drift');
}

// The element of each listed row, by item index (the last renderList's rows).
let rowEls = new Map();

// Rows are built with direct DOM calls (500 of them per queue); untrusted
// text still only becomes Text nodes (textContent), as in dom.js.
function span(cls, text) {
  const e = document.createElement('span');
  e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function approvedCell(r) {
  const up = r.approvedFinal != null && r.storedFinal != null && r.approvedFinal > r.storedFinal;
  const e = span(`score${up ? ' up' : ''}`, r.res ? `→ ${fmt(r.approvedFinal)}` : state.scoring ? '…' : '—');
  e.dataset.col = 'approved';
  return e;
}

function metaEl(r) {
  return h('span', { class: 'meta' }, ...r.tags.map(chip), r.status !== 'pending' ? h('span', { class: 'badge status' }, r.status) : null,
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
  row.dataset.id = r.id;
  const snippet = span('snippet');
  if (decision) snippet.append(span(`badge ${decision}`, decision === 'approve' ? '✓ approve' : '✕ reject'), ' ');
  snippet.append(String(r.obj.content));
  const stored = span(`score${r.storedFinal === 0 ? ' zero' : ''}`, fmt(r.storedFinal));
  stored.dataset.col = 'stored';
  row.append(snippet, stored, approvedCell(r), metaEl(r));
  return row;
}

// One click handler for every row (event delegation).
list.addEventListener('click', (e) => {
  const opt = e.target instanceof Element ? e.target.closest('#queue-list > .opt') : null;
  if (opt) select(opt.dataset.id, false);
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
  for (const r of rows) {
    const el = rowEl(r);
    rowEls.set(r.index, el);
    frag.appendChild(el);
  }
  replace(list, frag);
  if (!rows.length) list.appendChild(h('p', { class: 'empty' }, state.rows.length ? 'No item matches the filters.' : 'No queue loaded.'));
  list.setAttribute('aria-activedescendant', state.selectedId != null ? optId(rowById(state.selectedId)) : '');
  if (!state.selectedId) list.removeAttribute('aria-activedescendant');
  ui.renderDetail();
  ui.renderDecisions();
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
    if (el?.children.length === 4) {
      el.children[2].replaceWith(approvedCell(r));
      el.children[3].replaceWith(metaEl(r));
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
    && rows.every((r) => rowEls.get(r.index)?.children[2]?.textContent !== '…');
  if (!same) { renderList(true); return; }
  ui.renderDetail();
  ui.renderDecisions();
}

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
  ui.renderDetail();
}

function move(delta) {
  const vis = state.visible;
  if (!vis.length) return;
  const i = vis.findIndex((r) => r.id === state.selectedId);
  const n = i < 0 ? 0 : Math.min(vis.length - 1, Math.max(0, i + delta));
  select(vis[n].id);
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

ui.buildRows = buildRows;
ui.populateTagFilter = populateTagFilter;
ui.renderList = renderList;
ui.applyResults = applyResults;
ui.scoringDone = scoringDone;
