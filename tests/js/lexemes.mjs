// JSON text with its number lexemes kept, for mutants of real bodies: a
// body re-serialised from parseLexemes() hashes as the original, and Raw /
// Members splice in text JSON.stringify cannot write (NaN, -0, raw lone
// surrogates, repeated keys). Shared by the adversarial suites
// (airtight.test.mjs, closed-world.test.mjs).

/** Text spliced in as is (the receipt's canonical text, raw surrogates). */
export class Raw {
  constructor(text) {
    this.text = text;
  }
}
/** An object written member by member: repeated keys allowed. */
export class Members {
  constructor(entries) {
    this.entries = entries;
  }
}

/** A number kept as its lexeme (`1.0` is not `1` to a Python hash). */
export class Num {
  constructor(text) {
    this.text = text;
  }
  toString() {
    return this.text;
  }
}

/** JSON.parse keeping number lexemes (as Num): a re-serialised body then hashes as the original. */
export function parseLexemes(text) {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const token = (re) => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new SyntaxError(`at ${i}`);
    i = re.lastIndex;
    return m[0];
  };
  const STR = /"(?:[^"\\]|\\.)*"/y;
  const NUM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|NaN|-?Infinity/y;
  const value = () => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const o = {};
      ws();
      if (text[i] === "}") return i++, o;
      for (;;) {
        ws();
        const k = JSON.parse(token(STR));
        ws();
        if (text[i++] !== ":") throw new SyntaxError(`at ${i}`);
        o[k] = value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return i++, o;
        else throw new SyntaxError(`at ${i}`);
      }
    }
    if (c === "[") {
      i++;
      const a = [];
      ws();
      if (text[i] === "]") return i++, a;
      for (;;) {
        a.push(value());
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return i++, a;
        else throw new SyntaxError(`at ${i}`);
      }
    }
    if (c === '"') return JSON.parse(token(STR));
    for (const [word, v] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, i)) return (i += word.length), v;
    }
    return new Num(token(NUM));
  };
  const v = value();
  ws();
  if (i !== text.length) throw new SyntaxError(`trailing text at ${i}`);
  return v;
}

export function ser(v) {
  if (v instanceof Raw || v instanceof Num) return v.text;
  if (v instanceof Members) return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${ser(x)}`).join(",")}}`;
  if (Array.isArray(v)) return `[${v.map(ser).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${ser(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

export const clone = (v) => (v instanceof Raw || v instanceof Num ? v : v instanceof Members ? new Members(v.entries.map(([k, x]) => [k, clone(x)])) : Array.isArray(v) ? v.map(clone) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)])) : v);

/**
 * The editable template of a body that `verify(kind, text, options)` finds valid: its number lexemes
 * kept and the receipt as its canonical text (same hash). Null when the body is not valid, cannot be
 * read with its lexemes, or has other numbers JSON.parse cannot carry (re-serialised, it no longer verifies).
 */
export function bodyTemplate(verify, kind, text, given) {
  const base = verify(kind, text, { ...(given ?? {}), include_canonical: true });
  if (!base.valid || typeof base.canonical !== "string") return null;
  let lex;
  try {
    lex = parseLexemes(text);
  } catch {
    return null;
  }
  const template = { ...lex, receipt: new Raw(base.canonical) };
  return verify(kind, ser(template), given).valid ? template : null;
}
