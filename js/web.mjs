// Browser / generic ESM entry (wasm-pack `web` target). Call `await init()`
// (or `initSync(bytesOrModule)`) once before using the functions; both are
// idempotent. No top-level await, so this module can be imported anywhere.
import initGlue, * as glue from "../dist/web/lians_score.js";
import { API_NAMES } from "./names.mjs";

export * from "./constants.mjs";

let ready = false;

function notInitialized(name) {
  const error = new Error(
    `lians-score: ${name}() was called before the WebAssembly module was initialized; ` +
      "call `await init()` (or `initSync(...)`) first",
  );
  error.name = "LiansScoreError";
  error.code = "not_initialized";
  error.path = "";
  return error;
}

/** Fetch/compile/instantiate the wasm (idempotent; concurrent calls share one load). */
export async function init(input) {
  if (ready) return;
  if (hasOwn(input, "module_or_path")) input = input.module_or_path;
  // A URL object (or anything URL-like with `href`) is fetched by its text.
  if (input !== null && typeof input === "object" && typeof input.href === "string") input = input.href;
  await initGlue(input === undefined ? undefined : { module_or_path: input });
  ready = true;
}

/** Instantiate synchronously from a `WebAssembly.Module` or the `.wasm` bytes (idempotent). */
export function initSync(input) {
  if (ready) return;
  if (input === undefined) {
    throw new TypeError("lians-score: initSync() needs the WebAssembly.Module or the .wasm bytes");
  }
  glue.initSync({ module: hasOwn(input, "module") ? input.module : input });
  ready = true;
}

/** True once init()/initSync() has completed. */
export function isInitialized() {
  return ready;
}

function hasOwn(value, key) {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype && Object.hasOwn(value, key);
}

function guarded(name) {
  const fn = glue[name];
  return {
    [name](...args) {
      if (!ready) throw notInitialized(name);
      return fn(...args);
    },
  }[name];
}

const api = Object.fromEntries(API_NAMES.map((name) => [name, guarded(name)]));

export const {
  scoreMemory,
  scoreCandidates,
  tokenizeForScoring,
  detectRiskTags,
  evaluateAdmission,
  rescoreReviewItem,
  rankPositionScore,
  sortCandidates,
  canonicalJson,
  sha256Hex,
  verifyRecallReceipt,
  verifyContextReceipt,
  verifyEvidencePack,
} = api;
