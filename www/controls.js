// Invisible and text-direction characters in untrusted text: the bidirectional
// controls (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates,
// U+200E/U+200F/U+061C marks) and the zero-width characters (U+200B–U+200D,
// U+2060, U+FEFF). An override makes "\u202eevil.exe gpj." read ".jpg exe.live":
// the page shows each one as a visible placeholder (⟨RLO⟩) instead, and flags
// the item. No DOM: used by the list, the detail and Node tests.

export const CONTROLS = new Map([
  [0x202a, ['LRE', 'LEFT-TO-RIGHT EMBEDDING']],
  [0x202b, ['RLE', 'RIGHT-TO-LEFT EMBEDDING']],
  [0x202c, ['PDF', 'POP DIRECTIONAL FORMATTING']],
  [0x202d, ['LRO', 'LEFT-TO-RIGHT OVERRIDE']],
  [0x202e, ['RLO', 'RIGHT-TO-LEFT OVERRIDE']],
  [0x2066, ['LRI', 'LEFT-TO-RIGHT ISOLATE']],
  [0x2067, ['RLI', 'RIGHT-TO-LEFT ISOLATE']],
  [0x2068, ['FSI', 'FIRST STRONG ISOLATE']],
  [0x2069, ['PDI', 'POP DIRECTIONAL ISOLATE']],
  [0x200e, ['LRM', 'LEFT-TO-RIGHT MARK']],
  [0x200f, ['RLM', 'RIGHT-TO-LEFT MARK']],
  [0x061c, ['ALM', 'ARABIC LETTER MARK']],
  [0x200b, ['ZWSP', 'ZERO WIDTH SPACE']],
  [0x200c, ['ZWNJ', 'ZERO WIDTH NON-JOINER']],
  [0x200d, ['ZWJ', 'ZERO WIDTH JOINER']],
  [0x2060, ['WJ', 'WORD JOINER']],
  [0xfeff, ['ZWNBSP', 'ZERO WIDTH NO-BREAK SPACE (BOM)']],
]);

const RE = /[\u202a-\u202e\u2066-\u2069\u200b-\u200f\u061c\u2060\ufeff]/;
const RE_G = new RegExp(RE.source, 'g');

/** Does `s` hold any such character? */
export const hasControls = (s) => typeof s === 'string' && RE.test(s);

/** How many such characters `s` holds. */
export const countControls = (s) => (hasControls(s) ? s.match(RE_G).length : 0);

/** The placeholder of one such character: "⟨RLO⟩". */
export const placeholder = (ch) => `⟨${CONTROLS.get(ch.codePointAt(0))[0]}⟩`;

/** `s` with each such character replaced by its placeholder (plain text, for one-line views). */
export function showControls(s) {
  return hasControls(s) ? s.replace(RE_G, placeholder) : s;
}

/**
 * `s` cut into runs [{text, control}], covering it exactly: `control` is null
 * for ordinary text, else {code: "U+202E", short: "RLO", name} for a run of
 * one such character.
 */
export function controlRuns(s) {
  if (!hasControls(s)) return [{ text: s, control: null }];
  const out = [];
  let last = 0;
  for (const m of s.matchAll(RE_G)) {
    if (m.index > last) out.push({ text: s.slice(last, m.index), control: null });
    const cp = m[0].codePointAt(0);
    const [short, name] = CONTROLS.get(cp);
    out.push({ text: m[0], control: { code: `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`, short, name } });
    last = m.index + 1;
  }
  if (last < s.length) out.push({ text: s.slice(last), control: null });
  return out;
}
