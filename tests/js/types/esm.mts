// Type-level tests of the ESM declarations (checked by `tsc --noEmit`; never run).
import {
  scoreMemory, tokenizeForScoring, detectRiskTags, riskSpans, isTooVague, evaluateAdmission, rescoreReviewItem, rankPositionScore,
  sortCandidates, canonicalJson, sha256Hex, verifyRecallReceipt, verifyContextReceipt, verifyEvidencePack,
  init, initSync, isInitialized, SCORING_POLICY_VERSION, RECALL_RECEIPT_SCHEMA, CONTEXT_RECEIPT_SCHEMA,
  EVIDENCE_PACK_SCHEMA, VERSION, scoreCandidates,
} from "lians-score";
import type {
  ScoreMemoryResult, MemoryScoreBreakdown, AdmissionDecision, VerificationReport, LiansScoreError,
  ErrorCode, SortCandidate, ReviewRescore, JsonValue, RiskSpan,
} from "lians-score";
import type * as Sdk from "./sdk.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
function assertType<T extends true>(): T | void {}

// Constants are literal types.
assertType<Equal<typeof SCORING_POLICY_VERSION, "lians-memory-scoring-v2">>();
assertType<Equal<typeof RECALL_RECEIPT_SCHEMA, "lians.recall-receipt.v2">>();
assertType<Equal<typeof CONTEXT_RECEIPT_SCHEMA, "lians.context-receipt.v2">>();
assertType<Equal<typeof EVIDENCE_PACK_SCHEMA, "https://lians.ai/schemas/evidence-pack/v2">>();
const version: string = VERSION;

// Scoring.
const result: ScoreMemoryResult = scoreMemory({ content: "x", reference_time: "2026-08-01T00:00:00+00:00", metadata: { a: [1, "b", null] } });
scoreMemory('{"content":"x","reference_time":"2026-08-01T00:00:00"}');
const breakdown: MemoryScoreBreakdown = result;
const limit: number = result.scoring_limits.token_cap;
const eligible: boolean = result.safety_eligible && result.temporal_eligible;
// @ts-expect-error content is required
scoreMemory({ reference_time: "2026-08-01T00:00:00" });
// @ts-expect-error purpose is "admission" | "recall"
scoreMemory({ content: "x", reference_time: "t", purpose: "other" });
// @ts-expect-error metadata values must be JSON
scoreMemory({ content: "x", reference_time: "t", metadata: { when: new Date() } });

const tokens: string[] = tokenizeForScoring("hello world");
tokenizeForScoring(1.5);
// @ts-expect-error objects are not tokenizable values
tokenizeForScoring({});
const tags: string[] = detectRiskTags("a@example.com");
const spans: RiskSpan[] = riskSpans("a@example.com");
const spanEnd: number | undefined = spans[0]?.end;
const vague: boolean = isTooVague("ok");
// @ts-expect-error content is a string
riskSpans(5);
const decision: AdmissionDecision = evaluateAdmission({ content: "x", source: null, mode: "enforce", blocked_sources: ["evil"] });
assertType<Equal<AdmissionDecision["action"], "admit" | "review" | "reject">>();
const rescored: ReviewRescore = rescoreReviewItem({
  id: "1", namespace: "n", agent_id: "a", content: "c", event_time: "2026-01-01T00:00:00Z", source: null,
  subject_id: null, risk_tags: [], reasons: [], status: "pending", created_at: "2026-01-01T00:00:00Z",
  resolved_at: null, memory_id: null, score_breakdown: null,
});
const heldFinal: number = rescored.held.final_score;
const score: number = rankPositionScore(0, 3, 0.9);
rankPositionScore("1", true, null);
interface Row extends SortCandidate { id: string; label: string }
const rows: Row[] = sortCandidates([{ id: "a", event_time: null, created_at: null, label: "x" }] as const satisfies readonly Row[]);
const label: string | undefined = rows[0]?.label;
sortCandidates('[{"id":1,"event_time":null,"created_at":null}]');

// Canonical JSON and hashing.
const canonical: string = canonicalJson('{"a":1.0}');
canonicalJson({ a: [1, 2, { b: null }] });
const json: JsonValue = [1, "a", { b: true }];
canonicalJson(json as Exclude<JsonValue, string>);
// @ts-expect-error undefined is not JSON
canonicalJson(undefined);
const hex: string = sha256Hex("abc") + sha256Hex(new Uint8Array([1]));

// Verification: raw text or bytes only.
const report: VerificationReport = verifyRecallReceipt("{}", { query: "q", contents: { id: "text" }, expected_sha256: "ab" });
verifyRecallReceipt(new Uint8Array(), null);
verifyContextReceipt(new ArrayBuffer(0), { context_text: "c", recall_wire: "{}", neighbor_metadata: { m: { before: '{"a":1}' } } });
verifyEvidencePack("{}", { trusted_public_key: "k", expected_key_id: "id", allow_unsigned: false });
// @ts-expect-error a parsed object loses number lexemes: refused
verifyRecallReceipt({ schema: "lians.recall-receipt.v2" });
// @ts-expect-error unknown given field
verifyRecallReceipt("{}", { qurey: "q" });
const ok: boolean = report.valid;
const check = report.checks[0];
if (check) {
  const sev: "error" | "info" = check.severity;
  const where: string = check.pointer;
}
const bound: boolean | undefined = report.bound_receipts[0]?.matches;
verifyRecallReceipt("{}", { include_canonical: true });
evaluateAdmission({ content: "x", source: "s", blocked_sources: "evil, spam.example" });
const drifted: boolean | undefined = rescored.drift?.drifted;
const trustedTags: string[] = rescored.trusted_review_risk_tags;
const firstFailure: "receipt_hash_mismatch" | string | undefined = report.failures[0];
const sha: string | null = report.receipt_sha256;

// Errors.
try {
  scoreMemory("{");
} catch (e) {
  const error = e as LiansScoreError;
  const code: ErrorCode = error.code;
  const where: string = error.path;
  const isError: Error = error;
}

// Initialization (browser entry; no-ops elsewhere).
await init();
await init({ module_or_path: "https://example.invalid/x.wasm" });
await init({ href: "file:///x.wasm" });
initSync(new Uint8Array());
initSync({ module: new ArrayBuffer(0) });
const ready: boolean = isInitialized();

// SDK compatibility: the SDK's MemoryScoreBreakdown and ours accept each other.
declare const sdkBreakdown: Sdk.MemoryScoreBreakdown;
const fromSdk: MemoryScoreBreakdown = sdkBreakdown;
const toSdk: Sdk.MemoryScoreBreakdown = result;
const stageToSdk: Sdk.MemoryRankingStage | undefined = result.ranking_stages?.[0];
// Our breakdown fits into the SDK's MemoryOut.
declare const memory: Sdk.MemoryOut;
const withOurs: Sdk.MemoryOut = { ...memory, score_breakdown: result };

export {};

// scoreCandidates: compact columns by default, breakdowns or JSONL on request.
const compact = scoreCandidates({ reference_time: "2026-08-01T00:00:00+00:00", query: "q" }, '{"content":"a"}');
const finals: Float64Array = compact.final_score;
const eligibleFlags: Uint8Array = compact.eligible;
const relevanceColumn: Float64Array = compact.components.relevance_score;
const firstError: string | undefined = compact.errors[0]?.error;
const jsonlOut: string = scoreCandidates(null, "[]", { output: "jsonl" });
const fullOut = scoreCandidates(null, [{ content: "a", reference_time: "2026-08-01T00:00:00+00:00" }], { output: "full" });
const firstFull = fullOut[0];
if (firstFull && "final_score" in firstFull) {
  const f: number = firstFull.final_score;
  void f;
}
// @ts-expect-error output must be one of the three names
scoreCandidates(null, "[]", { output: "xml" });
void [finals, eligibleFlags, relevanceColumn, firstError, jsonlOut];

// The verifying fetch and the error classes.
import { createVerifyingFetch, LiansScoreError as ScoreErrorClass, LiansVerificationError } from "lians-score";
import type { VerifiedRequest, VerifyingFetchOptions, VerifiedResponse } from "lians-score";
interface MyResponse { ok: boolean; status: number; json(): Promise<unknown>; text(): Promise<string>; arrayBuffer(): Promise<ArrayBuffer> }
declare function myFetch(input: string | { href: string }, init?: { method?: string; body?: string }): Promise<MyResponse>;
const verifiedFetch: typeof myFetch = createVerifyingFetch(myFetch, {
  baseUrl: "https://lians.example",
  onInvalid: "report",
  given: { privacy_minimal: true, expected_sha256: "ab" },
  onVerified: (r: VerificationReport, req: VerifiedRequest) => {
    const endpoint: "recall" | "context" | "evidence_pack" = req.endpoint;
    const q: string | null = req.query;
    void [r.valid, endpoint, q];
  },
  trustedPublicKey: "k",
  expectedKeyId: "id",
});
const opts: VerifyingFetchOptions = { baseUrl: "https://lians.example", onInvalid: "throw" };
const several: VerifyingFetchOptions = { baseUrls: ["https://a.example", { href: "https://b.example/api" }] };
// @ts-expect-error unknown option name
createVerifyingFetch(myFetch, { baseUrl: "https://lians.example", onInvlid: "throw" });
// @ts-expect-error the query comes from each request
createVerifyingFetch(myFetch, { baseUrl: "https://lians.example", given: { query: "q" } });
// @ts-expect-error onInvalid is "throw" or "report"
createVerifyingFetch(myFetch, { baseUrl: "https://lians.example", onInvalid: "ignore" });
// @ts-expect-error the scope is required
createVerifyingFetch(myFetch, { onInvalid: "report" });
// @ts-expect-error the scope is required
createVerifyingFetch(myFetch);
// @ts-expect-error baseUrl or baseUrls, not both
createVerifyingFetch(myFetch, { baseUrl: "https://a.example", baseUrls: ["https://b.example"] });

// The result is typed as the base fetch's response plus `liansVerification` (tsc --strict reads it).
async function readsTheReport(): Promise<boolean> {
  const vf = createVerifyingFetch(myFetch, { baseUrl: "https://lians.example" });
  const res = await vf("https://lians.example/v1/recall", { method: "POST", body: '{"query":"q"}' });
  const report: VerificationReport | undefined = res.liansVerification;
  const status: number = res.status; // the base response's own members are kept
  const asVerified: VerifiedResponse = res;
  void [status, asVerified];
  return report?.valid ?? false;
}
// Over the default (global) fetch type too.
async function readsTheReportGlobal(): Promise<string[]> {
  const vf = createVerifyingFetch(undefined, { baseUrl: "https://lians.example" });
  const res = await vf("https://lians.example/v1/context");
  return res.liansVerification?.failures ?? [];
}
void [several, readsTheReport, readsTheReportGlobal];
try {
  scoreMemory("{");
} catch (e) {
  if (e instanceof LiansVerificationError) {
    const failures: string[] = e.report.failures;
    const code: "verification_failed" = e.code;
    void [failures, code];
  } else if (e instanceof ScoreErrorClass) {
    const where: string = e.path;
    void where;
  }
}
declare const verified: VerifiedResponse;
const verifiedReport: VerificationReport | undefined = verified.liansVerification;
const made: ScoreErrorClass = new ScoreErrorClass("invalid_value", "m", "/x");
void [verifiedFetch, opts, verifiedReport, made];
