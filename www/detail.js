// The detail pane of the selected item: why it was held (one sentence, and
// the detected text marked in the content), the decision (pending items
// only: a resolved one is read-only), inputs, drift, score table.
import { state, ui, numOrNull, rowById, decide, setNote, isOpen } from './state.js';
import { h, patch, setText, $ } from './dom.js';
import { componentRows, gateOf, inputsText, heldSentence, markRuns } from './queue.js';
import { chip, fmt, tagClass } from './format.js';
import * as lians from './lians.js';

const detail = $('#detail');
// The decision buttons of the pending item on screen (detailDecision patches them in place).
let shown = null;
// The item the pane last drew (its content box is replaced, not patched, for another item: its scroll
// starts at the top).
let drawnId = null;

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

/** The content as text nodes, each detected span in a <mark data-risk-tag> (lians.riskSpans; never HTML). */
function contentEl(content) {
  const spans = lians.riskSpans(content);
  const pre = h('pre', { class: 'content', tabindex: '0', 'aria-label': 'Memory content (shown as plain text; detected sensitive text is marked)', dataset: { marks: spans ? 'on' : 'unavailable' } });
  for (const run of markRuns(content, spans ?? [])) {
    if (!run.tags.length) { pre.appendChild(document.createTextNode(run.text)); continue; }
    const m = document.createElement('mark');
    m.className = `risk ${tagClass(run.tags[0])}`;
    m.dataset.riskTag = run.tags.join(' ');
    m.title = run.tags.join(', ');
    m.textContent = run.text;
    pre.appendChild(m);
  }
  return pre;
}

function renderDetail() {
  const r = state.selectedId != null ? rowById(state.selectedId) : null;
  shown = null;
  if (!r) { drawnId = null; patch(detail, [h('p', { class: 'empty' }, state.rows.length ? 'Select an item.' : 'Load a queue to start.')]); return; }
  const o = r.obj;
  const open = isOpen(r);
  const decision = state.decisions.get(r.id);

  const kv = (k, v) => [h('dt', null, k), h('dd', null, v)];
  // A missing value is "—" (never the word null).
  const str = (v) => (v == null || v === '' ? h('span', { class: 'muted' }, '—') : typeof v === 'string' ? v : JSON.stringify(v));

  let decide_;
  if (open) {
    const noteInput = h('input', { type: 'text', id: 'note-input', placeholder: 'optional note (resolver_note)', 'aria-label': 'Decision note', autocomplete: 'off' });
    noteInput.value = state.notes.get(r.id) ?? '';
    // The pane is patched in place for the next item (dom.js patch): these listeners act on the item
    // shown when they run, never on the one they were made for.
    noteInput.addEventListener('input', (e) => { if (shown) { setNote(shown.id, e.currentTarget.value); ui.renderDecisions(); } });
    // A click toggles the decision as it is then (the buttons outlive a decision: detailDecision).
    const toggle = (action) => () => { if (shown) decide(shown.id, state.decisions.get(shown.id) === action ? null : action); };
    const approve = h('button', { type: 'button', class: 'approve', 'aria-pressed': String(decision === 'approve'), on: { click: toggle('approve') } }, '✓ Approve (a)');
    const reject = h('button', { type: 'button', class: 'reject', 'aria-pressed': String(decision === 'reject'), on: { click: toggle('reject') } }, '✕ Reject (r)');
    decide_ = h('div', { class: 'decide', role: 'group', 'aria-label': 'Decision' }, approve, reject, noteInput);
  } else {
    const note = state.notes.get(r.id);
    decide_ = h('div', { class: 'resolved', dataset: { readonly: 'true' } },
      h('strong', null, `Resolved: ${r.status}`), ' (read-only: no decision can be sent)',
      h('dl', { class: 'kv' },
        kv('resolved_at', str(o.resolved_at)),
        kv('memory_id', o.memory_id ? h('span', { class: 'mono' }, String(o.memory_id)) : str(null)),
        kv('note', note ? note : h('span', { class: 'muted' }, '— (the list route does not return the resolver note)'))));
  }

  const sentence = heldSentence(r.tags, r.res?.error ? null : r.res?.approved ?? null, { status: r.status, error: r.res?.error ?? null, scoring: state.scoring });
  const other = drawnId !== r.id;
  drawnId = r.id;
  patch(detail, [
    h('p', { class: `held-why${open ? '' : ' done'}`, id: 'held-why' }, sentence),
    h('div', { class: 'detail-head' },
      h('div', null,
        h('h2', null, 'Review item'),
        h('div', { class: 'ids' }, 'id ', h('span', { class: 'mono' }, String(o.id)))),
      decide_),
    h('h3', null, 'Content'),
    contentEl(String(o.content)),
    h('dl', { class: 'kv' },
      kv('source', str(o.source)),
      kv('risk tags', r.tags.length ? h('span', null, ...r.tags.flatMap((t) => [chip(t), ' '])) : h('span', { class: 'muted' }, 'none')),
      kv('admission reasons', Array.isArray(o.reasons) && o.reasons.length ? h('ul', { class: 'plain' }, ...o.reasons.map((x) => h('li', null, String(x)))) : h('span', { class: 'muted' }, 'none')),
      kv('status', str(o.status)),
      kv('event_time', str(o.event_time)),
      kv('created_at', str(o.created_at)),
      kv('namespace / agent', `${o.namespace ?? '—'} / ${o.agent_id ?? '—'}`),
      kv('inputs', h('span', { dataset: { inputs: r.res?.inputs ? 'known' : 'unknown' } }, inputsText(r.res?.inputs))),
    ),
    renderDriftBox(r),
    h('h3', null, 'Scores'),
    renderScoreTable(r),
  ], (a, b) => a === table?.wrap || b === table?.wrap || (other && a.tagName === 'PRE'));
  if (open) shown = { id: r.id, approve: $('.decide button.approve', detail), reject: $('.decide button.reject', detail) };
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

// The score table is built once and then updated in place for each item (same nodes; only the texts and
// attributes that differ are set), so showing another item lays out and repaints what changed in it.
let table = null;

function scoreTable() {
  const thead = h('thead', null, h('tr', null,
    h('th', { scope: 'col' }, 'Component', h('small', null, 'weight')),
    ...COLUMNS.map((c) => h('th', { scope: 'col' }, c.label, h('small', null, c.sub)))));
  const body = h('tbody');
  const td = (col, cls) => h('td', { class: cls, dataset: { col: col.key, label: col.label } });
  const comps = componentRows({}).map((base) => {
    const weight = h('small');
    const why = h('span', { class: 'why' });
    const tr = h('tr', { dataset: { component: base.key } }, h('th', { scope: 'row' }, base.label, weight));
    const cells = COLUMNS.map((col) => {
      const el = td(col);
      const fill = h('span');
      const val = h('span', { class: 'val' });
      const contrib = h('span', { class: 'contrib', title: 'contribution = value × weight (from the rounded value)' });
      const cwhy = h('span', { class: 'why' });
      const cell = h('div', { class: 'cell' }, h('div', { class: `bar ${col.bar}`, 'aria-hidden': 'true' }, fill), val, contrib);
      tr.appendChild(el);
      return { el, cell, fill, val, contrib, why: cwhy };
    });
    body.appendChild(tr);
    return { th: tr.firstChild, weight, why, cells };
  });
  const finalTr = h('tr', { class: 'final' }, h('th', { scope: 'row' }, 'Final score', h('small', null, 'gated, rounded')));
  const finals = COLUMNS.map((col) => {
    const el = td(col);
    const val = h('span', { class: 'final-val' });
    const gate = h('span');
    finalTr.appendChild(el);
    return { el, val, gate };
  });
  body.appendChild(finalTr);
  const meta = (label) => {
    const tr = h('tr', null, h('th', { scope: 'row' }, label));
    const cells = COLUMNS.map((col) => tr.appendChild(td(col, 'mono')));
    body.appendChild(tr);
    return cells;
  };
  const metas = [['reference_time', meta('reference_time')], ['scoring_policy_version', meta('policy')]];
  const wrap = h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Score components' },
    h('table', { class: 'scores' }, h('caption', { class: 'visually-hidden' }, 'Score components: stored versus client re-scores'), thead, body));
  return { wrap, comps, finals, metas };
}

const setAttr = (el, name, v) => { if (v == null) { if (el.hasAttribute(name)) el.removeAttribute(name); } else if (el.getAttribute(name) !== v) el.setAttribute(name, v); };
const setData = (el, k, v) => { if (v == null) { if (k in el.dataset) delete el.dataset[k]; } else if (el.dataset[k] !== v) el.dataset[k] = v; };
/** el's children become exactly `kids` (kept nodes stay where they are). */
const setKids = (el, kids) => { if (kids.length !== el.childNodes.length || kids.some((k, i) => el.childNodes[i] !== k)) el.replaceChildren(...kids); };
const dash = (el) => { setAttr(el, 'class', 'muted'); setData(el, 'value', null); setData(el, 'final', null); if (el.childNodes.length !== 1 || el.firstChild.nodeType !== Node.TEXT_NODE) el.replaceChildren('—'); else setText(el, '—'); };

function renderScoreTable(r) {
  table ??= scoreTable();
  const bds = COLUMNS.map((c) => breakdownFor(r, c.key));
  const rowsBy = bds.map((b) => (b ? componentRows(b) : null));
  const heldRows = rowsBy[1];
  const refWeights = bds.find((b) => b?.weights)?.weights ?? {};
  const firstRows = rowsBy.find(Boolean);
  componentRows({ weights: refWeights }).forEach((base, ci) => {
    const comp = table.comps[ci];
    const headReason = firstRows ? firstRows[ci].reason : '';
    setText(comp.weight, base.weight == null ? 'not weighted' : `weight ${base.weight}`);
    setText(comp.why, headReason);
    setKids(comp.th, headReason ? [comp.th.firstChild, comp.weight, comp.why] : [comp.th.firstChild, comp.weight]);
    rowsBy.forEach((rows, colIdx) => {
      const p = comp.cells[colIdx];
      if (!rows) { dash(p.el); return; }
      const c = rows[ci];
      const differs = colIdx === 0 && heldRows && heldRows[ci].value !== c.value;
      setAttr(p.el, 'class', differs ? 'differs' : null);
      setData(p.el, 'value', String(c.value ?? ''));
      setKids(p.el, [p.cell]);
      const width = `${Math.max(0, Math.min(1, c.value ?? 0)) * 100}%`;
      if (p.fill.style.width !== width) p.fill.style.width = width; // CSSOM, allowed by style-src 'self'
      setText(p.val, fmt(c.value));
      setText(p.contrib, c.weight == null ? '' : `+${(c.contribution ?? 0).toFixed(4)}`);
      const why = c.reason && c.reason !== headReason;
      if (why) setText(p.why, c.reason);
      setKids(p.cell, why ? [p.cell.firstChild, p.val, p.contrib, p.why] : [p.cell.firstChild, p.val, p.contrib]);
    });
  });
  bds.forEach((b, colIdx) => {
    const p = table.finals[colIdx];
    if (!b) { dash(p.el); return; }
    const g = gateOf(b);
    setAttr(p.el, 'class', null);
    setData(p.el, 'final', String(b.final_score));
    setText(p.val, fmt(numOrNull(b.final_score)));
    setAttr(p.gate, 'class', g ? 'gate' : 'gate none');
    setText(p.gate, g ? `zeroed by the ${g.gate} gate${g.reason ? `: ${g.reason}` : ''}` : 'eligible');
    setKids(p.el, [p.val, p.gate]);
  });
  for (const [key, cells] of table.metas) {
    bds.forEach((b, colIdx) => { setText(cells[colIdx], b ? String(b[key] ?? '—') : '—'); });
  }
  return table.wrap;
}

/**
 * A decision changed (a key, a button, bulk): if the detail shows the selected
 * item, only its two buttons change (aria-pressed; nothing else in the pane
 * depends on the decision, and the note being typed stays as it is);
 * otherwise the selection moved and the pane is drawn anew.
 */
function detailDecision() {
  if (!shown || shown.id !== state.selectedId || !shown.approve.isConnected) { renderDetail(); return; }
  const d = state.decisions.get(shown.id);
  shown.approve.setAttribute('aria-pressed', String(d === 'approve'));
  shown.reject.setAttribute('aria-pressed', String(d === 'reject'));
}

// Entry points (app.js puts them in state.js's `ui`).
export { renderDetail, detailDecision };
