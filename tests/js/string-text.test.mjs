// JSON text given as a JS string reaches the wasm as its UTF-8 bytes (issue #32 round 8,
// js/limits.mjs utf8Text, called by js/core.mjs, js/node.cjs and js/bundler.mjs): for every
// function that takes JSON text (TEXT_ARGS) and every string below (lone surrogates at the start,
// middle and end of a body and of a batch line, inside and outside string literals, a real
// U+FFFD, empty text, over the cap), the entries answer exactly what the glue answers when it is
// handed the string itself (the path every string took before): the same result, or the same
// error code, message and JSON pointer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { SAMPLES, ROOT, mulberry32 } from "./helpers.mjs";
import { MAX_BODY_BYTES, TEXT_ARGS, checkBody, hasReplacement, recycleText, ucs2Writer, utf8Text } from "../../js/limits.mjs";
import { adoptError } from "../../js/errors.mjs";

// utf8Text as where Node's transcoder is not reachable (Node < 20.16, browsers): TextEncoder.encodeInto,
// the U+FFFD search and the spare buffer. A second instance of the module, loaded without
// process.getBuiltinModule (round 11: with it, the ICU transcoder of node:buffer does the encoding).
const plain = await (async () => {
  const saved = process.getBuiltinModule;
  process.getBuiltinModule = undefined;
  try {
    return await import("../../js/limits.mjs?encodeInto");
  } finally {
    process.getBuiltinModule = saved;
  }
})();

const require = createRequire(import.meta.url);
const node = require("../../js/node.cjs");
const nodeGlue = require("../../dist/node/lians_score.js");
const web = await import("../../js/web.mjs");
web.initSync(readFileSync(path.join(ROOT, "dist/web/lians_score_bg.wasm")));
const webGlue = await import("../../dist/web/lians_score.js");

const sample = (name) => readFileSync(path.join(SAMPLES, name), "utf8");
const recall = sample("recall-08-fast-filters-acme-tinyfloat.json");
const context = sample("context-01-deep-acme-summary.json");
const pack = sample("pack-01-v2-signed.json");
const BODY = { verifyRecallReceipt: recall, verifyContextReceipt: context, verifyEvidencePack: pack, auditRecall: recall };
const GIVEN = { verifyRecallReceipt: {}, verifyContextReceipt: {}, verifyEvidencePack: { allow_unsigned: true }, auditRecall: {} };
const SHARED = { reference_time: "2026-01-01T00:00:00Z" }; // so that the candidates score (no missing_field rows)
const LINES = [
  '{"content": "Acme renewal is due in March", "query": "acme renewal", "importance": 0.7}',
  '{"content": "the budget meeting decided €12.5k", "query": "budget", "confidence": 0.9}',
  '{"content": "Straße Größe 예산 회의 😀", "query": "größe"}',
].join("\n");

/** The body with `insert` put at `at` ("start", "end", "string": inside the first string literal's content, "value": before the first value). */
function variants(text) {
  const quote = text.indexOf('"', text.indexOf(":"));
  const colon = text.indexOf(":") + 1;
  const out = [text];
  for (const ch of ["\ud800", "\udfff", "\ufffd", "\ud83d\ude00", "é"]) {
    out.push(ch + text, text + ch, text.slice(0, quote + 1) + ch + text.slice(quote + 1), text.slice(0, colon) + ch + text.slice(colon));
    out.push(text.slice(0, quote + 1) + "\\" + ch + text.slice(quote + 1)); // after a backslash
  }
  // A high surrogate right before a lone low one is a pair; a lone high before the closing quote.
  out.push(text.slice(0, quote + 1) + "\ud800\udc00\udc00" + text.slice(quote + 1), text.slice(0, quote + 1) + "\udbff" + text.slice(quote + 1));
  return out;
}
const EXTRA = ["", " ", "\ufffd", "\ud800", "{", '"\ud800"', "[1, 2", "null", "\n\n", "\ufeff{}"];

/** A comparable outcome: the result (typed arrays as arrays), or the error's name, code, path and message. */
function outcome(fn) {
  try {
    return { ok: JSON.stringify(fn(), (_, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)) };
  } catch (error) {
    const e = adoptError(error);
    return { name: e.name, code: e.code, path: e.path, message: e.message };
  }
}

/** `f()` with the Node glue's string staging off (js/node.cjs registers ucs2Writer with its instance:
 * the glue then copies long strings in by their UTF-16 units; round 10). */
const nodeWriter = ucs2Writer(nodeGlue.__lians_memory);
let writer = nodeWriter;
function unstaged(f) {
  nodeGlue.__lians_utf16(null);
  try {
    return f();
  } finally {
    nodeGlue.__lians_utf16(writer);
  }
}

/** Today's path: the string handed to the glue (after the entry's JS cap check for a body). */
function viaString(glue, name, args) {
  return unstaged(() => outcome(() => glue[name](...(name in BODY ? checkBody(args, MAX_BODY_BYTES) : args))));
}

const calls = [];
for (const name of Object.keys(BODY)) {
  for (const body of [...variants(BODY[name]), ...EXTRA]) calls.push([name, [body, GIVEN[name]]]);
}
for (const options of [undefined, { output: "full" }, { output: "jsonl" }]) {
  const lines = LINES.split("\n");
  const texts = [LINES, `[${lines.join(",")}]`, ...EXTRA];
  // A lone surrogate at the start, middle and end of a line, and of the batch.
  for (const v of variants(lines[1])) texts.push([lines[0], v, lines[2]].join("\n"));
  for (const v of variants(lines[0])) texts.push([v, lines[1]].join("\n"));
  for (const v of variants(lines[2])) texts.push([lines[0], v].join("\n"));
  for (const text of texts) calls.push(["scoreCandidates", [SHARED, text, options]]);
}

for (const [label, lib, glue] of [["node", node, nodeGlue], ["web", web, webGlue]]) {
  test(`${label}: JSON text as a string answers as before (${calls.length} calls)`, () => {
    let changed = 0;
    for (const [name, args] of calls) {
      const before = viaString(glue, name, args);
      assert.deepEqual(outcome(() => lib[name](...args)), before, `${name}(${JSON.stringify(args[TEXT_ARGS[name]]).slice(0, 80)})`);
      if (utf8Text(name, args) !== args) changed++;
    }
    assert.ok(changed > calls.length / 2, `most strings went as bytes (${changed})`);
  });
}

const transcoder = { utf8Text };
for (const [label, { utf8Text }, transcoding] of [["transcoder", transcoder, true], ["encodeInto", plain, false]]) test(`utf8Text (${label}): bytes only for well-formed text within the cap`, () => {
  const args = (text) => [text, {}];
  assert.ok(utf8Text("verifyRecallReceipt", args(recall))[0] instanceof Uint8Array);
  assert.deepEqual(new Uint8Array(utf8Text("verifyRecallReceipt", args("a\ufffdé😀"))[0]), new TextEncoder().encode("a\ufffdé😀"));
  assert.ok(utf8Text("scoreCandidates", [null, LINES])[1] instanceof Uint8Array);
  assert.equal(utf8Text("scoreCandidates", [LINES, LINES])[0], LINES, "only the candidates argument");
  // Node 18 (and older browsers) have no String.prototype.isWellFormed: a text with a U+FFFD then
  // keeps the string path, whether the U+FFFD was written or stands for a lone surrogate.
  const isWellFormed = Object.getOwnPropertyDescriptor(String.prototype, "isWellFormed");
  for (const without of [false, true]) {
    if (without && isWellFormed) delete String.prototype.isWellFormed;
    try {
      for (const lone of ["\ud800", "a\udc00", "\udbffx", "x\ud83d", "\ude00\ud83d", `${recall}\ud800`]) {
        const a = args(lone);
        assert.equal(utf8Text("verifyRecallReceipt", a), a, JSON.stringify(lone.slice(-4)));
      }
      const real = args("\ud83d\ude00\ufffd");
      // The transcoder tells a lone surrogate itself (it fails on one): a real U+FFFD goes as bytes.
      assert.equal(utf8Text("verifyRecallReceipt", real)[0] instanceof Uint8Array, transcoding || !without || !isWellFormed);
      assert.ok(utf8Text("verifyRecallReceipt", args("\ud83d\ude00\uffef\uefbd"))[0] instanceof Uint8Array, "no U+FFFD: bytes");
    } finally {
      if (isWellFormed) Object.defineProperty(String.prototype, "isWellFormed", isWellFormed);
    }
  }
  // The U+FFFD search, with Node's Buffer and without (browsers).
  for (const [text, found] of [["", false], ["\ufffd", true], ["ab\uffef\uefbd\ufffd", true], ["ab\uffef\uefbd", false], ["\uefbf", false], ["\uffbd", false]]) {
    const bytes = new TextEncoder().encode(text);
    assert.equal(hasReplacement(bytes), found, JSON.stringify(text));
    assert.equal(hasReplacement(Buffer.from(bytes)), found, JSON.stringify(text));
  }
  for (const name of ["scoreMemory", "canonicalJson", "sha256Hex", "tokenizeForScoring"]) {
    const a = [recall];
    assert.equal(utf8Text(name, a), a, name);
  }
  // Over the cap in UTF-16 units: not encoded at all; over it only in UTF-8: left a string (its error names the string).
  const boxed = [new String(recall)];
  assert.equal(utf8Text("verifyRecallReceipt", boxed), boxed, "a String object is not text: the wasm reports it");
  const wide = "é".repeat(MAX_BODY_BYTES / 2 + 1);
  const a = [null, wide];
  assert.equal(utf8Text("scoreCandidates", a), a);
});

test("the transcoder (Node 20.16+): exact UTF-8 of every kind of unit at every position, or the string left for a lone surrogate", () => {
  const units = ["a", "é", "\u07ff", "\u0080", "\u0800", "東", "\uffff", "\ufffd", "😀", "\ud800", "\udc00", "\udbff\udbff", "\ude00\ud83d", '"', "\\", "\u0000"];
  const encoder = new TextEncoder();
  let bytes = 0;
  for (const kind of units) {
    for (let k = 0; k < 20; k++) {
      for (const tail of [0, 1, 7, 31]) {
        const text = "x".repeat(k) + kind + "é".repeat(tail);
        const a = [text, {}];
        const got = utf8Text("verifyRecallReceipt", a);
        if (text.isWellFormed()) {
          assert.deepEqual(new Uint8Array(got[0]), encoder.encode(text), JSON.stringify(text));
          bytes++;
        } else assert.equal(got, a, JSON.stringify(text));
      }
    }
  }
  assert.equal(bytes, 12 * 20 * 4, "the well-formed ones went as bytes");
  // In this Node, the transcoder is what encodes (the encodeInto path keeps a real U+FFFD as a string without isWellFormed).
  const isWellFormed = Object.getOwnPropertyDescriptor(String.prototype, "isWellFormed");
  delete String.prototype.isWellFormed;
  try {
    assert.ok(utf8Text("verifyRecallReceipt", ["\ufffd"])[0] instanceof Uint8Array, "the transcoder is in use");
    assert.equal(typeof plain.utf8Text("verifyRecallReceipt", ["\ufffd"])[0], "string");
  } finally {
    Object.defineProperty(String.prototype, "isWellFormed", isWellFormed);
  }
});

test("over the cap: the same errors as before (the string's own too_large)", () => {
  const wide = "é".repeat(MAX_BODY_BYTES / 2 + 1); // within the cap in units, over it in UTF-8
  const long = "a".repeat(MAX_BODY_BYTES + 1);
  for (const [label, lib, glue] of [["node", node, nodeGlue], ["web", web, webGlue]]) {
    for (const text of [wide, long]) {
      const before = outcome(() => glue.scoreCandidates(null, text));
      assert.equal(before.code, "too_large", label);
      assert.deepEqual(outcome(() => lib.scoreCandidates(null, text)), before, label);
      const given = { maxBodyBytes: 4 * MAX_BODY_BYTES };
      const body = outcome(() => glue.verifyRecallReceipt(...checkBody([text, given], MAX_BODY_BYTES)));
      assert.equal(body.code, "too_large", label);
      assert.deepEqual(outcome(() => lib.verifyRecallReceipt(text, given)), body, label);
    }
  }
});

test("a call re-entered from a getter of its own options encodes into its own buffer", () => {
  const other = LINES.split("\n").reverse().join("\n");
  for (const [label, lib] of [["node", node], ["web", web]]) {
    const expected = outcome(() => lib.scoreCandidates(SHARED, LINES, { output: "full" }));
    const inner = outcome(() => lib.scoreCandidates(SHARED, other, { output: "full" }));
    let seen;
    const options = {
      get output() {
        seen = outcome(() => lib.scoreCandidates(SHARED, other, { output: "full" }));
        return "full";
      },
    };
    assert.notDeepEqual(inner, expected);
    // Twice: the second outer call reuses the buffer the first gave back.
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(outcome(() => lib.scoreCandidates(SHARED, LINES, options)), expected, label);
      assert.deepEqual(seen, inner, label);
    }
  }
});

test("a buffer given back serves the next call; a caller's own bytes are never reused (encodeInto)", () => {
  const { utf8Text, recycleText } = plain;
  const mine = new TextEncoder().encode(LINES);
  const copy = mine.slice();
  const a = utf8Text("scoreCandidates", [null, LINES]);
  recycleText("scoreCandidates", a);
  const b = utf8Text("scoreCandidates", [null, "[]"]);
  assert.equal(b[1].buffer, a[1].buffer, "the spare buffer");
  assert.deepEqual(new Uint8Array(b[1]), new TextEncoder().encode("[]"));
  recycleText("scoreCandidates", [null, mine]);
  const c = utf8Text("scoreCandidates", [null, "[1]"]);
  assert.notEqual(c[1].buffer, mine.buffer);
  assert.deepEqual(mine, copy);
  for (const lib of [node, web]) assert.equal(lib.scoreCandidates(null, mine).count, 3);
  assert.deepEqual(mine, copy, "the caller's bytes are untouched");
});

// Node (round 10): the full wasm copies a long string in by its UTF-16 units (js/limits.mjs
// ucs2Writer) and transcodes it (lians_score::utf16, SIMD128 blocks of 16 and 8 units): every kind
// of unit at every lane of those blocks, lone surrogates included, reads as the glue reads the
// string itself: scoreCandidates' candidates, scoreMemory's string members (at least 128 units),
// a tokenizeForScoring string, canonicalJson of an object.
const KINDS = ["é", "\u07ff", "\u0080", "\u0800", "東", "\uffff", "\ufffd", "😀", "\ud800", "\udc00", "\udbff\udbff", '"', "\\"];
function laneTexts(fill) {
  const out = [];
  for (const kind of KINDS) {
    for (let k = 0; k < 40; k++) {
      for (const tail of [0, 1, 7, 15, 200 - k]) out.push(fill.repeat(k) + kind + "b".repeat(tail));
    }
  }
  return out;
}

test("node: strings copied in by their UTF-16 units read as the strings themselves", () => {
  let written = 0;
  writer = new Proxy({}, { set: (t, at, text) => (written++, Reflect.set(nodeWriter, at, text)) });
  nodeGlue.__lians_utf16(writer);
  try {
    let staged = 0;
    for (const fill of ["a", "東", "é"]) {
      for (const text of laneTexts(fill)) {
        const before = written;
        const content = `${"x".repeat(130)} ${text}`;
        const memory = { content, query: "x", importance: 0.5, metadata: { note: text }, ...SHARED };
        for (const [name, args] of [
          ["scoreMemory", [memory]],
          ["tokenizeForScoring", [content]],
          ["canonicalJson", [{ a: text, b: content }]],
          ["scoreCandidates", [SHARED, `${JSON.stringify(memory)}\n{"content": "${text}${"y".repeat(20)}"}`, { output: "full" }]],
          ["scoreCandidates", [SHARED, `${JSON.stringify(memory).slice(0, -1)}${text}}`]],
        ]) {
          assert.deepEqual(outcome(() => node[name](...args)), unstaged(() => outcome(() => node[name](...args))), `${name} ${JSON.stringify(text)}`);
        }
        if (written > before) staged++;
      }
    }
    assert.ok(staged > 1000, `the strings were staged (${staged})`);
    // Short string values keep wasm-bindgen's conversion; a candidates string is always staged.
    const before = written;
    node.scoreMemory({ content: "é".repeat(127), query: "é", ...SHARED });
    assert.equal(written, before);
    node.scoreMemory({ content: "é".repeat(128), query: "é", ...SHARED });
    assert.equal(written, before + 1);
    node.scoreCandidates(SHARED, "[]");
    assert.equal(written, before + 2);
  } finally {
    writer = nodeWriter;
    nodeGlue.__lians_utf16(writer);
  }
});

// Round 11: the lane-parallel writer takes eight units of 1-, 2- and 3-byte code points at once, so
// mixes matter as much as positions: random texts of ASCII, 2-byte (Latin, Arabic), 3-byte (CJK,
// Devanagari, U+FFFD, U+FFFF, U+E000), pairs and lone surrogates, staged vs unstaged.
test("node: random mixes of every kind read the same staged and unstaged", () => {
  const r = mulberry32(0x51e5);
  const PIECES = ["a", " ", "ab cd", '"', "\\", "\x7f", "é", "\u07ff", "\u0627\u0644", "\u0800", "東京", "\u0915\u093e", "\ufffd", "\uffff", "\ue000", "\ud7ff", "😀", "\ud800", "\udfff"];
  let lone = 0;
  for (let n = 0; n < 1500; n++) {
    let text = "";
    while (text.length < 128 + (n % 200)) {
      const piece = PIECES[Math.floor(r() * PIECES.length)];
      if (piece.length === 1 && piece >= "\ud800" && piece <= "\udfff" && n % 5 !== 0) continue; // most without lone surrogates
      text += piece;
    }
    if (!text.isWellFormed()) lone++;
    const memory = { content: text, query: "東京 a", ...SHARED };
    for (const [name, args] of [
      ["scoreMemory", [memory]],
      ["canonicalJson", [{ a: text }]],
      ["scoreCandidates", [SHARED, JSON.stringify(memory), { output: "full" }]],
    ]) {
      assert.deepEqual(outcome(() => node[name](...args)), unstaged(() => outcome(() => node[name](...args))), `${name} ${JSON.stringify(text)}`);
    }
  }
  assert.ok(lone > 100 && lone < 1400, `some texts hold a lone surrogate (${lone})`);
});

test("node: the staging survives an instance reset", () => {
  const text = `${LINES}\n${JSON.stringify({ content: "Größe 東京 😀 ".repeat(40), query: "größe" })}`;
  const expected = unstaged(() => outcome(() => node.scoreCandidates(SHARED, text, { output: "full" })));
  const { resets } = node.memoryStats();
  node.configureLimits({ resetMemoryBytes: 0 });
  try {
    for (let i = 0; i < 3; i++) assert.deepEqual(outcome(() => node.scoreCandidates(SHARED, text, { output: "full" })), expected);
  } finally {
    node.configureLimits({ resetMemoryBytes: 128 * 1024 * 1024 });
  }
  assert.ok(node.memoryStats().resets >= resets + 3);
  // The fresh instance got the writer again: a lone surrogate in a long member is read from the copied units.
  const lone = { content: `${"a".repeat(200)}\ud800`, query: "a", ...SHARED };
  assert.deepEqual(outcome(() => node.scoreMemory(lone)), unstaged(() => outcome(() => node.scoreMemory(lone))));
  assert.equal(typeof nodeGlue.__lians_utf16, "function");
});
