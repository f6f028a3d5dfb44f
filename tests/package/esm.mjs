import assert from "node:assert/strict";
import { scoreMemory, canonicalJson, sha256Hex, verifyRecallReceipt, SCORING_POLICY_VERSION, init } from "lians-score";
import { createRequire } from "node:module";

await init();
assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
assert.equal(canonicalJson('{"b":1.0,"a":"\\u00e9"}'), '{"a":"\\u00e9","b":1.0}');
const r = scoreMemory({ content: "Alice prefers window seats", reference_time: "2026-08-01T00:00:00+00:00" });
assert.equal(r.scoring_policy_version, SCORING_POLICY_VERSION);
assert.throws(() => verifyRecallReceipt({}), (e) => e.code === "wrong_type");
// The .wasm subpath resolves to a real file.
const wasmPath = createRequire(import.meta.url).resolve("lians-score/lians_score_bg.wasm");
assert.ok(WebAssembly.validate(await import("node:fs").then((fs) => fs.readFileSync(wasmPath))));
console.log("esm ok");
