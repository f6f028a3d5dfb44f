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
