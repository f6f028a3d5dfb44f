// `createVerifyingFetch(baseFetch = globalThis.fetch, options?)`: a fetch that
// verifies Lians responses from their raw bytes before any caller sees them.
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

const OPTION_NAMES = ["given", "onInvalid", "onVerified", "trustedPublicKey", "expectedKeyId", "audit"];
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
const HEADER_VERIFICATION = "x-lians-verification";
const HEADER_SHA256 = "x-lians-receipt-sha256";
const HEADER_AUDIT = "x-lians-audit";
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
  return { onInvalid, onVerified, given, pack, audit };
}

async function verifyingCall(api, base, opts, input, init) {
  const target = classify(input, init, opts);
  if (target === null) return base(input, init);

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

  const sentAt = new Date().toISOString();
  const res = await base(input, init);
  if (!(res.status >= 200 && res.status < 300)) return withoutVerificationHeaders(res);

  const request = target.endpoint === "evidence_pack" ? null : await requestBody(bodySource, target);
  const query = request === null ? null : request.query;
  const bytes = new Uint8Array(await res.arrayBuffer());
  const receivedAt = new Date().toISOString();
  if (typeof api.isInitialized === "function" && !api.isInitialized()) await api.init();
  let report;
  if (target.endpoint === "recall") report = api.verifyRecallReceipt(bytes, { ...opts.given, query });
  else if (target.endpoint === "context") report = api.verifyContextReceipt(bytes, { ...opts.given, query });
  else report = api.verifyEvidencePack(bytes, opts.pack);
  const audit =
    opts.audit && target.endpoint === "recall" && report.valid
      ? api.auditRecall(bytes, { request: { ...request, sent_at: sentAt, received_at: receivedAt } })
      : undefined;

  if (opts.onVerified !== undefined) {
    const info = { url: target.url, method: target.method, endpoint: target.endpoint, query };
    if (audit !== undefined) info.audit = audit;
    await opts.onVerified(report, info);
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
  const initMethod = init !== null && typeof init === "object" ? init.method : undefined;
  const method = String(initMethod !== undefined ? initMethod : isRequest(input) ? input.method : "GET").toUpperCase();
  // The server routes on the percent-decoded path; a trailing slash is redirected to the route.
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the raw path
  }
  path = path.replace(/\/+$/, "");
  let endpoint = null;
  if (method === "POST" && path.endsWith("/v1/recall")) endpoint = "recall";
  else if (method === "POST" && path.endsWith("/v1/context")) endpoint = "context";
  else if (method === "GET" && opts.pack !== null && PACK_PATH.test(path)) endpoint = "evidence_pack";
  return endpoint === null ? null : { endpoint, url: url.href, method };
}

/** The request's JSON body, with a string `query`; a request this wrapper cannot read fails closed. */
async function requestBody(source, target) {
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
