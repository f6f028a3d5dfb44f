import { scoreMemory, verifyEvidencePack, type ScoreMemoryResult, type VerificationReport } from "lians-score";
const r: ScoreMemoryResult = scoreMemory({ content: "x", reference_time: "2026-08-01T00:00:00" });
const v: VerificationReport = verifyEvidencePack("{}", { allow_unsigned: true });
// @ts-expect-error receipts and packs are raw text
verifyEvidencePack({});
export { r, v };
