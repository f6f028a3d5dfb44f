// Body caps of the JS entries (issue #32, docs/edge-memory.md): the functions
// that take a response body or Evidence Pack (BODY_NAMES) refuse one over the
// entry's cap with `too_large` before any byte is copied into the wasm. The
// Node and browser entries use the library's own cap (32 MiB, MAX_TEXT_BYTES
// in src/api/limits.rs); the workerd, edge-light and deno entries (full and
// verify-only) default to EDGE_MAX_BODY_BYTES, which keeps the worst case
// (hostile, structure-heavy bodies) under 64 MB of wasm memory. A call changes
// its cap with `maxBodyBytes` in its second argument (the `given` / options
// object), which is taken out before the wasm sees the object.
// This file is the source of js/limits.cjs (scripts/gen-entries.mjs): keep it
// free of imports other than ./errors.mjs.
import { LiansScoreError } from "./errors.mjs";

/** The library's cap on JSON text (bytes of UTF-8): src/api/limits.rs MAX_TEXT_BYTES. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** The default cap of the workerd / edge-light / deno entries (bytes): see docs/edge-memory.md. */
export const EDGE_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The functions whose first argument is a body (JSON text or its UTF-8 bytes). */
export const BODY_NAMES = ["verifyRecallReceipt", "verifyContextReceipt", "verifyEvidencePack", "auditRecall"];

/**
 * `args` of a body function with `maxBodyBytes` taken out of the options
 * (args[1]), after refusing a body over that cap (or `cap`).
 */
export function checkBody(args, cap) {
  const options = args[1];
  if (hasOwnOption(options)) {
    let maxBodyBytes, rest;
    try {
      ({ maxBodyBytes, ...rest } = options);
    } catch (error) {
      throw new LiansScoreError("invalid_value", `lians-score: the options could not be read (${error})`, "/maxBodyBytes");
    }
    if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 0) {
      throw new LiansScoreError(
        "invalid_value",
        `lians-score: maxBodyBytes must be a non-negative integer (bytes), got ${typeof maxBodyBytes === "number" ? maxBodyBytes : typeof maxBodyBytes}`,
        "/maxBodyBytes",
      );
    }
    cap = maxBodyBytes;
    args = [args[0], rest, ...args.slice(2)];
  }
  const n = bodyBytes(args[0], cap);
  if (n > cap) {
    throw new LiansScoreError(
      "too_large",
      `lians-score: the body is ${n === Infinity ? "more than " + cap : n} bytes; the limit is ${cap} bytes` +
        (cap < MAX_BODY_BYTES ? " (raise it with the maxBodyBytes option)" : ""),
      "",
    );
  }
  return args;
}

/** Does `options` carry its own `maxBodyBytes`? (False for what cannot be read, e.g. a revoked
 * proxy: the wasm then reports that argument with its own typed error.) */
function hasOwnOption(options) {
  try {
    return options !== null && typeof options === "object" && Object.hasOwn(options, "maxBodyBytes");
  } catch {
    return false;
  }
}

/** The UTF-8 length of a body (Infinity once it is known to be over `cap`); 0 for what is not a body
 * (or cannot be read: the wasm reports it). */
function bodyBytes(body, cap) {
  try {
    return utf8Length(body, cap);
  } catch {
    return 0;
  }
}

function utf8Length(body, cap) {
  if (typeof body === "string") {
    // UTF-8 takes 1 to 3 bytes per UTF-16 unit (a lone surrogate's U+FFFD: 3).
    if (body.length > cap) return Infinity;
    if (body.length * 3 <= cap) return body.length;
    let n = 0;
    for (let i = 0; i < body.length; i++) {
      const c = body.charCodeAt(i);
      if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else if (c >= 0xd800 && c < 0xdc00 && i + 1 < body.length && (body.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        n += 4;
        i++;
      } else n += 3;
    }
    return n;
  }
  // Bytes (a Uint8Array, ArrayBuffer or other view, of any realm).
  if (body !== null && typeof body === "object" && typeof body.byteLength === "number") return body.byteLength;
  return 0;
}

/** `current` updated from a configureLimits() argument (checked: known names, non-negative integers). */
export function readLimits(limits, current) {
  if (limits === null || typeof limits !== "object") {
    throw new LiansScoreError("wrong_type", "lians-score: configureLimits() takes an object {maxBodyBytes?, resetMemoryBytes?}", "");
  }
  const next = { ...current };
  for (const key of Object.keys(limits)) {
    if (!Object.hasOwn(next, key)) {
      throw new LiansScoreError("invalid_value", `lians-score: configureLimits(): unknown limit ${JSON.stringify(key)} (maxBodyBytes, resetMemoryBytes)`, `/${key}`);
    }
    const n = limits[key];
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new LiansScoreError("invalid_value", `lians-score: configureLimits(): ${key} must be a non-negative integer (bytes)`, `/${key}`);
    }
    next[key] = n;
  }
  next.maxBodyBytes = Math.min(next.maxBodyBytes, MAX_BODY_BYTES);
  return next;
}
