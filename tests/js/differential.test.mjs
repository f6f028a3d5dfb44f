// Native vs WebAssembly differential test: seeded random inputs (every
// script, combining marks, odd digits and spaces, lone surrogates, nested
// metadata, tie-prone numbers, odd number spellings, random receipts and
// Evidence Packs) go through the native CLI (target/release/lians-score)
// and through the wasm build (dist/node), and the outputs must be
// byte-identical. The JS API (plain JS values out) must agree with the
// native output by value as well.
//
//   node --test tests/js/differential.test.mjs            # ~10 s
//   LIANS_DIFF_ITERATIONS=20000 LIANS_DIFF_SEED=7 node --test tests/js/differential.test.mjs
//
// LIANS_DIFF_ITERATIONS is the number of inputs per family (default 250);
// LIANS_DIFF_SEED picks the stream (default 20261130). A failure prints the
// seed, the input line and both outputs; the inputs are kept in
// test-output/differential/ for replaying by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT, SAMPLES, mulberry32 } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const glue = require(path.join(ROOT, "dist/cli/lians_score.js"));
const lians = require(path.join(ROOT, "js/node.cjs"));

const ITERATIONS = Number(process.env.LIANS_DIFF_ITERATIONS ?? 250);
const SEED = Number(process.env.LIANS_DIFF_SEED ?? 20261130);
const OUT = path.join(ROOT, "test-output/differential");
const NATIVE = path.join(ROOT, "target/release/lians-score");

// ---------------------------------------------------------------- random

let rand = mulberry32(SEED);
const int = (n) => Math.floor(rand() * n);
const pick = (items) => items[int(items.length)];
const chance = (p) => rand() < p;

// ---------------------------------------------------------------- text

const SCRIPTS = [
  "Alice prefers window seats", "Straße ﬁnance", "ΣΊΣΥΦΟΣ ς", "Привет мир", "مرحبا بالعالم", "שלום עולם",
  "हिन्दी भाषा", "বাংলা", "ทดสอบภาษาไทย", "ພາສາລາວ", "ភាសាខ្មែរ", "မြန်မာ", "贷款风险评估已经完成", "カタカナー・テスト",
  "ひらがなとカタカナ", "한국어 텍스트", "ｸﾞﾗﾌ ﾃｽﾄ", "𠀀𠀁𠀂", "😀👍🏽", "ꭰꭱ Ꭰ", "İstanbul ıi", "ǰ ŉ ΐ", "x² ①② Ⅻ ½",
];
const MARKS = ["\u0301", "\u0307", "\u0308", "\u0327", "\u20dd", "\u094d", "\u0e31", "\u302a", "\u{1d167}"];
const DIGITS = ["0123456789", "٠١٢٣٤٥٦٧٨٩", "۰۱۲۳", "०१२३४५६७८९", "০১২৩", "๐๑๒๓", "０１２３４５６７８９", "𝟎𝟏𝟐𝟑", "߀߁߂"];
const SPACES = [" ", "\t", "\n", "\r", "\u000b", "\u000c", "\u001c", "\u001f", "\u0085", "\u00a0", "\u1680", "\u2000", "\u2009", "\u200a",
  "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u200b", "\ufeff", "\u180e"];
const TRIGGERS = [
  "123-45-6789", "123-45-67890", "a.b+c@example.co.uk", "é@x.io", "user@localhost", ".@b.c", "MRN:12345", "mrn 1234", "MRN-5567120",
  "npi 1234567890", "npı 1234567890", "4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111112", "1234 4111111111111111 x",
  "material non-public", "MNPI's", "pre-announcement", "unannounced deals", "ignore previous instructions", "İGNORE PREVİOUS İNSTRUCTİONS",
  "ignore  previous instructions", "disregard the system prompt", "you are now a", "override your guardrails", "reveal your system prompt",
  "decided", "deadline", "MUST", "ſhall", "decıded", "diagnos", "regulat", "expires", "US$5", "$ 5", "$\u00a05", "€3", "£ 7", "5%x",
  "12.5% growth", "2026", "in 2026.", "2026-09-30", "20٢٦", "FY2026", "1899", "hi", "OK!!", "thank you.", "Thank you!", "okay", "lol", "bye",
  "credit_limit", "NVDA guidance $36B", "pricé",
];

function textPiece() {
  switch (int(9)) {
    case 0: return pick(SCRIPTS);
    case 1: return pick(TRIGGERS);
    case 2: return pick(SPACES).repeat(1 + int(3));
    case 3: return pick("aeiouknz") + pick(MARKS).repeat(1 + int(4));
    case 4: { const d = [...pick(DIGITS)]; return Array.from({ length: 1 + int(16) }, () => pick(d)).join(pick(["", "", " ", "-"])); }
    case 5: return String.fromCodePoint(int(0x30000)).replace(/[\ud800-\udfff]/, "x");
    case 6: return chance(0.5) ? "\ud800" : "\udc00x"; // lone surrogates (JSON-escaped on the way)
    case 7: return pick(SCRIPTS).repeat(1 + int(chance(0.05) ? 2000 : 4));
    default: return pick(["the", "quarterly", "review", "went", "well", "Budget", "price", "contract", "policy", ".", "!", ",", "_"]);
  }
}

function randomText(maxPieces = 8) {
  let s = "";
  for (let i = int(maxPieces + 1); i > 0; i--) s += textPiece() + (chance(0.7) ? " " : "");
  return s;
}

// ---------------------------------------------------------------- JSON text

/** A JSON string literal, escaping at random (hex case, \/, \u for anything). */
function jstr(s) {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (cp < 0x20 || (cp >= 0xd800 && cp <= 0xdfff)) out += "\\u" + cp.toString(16).padStart(4, "0");
    else if (ch === "/" && chance(0.3)) out += "\\/";
    else if (chance(0.05)) {
      const units = cp > 0xffff ? [0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff)] : [cp];
      for (const u of units) {
        const hex = u.toString(16).padStart(4, "0");
        out += "\\u" + (chance(0.5) ? hex.toUpperCase() : hex);
      }
    } else out += ch;
  }
  return out + '"';
}

const NUMBERS = [
  "0", "1", "-1", "0.0", "-0.0", "1.0", "0.5", "0.35", "0.1", "0.7", "0.2", "0.30000000000000004", "1e-7", "1E-7", "1e-07", "1e+16",
  "1e16", "1.5e300", "1e400", "-1e400", "5e-324", "2.5e-324", "0.0000005", "0.0000015", "0.1234565", "0.8250005", "2.675", "0.9999995",
  "9007199254740993", "18446744073709551616", "-0", "100", "3", "7", "0.945155", "945155e-6", "0.94515499999999997", "-0e-1", "12345678901234567890123",
];
const LENIENT = ['"NaN"', '"Infinity"', '"-Infinity"', '" 0.9 "', '"1_0"', '"nan"', '"inf"', '"abc"', '"0x10"', '"1e-7"', '""', '"١٢"'];

function jnum() {
  return chance(0.8) ? pick(NUMBERS) : String((rand() - 0.3) * 10 ** (int(8) - 4));
}

// Raw newlines only inside receipt wires (they travel as JSON strings);
// vector lines are JSON Lines.
let newlines = false;
function ws() {
  if (chance(0.85)) return "";
  return newlines ? pick([" ", "\n", "\t", "\r\n  "]) : pick([" ", "\t", "  "]);
}

function jobj(members, shuffle = false) {
  if (shuffle) members = members.slice().sort(() => rand() - 0.5);
  return "{" + ws() + members.map(([k, v]) => `${jstr(k)}${ws()}:${ws()}${v}`).join("," + ws()) + ws() + "}";
}

function jarr(items) {
  return "[" + ws() + items.join("," + ws()) + ws() + "]";
}

function jvalue(depth) {
  const r = rand();
  if (depth <= 0 || r < 0.5) {
    return pick([() => "null", () => "true", () => "false", jnum, () => jstr(randomText(2)), () => jstr(pick(["", "x", "True", "_hidden"]))])();
  }
  if (r < 0.7) return jarr(Array.from({ length: int(5) }, () => jvalue(depth - 1)));
  return jobj(Array.from({ length: int(6) }, () => [randomKey(), jvalue(depth - 1)]));
}

const META_KEYS = ["note", "site", "ticket", "speaker", "_admission", "_score", "_x", "materiality", "source_trust", "trust_level", "", "a", "b", "B",
  "10", "9", "~", "é", "\u00e9", "e\u0301", "z", "tags", "nested", "list", "count", "𠀀", "ｋｅｙ"];

function randomKey() {
  return chance(0.8) ? pick(META_KEYS) : randomText(1).slice(0, 12);
}

function metadata(depth = 5) {
  const n = chance(0.1) ? 40 + int(40) : int(8);
  const members = [];
  for (let i = 0; i < n; i++) members.push([chance(0.3) ? `k${int(100)}` : randomKey(), jvalue(depth)]);
  if (chance(0.3)) members.push([pick(["materiality", "source_trust", "trust_level"]), jstr(pick(["high", "low", "verified", " Trusted_Source ", "system"]))]);
  return jobj(members);
}

const OFFSETS = ["", "+00:00", "Z", "+02:00", "-09:30", "+05:45", "+14:00", "-23:59"];
function datetime() {
  if (chance(0.05)) return jstr(pick(["", "2026-02-30T00:00:00", "2026-13-01T00:00:00", "not a date", "2026-01-01 00:00:00", "2026-08-01"]));
  const y = pick([1, 1970, 1999, 2000, 2024, 2025, 2026, 2026, 2026, 2027, 9999]);
  const p = (n, w = 2) => String(n).padStart(w, "0");
  let t = `${p(y, 4)}-${p(1 + int(12))}-${p(1 + int(28))}T${p(int(24))}:${p(int(60))}:${p(int(60))}`;
  if (chance(0.3)) t += "." + p(int(1000000), 6);
  return jstr(t + pick(OFFSETS));
}

// ---------------------------------------------------------------- inputs

function scoreMemoryInput() {
  const m = [["content", jstr(randomText())], ["reference_time", datetime()]];
  const optional = {
    metadata: () => (chance(0.9) ? metadata() : pick(["null", "[]", '"x"'])),
    importance: () => (chance(0.75) ? jnum() : pick([...LENIENT, "null", "true", "[]"])),
    source: () => (chance(0.9) ? jstr(pick(["user_provided", "imported", "chat", "system", "", " Verified ", "scraped"])) : "null"),
    event_time: () => (chance(0.9) ? datetime() : "null"),
    valid_from: () => (chance(0.9) ? datetime() : "null"),
    valid_to: () => (chance(0.9) ? datetime() : "null"),
    superseded: () => pick(["true", "false", "0", "1", '""', '"x"', "null", "[]"]),
    query: () => (chance(0.9) ? jstr(randomText(4)) : pick(["null", '""', '"   "'])),
    base_relevance: () => (chance(0.75) ? jnum() : pick([...LENIENT, "null"])),
    safety_status: () => jstr(pick(["safe", "approved", "review_needed", "quarantined", "rejected", " Safe ", "unknown"])),
    risk_tags: () => jarr(Array.from({ length: int(4) }, () => jstr(pick(["injection", "pii:email", "vague", "mnpi", "x", "unsafe"])))),
    verified_trust_level: () => pick(['"verified"', '" Trusted_Source "', '"system"', "null", '"x"']),
    query_tokens: () => (chance(0.8) ? jarr(Array.from({ length: int(6) }, () => jstr(pick(["nvda", "guidance", "贷款", "2026", "x"])))) : "null"),
    purpose: () => jstr(pick(["recall", "admission", "Admission", "other"])),
  };
  for (const key of Object.keys(optional)) if (chance(0.45)) m.push([key, optional[key]()]);
  return jobj(m, chance(0.3));
}

function candidates() {
  const sameInstant = ["2026-01-01T00:00:00+00:00", "2026-01-01T02:00:00+02:00", "2025-12-31T14:30:00-09:30", "2026-01-01T00:00:00"];
  return jarr(
    Array.from({ length: int(7) }, (_, i) => {
      const m = [
        ["id", pick([jstr(`m${int(4)}`), String(int(4)), "null", "1.0", "true", jstr("")])],
        ["event_time", chance(0.7) ? jstr(pick(sameInstant)) : pick([datetime(), "null"])],
        ["created_at", chance(0.7) ? jstr(pick(sameInstant)) : pick([datetime(), "null"])],
      ];
      if (chance(0.8)) m.push(["final_score", chance(0.7) ? pick(["0.5", "0.50", "5e-1", "0.3", "0.30000000000000004", "1", "NaN"]) : pick([jnum(), ...LENIENT])]);
      if (chance(0.1)) m.push(["score_breakdown", jobj([["final_score", jnum()]])]);
      return jobj(m, chance(0.3));
    }),
  );
}

function vectorLine(id) {
  const fn = pick(["score_memory", "score_memory", "score_memory", "tokenize_for_scoring", "rank_position_score", "stable_score_key", "detect_risk_tags", "evaluate"]);
  let input;
  switch (fn) {
    case "score_memory": input = scoreMemoryInput(); break;
    case "tokenize_for_scoring": input = jobj([["value", chance(0.85) ? jstr(randomText(12)) : jvalue(2)]]); break;
    case "rank_position_score": {
      const arg = () => pick([String(int(12)), String(int(12) - 2), jnum(), ...LENIENT, "true", "null", "0.0", '"3"']);
      const total = 1 + int(400);
      const position = chance(0.8) ? String(1 + int(total)) : arg();
      input = jobj([["position", position], ["total", chance(0.8) ? pick([String(total), `${total}.0`, `"${total}"`]) : arg()], ["input_score", chance(0.8) ? jnum() : arg()]]);
      break;
    }
    case "stable_score_key": input = jobj([["candidates", candidates()]]); break;
    case "detect_risk_tags": input = jobj([["content", chance(0.95) ? jstr(randomText(10)) : jvalue(1)]]); break;
    default: {
      const m = [["content", jstr(randomText(8))]];
      if (chance(0.7)) m.push(["source", chance(0.8) ? jstr(pick(["evil", "Evil", " spam.example ", "İmported", "chat", ""])) : "null"]);
      if (chance(0.8)) m.push(["mode", jstr(pick(["enforce", "monitor", "off", "Enforce", ""]))]);
      if (chance(0.6)) m.push(["blocked_sources", chance(0.5) ? jarr([jstr("evil"), jstr("i̇mported"), jstr("spam.example")]) : jstr(" Evil ,, spam.example")]);
      input = jobj(m, chance(0.3));
    }
  }
  return `{"id":${jstr(id)},"fn":${jstr(fn)},"input":${input}}`;
}

function reviewItem() {
  const m = [["content", jstr(randomText())], ["event_time", datetime()], ["risk_tags", jarr(Array.from({ length: int(3) }, () => jstr(pick(["pii:credit_card", "phi:mrn", "injection", "mnpi"]))))]];
  if (chance(0.5)) m.push(["importance", jnum()]);
  if (chance(0.5)) m.push(["metadata", metadata(3)]);
  if (chance(0.5)) m.push(["source", chance(0.8) ? jstr("chat") : "null"]);
  if (chance(0.6)) {
    const b = [["importance_score", jnum()], ["final_score", jnum()], ["scoring_policy_version", jstr(pick(["lians-memory-scoring-v2", "v1"]))], ["reference_time", datetime()], ["eligible", pick(["true", "false"])]];
    m.push(["score_breakdown", jobj(b, true)]);
  }
  return jobj(m, chance(0.3));
}

// ---------------------------------------------------------------- receipts

const sha = (s) => createHash("sha256").update(s, "utf8").digest("hex");
const hex64 = () => Array.from({ length: 64 }, () => "0123456789abcdef"[int(16)]).join("");

function receiptCase(id) {
  newlines = true;
  try {
    return receiptCaseInner(id);
  } finally {
    newlines = false;
  }
}

function receiptCaseInner(id) {
  const kind = pick(["recall", "recall", "context", "canonical", "evidence_pack"]);
  const given = [];
  let wire;
  if (kind === "canonical") {
    wire = jvalue(4);
    if (chance(0.3)) given.push(["expected_sha256", jstr(chance(0.5) ? hex64() : "00")]);
  } else if (kind === "evidence_pack") {
    const pack = readFileSync(path.join(SAMPLES, "pack-01-v2-signed.json"), "utf8");
    wire = chance(0.5) ? pack : mutateText(pack);
    if (chance(0.5)) given.push(["trusted_public_key", jstr(readFileSync(path.join(SAMPLES, "evidence_public_key.b64"), "utf8").trim())]);
    if (chance(0.3)) given.push(["expected_key_id", jstr(pick(["lians-real-test-key", "other"]))]);
    if (chance(0.3)) given.push(["allow_unsigned", pick(["true", "false", '"yes"'])]);
  } else {
    const query = randomText(3);
    const contents = Array.from({ length: int(4) }, () => randomText(3).replace(/[\ud800-\udfff]/g, ""));
    let score = 1;
    const results = contents.map((c, i) => {
      score = chance(0.9) ? score - rand() * 0.1 : score + 0.05;
      const s = pick([score.toFixed(6), String(score), "1.0", "NaN", "1e400"]);
      const r = [["id", jstr(`m${i}`)], ["content_hash", jstr(chance(0.85) ? sha(c) : hex64())], ["score", s]];
      if (chance(0.7)) r.push(["score_breakdown", jobj([["final_score", chance(0.8) ? s : jnum()], ["relevance_score", jnum()]], true)]);
      if (chance(0.4)) {
        r.push(["context_neighbors", jobj([["before", jobj([["returned_content_sha256", chance(0.5) ? jstr(sha("prev")) : "null"], ["returned_metadata_sha256", jstr(sha('{"a":1}'))]])]])]);
      }
      return jobj(r, chance(0.3));
    });
    const schema = kind === "recall" ? "lians.recall-receipt.v2" : "lians.context-receipt.v2";
    const members = [["schema", jstr(chance(0.95) ? schema : "lians.recall-receipt.v1")], ["query_sha256", jstr(chance(0.8) ? sha(query) : hex64())],
      ["reference_time", datetime()], ["filters", chance(0.5) ? jvalue(3) : "{}"], ["results", jarr(results)], ["retrieval_degraded", "false"]];
    if (kind === "context") {
      const context = randomText(4).replace(/[\ud800-\udfff]/g, "");
      members.push(["context_sha256", jstr(chance(0.8) ? sha(context) : hex64())], ["retrieval_receipt_sha256", jstr(hex64())]);
      if (chance(0.5)) given.push(["context_text", jstr(context)]);
      if (chance(0.3)) given.push(["recall_wire", jstr('{"schema":"lians.recall-receipt.v2","results":[]}')]);
    }
    const receipt = jobj(members, chance(0.4));
    wire = chance(0.5) ? receipt : jobj([["receipt", receipt], ["receipt_sha256", jstr(hex64())], ["results", "[]"]], chance(0.5));
    if (chance(0.5)) given.push(["query", jstr(query)]);
    if (chance(0.5)) given.push(["contents", jobj(contents.map((c, i) => [`m${chance(0.9) ? i : 9}`, chance(0.9) ? jstr(c) : "null"]))]);
    if (chance(0.2)) given.push(["neighbor_contents", jobj([["m0", jobj([["before", chance(0.5) ? jstr("prev") : "null"]])]])]);
    if (chance(0.2)) given.push(["neighbor_metadata", jobj([["m0", jobj([["before", jstr('{"a":1.0}')]])]])]);
    if (chance(0.2)) given.push(["expected_sha256", jstr(hex64())]);
  }
  if (chance(0.1)) wire = mutateText(wire);
  const parts = [["id", jstr(id)], ["kind", jstr(kind)], ["wire", jstr(wire)]];
  newlines = false;
  // Raw CR/LF can only be whitespace here (jstr escapes control characters).
  if (given.length || chance(0.5)) parts.push(["given", jobj(given).replace(/[\r\n]/g, " ")]);
  return jobj(parts);
}

function mutateText(text) {
  const chars = [...text];
  for (let n = 1 + int(3); n > 0 && chars.length; n--) {
    const at = int(chars.length);
    const op = rand();
    if (op < 0.4) chars.splice(at, 1);
    else if (op < 0.8) chars.splice(at, 0, pick(['"', "{", "}", "[", "]", ",", ":", "1", ".", "e", "-", "\\", "NaN", " ", "0"]));
    else chars[at] = pick(["0", "9", "a", '"', "é"]);
  }
  return chars.join("");
}

// ---------------------------------------------------------------- running

let built = false;
function nativeBinary() {
  // Always (re)build: a stale binary would report differences that are not there.
  if (!built) {
    const r = spawnSync("cargo", ["build", "--release", "--quiet", "--bin", "lians-score"], { cwd: ROOT, stdio: "inherit" });
    assert.equal(r.status, 0, "cargo build --release --bin lians-score failed");
    assert.ok(existsSync(NATIVE));
    built = true;
  }
  return NATIVE;
}

function runNative(args, file) {
  const r = spawnSync(nativeBinary(), [...args, file], { encoding: "utf8", maxBuffer: 1 << 30 });
  assert.ok(r.status === 0 || r.status === 1, `native ${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
}

function save(name, lines) {
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, name);
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

function compareLines(family, inputs, native, wasm) {
  assert.equal(native.length, wasm.length, `${family}: ${native.length} native vs ${wasm.length} wasm lines`);
  for (let i = 0; i < native.length; i++) {
    if (native[i] !== wasm[i]) {
      assert.fail(`${family} (seed ${SEED}, input ${i}) differs\ninput:  ${inputs[i]}\nnative: ${native[i]}\nwasm:   ${wasm[i]}`);
    }
  }
}

const lines = (text) => text.split("\n").filter((l) => l !== "");

/** Inputs go in batches of BATCH (one native run each), so long runs stay in memory. */
const BATCH = 500;

function batches(count, make) {
  const out = [];
  for (let start = 0; start < count; start += BATCH) {
    out.push(Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => make(start + i)));
  }
  return out;
}

test("scoring vectors: native replay and wasm replay print the same bytes", () => {
  rand = mulberry32(SEED);
  let checked = 0;
  for (const inputs of batches(ITERATIONS * 4, (i) => vectorLine(`diff-${i}`))) {
    const native = lines(runNative(["replay"], save("scoring.jsonl", inputs)));
    const wasm = inputs.map((l) => glue.replayScoringLine(l));
    compareLines("scoring", inputs, native, wasm);
    // The JS API agrees by value (its numbers are JS numbers: 1.0 reads as 1).
    for (let i = 0; i < inputs.length; i++) {
      // Skip markers and non-finite literals (no JS number form) and lone surrogates.
      if (/NaN|Infinity|1e400|\\ud[89a-f]/i.test(inputs[i])) continue;
      const vector = JSON.parse(inputs[i]);
      if (vector.fn !== "score_memory" && vector.fn !== "evaluate") continue;
      const input = inputs[i].slice(inputs[i].indexOf(',"input":') + 9, -1);
      const expected = JSON.parse(native[i]).actual;
      let got;
      try {
        got = vector.fn === "score_memory" ? lians.scoreMemory(input) : lians.evaluateAdmission(input);
      } catch (e) {
        assert.equal(e.name, "LiansScoreError", `${inputs[i]}: ${e}`);
        got = { error: e.code, message: e.message };
      }
      assert.deepEqual(got, expected, `JS API vs native for ${inputs[i]}`);
      checked++;
    }
  }
  assert.ok(checked > ITERATIONS / 2, `only ${checked} JS API comparisons`);
});

test("rescore_review_item: native score and wasm score print the same bytes", () => {
  rand = mulberry32(SEED + 1);
  for (const inputs of batches(ITERATIONS, () => reviewItem())) {
    const file = save("rescore.jsonl", inputs);
    const native = runNative(["score", "--fn", "rescore_review_item"], file);
    const [wasm] = glue.cliScore(readFileSync(file, "utf8"), "rescore_review_item", file);
    compareLines("rescore", inputs, lines(native), lines(wasm));
  }
});

test("receipts and Evidence Packs: native verify-replay and wasm verify-replay print the same bytes", () => {
  rand = mulberry32(SEED + 2);
  const kinds = new Set();
  let valid = 0;
  let total = 0;
  for (const inputs of batches(ITERATIONS, (i) => receiptCase(`rdiff-${i}`))) {
    const native = lines(runNative(["verify-replay"], save("receipts.jsonl", inputs)));
    const wasm = inputs.map((l) => glue.replayReceiptsLine(l));
    compareLines("receipts", inputs, native, wasm);
    for (const l of inputs) kinds.add(JSON.parse(l).kind);
    valid += native.filter((l) => JSON.parse(l).valid).length;
    total += native.length;
  }
  assert.equal(kinds.size, 4, `kinds covered: ${[...kinds]}`);
  assert.ok(valid > 0 && valid < total, `valid ${valid} of ${total}: both outcomes must occur`);
});
