// The bodies of bench/memory.mjs (issue #32): for each kind (recall, context,
// pack) and size, real-shaped bodies (the samples of tests/data with their
// results repeated, or one text padded) and hostile ones (the densest JSON the
// verifiers parse: a value per two bytes, empty containers, a wide object,
// non-ASCII and escaped strings), as UTF-8 bytes of about `size` bytes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sample = (p) => JSON.parse(readFileSync(path.join(ROOT, p), "utf8"));

const SCHEMA = {
  recall: "lians.recall-receipt.v2",
  context: "lians.context-receipt.v2",
  pack: "https://lians.ai/schemas/evidence-pack/v2",
};

export const SHAPES = [
  "real",
  "real-strings",
  "ints",
  "arrays",
  "nested",
  "nested2",
  "pairs",
  "nested-str",
  "nested-obj",
  "deep",
  "deep-then-wide",
  "members",
  "members-escaped",
  "strings-short-escaped",
  "strings-16-escaped",
  "string-one-escape",
  "strings-utf8",
  "strings-escaped",
];

/** `n` items `item(i)` joined by commas, as many as fit in `bytes`. */
function fill(bytes, item) {
  const parts = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const s = item(i);
    parts.push(s);
    n += s.length + 1;
  }
  return parts.join(",");
}

/** The hostile member `pad` of about `bytes` bytes (UTF-8). */
function pad(shape, bytes) {
  switch (shape) {
    case "ints":
      return `[${fill(bytes, () => "0")}]`;
    case "arrays":
      return `[${fill(bytes, () => "[]")}]`;
    case "nested": // one-item arrays: a container per four bytes
      return `[${fill(bytes, () => "[0]")}]`;
    case "nested2": // one-item arrays of one-item arrays: two containers per six bytes
      return `[${fill(bytes, () => "[[0]]")}]`;
    case "pairs": // two-item arrays
      return `[${fill(bytes, () => "[0,0]")}]`;
    case "nested-str": // one-item arrays of a one-byte string
      return `[${fill(bytes, () => '["a"]')}]`;
    case "nested-obj": // one-member objects
      return `[${fill(bytes, () => '{"a":0}')}]`;
    case "deep": // blocks of one-item arrays 500 deep (the depth cap is 512)
      return `[${fill(bytes - 1002, () => `${"[".repeat(500)}0${"]".repeat(500)}`)}]`;
    case "deep-then-wide": // 500 deep, then one wide array
      return `${"[".repeat(500)}${fill(bytes - 1000, () => "0")}${"]".repeat(500)}`;
    case "members":
      return `{${fill(bytes, (i) => `"${i.toString(36)}":0`)}}`;
    case "members-escaped": // keys decoded into the document's side buffer
      return `{${fill(bytes, (i) => `"\\n${i.toString(36)}":0`)}}`;
    case "strings-short-escaped": // a decoded (escaped) string per five bytes
      return `[${fill(bytes, () => '"\\n"')}]`;
    case "strings-16-escaped": // decoded strings of 16 bytes (a node each)
      return `[${fill(bytes, () => '"abcdefghijklmno\\n"')}]`;
    case "string-one-escape": // one long decoded string
      return `"\\n${"a".repeat(bytes - 4)}"`;
    case "strings-utf8": // two-byte characters: six bytes each in the canonical (ensure_ascii) text
      return `"${"é".repeat(Math.floor(bytes / 2))}"`;
    case "strings-escaped": // lone surrogates, decoded into the document's side buffer
      return `"${"\\ud800".repeat(Math.floor(bytes / 6))}"`;
  }
  throw new Error(shape);
}

function repeat(list, times) {
  const out = [];
  for (let i = 0; i < times; i++) out.push(...list);
  return out;
}

/** The body (a string) of `kind` and `shape`, about `size` bytes. */
export function bodyText(kind, shape, size) {
  if (shape === "real" || shape === "real-strings") return real(kind, shape, size);
  // The hostile value inside what is hashed (the receipt, the manifest).
  const p = pad(shape, size - 200);
  if (kind === "pack") return `{"schema":"${SCHEMA.pack}","pad":${p},"signature":{"status":"unsigned"}}`;
  return `{"receipt":{"schema":"${SCHEMA[kind]}","pad":${p}}}`;
}

function real(kind, shape, size) {
  const base =
    kind === "recall"
      ? sample("tests/data/audit/recall-deep.json")
      : kind === "context"
        ? sample("tests/data/samples/context-01-deep-acme-summary.json")
        : sample("tests/data/samples/pack-01-v2-signed.json");
  const one = JSON.stringify(base).length;
  if (shape === "real-strings") {
    // One text grown to the size: non-ASCII prose.
    const text = "Acme renewal — prévision 漢字 ".repeat(Math.ceil(size / 34));
    const body = structuredClone(base);
    if (kind === "pack") body.decision = { ...body.decision, rationale: text.slice(0, Math.floor((size - one) / 1.3)) };
    else body.memories[0].content = text.slice(0, Math.floor((size - one) / 1.3));
    return JSON.stringify(body);
  }
  // The results (and what lists them) repeated up to the size.
  const grown = (times) => {
    const body = structuredClone(base);
    if (kind === "pack") {
      for (const k of ["evidence_graph", "cited_evidence", "audit_chain"]) if (Array.isArray(body[k])) body[k] = repeat(body[k], times);
    } else {
      body.memories = repeat(body.memories, times);
      body.receipt.results = repeat(body.receipt.results, times);
    }
    return JSON.stringify(body);
  };
  const per = grown(2).length - one;
  // At most `size` bytes (a 32 MiB body over the 32 MiB cap would only measure the refusal).
  let times = Math.max(1, 1 + Math.floor((size - one) / per));
  let text = grown(times);
  while (times > 1 && new TextEncoder().encode(text).length > size) text = grown(--times);
  return text;
}
