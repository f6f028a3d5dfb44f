// scoreCandidates(shared, text / bytes / objects, { output: "full" }) and scoreMemory of two builds on the bench batch and
// 400 lines with metadata variants (issue #32 round 11, meta): node bench/batch-meta-diff.mjs A/js/node.cjs B/js/node.cjs
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
const req = createRequire(import.meta.url);
const [a, b] = process.argv.slice(2).map((p) => req(resolve(p)));
const lines = readFileSync("target/bench-edge/batch.jsonl", "utf8").split("\n").filter((l) => l.trim());
const texts = [];
texts.push(lines.join("\n"));
const metas = [
  '{"trust_level":"high","x":1}', '{"trust_level":0,"source_trust":null}', '{"trust_level":"","source_trust":0}',
  '{"source_trust":null}', '{"trust_level":[],"source_trust":false}', '{"trust_level":{},"y":2}', '{"trust_level":0.0}', '{"trust_level":-0}',
  '{"a":1,"a":2,"b":{"a":3,"a":[4,5]}}', '{"b":1,"a":2,"b":3}', '{"\\u00e9":"x","e":"y","\\ud800":"lone","\\ud83d\\ude00":"emoji","\\uffff":"z"}',
  '{"k\\"q":"v\\n","\\\\":"\\t"}', '{"_h":1,"materiality":"high","pub":null}', '{"_h":1,"trust_level":"x"}',
  '{"d":{"e":{"f":{"g":{"h":{"i":"deep"}}}}}}', '{"n":[[[[[["deep"]]]]]]}', '{"f":[1.0,1e-7,1e22,-0.0,0.1,1E400,123456789012345678901234567890]}',
  '{"t":true,"f":false,"z":null,"s":"","big":' + JSON.stringify("w ".repeat(700)) + '}', '{}', 'null', '[]', '"str"', '5',
  JSON.stringify(Object.fromEntries(Array.from({ length: 70 }, (_, i) => ["k" + (70 - i), "budget v" + i]))),
  JSON.stringify(Object.fromEntries(Array.from({ length: 40 }, (_, i) => ["x" + i, "Straße ß " + "q".repeat(i * 20)]))),
  '{"Budget":"東京 予算 DEADLINE","query":"budget"}', '{"decided":"yes","tags":["budget","予算","東京"]}',
];
const queries = ["budget deadline", "東京 予算", "nomatch zzz", "", "alpha beta gamma decided"];
let k = 0;
const variants = [];
for (const line of lines.slice(0, 400)) {
  const o = JSON.parse(line);
  const m = metas[k % metas.length];
  const q = queries[k % queries.length];
  const src = ["user_provided", " System_Verified ", "CHAT", "imported", "operator", "", "tool_output\t"][k % 7];
  const st = ["safe", " Review_Needed", "QUARANTINED", "approved ", "pending", "SAFE", "rejected"][k % 7];
  let t = line.replace(/"metadata": \{[^}]*\}/, '"metadata": ' + m).replace(/"query": "[^"]*"/, '"query": ' + JSON.stringify(q));
  if (k % 3 === 0) t = t.replace(/"source": "[^"]*"/, '"source": ' + JSON.stringify(src));
  if (k % 2 === 0) t = t.replace(/\}$/, ', "safety_status": ' + JSON.stringify(st) + "}");
  if (k % 5 === 0) t = t.replace(/"purpose": "recall"/, '"purpose": ' + ['"admission"', "null", '"Recall"', "5", '"\\ud800"'][(k / 5) % 5 | 0]);
  if (k % 11 === 0) t = t.replace(/"event_time": "[^"]*"/, '"event_time": "1700-01-01T00:00:00.000001+00:00"');
  variants.push(t);
  k++;
}
texts.push(variants.join("\n"));
// shared metadata with candidates overriding it (or not)
const shared = { metadata: { note: "budget shared", trust_level: "x" }, query: "budget 東京" };
let diffs = 0, n = 0;
for (const [i, t] of texts.entries()) {
  for (const sh of [null, shared]) {
    for (const input of [t, new TextEncoder().encode(t)]) {
      const ra = JSON.stringify(a.scoreCandidates(sh, input, { output: "full" }));
      const rb = JSON.stringify(b.scoreCandidates(sh, input, { output: "full" }));
      n++;
      if (ra !== rb) { diffs++; console.log("DIFF text", i, "shared", !!sh); }
    }
  }
}
// candidates without metadata but with shared metadata
const noMeta = variants.map((l) => l.replace(/"metadata": (\{[^}]*\}|null|\[\]|"str"|5)/, '"x_unused": 1')).map((l) => l.replace(/, "x_unused": 1/, ""));
for (const sh of [shared, { metadata: null }, { metadata: { a: 1 } }]) {
  const ra = JSON.stringify(a.scoreCandidates(sh, noMeta.join("\n"), { output: "full" }));
  const rb = JSON.stringify(b.scoreCandidates(sh, noMeta.join("\n"), { output: "full" }));
  n++; if (ra !== rb) { diffs++; console.log("DIFF noMeta"); }
}
// arrays of candidate objects (the Value path)
const objs = variants.slice(0, 200).map((l) => { try { return JSON.parse(l); } catch { return null; } }).filter(Boolean);
for (const sh of [null, shared]) {
  const ra = JSON.stringify(a.scoreCandidates(sh, objs, { output: "full" }));
  const rb = JSON.stringify(b.scoreCandidates(sh, objs, { output: "full" }));
  n++; if (ra !== rb) { diffs++; console.log("DIFF objs"); }
}
// per-object scoreMemory
let md = 0;
for (const l of variants.slice(0, 200)) {
  const ra = JSON.stringify((() => { try { return a.scoreMemory(l); } catch (e) { return String(e); } })());
  const rb = JSON.stringify((() => { try { return b.scoreMemory(l); } catch (e) { return String(e); } })());
  if (ra !== rb) md++;
}
const errs = JSON.parse(JSON.stringify(b.scoreCandidates(null, variants.join("\n"), { output: "full" }))).filter((r) => "error" in r).length;
console.log(JSON.stringify({ comparisons: n, differ: diffs, scoreMemory: 200, scoreMemoryDiffer: md, variants: variants.length, errorRows: errs }));
