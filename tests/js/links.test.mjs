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
  "README.md", "HACKING.md", "BENCHMARKS.md", "FUZZING.md", "docs", "tests/data/README.md", "tests/data/samples/README.md",
  "tests/data/audit/README.md", "tests/oracle/README.md", "tests/numbers/README.md", "www/sample/README.md",
  "crates/core/README.md", "bench/reference/README.md", "examples",
];
const CODE = ["js", "scripts", "src", "crates", "tests", "bench", "benches", "examples", "fuzz"];
// Generated folders (never committed) and placeholders that comments name on purpose.
const NOT_PATHS = new Set(["fuzz/corpus", "examples/NAME", "examples/NAME/README.md"]);
// docs/spec is vendored from ../shared/spec (scripts/refresh-conformance.sh): its own paths are upstream's.
const SKIP_DIRS = new Set(["node_modules", "target", "work", "work-examples", "dist", "spec", ".next", "build"]);
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

// The sections that left the README (issue #33: a README for users) and where each went. A user who
// knew the old section must reach it from the README by a link (its #anchor a heading there, which the
// test above checks), and it must not also stay behind in the README.
const MOVED = [
  ["Set-up: two commands", "HACKING.md#set-up"],
  ["Parity, measured", "docs/parity.md"],
  ["The review-queue dashboard (`npm start`)", "docs/dashboard.md"],
  ["Loading a queue", "docs/dashboard.md"],
  ["Reading an item", "docs/dashboard.md"],
  ["Working the queue", "docs/dashboard.md"],
  ["Verifying receipts and Evidence Packs", "docs/dashboard.md"],
  ["Security", "docs/dashboard.md"],
  ["Use with your Lians server", "docs/dashboard.md"],
  ["Deploying the static files elsewhere", "docs/dashboard.md"],
  ["Verify every response", "docs/js.md#verify-every-response"],
  ["Which file each runtime gets", "docs/js.md#which-file-each-runtime-gets"],
  ["Bundlers and frameworks", "docs/js.md#which-file-each-runtime-gets"],
  ["Functions", "docs/js.md#functions"],
  ["Objects or JSON text: what a JavaScript object cannot say", "docs/js.md"],
  ["Receipts must be raw text", "docs/js.md"],
  ["What `valid` means (and what it does not)", "docs/valid.md"],
  ["Runtimes in practice", "docs/js.md"],
  ["Errors", "docs/js.md"],
  ["Command line", "docs/cli.md"],
  ["Recall audit: did the server follow its own scoring rules?", "docs/audit.md"],
  ["Building and testing", "HACKING.md#building-and-testing"],
];
// Sections that stay in the README under the same title (in short).
const KEPT = new Set(["Verify every response", "Command line"]);

test("every section moved out of the README is reached from it by a link", () => {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8").replace(/```[\s\S]*?```/g, "");
  const links = new Set([...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]));
  const headings = new Set([...readme.matchAll(/^#{1,6} (.*)$/gm)].map((m) => m[1].trim()));
  const bad = [];
  for (const [title, target] of MOVED) {
    if (!links.has(target)) bad.push(`"${title}" moved to ${target}, but the README has no link to ${target}`);
    if (headings.has(title) && !KEPT.has(title)) bad.push(`"${title}" is still a README heading`);
  }
  assert.deepEqual(bad, []);
  const lines = readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").length;
  assert.ok(lines <= 300, `README.md has ${lines} lines (at most 300: details go to docs/)`);
});

// `§` references in the code name their spec file (docs/spec/*.md, vendored from ../shared/spec), and
// the section exists there: a numbered heading (`### 9.4 …`) or item M of the numbered list right under
// heading `## N.` (`scoring-admission.md` §7.2). The name may stand earlier on the line or on the line
// before (a wrapped comment).
const SPECS = ["scoring-admission.md", "ranking-receipts.md", "recall-audit.md", "consistency-ledger.md"];
function sections(name) {
  const out = new Set();
  let top = null;
  for (const line of readFileSync(path.join(ROOT, "docs/spec", name), "utf8").split("\n")) {
    const h = /^#+\s+(\d+(?:\.\d+)*)[.\s]/.exec(line);
    if (h) {
      out.add(h[1]);
      top = h[1].includes(".") ? null : h[1];
      continue;
    }
    const item = /^(\d+)\.\s/.exec(line);
    if (item && top) out.add(`${top}.${item[1]}`);
  }
  return out;
}

test("every § reference in the code names its spec file and a section of it", () => {
  const known = Object.fromEntries(SPECS.map((n) => [n, sections(n)]));
  const code = [...CODE, "www"].flatMap((d) => files(d, (f) => /\.(mjs|cjs|js|ts|sh|py|rs)$/.test(f)));
  const bad = [];
  let refs = 0;
  for (const file of code) {
    const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      for (const m of line.matchAll(/§\s?(\d+(?:\.\d+)*)/g)) {
        refs++;
        const before = line.slice(0, m.index);
        const names = [...before.matchAll(/([a-z-]+\.md)/g)].map((x) => x[1]).filter((n) => SPECS.includes(n));
        const prev = i > 0 && lines[i - 1].includes("§") ? [...lines[i - 1].matchAll(/([a-z-]+\.md)/g)].map((x) => x[1]).filter((n) => SPECS.includes(n)) : [];
        const spec = names.at(-1) ?? prev.at(-1);
        if (!spec) bad.push(`${file}:${i + 1}: §${m[1]} names no spec file (${SPECS.join(", ")})`);
        else if (!known[spec].has(m[1])) bad.push(`${file}:${i + 1}: §${m[1]} is no section of docs/spec/${spec}`);
      }
    });
  }
  assert.ok(refs > 100, `only ${refs} § references found: is the scan broken?`);
  assert.deepEqual(bad, [], `${bad.length} § references:\n  ${bad.join("\n  ")}`);
});
