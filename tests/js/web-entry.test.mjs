// The browser entry (wasm-pack web target) loaded in Node. Each scenario runs
// in a fresh Node process, so no earlier import can have initialized the
// module: explicit, idempotent init; a clear error before it; concurrent
// init() calls sharing one load; a WebAssembly.Module from another realm.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./helpers.mjs";

const WEB = pathToFileURL(path.join(ROOT, "js/web.mjs")).href;
const WASM = path.join(ROOT, "dist/web/lians_score_bg.wasm");

/** Run `body` (an ES module text, `web` and `bytes` in scope) in a fresh Node process; returns its stdout. */
function fresh(body) {
  const source = `import * as web from ${JSON.stringify(WEB)};
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
const bytes = readFileSync(${JSON.stringify(WASM)});
${body}`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

test("web entry: not_initialized before init, idempotent initSync/init after", () => {
  const out = fresh(`
    assert.equal(web.isInitialized(), false);
    assert.throws(() => web.sha256Hex("abc"), (e) => e.code === "not_initialized" && /init\\(\\)/.test(e.message));
    assert.throws(() => web.initSync(), TypeError);
    assert.equal(web.isInitialized(), false);
    web.initSync(bytes);
    assert.equal(web.isInitialized(), true);
    web.initSync(bytes);
    await web.init();
    console.log(web.sha256Hex("abc"), web.VERSION);
  `);
  const version = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
  assert.equal(out.trim(), `ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad ${version}`);
});

test("web entry: concurrent init() calls share one in-flight load", () => {
  // Count the fetches of the default URL: the first call starts the load, the
  // others (even with other arguments) join it; nothing is usable before it ends.
  const out = fresh(`
    let fetches = 0;
    globalThis.fetch = async (url) => {
      fetches++;
      await new Promise((r) => setTimeout(r, 20));
      return new Response(bytes, { headers: { "content-type": "application/wasm" } });
    };
    const a = web.init("https://example.invalid/lians_score_bg.wasm");
    const b = web.init(new URL("https://example.invalid/other.wasm"));
    const c = web.init({ module_or_path: "https://example.invalid/third.wasm" });
    assert.equal(a, b, "concurrent calls return the same promise");
    assert.equal(a, c);
    assert.equal(web.isInitialized(), false);
    assert.throws(() => web.sha256Hex("abc"), (e) => e.code === "not_initialized");
    await Promise.all([a, b, c]);
    assert.equal(web.isInitialized(), true);
    await web.init("https://example.invalid/again.wasm");
    console.log(fetches, web.sha256Hex(""));
  `);
  assert.equal(out.trim(), "1 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
});

test("web entry: a failed init() can be retried", () => {
  const out = fresh(`
    await assert.rejects(web.init(new Uint8Array([0, 1, 2, 3])));
    assert.equal(web.isInitialized(), false);
    await web.init(bytes);
    console.log(web.isInitialized());
  `);
  assert.equal(out.trim(), "true");
});

test("web entry: a WebAssembly.Module compiled in another realm (node:vm) initializes, sync and async", () => {
  // Next.js's edge sandbox and edge-runtime inject the ?module import from the
  // host realm; wasm-bindgen's own instanceof test would reject it.
  for (const call of ["web.initSync({ module: foreign })", "web.initSync(foreign)", "await web.init(foreign)"]) {
    const out = fresh(`
      import("node:vm").then(async (vm) => {
        const foreign = vm.runInNewContext("new WebAssembly.Module(b)", { b: bytes });
        assert.equal(foreign instanceof WebAssembly.Module, false, "the module is from another realm");
        const proto = Object.getPrototypeOf(foreign);
        ${call};
        assert.equal(Object.getPrototypeOf(foreign), proto, "its prototype is given back");
        console.log(web.sha256Hex("abc"));
      });
    `);
    assert.equal(out.trim(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", call);
  }
});
