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

/** Set el's text only if it differs (an unchanged text then costs no style, layout or paint). */
export function setText(el, text) {
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
