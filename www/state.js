// Lians review-queue dashboard: the one state module.
//
// Every view (theme.js, tabs.js, scorer.js, load.js, rescore.js, list.js,
// detail.js, decisions.js, verify.js, pack.js) imports this module and the
// helpers (dom.js, queue.js, lians.js, files.js, report.js), never another
// view: a view that must make another one repaint calls it through `ui`,
// where each view registers its entry points when it is imported.
// Data from queues, receipts and packs is untrusted: it reaches the DOM only
// through dom.js (text nodes and vetted attributes).

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
  visible: [],         // rows after filter/sort
  selectedId: null,
  decisions: new Map(), // id → 'approve' | 'reject'
  notes: new Map(),     // id → note text
  job: 0,
  scoring: false,
  scoredWith: '',
  loads: 0,            // queue loads begun (a sample or fetch answered after a later load is dropped)
};

const noop = () => {};

/** Entry points the views register (see the module comment). */
export const ui = {
  say: noop,               // (msg, bad?) the queue panel's status line (load.js)
  buildRows: noop,         // () state.items/results → state.rows (list.js)
  populateTagFilter: noop, // () (list.js)
  renderList: noop,        // (keepSelection) list, then detail and decisions (list.js)
  applyResults: noop,      // (results) re-scores arrived: update those rows in place (list.js)
  scoringDone: noop,       // () re-scoring finished: re-sort/filter if needed, detail, decisions (list.js)
  renderDetail: noop,      // () (detail.js)
  renderDecisions: noop,   // () (decisions.js)
  startScoring: noop,      // () re-score state.items (rescore.js)
  apiBase: () => '',       // () the "Fetch from Lians" base URL as typed (load.js)
  apiKey: () => '',        // () its API key (page memory only: the input's value) (load.js)
  fetchQueue: async () => false, // () GET /v1/admissions with that form; true if a queue loaded (load.js)
  cspHint: () => '',       // (origin) why a request there may have failed (load.js)
};

export function renderAll() { ui.renderList(true); }

export const rowById = (id) => state.rows.find((r) => r.id === id);

/** Record (or with a null action, undo) a decision for one item. */
export function decide(id, action) {
  if (id == null) return;
  if (action) state.decisions.set(id, action); else state.decisions.delete(id);
  ui.renderList(true);
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
