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
  const wire = Deno.readTextFileSync(new URL("../data/samples/recall-08-fast-filters-acme-tinyfloat.json", import.meta.url));
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

Deno.test("lians-score/verify (verify-deno.mjs): ready on import, the verifiers only, the shared error class", async () => {
  const verify = await import("../../js/verify-deno.mjs");
  const full = await import("../../js/deno.mjs");
  assertEquals(verify.isInitialized(), true);
  assertEquals(typeof verify.scoreMemory, "undefined");
  const wire = Deno.readTextFileSync(new URL("../data/samples/recall-08-fast-filters-acme-tinyfloat.json", import.meta.url));
  assertEquals(JSON.stringify(verify.verifyRecallReceipt(wire, { query: "Acme revenue" })), JSON.stringify(full.verifyRecallReceipt(wire, { query: "Acme revenue" })));
  assertEquals(verify.LiansScoreError, full.LiansScoreError);
  let caught;
  try {
    verify.verifyRecallReceipt({});
  } catch (e) {
    caught = e;
  }
  assertEquals(caught instanceof full.LiansScoreError, true, "instanceof");
});
