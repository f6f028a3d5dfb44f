// The browser entry's two builds (issue #32 round 8): a plain init() fetches
// the lean wasm (dist/web-lean/lians_score_lean_bg.wasm, no auditRecall);
// init({ audit: true }) fetches the full one (dist/web/lians_score_bg.wasm),
// also after a lean init (the lean instance is replaced and dropped);
// init(bytes) and initSync() tell the two apart by their exports; auditRecall
// on a lean instance throws not_initialized saying what to call; the verifying
// fetch and the guard with `audit` upgrade by themselves. Each scenario runs in
// a fresh Node process whose fetch serves the package's files and logs them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, SAMPLES } from "./helpers.mjs";

const url = (rel) => pathToFileURL(path.join(ROOT, rel)).href;
const LEAN = path.join(ROOT, "dist/web-lean/lians_score_lean_bg.wasm");
const FULL = path.join(ROOT, "dist/web/lians_score_bg.wasm");
const RECALL = path.join(SAMPLES, "recall-08-fast-filters-acme-tinyfloat.json");

/** Run `body` (ES module text) in a fresh Node process with `web`, `lean`/`full` (bytes), `RECALL` (text), `fetched` (file names, in order) in scope. */
function fresh(body) {
  const source = `import * as web from ${JSON.stringify(url("js/web.mjs"))};
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import assert from "node:assert/strict";
const lean = readFileSync(${JSON.stringify(LEAN)});
const full = readFileSync(${JSON.stringify(FULL)});
const RECALL = readFileSync(${JSON.stringify(RECALL)}, "utf8");
const fetched = [];
globalThis.fetch = async (input) => {
  const href = String(input instanceof URL ? input.href : input.url ?? input);
  fetched.push(path.basename(href));
  return new Response(readFileSync(fileURLToPath(href)), { headers: { "content-type": "application/wasm" } });
};
const audits = () => {
  try {
    return typeof web.auditRecall(RECALL, {}).consistent;
  } catch (e) {
    assert.ok(e instanceof web.LiansScoreError);
    return e.code + " " + e.path + " " + e.message;
  }
};
${body}`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

const LEAN_ERROR =
  "not_initialized / lians-score: auditRecall() needs the full WebAssembly build, and `init()` loaded the lean one " +
  "(no audit, ~38 KB gzip smaller); call `await init({ audit: true })` first";

test("init() fetches the lean wasm: everything but auditRecall, which throws a typed error saying what to call", () => {
  const out = fresh(`
    assert.match(audits(), /^not_initialized  .*call \`await init\\(\\{ audit: true \\}\\)\` first/);
    await web.init();
    console.log(JSON.stringify(fetched));
    console.log(web.sha256Hex("abc").slice(0, 8), web.verifyRecallReceipt(RECALL).valid, web.scoreMemory({ content: "x", reference_time: "2026-08-01T00:00:00+00:00" }).scoring_policy_version);
    console.log(audits());
    await web.init();
    console.log(JSON.stringify(fetched));
  `);
  assert.equal(out, `["lians_score_lean_bg.wasm"]\nba7816bf true lians-memory-scoring-v2\n${LEAN_ERROR}\n["lians_score_lean_bg.wasm"]`);
});

test("init({ audit: true }) after init() fetches the full wasm and replaces the instance (the lean one is dropped)", () => {
  const out = fresh(`
    const leanGlue = await import(${JSON.stringify(url("dist/web-lean/lians_score_lean.js"))});
    await web.init();
    const before = web.scoreCandidates(null, '{"content":"Alice prefers window seats"}\\n', { output: "jsonl" });
    assert.ok(leanGlue.__lians_memory_bytes() > 0);
    const [a, b] = [web.init({ audit: true }), web.init({ audit: true })];
    assert.equal(a, b, "one in-flight upgrade");
    await a;
    console.log(JSON.stringify(fetched), audits(), leanGlue.__lians_memory_bytes());
    assert.equal(web.scoreCandidates(null, '{"content":"Alice prefers window seats"}\\n', { output: "jsonl" }), before);
    await web.init();
    await web.init({ audit: true });
    web.initSync(lean);
    console.log(JSON.stringify(fetched), audits());
  `);
  assert.equal(out, `["lians_score_lean_bg.wasm","lians_score_bg.wasm"] boolean 0\n["lians_score_lean_bg.wasm","lians_score_bg.wasm"] boolean`);
});

test("init({ audit: true }) first fetches only the full wasm; init() joins an in-flight load and upgrades after it", () => {
  const out = fresh(`
    await web.init({ audit: true });
    await web.init();
    console.log(JSON.stringify(fetched), audits());
  `);
  assert.equal(out, `["lians_score_bg.wasm"] boolean`);
  const joined = fresh(`
    const a = web.init();
    const b = web.init({ audit: true });
    assert.notEqual(a, b);
    await a;
    console.log(audits().split(" ")[0]);
    await b;
    console.log(JSON.stringify(fetched), audits());
  `);
  assert.equal(joined, `not_initialized\n["lians_score_lean_bg.wasm","lians_score_bg.wasm"] boolean`);
});

test("initSync() and init(bytes or module) tell the builds apart by their exports", () => {
  const out = fresh(`
    web.initSync(lean);
    console.log(audits().split(" ")[0]);
    web.initSync(lean);
    web.initSync({ module: new WebAssembly.Module(full) });
    console.log(audits());
    web.initSync(lean);
    console.log(audits(), JSON.stringify(fetched));
  `);
  assert.equal(out, "not_initialized\nboolean\nboolean []");
  const bytes = fresh(`
    await web.init({ module_or_path: full });
    console.log(audits());
  `);
  assert.equal(bytes, "boolean");
  const leanBytes = fresh(`
    await web.init(await WebAssembly.compile(lean));
    console.log(audits().split(" ")[0]);
    await web.init({ audit: true, module_or_path: full.buffer.slice(full.byteOffset, full.byteOffset + full.length) });
    console.log(audits(), JSON.stringify(fetched));
  `);
  assert.equal(leanBytes, "not_initialized\nboolean []");
  const byUrl = fresh(`
    await web.init(${JSON.stringify(url("dist/web/lians_score_bg.wasm"))});
    console.log(audits(), JSON.stringify(fetched));
  `);
  assert.equal(byUrl, `boolean ["lians_score_bg.wasm"]`);
});

test("the two builds import the same module and names, so either glue instantiates either .wasm", () => {
  const imports = (file) => JSON.stringify(WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(file))));
  assert.equal(imports(LEAN), imports(FULL));
  assert.ok(JSON.parse(imports(FULL)).every((i) => i.module === "./lians_score_bg.js"));
});

test("init(URL, bytes or module) instantiates through the glue and asks the instance which build it is (no compile of its own)", () => {
  // js/core.mjs no longer fetches or compiles a given module itself (round 9): with WebAssembly.compile and
  // compileStreaming gone, every form still loads, each .wasm is fetched once, and the build is told apart.
  const out = fresh(`
    const leanGlue = await import(${JSON.stringify(url("dist/web-lean/lians_score_lean.js"))});
    const fullGlue = await import(${JSON.stringify(url("dist/web/lians_score.js"))});
    new Response(""); // (Node loads its fetch implementation, which compiles its own wasm, on first use)
    WebAssembly.compile = WebAssembly.compileStreaming = () => { throw new Error("compiled outside the glue"); };
    await web.init(new URL(${JSON.stringify(url("dist/web/lians_score_bg.wasm"))}));
    console.log(audits(), JSON.stringify(fetched), leanGlue.__lians_memory_bytes(), fullGlue.__lians_memory_bytes() > 0);
  `);
  assert.equal(out, `boolean ["lians_score_bg.wasm"] 0 true`);
  const upgraded = fresh(`
    new Response(""); // (Node loads its fetch implementation, which compiles its own wasm, on first use)
    WebAssembly.compile = WebAssembly.compileStreaming = () => { throw new Error("compiled outside the glue"); };
    await web.init({ module_or_path: fetch(${JSON.stringify(url("dist/web-lean/lians_score_lean_bg.wasm"))}) });
    console.log(audits().split(" ")[0]);
    await web.init({ audit: true, module_or_path: full });
    console.log(audits(), JSON.stringify(fetched));
  `);
  assert.equal(upgraded, `not_initialized\nboolean ["lians_score_lean_bg.wasm"]`);
});

test("the workerd and edge-light entries import the full build's glue only (a hand-written workerd config lists no lean glue)", () => {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith(".mjs") && !file.endsWith(".js")) return;
    for (const [, spec] of readFileSync(file, "utf8").matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/gms)) {
      visit(path.resolve(path.dirname(file), spec.replace(/\?module$/, "")));
    }
  };
  for (const entry of ["js/workerd.mjs", "js/edge-light.mjs"]) {
    seen.clear();
    visit(path.join(ROOT, entry));
    const files = [...seen].map((f) => path.relative(ROOT, f));
    assert.ok(files.includes("dist/web/lians_score.js"), `${entry}: ${files}`);
    assert.deepEqual(files.filter((f) => f.includes("web-lean") || f === "js/web.mjs"), [], entry);
  }
});

test("init({ audit }) checks its option and refuses the lean wasm for the audit", () => {
  const out = fresh(`
    await assert.rejects(web.init({ audit: "yes" }), (e) => e instanceof web.LiansScoreError && e.code === "wrong_type" && e.path === "/audit");
    await assert.rejects(web.init({ audit: true, module_or_path: lean }), (e) => e.code === "invalid_value" && e.path === "/module_or_path");
    assert.equal(web.isInitialized(), false);
    await web.init({ audit: true });
    console.log(audits());
  `);
  assert.equal(out, "boolean");
});

test("the instance reset keeps working after the upgrade (the full build's instance is the one reset)", () => {
  const out = fresh(`
    await web.init();
    await web.init({ audit: true });
    web.configureLimits({ resetMemoryBytes: 1 });
    const first = audits();
    const { resets } = web.memoryStats();
    console.log(first, audits(), resets >= 1, web.memoryStats().resets > resets);
  `);
  assert.equal(out, "boolean boolean true true");
});

test("createVerifyingFetch with audit, over a lean init(), loads the full build by itself", () => {
  const out = fresh(`
    await web.init();
    const base = async () => new Response(RECALL, { status: 200, headers: { "content-type": "application/json" } });
    const plain = await web.createVerifyingFetch(base, { baseUrl: "http://127.0.0.1:1" })("http://127.0.0.1:1/v1/recall", { method: "POST", body: JSON.stringify({ agent_id: "a", query: "Acme revenue" }) });
    console.log(plain.headers.get("x-lians-verification"), JSON.stringify(fetched));
    // (This sample's request is not the one it answered, so the audit reports findings: it ran.)
    const res = await web.createVerifyingFetch(base, { baseUrl: "http://127.0.0.1:1", audit: true, onInvalid: "report" })("http://127.0.0.1:1/v1/recall", { method: "POST", body: JSON.stringify({ agent_id: "a", query: "Acme revenue" }) });
    console.log(res.headers.get("x-lians-verification"), typeof res.liansAudit.consistent, JSON.stringify(fetched));
  `);
  assert.equal(out, `valid ["lians_score_lean_bg.wasm"]\nvalid boolean ["lians_score_lean_bg.wasm","lians_score_bg.wasm"]`);
});

test("createGuard(web entry, { audit: true }) loads the full build by itself", () => {
  const out = fresh(`
    const { createGuard } = await import(${JSON.stringify(url("js/guard.mjs"))});
    const g = createGuard(web, { upstream: "https://lians.example", audit: true, fetch: async () => new Response(RECALL, { status: 200, headers: { "content-type": "application/json" } }) });
    const res = await g.handle(new Request("https://guard.example/v1/recall", { method: "POST", body: JSON.stringify({ agent_id: "a", query: "Acme revenue" }) }));
    // (This sample's request is not the one it answered, so the audit reports findings: it ran.)
    console.log(res.status, (await res.json()).error, JSON.stringify(fetched));
  `);
  assert.equal(out, `502 lians_audit_failed ["lians_score_bg.wasm"]`);
});

test("initSync of the full build from a getter of a call's own argument: the call ends on the lean instance, which is dropped after it", () => {
  const out = fresh(`
    const leanGlue = await import(${JSON.stringify(url("dist/web-lean/lians_score_lean.js"))});
    await web.init();
    const plain = web.scoreMemory({ content: "Alice prefers window seats", reference_time: "2026-08-01T00:00:00+00:00" });
    const input = {
      get content() {
        web.initSync(full);
        return "Alice prefers window seats";
      },
      reference_time: "2026-08-01T00:00:00+00:00",
    };
    const inner = web.scoreMemory(input);
    assert.deepEqual(inner, plain);
    console.log(leanGlue.__lians_memory_bytes(), audits(), JSON.stringify(web.scoreMemory(input)) === JSON.stringify(plain));
  `);
  assert.equal(out, "0 boolean true");
});
