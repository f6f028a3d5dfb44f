// Deno (npm `deno`): the deno entry initializes on import (reads the .wasm;
// run with --allow-read), then scores and verifies.
import { scoreMemory, verifyRecallReceipt, canonicalJson, sha256Hex, isInitialized, VERSION } from "../../js/deno.mjs";

function assertEquals(actual, expected, message = "") {
  if (actual !== expected) throw new Error(`${message} expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

Deno.test("deno entry is ready on import", () => {
  assertEquals(isInitialized(), true);
  assertEquals(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assertEquals(typeof VERSION, "string");
});

Deno.test("canonical JSON keeps Python number forms", () => {
  assertEquals(canonicalJson('{"b":1.0,"a":1e-7}'), '{"a":1e-07,"b":1.0}');
});

Deno.test("scores a memory", () => {
  const out = scoreMemory({ content: "Alice prefers window seats", reference_time: "2026-08-01T00:00:00+00:00" });
  assertEquals(out.scoring_policy_version, "lians-memory-scoring-v2");
  assertEquals(typeof out.final_score, "number");
});

Deno.test("verifies the captured recall response", () => {
  const wire = Deno.readTextFileSync(new URL("../samples/recall-08-fast-filters-acme-tinyfloat.json", import.meta.url));
  const report = verifyRecallReceipt(wire);
  assertEquals(report.valid, true, JSON.stringify(report.failures));
  assertEquals(report.receipt_sha256, JSON.parse(wire).receipt_sha256);
});

Deno.test("a parsed receipt object is refused", () => {
  let code;
  try {
    verifyRecallReceipt({});
  } catch (error) {
    code = error.code;
  }
  assertEquals(code, "wrong_type");
});
