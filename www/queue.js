// Review-queue logic with no DOM and no package calls: parsing a loaded
// queue, drift analysis, sorting/filtering and the decision export.
// Shared by the page and the worker; importable from Node for tests.

import { spansAt } from './jsonspan.js';
import { COMPONENTS as CONTRACT_COMPONENTS, RISK_TAGS } from './contract.js';

// [key, label] of each score component, in breakdown order (the wire contract: contract.js).
export const COMPONENTS = CONTRACT_COMPONENTS.map((c) => [c.key, c.label]);
export const COMPONENT_KEYS = COMPONENTS.map(([k]) => k);

// Reason index per component (spec `scoring-admission.md` §5: reasons are in component order).
export const REASON_INDEX = Object.fromEntries(COMPONENT_KEYS.map((k, i) => [k, i]));

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const isUuid = (s) => typeof s === 'string' && UUID_RE.test(s);

export class QueueError extends Error {
  constructor(message, code = 'invalid_queue') { super(message); this.code = code; }
}

/**
 * Parse the text of a queue: a `GET /v1/admissions` response
 * (AdmissionListResult), a richer export in the same shape whose items also
 * carry `importance`/`metadata`, `{items:[…]}`, or a bare array of items.
 * Returns {items:[{raw, obj}], info:{shape, total, status_filter, count, listed}, warnings}
 * (`listed`: the items the text lists, valid or not).
 * `raw` is each item's exact source text, for the scorer.
 */
export function parseQueueText(text) {
  if (typeof text !== 'string' || !text.trim()) throw new QueueError('The queue is empty: paste or load a GET /v1/admissions response.');
  let doc;
  try { doc = JSON.parse(text); } catch (e) {
    throw new QueueError(`Not valid JSON: ${e.message}`, 'malformed_json');
  }
  let path;
  let shape;
  if (Array.isArray(doc)) { path = []; shape = 'array'; }
  else if (doc && typeof doc === 'object' && Array.isArray(doc.pending)) { path = ['pending']; shape = 'AdmissionListResult'; }
  else if (doc && typeof doc === 'object' && Array.isArray(doc.items)) { path = ['items']; shape = 'items'; }
  else throw new QueueError('Expected an AdmissionListResult ({"pending": [...]}), {"items": [...]} or an array of review items.');

  const list = path.length ? doc[path[0]] : doc;
  const spans = spansAt(text, [[...path, '*']]);
  // Duplicate top-level keys: JSON.parse keeps the last one; so do we.
  const last = spans.slice(-list.length);
  const items = [];
  const warnings = [];
  const seen = new Set();
  list.forEach((obj, i) => {
    const where = `item ${i + 1}`;
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) { warnings.push(`${where}: not an object, skipped`); return; }
    if (typeof obj.content !== 'string') { warnings.push(`${where}: no string "content", skipped`); return; }
    if (typeof obj.id !== 'string' || !obj.id) { warnings.push(`${where}: no "id", skipped`); return; }
    if (seen.has(obj.id)) { warnings.push(`${where}: duplicate id ${obj.id}, skipped`); return; }
    seen.add(obj.id);
    if (!isUuid(obj.id)) warnings.push(`${where}: id is not a lowercase UUID; it is excluded from the decision export`);
    items.push({ raw: last[i] ? last[i].text : JSON.stringify(obj), obj });
  });
  const info = {
    shape,
    count: items.length,
    listed: list.length,
    total: shape === 'AdmissionListResult' ? doc.total ?? null : null,
    status_filter: shape === 'AdmissionListResult' ? doc.status_filter ?? null : null,
  };
  return { items, info, warnings };
}

/** Does the item carry the inputs the list route omits? */
export function inputsOf(obj) {
  return { importance: Object.hasOwn(obj, 'importance'), metadata: Object.hasOwn(obj, 'metadata') };
}

/**
 * One line describing the inputs a re-score used (`rescoreReviewItem(...).inputs`):
 * supplied, "worked out from the stored scores", or assumed (write defaults).
 */
export function inputsText(inputs) {
  if (!inputs) return 'importance and metadata unknown (no client re-score)';
  const from = (x) => (x.source === 'inferred' ? 'worked out from the stored scores' : x.source === 'supplied' ? 'supplied' : 'assumed');
  const imp = inputs.importance;
  const v = Number(imp.value.toFixed(6));
  const parts = [
    ...(inputs.event_time?.source === 'inferred' ? [`written at ${inputs.event_time.value} (worked out from the stored scores)`] : []),
    `importance ${imp.bound === 'at_most' ? `≤ ${v} (the content's heuristic; any such value scores the same)` : v} (${from(imp)})`,
    `public metadata ${inputs.public_metadata.value ? 'present' : 'absent'} (${from(inputs.public_metadata)})`,
    `trust claim ${inputs.trust_claim.value ? 'present' : 'absent'} (${from(inputs.trust_claim)})`,
  ];
  return parts.join(' · ');
}

// ---------- scores ----------
/** Which gate zeroed the final score, or null when the breakdown is eligible. */
export function gateOf(b) {
  if (!b || typeof b !== 'object' || b.eligible !== false) return null;
  const reasons = Array.isArray(b.reasons) ? b.reasons : [];
  if (b.safety_eligible === false) return { gate: 'safety', reason: reasons[REASON_INDEX.safety_score] ?? '' };
  if (b.temporal_eligible === false) return { gate: 'temporal', reason: reasons[REASON_INDEX.freshness_score] ?? '' };
  return { gate: 'ineligible', reason: '' };
}

/** Per component: value, weight (0 when the table has none), contribution = value × weight. */
export function componentRows(b) {
  const weights = (b && typeof b.weights === 'object' && b.weights) || {};
  const reasons = (b && Array.isArray(b.reasons)) ? b.reasons : [];
  return COMPONENTS.map(([key, label]) => {
    const value = num(b?.[key]);
    const weight = Object.hasOwn(weights, key) ? num(weights[key]) : null;
    return { key, label, value, weight, contribution: value != null && weight != null ? value * weight : null, reason: reasons[REASON_INDEX[key]] ?? '' };
  });
}

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The drift view of one item: the package's analysis (`rescoreReviewItem(...).drift`,
 * which compares the stored breakdown with the held re-score by key and names the
 * known causes) in the shape the page renders.
 * Returns {status: 'match'|'drift'|'unknown', differs:[…], causes:[{code,text}], explained}.
 */
export function driftView(res) {
  if (!res) return { status: 'unknown', differs: [], causes: [{ code: 'no-rescore', text: 'No client re-score (package not loaded or the item failed to score).' }], explained: true };
  const d = res.drift;
  if (!d) return { status: 'unknown', differs: [], causes: [{ code: 'no-stored', text: 'No stored score_breakdown to compare with.' }], explained: true };
  return { status: d.drifted ? 'drift' : 'match', differs: d.fields, causes: d.causes, explained: d.explained };
}

// ---------- sort & filter ----------
// What a reviewer sorts by: the score approving gives, the risk found, when it was held.
// (The stored final score is 0 for every held item: no sort by it.)
export const SORTS = {
  server: { label: 'Server order (newest first)', cmp: (a, b) => a.index - b.index },
  approved_desc: { label: 'If approved ↓', cmp: (a, b) => cmpNum(b.approvedFinal, a.approvedFinal) || a.index - b.index },
  approved_asc: { label: 'If approved ↑', cmp: (a, b) => cmpNum(a.approvedFinal, b.approvedFinal) || a.index - b.index },
  risk: { label: 'Risk (most severe first)', cmp: (a, b) => riskRank(a.tags) - riskRank(b.tags) || (a.tags[0] ?? '~').localeCompare(b.tags[0] ?? '~') || a.index - b.index },
  created_desc: { label: 'Created ↓ (newest)', cmp: (a, b) => cmpStr(b.created, a.created) || a.index - b.index },
  created_asc: { label: 'Created ↑ (oldest)', cmp: (a, b) => cmpStr(a.created, b.created) || a.index - b.index },
  drift_first: { label: 'Drift first', cmp: (a, b) => driftRank(a) - driftRank(b) || a.index - b.index },
};
const cmpNum = (x, y) => (x ?? -1) - (y ?? -1);
const cmpStr = (x, y) => (x === y ? 0 : x == null ? -1 : y == null ? 1 : x < y ? -1 : 1);
const driftRank = (r) => (r.drift?.status === 'drift' ? (r.drift.explained ? 1 : 0) : 2);
// Most severe first (the contract's severity): an injection or blocked source stays at 0 even if
// approved; then MNPI, PHI, PII, vague. A tag the contract does not name ranks as its family
// (`phi:…`) when it has one, else after every known tag.
const SEVERITY = new Map(RISK_TAGS.map((t) => [t.tag, t.severity]));
const FAMILY_SEVERITY = new Map(RISK_TAGS.filter((t) => t.tag.startsWith(`${t.class}:`)).map((t) => [t.tag.slice(0, t.tag.indexOf(':') + 1), t.severity]));
const LEAST = Math.max(...RISK_TAGS.map((t) => t.severity)) + 1;
/** Rank of an item's most severe risk tag (lower is more severe; untagged last). */
export function riskRank(tags) {
  let best = LEAST;
  for (const t of tags) {
    const family = typeof t === 'string' && t.includes(':') ? t.slice(0, t.indexOf(':') + 1) : null;
    best = Math.min(best, SEVERITY.get(t) ?? (family && FAMILY_SEVERITY.get(family)) ?? LEAST - 0.5);
  }
  return best;
}

/**
 * rows: view rows (see makeRow in list.js). f: {tag, status, decision, decisions, drift, minScore, text}.
 * `decisions` is the page's Map id → 'approve' | 'reject' (decisions live there, not on the rows).
 */
export function filterRows(rows, f) {
  const text = (f.text || '').trim().toLowerCase();
  return rows.filter((r) => {
    if (f.tag && f.tag !== '*' && !(f.tag === '(none)' ? r.tags.length === 0 : r.tags.includes(f.tag))) return false;
    if (f.status && f.status !== '*' && r.status !== f.status) return false;
    if (f.decision && f.decision !== '*' && (f.decisions?.get(r.id) ?? 'undecided') !== f.decision) return false;
    if (f.drift === 'drift' && r.drift?.status !== 'drift') return false;
    if (f.drift === 'unexplained' && !(r.drift?.status === 'drift' && !r.drift.explained)) return false;
    if (f.drift === 'match' && r.drift?.status !== 'match') return false;
    if (f.minScore != null && f.minScore > 0 && !((r.approvedFinal ?? -1) >= f.minScore)) return false;
    if (text && !r.searchText.includes(text)) return false;
    return true;
  });
}

// ---------- decision export ----------
/** POSIX shell single-quoting. */
export const shellQuote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/**
 * decisions: Map id → {action: 'approve'|'reject', note: string|null}.
 * Only UUID ids are exported (ids come from untrusted files and end up in
 * URLs and shell lines). Returns {doc, json, curl, skipped}.
 */
export function buildDecisionExport(decisions, { baseUrl = '', generatedAt = new Date().toISOString() } = {}) {
  const entries = [];
  const skipped = [];
  for (const [id, d] of decisions) {
    if (!isUuid(id)) { skipped.push(id); continue; }
    if (d.action !== 'approve' && d.action !== 'reject') continue;
    const body = { action: d.action, note: d.note === undefined || d.note === '' ? null : d.note };
    entries.push({ pending_id: id, method: 'POST', path: `/v1/admissions/${id}/resolve`, body });
  }
  const doc = {
    format: 'lians-review-decisions.v1',
    generated_at: generatedAt,
    base_url: baseUrl || null,
    count: entries.length,
    decisions: entries,
  };
  const json = JSON.stringify(doc, null, 2) + '\n';
  const lines = [
    '#!/bin/sh',
    '# Review decisions exported by the lians-score review-queue dashboard.',
    '# Set LIANS_URL (e.g. https://lians.example.com) and LIANS_API_KEY (admin scope) first.',
    'set -eu',
    ': "${LIANS_URL:?set LIANS_URL}" "${LIANS_API_KEY:?set LIANS_API_KEY}"',
  ];
  for (const e of entries) {
    lines.push(`curl -sS --fail-with-body -X POST "$LIANS_URL${e.path}" -H "X-API-Key: $LIANS_API_KEY" -H 'Content-Type: application/json' --data-raw ${shellQuote(JSON.stringify(e.body))}`);
  }
  return { doc, json, curl: lines.join('\n') + '\n', skipped };
}

// ---------- why it was held ----------
/** What each admission risk tag names, as a reviewer reads it (the wire contract: contract.js). */
export const TAG_PHRASES = Object.fromEntries(RISK_TAGS.map((t) => [t.tag, t.phrase]));
const fmtScore = (v) => (v == null ? '—' : Number.isInteger(v) ? v.toFixed(1) : String(v));

/** "a, b and c" */
function listPhrase(parts) {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * The detail pane's opening sentence: what was found and what approving does.
 * tags: the item's risk tags; approved: its "If approved" breakdown (or null);
 * status: the item's status. E.g. "Held for an SSN. If approved: 0.7675, eligible for recall."
 */
export function heldSentence(tags, approved, { status = 'pending', error = null, scoring = false } = {}) {
  const named = [...new Set(tags)].map((t) => TAG_PHRASES[t] ?? `the risk tag ${t}`);
  const held = named.length ? `Held for ${listPhrase(named)}.` : 'Held for review.';
  if (status !== 'pending') return `${held} Already ${status}: read-only.`;
  if (error) return `${held} If approved: unknown (the client re-score failed).`;
  if (!approved || typeof approved !== 'object') return `${held} If approved: ${scoring ? 're-scoring…' : 'unknown (no client re-score)'}.`;
  const f = fmtScore(typeof approved.final_score === 'number' ? approved.final_score : null);
  const g = gateOf(approved);
  if (!g) return `${held} If approved: ${f}, eligible for recall.`;
  return `${held} If approved: ${f}, still not recallable (zeroed by the ${g.gate} gate${g.reason ? `: ${g.reason}` : ''}).`;
}

/**
 * Cut `content` into runs for marking: [{text, tags}] in order, covering it
 * exactly, where `tags` lists the risk spans ({tag, start, end, text}; UTF-16
 * offsets, as riskSpans returns them) covering that run (overlaps give a run
 * several tags). A span that is not a well-formed slice of `content` is
 * dropped (never guessed at).
 */
export function markRuns(content, spans) {
  const s = String(content);
  const ok = (Array.isArray(spans) ? spans : []).filter((p) => p && typeof p.tag === 'string'
    && Number.isInteger(p.start) && Number.isInteger(p.end) && p.start >= 0 && p.start < p.end && p.end <= s.length
    && s.slice(p.start, p.end) === p.text);
  if (!ok.length) return [{ text: s, tags: [] }];
  const cuts = [...new Set([0, s.length, ...ok.flatMap((p) => [p.start, p.end])])].sort((a, b) => a - b);
  const runs = [];
  for (let k = 0; k + 1 < cuts.length; k++) {
    const [a, b] = [cuts[k], cuts[k + 1]];
    const tags = [...new Set(ok.filter((p) => p.start <= a && p.end >= b).map((p) => p.tag))];
    const last = runs.at(-1);
    if (last && !tags.length && !last.tags.length) last.text += s.slice(a, b);
    else runs.push({ text: s.slice(a, b), tags });
  }
  return runs;
}

/**
 * The detector's spans as the page marks them: a card number's match, as the
 * engine's `finditer` over `\b(?:\d[ -]?){13,16}\b` returns it, ends in the
 * separator after the last digit when a word follows ("4111 1111 1111 1111 "):
 * the mark covers the digits only. Other spans are kept as they are.
 */
export function markSpans(spans) {
  return (Array.isArray(spans) ? spans : []).map((p) => {
    if (p?.tag !== 'pii:credit_card' || typeof p.text !== 'string') return p;
    const text = p.text.replace(/[ -]+$/, '');
    return text === p.text ? p : { ...p, text, end: p.start + text.length };
  });
}

/** A short, single-line snippet of an item's content, to name it next to its id. */
export function snippetOf(content, max = 80) {
  if (typeof content !== 'string') return '';
  const one = content.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}
