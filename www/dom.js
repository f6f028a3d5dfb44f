// Tiny DOM builder. Untrusted text only ever becomes Text nodes: there is no
// innerHTML, no insertAdjacentHTML and no string-to-markup path in this app.
// Attributes are set one by one; event-handler attributes and URL-bearing
// attributes are refused so data can never become code or a link.

const FORBIDDEN_ATTR = /^(on|href$|src$|srcdoc$|action$|formaction$|style$|xlink:)/i;

/**
 * h('div', {class: 'x', 'aria-label': 'y', dataset: {id: '1'}}, 'text', childNode, [more])
 * Children: strings/numbers → text nodes; null/false → skipped; arrays flattened.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v == null || v === false) continue;
      if (k === 'dataset') { for (const [dk, dv] of Object.entries(v)) el.dataset[dk] = String(dv); continue; }
      if (k === 'on') { for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn); continue; }
      if (FORBIDDEN_ATTR.test(k)) throw new Error(`h(): attribute ${k} is not allowed`);
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
  return el;
}

/** Replace all children of el. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

export const $ = (sel, root = document) => root.querySelector(sel);

/**
 * Make el's children equal to `children` (built with h(), detached) by changing
 * el's existing nodes in place: a text node's data, an element's attributes,
 * its CSSOM style and an input's value are set only where they differ, and a
 * node is replaced only where the tag differs (or `fresh(old, new)` says so).
 * Unchanged nodes keep their style and layout, so redrawing a pane for another
 * item costs what differs, not the whole pane. Text stays text (no markup
 * path). Event listeners are not copied: a kept node keeps its own, so a
 * caller's listeners must not close over what changes (read it when called).
 */
export function patch(el, children, fresh = () => false) {
  const list = [];
  const flat = (c) => {
    if (c == null || c === false) return;
    if (Array.isArray(c)) c.forEach(flat);
    else list.push(c instanceof Node ? c : document.createTextNode(String(c)));
  };
  flat(children);
  patchChildren(el, list, fresh);
  return el;
}

// A new child that already is a's child (a part its owner keeps up to date itself, e.g. the detail's
// score table) is kept as it is, moved to its place if need be.
function patchChildren(a, list, fresh) {
  let x = a.firstChild;
  for (const y of list) {
    if (y === x) { x = x.nextSibling; continue; }
    if (!x) { a.appendChild(y); continue; }
    if (y.parentNode !== a && patchNode(x, y, fresh)) { x = x.nextSibling; continue; }
    a.replaceChild(y, x);
    x = y.nextSibling;
  }
  while (x) { const xn = x.nextSibling; x.remove(); x = xn; }
}

/** Bring `a` in line with `b` in place; false if it cannot (another kind of node). */
function patchNode(a, b, fresh) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType === Node.TEXT_NODE) { if (a.data !== b.data) a.data = b.data; return true; }
  if (a.nodeType !== Node.ELEMENT_NODE || a.tagName !== b.tagName || fresh(a, b)) return false;
  const aa = a.attributes;
  const ba = b.attributes;
  for (let i = aa.length - 1; i >= 0; i--) { const name = aa[i].name; if (!b.hasAttribute(name)) a.removeAttribute(name); }
  for (let i = 0; i < ba.length; i++) {
    const { name, value } = ba[i];
    if (a.getAttribute(name) === value) continue;
    if (name === 'style') a.style.cssText = b.style.cssText; // CSSOM (style-src 'self' allows it, not the attribute)
    else a.setAttribute(name, value);
  }
  if (a.tagName === 'INPUT' && a.value !== b.value) a.value = b.value;
  patchChildren(a, [...b.childNodes], fresh);
  return true;
}

/** Set el's text only if it differs (an unchanged text then costs no style, layout or paint). */
export function setText(el, text) {
  const t = el.firstChild;
  if (t && t === el.lastChild && t.nodeType === Node.TEXT_NODE) { if (t.data !== text) { if (text) t.data = text; else el.textContent = ''; } return; }
  if (el.textContent !== text) el.textContent = text;
}

/** Offer text as a file download (Blob + object URL; nothing leaves the page). */
export function download(filename, text, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.download = filename;
  a.href = url; // our own blob: URL, never data from the queue
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
