// Verify tab → "Audit scores": re-derive the server's scores from a recall
// response body with the package's auditRecall() and show, per result, the
// bound and re-derived values side by side, the retrieval-score interval as
// a small bar, and the findings. DOM-free helpers are exported for tests.
//
// Everything from the response is untrusted: it reaches the DOM only as
// text through dom.js (no HTML path), and bar geometry goes through CSSOM.

import { h, replace } from './dom.js';
import * as lians from './lians.js';
import { snippetOf } from './queue.js';

export const PROVES_LINE =
  'An audit proves that the server applied its published scoring rules to what it returned (components, gates, ' +
  'reasons and, for a retrieval score in the interval shown, relevance, quality, the 0.8/0.2 blend, fusion and rank ' +
  'calibration); it cannot check the retrieval score itself, the MMR and graph objectives, or that better candidates ' +
  'were not left out.';

const GROUPS = [
  ['Pairing', (c) => c === 'pairing' || c === 'score_breakdown'],
  ['Components', (c) => /_score$/.test(c) && !['relevance_score', 'quality_score'].includes(c)],
  ['Gates', (c) => /eligible$/.test(c)],
  ['Reasons and policy', (c) => ['reasons', 'weights', 'reference_time', 'purpose', 'scoring_policy_version', 'scoring_limits'].includes(c)],
  ['Retrieval-dependent', (c) => ['relevance_score', 'quality_score', 'blend'].includes(c)],
  ['Fusion and stages', () => true],
];

/** The group a check belongs to (for the table's row headers). */
export function groupOf(check) {
  const name = String(check?.check ?? '');
  return GROUPS.find(([, test]) => test(name))[0];
}

/** A value as short display text (numbers and strings as they are, JSON for the rest). */
export function shortValue(v, max = 90) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** "0.305825 – 0.305826" for an interval (6 decimals, rounded outward), or null. */
export function intervalText(i) {
  if (!Array.isArray(i) || i.length !== 2 || !i.every((x) => typeof x === 'number' && Number.isFinite(x))) return null;
  const lo = Math.floor(i[0] * 1e6) / 1e6;
  const hi = Math.ceil(i[1] * 1e6) / 1e6;
  return `${lo.toFixed(6)} – ${hi.toFixed(6)}`;
}

/** Bar geometry in percent of [0, 1] for an interval: {left, width} (at least visible). */
export function intervalGeometry(i) {
  if (intervalText(i) === null) return null;
  const lo = Math.max(0, Math.min(1, i[0]));
  const hi = Math.max(lo, Math.min(1, i[1]));
  return { left: lo * 100, width: Math.max((hi - lo) * 100, 0.6) };
}

function intervalBar(i, label) {
  const g = intervalGeometry(i);
  if (!g) return null;
  const mark = h('span', { class: 'ibar-mark' });
  mark.style.left = `${Math.min(g.left, 100 - g.width)}%`; // CSSOM, allowed by style-src 'self'
  mark.style.width = `${g.width}%`;
  return h('div', { class: 'ibar', role: 'img', 'aria-label': `${label}: ${intervalText(i)} on a 0 to 1 scale` }, mark);
}

function status(s) {
  const st = s === 'passed' || s === 'failed' ? s : 'skipped';
  return h('span', { class: `st ${st}` }, st === 'passed' ? '✓' : st === 'failed' ? '✕' : '–', h('span', { class: 'visually-hidden' }, ` ${st}`));
}

function resultCard(r, names) {
  const checks = Array.isArray(r?.checks) ? r.checks : [];
  const failed = checks.filter((c) => c?.status === 'failed');
  const ok = r?.consistent === true;
  const interval = intervalText(r?.retrieval_score);
  const rows = [];
  let group = null;
  for (const c of checks) {
    const g = groupOf(c);
    if (g !== group) {
      group = g;
      rows.push(h('tr', { class: 'group' }, h('th', { scope: 'rowgroup', colspan: '5' }, g)));
    }
    rows.push(h('tr', { dataset: { check: String(c?.check ?? ''), status: String(c?.status ?? ''), code: String(c?.code ?? '') } },
      h('td', null, status(c?.status)),
      h('th', { scope: 'row' }, String(c?.check ?? ''), c?.status === 'failed' ? h('code', { class: 'code' }, String(c?.code ?? '')) : null),
      h('td', { class: 'num', title: shortValue(c?.bound, 2000) }, shortValue(c?.bound)),
      h('td', { class: 'num', title: shortValue(c?.rederived, 2000) }, shortValue(c?.rederived)),
      h('td', null, intervalText(c?.interval) ? [intervalBar(c.interval, `${c.check} interval`), h('small', null, intervalText(c.interval))] : (c?.message ? h('small', { class: 'muted' }, String(c.message)) : null))));
  }
  return h('details', { class: `audit-result ${ok ? 'ok' : 'bad'}`, open: !ok || null, dataset: { rank: String(r?.rank ?? ''), consistent: String(ok) } },
    h('summary', null,
      h('span', { class: `st ${ok ? 'passed' : 'failed'}` }, ok ? '✓' : '✕'),
      ` #${shortValue(r?.rank)} `, h('code', null, shortValue(r?.id, 40)),
      names?.get(r?.id) ? h('span', { class: 'muted', dataset: { snippet: '' } }, ` “${names.get(r.id)}”`) : null,
      ok ? ' consistent' : ` ${failed.length} finding${failed.length === 1 ? '' : 's'}`,
      interval ? h('small', { class: 'muted mono' }, ` · retrieval score ${interval}`) : null,
      r?.query_variant != null ? h('small', { class: 'muted' }, ` · scored with query_variants[${shortValue(r.query_variant)}]`) : null),
    h('div', { class: 'retrieval' },
      h('span', null, 'Retrieval score the server must have used: '),
      interval ? [h('strong', { class: 'mono' }, interval), intervalBar(r.retrieval_score, 'retrieval score')] : h('strong', null, 'none consistent')),
    h('table', { class: 'checks audit' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, ''), h('th', { scope: 'col' }, 'Check'), h('th', { scope: 'col' }, 'Bound (server)'),
        h('th', { scope: 'col' }, 'Re-derived (client)'), h('th', { scope: 'col' }, 'Interval / detail'))),
      h('tbody', null, ...rows)));
}

/** id → a content snippet, from the response's memories (to name each result next to its id). */
export function namesFrom(wireText) {
  const names = new Map();
  try {
    const mems = JSON.parse(wireText)?.memories;
    if (Array.isArray(mems)) for (const m of mems) if (typeof m?.id === 'string') names.set(m.id, snippetOf(m.content, 60));
  } catch { /* the audit reports why */ }
  return names;
}

/** Render an audit report into `out`; `names` (optional) maps result ids to content snippets. */
export function renderAudit(out, report, names = null) {
  const ok = report?.consistent === true;
  const results = Array.isArray(report?.results) ? report.results : [];
  const failures = Array.isArray(report?.failures) ? report.failures : [];
  const top = (Array.isArray(report?.checks) ? report.checks : []).filter((c) => c?.status === 'failed');
  const cannot = Array.isArray(report?.cannot_audit) ? report.cannot_audit : [];
  replace(out,
    h('div', { class: `verdict ${ok ? 'ok' : 'bad'}`, dataset: { consistent: String(ok) } },
      h('span', { 'aria-hidden': 'true' }, ok ? '✓' : '✕'), `Scores: ${ok ? 'consistent with the published rules' : 'INCONSISTENT'}`),
    h('p', { class: 'muted' }, `${results.length} result${results.length === 1 ? '' : 's'} re-derived · ${results.filter((r) => r?.consistent === true).length} consistent`,
      report?.query_source === 'query_variants/0' ? ' · query taken from query_variants[0] (it hashes to the receipt\'s query_sha256)' : ''),
    failures.length ? h('div', { class: 'callout bad', id: 'audit-failures' }, 'Findings: ', ...failures.flatMap((c, i) => [i ? ', ' : '', h('code', null, String(c))])) : null,
    ...top.map((c) => h('p', { class: 'status bad' }, `${shortValue(c.check)}: ${shortValue(c.message, 300)} (bound ${shortValue(c.bound)}, re-derived ${shortValue(c.rederived)})`)),
    h('div', { class: 'callout', id: 'audit-proves' }, h('strong', null, 'What an audit proves. '), PROVES_LINE,
      cannot.length ? h('details', null, h('summary', null, 'Cannot be audited from a response'), h('ul', null, ...cannot.map((t) => h('li', null, String(t))))) : null),
    ...results.map((r) => resultCard(r, names)));
}

/**
 * Wire the panel: `button` runs the audit of `wire.value` with `query.value`
 * (empty: the response's own query_variants[0], when it hashes) and the
 * request JSON in `request.value` (optional; not JSON: a coded error), `out`
 * shows it; `ready` resolves when the package is loaded; `resets` lists
 * `[element, event]` pairs that replace the text (samples, files, drops).
 */
export function mountAuditPanel({ button, wire, query, request = null, out, ready, resets = [] }) {
  const empty = () => replace(out, h('p', { class: 'empty' }, 'Audit scores re-derives every score of a POST /v1/recall body.'));
  empty();
  // A verdict never outlives the text it is about: typing, a sample, a file or a drop clears it.
  for (const el of [wire, query, request]) el?.addEventListener('input', empty);
  for (const [el, type] of resets) el?.addEventListener(type, empty);
  button.addEventListener('click', async () => {
    if (!(await ready)) { replace(out, h('p', { class: 'status bad' }, 'The lians-score package is not loaded: cannot audit.')); return; }
    const text = wire.value;
    if (!text.trim()) { replace(out, h('p', { class: 'empty' }, 'Paste a recall response first.')); return; }
    let report;
    try {
      // The request the client sent (optional JSON): the receipt's copy of each field must equal it.
      const sent = request && request.value.trim() ? JSON.parse(request.value) : undefined;
      report = lians.auditRecall(text, query.value === '' ? undefined : query.value, sent);
    } catch (e) {
      const info = lians.errorInfo(e);
      replace(out, h('p', { class: 'status bad', dataset: { error: info.code } }, `Cannot audit: ${info.code}${info.path ? ` at ${info.path}` : ''}: ${info.message}`));
      return;
    }
    renderAudit(out, report, namesFrom(text));
  });
}
