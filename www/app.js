// Lians review-queue dashboard: the entry module, and the one place where the
// views are wired together. It imports each view (a module that owns part of
// the page: its listeners are set up when it is imported), puts the entry
// points the views call in one another into state.js's `ui` (the rule, in
// state.js: a view never imports another view), then starts.
// Data from queues, receipts and packs is untrusted: it reaches the DOM only
// through dom.js (text nodes and vetted attributes).
import { state, ui } from './state.js';
import './theme.js';           // the light/dark toggle
import './tabs.js';            // the three tabs
import './scorer.js';          // the scorer pill (starts loading the package)
import * as load from './load.js';       // the queue panel: sample, file, paste, "Fetch from Lians", the status line
import * as rescore from './rescore.js'; // re-scoring in Web Workers, the progress bar
import * as list from './list.js';       // filters, sort, the listbox, selection, counts, keys
import * as detail from './detail.js';   // the selected item
import * as decisions from './decisions.js'; // decisions: bulk, export, Submit
import * as undo from './undo.js';           // the Undo toast (u, z)
import './verify.js';          // the "Verify receipt" tab (and its audit panel, audit-view.js)
import './pack.js';            // the "Evidence Pack" tab

const wiring = {
  say: load.say,
  apiBase: load.apiBaseText,
  apiKey: load.apiKeyText,
  fetchQueue: load.fetchQueue,
  cspHint: load.cspHint,
  fetchTimeoutMs: load.fetchTimeoutMs,
  decideAndNext: list.decideAndNext,
  startAtTop: list.startAtTop,
  checkLike: list.checkLike,
  selectItem: list.selectItem,
  showUndo: undo.showUndo,
  undo: undo.undo,
  hideUndo: undo.hideUndo,
  startScoring: rescore.startScoring,
  buildRows: list.buildRows,
  populateTagFilter: list.populateTagFilter,
  renderList: list.renderList,
  applyResults: list.applyResults,
  scoringDone: list.scoringDone,
  rowsChanged: list.rowsChanged,
  countsChanged: list.renderCounts,
  renderDetail: detail.renderDetail,
  detailDecision: detail.detailDecision,
  renderDecisions: decisions.renderDecisions,
};
// Every entry point state.js declares is wired here (a missing one would stay a silent no-op).
for (const k of Object.keys(ui)) if (typeof wiring[k] !== 'function') throw new Error(`app.js: ui.${k} is not wired`);
Object.assign(ui, wiring);

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

ui.renderList(true);
if (!location.hash.includes('empty')) load.loadSampleQueue();
