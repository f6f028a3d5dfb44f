// Saved review work: the reviewer's decisions and notes, kept in the tab's
// sessionStorage so a reload, a replaced queue or a crash loses nothing.
// No DOM: used by the page (decisions.js, load.js) and importable from Node.
//
// One entry per queue scope, the server origin a queue was fetched from
// ('file' for a file, paste, drop or the sample) and its items' namespace:
//   key   "lians-review:v1:" + JSON.stringify([origin, namespace])
//   value {"v":1,"decisions":{"<pending id>":{"action":"approve"|"reject"|null,"note":"…"}}}
// Only ids, actions and notes are stored: never the API key, never content.
// sessionStorage lives as long as the tab (reloads included) and is never
// sent anywhere. What is read back is validated; anything else is ignored.

const PREFIX = 'lians-review:v1:';
const MAX_NOTE = 4000;
const MAX_ENTRIES = 5000;

/** The namespace of a queue's items: the common one, '*' for a mix, '' for none. */
export function namespaceOf(objs) {
  let ns = null;
  for (const o of objs) {
    const n = typeof o?.namespace === 'string' ? o.namespace : '';
    if (ns === null) ns = n; else if (ns !== n) return '*';
  }
  return ns ?? '';
}

/** The storage key of a queue scope. */
export const scopeKey = (origin, namespace) => PREFIX + JSON.stringify([String(origin), String(namespace)]);

/** A human name for a scope, for the page. */
export const scopeLabel = (origin, namespace) => `${origin === 'file' ? 'files and pasted queues' : origin}${namespace ? `, namespace ${namespace}` : ''}`;

/** Read a scope: Map id → {action, note} (valid entries only; never throws). */
export function readSaved(store, key) {
  const out = new Map();
  let doc;
  try { doc = JSON.parse(store?.getItem(key) ?? 'null'); } catch { return out; }
  const ds = doc && doc.v === 1 && doc.decisions && typeof doc.decisions === 'object' && !Array.isArray(doc.decisions) ? doc.decisions : null;
  if (!ds) return out;
  for (const [id, d] of Object.entries(ds)) {
    if (out.size >= MAX_ENTRIES) break;
    if (!id || id.length > 200 || !d || typeof d !== 'object') continue;
    const action = d.action === 'approve' || d.action === 'reject' ? d.action : null;
    const note = typeof d.note === 'string' ? d.note.slice(0, MAX_NOTE) : '';
    if (action || note) out.set(id, { action, note });
  }
  return out;
}

/** Write a scope (an empty map removes it). Returns false if storage refused (full, or off). */
export function writeSaved(store, key, entries) {
  try {
    if (!store) return false;
    if (!entries.size) { store.removeItem(key); return true; }
    const decisions = {};
    for (const [id, d] of entries) {
      if (!d.action && !d.note) continue;
      decisions[id] = { action: d.action ?? null, note: d.note ? String(d.note).slice(0, MAX_NOTE) : '' };
    }
    store.setItem(key, JSON.stringify({ v: 1, decisions }));
    return true;
  } catch { return false; }
}

/** Every scope key in the store. */
export function savedKeys(store) {
  const keys = [];
  try { for (let i = 0; i < store.length; i++) { const k = store.key(i); if (k?.startsWith(PREFIX)) keys.push(k); } } catch { /* storage off */ }
  return keys;
}
