// The package's error classes, shared by every entry of one install (and by
// every copy of the package in one JavaScript realm): `LiansScoreError`
// (every coded error a function throws: `code`, `path`, `message`) and
// `LiansVerificationError extends LiansScoreError` (a response that failed
// verification in `createVerifyingFetch`: `report`).
//
// The classes are created once per realm and kept in the global symbol
// registry slot `Symbol.for("lians-score.errors.v1")`, so the ESM entries
// (this file) and the CommonJS entry (js/errors.cjs, generated from this file
// by scripts/gen-entries.mjs) export the *same* class objects: `instanceof`
// holds whichever entry threw and whichever entry the test imports.
//
// The wasm binding throws a plain `Error` named "LiansScoreError" with `code`
// and `path` (crates/wasm/src/interop.rs `js_error`); the entries pass every such
// error through `adoptError`, which gives it this class's prototype (its
// message and stack are kept).

const SLOT = Symbol.for("lians-score.errors.v1");

function defineErrors() {
  /** A coded error: `code` (stable snake_case), `path` (JSON pointer or field, "" for the whole input). */
  class LiansScoreError extends Error {
    constructor(code, message, path = "") {
      super(message);
      this.code = code;
      this.path = path;
    }
  }
  Object.defineProperty(LiansScoreError.prototype, "name", {
    value: "LiansScoreError",
    writable: true,
    configurable: true,
  });

  /** A response that failed verification: `report` is its `VerificationReport`. */
  class LiansVerificationError extends LiansScoreError {
    constructor(report, message) {
      const failures = report && Array.isArray(report.failures) ? report.failures : [];
      const failed = report && Array.isArray(report.checks) ? report.checks.find((c) => c.status === "failed") : undefined;
      super("verification_failed", message ?? `lians-score: verification failed: ${failures.join(", ") || "invalid"}`, failed ? failed.pointer : "");
      this.report = report;
    }
  }
  Object.defineProperty(LiansVerificationError.prototype, "name", {
    value: "LiansVerificationError",
    writable: true,
    configurable: true,
  });

  /** Give an error thrown by the wasm binding the LiansScoreError prototype; anything else is returned as is. */
  function adoptError(error) {
    if (
      error instanceof Error &&
      !(error instanceof LiansScoreError) &&
      error.name === "LiansScoreError" &&
      typeof error.code === "string"
    ) {
      Object.setPrototypeOf(error, LiansScoreError.prototype);
    }
    return error;
  }

  /** `fn` with every error it throws passed through adoptError (same name and arity). */
  function adopting(fn) {
    const wrapped = {
      [fn.name](...args) {
        try {
          return fn(...args);
        } catch (error) {
          throw adoptError(error);
        }
      },
    }[fn.name];
    return wrapped;
  }

  return Object.freeze({ LiansScoreError, LiansVerificationError, adoptError, adopting });
}

function sharedErrors() {
  const existing = globalThis[SLOT];
  if (existing && typeof existing.LiansScoreError === "function" && typeof existing.adopting === "function") return existing;
  const errors = defineErrors();
  try {
    Object.defineProperty(globalThis, SLOT, { value: errors, configurable: false, enumerable: false, writable: false });
  } catch {
    // A frozen global object: the classes are then per module copy.
  }
  return errors;
}

export const { LiansScoreError, LiansVerificationError, adoptError, adopting } = sharedErrors();
