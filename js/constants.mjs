// Constants shared by every ESM entry. Checked against package.json, Cargo.toml
// and the scorer's own output by tests/js/api.test.mjs ("VERSION equals package.json, Cargo.toml and
// the crate", "exports every documented function and constant").
export const SCORING_POLICY_VERSION = "lians-memory-scoring-v2";
export const RECALL_RECEIPT_SCHEMA = "lians.recall-receipt.v2";
export const CONTEXT_RECEIPT_SCHEMA = "lians.context-receipt.v2";
export const EVIDENCE_PACK_SCHEMA = "https://lians.ai/schemas/evidence-pack/v2";
export const VERSION = "0.1.0";
