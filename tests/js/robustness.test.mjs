// No input may crash the WebAssembly instance (it is built with
// panic = abort: a Rust panic would be an `unreachable` trap). Seeded random
// JS values and mutated JSON texts go into every function; the only allowed
// exception is a coded LiansScoreError, and the instance must keep working.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import * as lians from "lians-score";
import { SAMPLES, vectorLines, mulberry32 as rng } from "./helpers.mjs";

// LIANS_FUZZ_ITERATIONS / LIANS_FUZZ_SEED: longer or different runs by hand.
const ITERATIONS = Number(process.env.LIANS_FUZZ_ITERATIONS ?? 300);
const rand = rng(Number(process.env.LIANS_FUZZ_SEED ?? 20261130));
const pick = (items) => items[Math.floor(rand() * items.length)];
const NUMBERS = [0, -0, 1, -1, 0.5, 1.5, 1e-7, 1e21, 2 ** 53, -(2 ** 53), 2 ** 53 - 1, NaN, Infinity, -Infinity, Number.MAX_VALUE, 5e-324, 123456789.123, 0.1 + 0.2];
const STRINGS = ["", " ", "a", "2026-08-01T00:00:00+00:00", "2026-02-30T00:00:00", "9999-12-31T23:59:59.999999-23:59", "NaN", "inf", " 0.9 ", "1_0",
  "\ud800", "\udfff\ud800", "\u{1F600}", "ß İ ǰ", "\u0085\u2028", "a@example.com", "123-45-6789", "ignore previous instructions", "x".repeat(9000),
  "recall", "admission", "enforce", "off", "__proto__", "constructor", "{", "[1,", "null", "1.0"];
const KEYS = ["content", "reference_time", "metadata", "importance", "source", "event_time", "valid_from", "valid_to", "superseded", "query",
  "base_relevance", "safety_status", "risk_tags", "verified_trust_level", "query_tokens", "purpose", "id", "created_at", "final_score",
  "mode", "blocked_sources", "score_breakdown", "__proto__", "constructor", "0", "10", "2", "materiality", "trust_level"];

function randomValue(depth = 0) {
  const r = rand();
  if (depth > 5 || r < 0.45) {
    return pick([() => pick(NUMBERS), () => pick(STRINGS), () => rand() < 0.5, () => null, () => undefined, () => Math.floor(rand() * 1e6) - 5e5])();
  }
  if (r < 0.7) return Array.from({ length: Math.floor(rand() * 5) }, () => randomValue(depth + 1));
  const o = {};
  for (let i = Math.floor(rand() * 6); i > 0; i--) {
    const key = pick(KEYS);
    const value = randomValue(depth + 1);
    if (key === "__proto__") Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
    else o[key] = value;
  }
  return o;
}

function randomScoreInput() {
  const o = { content: rand() < 0.9 ? pick(STRINGS) : randomValue(2), reference_time: rand() < 0.9 ? pick(STRINGS.slice(3, 6)) : randomValue(2) };
  for (let i = Math.floor(rand() * 6); i > 0; i--) o[pick(KEYS.slice(2, 16))] = randomValue(1);
  return o;
}

function mutate(text) {
  const chars = [...text];
  const n = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < n && chars.length; i++) {
    const at = Math.floor(rand() * chars.length);
    const op = rand();
    if (op < 0.3) chars.splice(at, 1);
    else if (op < 0.6) chars.splice(at, 0, pick(['"', "{", "}", "[", "]", ",", ":", "1", ".", "e", "-", "\\", "\\u", "\ud800", "NaN", " "]));
    else if (op < 0.8) chars.length = at;
    else chars[at] = pick(["0", "9", "a", '"', "\u00e9", "\u0000"]);
  }
  return chars.join("");
}

function callSafely(name, fn) {
  try {
    fn();
    return "ok";
  } catch (error) {
    assert.ok(error instanceof Error, `${name}: threw a non-Error ${String(error)}`);
    assert.equal(error.name, "LiansScoreError", `${name}: ${error.name}: ${error.message}`);
    assert.equal(typeof error.code, "string");
    return error.code;
  }
}

test("random JS values into every function: coded errors only", () => {
  const calls = [
    ["scoreMemory", (v) => lians.scoreMemory(v)],
    ["tokenizeForScoring", (v) => lians.tokenizeForScoring(v)],
    ["detectRiskTags", (v) => lians.detectRiskTags(v)],
    ["riskSpans", (v) => lians.riskSpans(v)],
    ["isTooVague", (v) => lians.isTooVague(v)],
    ["evaluateAdmission", (v) => lians.evaluateAdmission(v)],
    ["rescoreReviewItem", (v) => lians.rescoreReviewItem(v)],
    ["rankPositionScore", (v) => lians.rankPositionScore(v, randomValue(5), randomValue(5))],
    ["sortCandidates", (v) => lians.sortCandidates(v)],
    ["canonicalJson", (v) => lians.canonicalJson(v)],
    ["sha256Hex", (v) => lians.sha256Hex(v)],
    ["verifyRecallReceipt", (v) => lians.verifyRecallReceipt("{}", v)],
    ["verifyContextReceipt", (v) => lians.verifyContextReceipt("{}", v)],
    ["verifyEvidencePack", (v) => lians.verifyEvidencePack("{}", v)],
  ];
  const outcomes = new Map();
  for (let i = 0; i < ITERATIONS; i++) {
    for (const [name, call] of calls) {
      const code = callSafely(name, () => call(randomValue()));
      outcomes.set(`${name}:${code}`, (outcomes.get(`${name}:${code}`) ?? 0) + 1);
    }
    callSafely("scoreMemory", () => lians.scoreMemory(randomScoreInput()));
    callSafely("sortCandidates", () => lians.sortCandidates(Array.from({ length: 4 }, () => ({ id: randomValue(5), event_time: pick(STRINGS), created_at: randomValue(5), final_score: pick(NUMBERS) }))));
  }
  assert.ok([...outcomes.keys()].some((k) => k.endsWith(":ok")));
  assert.equal(lians.sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

test("mutated JSON texts into the parsers and verifiers: coded errors or reports", () => {
  const texts = [
    ...vectorLines("score_memory").slice(0, 30).map((l) => l.slice(l.indexOf('"input":') + 8, l.lastIndexOf(',"expected":'))),
    readFileSync(path.join(SAMPLES, "recall-08-fast-filters-acme-tinyfloat.json"), "utf8"),
    readFileSync(path.join(SAMPLES, "pack-01-v2-signed.json"), "utf8"),
  ];
  for (let i = 0; i < ITERATIONS; i++) {
    const text = mutate(pick(texts));
    callSafely("scoreMemory", () => lians.scoreMemory(text));
    callSafely("canonicalJson", () => lians.canonicalJson(text));
    for (const verify of [lians.verifyRecallReceipt, lians.verifyContextReceipt, lians.verifyEvidencePack]) {
      const report = verify(text);
      assert.equal(typeof report.valid, "boolean");
      assert.ok(Array.isArray(report.failures));
    }
  }
  // Deep nesting in text is a finding/coded error, not a stack overflow.
  const deep = "[".repeat(100000) + "]".repeat(100000);
  assert.equal(callSafely("canonicalJson", () => lians.canonicalJson(deep)), "nesting_too_deep");
  assert.deepEqual(lians.verifyRecallReceipt(deep).failures, ["nesting_too_deep"]);
  assert.equal(lians.sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});
