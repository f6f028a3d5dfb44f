// `createVerifyingFetch(baseFetch = globalThis.fetch, { baseUrl | baseUrls, … })`:
// a fetch that verifies Lians responses from their raw bytes before any caller
// sees them. Only requests under the scope (`baseUrl`: an origin plus a path
// prefix, `baseUrls` for several) are looked at; every other request goes to
// the base fetch untouched. The scope is required (`invalid_value` without it).
// Under the scope:
//
//   POST …/v1/recall, POST …/v1/context (2xx): the response bytes are verified
//     (verifyRecallReceipt / verifyContextReceipt; body binding is always on:
//     every memory content, neighbour and the context text is compared with its
//     receipt) against the `query` of the request's JSON body plus
//     `options.given`. Valid → a new Response over the same bytes with
//     `x-lians-verification: valid` and `x-lians-receipt-sha256`; invalid →
//     rejects with LiansVerificationError (`.report`), or with
//     `onInvalid: "report"` resolves with `x-lians-verification: invalid`.
//     The report is also the response's `liansVerification` property.
//   GET …/v1/decisions/{id}/evidence-pack (2xx), when `options.trustedPublicKey`
//     is given: verifyEvidencePack with that key (and `expectedKeyId`).
//   With `options.audit: true`, a verified recall response is also audited
//     (auditRecall) against the request it answers (its JSON body, `sent_at`
//     just before the call, `received_at` once the body is read): the report
//     is `liansAudit` and `x-lians-audit: consistent|inconsistent`; an
//     inconsistent one rejects (or is reported) like an invalid one.
//   Everything else (other paths and methods, non-2xx answers) is returned
//     as the base fetch returned it; a non-2xx answer of a verified route only
//     loses `x-lians-*` verification headers it may carry (they are this
//     wrapper's to set).
//
// The base fetch is captured when the wrapper is created, so
// `globalThis.fetch = createVerifyingFetch(fetch)` does not call itself.
// This file is the source of js/fetch.cjs (scripts/gen-entries.mjs): keep it
// free of imports other than ./errors.mjs.
import { LiansScoreError, LiansVerificationError } from "./errors.mjs";

const OPTION_NAMES = ["baseUrl", "baseUrls", "given", "onInvalid", "onVerified", "trustedPublicKey", "expectedKeyId", "ledger", "audit"];
/** The `given` fields a caller may add (the query always comes from the request). */
const GIVEN_NAMES = [
  "contents",
  "neighbor_contents",
  "neighbor_metadata",
  "expected_sha256",
  "privacy_minimal",
  "include_canonical",
  "context_text",
  "recall_wire",
];
export const HEADER_VERIFICATION = "x-lians-verification";
export const HEADER_SHA256 = "x-lians-receipt-sha256";
export const HEADER_AUDIT = "x-lians-audit";
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const PACK_PATH = /\/v1\/decisions\/[^/]+\/evidence-pack$/;

/** createVerifyingFetch over one entry's API (verifyRecallReceipt, verifyContextReceipt, verifyEvidencePack, init, isInitialized). */
export function verifyingFetchFor(api) {
  return function createVerifyingFetch(baseFetch, options) {
    const base = baseFetch === undefined ? globalThis.fetch : baseFetch;
    if (typeof base !== "function") {
      throw new LiansScoreError(
        "wrong_type",
        `lians-score: createVerifyingFetch(baseFetch) needs a fetch function, got ${describe(base)}` +
          (baseFetch === undefined ? " (globalThis.fetch is not defined here)" : ""),
        "/baseFetch",
      );
    }
    const opts = readOptions(options);
    if (opts.audit && typeof api.auditRecall !== "function") {
      throw new LiansScoreError("invalid_value", "lians-score: options.audit needs auditRecall (the full build, not lians-score/verify)", "/options/audit");
    }
    const verifying = function fetch(input, init) {
      return verifyingCall(api, base, opts, input, init);
    };
    return verifying;
  };
}

function readOptions(options) {
  if (options === undefined || options === null) options = {};
  if (!isPlainObject(options)) {
    throw new LiansScoreError("wrong_type", `lians-score: createVerifyingFetch options must be a plain object, got ${describe(options)}`, "/options");
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) throw unknownName("createVerifyingFetch option", key, OPTION_NAMES, `/options/${key}`);
  }
  const scopes = readScopes(options);
  const onInvalid = options.onInvalid === undefined ? "throw" : options.onInvalid;
  if (onInvalid !== "throw" && onInvalid !== "report") {
    throw new LiansScoreError("invalid_value", `lians-score: options.onInvalid must be "throw" or "report", got ${describe(onInvalid)}`, "/options/onInvalid");
  }
  const onVerified = options.onVerified;
  if (onVerified !== undefined && typeof onVerified !== "function") {
    throw new LiansScoreError("wrong_type", `lians-score: options.onVerified must be a function, got ${describe(onVerified)}`, "/options/onVerified");
  }
  let given = options.given === undefined || options.given === null ? {} : options.given;
  if (!isPlainObject(given)) {
    throw new LiansScoreError("wrong_type", `lians-score: options.given must be a plain object, got ${describe(given)}`, "/options/given");
  }
  for (const key of Object.keys(given)) {
    if (key === "query") {
      throw new LiansScoreError(
        "invalid_value",
        "lians-score: options.given.query is not accepted: each response is checked against the query of its own request",
        "/options/given/query",
      );
    }
    if (!GIVEN_NAMES.includes(key)) throw unknownName("options.given field", key, GIVEN_NAMES, `/options/given/${key}`);
  }
  given = { ...given };
  const key = options.trustedPublicKey;
  const keyId = options.expectedKeyId;
  if (key !== undefined && typeof key !== "string") {
    throw new LiansScoreError("wrong_type", `lians-score: options.trustedPublicKey must be a base64 string, got ${describe(key)}`, "/options/trustedPublicKey");
  }
  if (keyId !== undefined && typeof keyId !== "string") {
    throw new LiansScoreError("wrong_type", `lians-score: options.expectedKeyId must be a string, got ${describe(keyId)}`, "/options/expectedKeyId");
  }
  if (keyId !== undefined && key === undefined) {
    throw new LiansScoreError(
      "missing_field",
      "lians-score: options.expectedKeyId needs options.trustedPublicKey (a key id alone verifies nothing)",
      "/options/trustedPublicKey",
    );
  }
  if (options.audit !== undefined && typeof options.audit !== "boolean") {
    throw new LiansScoreError("wrong_type", `lians-score: options.audit must be a boolean, got ${describe(options.audit)}`, "/options/audit");
  }
  const audit = options.audit === true;
  const pack = key === undefined ? null : keyId === undefined ? { trusted_public_key: key } : { trusted_public_key: key, expected_key_id: keyId };
  // LEDGER HOOK (issue #30 item 3): `options.ledger` sets `onExchange` here (and its name joins OPTION_NAMES).
  // onExchange(exchange, report) is awaited for every verified recall/context answer before the fetch settles,
  // valid or not; a throw or rejection rejects the fetch. `exchange` is the ledger's log line (exchangeOf).
  const ledger = options.ledger === undefined || options.ledger === null ? null : options.ledger;
  if (ledger !== null && (typeof ledger !== "object" || typeof ledger.record !== "function" || typeof ledger.accepts !== "function")) {
    throw new LiansScoreError("wrong_type", `lians-score: options.ledger must be a ledger (await createLedger(...)), got ${describe(ledger)}`, "/options/ledger");
  }
  const onExchange = ledger === null ? null : (exchange, report) => (report.valid ? ledger.record(exchange, { verification: report }) : null);
  return { scopes, onInvalid, onVerified, given, pack, onExchange, ledger, audit };
}

/** The scope: `[{origin, prefix}]` from `baseUrl` or `baseUrls` (exactly one of them, required). */
function readScopes(options) {
  const hint =
    'pass the Lians server\'s URL: createVerifyingFetch(fetch, { baseUrl: "https://lians.example" }) ' +
    "(or baseUrls: [...] for several); requests elsewhere then pass through untouched";
  const one = options.baseUrl;
  const many = options.baseUrls;
  if (one !== undefined && many !== undefined) {
    throw new LiansScoreError("invalid_value", "lians-score: give createVerifyingFetch options.baseUrl or options.baseUrls, not both", "/options/baseUrls");
  }
  if (one === undefined && many === undefined) {
    throw new LiansScoreError("invalid_value", `lians-score: createVerifyingFetch needs a scope: ${hint}`, "/options/baseUrl");
  }
  if (one !== undefined) return [readScope(one, "/options/baseUrl", hint)];
  if (!Array.isArray(many)) {
    throw new LiansScoreError("wrong_type", `lians-score: options.baseUrls must be an array of URLs, got ${describe(many)}`, "/options/baseUrls");
  }
  if (many.length === 0) throw new LiansScoreError("invalid_value", `lians-score: options.baseUrls is empty: ${hint}`, "/options/baseUrls");
  return many.map((u, i) => readScope(u, `/options/baseUrls/${i}`, hint));
}

/** One base URL as `{origin, prefix}` (the decoded path without a trailing slash; "" for the root). */
export function readScope(value, pointer, hint = "") {
  let href;
  if (typeof value === "string") href = value;
  else if (value !== null && typeof value === "object" && typeof value.href === "string") href = value.href;
  else throw new LiansScoreError("wrong_type", `lians-score: ${pointer.slice(1).replace(/\//g, ".")} must be a URL string, got ${describe(value)}`, pointer);
  let url;
  try {
    url = new URL(href, globalThis.location !== undefined ? globalThis.location.href : undefined);
  } catch {
    throw new LiansScoreError("invalid_value", `lians-score: ${describe(href)} is not an absolute URL${hint ? `: ${hint}` : ""}`, pointer);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new LiansScoreError("invalid_value", `lians-score: the base URL ${describe(href)} is not http: or https:`, pointer);
  }
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new LiansScoreError("invalid_value", `lians-score: the base URL ${describe(href)} must be an origin and a path only (no query, fragment or credentials)`, pointer);
  }
  return { origin: url.origin, prefix: routePath(url.pathname) };
}

/** The path as the server routes it: percent-decoded, without trailing slashes. */
function routePath(pathname) {
  let path = pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the raw path
  }
  return path.replace(/\/+$/, "");
}

/** True when `url` (a URL) is under the scope `{origin, prefix}`. */
export function inScope(scope, url) {
  if (url.origin !== scope.origin) return false;
  const path = routePath(url.pathname);
  return scope.prefix === "" || path === scope.prefix || path.startsWith(`${scope.prefix}/`);
}

/** "recall" | "context" for a route whose answer carries a receipt (method upper case, path as the server routes it), else null. */
export function receiptEndpoint(method, pathname) {
  const path = routePath(pathname);
  if (method === "POST" && path.endsWith("/v1/recall")) return "recall";
  if (method === "POST" && path.endsWith("/v1/context")) return "context";
  return null;
}

async function verifyingCall(api, base, opts, input, init) {
  const target = classify(input, init, opts);
  if (target === null) return base(input, init);
  const client = opts.ledger === null ? null : clientOf(api, input, init);
  if (target.endpoint === "event") return recordEvent(opts, base, input, init, target, client);

  // Keep a readable copy of the request body before the base fetch consumes it.
  let bodySource;
  if (target.endpoint !== "evidence_pack") {
    const body = init !== null && typeof init === "object" ? init.body : undefined;
    if (body !== undefined && body !== null) {
      if (isReadableStream(body)) {
        const [sent, kept] = body.tee();
        init = { ...init, body: sent };
        bodySource = kept;
      } else {
        bodySource = body;
      }
    } else if (isRequest(input)) {
      bodySource = input.clone();
    }
  }

  const tSent = isoNow();
  const res = await base(input, init);
  if (!(res.status >= 200 && res.status < 300)) return withoutVerificationHeaders(res);

  const requestText = target.endpoint === "evidence_pack" ? null : await requestBodyText(bodySource, target);
  const request = requestText === null ? null : requestOf(requestText, `${target.method} /v1/${target.endpoint}`);
  const query = request === null ? null : request.query;
  const bytes = new Uint8Array(await res.arrayBuffer());
  const tRecv = isoNow();
  // The browser entry's lean build has no audit: init({ audit: true }) loads the full one (a no-op once it is loaded, and in every other entry).
  if (opts.audit && target.endpoint === "recall") await api.init({ audit: true });
  else if (typeof api.isInitialized === "function" && !api.isInitialized()) await api.init();
  const report = target.endpoint === "evidence_pack" ? api.verifyEvidencePack(bytes, opts.pack) : verifyAnswer(api, target.endpoint, bytes, { ...opts.given, query });
  const audit =
    opts.audit && target.endpoint === "recall" && report.valid
      ? api.auditRecall(bytes, { request: { ...request, sent_at: tSent, received_at: tRecv } })
      : undefined;

  if (opts.onVerified !== undefined) {
    const info = { url: target.url, method: target.method, endpoint: target.endpoint, query };
    if (audit !== undefined) info.audit = audit;
    await opts.onVerified(report, info);
  }
  if (opts.onExchange !== null && target.endpoint !== "evidence_pack") {
    const exchange = exchangeOf({ client, tSent, tRecv, method: target.method, url: target.url, requestText, status: res.status, bytes });
    const recorded = await opts.onExchange(exchange, report);
    if (recorded && recorded.alarms.length > 0) return ledgerAlarm(opts, target, recorded, verifiedResponse(res, bytes, report), report);
  }
  if (!report.valid && opts.onInvalid === "throw") {
    throw new LiansVerificationError(report, verificationMessage(report, target));
  }
  if (audit !== undefined && !audit.consistent && opts.onInvalid === "throw") {
    throw new LiansVerificationError(audit, `lians-score: the response of ${target.method} ${target.url} failed the audit: ${audit.failures.join(", ")}`);
  }
  const out = verifiedResponse(res, bytes, report);
  if (audit !== undefined) {
    out.headers.set(HEADER_AUDIT, audit.consistent ? "consistent" : "inconsistent");
    defineValue(out, "liansAudit", audit);
  }
  return out;
}

/** The ledger's client name for a request: one per API key (a hash prefix, never the key), else "fetch". */
function clientOf(api, input, init) {
  let key = null;
  try {
    const headers = new Headers(init !== null && typeof init === "object" && init.headers !== undefined ? init.headers : isRequest(input) ? input.headers : undefined);
    key = headers.get("x-api-key");
  } catch {
    // unreadable headers: one client
  }
  return key && typeof api.sha256Hex === "function" ? `fetch:${api.sha256Hex(key).slice(0, 16)}` : "fetch";
}

/** A write, erasure, certificate, prune or key creation under the scope: passed on, and its answer recorded in the ledger. */
async function recordEvent(opts, base, input, init, target, client) {
  let requestText = null;
  const body = init !== null && typeof init === "object" ? init.body : undefined;
  if (typeof body === "string") requestText = body;
  else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) requestText = await bodyText(body);
  else if ((body === undefined || body === null) && isRequest(input)) requestText = (await input.clone().text()) || null;
  const tSent = isoNow();
  const res = await base(input, init);
  if (!(res.status >= 200 && res.status < 300)) return res;
  const text = await res.clone().text();
  const exchange = exchangeOf({ client, tSent, tRecv: isoNow(), method: target.method, url: target.url, requestText, status: res.status, bytes: text });
  let key = null;
  try {
    key = new Headers(init !== null && typeof init === "object" && init.headers !== undefined ? init.headers : isRequest(input) ? input.headers : undefined).get("idempotency-key");
  } catch {
    // no key
  }
  if (key !== null) exchange.request.headers = { "idempotency-key": key };
  const recorded = await opts.ledger.record(exchange);
  return recorded.alarms.length > 0 ? ledgerAlarm(opts, target, recorded, res, null) : res;
}

/** An exchange the ledger raised alarms on: rejects (LiansVerificationError with `alarms`), or with onInvalid "report" marks the response. */
function ledgerAlarm(opts, target, recorded, res, report) {
  const first = recorded.alarms[0];
  const message = `lians-score: the answer of ${target.method} ${target.url} contradicts an earlier one: ${recorded.alarms.map((a) => `${a.invariant} ${a.memory_id ?? ""}`.trim()).join(", ")} (${first.message})`;
  if (opts.onInvalid === "throw") {
    const error = new LiansVerificationError(report ?? { valid: false, failures: ["ledger_alarm"], checks: [] }, message);
    error.alarms = recorded.alarms;
    throw error;
  }
  const headers = new Headers(res.headers);
  headers.set("x-lians-ledger", "alarm");
  const out = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  defineValue(out, "url", res.url);
  if (report !== null) defineValue(out, "liansVerification", report);
  defineValue(out, "liansLedger", { alarms: recorded.alarms, warnings: recorded.warnings });
  return out;
}

/** The verification of a recall/context answer's bytes (body binding on) against `given` (its request's query and more). */
export function verifyAnswer(api, endpoint, bytes, given) {
  return endpoint === "recall" ? api.verifyRecallReceipt(bytes, given) : api.verifyContextReceipt(bytes, given);
}

/**
 * One exchange as the consistency ledger logs it (one JSON object per line of an exchange log):
 * `{ client, t_sent, t_recv, request: { method, url, body }, response: { status, body } }`, bodies as raw text
 * (a request without a body: null), times ISO 8601 with an offset.
 */
export function exchangeOf({ client, tSent, tRecv, method, url, requestText, status, bytes }) {
  return {
    client,
    t_sent: tSent,
    t_recv: tRecv,
    request: { method, url, body: requestText === undefined ? null : requestText },
    response: { status, body: typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes) },
  };
}

/** Now, as ISO 8601 with an explicit offset (`…+00:00`). */
export function isoNow() {
  return new Date().toISOString().replace(/Z$/, "+00:00");
}

/** {endpoint, url, method} when the request is one this wrapper verifies; null otherwise. */
function classify(input, init, opts) {
  let href;
  if (typeof input === "string") href = input;
  else if (isRequest(input)) href = input.url;
  else if (input !== null && typeof input === "object" && typeof input.href === "string") href = input.href;
  else {
    try {
      href = String(input);
    } catch {
      return null;
    }
  }
  let url;
  try {
    url = new URL(href, globalThis.location !== undefined ? globalThis.location.href : undefined);
  } catch {
    return null; // the base fetch reports the bad URL itself
  }
  if (!opts.scopes.some((scope) => inScope(scope, url))) return null; // not the Lians server's: untouched
  const initMethod = init !== null && typeof init === "object" ? init.method : undefined;
  const method = String(initMethod !== undefined ? initMethod : isRequest(input) ? input.method : "GET").toUpperCase();
  // The server routes on the percent-decoded path; a trailing slash is redirected to the route.
  let endpoint = receiptEndpoint(method, url.pathname);
  if (endpoint === null && method === "GET" && opts.pack !== null && PACK_PATH.test(routePath(url.pathname))) endpoint = "evidence_pack";
  if (endpoint === null && opts.ledger !== null && opts.ledger.accepts(method, url.href)) endpoint = "event";
  return endpoint === null ? null : { endpoint, url: url.href, method };
}

/** The request's body text; a request this wrapper cannot read fails closed. */
async function requestBodyText(source, target) {
  const route = `${target.method} /v1/${target.endpoint}`;
  let text;
  try {
    text = await bodyText(source);
  } catch (error) {
    throw new LiansScoreError("wrong_type", `lians-score: the body of ${route} could not be read to verify its response (${error && error.message})`, "/query");
  }
  if (text === undefined) {
    throw new LiansScoreError(
      "missing_field",
      `lians-score: ${route} had no request body (a string, bytes, Blob, ReadableStream or Request of JSON text), so its response cannot be verified`,
      "/query",
    );
  }
  return text;
}

/** The string `query` of a recall/context request's JSON text (`route` names it in errors); fails closed. */
export function queryOfRequest(text, route) {
  return requestOf(text, route).query;
}

/** A recall/context request's JSON text as an object with a string `query` (`route` names it in errors); fails closed. */
export function requestOf(text, route) {
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    throw new LiansScoreError("malformed_json", `lians-score: the body of ${route} is not JSON text, so its response cannot be verified`, "");
  }
  const query = isPlainObject(request) ? request.query : undefined;
  if (typeof query !== "string") {
    throw new LiansScoreError(
      query === undefined ? "missing_field" : "wrong_type",
      `lians-score: the body of ${route} has no string "query" to verify its response against`,
      "/query",
    );
  }
  return request;
}

async function bodyText(source) {
  if (source === undefined) return undefined;
  if (typeof source === "string") return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const view = source instanceof ArrayBuffer ? new Uint8Array(source) : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    return new TextDecoder("utf-8", { fatal: true }).decode(view);
  }
  if (typeof source.text === "function") return source.text(); // Blob, Request
  if (isReadableStream(source)) return new Response(source).text();
  return String(source); // URLSearchParams and the like: not JSON, refused by the caller
}

function verifiedResponse(res, bytes, report) {
  const headers = new Headers(res.headers);
  headers.set(HEADER_VERIFICATION, report.valid ? "valid" : "invalid");
  headers.delete(HEADER_AUDIT);
  if (typeof report.receipt_sha256 === "string") headers.set(HEADER_SHA256, report.receipt_sha256);
  else headers.delete(HEADER_SHA256);
  // The bytes are the decoded body: the wire's encoding and length no longer describe them.
  if (headers.has("content-encoding")) {
    headers.delete("content-encoding");
    headers.delete("content-length");
  }
  const body = NULL_BODY_STATUS.has(res.status) ? null : bytes;
  const out = new Response(body, { status: res.status, statusText: res.statusText, headers });
  defineValue(out, "url", res.url);
  defineValue(out, "redirected", res.redirected);
  defineValue(out, "liansVerification", report);
  return out;
}

function withoutVerificationHeaders(res) {
  if (!res.headers.has(HEADER_VERIFICATION) && !res.headers.has(HEADER_SHA256) && !res.headers.has(HEADER_AUDIT)) return res;
  const headers = new Headers(res.headers);
  headers.delete(HEADER_VERIFICATION);
  headers.delete(HEADER_SHA256);
  headers.delete(HEADER_AUDIT);
  const out = new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  defineValue(out, "url", res.url);
  defineValue(out, "redirected", res.redirected);
  return out;
}

function verificationMessage(report, target) {
  const failed = report.checks.filter((c) => c.status === "failed" && c.severity === "error").slice(0, 3);
  const where = failed.map((c) => `${c.code} at ${c.pointer || "/"}`).join("; ");
  return `lians-score: the response of ${target.method} ${target.url} failed verification: ${report.failures.join(", ")}` + (where ? ` (${where})` : "");
}

function defineValue(object, key, value) {
  try {
    Object.defineProperty(object, key, { value, enumerable: false, configurable: true });
  } catch {
    // a runtime whose Response refuses own properties: the headers still say it
  }
}

function isRequest(value) {
  if (typeof Request === "function" && value instanceof Request) return true;
  // A Request of another realm (or a polyfill): duck-typed.
  return (
    value !== null &&
    typeof value === "object" &&
    typeof value.url === "string" &&
    typeof value.method === "string" &&
    typeof value.clone === "function" &&
    typeof value.headers === "object"
  );
}

function isReadableStream(value) {
  return value !== null && typeof value === "object" && typeof value.getReader === "function" && typeof value.tee === "function";
}

function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "object") return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  return typeof value;
}

function unknownName(what, name, known, path) {
  const hint = closest(name, known);
  return new LiansScoreError(
    "invalid_value",
    `lians-score: unknown ${what} ${JSON.stringify(name)}` + (hint ? ` (did you mean ${JSON.stringify(hint)}?)` : "") + `; known: ${known.join(", ")}`,
    path,
  );
}

/** The known name nearest to `name` (case-insensitive: edit distance ≤ a third of its length, or a shortening of it), if any. */
function closest(name, known) {
  const a = name.toLowerCase();
  if (a.length >= 4 && a.length <= 64) {
    const part = known.find((k) => isSubsequence(a, k.toLowerCase()));
    if (part !== undefined) return part;
  }
  let best;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(a, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

function isSubsequence(a, b) {
  let i = 0;
  for (let j = 0; j < b.length && i < a.length; j++) if (a[i] === b[j]) i++;
  return i === a.length;
}

function editDistance(a, b) {
  if (a.length > 64 || b.length > 64) return Infinity; // bounded cost for hostile option names
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(prev[j] + 1, next[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = next;
  }
  return prev[b.length];
}
