// Outputs through interop::to_js: a result tree is built by one JSON.parse of
// its printed text whenever that is exact (finite floats, ints of at most 20
// digits), value by value otherwise; both must give the very same JS values.
//
//   node --test tests/js/to-js.test.mjs
//   LIANS_TOJS_SEED=7 node --test tests/js/to-js.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT, mulberry32 } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const lians = require(path.join(ROOT, "js/node.cjs"));
const SEED = Number(process.env.LIANS_TOJS_SEED ?? 20261201);

/** A value's observable form: numbers by Object.is (-0, NaN), key order kept, strings by code units. */
function describe(v, seen = new Set()) {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "string") return JSON.stringify(v); // lone surrogates escaped: one text per string
  if (v === null || typeof v !== "object") return `${typeof v}:${String(v)}`;
  if (seen.has(v)) return "<cycle>";
  seen.add(v);
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}[${[...v].map((x) => describe(x, seen)).join(",")}]`;
  const proto = Object.getPrototypeOf(v);
  const tag = Array.isArray(v) ? "A" : proto === null ? "N" : proto === Object.prototype ? "O" : "?";
  return `${tag}{${Reflect.ownKeys(v).map((k) => `${String(k)}=${describe(v[k], seen)}`).join(",")}}`;
}

test("outputs: arrays and objects built by one JSON.parse carry the numbers, strings and keys that to_js gives", () => {
  // sortCandidates echoes its candidates, so their `x` members come back through interop::to_js:
  // one JSON.parse of the printed tree when every number is json_exact, value by value otherwise.
  // Either way a float must come back as itself and an int as the double nearest to its digits
  // (Number(BigInt(digits)) rounds to nearest, ties to even, as Rust's f64 parse does).
  const r = mulberry32(SEED ^ 0x5eed);
  const floats = [-0, 0, 5e-324, -5e-324, 2.2250738585072014e-308, Number.MAX_VALUE, 0.1, 1 / 3, 1e21, 1e16, 2 ** 53, 1e-7, 123.456];
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  while (floats.length < 3000) {
    words[0] = Math.floor(r() * 2 ** 32);
    words[1] = Math.floor(r() * 2 ** 32);
    if (Number.isFinite(bits[0])) floats.push(bits[0]);
  }
  const floatText = (x) => (Object.is(x, -0) ? "-0.0" : Number.isInteger(x) && !String(x).includes("e") ? `${x}.0` : String(x));
  const digits = (n) => Array.from({ length: n }, (_, i) => (i === 0 ? 1 + Math.floor(r() * 9) : Math.floor(r() * 10))).join("");
  const ints = ["0", "-0", "1", "-1", "9007199254740993", "18446744073709551616", "99999999999999999999", "-12345678901234567891"];
  for (let i = 0; i < 3000; i++) ints.push((r() < 0.5 ? "-" : "") + digits(1 + Math.floor(r() * 20)));
  const bigInts = ["123456789012345678901", "9".repeat(25), "-" + "1".repeat(400)];
  for (let i = 0; i < 300; i++) bigInts.push(digits(21 + Math.floor(r() * 30)));
  const strings = ["\ud800", "\udc00x", "😀", "\ud83d\ude00", "a\"b\\c\n\t\u0000\u001f", "\u2028\u2029\u007f\ufffd", "Straße"];
  const keys = { "__proto__": 1, "0": 2, "10": 3, b: 4, a: 5, "\ud800": 6, "": 7 };
  const keysText = '{"__proto__":1,"0":2,"10":3,"b":4,"a":5,"\\ud800":6,"":7}';
  const candidates = (xs) => `[${xs.map((x, i) => `{"id":"c${i}","final_score":0.5,"event_time":null,"created_at":null,"x":${x}}`).join(",")}]`;
  const back = (text) => lians.sortCandidates(text).sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1))).map((c) => c.x);

  const gotFloats = back(candidates([`[${floats.map(floatText).join(",")}]`]))[0];
  floats.forEach((x, i) => assert.ok(Object.is(gotFloats[i], x), `float ${floatText(x)} came back as ${gotFloats[i]}`));
  for (const list of [ints, bigInts]) {
    const got = back(candidates([`[${list.join(",")}]`]))[0];
    list.forEach((d, i) => {
      const expected = Number(BigInt(d)); // "-0" is the int 0 (Python has no negative int zero)
      assert.ok(Object.is(got[i], expected), `int ${d} came back as ${got[i]}, expected ${expected}`);
    });
  }
  const gotStrings = back(candidates([JSON.stringify(strings)]))[0];
  assert.equal(describe(gotStrings), describe(strings));
  const gotKeys = back(candidates([keysText]))[0];
  assert.equal(describe(gotKeys), describe(JSON.parse(keysText)));
  assert.ok(Object.hasOwn(gotKeys, "__proto__") && Object.getPrototypeOf(gotKeys) === Object.prototype);
  // Non-finite floats (no JSON form) take the value-by-value path.
  const gotSpecial = back(candidates(["[NaN,Infinity,-Infinity,1e400,0.5]"]))[0];
  assert.equal(describe(gotSpecial), describe([NaN, Infinity, -Infinity, Infinity, 0.5]));
});
