// Sending review decisions to a Lians server: POST /v1/admissions/{id}/resolve
// for each decision, one at a time, with each outcome classified. No DOM:
// shared by the page (decisions.js) and importable from Node for tests.

import { isUuid } from './queue.js';

/** Outcome codes, in the order the page explains them. */
export const OUTCOMES = {
  approved: 'approved: the memory was created',
  rejected: 'rejected',
  conflict: 'already resolved (by someone else, or an earlier submit)',
  unauthorized: 'the API key was refused',
  forbidden: 'the API key lacks the admin scope',
  not_found: 'no such pending item on this server',
  http_error: 'the server answered with an error',
  network: 'network error: no answer (server down, CORS, or the page\'s Content-Security-Policy)',
};

/** The server's `detail` (FastAPI) or the start of the body text. */
function detailOf(text) {
  try {
    const d = JSON.parse(text)?.detail;
    if (typeof d === 'string') return d;
    if (d !== undefined) return JSON.stringify(d).slice(0, 300);
  } catch { /* not JSON */ }
  return String(text ?? '').slice(0, 300);
}

/** Classify one resolve answer: {outcome, status, memory_id?, detail?}. */
export function classifyResolve(status, text) {
  if (status === 200 || status === 201) {
    let body = null;
    try { body = JSON.parse(text); } catch { /* below */ }
    if (body?.status === 'approved') return { outcome: 'approved', status, memory_id: typeof body.memory_id === 'string' ? body.memory_id : null };
    if (body?.status === 'rejected') return { outcome: 'rejected', status };
    return { outcome: 'http_error', status, detail: `unexpected answer: ${String(text).slice(0, 300)}` };
  }
  const byStatus = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict' };
  return { outcome: byStatus[status] ?? 'http_error', status, detail: detailOf(text) };
}

/** `${base}/v1/admissions/${id}/resolve` for an http(s) base URL; throws on a bad one. */
export function resolveUrl(base, id) {
  const u = new URL(base);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('use an http(s) URL');
  if (!isUuid(id)) throw new Error(`not a UUID: ${id}`);
  return new URL(`v1/admissions/${id}/resolve`, base.endsWith('/') ? base : `${base}/`);
}

/**
 * Send each decision ({pending_id, body: {action, note}}, as buildDecisionExport
 * makes them) in order. onOutcome(entry, result) is called after each; resolves
 * to the list of {entry, result}. Never throws for a failed item.
 */
export async function submitDecisions(entries, { base, key, fetchImpl = fetch, onOutcome = () => {} }) {
  const out = [];
  for (const entry of entries) {
    let result;
    try {
      const r = await fetchImpl(resolveUrl(base, entry.pending_id), {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(entry.body),
        credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer', redirect: 'error',
      });
      result = classifyResolve(r.status, await r.text());
    } catch (e) {
      result = { outcome: 'network', status: null, detail: String(e?.message ?? e) };
    }
    out.push({ entry, result });
    onOutcome(entry, result);
  }
  return out;
}
