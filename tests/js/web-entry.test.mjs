// The browser entry (wasm-pack web target) loaded in Node: explicit,
// idempotent init; a clear error before it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./helpers.mjs";

test("web entry: not_initialized before init, idempotent initSync/init after", async () => {
  const web = await import(path.join(ROOT, "js/web.mjs"));
  assert.equal(web.isInitialized(), false);
  assert.throws(() => web.sha256Hex("abc"), (e) => e.code === "not_initialized" && /init\(\)/.test(e.message));
  assert.throws(() => web.initSync(), TypeError);
  const bytes = readFileSync(path.join(ROOT, "dist/web/lians_score_bg.wasm"));
  web.initSync(bytes);
  web.initSync(bytes);
  await web.init();
  assert.equal(web.isInitialized(), true);
  assert.equal(web.sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(web.VERSION, JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version);
});

test("web entry: concurrent init() calls share one load", async () => {
  const url = path.join(ROOT, "js/web.mjs") + "?fresh";
  const web = await import(url);
  const module = new WebAssembly.Module(readFileSync(path.join(ROOT, "dist/web/lians_score_bg.wasm")));
  await Promise.all([web.init(module), web.init({ module_or_path: module }), web.init(module)]);
  assert.equal(web.isInitialized(), true);
});
