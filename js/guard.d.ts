// Type declarations of `lians-score/guard` (js/guard.mjs): the guard's checks, shared by
// `lians-score guard` (Node.js) and the Cloudflare Worker guard. Copied to guard.d.mts /
// guard.d.cts (importing ./index.mjs / ./index.cjs) by scripts/copy-dts.sh.
import type { AuditReport, UrlLike, VerificationReport, WireInput, RecallGiven, ContextGiven, AuditOptions } from "./index.js";

/** The web `Request` / `Response` types where the environment declares them (DOM, `@types/node`, workers-types). */
type WebRequest = typeof globalThis extends { Request: { prototype: infer R } } ? R : { readonly url: string; readonly method: string };
type WebResponse = typeof globalThis extends { Response: { prototype: infer R } } ? R : { readonly status: number };

/** What the guard needs of the package: `import * as api from "lians-score/verify"` (or `"lians-score"` for `audit`). */
export interface GuardApi {
  verifyRecallReceipt(wire: WireInput, given?: RecallGiven | null): VerificationReport;
  verifyContextReceipt(wire: WireInput, given?: ContextGiven | null): VerificationReport;
  auditRecall?(wire: WireInput, options?: AuditOptions | null): AuditReport;
  init?(): Promise<void>;
  isInitialized?(): boolean;
}

/** A route whose answer the guard verifies. */
export type GuardEndpoint = "recall" | "context";

/**
 * One verified exchange, as a line of an exchange log (`lians-score ledger replay`): bodies as raw text,
 * times ISO 8601 with an offset.
 */
export interface GuardExchange {
  client: string;
  t_sent: string;
  t_recv: string;
  request: { method: string; url: string; body: string | null };
  response: { status: number; body: string };
}

export interface GuardOptions {
  /** The Lians server: an http(s) origin, optionally with a path prefix. */
  upstream: string | UrlLike;
  /** Audit recall answers too (needs `auditRecall`, i.e. the full `lians-score` entry); inconsistent → 502. */
  audit?: boolean;
  /** The largest recall/context request or answer body, in bytes (default 16 MiB); larger: 413 / 502. */
  maxBody?: number;
  /** The longest wait for the upstream, in ms (default 30,000); then 504. */
  timeoutMs?: number;
  /** The fetch the web host (`handle`) calls the upstream with (default `globalThis.fetch`). */
  fetch?: (input: string, init: object) => Promise<unknown>;
  /**
   * Called with every verified exchange (valid or not) before its answer is released; a returned object becomes the
   * body of a 502 instead (the consistency ledger's seam).
   */
  onExchange?: (
    exchange: GuardExchange,
    info: { endpoint: GuardEndpoint; report: VerificationReport; audit: AuditReport | null },
  ) => void | null | object | PromiseLike<void | null | object>;
}

/** One recall/context answer (status 2xx) to decide on. */
export interface GuardCheckInput {
  endpoint: GuardEndpoint;
  /** Upper case. */
  method: string;
  /** The upstream URL. */
  url: string;
  requestBody: Uint8Array;
  status: number;
  responseBody: Uint8Array;
  tSent: string;
  tRecv: string;
  client?: string;
}

/** Valid: the answer's own bytes and status plus `headers` to set; otherwise a 502 whose body is the report as JSON. */
export interface GuardDecision {
  valid: boolean;
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array;
  report: VerificationReport | null;
  audit: AuditReport | null;
}

export interface Guard {
  readonly upstream: { readonly origin: string; readonly prefix: string; readonly href: string };
  readonly audit: boolean;
  readonly maxBody: number;
  readonly timeoutMs: number;
  /** The upstream URL of a request path (with its query). */
  target(pathAndSearch: string): string;
  /** The route a request's answer is verified as, or null when it passes untouched. */
  endpoint(method: string, pathname: string): GuardEndpoint | null;
  check(input: GuardCheckInput): Promise<GuardDecision>;
  /** The whole guard over web fetch (a Worker's `fetch` handler): `GET /healthz`, verified routes, the rest streamed. */
  handle(request: WebRequest): Promise<WebResponse>;
}

/** The guard over one entry's API. Bad options throw a `LiansScoreError` (`invalid_value`, `wrong_type`). */
export declare function createGuard(api: GuardApi, options: GuardOptions): Guard;
export declare const GUARD_DEFAULTS: { readonly maxBody: number; readonly timeoutMs: number };
/** `x-lians-audit: consistent` on answers the guard audited. */
export declare const HEADER_AUDIT: "x-lians-audit";
/** Hop-by-hop header names, never forwarded. */
export declare const HOP_BY_HOP: readonly string[];
