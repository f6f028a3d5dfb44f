// The wasm exports that form the public API (the CLI helpers stay internal).
export const API_NAMES = [
  "scoreMemory",
  "scoreCandidates",
  "tokenizeForScoring",
  "detectRiskTags",
  "evaluateAdmission",
  "rescoreReviewItem",
  "rankPositionScore",
  "sortCandidates",
  "canonicalJson",
  "sha256Hex",
  "verifyRecallReceipt",
  "verifyContextReceipt",
  "verifyEvidencePack",
];
