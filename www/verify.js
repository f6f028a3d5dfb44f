// The "Verify receipt" tab: a recall or context response body (raw text),
// plus whatever plaintext the reviewer also holds.
import { SAMPLE, fetchText, fillGuard } from './state.js';
import { h, replace, $ } from './dom.js';
import * as lians from './lians.js';
import { spansAt } from './jsonspan.js';
import { readFileInto, makeDropZone } from './files.js';
import { mountAuditPanel } from './audit-view.js';
import { renderReport } from './report.js';

const v = {
  wire: $('#v-wire'), query: $('#v-query'), expected: $('#v-expected'), contents: $('#v-contents'),
  ncontents: $('#v-ncontents'), nmeta: $('#v-nmeta'), context: $('#v-context'), recall: $('#v-recall'), out: $('#v-result'),
  privacy: $('#v-privacy'),
};
const NEIGHBOUR_POS = ['before', 'before_2', 'after', 'after_2'];

function clearGiven() { for (const k of ['query', 'expected', 'contents', 'ncontents', 'nmeta', 'context', 'recall']) v[k].value = ''; }

const verifyFill = fillGuard([v.wire, v.query, v.expected, v.contents, v.ncontents, v.nmeta, v.context, v.recall]);

// The sample arrives asynchronously: until then the previous verdict is
// replaced by "Loading…" (so it cannot be taken for the sample's), and if the
// user edits the form meanwhile the sample is dropped, never written over
// the edit.
async function loadVerifySample(which) {
  const ticket = verifyFill();
  replace(v.out, h('p', { class: 'status', dataset: { loading: which } }, `Loading the sample ${which} response…`));
  try {
    const text = await fetchText(which === 'context' ? SAMPLE.context : SAMPLE.recall);
    if (ticket.superseded()) return;
    if (ticket.edited()) { replace(v.out, h('p', { class: 'status' }, 'The sample was not loaded: the form was edited while it was loading.')); return; }
    clearGiven();
    v.wire.value = text;
    v.query.value = which === 'context' ? SAMPLE.contextQuery : SAMPLE.recallQuery;
    fillFromResponse();
    runVerify();
  } catch (e) { if (!ticket.superseded()) replace(v.out, h('p', { class: 'status bad' }, e.message)); }
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
  if (!(await lians.load())) { replace(v.out, h('p', { class: 'status bad' }, 'The lians-score package is not loaded: cannot verify.')); return; }
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
    if (v.privacy.checked) given.privacy_minimal = true;
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
      'A valid result proves integrity, not authorship: the receipt hashes to the pinned value, and the text this response gives you (memory contents, neighbours, the context text, the receipt view) is the text the receipt binds. Anyone can compute a SHA-256, so a hash alone does not show who produced the receipt: compare against a hash you obtained from a trusted place (an audit log), or verify a signed Evidence Pack. Nor does it show that the scores follow the published rules (the score audit checks that). Fields listed under "Not bound by the receipt" are not covered: do not rely on them.',
    ],
    given,
  });
  v.out.scrollIntoView({ block: 'nearest' }); // the verdict in view (below the form on a narrow screen)
  if (report.valid) {
    // The browser's consistency ledger (IndexedDB): alarms when this answer contradicts one verified before.
    let recorded = null;
    try { recorded = await lians.recordVerified(kind, wire, given.query, report); } catch (e) {
      v.out.append(h('p', { class: 'status bad', id: 'v-ledger' }, `Consistency ledger: ${lians.errorInfo(e).message}`));
      return;
    }
    if (recorded === null) return;
    v.out.append(recorded.alarms.length === 0
      ? h('p', { class: 'status ok', id: 'v-ledger' }, 'Consistency ledger (this browser): no contradiction with the answers verified before.')
      : h('div', { id: 'v-ledger' }, h('p', { class: 'status bad' }, `Consistency ledger (this browser): ${recorded.alarms.length} alarm(s): this answer contradicts one verified before.`),
        h('ul', {}, ...recorded.alarms.map((a) => h('li', {}, `${a.invariant} ${a.memory_id ?? ''}: ${a.message}`)))));
  }
}
$('#v-run').addEventListener('click', runVerify);
mountAuditPanel({
  button: $('#v-audit-run'), wire: v.wire, query: v.query, out: $('#v-audit-out'), ready: lians.load(),
  resets: [[$('#v-sample-recall'), 'click'], [$('#v-sample-context'), 'click'], [$('#v-file'), 'change'], [$('#verify-drop'), 'drop']],
});
