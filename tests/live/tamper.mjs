// Byte-exact edits of raw response text (no re-serialization: everything
// else keeps its spelling), for tampered copies of captured bodies.
import { spansAt } from '../../www/jsonspan.js';

/** Replace the value at `path` (keys/indices) with fn(its exact text). Throws if absent. */
export function tamperAt(text, path, fn) {
  const span = spansAt(text, [path]).pop();
  if (!span) throw new Error(`no value at /${path.join('/')}`);
  const next = fn(span.text);
  if (next === span.text) throw new Error(`tamper at /${path.join('/')} changed nothing`);
  return text.slice(0, span.start) + next + text.slice(span.end);
}

/** A number lexeme with its last digit changed (same spelling otherwise). */
export function bumpNumber(lexeme) {
  const m = /(\d)(\D*)$/.exec(lexeme);
  if (!m) throw new Error(`not a number: ${lexeme}`);
  const i = lexeme.length - m[0].length;
  return lexeme.slice(0, i) + String((Number(m[1]) + 1) % 10) + m[2];
}

/** A JSON string lexeme with one more word at its end. */
export const editString = (lexeme, extra = ' (edited)') => `${lexeme.slice(0, -1)}${extra}"`;

/** The first path (depth first) in `value` whose last key satisfies pred(key, v, path). */
export function findPath(value, pred, path = []) {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const key = Array.isArray(value) ? Number(k) : k;
      const p = [...path, key];
      if (pred(key, v, p)) return p;
      const deeper = findPath(v, pred, p);
      if (deeper) return deeper;
    }
  }
  return null;
}
