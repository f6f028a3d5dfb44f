"use strict";
// GENERATED from js/guard.mjs by scripts/gen-entries.mjs: do not edit (edit js/guard.mjs).
// The guard: a verifying reverse proxy in front of a Lians server, for clients
// in any language. This module holds its checks once, for its two hosts:
//   - `lians-score guard` (js/guard-node.mjs: node:http, raw bytes, streaming);
//   - the Cloudflare Worker (examples/cloudflare-worker: `handle(request)` below,
//     web-standard Request/Response, imported as `lians-score/guard`).
//
//   const guard = createGuard(api, { upstream: "https://lians.example", audit, maxBody, timeoutMs, onExchange });
//   guard.endpoint(method, pathname)   "recall" | "context" | null (a route whose answer is verified)
//   guard.target(pathAndSearch)        the upstream URL of a request path
//   await guard.check({...})           the decision on one answer (below)
//   await guard.handle(request)        the whole guard over web fetch (Workers)
//
// `api` is an entry of the package (`lians-score` or `lians-score/verify`):
// verifyRecallReceipt, verifyContextReceipt (and auditRecall for `audit`).
// A recall/context answer (2xx) is verified from its raw bytes against the
// query of its own request, body binding on (as createVerifyingFetch does:
// js/fetch.mjs, whose functions this module uses); with `audit`, a recall
// answer is audited too. Valid: the answer passes byte for byte, with
// `x-lians-verification: valid` and `x-lians-receipt-sha256` (and
// `x-lians-audit: consistent`). Invalid, unverifiable or inconsistent: 502
// with the report as JSON; the answer never reaches the client. Every other
// route, method and status is the upstream's answer, untouched (only
// `x-lians-*` verification headers are the guard's to set).
// This file is the source of js/guard.cjs (scripts/gen-entries.mjs): relative
// imports only.
const { LiansScoreError } = require("./errors.cjs");
const { HEADER_SHA256, HEADER_VERIFICATION, exchangeOf, isoNow, readScope, requestOf, receiptEndpoint, verifyAnswer } = require("./fetch.cjs");

const HEADER_AUDIT = "x-lians-audit";
/** The defaults of the bounds: 16 MiB per buffered body, 30 s per upstream exchange. */
const GUARD_DEFAULTS = Object.freeze({ maxBody: 16 * 1024 * 1024, timeoutMs: 30_000 });
const OPTION_NAMES = ["upstream", "audit", "maxBody", "timeoutMs", "fetch", "onExchange"];
const GUARD_HEADERS = [HEADER_VERIFICATION, HEADER_SHA256, HEADER_AUDIT];
/** Headers of one hop only (RFC 9110, section 7.6.1), never forwarded. */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"];

/** The guard over one entry's API (see the header comment). */
function createGuard(api, options) {
  const opts = readOptions(api, options);
  const { upstream } = opts;

  function target(pathAndSearch) {
    return upstream.origin + upstream.prefix + (pathAndSearch.startsWith("/") ? pathAndSearch : `/${pathAndSearch}`);
  }

  /**
   * The decision on one recall/context answer (upstream status 2xx):
   *   { endpoint, method, url, requestBody: Uint8Array, status, responseBody: Uint8Array, tSent, tRecv, client }
   * → { valid: true, status, headers: [[name, value]] to set, body: the answer's bytes, report, audit }
   *   | { valid: false, status: 502, headers, body: JSON bytes, report, audit }.
   */
  async function check(parts) {
    const { endpoint, method, url, requestBody, status, responseBody } = parts;
    // The browser entry's lean build has no audit: init({ audit: true }) loads the full one (a no-op once it is loaded, and in every other entry).
    if (opts.audit && endpoint === "recall" && typeof api.init === "function") await api.init({ audit: true });
    else if (typeof api.isInitialized === "function" && !api.isInitialized()) await api.init();
    let requestText;
    let report;
    let audit = null;
    try {
      requestText = new TextDecoder("utf-8", { fatal: true }).decode(requestBody);
    } catch {
      return reject({ error: "lians_unverifiable", code: "invalid_utf8", path: "", message: `the body of ${method} /v1/${endpoint} is not UTF-8 text` });
    }
    try {
      const request = requestOf(requestText, `${method} /v1/${endpoint}`);
      report = verifyAnswer(api, endpoint, responseBody, { query: request.query });
      // The audit checks the receipt against the request it answers, and reference_time against when it was sent.
      if (opts.audit && endpoint === "recall" && report.valid) {
        const times = parts.tSent && parts.tRecv ? { sent_at: parts.tSent, received_at: parts.tRecv } : {};
        audit = api.auditRecall(responseBody, { request: { ...request, ...times } });
      }
    } catch (error) {
      if (!(error instanceof LiansScoreError)) throw error;
      // A request or answer the verifier cannot read (not JSON, no query, over the limits): not passed on either.
      return reject({ error: "lians_unverifiable", code: error.code, path: error.path, message: error.message });
    }
    // The seam of the consistency ledger (`--ledger PATH`, issue #30 item 3) and of exchange logs: every verified
    // exchange, valid or not, before the answer is released; a returned object is the 502 body instead.
    if (opts.onExchange !== null) {
      const exchange = exchangeOf({ client: parts.client ?? "guard", tSent: parts.tSent, tRecv: parts.tRecv, method, url, requestText, status, bytes: responseBody });
      const objection = await opts.onExchange(exchange, { endpoint, report, audit });
      if (objection !== undefined && objection !== null) return reject(objection, report, audit);
    }
    if (!report.valid) return reject({ error: "lians_verification_failed", failures: report.failures, report }, report, audit);
    if (audit !== null && !audit.consistent) {
      return reject({ error: "lians_audit_failed", failures: audit.failures, report, audit: { consistent: false, failures: audit.failures } }, report, audit);
    }
    const headers = [[HEADER_VERIFICATION, "valid"]];
    if (typeof report.receipt_sha256 === "string") headers.push([HEADER_SHA256, report.receipt_sha256]);
    if (audit !== null) headers.push([HEADER_AUDIT, "consistent"]);
    return { valid: true, status, headers, body: responseBody, report, audit };
  }

  /** The guard over web fetch: one request in, one response out (the Worker host). */
  async function handle(request) {
    const incoming = new URL(request.url);
    const method = request.method.toUpperCase();
    if (method === "GET" && incoming.pathname === "/healthz") return healthz();
    const url = target(incoming.pathname + incoming.search);
    const headers = new Headers(request.headers);
    for (const name of [...HOP_BY_HOP, "host", "content-length"]) headers.delete(name);
    const endpoint = receiptEndpoint(method, incoming.pathname);
    // `duplex: "half"`: a streamed request body, as Node's fetch requires (other runtimes ignore it).
    const send = (body, signal) => opts.fetch(url, { method, headers, body, redirect: "manual", signal, ...(body instanceof Uint8Array || body === undefined ? {} : { duplex: "half" }) });
    if (endpoint === null) {
      // Streamed both ways; the upstream's answer as it came (redirects not followed).
      const body = method === "GET" || method === "HEAD" ? undefined : request.body;
      try {
        return withoutGuardHeaders(await send(body, undefined));
      } catch (error) {
        return problem(502, { error: "lians_upstream_unreachable", message: String(error && error.message) });
      }
    }
    const requestBody = await readBounded(request.body, opts.maxBody);
    if (requestBody === null) return problem(413, { error: "lians_request_too_large", max_body: opts.maxBody });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
    try {
      const tSent = isoNow();
      let res;
      try {
        res = await send(requestBody, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return problem(504, { error: "lians_upstream_timeout", timeout_ms: opts.timeoutMs });
        return problem(502, { error: "lians_upstream_unreachable", message: String(error && error.message) });
      }
      if (!(res.status >= 200 && res.status < 300)) return withoutGuardHeaders(res);
      let responseBody;
      try {
        responseBody = await readBounded(res.body, opts.maxBody);
      } catch {
        if (controller.signal.aborted) return problem(504, { error: "lians_upstream_timeout", timeout_ms: opts.timeoutMs });
        return problem(502, { error: "lians_upstream_unreachable", message: "the answer was cut off" });
      }
      if (responseBody === null) return problem(502, { error: "lians_response_too_large", max_body: opts.maxBody });
      const decision = await check({ endpoint, method, url, requestBody, status: res.status, responseBody, tSent, tRecv: isoNow(), client: clientOf(api, request) });
      if (!decision.valid) return new Response(decision.body, { status: decision.status, headers: decision.headers });
      const out = new Headers(res.headers);
      for (const name of GUARD_HEADERS) out.delete(name);
      // The bytes are the decoded body: the wire's encoding and length no longer describe them.
      out.delete("content-encoding");
      out.delete("content-length");
      for (const [name, value] of decision.headers) out.set(name, value);
      return new Response(decision.body, { status: res.status, statusText: res.statusText, headers: out });
    } finally {
      clearTimeout(timer);
    }
  }

  return { upstream, audit: opts.audit, maxBody: opts.maxBody, timeoutMs: opts.timeoutMs, target, endpoint: receiptEndpoint, check, handle };
}

/** The ledger's client name for a request: one per API key (a hash prefix, never the key), else "guard" (as js/guard-node.mjs). */
function clientOf(api, request) {
  const key = request.headers.get("x-api-key");
  return key && typeof api.sha256Hex === "function" ? `guard:${api.sha256Hex(key).slice(0, 16)}` : "guard";
}

/** A 502 decision with `body` as JSON. */
function reject(body, report = null, audit = null) {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return { valid: false, status: 502, headers: [["content-type", "application/json"], [HEADER_VERIFICATION, "invalid"]], body: bytes, report, audit };
}

function healthz() {
  return new Response('{"status":"ok"}', { status: 200, headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

function problem(status, body) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", [HEADER_VERIFICATION]: "invalid" } });
}

/** The upstream's response without the guard's own headers (a server cannot vouch for itself); untouched otherwise. */
function withoutGuardHeaders(res) {
  if (!GUARD_HEADERS.some((name) => res.headers.has(name))) return res;
  const headers = new Headers(res.headers);
  for (const name of GUARD_HEADERS) headers.delete(name);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/** All bytes of a body stream, or null past `max` bytes (reading stops there). */
async function readBounded(stream, max) {
  if (stream === null || stream === undefined) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

function readOptions(api, options) {
  if (api === null || typeof api !== "object" || typeof api.verifyRecallReceipt !== "function" || typeof api.verifyContextReceipt !== "function") {
    throw new LiansScoreError("wrong_type", 'lians-score: createGuard(api, options) needs the package\'s API (import * as api from "lians-score/verify")', "/api");
  }
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new LiansScoreError("wrong_type", "lians-score: createGuard options must be an object with `upstream`", "/options");
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw new LiansScoreError("invalid_value", `lians-score: unknown createGuard option ${JSON.stringify(key)}; known: ${OPTION_NAMES.join(", ")}`, `/options/${key}`);
    }
  }
  if (options.upstream === undefined) {
    throw new LiansScoreError("invalid_value", 'lians-score: createGuard needs `upstream`, the Lians server\'s URL (e.g. "https://lians.example")', "/options/upstream");
  }
  const upstream = readScope(options.upstream, "/options/upstream");
  const audit = options.audit === undefined ? false : options.audit;
  if (typeof audit !== "boolean") throw new LiansScoreError("wrong_type", "lians-score: createGuard option `audit` must be a boolean", "/options/audit");
  if (audit && typeof api.auditRecall !== "function") {
    throw new LiansScoreError("invalid_value", 'lians-score: `audit` needs auditRecall, which this entry does not have (use "lians-score", not "lians-score/verify")', "/options/audit");
  }
  const maxBody = positiveInteger(options.maxBody, GUARD_DEFAULTS.maxBody, "maxBody");
  const timeoutMs = positiveInteger(options.timeoutMs, GUARD_DEFAULTS.timeoutMs, "timeoutMs");
  // Called as opts.fetch(...): the global one through a function, or workerd throws "Illegal invocation".
  const fetcher = options.fetch === undefined ? (input, init) => globalThis.fetch(input, init) : options.fetch;
  if (typeof fetcher !== "function") throw new LiansScoreError("wrong_type", "lians-score: createGuard option `fetch` must be a fetch function", "/options/fetch");
  const onExchange = options.onExchange === undefined ? null : options.onExchange;
  if (onExchange !== null && typeof onExchange !== "function") {
    throw new LiansScoreError("wrong_type", "lians-score: createGuard option `onExchange` must be a function", "/options/onExchange");
  }
  return { upstream: { ...upstream, href: upstream.origin + upstream.prefix }, audit, maxBody, timeoutMs, fetch: fetcher, onExchange };
}

function positiveInteger(value, fallback, name) {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new LiansScoreError("invalid_value", `lians-score: createGuard option \`${name}\` must be a positive integer, got ${String(value)}`, `/options/${name}`);
  }
  return value;
}

module.exports = { createGuard, HEADER_AUDIT, GUARD_DEFAULTS, HOP_BY_HOP };
