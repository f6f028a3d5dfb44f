// scoreCandidates(null, text / bytes, { output: "full" }) of two builds on the bench batch and on non-ASCII-heavy
// variants of it (issue #32 round 12, npc: the token pass's general path): node bench/token-diff.mjs A/js/node.cjs B/js/node.cjs
// Prints one line per comparison and exits 1 when any output differs.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
const req = createRequire(import.meta.url);
const [a, b] = process.argv.slice(2).map((p) => req(resolve(p)));
const lines = readFileSync("target/bench-edge/batch.jsonl", "utf8").split("\n").filter((l) => l.trim());
const pieces = [
  "مرحبا", "بالعالم", "ـ", "\u064E", "٠١٢", "،", "नमस्ते", "दुनिया", "\u094D", "०१२", "।", "\u200D", "\u200C", "東京", "予算会議",
  "、", "。", "\u3000", "〇", "々", "ー", "ｶﾀｶﾅ", "ＡＢ", "１２", "예산", "회의", "ᄀ", "สวัสดี", "Straße", "STRASSE", "ß", "ẞ",
  "Größe", "GRÖSSE", "É", "é", "àÿ", "Ÿ", "×", "÷", "ª", "²", "¼", "\u00A0", "¿", "µ", "ﬁ", "İ", "ı", "ŉ", "ǰ", "Σ", "ς", "ΣΊ",
  "\u0345", "Привет", "ПРИВЕТ", "שלום", "և", "ǅ", "e\u0301", "𐐀", "𠀀", "budget", "Budget", "DEADLINE", "decided", "a1", "x", "9",
  "_", "-", "abcdefghijklmnopqrstu", "$12.50", "straßenbahn", "maßgeblich", "ßß", "ßa", "aß", "Maße", "fußball",
];
const seps = [" ", "", " ", "  ", ".", "\n", "\u3000", "\u00A0", ", "];
let seed = 0x9e3779b97f4a7c15n;
const next = () => {
  seed ^= seed << 13n; seed &= 0xffffffffffffffffn; seed ^= seed >> 7n; seed ^= seed << 17n; seed &= 0xffffffffffffffffn;
  return Number(seed % 1000003n);
};
const junk = (n) => Array.from({ length: n }, () => pieces[next() % pieces.length] + seps[next() % seps.length]).join("");
const queryWords = ["strasse", "straße", "größe", "grösse", "東京", "予算", "नमस", "مرحبا", "σ", "привет", "maße", "fussball", "ss"];
const variant = (f) => lines.map((l) => { const o = JSON.parse(l); f(o); return JSON.stringify(o); }).join("\n");
const texts = {
  batch: lines.join("\n"),
  inserted: variant((o) => { const c = o.content ?? ""; const at = next() % (c.length + 1); o.content = c.slice(0, at) + " " + junk(40 + (next() % 200)) + c.slice(at); }),
  replaced: variant((o) => { o.content = junk(40 + (next() % 200)); }),
  queries: variant((o) => { o.content = junk(20 + (next() % 120)) + (o.content ?? ""); o.query = `${o.query ?? ""} ${queryWords[next() % queryWords.length]} ${queryWords[next() % queryWords.length]}`; }),
  upper: variant((o) => { o.content = (o.content ?? "").toUpperCase().slice(next() % 50); o.query = queryWords[next() % queryWords.length]; }),
};
let bad = 0;
for (const [name, text] of Object.entries(texts)) {
  for (const input of ["text", "bytes"]) {
    const arg = input === "text" ? text : new TextEncoder().encode(text);
    const ra = JSON.stringify(a.scoreCandidates(null, arg, { output: "full" }));
    const rb = JSON.stringify(b.scoreCandidates(null, arg, { output: "full" }));
    const same = ra === rb;
    bad += same ? 0 : 1;
    console.log(`${name} ${input}: ${text.split("\n").length} candidates, ${ra.length} B of output: ${same ? "identical" : "DIFFER"}`);
  }
}
process.exit(bad ? 1 : 0);
