// `lians-score/verify` (js/verify.mjs over dist/verify, the wasm built with the
// cargo feature verify-only) loaded in Node: exactly the verify subset, every
// receipt conformance case replayed byte-identically to the full build, the
// same reports on the captured samples (and tampered copies), the shared error
// classes, createVerifyingFetch, and the size that justifies the entry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import zlib from "node:zlib";
import * as verify from "../../js/verify.mjs";
import * as verifyGlue from "../../dist/verify/lians_score_verify.js";
import { ROOT, SAMPLES, RECEIPTS_FILE } from "./helpers.mjs";
import { API_NAMES, INTERNAL_NAMES, VERIFY_NAMES, INIT_NAMES, JS_NAMES, CLASS_NAMES } from "../../js/names.mjs";
import { tamperAt, editString } from "../live/tamper.mjs";

const require = createRequire(import.meta.url);
const full = require(path.join(ROOT, "js/node.cjs"));
const fullGlue = require(path.join(ROOT, "dist/cli/lians_score.js"));
const WASM = path.join(ROOT, "dist/verify/lians_score_verify_bg.wasm");
verify.initSync(readFileSync(WASM));
const sample = (name) => readFileSync(path.join(SAMPLES, name), "utf8");

test("exports exactly the verifiers, hashing, init, createVerifyingFetch, the classes and the constants", () => {
  const want = [...VERIFY_NAMES, ...INIT_NAMES, ...JS_NAMES, ...CLASS_NAMES, "SCORING_POLICY_VERSION", "RECALL_RECEIPT_SCHEMA",
    "CONTEXT_RECEIPT_SCHEMA", "EVIDENCE_PACK_SCHEMA", "VERSION"].sort();
  assert.deepEqual(Object.keys(verify).sort(), want);
  assert.equal(verify.VERSION, full.VERSION);
  // The wasm itself exports no function outside the verify subset: every API
  // or internal name not in VERIFY_NAMES (a new export in crates/wasm/src/lib.rs without
  // its `#[cfg(not(feature = "verify-only"))]` fails here).
  const kept = new Set([...VERIFY_NAMES, "crateVersion", "replayReceiptsLine", "setHostSha256"]);
  for (const name of [...API_NAMES, ...INTERNAL_NAMES]) {
    if (!kept.has(name)) assert.equal(verifyGlue[name], undefined, `${name} is exported by the verify-only wasm`);
  }
  assert.equal(typeof verifyGlue.replayReceiptsLine, "function");
  assert.equal(typeof verifyGlue.setHostSha256, "function", "the entries hand every build the host's SHA-256");
});

test("every receipt conformance case replays byte-identically to the full build", () => {
  const lines = readFileSync(RECEIPTS_FILE, "utf8").split("\n").filter((l) => l.trim() !== "");
  assert.ok(lines.length >= 496, `${lines.length} cases`);
  for (const line of lines) assert.equal(verifyGlue.replayReceiptsLine(line), fullGlue.replayReceiptsLine(line));
});

test("the same reports as the full entry on the captured samples and tampered copies", () => {
  const recall = sample("recall-08-fast-filters-acme-tinyfloat.json");
  const context = sample("context-01-deep-acme-summary.json");
  const pack = sample("pack-01-v2-signed.json");
  const key = sample("evidence_public_key.b64").trim();
  const cases = [
    ["verifyRecallReceipt", recall, { query: "Acme revenue" }],
    ["verifyRecallReceipt", tamperAt(recall, ["memories", 0, "content"], editString), { query: "Acme revenue" }],
    ["verifyRecallReceipt", new TextEncoder().encode(recall), { include_canonical: true }],
    ["verifyContextReceipt", context, null],
    ["verifyContextReceipt", tamperAt(context, ["context"], editString), undefined],
    ["verifyEvidencePack", pack, { trusted_public_key: key, expected_key_id: "lians-real-test-key" }],
    ["verifyEvidencePack", pack, { trusted_public_key: "A".repeat(43) + "=" }],
  ];
  for (const [fn, wire, given] of cases) assert.deepEqual(verify[fn](wire, given), full[fn](wire, given), fn);
  assert.equal(verify.canonicalJson('{"b":1e-7,"a":1.0}'), full.canonicalJson('{"b":1e-7,"a":1.0}'));
  assert.equal(verify.sha256Hex("abc"), full.sha256Hex("abc"));
});

test("errors are the shared classes; createVerifyingFetch works over the verify-only wasm", async () => {
  assert.equal(verify.LiansScoreError, full.LiansScoreError);
  assert.equal(verify.LiansVerificationError, full.LiansVerificationError);
  assert.throws(() => verify.verifyRecallReceipt({}), (e) => e instanceof full.LiansScoreError && e.code === "wrong_type");
  const recall = sample("recall-08-fast-filters-acme-tinyfloat.json");
  const base = async () => new Response(tamperAt(recall, ["memories", 0, "content"], editString), { status: 200 });
  const vfetch = verify.createVerifyingFetch(base, { baseUrl: "https://lians.example" });
  await assert.rejects(vfetch("https://lians.example/v1/recall", { method: "POST", body: '{"query":"Acme revenue"}' }), (e) =>
    e instanceof full.LiansVerificationError && e.report.failures.includes("content_hash_mismatch"));
  const ok = await verify.createVerifyingFetch(async () => new Response(recall), { baseUrl: "https://lians.example" })("https://lians.example/v1/recall", { method: "POST", body: '{"query":"Acme revenue"}' });
  assert.equal(ok.headers.get("x-lians-verification"), "valid");
});

test("the verify-only wasm is at least 30 % smaller than the full one (raw and gzip)", () => {
  const size = (f) => {
    const bytes = readFileSync(f);
    return { raw: statSync(f).size, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
  };
  const v = size(WASM);
  const f = size(path.join(ROOT, "dist/web/lians_score_bg.wasm"));
  assert.ok(v.raw <= 0.7 * f.raw, `raw ${v.raw} vs ${f.raw}`);
  assert.ok(v.gzip <= 0.7 * f.gzip, `gzip ${v.gzip} vs ${f.gzip}`);
});
