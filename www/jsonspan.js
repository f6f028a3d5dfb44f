// Locate the exact source text of values inside a JSON document.
//
// Why: scoring and hashing depend on details JSON.parse throws away (the
// order of integer-like object keys, `1.0` versus `1`, number lexemes such as
// `1e-7`). The package therefore takes JSON *text*; this module cuts the text
// of each queue item (or neighbour metadata object) out of the document the
// user loaded, byte for byte, so nothing is re-serialised on the way.
//
// spansAt(text, patterns) walks the document once and returns, for every
// value whose path matches one of the patterns, {path, start, end, text}.
// A pattern is an array of keys/indices where "*" matches any key or index.
// The document must already have been validated (e.g. by JSON.parse or the
// package's own parser); on malformed input this throws a SyntaxError.

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const MAX_DEPTH = 512;

export function spansAt(text, patterns) {
  const out = [];
  let i = 0;
  const n = text.length;

  const ws = () => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
    }
  };
  const fail = (what) => { throw new SyntaxError(`JSON: ${what} at offset ${i}`); };

  // Does `path` match a pattern exactly (full) or as a prefix (partial)?
  const matchState = (path) => {
    let partial = false;
    for (const p of patterns) {
      if (path.length > p.length) continue;
      let ok = true;
      for (let k = 0; k < path.length; k++) {
        if (p[k] !== '*' && String(p[k]) !== String(path[k])) { ok = false; break; }
      }
      if (!ok) continue;
      if (path.length === p.length) return 'full';
      partial = true;
    }
    return partial ? 'partial' : 'none';
  };

  const readString = () => {
    // i is at the opening quote; returns the decoded string (keys only need it).
    const start = i;
    i++;
    let s = '';
    let chunk = i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) { s += text.slice(chunk, i); i++; return s; }
      if (c === 0x5c) {
        s += text.slice(chunk, i);
        const e = text[i + 1];
        if (e === 'u') { s += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)); i += 6; }
        else { s += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' })[e] ?? e; i += 2; }
        chunk = i;
        continue;
      }
      i++;
    }
    i = start;
    return fail('unterminated string');
  };

  const skipString = () => {
    // The next '"' not escaped by an odd run of backslashes ends the string.
    for (let j = i + 1; ;) {
      const q = text.indexOf('"', j);
      if (q < 0) { i = n; return fail('unterminated string'); }
      let b = q - 1;
      while (text.charCodeAt(b) === 0x5c) b--;
      if ((q - 1 - b) % 2 === 0) { i = q + 1; return; }
      j = q + 1;
    }
  };

  // Skip one value (i at its first character) whose insides are not wanted:
  // one flat loop, no recursion or paths, brackets matched, the nesting
  // limit kept as walk() keeps it (no value deeper than MAX_DEPTH).
  const skipValue = (depth) => {
    const c = text.charCodeAt(i);
    if (c !== 0x7b && c !== 0x5b) { if (c === 0x22) skipString(); else skipScalar(); return; }
    const closers = [];
    for (;;) {
      if (i >= n) fail('unterminated value');
      const ch = text.charCodeAt(i);
      if (ch === 0x22) { skipString(); continue; }
      if (ch === 0x7b || ch === 0x5b) {
        const close = ch + 2; // '}' or ']'
        if (depth + closers.length >= MAX_DEPTH) {
          i++; ws();
          if (text.charCodeAt(i) !== close) {
            if (close === 0x7d && text.charCodeAt(i) === 0x22) { skipString(); ws(); i++; ws(); } // at the member's value, as walk() fails
            fail('nesting too deep');
          }
          i++; // an empty container at the limit
          if (closers.length === 0) return;
          continue;
        }
        closers.push(close);
        i++;
        continue;
      }
      if (ch === 0x7d || ch === 0x5d) {
        if (closers.pop() !== ch) fail('mismatched bracket');
        i++;
        if (closers.length === 0) return;
        continue;
      }
      i++;
    }
  };

  const skipScalar = () => {
    const start = i;
    while (i < n) {
      const c = text[i];
      if (c === ',' || c === ']' || c === '}' || WS.has(text.charCodeAt(i))) break;
      i++;
    }
    if (i === start) fail('value expected');
  };

  // Values below a full match, or below a path no pattern can reach, are
  // walked with this sentinel path so they are skipped, not recorded.
  const SKIP = ['\u0000skip'];

  const walk = (path, depth) => {
    ws();
    const state = path === SKIP ? 'none'
      : path.length === 0 ? (patterns.some((p) => p.length === 0) ? 'full' : 'partial')
      : matchState(path);
    if (depth > MAX_DEPTH) fail('nesting too deep');
    const start = i;
    if (state !== 'partial') {
      skipValue(depth);
      if (state === 'full') out.push({ path, start, end: i, text: text.slice(start, i) });
      return;
    }
    const c = text[i];
    const child = (k) => (state === 'partial' ? [...path, k] : SKIP);
    if (c === '{') {
      i++; ws();
      if (text[i] === '}') i++;
      else {
        for (;;) {
          ws();
          if (text[i] !== '"') fail('object key expected');
          const key = state === 'partial' ? readString() : (skipString(), '');
          ws();
          if (text[i] !== ':') fail('":" expected');
          i++;
          walk(child(key), depth + 1);
          ws();
          if (text[i] === ',') { i++; continue; }
          if (text[i] === '}') { i++; break; }
          fail('"," or "}" expected');
        }
      }
    } else if (c === '[') {
      i++; ws();
      if (text[i] === ']') i++;
      else {
        for (let idx = 0; ; idx++) {
          walk(child(idx), depth + 1);
          ws();
          if (text[i] === ',') { i++; continue; }
          if (text[i] === ']') { i++; break; }
          fail('"," or "]" expected');
        }
      }
    } else if (c === '"') skipString();
    else skipScalar();
    if (state === 'full') out.push({ path, start, end: i, text: text.slice(start, i) });
  };

  walk([], 0);
  ws();
  if (i !== n) fail('extra data after the JSON value');
  return out;
}

/** The exact text of the value at `path` (last occurrence wins, like JSON.parse), or null. */
export function textAt(text, path) {
  const hits = spansAt(text, [path]);
  return hits.length ? hits[hits.length - 1].text : null;
}
