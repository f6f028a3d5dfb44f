// Type-level test of `lians-score/verify` (checked by `tsc --noEmit`; never run).
import {
  verifyRecallReceipt, verifyContextReceipt, verifyEvidencePack, canonicalJson, sha256Hex, createVerifyingFetch,
  LiansScoreError, LiansVerificationError, init, initSync, isInitialized, RECALL_RECEIPT_SCHEMA,
} from "lians-score/verify";
import type { VerificationReport, RecallGiven, VerifyingFetchOptions } from "lians-score/verify";
import { scoreMemory } from "lians-score/verify"; // a type-only name here: the verify entry has no scorer

await init();
const report: VerificationReport = verifyRecallReceipt("{}", { query: "q" } satisfies RecallGiven);
verifyContextReceipt(new Uint8Array(), { context_text: "c" });
verifyEvidencePack("{}", { trusted_public_key: "k" });
const hex: string = sha256Hex("abc") + canonicalJson("[1]");
const schema: "lians.recall-receipt.v2" = RECALL_RECEIPT_SCHEMA;
const opts: VerifyingFetchOptions = { baseUrl: "https://lians.example", onInvalid: "report" };
declare function myFetch(input: string): Promise<{ ok: boolean }>;
const f: typeof myFetch = createVerifyingFetch(myFetch, opts);
const r = await createVerifyingFetch(myFetch, opts)("https://lians.example/v1/recall");
const valid: boolean | undefined = r.liansVerification?.valid;
void valid;
const e: LiansScoreError = new LiansVerificationError(report);
initSync(new Uint8Array());
void [hex, schema, f, e, isInitialized()];
// @ts-expect-error the scorer is not in the verify-only entry
scoreMemory({ content: "x", reference_time: "2026-01-01T00:00:00" });
