// The head/tail sample of long content (crates/core/src/text.rs `sample`) as the shipped wasm counts it:
// its char counters read sixteen bytes at a time with SIMD128 there (issue #32), so the count is checked
// through the package with the sample's cut at every position of a 16-byte block and of a 64-byte step.
// Scoring reads the content only through the sample, so scoring a text and scoring its sample (cut
// here in JS, by code points) must give the same full breakdown; the query is the words next to the cuts.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as lians from "lians-score";

const HEAD = 4095;
const TAIL = 4096;

function jsSample(text, head = HEAD) {
  const chars = Array.from(text);
  if (chars.length <= HEAD + TAIL + 1) return text;
  return chars.slice(0, head).join("") + " " + chars.slice(chars.length - TAIL).join("");
}

test("the wasm's head/tail sample cuts at the same char for every block position (SIMD128 char counting)", () => {
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  // One to four UTF-8 bytes a char, so the cuts fall at every byte offset of a block.
  const pieces = ["a", "b", " ", "é", "ß", "東", "京", "न", "\u{10348}", "\u{1F600}", "x7", "Ω"];
  const lines = [];
  for (let k = 0; k < 300; k++) {
    const total = HEAD + TAIL + 2 + (k % 3 === 0 ? next() % 4 : next() % 9000);
    let chars = [];
    while (chars.length < total) chars.push(...Array.from(pieces[next() % pieces.length]));
    chars = chars.slice(0, total);
    // A word ending at the head's last char and one starting at the tail's first, each with a letter
    // on the side the sample cuts away: a cut one char off either way changes the word's token.
    const head = `h${k}q`;
    const tail = `t${k}q`;
    chars.splice(HEAD - head.length - 1, head.length + 2, " ", ...head, "z");
    chars.splice(total - TAIL - 1, tail.length + 2, "z", ...tail, " ");
    const content = chars.join("");
    const shared = { query: `${head} ${tail}`, reference_time: "2026-11-30T00:00:00+00:00", purpose: "recall" };
    lines.push({ shared, content });
  }
  const score = (line, content) => {
    const text = new TextEncoder().encode(JSON.stringify({ content }));
    return JSON.stringify(lians.scoreCandidates(line.shared, text, { output: "full" }));
  };
  let differ = 0;
  for (const [k, line] of lines.entries()) {
    const sampled = score(line, jsSample(line.content));
    assert.equal(score(line, line.content), sampled, `line ${k}`);
    // The test can fail: a head one char short scores differently.
    if (score(line, jsSample(line.content, HEAD - 1)) !== sampled) differ++;
  }
  assert.equal(differ, lines.length);
});
