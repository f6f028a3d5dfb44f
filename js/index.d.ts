// Type declarations for lians-score, written and checked by hand (no `any`).
// The same text is shipped as index.d.ts (TypeScript node10), index.d.mts (ESM
// entries) and index.d.cts (CommonJS), the copies written by scripts/build.sh.
// Names follow the Lians TypeScript SDK (@lians-ai/lians) where they overlap.

// ---------------------------------------------------------------- JSON data

/** A JSON value as JavaScript holds it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
/**
 * JSON text. Where a function accepts either data or JSON text, text is the
 * exact form: it keeps `1` vs `1.0` and the order of integer-like object keys,
 * which a JavaScript object cannot (`{"2":0,"1":0}` iterates as `1, 2`).
 */
export type JsonText = string;
/**
 * Raw JSON text as received: a string (`await response.text()`), or its UTF-8
 * bytes (`new Uint8Array(await response.arrayBuffer())`, the faster form: no
 * string conversion on the way in). Bytes that are not valid UTF-8 throw
 * `malformed_json`; a byte order mark is not stripped (as in a string).
 */
export type WireInput = string | Uint8Array | ArrayBuffer;

// ---------------------------------------------------------------- constants

export declare const SCORING_POLICY_VERSION: "lians-memory-scoring-v2";
export declare const RECALL_RECEIPT_SCHEMA: "lians.recall-receipt.v2";
export declare const CONTEXT_RECEIPT_SCHEMA: "lians.context-receipt.v2";
export declare const EVIDENCE_PACK_SCHEMA: "https://lians.ai/schemas/evidence-pack/v2";
/** The package version (equal to the Rust crate version). */
export declare const VERSION: string;

// ---------------------------------------------------------------- errors

/** Stable error codes (`error.code`). */
export type ErrorCode =
  | "malformed_json"
  | "nesting_too_deep"
  | "wrong_type"
  | "missing_field"
  | "invalid_datetime"
  | "out_of_range"
  | "too_large"
  | "invalid_value"
  /** A function was called before `init()`/`initSync()`, or `auditRecall` before `init({ audit: true })` (browser entry only). */
  | "not_initialized"
  /** A response failed verification in a {@link createVerifyingFetch} fetch ({@link LiansVerificationError}). */
  | "verification_failed";

/**
 * Every function throws this on input it cannot process: a real class (`instanceof LiansScoreError`
 * works, and is the same class in every entry of one install, ESM and CommonJS), extending `Error`.
 */
export declare class LiansScoreError extends Error {
  constructor(code: ErrorCode, message: string, path?: string);
  name: "LiansScoreError" | "LiansVerificationError";
  code: ErrorCode;
  /** JSON pointer (`/metadata/a/0`) or field name of the offending input; `""` for the whole input. */
  path: string;
}
/**
 * What a {@link createVerifyingFetch} fetch rejects with when a response fails verification
 * (`code: "verification_failed"`, `path`: the pointer of the first failed check).
 */
export declare class LiansVerificationError extends LiansScoreError {
  constructor(report: VerificationReport, message?: string);
  name: "LiansVerificationError";
  code: "verification_failed";
  /** The report of the response: `report.failures`, `report.checks`. */
  report: VerificationReport;
  /** Set when a consistency ledger ({@link VerifyingFetchSettings.ledger}) raised alarms on a valid answer. */
  alarms?: LedgerAlarm[];
}

// ---------------------------------------------------------------- initialization

/** A URL object (anything with `href`). */
export interface UrlLike {
  readonly href: string;
}
/** A fetch `Response` of the `.wasm` file. */
export interface ResponseLike {
  readonly ok: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
}
/**
 * A compiled `WebAssembly.Module` (typed structurally, so these declarations
 * need no DOM library).
 */
export type CompiledWasmModule = object;
/** The `.wasm` bytes. */
export type WasmBytes = ArrayBuffer | ArrayBufferView;
/** What `init()` accepts; omitted: the `.wasm` next to the glue, fetched via `import.meta.url`. */
export type InitInput = string | UrlLike | ResponseLike | PromiseLike<ResponseLike> | WasmBytes | CompiledWasmModule;
/** What `initSync()` accepts. */
export type InitSyncInput = WasmBytes | CompiledWasmModule;

/** The options object of `init()`. */
export interface InitOptions {
  /** The `.wasm` to load (default: the one next to the glue, fetched via `import.meta.url`); either build, told apart by its exports. */
  module_or_path?: InitInput;
  /**
   * Browser entry: `true` loads the full build, which has {@link auditRecall}
   * (`lians_score_bg.wasm`), also after a plain `init()` (the lean instance is
   * replaced). Default `false`: the lean build (`lians_score_lean_bg.wasm`,
   * ~38 KB gzip smaller, everything but `auditRecall`). The other entries
   * always have the full build.
   */
  audit?: boolean;
}

/**
 * Load the WebAssembly module. Needed once in browsers (default entry) before
 * any other call; idempotent, and concurrent calls share one load. A no-op in
 * Node.js, Deno, workerd and edge runtimes, where the module loads on import.
 * In the browser entry a plain `init()` loads the lean build (no
 * {@link auditRecall}); `await init({ audit: true })` loads the full one.
 */
export declare function init(input?: InitInput | InitOptions): Promise<void>;
/** Synchronous `init()` from the compiled module or its bytes, of either build (the full one after a lean `init()` upgrades). Idempotent; a no-op where already loaded. */
export declare function initSync(input?: InitSyncInput | { module: InitSyncInput }): void;
/** True once the module is ready (always true outside the browser entry). */
export declare function isInitialized(): boolean;

/** The body cap and the instance reset (docs/edge-memory.md). */
export interface Limits {
  /**
   * Largest body (bytes of UTF-8) verifyRecallReceipt, verifyContextReceipt, verifyEvidencePack and
   * auditRecall accept; a larger one throws `too_large` before any byte is copied into the wasm.
   * Default 32 MiB (the library's cap, never exceeded); 4 MiB in the workerd and edge-light entries
   * (full and `lians-score/verify`). A call may also pass `maxBodyBytes` in its second argument.
   */
  maxBodyBytes?: number;
  /**
   * After a call that left the wasm memory above this many bytes, the instance is dropped and a fresh
   * one instantiated from the same compiled module (wasm memory never shrinks). Default 32 MiB (128 MiB
   * in the Node entries). Every entry but `lians-score/bundler` (whose instance the bundler creates).
   */
  resetMemoryBytes?: number;
}
/** Set the default limits of this entry (unknown names and negative or fractional numbers throw `invalid_value`). */
export declare function configureLimits(limits: Limits): void;
/** The current instance's wasm memory (bytes), the instances dropped so far, and the limits in force. */
export declare function memoryStats(): { memoryBytes: number; resets: number; maxBodyBytes: number; resetMemoryBytes: number };

// ---------------------------------------------------------------- scoring (SDK shapes)

export type MemoryPurpose = "admission" | "recall";

/** The scorer's fixed limits (`scoring_limits`), all integers. */
export interface MemoryScoringLimits {
  text_sample_chars: number;
  token_cap: number;
  metadata_chars: number;
  metadata_items: number;
  metadata_depth: number;
  metadata_value_chars: number;
}

/** One order-producing stage applied after scoring (SDK `MemoryRankingStage`). */
export interface MemoryRankingStage {
  stage: string;
  input_score: number;
  output_score: number;
  method?: string;
  position?: number;
  candidate_count?: number;
  [key: string]: unknown;
}

/** Weighted reciprocal-rank fusion details (multi-facet recall). */
export interface MemoryScoreFusion {
  method: string;
  facet_support: number;
  facet_count: number;
  scopes: string[];
  normalized_rrf_score: number;
  strongest_input_score: number;
  strongest_scope?: string;
}

// generated by `cargo run --example gen_contract` from src/contract/: do not edit.
/** A score component's key, in breakdown order (the wire contract, `src/contract/`). */
export type ComponentKey =
  | "importance_score"
  | "confidence_score"
  | "trust_score"
  | "freshness_score"
  | "relevance_score"
  | "stability_score"
  | "safety_score";
/** An admission risk tag (the wire contract, `src/contract/`). */
export type RiskTag =
  | "pii:ssn"
  | "pii:email"
  | "phi:mrn"
  | "phi:npi"
  | "pii:credit_card"
  | "mnpi"
  | "injection"
  | "vague"
  | "source:blocked";
// end of the generated block.

/** SDK `MemoryScoreBreakdown`: the score explanation attached to a memory. */
export interface MemoryScoreBreakdown extends Record<ComponentKey, number> {
  final_score: number;
  eligible: boolean;
  safety_eligible?: boolean;
  temporal_eligible?: boolean;
  purpose: MemoryPurpose;
  scoring_policy_version?: string;
  reference_time?: string;
  scoring_limits?: MemoryScoringLimits;
  weights: Record<string, number>;
  reasons: string[];
  quality_score?: number;
  pre_fusion_score?: number;
  ranking_weights?: Record<string, number>;
  ranking_stages?: MemoryRankingStage[];
  fusion?: MemoryScoreFusion;
  [key: string]: unknown;
}

/** What `scoreMemory` returns: a breakdown with every scorer field present. */
export interface ScoreMemoryResult extends MemoryScoreBreakdown {
  safety_eligible: boolean;
  temporal_eligible: boolean;
  scoring_policy_version: "lians-memory-scoring-v2";
  /** isoformat of the reference time; the caller's offset is kept, naive input gets `+00:00`. */
  reference_time: string;
  scoring_limits: MemoryScoringLimits;
}

/**
 * Keyword arguments of the reference `score_memory`. A missing key means
 * "not passed" (the default applies); `null` means Python `None`.
 * Datetimes are ISO-8601 strings; a string without offset is naive (UTC).
 */
export interface ScoreMemoryInput {
  content: string;
  reference_time: string;
  /** Key order matters (the first 64 keys are read). Pass JSON text to keep integer-like key order. */
  metadata?: JsonObject | null;
  /** Default 0.5. Strings are read leniently as Python `float()` does (`" 0.9 "`, `"1_0"`, `"nan"`). */
  importance?: number | string | null;
  source?: string | null;
  event_time?: string | null;
  valid_from?: string | null;
  valid_to?: string | null;
  superseded?: boolean;
  query?: string | null;
  base_relevance?: number | string | null;
  /** Default `"safe"`. */
  safety_status?: string;
  risk_tags?: string[] | null;
  verified_trust_level?: string | null;
  /** A pre-tokenized query; replaces tokenizing `query`. */
  query_tokens?: string[] | null;
  /** Default `"recall"`. */
  purpose?: MemoryPurpose;
}

/** Admission modes; any other string behaves like `"monitor"`. */
export type AdmissionMode = "off" | "monitor" | "enforce";

/** Arguments of admission `evaluate(content, source, mode, blocked_sources)`. */
export interface EvaluateAdmissionInput {
  content: string;
  source: string | null;
  /** Default `"monitor"`; matched case-sensitively. */
  mode?: AdmissionMode;
  /**
   * Blocked sources: an array used as given (already stripped and lowercased),
   * or the server's comma-separated setting string (normalized); `null` for none.
   */
  blocked_sources?: string[] | string | null;
}

/** The admission decision. */
export interface AdmissionDecision {
  action: "admit" | "review" | "reject";
  risk_tags: string[];
  reasons: string[];
}

/** A review-queue item as `GET /v1/admissions` returns it (`PendingAdmissionOut`). */
export interface PendingAdmissionOut {
  id: string;
  namespace: string;
  agent_id: string;
  content: string;
  event_time: string;
  source: string | null;
  subject_id: string | null;
  risk_tags: string[];
  reasons: string[];
  status: "pending" | "approved" | "rejected";
  created_at: string;
  resolved_at: string | null;
  memory_id: string | null;
  score_breakdown: MemoryScoreBreakdown | null;
}

/** A review-queue item to re-score; `importance` and `metadata` are not in the queue response but may be supplied. */
export interface ReviewItemInput extends PendingAdmissionOut {
  importance?: number | string | null;
  metadata?: JsonObject | null;
}

/** A known explanation of review-queue drift. */
export interface ReviewDriftCause {
  /** `policy-version` (stored by another scoring policy: not comparable) or `unexplained`
   * (no importance and caller metadata reproduce the stored breakdown). */
  code: "policy-version" | "unexplained";
  text: string;
}

/** How a held re-score compares with the stored `score_breakdown` (by key; numbers after rounding to 6 places). */
export interface ReviewDrift {
  drifted: boolean;
  /** Breakdown keys whose values differ. */
  fields: string[];
  /** True when every differing field is accounted for by a known cause. */
  explained: boolean;
  /** The differing fields no known cause accounts for. */
  unexplained_fields: string[];
  causes: ReviewDriftCause[];
}

/**
 * Where a re-score input came from: given on the item (`supplied`), recovered from the
 * item's stored `score_breakdown` (`inferred`), or the write default (`default`: importance
 * 0.5, metadata `{}`; used when there is no stored breakdown, one from another scoring
 * policy, or none that any inputs reproduce).
 */
export type ReviewInputSource = "supplied" | "inferred" | "default";

/**
 * The inputs the list route does not return (spec `scoring-admission.md` §11.1), as the re-scores used them.
 * With no query, caller metadata reaches the admission score only through two properties,
 * so those are what is reported (the metadata itself cannot be recovered).
 */
export interface ReviewInputs {
  /** The write's event time as the held re-score uses it (`isoformat`). `inferred`: the stored
   * `reference_time`, which is the write's event time, differs from the listed `event_time` (the
   * list returns the stored column: UTC on Postgres, the naive wall-clock on SQLite; spec `scoring-admission.md` §11.2).
   * "If approved" and trusted review use the listed one, as the server's approval does. */
  event_time: { value: string; source: "supplied" | "inferred" };
  importance: {
    /** The caller's importance as the scorer sees it (clamped to [0, 1]); inferred values
     * are recovered to the 6 decimal places the breakdown stores. */
    value: number;
    source: ReviewInputSource;
    /** `exact`: the importance is `value`. `at_most`: the stored importance is the content's
     * heuristic importance (`value`), so the caller's was at most that, and any such value
     * gives the same held, approved and trusted-review scores. */
    bound: "exact" | "at_most";
  };
  /** Public (non-reserved) metadata keys present (spec `scoring-admission.md` §3.6): +0.1 importance heuristic,
   * +0.15 confidence, +0.1 stability. */
  public_metadata: { value: boolean; source: ReviewInputSource };
  /** A `trust_level`/`source_trust` claim in the metadata (spec `scoring-admission.md` §4.3): the trust reason
   * gains "caller metadata trust claim ignored"; the trust score is unchanged. */
  trust_claim: { value: boolean; source: ReviewInputSource };
}

/** A review-queue item re-scored three ways. */
export interface ReviewRescore {
  /** As held: safety `review_needed` (what the queue stores). */
  held: ScoreMemoryResult;
  /** As the reviewer's approval stores it: safety `approved`, the item's risk tags. */
  approved: ScoreMemoryResult;
  /** On the trusted-review path: safety `approved`, tags re-detected from the content. */
  trusted_review: ScoreMemoryResult;
  trusted_review_risk_tags: string[];
  /** The write inputs the three re-scores used, and where each came from. */
  inputs: ReviewInputs;
  /** Null when the item has no stored `score_breakdown`. */
  drift: ReviewDrift | null;
}

/** A recall candidate for `sortCandidates` (the stable score key's inputs). */
export interface SortCandidate {
  id: string | number;
  event_time: string | null;
  created_at: string | null;
  /** Missing or non-numeric counts as 0. */
  final_score?: number | string | null;
  [key: string]: JsonValue | undefined;
}

// ---------------------------------------------------------------- verification

/** Failure codes of a verification report. */
export type VerificationFailure =
  | "malformed_json"
  | "nesting_too_deep"
  | "unsupported_schema"
  | "receipt_hash_mismatch"
  | "query_hash_mismatch"
  | "content_hash_mismatch"
  | "neighbor_hash_mismatch"
  | "context_hash_mismatch"
  | "retrieval_receipt_mismatch"
  | "score_mismatch"
  | "order_violation"
  | "non_finite_number"
  /** `NaN` / `Infinity` outside the hashed receipt or manifest: `JSON.parse` cannot read the body. */
  | "non_json_number"
  | "manifest_hash_mismatch"
  | "pack_hash_mismatch"
  | "signature_invalid"
  | "unsigned_pack"
  | "untrusted_key"
  | "key_id_mismatch"
  /** Body binding: a response body's plaintext field disagrees with what its receipt binds. */
  | "body_mismatch"
  /** A field of `given`/`options` has the wrong type: the requested check could not run. */
  | "invalid_given";

/** Informational checks: reported in `checks`, never failures. */
export type VerificationInfoCode = "stage_chain" | "rank_calibration";

/** One check of a report. */
export interface VerificationCheck {
  code: VerificationFailure | VerificationInfoCode;
  status: "passed" | "failed" | "skipped";
  /** `error` checks decide `valid`; `info` checks never do. */
  severity: "error" | "info";
  /** JSON pointer into the parsed wire document (or `/given/...`), e.g. `/memories/3/content`. */
  pointer: string;
  /** Body-binding checks: the pointer of the bound value it was compared with, e.g. `/receipt/results/3/content_hash`. */
  compared_with?: string;
  message: string;
}

/** A `recall_receipt` link of an Evidence Pack and what its bound body hashes to. */
export interface BoundReceipt {
  pointer: string;
  artifact_hash: string | null;
  receipt_sha256: string | null;
  schema: string | null;
  matches: boolean;
}

/** The outcome of a verification. Findings are data, not exceptions. */
export interface VerificationReport {
  /** True exactly when `failures` is empty. */
  valid: boolean;
  /** The recomputed hash (receipt, or pack manifest); null when the text could not be parsed. */
  receipt_sha256: string | null;
  /** `schema` of the hashed value, when it is a string. */
  schema: string | null;
  /** Each failed error-severity code once, in first-seen order. */
  failures: VerificationFailure[];
  /** Every check that ran (or was skipped), in order. */
  checks: VerificationCheck[];
  /** Evidence Packs: the recall receipts the pack binds (empty otherwise). */
  bound_receipts: BoundReceipt[];
  /**
   * Response bodies: the fields present in the body that the receipt does **not** bind, as JSON-pointer
   * patterns with `*` standing for any array index (the metadata of every memory is listed as
   * `/memories/` + `*` + `/metadata`), or plain pointers such as `/latency_ms`. A change to one of them is not
   * detected: do not rely on them. Empty for bare receipts and packs.
   */
  unbound_fields: string[];
  /** The canonical (PyJSON) text that was hashed, when `include_canonical` was set; else null. */
  canonical: string | null;
}

/** What the client also holds, to check a recall receipt against. Absent means "not checked". */
export interface RecallGiven {
  /** The query as sent (checked against `query_sha256`). */
  query?: string;
  /** Plaintext content by memory id (checked against `content_hash`). */
  contents?: Record<string, string>;
  /** Neighbour plaintext by memory id and position (`before`, `after_2`, ...). */
  neighbor_contents?: Record<string, Record<string, string | null>>;
  /** Neighbour metadata **as the JSON text received**, by memory id and position. */
  neighbor_metadata?: Record<string, Record<string, JsonText>>;
  /** A pinned receipt hash (hex, any case). */
  expected_sha256?: string;
  /**
   * The memories were written in privacy-minimal mode, so their `content_hash` values are HMACs no client can
   * recompute: skip comparing the body's own contents with them (reported as `skipped`). Default false: such a
   * body fails closed with `content_hash_mismatch`.
   */
  privacy_minimal?: boolean;
  /** Return the canonical text in `report.canonical`. Default false. */
  include_canonical?: boolean;
  /** This call's body cap in bytes ({@link Limits}); taken out in JavaScript, never part of the checks. */
  maxBodyBytes?: number;
}

/** What the client also holds, to check a context receipt against. */
export interface ContextGiven extends RecallGiven {
  /** The assembled `context` text (checked against `context_sha256`). */
  context_text?: string;
  /** The recall response body or bare recall receipt **as JSON text** (checked against `retrieval_receipt_sha256`). */
  recall_wire?: JsonText;
}

/** Pins for an Evidence Pack. */
export interface EvidencePackOptions {
  /** Base64 of the 32-byte Ed25519 public key the pack must be signed with. */
  trusted_public_key?: string;
  expected_key_id?: string;
  /** Accept a pack whose `signature.status` is `unsigned`. Default false. */
  allow_unsigned?: boolean;
  /** Return the manifest's canonical text in `report.canonical`. Default false. */
  include_canonical?: boolean;
  /** This call's body cap in bytes ({@link Limits}). */
  maxBodyBytes?: number;
}

// ---------------------------------------------------------------- recall audit

/** Failure codes of a recall audit (`docs/audit.md`); checked against `AuditCode::ALL` (src/audit/report.rs) by tests/audit.rs. */
export type AuditFailure =
  | "pairing_mismatch"
  | "query_mismatch"
  | "breakdown_missing"
  | "component_mismatch"
  | "gate_mismatch"
  | "reason_mismatch"
  | "policy_mismatch"
  | "relevance_inconsistent"
  | "quality_inconsistent"
  | "blend_inconsistent"
  | "fusion_inconsistent"
  | "stage_chain_broken"
  | "calibration_mismatch"
  | "stage_unknown"
  | "ineligible_returned"
  | "query_variants_mismatch"
  | "not_auditable"
  | "as_of_mismatch"
  | "order_violation"
  | "duplicate_result"
  | "candidate_count_mismatch"
  | "request_mismatch"
  | "reference_time_inconsistent"
  | "stage_replay_mismatch"
  | "filter_violation"
  | "derived_clause_returned"
  | "retrieval_scopes_mismatch";

/** A closed interval `[lo, hi]` of retrieval scores. */
export type RetrievalInterval = [number, number];

/** One audit check: the server's bound value against the client's re-derivation. */
export interface AuditCheck {
  /** What was compared: a breakdown key (`trust_score`, `reasons`, ...), `pairing`, `blend`, `fusion`, `stage_chain`, `calibration:<stage>`, ... */
  check: string;
  /** The code this check reports when it fails. */
  code: AuditFailure;
  status: "passed" | "failed";
  /** JSON pointer into the response body. */
  pointer: string;
  /** The server's value as sent (null when absent or not applicable). */
  bound: JsonValue;
  /** The client's re-derived value (null when it cannot be derived). */
  rederived: JsonValue;
  /** Interval checks: the retrieval scores that reproduce `bound`; else null. */
  interval: RetrievalInterval | null;
  message?: string;
}

/** The audit of one returned result. */
export interface AuditResult {
  /** `memories[i].id` as sent. */
  id: JsonValue;
  /** 1-based place in the response. */
  rank: number;
  consistent: boolean;
  /** Index into `query_variants` of the query the result was scored with; null for the query sent. */
  query_variant: number | null;
  /** The retrieval scores the server must have used (relevance, quality and blend together); null when none. */
  retrieval_score: RetrievalInterval | null;
  checks: AuditCheck[];
  /** The memory's fields the score depends on that the receipt does not bind (`importance`, `metadata`, `metadata._admission`, `valid_from`, `valid_to`, `superseded_by`, `ingestion_time`). */
  cannot_audit: string[];
}

/** The report of `auditRecall`. Findings are data, not exceptions. */
export interface AuditReport {
  /** True exactly when no check failed. */
  consistent: boolean;
  /** Each failed code once, in first-seen order. */
  failures: AuditFailure[];
  /** `"given"`, or `"query_variants/0"` when no query was given and that variant hashes to `query_sha256`. */
  query_source: "given" | "query_variants/0";
  /** Response-level checks (query hash, result counts). */
  checks: AuditCheck[];
  results: AuditResult[];
  /** What an audit establishes. */
  proves: string;
  /** What no client can audit from a response. */
  cannot_audit: string[];
}

/** What the client sent: the `POST /v1/recall` body (unknown keys are an error) and when it was sent and received. */
export interface AuditRequest {
  agent_id?: string;
  query?: string;
  k?: number;
  mode?: "fast" | "deep" | "reconstruct";
  strategy?: "standard" | "adaptive";
  max_query_variants?: number;
  /** Filters as sent, control keys (`_rerank`, `_mmr_lambda`, `_near_entity`, `_near_key`) included. */
  filters?: { [key: string]: JsonValue } | null;
  as_of?: string | null;
  include_context?: boolean;
  decision_envelope_id?: string | null;
  /** ISO-8601 time the request was sent (client clock). */
  sent_at?: string | null;
  /** ISO-8601 time the response was received (client clock). */
  received_at?: string | null;
}

/** Options of `auditRecall`. */
export interface AuditOptions {
  /** The query the client sent. Absent: `request.query`, else `query_variants[0]` if it hashes to `receipt.query_sha256`. */
  query?: string | null;
  /** The request the client sent: the receipt's copy of each field must equal it. */
  request?: AuditRequest | null;
  /** The server's recall cache TTL in seconds (default 60): how old `reference_time` may be at `sent_at`. */
  cache_ttl_seconds?: number | null;
  /** The clock skew allowed between client and server, in seconds (default 5). */
  clock_skew_seconds?: number | null;
}

// ---------------------------------------------------------------- functions

/**
 * The reference `score_memory(**input)`. Pass JSON text for exactness: a JS
 * object cannot carry `1.0` (it becomes the integer `1`, which metadata
 * flattening prints as `1`) nor integer-like key order in `metadata`.
 */
export declare function scoreMemory(input: ScoreMemoryInput | JsonText): ScoreMemoryResult;
/** The compact result of {@link scoreCandidates} (default `output: "compact"`): one entry per candidate, rounded to 6 places as in the breakdown; a failed candidate has `NaN` scores, `0` flags and an entry in `errors`. */
export interface ScoreCandidatesCompact {
  count: number;
  errors: Array<{ index: number; error: ErrorCode; message: string; path: string }>;
  final_score: Float64Array;
  /** 1 = eligible, 0 = not (or failed). */
  eligible: Uint8Array;
  safety_eligible: Uint8Array;
  temporal_eligible: Uint8Array;
  components: Record<ComponentKey, Float64Array>;
}
/**
 * Batch `score_memory`: each candidate is scored as `scoreMemory({...shared, ...candidate})`
 * (byte-identical results), with the shared inputs read and each distinct query tokenized once.
 * `candidates` as JSON Lines or JSON-array text is the fast path (its UTF-8 bytes, e.g. a file read
 * with `readFile` or `await response.arrayBuffer()`, the fastest: a string costs about one more
 * `JSON.parse` to convert); an array of objects is converted
 * item by item like `scoreMemory`'s argument. An invalid `shared` throws; a failed candidate is an error row.
 */
export declare function scoreCandidates(
  shared: Partial<ScoreMemoryInput> | JsonText | null | undefined,
  candidates: JsonText | Uint8Array | ArrayBuffer | Array<Partial<ScoreMemoryInput>>,
  options?: { output?: "compact" } | null,
): ScoreCandidatesCompact;
export declare function scoreCandidates(
  shared: Partial<ScoreMemoryInput> | JsonText | null | undefined,
  candidates: JsonText | Uint8Array | ArrayBuffer | Array<Partial<ScoreMemoryInput>>,
  options: { output: "full" },
): Array<ScoreMemoryResult | { error: ErrorCode; message: string; path: string }>;
export declare function scoreCandidates(
  shared: Partial<ScoreMemoryInput> | JsonText | null | undefined,
  candidates: JsonText | Uint8Array | ArrayBuffer | Array<Partial<ScoreMemoryInput>>,
  options: { output: "jsonl" },
): string;
/** The reference tokenizer; non-string values go through Python `str()` (a JS `1.0` is the integer `1`). */
export declare function tokenizeForScoring(value: string | number | boolean | null): string[];
/** Admission risk detectors, in detector order (the order of {@link RiskTag}, e.g. `pii:email`, `injection`). */
export declare function detectRiskTags(content: string): string[];
/** Where an admission detector matched (`riskSpans`). */
export interface RiskSpan {
  /** The detector's tag: a {@link RiskTag} a detector finds in the text (never `vague` nor `source:blocked`). */
  tag: string;
  /** Start, in UTF-16 code units (a JS string index). */
  start: number;
  /** End (exclusive), in UTF-16 code units: `content.slice(start, end) === text`. */
  end: number;
  /** The matched text. */
  text: string;
}
/**
 * Where the admission detectors match: every match Python's `re.finditer` yields for each detector's
 * pattern in the reference (credit cards: only the Luhn-valid ones), by tag in detector order
 * (the order of {@link RiskTag}), then by position. `vague` has no span; `detectRiskTags(c)` is the set of the span tags, plus `vague` when
 * `isTooVague(c)`.
 */
export declare function riskSpans(content: string): RiskSpan[];
/** The reference's `is_too_vague`: fewer than 3 distinct ASCII `[a-z0-9]` runs in `content.lower()` (the `vague` tag). */
export declare function isTooVague(content: string): boolean;
/** Admission `evaluate`. */
export declare function evaluateAdmission(input: EvaluateAdmissionInput | JsonText): AdmissionDecision;
/** Re-score a review-queue item as held and as approved (trusted review). */
export declare function rescoreReviewItem(item: ReviewItemInput | JsonText): ReviewRescore;
/** `rank_position_score(position, total, input_score)` (rank-calibration-v1); arguments are read as Python `int()`/`float()` would. */
export declare function rankPositionScore(
  position: number | string | boolean | null,
  total: number | string | boolean | null,
  inputScore: number | string | boolean | null,
): number;
/** Sort candidates by the stable key: final score desc, event desc, created desc, id asc. Returns a new array. */
export declare function sortCandidates<T extends SortCandidate>(candidates: readonly T[]): T[];
export declare function sortCandidates(candidates: JsonText): SortCandidate[];
/**
 * Python-canonical JSON (sorted keys, ASCII escapes, Python float repr) of
 * JSON text or of JS data. A string argument is JSON text: to canonicalize
 * the string value `abc`, pass `'"abc"'`.
 */
export declare function canonicalJson(input: JsonText | Exclude<JsonValue, string>): string;
/** SHA-256 (64 lowercase hex digits) of a string's UTF-8 bytes, or of raw bytes. */
export declare function sha256Hex(input: string | Uint8Array): string;
/**
 * Verify a `lians.recall-receipt.v2` from the **raw** response body text (or
 * a bare receipt's text). A parsed object is refused with `wrong_type`.
 */
export declare function verifyRecallReceipt(wire: WireInput, given?: RecallGiven | JsonText | null): VerificationReport;
/** Verify a `lians.context-receipt.v2` from the raw response body (or bare receipt) text. */
export declare function verifyContextReceipt(wire: WireInput, given?: ContextGiven | JsonText | null): VerificationReport;
/** Verify an Evidence Pack v2 (hashes, Ed25519 signature, bound receipts) from its raw JSON text. */
export declare function verifyEvidencePack(wire: WireInput, options?: EvidencePackOptions | JsonText | null): VerificationReport;
/**
 * Audit a recall response: re-derive the server's scores (components, gates,
 * reasons, relevance, quality, the 0.8/0.2 blend, fusion, rank calibration)
 * from the **raw** `POST /v1/recall` body text and the query sent. Input that
 * cannot be audited (not JSON, a bare receipt, over the limits) throws a
 * `LiansScoreError`. Browser entry: needs `await init({ audit: true })` (a plain
 * `init()` loads the lean build, on which this throws `not_initialized`).
 */
export declare function auditRecall(wire: WireInput, options?: AuditOptions | JsonText | null): AuditReport;

// ---------------------------------------------------------------- verifying fetch

/** Any `fetch`-shaped function. */
export type FetchFunction = (...args: never[]) => Promise<unknown>;
/** The type of `globalThis.fetch` where the environment's types declare it (DOM, `@types/node`), else a minimal fetch. */
export type GlobalFetch = Extract<
  typeof globalThis extends { fetch: infer G } ? G : (input: string | UrlLike, init?: object) => Promise<ResponseLike>,
  FetchFunction
>;

/** Which route a verified response answered. */
export type VerifiedEndpoint = "recall" | "context" | "evidence_pack";

/** The request a verified response answered, as given to `onVerified`. */
export interface VerifiedRequest {
  /** The absolute URL. */
  url: string;
  /** Upper case: `POST` (recall, context) or `GET` (Evidence Pack). */
  method: string;
  endpoint: VerifiedEndpoint;
  /** The `query` of the request's JSON body (null for an Evidence Pack). */
  query: string | null;
  /** With `audit: true`, a recall response's audit against its request (else undefined). */
  audit?: AuditReport;
}

/**
 * Which requests a verifying fetch looks at (required): those under `baseUrl` (its origin, and its path as a prefix
 * at a `/` boundary), or under any of `baseUrls`. Everything else goes to the base fetch untouched.
 */
export type VerifyingFetchScope =
  | { baseUrl: string | UrlLike; baseUrls?: never }
  | { baseUrls: ReadonlyArray<string | UrlLike>; baseUrl?: never };

/** Options of {@link createVerifyingFetch}: the scope plus these settings. Unknown names throw `invalid_value` (with a did-you-mean hint). */
export type VerifyingFetchOptions = VerifyingFetchSettings & VerifyingFetchScope;

/** The settings of {@link createVerifyingFetch} besides its scope. */
export interface VerifyingFetchSettings {
  /**
   * What the client also holds, added to every recall/context verification. The query is always the one of
   * each request's own JSON body, so `query` is refused here.
   */
  given?: Omit<ContextGiven, "query">;
  /**
   * `"throw"` (default): an invalid response rejects with {@link LiansVerificationError}.
   * `"report"`: it resolves, with `x-lians-verification: invalid` and the report as `liansVerification`.
   */
  onInvalid?: "throw" | "report";
  /** Called with every report (valid or not) before the fetch settles; a throw or rejection rejects the fetch. */
  onVerified?: (report: VerificationReport, request: VerifiedRequest) => void | PromiseLike<void>;
  /**
   * Base64 of the Ed25519 public key Evidence Packs must be signed with, obtained independently. Given:
   * `GET …/v1/decisions/{id}/evidence-pack` responses are verified too; absent: they pass through untouched.
   */
  trustedPublicKey?: string;
  /** The key id packs must name (needs `trustedPublicKey`). */
  expectedKeyId?: string;
  /**
   * A consistency ledger ({@link createLedger}): every valid answer and every write, erasure, certificate, prune and
   * key creation under the scope is recorded; an alarm rejects with {@link LiansVerificationError} (its `alarms`), or
   * with `onInvalid: "report"` resolves with `x-lians-ledger: alarm` and `liansLedger`.
   */
  ledger?: Ledger;
  /**
   * Also audit each valid recall response ({@link auditRecall}) against the request it answers (its JSON body,
   * with `sent_at`/`received_at` taken around the call): `x-lians-audit: consistent|inconsistent` and `liansAudit`;
   * an inconsistent one rejects like an invalid one (or resolves with `onInvalid: "report"`). Full build only.
   */
  audit?: boolean;
}

/**
 * What a verifying fetch resolves with: the base fetch's response type plus `liansVerification`, the report of the
 * answers it verified (the same bytes, with `x-lians-verification` and `x-lians-receipt-sha256`); `undefined` on the
 * requests it passed through untouched.
 */
export interface VerifiedResponse {
  readonly liansVerification?: VerificationReport;
  /** With `ledger` and `onInvalid: "report"`: the ledger's alarms on this answer (and its warnings). */
  readonly liansLedger?: { alarms: LedgerAlarm[]; warnings: LedgerWarning[] };
  /** With `audit: true`, a recall response's audit (else undefined). */
  readonly liansAudit?: AuditReport;
}

// ---- The consistency ledger (issue #30; docs/ledger.md). Node ESM (SQLite) and the web entry only.

/** The invariants of the spec the ledger checks (../shared/spec/consistency-ledger.md). */
export type LedgerInvariant = "I1" | "I1b" | "I2" | "I3" | "I4" | "I5" | "I6" | "I7" | "I8" | "I9" | "I10" | "I12" | "I13" | "I14" | "I15";

/** One exchange, as a line of an exchange log: bodies as raw text, times ISO 8601 with an offset. */
export interface Exchange {
  client: string;
  t_sent: string;
  t_recv: string;
  /** `headers`: only `idempotency-key` is read. */
  request: { method: string; url: string; body: string | null; headers?: Record<string, string> };
  response: { status: number; body: string | null };
}

/** One side of an alarm: the value, and the exchange it came from (its receipt hash; null for a write or an event). */
export interface LedgerObservation {
  value: unknown;
  receipt_sha256: string | null;
  client?: string;
  t_recv?: string;
  kind?: string;
  where?: string;
}

/** Two observations that an honest Lians server cannot produce. `previous` is null for a check on one answer. */
export interface LedgerAlarm {
  invariant: LedgerInvariant;
  memory_id: string | null;
  message: string;
  previous: LedgerObservation | null;
  current: LedgerObservation;
}

/** Something the ledger could not use or check (never a sign of a lie by itself). */
export interface LedgerWarning {
  code: string;
  memory_id: string | null;
  message: string;
}

/** What {@link Ledger.record} found. `recorded` is false for other routes, non-2xx answers and answers that failed verification. */
export interface LedgerRecordResult {
  kind: "recall" | "context" | "write" | "lineage" | "erase" | "certificate" | "prune" | "key" | "other";
  recorded: boolean;
  alarms: LedgerAlarm[];
  warnings: LedgerWarning[];
  verification: VerificationReport | null;
}

/** A fingerprint per memory: a hash over its receipt-bound (id, content_hash, event_time, source). */
export interface LedgerFingerprint {
  id: string;
  fingerprint: string;
}

export interface Ledger {
  /** Verify (recall/context) and record one exchange. `verification`: a report the caller already has for its answer. */
  record(exchange: Exchange, options?: { verification?: VerificationReport }): Promise<LedgerRecordResult>;
  /** True for a route whose answer the ledger records. */
  accepts(method: string, url: string): boolean;
  fingerprints(): Promise<LedgerFingerprint[]>;
  stats(): Promise<{ memories: number; exchanges: number }>;
  close(): Promise<void>;
}

/** Options of {@link createLedger}: `path` (Node: a SQLite file), `name` (a browser: IndexedDB) or `storage` (a Durable Object's `state.storage`). */
export interface LedgerOptions {
  path?: string;
  name?: string;
  storage?: unknown;
  /** Clock skew allowed between client and server (default 5,000 ms). */
  skewMs?: number;
  /** The server's recall cache TTL (default 60,000 ms). */
  cacheTtlMs?: number;
  /** The server stores privacy-minimal rows (content hashes are HMACs): I1b is not checked. */
  privacyMinimal?: boolean;
}

/** Open (or create) a consistency ledger. Node ESM entry: `{ path }`; web, workerd entries: `{ name }` or `{ storage }`. */
export declare function createLedger(options: LedgerOptions): Promise<Ledger>;

/** The ids two ledgers (or two `fingerprints()` lists) hold with different fingerprints. */
export declare function compareLedgers(
  a: Ledger | LedgerFingerprint[],
  b: Ledger | LedgerFingerprint[],
): Promise<{ shared: number; differ: string[]; only_a: number; only_b: number }>;

/** The fetch {@link createVerifyingFetch} returns: `F`'s parameters, `F`'s response plus {@link VerifiedResponse}. */
export type VerifyingFetch<F extends FetchFunction> = (...args: Parameters<F>) => Promise<Awaited<ReturnType<F>> & VerifiedResponse>;

/**
 * Wrap `fetch` so that, under the scope (`baseUrl` / `baseUrls`, required: without one it throws `invalid_value`),
 * `POST …/v1/recall` and `POST …/v1/context` answers (2xx) are verified from their raw bytes (body binding on)
 * against the request's `query` before the caller sees them; valid ones resolve to a `Response` over the same
 * bytes (`res.json()` works) with `x-lians-verification: valid`, `x-lians-receipt-sha256` and
 * `res.liansVerification`, invalid ones reject with {@link LiansVerificationError}. Every other request is passed
 * through. The base fetch is captured now:
 * `globalThis.fetch = createVerifyingFetch(fetch, { baseUrl: "https://lians.example" })` is safe.
 * A request body the wrapper cannot read as JSON with a string `query` rejects with a `LiansScoreError`.
 */
export declare function createVerifyingFetch<F extends FetchFunction>(baseFetch: F, options: VerifyingFetchOptions): VerifyingFetch<F>;
/** Over `globalThis.fetch` as it is now. */
export declare function createVerifyingFetch(baseFetch: undefined, options: VerifyingFetchOptions): VerifyingFetch<GlobalFetch>;
