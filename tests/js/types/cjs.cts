// Type-level test of the CommonJS declarations.
import lians = require("lians-score");

const result: lians.ScoreMemoryResult = lians.scoreMemory({ content: "x", reference_time: "2026-08-01T00:00:00" });
const report: lians.VerificationReport = lians.verifyEvidencePack("{}", { allow_unsigned: true });
const version: "lians-memory-scoring-v2" = lians.SCORING_POLICY_VERSION;
// @ts-expect-error receipts are text
lians.verifyContextReceipt({});
export = { result, report, version };
