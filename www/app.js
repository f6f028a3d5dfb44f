// Lians review-queue dashboard: the entry module. It imports one module per
// view around the state module (state.js, which documents how they talk),
// then starts. Data from queues, receipts and packs is untrusted: it reaches
// the DOM only through dom.js (text nodes and vetted attributes).
import { state, ui } from './state.js';
import './theme.js';
import './tabs.js';
import './scorer.js';
import { loadSampleQueue } from './load.js';
import './rescore.js';
import './list.js';
import './detail.js';
import './decisions.js';
import './verify.js';
import './pack.js';

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
if (!location.hash.includes('empty')) loadSampleQueue();
