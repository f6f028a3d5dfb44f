// No stale notes: every relative link in the docs (README, docs/, the other top-level and folder READMEs)
// names a file that exists, and its #anchor a heading there; every repo path cited in backticks in those
// docs, or in a comment of the code (js/, scripts/, src/, crates/, tests/, bench/, benches/, examples/, fuzz/),
// exists. (www/ is not scanned yet: it is being reworked on another branch.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./helpers.mjs";

const DOCS = [
  "README.md", "BENCHMARKS.md", "FUZZING.md", "docs", "tests/data/README.md", "tests/data/samples/README.md",
  "tests/data/audit/README.md", "tests/oracle/README.md", "tests/numbers/README.md", "www/sample/README.md",
  "crates/core/README.md", "bench/reference/README.md", "examples",
];
const CODE = ["js", "scripts", "src", "crates", "tests", "bench", "benches", "examples", "fuzz"];
// Generated folders (never committed) and placeholders that comments name on purpose.
const NOT_PATHS = new Set(["fuzz/corpus", "examples/NAME"]);
const SKIP_DIRS = new Set(["node_modules", "target", "work", "work-examples", "dist"]);
// Top-level folders whose paths are checked; build outputs and scratch folders are not.
const ROOTS = /^(src|tests|js|www|scripts|docs|bench|benches|crates|examples|fuzz|inline)\//;

function files(rel, pred) {
  const full = path.join(ROOT, rel);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return pred(rel) ? [rel] : [];
  return readdirSync(full).filter((n) => !SKIP_DIRS.has(n)).flatMap((n) => files(path.join(rel, n), pred));
}

/** GitHub's heading anchors of a Markdown file. */
function anchors(file) {
  const out = new Set();
  let fence = false;
  for (const line of readFileSync(path.join(ROOT, file), "utf8").split("\n")) {
    if (line.startsWith("```")) fence = !fence;
    const m = !fence && /^#{1,6} (.*)$/.exec(line);
    if (m) out.add(m[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-"));
  }
  for (const m of readFileSync(path.join(ROOT, file), "utf8").matchAll(/<a (?:name|id)="([^"]+)"/g)) out.add(m[1]);
  return out;
}

/** Repo paths cited in `text` (relative to the repo root), trailing punctuation dropped. */
function citedPaths(text) {
  const out = [];
  for (const m of text.matchAll(/(?<![\w./-])((?:[\w.-]+\/)+[\w.-]*\w)(?!\.?[\w/*<{$-])/g)) {
    const p = m[1];
    if (ROOTS.test(p) && !/[*<>{}]/.test(p) && !NOT_PATHS.has(p)) out.push(p);
  }
  return out;
}

function problems() {
  const bad = [];
  const md = DOCS.flatMap((d) => files(d, (f) => f.endsWith(".md")));
  for (const file of md) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const noFences = text.replace(/```[\s\S]*?```/g, "");
    for (const m of noFences.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/.test(target)) continue;
      const [rel, anchor] = target.split("#");
      const dest = rel ? path.normalize(path.join(path.dirname(file), rel)) : file;
      if (!existsSync(path.join(ROOT, dest))) { bad.push(`${file}: link to ${target}: no ${dest}`); continue; }
      if (anchor && dest.endsWith(".md") && !anchors(dest).has(anchor)) bad.push(`${file}: link to ${target}: no heading #${anchor} in ${dest}`);
    }
    for (const m of noFences.matchAll(/`([^`\n]+)`/g)) {
      for (const p of citedPaths(m[1])) {
        if (!existsSync(path.join(ROOT, p)) && !existsSync(path.join(ROOT, path.dirname(file), p))) bad.push(`${file}: \`${p}\` does not exist`);
      }
    }
  }
  const code = CODE.flatMap((d) => files(d, (f) => /\.(mjs|cjs|js|ts|sh|py|rs)$/.test(f)));
  for (const file of code) {
    for (const line of readFileSync(path.join(ROOT, file), "utf8").split("\n")) {
      const c = /^\s*(?:\/\/|#|\*|\/\*\*?)\s?(.*)$/.exec(line);
      if (!c) continue;
      for (const p of citedPaths(c[1])) if (!existsSync(path.join(ROOT, p))) bad.push(`${file}: comment cites ${p}, which does not exist`);
    }
  }
  return bad;
}

test("docs link only to files and headings that exist; comments cite only files that exist", () => {
  const bad = problems();
  assert.deepEqual(bad, [], `${bad.length} stale references:\n  ${bad.join("\n  ")}`);
});
