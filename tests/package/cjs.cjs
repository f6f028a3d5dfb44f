const assert = require("node:assert/strict");
const lians = require("lians-score");
assert.equal(lians.sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
const r = lians.scoreMemory('{"content":"x","reference_time":"2026-08-01T00:00:00"}');
assert.equal(r.reference_time, "2026-08-01T00:00:00+00:00");
console.log("cjs ok");
