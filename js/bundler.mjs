// Bundler entry (wasm-pack `bundler` target: the bundler wires the .wasm as an
// ES module import, e.g. webpack `experiments.asyncWebAssembly`). Ready on import.
import * as glue from "../dist/bundler/lians_score.js";

export * from "./constants.mjs";

export async function init() {}
export function initSync() {}
export function isInitialized() {
  return true;
}

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
} = glue;
