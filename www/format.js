// Small presentation helpers shared by the list and the detail pane.
import { h } from './dom.js';
import { RISK_TAGS } from './contract.js';

// The chip class of each risk tag (the wire contract: contract.js); a tag the contract does not
// name takes its family's (`pii:…`, `phi:…`) or none.
const CLASS = new Map(RISK_TAGS.map((t) => [t.tag, t.class]));
const FAMILY_CLASS = new Map(RISK_TAGS.filter((t) => t.tag.startsWith(`${t.class}:`)).map((t) => [t.tag.slice(0, t.tag.indexOf(':') + 1), t.class]));
export function tagClass(t) {
  return CLASS.get(t) ?? (t.includes(':') ? FAMILY_CLASS.get(t.slice(0, t.indexOf(':') + 1)) : undefined) ?? '';
}
export const chip = (t) => h('span', { class: `chip ${tagClass(t)}` }, t);
export const fmt = (v) => (v == null ? '—' : Number.isInteger(v) ? v.toFixed(1) : String(v));
