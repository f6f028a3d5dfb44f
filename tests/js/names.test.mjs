// The one list of public functions (js/names.mjs) against everything derived
// from it or required to agree with it: the generated entry export lists, the
// declarations in js/index.d.ts, the wasm exports, and each entry's exports.
// (The error-code and check-code unions of js/index.d.ts are checked against
// the Rust enums themselves, ErrorCode::ALL and CheckCode::ALL, by
// tests/ts_unions.rs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { ROOT } from "./helpers.mjs";
import { API_NAMES, INTERNAL_NAMES, CLI_NAMES, INIT_NAMES, JS_NAMES, CLASS_NAMES, GLUE_HOOK_NAMES, LEAN_HOOK_NAMES, LEAN_OMITTED_NAMES, FULL_ONLY_NAMES } from "../../js/names.mjs";

const read = (p) => readFileSync(path.join(ROOT, p), "utf8");
const dts = read("js/index.d.ts");
const sorted = (xs) => [...xs].sort();

test("the generated entry export lists are up to date (node scripts/gen-entries.mjs --check)", () => {
  execFileSync(process.execPath, [path.join(ROOT, "scripts/gen-entries.mjs"), "--check"], { stdio: "pipe" });
});

test("index.d.ts declares exactly the API functions plus init/initSync/isInitialized and the JS ones, and the classes", () => {
  const declared = new Set([...dts.matchAll(/^export declare function (\w+)/gm)].map((m) => m[1]));
  // Plus the consistency ledger's (ESM entries only: js/node.mjs and js/web.mjs; see the next test).
  assert.deepEqual(sorted(declared), sorted([...API_NAMES, ...INIT_NAMES, ...JS_NAMES, "createLedger", "compareLedgers"]));
  const classes = new Set([...dts.matchAll(/^export declare class (\w+)/gm)].map((m) => m[1]));
  assert.deepEqual(sorted(classes), sorted(CLASS_NAMES));
});

test("every wasm export is in API_NAMES or INTERNAL_NAMES (none forgotten, none stale)", () => {
  const glue = read("dist/web/lians_score.js");
  const exported = [...glue.matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
  // The browser/edge build leaves out the CLI's exports (cargo feature js-cli); build.sh appends the reset and swap hooks.
  assert.deepEqual(sorted(exported), sorted([...API_NAMES, ...INTERNAL_NAMES.filter((n) => !CLI_NAMES.includes(n)), ...GLUE_HOOK_NAMES, ...LEAN_HOOK_NAMES]));
  // The lean browser build (cargo feature lean, dist/web-lean) leaves out exactly LEAN_OMITTED_NAMES.
  const lean = [...read("dist/web-lean/lians_score_lean.js").matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual(sorted(lean), sorted(exported.filter((n) => !LEAN_OMITTED_NAMES.includes(n) && !FULL_ONLY_NAMES.includes(n))));
  for (const name of LEAN_OMITTED_NAMES) assert.ok(API_NAMES.includes(name), name);
  const node = read("dist/cli/lians_score.js");
  const nodeExported = [...node.matchAll(/^(?:exports\.(\w+) =|export function (\w+))/gm)].map((m) => m[1] ?? m[2]);
  assert.deepEqual(sorted(new Set(nodeExported)), sorted([...API_NAMES, ...INTERNAL_NAMES]));
  // The js_name attributes of the Rust binding say the same.
  const rust = [...read("crates/wasm/src/lib.rs").matchAll(/js_name\s*=\s*(\w+)/g)].map((m) => m[1]);
  for (const name of API_NAMES) assert.ok(rust.includes(name), `crates/wasm/src/lib.rs exports ${name}`);
});

test("every entry exports the API functions and nothing undeclared", async () => {
  const require = createRequire(import.meta.url);
  const want = sorted([...API_NAMES, ...INIT_NAMES, ...JS_NAMES, ...CLASS_NAMES, "SCORING_POLICY_VERSION", "RECALL_RECEIPT_SCHEMA",
    "CONTEXT_RECEIPT_SCHEMA", "EVIDENCE_PACK_SCHEMA", "VERSION"]);
  const entries = {
    "js/node.cjs": require(path.join(ROOT, "js/node.cjs")),
    "js/node.mjs": await import(path.join(ROOT, "js/node.mjs")),
    "js/web.mjs": await import(path.join(ROOT, "js/web.mjs")),
    "js/inline.mjs": await import(path.join(ROOT, "js/inline.mjs")),
    // The API of the workerd and edge-light entries (which import .wasm modules Node cannot).
    "js/edge.mjs": await import(path.join(ROOT, "js/edge.mjs")),
  };
  for (const [file, mod] of Object.entries(entries)) {
    // The consistency ledger (js/ledger.mjs) is ESM only: the Node ESM entry (SQLite) and the web entry (IndexedDB, Durable Object).
    const ledger = ["js/node.mjs", "js/web.mjs", "js/edge.mjs"].includes(file) ? ["compareLedgers", "createLedger"] : [];
    assert.deepEqual(sorted(Object.keys(mod).filter((k) => k !== "default")), sorted([...want, ...ledger]), file);
    for (const name of [...API_NAMES, ...JS_NAMES, ...CLASS_NAMES]) assert.equal(typeof mod[name], "function", `${file} ${name}`);
    // One class per realm, whichever entry (ESM or CommonJS) it came from.
    for (const name of CLASS_NAMES) assert.equal(mod[name], entries["js/node.cjs"][name], `${file} ${name} is the shared class`);
  }
  // bundler.mjs needs a bundler (it imports the .wasm as a module): check its text.
  const bundler = read("js/bundler.mjs");
  for (const name of API_NAMES) assert.match(bundler, new RegExp(`^  ${name},$`, "m"), `js/bundler.mjs ${name}`);
});

test("README.md's size block matches the built files (node scripts/size.mjs --check-readme)", () => {
  execFileSync(process.execPath, [path.join(ROOT, "scripts/size.mjs"), "--check-readme"], { stdio: "pipe" });
});
