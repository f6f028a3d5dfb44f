#!/usr/bin/env node
// Sizes of the built package (raw / gzip -9 / brotli q11), the README's size
// block, and the size budget. Called by scripts/size.sh (every build).
//   node scripts/size.mjs                 print the table; exit 1 over the budget
//   node scripts/size.mjs --write-readme  also rewrite README.md's marked block
//   node scripts/size.mjs --check-readme  exit 1 when README.md's block is stale
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIMIT_GZIP = 200 * 1024; // hard limit for the .wasm (issue #15)
const TARGET_GZIP = 150 * 1024; // goal
const BEGIN = "<!-- sizes: BEGIN, written by scripts/size.mjs on every build; do not edit -->";
const END = "<!-- sizes: END -->";

function measure(files) {
  const bytes = Buffer.concat(files.map((f) => readFileSync(path.join(ROOT, f))));
  return {
    raw: bytes.length,
    gzip: zlib.gzipSync(bytes, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(bytes, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length,
  };
}

let rows;
try {
  rows = [
    ["`lians_score_bg.wasm` (what `init()` fetches; workerd, edge, Deno)", ["dist/web/lians_score_bg.wasm"]],
    ["JS of the browser entry (`js/web.mjs`, `core.mjs`, `names.mjs`, `constants.mjs`, `errors.mjs`, `fetch.mjs`, glue)",
      ["js/web.mjs", "js/core.mjs", "js/names.mjs", "js/constants.mjs", "js/errors.mjs", "js/fetch.mjs", "dist/web/lians_score.js"]],
    ["`lians-score/inline`: the wasm as base64 JS (`dist/inline/lians_score_bg.wasm.mjs`)", ["dist/inline/lians_score_bg.wasm.mjs"]],
    ["`lians-score/verify`: the verify-only `.wasm` (`dist/verify/lians_score_verify_bg.wasm`)", ["dist/verify/lians_score_verify_bg.wasm"]],
  ].map(([label, files]) => ({ label, ...measure(files) }));
} catch (error) {
  console.error(`size.mjs: ${error.message} (run scripts/build.sh)`);
  process.exit(1);
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const [wasm, , inline, verify] = rows;
const pct = (a, b) => `+${Math.round((a / b - 1) * 100)}%`;
const less = (a, b) => `${Math.round((1 - a / b) * 100)}%`;
const block = [
  BEGIN,
  "| file | raw | gzip -9 | brotli |",
  "|---|---:|---:|---:|",
  ...rows.map((r) => `| ${r.label} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.brotli)} |`),
  "",
  `The inline build costs ${pct(inline.raw, wasm.raw)} raw, ${pct(inline.gzip, wasm.gzip)} gzip and ` +
    `${pct(inline.brotli, wasm.brotli)} brotli over the separate \`.wasm\`, and cannot be compiled while it ` +
    "downloads (no `instantiateStreaming`). The verify-only build (receipts, Evidence Packs, canonical JSON, " +
    `hashing; no scorer, audit, batch or CLI) is ${less(verify.raw, wasm.raw)} smaller raw, ${less(verify.gzip, wasm.gzip)} gzip and ` +
    `${less(verify.brotli, wasm.brotli)} brotli.`,
  END,
].join("\n");

for (const r of rows) console.log(`size: ${r.label}: raw ${kb(r.raw)} (${r.raw} B), gzip -9 ${kb(r.gzip)} (${r.gzip} B), brotli ${kb(r.brotli)} (${r.brotli} B)`);

const readmePath = path.join(ROOT, "README.md");
const readme = readFileSync(readmePath, "utf8");
const start = readme.indexOf(BEGIN);
const end = readme.indexOf(END, start);
if (start < 0 || end < 0) {
  console.error("size.mjs: README.md has no size block");
  process.exit(1);
}
const current = readme.slice(start, end + END.length);
if (process.argv.includes("--write-readme") && current !== block) {
  writeFileSync(readmePath, readme.slice(0, start) + block + readme.slice(end + END.length));
  console.log("size: README.md size block updated");
}
if (process.argv.includes("--check-readme") && current !== block) {
  console.error("size.mjs: README.md's size block is stale: run scripts/build.sh (or node scripts/size.mjs --write-readme)");
  process.exit(1);
}

if (wasm.gzip > LIMIT_GZIP) {
  console.error(`size: FAIL .wasm gzip ${kb(wasm.gzip)} is over the 200 KB limit`);
  process.exit(1);
} else if (wasm.gzip > TARGET_GZIP) console.log(`size: warning: .wasm gzip ${kb(wasm.gzip)} is over the 150 KB target`);
else console.log("size: ok (limit 200 KB gzip, target 150 KB)");
