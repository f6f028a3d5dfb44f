// Sending review decisions to a Lians server: POST /v1/admissions/{id}/resolve
// for each decision, a few at a time (CONCURRENCY), with each outcome
// classified, and HTTP failures told in plain words. No DOM: shared by the
// page (decisions.js, load.js) and importable from Node for tests.

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
  network: 'no answer could be read (server down, CORS, or the page\'s Content-Security-Policy)',
  timeout: 'no answer in time',
};

/** Short plain names of the outcomes, for counts ("140 approved, 2 server errors"). */
export const OUTCOME_NAMES = {
  approved: ['approved', 'approved'],
  rejected: ['rejected', 'rejected'],
  conflict: ['already resolved', 'already resolved'],
  unauthorized: ['API key refused', 'API key refused'],
  forbidden: ['key without admin scope', 'key without admin scope'],
  not_found: ['not found', 'not found'],
  http_error: ['server error', 'server errors'],
  network: ['without an answer', 'without an answer'],
  timeout: ['timed out', 'timed out'],
};
export const outcomeName = (code, n) => (OUTCOME_NAMES[code] ?? [code, code])[n === 1 ? 0 : 1];

/** How many requests a submit has in flight at most. */
export const CONCURRENCY = 6;

const STATUS_TEXT = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout',
  409: 'Conflict', 413: 'Payload Too Large', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** The server's own words, when it gave them as JSON (`{"detail": "…"}`): never an HTML page. */
function plainDetail(text) {
  try {
    const d = JSON.parse(text)?.detail;
    if (typeof d === 'string' && d.length <= 200 && !/[<>]/.test(d)) return d;
  } catch { /* not JSON: say nothing of it */ }
  return '';
}

/**
 * One sentence for an HTTP failure (status ≥ 400 or an unexpected answer): what
 * it means for the reviewer, its status and status text, and the server's own
 * words only when it sent them as a JSON `detail` (a proxy's HTML page is never
 * shown).
 */
export function httpProblem(status, statusText, text, { what = 'The request' } = {}) {
  const st = `HTTP ${status}${(statusText || STATUS_TEXT[status]) ? ` ${statusText || STATUS_TEXT[status]}` : ''}`;
  const said = plainDetail(text);
  const tail = said ? ` The server says: “${said}”.` : '';
  if (status === 401) return `API key refused (${st}): check the key, or make a new one.${tail}`;
  if (status === 403) return `The API key may not do this (${st}): reviewing needs a key with the admin scope.${tail}`;
  if (status === 404) return `Not found (${st}): check the base URL (the server's address, without /v1).${tail}`;
  if (status === 409) return `Already resolved (${st}): someone else, or an earlier submit, decided it.${tail}`;
  if (status === 429) return `Too many requests (${st}): wait a moment and try again.${tail}`;
  if (status >= 500) return `The server failed (${st}): try again later, or look at the server's log.${tail}`;
  return `${what} was refused (${st}).${tail}`;
}

/** Classify one resolve answer: {outcome, status, memory_id?, detail?} (detail: plain words, httpProblem). */
export function classifyResolve(status, text, statusText = '') {
  if (status === 200 || status === 201) {
    let body = null;
    try { body = JSON.parse(text); } catch { /* below */ }
    if (body?.status === 'approved') return { outcome: 'approved', status, memory_id: typeof body.memory_id === 'string' ? body.memory_id : null };
    if (body?.status === 'rejected') return { outcome: 'rejected', status };
    return { outcome: 'http_error', status, detail: `HTTP ${status}, but not the answer a Lians server gives (no "status": "approved" or "rejected")` };
  }
  const byStatus = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict' };
  return { outcome: byStatus[status] ?? 'http_error', status, detail: httpProblem(status, statusText, text) };
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
 * makes them), at most `concurrency` at a time, in order of the list.
 * onOutcome(entry, result, done, index) is called after each (in the order answers come); resolves to the list of
 * {entry, result} in the entries' order. A request not answered within
 * `timeoutMs` is given up (outcome `timeout`). Never throws for a failed item.
 */
export async function submitDecisions(entries, { base, key, fetchImpl = fetch, onOutcome = () => {}, concurrency = CONCURRENCY, timeoutMs = 30000 }) {
  const out = new Array(entries.length);
  let next = 0;
  let done = 0;
  async function one(entry) {
    const signal = typeof AbortSignal !== 'undefined' && AbortSignal.timeout ? AbortSignal.timeout(timeoutMs) : undefined;
    try {
      const r = await fetchImpl(resolveUrl(base, entry.pending_id), {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(entry.body),
        credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer', redirect: 'error', signal,
      });
      return classifyResolve(r.status, await r.text(), r.statusText);
    } catch (e) {
      if (e?.name === 'TimeoutError' || signal?.aborted) return { outcome: 'timeout', status: null, detail: `no answer within ${Math.round(timeoutMs / 1000)} s` };
      return { outcome: 'network', status: null, detail: String(e?.message ?? e) };
    }
  }
  async function worker() {
    while (next < entries.length) {
      const k = next++;
      const result = await one(entries[k]);
      out[k] = { entry: entries[k], result };
      done++;
      onOutcome(entries[k], result, done, k);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, entries.length)) }, worker));
  return out;
}
