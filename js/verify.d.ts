// Type declarations of `lians-score/verify`: the verifiers, canonical JSON,
// hashing, createVerifyingFetch, the error classes, init and the constants of
// the full package (./index.d.ts), nothing else. Copied to verify.d.mts /
// verify.d.cts (importing ./index.mjs / ./index.cjs) by scripts/build.sh and
// the prepack script, as index.d.ts is.
export type * from "./index.js";
export {
  SCORING_POLICY_VERSION,
  RECALL_RECEIPT_SCHEMA,
  CONTEXT_RECEIPT_SCHEMA,
  EVIDENCE_PACK_SCHEMA,
  VERSION,
  LiansScoreError,
  LiansVerificationError,
  init,
  initSync,
  isInitialized,
  canonicalJson,
  sha256Hex,
  verifyRecallReceipt,
  verifyContextReceipt,
  verifyEvidencePack,
  createVerifyingFetch,
  configureLimits,
  memoryStats,
} from "./index.js";
