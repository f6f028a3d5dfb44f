// Small presentation helpers shared by the list and the detail pane.
import { h } from './dom.js';

export function tagClass(t) {
  if (t.startsWith('pii:')) return 'pii';
  if (t.startsWith('phi:')) return 'phi';
  if (t === 'mnpi') return 'mnpi';
  if (t === 'injection') return 'injection';
  if (t === 'source:blocked') return 'blocked';
  if (t === 'vague') return 'vague';
  return '';
}
export const chip = (t) => h('span', { class: `chip ${tagClass(t)}` }, t);
export const fmt = (v) => (v == null ? '—' : Number.isInteger(v) ? v.toFixed(1) : String(v));
