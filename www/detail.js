// The detail pane of the selected item: why it was held (one sentence, and
// the detected text marked in the content), the decision (pending items
// only: a resolved one is read-only), inputs, drift, score table.
import { state, ui, numOrNull, rowById, decide, setNote, isOpen } from './state.js';
import { h, patch, setText, $ } from './dom.js';
import { componentRows, gateOf, inputsText, heldSentence, markRuns, markSpans } from './queue.js';
import { chip, fmt, tagClass } from './format.js';
import { controlRuns, countControls, showControls } from './controls.js';
import * as lians from './lians.js';

const detail = $('#detail');
const tapToMove = matchMedia('(max-width: 900px), (pointer: coarse)');
// The decision buttons of the pending item on screen (detailDecision patches them in place).
let shown = null;
// The item the pane last drew (its content box is replaced, not patched, for another item: its scroll
// starts at the top).
let drawnId = null;

// Plain words on the page; the wire field each stands for in its tooltip.
const COLUMNS = [
  { key: 'stored', label: 'Stored', sub: 'as the server stored it', field: 'score_breakdown', bar: 'stored' },
  { key: 'held', label: 'Held', sub: 'recomputed here, while held', field: 'client re-score with safety review_needed', bar: 'held' },
  { key: 'approved', label: 'If approved', sub: 'recomputed here, once approved', field: 'client re-score with safety approved, the queued risk tags', bar: 'approved' },
  { key: 'trusted_review', label: 'Trusted review', sub: 'approved, tags found afresh', field: 'client re-score with safety approved, risk tags detected again', bar: 'trusted' },
];

function breakdownFor(r, col) {
  if (col === 'stored') return r.stored;
  return r.res?.[col] ?? null;
}

/** Text nodes of `text`, each invisible or direction control as a marked placeholder (controls.js). */
function appendShown(parent, text) {
  for (const run of controlRuns(text)) {
    if (!run.control) { parent.appendChild(document.createTextNode(run.text)); continue; }
    const c = document.createElement('span');
    c.className = 'ctl';
    c.dataset.control = run.control.code;
    c.title = `${run.control.code} ${run.control.name}: an invisible character, shown here in its place`;
    c.textContent = `⟨${run.control.short}⟩`;
    parent.appendChild(c);
  }
}

/** The content as text nodes, each detected span in a <mark data-risk-tag> (lians.riskSpans; never HTML). */
function contentEl(content, spans) {
  const pre = h('pre', { class: 'content', tabindex: '0', 'aria-label': 'Memory content (shown as plain text; detected sensitive text is marked)', dataset: { marks: spans ? 'on' : 'unavailable' } });
  for (const run of markRuns(content, markSpans(spans ?? []))) {
    if (!run.tags.length) { appendShown(pre, run.text); continue; }
    const m = document.createElement('mark');
    m.className = `risk ${tagClass(run.tags[0])}`;
    m.dataset.riskTag = run.tags.join(' ');
    m.title = run.tags.join(', ');
    appendShown(m, run.text);
    pre.appendChild(m);
  }
  return pre;
}

function controlsCallout(content) {
  const n = countControls(content);
  if (!n) return null;
  return h('div', { class: 'callout bad', id: 'controls-warning', role: 'note' },
    h('strong', null, `${n} invisible or text-direction character${n === 1 ? '' : 's'} in this text. `),
    'Each is shown as a marked placeholder such as ⟨RLO⟩ (right-to-left override), in its place: the text below reads in the order it is stored, not as it would display elsewhere. Such characters can disguise what a text says (a file name, an address).');
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
    // The note belongs to the item it was drawn for (data-for; the pane is patched in place for the
    // next item, dom.js patch, and data-for with it): n focuses it, Enter keeps it and returns to the
    // list, Escape puts back what it held and returns to the list.
    const noteInput = h('input', { type: 'text', id: 'note-input', placeholder: 'optional note (n)', title: 'Sent with the decision as resolver_note', 'aria-label': 'Decision note (sent with the decision)', autocomplete: 'off', dataset: { for: r.id } });
    noteInput.value = state.notes.get(r.id) ?? '';
    // A click acts on the item shown when it runs (the buttons outlive a decision: detailDecision). Side
    // by side with the list it toggles the decision in place (a and r move on); on a phone, where the
    // detail is all there is on screen, a tap decides and moves on as the keys do.
    const act = (action) => () => {
      if (!shown) return;
      if (!tapToMove.matches) { decide(shown.id, state.decisions.get(shown.id) === action ? null : action); return; }
      ui.decideAndNext(action);
      detail.scrollIntoView({ block: 'start' });
    };
    const approve = h('button', { type: 'button', class: 'approve', 'aria-pressed': String(decision === 'approve'), on: { click: act('approve') } }, '✓ Approve', h('span', { class: 'key-hint' }, ' (a)'));
    const reject = h('button', { type: 'button', class: 'reject', 'aria-pressed': String(decision === 'reject'), on: { click: act('reject') } }, '✕ Reject', h('span', { class: 'key-hint' }, ' (r)'));
    decide_ = h('div', { class: 'decide', role: 'group', 'aria-label': 'Decision' }, approve, reject, noteInput);
  } else {
    const note = state.notes.get(r.id);
    decide_ = h('div', { class: 'resolved', dataset: { readonly: 'true' } },
      h('strong', null, `Resolved: ${r.status}`), ' (read-only: no decision can be sent)',
      h('dl', { class: 'kv' },
        kv(h('span', { title: 'resolved_at' }, 'resolved at'), str(o.resolved_at)),
        kv(h('span', { title: 'memory_id' }, 'memory'), o.memory_id ? h('span', { class: 'mono' }, String(o.memory_id)) : str(null)),
        kv('note', note ? note : h('span', { class: 'muted' }, '— (the list route does not return the resolver note)'))));
  }

  const spans = lians.riskSpans(String(o.content));
  const likeBtn = open && spans?.length
    ? h('button', { type: 'button', id: 'select-like', class: 'small', title: 'Select every undecided item whose detected text (a card number, an address…) is exactly this one\'s', on: { click: () => { if (shown) ui.checkLike(shown.id); } } }, 'Select all like this')
    : null;
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
    h('div', { class: 'content-head' }, h('h3', null, 'Content'), likeBtn),
    controlsCallout(String(o.content)),
    contentEl(String(o.content), spans),
    h('dl', { class: 'kv' },
      kv('source', typeof o.source === 'string' ? showControls(o.source) : str(o.source)),
      kv('risk tags', r.tags.length ? h('span', null, ...r.tags.flatMap((t) => [chip(t), ' '])) : h('span', { class: 'muted' }, 'none')),
      kv('admission reasons', Array.isArray(o.reasons) && o.reasons.length ? h('ul', { class: 'plain' }, ...o.reasons.map((x) => h('li', null, String(x)))) : h('span', { class: 'muted' }, 'none')),
      kv('status', str(o.status)),
      kv(h('span', { title: 'event_time' }, 'happened at'), str(o.event_time)),
      kv(h('span', { title: 'created_at' }, 'held at'), str(o.created_at)),
      kv('namespace / agent', `${o.namespace ?? '—'} / ${o.agent_id ?? '—'}`),
      kv('inputs', h('span', { dataset: { inputs: r.res?.inputs ? 'known' : 'unknown' } }, inputsText(r.res?.inputs))),
    ),
    renderDriftBox(r),
    h('h3', null, 'Scores'),
    renderScoreTable(r),
  ], (a, b) => a === table?.wrap || b === table?.wrap || (other && a.tagName === 'PRE'));
  if (open) shown = { id: r.id, approve: $('.decide button.approve', detail), reject: $('.decide button.reject', detail) };
}

// The note input (delegated: the pane's nodes are patched in place, their own listeners would be stale).
const list = () => $('#queue-list');
let noteBefore = null; // {id, text}: the note as it was when the input took the focus (Escape puts it back)
detail.addEventListener('focusin', (e) => {
  const t = e.target;
  if (t.id === 'note-input') noteBefore = { id: t.dataset.for, text: state.notes.get(t.dataset.for) ?? '' };
});
detail.addEventListener('input', (e) => {
  const t = e.target;
  if (t.id !== 'note-input' || !t.dataset.for) return;
  setNote(t.dataset.for, t.value);
  ui.renderDecisions();
});
detail.addEventListener('keydown', (e) => {
  const t = e.target;
  if (t.id !== 'note-input') return;
  if (e.key === 'Escape') {
    if (noteBefore && noteBefore.id === t.dataset.for) { t.value = noteBefore.text; setNote(noteBefore.id, noteBefore.text); ui.renderDecisions(); }
  } else if (e.key !== 'Enter') return;
  e.preventDefault();
  e.stopPropagation();
  noteBefore = null;
  list().focus({ preventScroll: true });
  ui.say(e.key === 'Enter' ? 'Note kept: a and r decide this item, the note goes with the decision.' : 'Note left as it was.');
});

function renderDriftBox(r) {
  const d = r.drift;
  if (r.res?.error) {
    return h('div', { class: 'callout bad' }, `Recomputing the score here failed: ${r.res.error.code}${r.res.error.path ? ` at ${r.res.error.path}` : ''}: ${r.res.error.message}`);
  }
  if (!d) return h('div', { class: 'callout' }, state.scoring ? 'Re-scoring…' : 'The score could not be recomputed here: showing the stored scores only.');
  if (d.status === 'match') return h('div', { class: 'callout ok', title: 'held re-score = score_breakdown' }, 'The score recomputed here, as held, equals the stored score exactly.');
  if (d.status === 'unknown') return h('div', { class: 'callout' }, d.causes.map((c) => c.text).join(' '));
  return h('div', { class: `callout ${d.explained ? 'warn' : 'bad'}`, dataset: { drift: d.explained ? 'explained' : 'unexplained' } },
    h('strong', { title: 'score_breakdown vs the client re-score' }, `Drift: ${d.differs.join(', ')} differ${d.differs.length === 1 ? 's' : ''} between the stored scores and the scores recomputed here.`),
    h('ul', null, ...d.causes.map((c) => h('li', { dataset: { cause: c.code } }, c.text))));
}

// The score table is built once and then updated in place for each item (same nodes; only the texts and
// attributes that differ are set), so showing another item lays out and repaints what changed in it.
let table = null;

function scoreTable() {
  const thead = h('thead', null, h('tr', null,
    h('th', { scope: 'col' }, 'Component', h('small', null, 'weight')),
    ...COLUMNS.map((c) => h('th', { scope: 'col', title: c.field }, c.label, h('small', null, c.sub)))));
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
  const meta = (label, field) => {
    const tr = h('tr', null, h('th', { scope: 'row', title: field }, label));
    const cells = COLUMNS.map((col) => tr.appendChild(td(col, 'mono')));
    body.appendChild(tr);
    return cells;
  };
  const metas = [['reference_time', meta('Scored as of', 'reference_time')], ['scoring_policy_version', meta('Scoring policy', 'scoring_policy_version')]];
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
