"use strict";
// Node.js CommonJS entry (wasm-pack `nodejs` target): the wasm is instantiated
// synchronously on first require, from bytes embedded in dist/node (no file is
// read at run time, so bundlers such as Next.js's can bundle this entry).
// init()/initSync() are no-ops kept for API symmetry with the browser entry.
// Body caps and the instance reset as in js/core.mjs (js/limits.mjs,
// docs/edge-memory.md): the default cap is the library's 32 MiB, and after a
// call that left the wasm memory over resetMemoryBytes (default 128 MiB,
// NODE_RESET_MEMORY_BYTES in src/api/limits.rs) the glue instantiates
// a fresh instance from the same compiled module (its __lians_reset, appended
// by scripts/embed-wasm.mjs), so one hostile body does not pin its memory for
// the life of the process.
const glue = require("../dist/node/lians_score.js");
const { LiansScoreError, LiansVerificationError, adopting } = require("./errors.cjs");
const { verifyingFetchFor } = require("./fetch.cjs");
const { BODY_NAMES, HOST_SHA256_MIN_BYTES, MAX_BODY_BYTES, NODE_RESET_MEMORY_BYTES, checkBody, hostSha256, readLimits, recycleText, ucs2Writer, utf8Text } = require("./limits.cjs");

// SHA-256 through node:crypto (OpenSSL), handed to every instance (js/limits.mjs hostSha256).
const sha256 = hostSha256(require("node:crypto"));
glue.setHostSha256(sha256, HOST_SHA256_MIN_BYTES);

// Long strings reach the wasm as their UTF-16 units (js/limits.mjs ucs2Writer): registered with each instance.
const writer = typeof glue.__lians_utf16 === "function" ? ucs2Writer(glue.__lians_memory) : undefined;
const staged = writer !== undefined;
const stage = () => staged && glue.__lians_utf16(writer);
stage();

// scoreMemory's result built here from the numbers the wasm leaves in its memory (glue.__lians_score_memory).
const scoreMemory = packedScoreMemory(glue) ?? glue.scoreMemory;

let limits = { maxBodyBytes: MAX_BODY_BYTES, resetMemoryBytes: NODE_RESET_MEMORY_BYTES };
/** Instances dropped so far (memoryStats().resets). */
let resets = 0;
/** Calls in progress: a call re-entered from a getter of its own argument must not swap the instance under it. */
let depth = 0;

/** The glue's function `name`: coded errors adopted, the body cap checked, the instance reset when grown. */
function guarded(name) {
  const fn = adopting(name === "scoreMemory" ? scoreMemory : glue[name]);
  const body = BODY_NAMES.includes(name);
  return {
    [name](...args) {
      if (body) args = checkBody(args, limits.maxBodyBytes);
      args = utf8Text(name, args, staged); // JSON text as UTF-8 bytes, or left to the wasm's staging (js/limits.mjs)
      depth++;
      try {
        return fn(...args);
      } finally {
        recycleText(name, args);
        if (--depth === 0 && glue.__lians_memory_bytes() > limits.resetMemoryBytes) {
          glue.__lians_reset();
          glue.setHostSha256(sha256, HOST_SHA256_MIN_BYTES);
          stage();
          resets++;
        }
      }
    },
  }[name];
}

/**
 * scoreMemory through `__lians_score_memory` (issue #32 round 12): the wasm scores as its scoreMemory
 * does and leaves the breakdown in its memory as numbers (crates/wasm/src/interop.rs `packed`: the
 * scores, the gates, and the strings as addresses and lengths of their UTF-8); the object is built
 * here as one literal of fixed shape instead of the wasm printing JSON text and `JSON.parse` reading
 * it (~9 % of a call). Strings the wasm marks static (fixed reasons) are decoded once (static
 * addresses are the module's: the same in every instance). The policy version, the limits and a
 * weight table's weights are the same in every result with that table: they are copied from the
 * glue's own object for purposes "recall" and "admission", which select the scorer's two tables, on
 * the first call, which also checks that both ways give the same objects (keys, order, values): any
 * difference, or a glue without the export (other builds), keeps the glue's scoreMemory.
 */
function packedScoreMemory(glue) {
  const score = glue.__lians_score_memory;
  const NodeBuffer = globalThis.Buffer;
  if (typeof score !== "function" || typeof NodeBuffer?.prototype.utf8Slice !== "function") return undefined;
  const texts = new Map();
  const tables = new Map();
  let buffer, f64, bytes;
  const text = (at, length) => bytes.utf8Slice(at, at + length);
  const reason = (i) => {
    if (f64[i + 2] !== 1) return text(f64[i], f64[i + 1]);
    const key = f64[i] + f64[i + 1] * 2 ** 32; // address and length (a static text may start another)
    let s = texts.get(key);
    if (s === undefined) texts.set(key, (s = text(f64[i], f64[i + 1])));
    return s;
  };
  /** The index of the numbers at `at` in a view of the current memory. */
  const view = (at) => {
    const current = glue.__lians_memory().buffer;
    if (current !== buffer) {
      buffer = current;
      f64 = new Float64Array(buffer);
      bytes = NodeBuffer.from(buffer);
    }
    return at / 8;
  };
  function packed(input) {
    const at = score(input);
    if (typeof at !== "number") return at; // a purpose that is not a well-formed string: the glue's object
    const i = view(at);
    const table = tables.get(f64[i + 34]);
    if (table === undefined) return glue.scoreMemory(input); // (a table not learned below: none)
    const gates = f64[i + 8];
    const safety = (gates & 1) === 1;
    const temporal = (gates & 2) === 2;
    return {
      importance_score: f64[i],
      confidence_score: f64[i + 1],
      trust_score: f64[i + 2],
      freshness_score: f64[i + 3],
      relevance_score: f64[i + 4],
      stability_score: f64[i + 5],
      safety_score: f64[i + 6],
      final_score: f64[i + 7],
      eligible: safety && temporal,
      safety_eligible: safety,
      temporal_eligible: temporal,
      purpose: text(f64[i + 9], f64[i + 10]),
      scoring_policy_version: table.version,
      reference_time: text(f64[i + 11], f64[i + 12]),
      scoring_limits: { ...table.limits },
      weights: { ...table.weights },
      reasons: [reason(i + 13), reason(i + 16), reason(i + 19), reason(i + 22), reason(i + 25), reason(i + 28), reason(i + 31)],
    };
  }
  /** Learn the two tables from the glue's objects, then check the objects built here against the glue's. */
  const learned = () => {
    try {
      const probes = ["recall", "admission"].map((purpose) => ({ content: "probe 1", reference_time: "2026-01-01T00:00:00+00:00", query: "probe", source: "chat", purpose }));
      for (const probe of probes) {
        const o = glue.scoreMemory(probe);
        const i = view(score(probe));
        tables.set(f64[i + 34], { version: o.scoring_policy_version, limits: { ...o.scoring_limits }, weights: { ...o.weights } });
      }
      return tables.size === 2 && probes.every((probe) => JSON.stringify(packed(probe)) === JSON.stringify(glue.scoreMemory(probe)));
    } catch {
      return false;
    }
  };
  let fast;
  return function scoreMemory(input) {
    fast ??= learned();
    return fast ? packed(input) : glue.scoreMemory(input);
  };
}

module.exports = {
  SCORING_POLICY_VERSION: "lians-memory-scoring-v2",
  RECALL_RECEIPT_SCHEMA: "lians.recall-receipt.v2",
  CONTEXT_RECEIPT_SCHEMA: "lians.context-receipt.v2",
  EVIDENCE_PACK_SCHEMA: "https://lians.ai/schemas/evidence-pack/v2",
  VERSION: "0.1.0",
  init: async function init() {},
  initSync: function initSync() {},
  isInitialized: function isInitialized() {
    return true;
  },
  // BEGIN GENERATED by scripts/gen-entries.mjs from js/names.mjs: do not edit
  scoreMemory: guarded("scoreMemory"),
  scoreCandidates: guarded("scoreCandidates"),
  tokenizeForScoring: guarded("tokenizeForScoring"),
  detectRiskTags: guarded("detectRiskTags"),
  riskSpans: guarded("riskSpans"),
  isTooVague: guarded("isTooVague"),
  evaluateAdmission: guarded("evaluateAdmission"),
  rescoreReviewItem: guarded("rescoreReviewItem"),
  rankPositionScore: guarded("rankPositionScore"),
  sortCandidates: guarded("sortCandidates"),
  canonicalJson: guarded("canonicalJson"),
  sha256Hex: guarded("sha256Hex"),
  verifyRecallReceipt: guarded("verifyRecallReceipt"),
  verifyContextReceipt: guarded("verifyContextReceipt"),
  verifyEvidencePack: guarded("verifyEvidencePack"),
  auditRecall: guarded("auditRecall"),
  // END GENERATED
};
/** Set the default body cap (`maxBodyBytes`) and the instance-reset threshold (`resetMemoryBytes`), in bytes. */
module.exports.configureLimits = function configureLimits(next) {
  limits = readLimits(next, limits);
};
/** The wasm memory of the current instance, the instances dropped so far and the limits in force. */
module.exports.memoryStats = function memoryStats() {
  return { memoryBytes: glue.__lians_memory_bytes(), resets, ...limits };
};
module.exports.LiansScoreError = LiansScoreError;
module.exports.LiansVerificationError = LiansVerificationError;
module.exports.createVerifyingFetch = verifyingFetchFor(module.exports);
