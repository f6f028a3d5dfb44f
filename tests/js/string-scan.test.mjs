// The parser's string scan as the shipped wasm runs it (crates/core/src/json/parse.rs `skip_plain`: SIMD128,
// 32 bytes a step, then 16, then words and bytes; issue #32): a control char, `"` or `\` at every byte
// position of a string, with non-ASCII text before it, and strings ending at every distance from the end of
// the input. The typed error names the right char; a string without one scores as the same content given as
// an object (which never goes through the parser).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as lians from "lians-score";

const shared = { query: "budget 東京", reference_time: "2026-11-30T00:00:00+00:00", purpose: "recall" };
const encoder = new TextEncoder();
const score = (candidates) => JSON.stringify(lians.scoreCandidates(shared, candidates, { output: "full" }));

test("the wasm's string scan stops at every control char, quote and backslash, in every lane", () => {
  let seed = 5;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  const pieces = ["a", "b ", "é", "東", "\u{1F600}", "budget "];
  // Text of exactly n UTF-8 bytes (ASCII fills the last bytes).
  const text = (n) => {
    let s = "";
    while (encoder.encode(s).length < n) {
      const p = pieces[next() % pieces.length];
      s += encoder.encode(s + p).length <= n ? p : "x";
    }
    return s;
  };
  const head = '{"content":"';
  // Every control char but the line breaks (which end a JSON Lines line), `"` and `\\`.
  const controls = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).filter((c) => c !== "\n" && c !== "\r");
  const specials = [...controls, '"', "\\"];
  let cases = 0;
  for (let p = 0; p < 72; p++) {
    for (const q of [0, 1, 7, 15, 16, 17, 31, 33, 47]) {
      const before = text(p);
      const after = "n" + text(q);
      const at = head.length + Array.from(before).length; // the special char's index, in chars
      const plain = `${head}${before}${after}"}`;
      assert.equal(score(encoder.encode(plain)), score([JSON.parse(plain)]), `p=${p} q=${q}`);
      for (const c of specials) {
        const line = `${head}${before}${c}${after}"}`;
        const [result] = JSON.parse(score(encoder.encode(line)));
        cases++;
        if (c === "\\") {
          assert.equal(JSON.stringify([result]), score([JSON.parse(line)]), `escape p=${p} q=${q}`);
        } else if (c === '"') {
          assert.equal(result.message, `Expecting ',' delimiter: line 1 column ${at + 2} (char ${at + 1})`, `p=${p} q=${q}`);
        } else {
          assert.equal(result.message, `Invalid control character at: line 1 column ${at + 1} (char ${at})`, `${c.charCodeAt(0)} p=${p} q=${q}`);
        }
      }
    }
  }
  assert.equal(cases, 72 * 9 * 32);
});
