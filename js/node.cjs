"use strict";
// Node.js CommonJS entry (wasm-pack `nodejs` target): the wasm is read and
// instantiated synchronously on first require. init()/initSync() are no-ops
// kept for API symmetry with the browser entry.
const glue = require("../dist/node/lians_score.js");

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
  scoreMemory: glue.scoreMemory,
  scoreCandidates: glue.scoreCandidates,
  tokenizeForScoring: glue.tokenizeForScoring,
  detectRiskTags: glue.detectRiskTags,
  evaluateAdmission: glue.evaluateAdmission,
  rescoreReviewItem: glue.rescoreReviewItem,
  rankPositionScore: glue.rankPositionScore,
  sortCandidates: glue.sortCandidates,
  canonicalJson: glue.canonicalJson,
  sha256Hex: glue.sha256Hex,
  verifyRecallReceipt: glue.verifyRecallReceipt,
  verifyContextReceipt: glue.verifyContextReceipt,
  verifyEvidencePack: glue.verifyEvidencePack,
};
