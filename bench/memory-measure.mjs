// One measurement of bench/memory.mjs, in Node and in workerd (bench/workerd/memory-worker.mjs).
const MAX = 32 * 1024 * 1024;
/** What each kind's verifier is called with (besides the body). */
const GIVEN = { recall: { query: "Summarize Acme account facts" }, context: { query: "Summarize Acme account facts" }, pack: { allow_unsigned: true } };
const FN = { recall: "verifyRecallReceipt", context: "verifyContextReceipt", pack: "verifyEvidencePack" };

/** One measurement with `lib` (an entry's exports): a fresh instance, then one call. */
export function measure(lib, kind, body, as) {
  // A fresh instance: reset after a trivial call, then no reset during the measured one.
  lib.configureLimits({ maxBodyBytes: MAX, resetMemoryBytes: 0 });
  lib.sha256Hex("");
  lib.configureLimits({ resetMemoryBytes: Number.MAX_SAFE_INTEGER });
  const input = as === "string" ? new TextDecoder().decode(body) : body;
  const before = lib.memoryStats().memoryBytes;
  let outcome;
  try {
    const r = lib[FN[kind]](input, { ...GIVEN[kind] });
    outcome = r.valid ? "valid" : `invalid (${r.failures.length} failed)`;
  } catch (error) {
    outcome = `threw ${error.code || error.name}`;
  }
  const after = lib.memoryStats().memoryBytes;
  return { before, after, outcome };
}

