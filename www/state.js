// Lians review-queue dashboard: the one state module.
//
// Every view (theme.js, tabs.js, scorer.js, load.js, rescore.js, list.js,
// detail.js, decisions.js, undo.js, verify.js, pack.js) imports this module and the
// helpers (dom.js, queue.js, saved.js, lians.js, files.js, format.js,
// report.js, audit-view.js, jsonspan.js, resolve.js, scoring.js, contract.js, controls.js), never
// another view: a view that must make another one repaint calls it through
// `ui`, whose entries app.js fills from the views' exports (the one place
// where the views are wired together). Helpers import no view.
// Data from queues, receipts and packs is untrusted: it reaches the DOM only
// through dom.js (text nodes and vetted attributes).

import { readSaved, writeSaved, scopeKey } from './saved.js';

export const SAMPLE = {
  queue: 'sample/queue-sample.json',
  recall: 'sample/recall-08-fast-filters-acme-tinyfloat.json',
  recallQuery: 'Acme revenue',
  context: 'sample/context-01-deep-acme-summary.json',
  contextQuery: 'Summarize Acme account facts',
  pack: 'sample/pack-01-v2-signed.json',
  packKey: 'sample/evidence_public_key.b64',
  packKeyId: 'lians-real-test-key',
};

export const state = {
  source: '',          // where the queue came from (for the status line)
  items: [],           // [{raw, obj}]
  results: [],         // per item: {held, approved, trusted_review, drift, error} or undefined
  rows: [],            // view rows (see makeRow in list.js)
  byId: new Map(),     // id → view row
  visible: [],         // rows after filter/sort
  selectedId: null,
  decisions: new Map(), // id → 'approve' | 'reject'
  notes: new Map(),     // id → note text
  checked: new Set(),   // ids selected for a bulk decision (x, the row checkbox)
  anchor: null,         // the last checked id (shift-click selects the range from it)
  scope: null,          // {origin, namespace, key}: where this queue's work is saved (saved.js)
  savedOther: new Map(), // saved entries of this scope for ids not in the loaded queue (kept as they are)
  saveFailed: false,    // the last save was refused (storage full or off)
  fetched: null,        // the last fetch: {origin, limit, count, truncated}
  job: 0,
  scoring: false,
  scoredWith: '',
  loads: 0,            // queue loads begun (a sample or fetch answered after a later load is dropped)
  undo: [],            // the last decisions, newest last: {what, count, changes: [[id, decision before]], select}
  sending: false,      // a submit is under way
};

const noop = () => {};

/** Entry points of the views, filled in by app.js (see the module comment). */
export const ui = {
  say: noop,               // (msg, bad?) the queue panel's status line (load.js)
  buildRows: noop,         // () state.items/results → state.rows (list.js)
  populateTagFilter: noop, // () (list.js)
  renderList: noop,        // (keepSelection) list, then detail and decisions (list.js)
  applyResults: noop,      // (results) re-scores arrived: update those rows in place (list.js)
  scoringDone: noop,       // () re-scoring finished: re-sort/filter if needed, detail, decisions (list.js)
  renderDetail: noop,      // () (detail.js)
  detailDecision: noop,    // () a decision changed: patch the detail's buttons if it shows that item, else renderDetail (detail.js)
  renderDecisions: noop,   // () (decisions.js)
  rowsChanged: noop,       // (ids) those rows' decision or selection changed: patch them (list.js)
  countsChanged: noop,     // () the queue counts and the action bar (list.js)
  startScoring: noop,      // () re-score state.items (rescore.js)
  apiBase: () => '',       // () the "Fetch from Lians" base URL as typed (load.js)
  apiKey: () => '',        // () its API key (page memory only: the input's value) (load.js)
  fetchQueue: async () => false, // () GET /v1/admissions with that form; true if a queue loaded (load.js)
  cspHint: () => '',       // (origin) why a request there may have failed (load.js)
  fetchTimeoutMs: () => 30000, // () the "Give up after" of the Fetch form, in ms (load.js)
  decideAndNext: noop,     // (action) decide the current item and move on, as a/r (list.js)
  startAtTop: noop,        // () a queue loaded: its top, the first undecided item selected (list.js)
  checkLike: noop,         // (id) check every open item whose detected text equals this one's (list.js)
  showUndo: noop,          // (entry) the Undo toast for the last decision (undo.js)
  undo: noop,              // () undo the last decision (undo.js)
  hideUndo: noop,          // () hide the Undo toast (undo.js)
  selectItem: noop,        // (id) select an item and bring it into view (list.js)
};

export function renderAll() { ui.renderList(true); }

export const rowById = (id) => state.byId.get(id);

/** Only pending items can be decided (a resolved one answers 409). */
export const isOpen = (r) => Boolean(r) && r.status === 'pending';

const UNDO_DEPTH = 100;
function recordUndo(what, changes, select) {
  if (!changes.length) return;
  const entry = { what, count: changes.length, changes, select };
  state.undo.push(entry);
  if (state.undo.length > UNDO_DEPTH) state.undo.shift();
  ui.showUndo(entry);
}

/** Record (or with a null action, clear) a decision for one item; false if it is read-only. Undoable (u). */
export function decide(id, action) {
  if (id == null || !isOpen(rowById(id))) return false;
  const before = state.decisions.get(id) ?? null;
  if (action) state.decisions.set(id, action); else state.decisions.delete(id);
  ui.rowsChanged([id]);
  saveSoon();
  if (before !== (action ?? null)) recordUndo(action ?? 'clear', [[id, before]], id);
  return true;
}

/** Decide many items at once (bulk); resolved items are skipped. Returns how many were decided. Undoable as one. */
export function decideMany(ids, action) {
  const done = [];
  const changes = [];
  for (const id of ids) {
    if (!isOpen(rowById(id))) continue;
    const before = state.decisions.get(id) ?? null;
    state.decisions.set(id, action);
    done.push(id);
    if (before !== action) changes.push([id, before]);
  }
  ui.rowsChanged(done);
  saveSoon();
  recordUndo(action, changes, null);
  return done.length;
}

/** Undo the last decision (single or bulk): each item gets back the decision it had. Returns the entry, or null. */
export function undoLast() {
  const entry = state.undo.pop();
  if (!entry) return null;
  const ids = [];
  for (const [id, before] of entry.changes) {
    if (!isOpen(rowById(id))) continue;
    if (before) state.decisions.set(id, before); else state.decisions.delete(id);
    ids.push(id);
  }
  ui.rowsChanged(ids);
  saveSoon();
  return entry;
}

// ─── confirmations (in-page boxes): one open at a time; Escape closes it ───
const confirms = new Map(); // element → close()
/** Register an in-page confirmation box and the function that closes it (as its Cancel does). */
export function registerConfirm(el, close) { confirms.set(el, close); }
/** Close every open confirmation but `except`; true if one was open. */
export function closeConfirms(except = null) {
  if (except) ui.hideUndo(); // a confirmation opens: the toast would cover it
  let any = false;
  for (const [el, close] of confirms) if (el !== except && !el.hidden) { close(); any = true; }
  return any;
}

/** Decisions made here and not sent yet (a tab closing with them asks first). */
export const unsentCount = () => state.decisions.size;
addEventListener('beforeunload', (e) => {
  if (!unsentCount()) return;
  saveNow();
  e.preventDefault();
  e.returnValue = ''; // older browsers need it set to ask
});

export function setNote(id, text) {
  if (text) state.notes.set(id, text); else state.notes.delete(id);
  saveSoon();
}

// ─── saved work (saved.js): written shortly after each change, and when the page goes away ───
let saveTimer = 0;
const store = () => { try { return window.sessionStorage; } catch { return null; } };

/** This queue's entries to save: its decisions and notes, plus the scope's entries for other ids. */
function savedEntries() {
  const m = new Map(state.savedOther);
  const ids = new Set([...state.decisions.keys(), ...state.notes.keys()]);
  for (const id of ids) m.set(id, { action: state.decisions.get(id) ?? null, note: state.notes.get(id) ?? '' });
  return m;
}

export function saveNow() {
  clearTimeout(saveTimer);
  saveTimer = 0;
  if (!state.scope) return;
  state.saveFailed = !writeSaved(store(), state.scope.key, savedEntries());
}

export function saveSoon() {
  if (!saveTimer) saveTimer = setTimeout(saveNow, 100);
}
addEventListener('pagehide', saveNow);

/** Set the queue's scope and bring back its saved work (for the ids this queue holds, pending only). Returns how many decisions came back. */
export function restoreSaved(origin, namespace) {
  const key = scopeKey(origin, namespace);
  state.scope = { origin, namespace, key };
  state.savedOther = new Map();
  let n = 0;
  for (const [id, d] of readSaved(store(), key)) {
    const r = rowById(id);
    if (!r) { state.savedOther.set(id, d); continue; }
    if (!isOpen(r)) continue; // resolved since: the saved decision is moot
    if (d.action) { state.decisions.set(id, d.action); n++; }
    if (d.note) state.notes.set(id, d.note);
  }
  return n;
}

/** Forget saved work: for the given ids (submitted), or all of this scope (Discard saved decisions). */
export function forgetSaved(ids = null) {
  if (ids) for (const id of ids) { state.savedOther.delete(id); state.notes.delete(id); }
  else { state.savedOther = new Map(); state.decisions = new Map(); state.notes = new Map(); }
  saveNow();
}

/**
 * Performance marks of one queue load, read back by bench/dashboard-bench.mjs:
 * lians:queue-input (the file input's change event), -text (file read),
 * -listed (parsed, stored scores on screen), -scored (re-scores received),
 * -rendered (re-scored list built), -painted (the frame after it).
 * 'input' starts a new set.
 */
export function markQueue(what) {
  if (typeof performance === 'undefined' || !performance.mark) return;
  if (what === 'input') for (const n of ['input', 'text', 'listed', 'scored', 'rendered', 'painted']) performance.clearMarks(`lians:queue-${n}`);
  performance.mark(`lians:queue-${what}`);
}

export const numOrNull = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function safeOrigin(u) { try { return new URL(u).origin; } catch { return ''; } }

export async function fetchText(url) {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.text();
}

/**
 * Guards an asynchronous fill (a sample fetched into form fields) against
 * landing after the user moved on. Call the returned function when a fill
 * starts; the ticket it gives says, once the data has arrived, whether a
 * later fill started (`superseded()`) or the user typed into one of
 * `fields` meanwhile (`edited()`): then the data must not overwrite the form.
 * (Setting `.value` from code fires no input event, so fills do not count.)
 */
export function fillGuard(fields) {
  let gen = 0;
  let edits = 0;
  for (const el of fields) el.addEventListener('input', () => { edits++; });
  return () => {
    const g = ++gen;
    const e = edits;
    return { superseded: () => g !== gen, edited: () => e !== edits };
  };
}
