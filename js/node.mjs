// Node.js ESM entry: the same instance as the CommonJS entry.
import api from "./node.cjs";

export const {
  SCORING_POLICY_VERSION,
  RECALL_RECEIPT_SCHEMA,
  CONTEXT_RECEIPT_SCHEMA,
  EVIDENCE_PACK_SCHEMA,
  VERSION,
  init,
  initSync,
  isInitialized,
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
