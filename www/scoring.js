// Batch re-scoring used by the worker and by the main-thread fallback.
import * as lians from './lians.js';

/** Re-score one item; never throws. */
export function scoreOne(item) {
  try {
    const r = lians.rescoreItem(item.raw, item.obj);
    return { held: r.held, approved: r.approved, trusted_review: r.trusted_review, drift: r.drift, inputs: r.inputs, error: null };
  } catch (e) {
    return { held: null, approved: null, trusted_review: null, drift: null, inputs: null, error: lians.errorInfo(e) };
  }
}

/**
 * Score items in chunks, yielding to the event loop between chunks so
 * progress can be painted (main thread) or a newer job seen (worker).
 * `yieldFn` resolves when the next chunk may run (default: setTimeout 0).
 */
export async function scoreBatch(items, { chunk = 20, onChunk, isCancelled = () => false, yieldFn = () => new Promise((r) => setTimeout(r, 0)) }) {
  const total = items.length;
  for (let start = 0; start < total; start += chunk) {
    if (isCancelled()) return false;
    const results = [];
    for (let i = start; i < Math.min(total, start + chunk); i++) results.push({ i, ...scoreOne(items[i]) });
    onChunk(Math.min(total, start + chunk), total, results);
    await yieldFn();
  }
  if (total === 0) onChunk(0, 0, []);
  return true;
}

// ───────────── worker → page: compact results, full ones on demand ─────────────
// The list needs each item's three final scores, its drift and its error; the
// detail pane (one item at a time) and the test snapshot need the full
// breakdowns. A chunk of results therefore crosses as those compact fields
// plus one JSON text of the full results (a string is copied, not walked, so
// the page's main thread does not deserialise 500 × 3 breakdowns it may never
// show); the text is parsed the first time one of its items is opened.
// Scores survive the JSON round trip exactly (finite doubles; -0 would read
// back as 0, which formats the same).

/** Worker side: results [{i, held, approved, trusted_review, drift, inputs, error}] → {results, full}. */
export function packResults(results) {
  const final = (b) => (b && typeof b.final_score === 'number' ? b.final_score : null);
  return {
    results: results.map((r) => ({
      i: r.i, error: r.error, drift: r.drift,
      finals: r.error ? null : { held: final(r.held), approved: final(r.approved), trusted_review: final(r.trusted_review) },
    })),
    full: JSON.stringify(results.map((r) => ({ held: r.held, approved: r.approved, trusted_review: r.trusted_review, inputs: r.inputs }))),
  };
}

/** One item's re-score on the page: the compact fields, and the full ones read from its chunk's text when first used. */
export class Rescore {
  constructor(compact, chunk, k) {
    this.i = compact.i;
    this.error = compact.error;
    this.drift = compact.drift;
    this.finals = compact.finals;
    Object.defineProperty(this, 'full', { value: () => { chunk.parsed ??= JSON.parse(chunk.text); return chunk.parsed[k]; } });
  }

  get held() { return this.error ? null : this.full().held; }
  get approved() { return this.error ? null : this.full().approved; }
  get trusted_review() { return this.error ? null : this.full().trusted_review; }
  get inputs() { return this.error ? null : this.full().inputs; }
}

/** Page side: a worker's {results, full} → Rescore objects. */
export function unpackResults(results, full) {
  const chunk = { text: full, parsed: null };
  return results.map((c, k) => new Rescore(c, chunk, k));
}
