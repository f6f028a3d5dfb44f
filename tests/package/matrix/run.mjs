#!/usr/bin/env node
// The packaging matrix: the packed tarball (not the repository) used by every
// bundler and runtime the README names, each with no configuration.
//   node tests/package/matrix/run.mjs PATH/lians-score-X.tgz [--only name,name]
// The tools are pinned in tests/package/matrix/package.json (its own lockfile;
// installed by scripts/bootstrap.sh). The tarball is unpacked as
// node_modules/lians-score (what `npm install` of a dependency-free package
// without scripts does), fixtures are copied to work/, and every browser build
// is loaded in headless Chromium and its #result read from the DOM. Prints one
// line per entry (pass/fail, seconds) and exits 1 if any failed.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, createReadStream, statSync, existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { run as sh, start as startProc, freePort, waitFor, check } from "../../js/proc.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../../..");
const BIN = path.join(HERE, "node_modules/.bin");
const WORK = path.join(HERE, "work");
const FIX = path.join(HERE, "fixtures");
const PKG = path.join(HERE, "node_modules/lians-score");
const SAMPLE = path.join(ROOT, "tests/data/samples/recall-08-fast-filters-acme-tinyfloat.json");
const SAMPLE_TEXT = readFileSync(SAMPLE, "utf8");
const SAMPLE_SHA = JSON.parse(SAMPLE_TEXT).receipt_sha256;
const PAGE_OK = "ok ba7816bf lians-memory-scoring-v2 valid=true";
// browser/main.js: auditRecall needs init({ audit: true }) after init() (lean, then full).
const PAGE_AUDIT_OK = `${PAGE_OK} audit=lean/boolean`;
const ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--disable-quic", "--no-first-run", "--disable-default-apps", "--disable-extensions",
];
const ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1", NO_COLOR: "1", FORCE_COLOR: "0" };

const tarball = process.argv[2];
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt > 0 ? new Set(process.argv[onlyAt + 1].split(",")) : null;
if (!tarball || !existsSync(tarball)) {
  console.error("usage: node tests/package/matrix/run.mjs PATH/lians-score-X.tgz [--only name,name]");
  process.exit(2);
}
if (!existsSync(BIN)) {
  console.error("matrix: tests/package/matrix/node_modules is missing: run scripts/bootstrap.sh");
  process.exit(2);
}

// ---------------------------------------------------------------- helpers

/** Run a command in work/; resolve with its output, reject with it on a non-zero exit. */
const run = (cmd, args, opts = {}) => sh(cmd, args, { cwd: WORK, env: ENV, ...opts }).then((r) => r.out);
/** Start a long-running process (a server) in work/; returns { child, output(), stop() }. */
const start = (cmd, args, opts = {}) => startProc(cmd, args, { cwd: WORK, env: ENV, ...opts });

async function json(url, init) {
  const res = await fetch(url, init);
  const text = await res.text();
  check(res.ok, `${url}: HTTP ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** A verify response from a server entry: ready, hashing and the real recall sample valid. */
function checkVerify(report, where) {
  check(report.sha === "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", `${where}: sha256Hex: ${JSON.stringify(report)}`);
  check(report.valid === true, `${where}: the recall sample does not verify: ${JSON.stringify(report)}`);
  if ("receipt_sha256" in report) check(report.receipt_sha256 === SAMPLE_SHA, `${where}: receipt hash`);
}

// A static server for the browser builds: /NAME/... serves work/out/NAME/...
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".map": "application/json" };
const staticServer = http.createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  const file = path.join(WORK, "out", path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ""));
  let stat;
  try {
    stat = statSync(file);
  } catch {
    stat = null;
  }
  if (!stat || !stat.isFile() || !file.startsWith(path.join(WORK, "out"))) {
    res.writeHead(404).end("not found");
    return;
  }
  res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
  createReadStream(file).pipe(res);
});

let browser;
async function chromium() {
  if (!browser) {
    const { chromium: c } = createRequire(path.join(ROOT, "package.json"))("playwright-core");
    browser = await c.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ARGS });
  }
  return browser;
}

/**
 * Load a page in Chromium and return #result's text once it is no longer
 * "pending". `wasm`: an array that gets, in order, which of the package's
 * .wasm files each fetched .wasm response is ("lean", "full", or its URL),
 * told by its bytes (bundlers rename the files).
 */
async function pageResult(url, wasm = null) {
  const b = await chromium();
  const page = await b.newPage();
  const problems = [];
  const bodies = [];
  if (wasm !== null) {
    page.on("response", (r) => {
      if (r.url().endsWith(".wasm")) bodies.push(r.body().then((bytes) => wasm.push(wasmBuild(bytes) ?? r.url())));
    });
  }
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`requestfailed: ${r.url()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  try {
    await page.goto(url);
    await page.waitForFunction(() => {
      const el = document.getElementById("result");
      return el && el.textContent && el.textContent !== "pending";
    }, null, { timeout: 30_000 });
    const text = await page.textContent("#result");
    await Promise.all(bodies);
    return text;
  } catch (error) {
    throw new Error(`${url}: ${error.message}\n${problems.join("\n")}`);
  } finally {
    await page.close();
  }
}

async function checkPage(name, expected = PAGE_OK) {
  const text = await pageResult(`${staticBase}/${name}/index.html`);
  check(text === expected, `${name} page: ${JSON.stringify(text)} (want ${JSON.stringify(expected)})`);
}

/** browser/main.js built by a bundler: the page works, and it fetched the lean .wasm for init() and then the full one for init({ audit: true }). */
async function checkAuditPage(name) {
  const wasm = [];
  const text = await pageResult(`${staticBase}/${name}/index.html`, wasm);
  check(text === PAGE_AUDIT_OK, `${name} page: ${JSON.stringify(text)} (want ${JSON.stringify(PAGE_AUDIT_OK)})`);
  check(wasm.join(",") === "lean,full", `${name} page: fetched ${JSON.stringify(wasm)} (want the lean .wasm, then the full one)`);
}

/** "lean" or "full" when `bytes` are the package's lean or full browser .wasm. */
function wasmBuild(bytes) {
  if (Buffer.compare(bytes, readFileSync(leanWasmFile)) === 0) return "lean";
  if (Buffer.compare(bytes, readFileSync(wasmFile)) === 0) return "full";
  return null;
}

/** work/out/NAME/index.html loading ./SCRIPT as a module. */
function html(name, script = "main.js") {
  mkdirSync(path.join(WORK, "out", name), { recursive: true });
  writeFileSync(path.join(WORK, "out", name, "index.html"), page(script));
}
const page = (script) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>lians-score</title></head><body><p id="result">pending</p><script type="module" src="./${script}"></script></body></html>\n`;

const wasmFile = path.join(PKG, "dist/web/lians_score_bg.wasm");
const leanWasmFile = path.join(PKG, "dist/web-lean/lians_score_lean_bg.wasm");
const out = (name) => path.join(WORK, "out", name);

// ---------------------------------------------------------------- the entries

const entries = [];
const entry = (name, fn) => entries.push({ name, fn });

entry("node-esm", () => run(process.execPath, ["esm.mjs"]));
entry("node-cjs", () => run(process.execPath, ["cjs.cjs"]));

for (const mode of ["bundler", "node16", "nodenext"]) {
  entry(`tsc-${mode}`, () => run(path.join(BIN, "tsc"), ["-p", `ts/tsconfig.${mode}.json`]));
}

// Every subpath, the .wasm ones included (they have types: js/wasm.d.ts), with no exclusion.
entry("attw", () => run(path.join(BIN, "attw"), [tarball, "--format", "ascii", "--no-emoji"]));

// publint on the tarball: --strict fails on warnings too. Its one suggestion (a
// "type" field) is declined: www/*.js are ES modules read by Node through syntax
// detection, and "type": "commonjs" would break them.
entry("publint", async () => {
  const out = await run(path.join(BIN, "publint"), ["run", "--strict", tarball]);
  check(!/^(Errors|Warnings):/m.test(out), `publint:\n${out}`);
});

entry("vite", async () => {
  // index.html + main.js at the root, `vite build`: the .wasm is emitted from new URL(..., import.meta.url).
  const dir = path.join(WORK, "vite");
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(WORK, "browser"), dir, { recursive: true });
  writeFileSync(path.join(dir, "index.html"), page("main.js"));
  await run(path.join(BIN, "vite"), ["build", "--outDir", out("vite"), "--emptyOutDir", "--base", "./", "--logLevel", "warn"], { cwd: dir });
  await checkAuditPage("vite");
});

entry("webpack", async () => {
  // webpack 5 through its Node API with only entry/output/mode (no loaders, no experiments).
  const webpack = createRequire(path.join(HERE, "package.json"))("webpack");
  const stats = await new Promise((resolve, reject) =>
    webpack({ mode: "production", entry: path.join(WORK, "browser/main.js"), output: { path: out("webpack"), filename: "main.js" } }, (err, s) =>
      err ? reject(err) : resolve(s),
    ),
  );
  check(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
  html("webpack");
  await checkAuditPage("webpack");
});

entry("esbuild-inline", async () => {
  await run(path.join(BIN, "esbuild"), ["browser/inline.js", "--bundle", "--format=esm", `--outfile=${out("esbuild-inline")}/main.js`, "--log-level=warning"]);
  html("esbuild-inline");
  await checkPage("esbuild-inline");
});

entry("esbuild-wasm-file", async () => {
  // The README's recipe: bundle, then put the two .wasm files next to the bundle.
  await run(path.join(BIN, "esbuild"), ["browser/main.js", "--bundle", "--format=esm", `--outdir=${out("esbuild-wasm-file")}`, "--log-level=warning"]);
  cpSync(leanWasmFile, path.join(out("esbuild-wasm-file"), "lians_score_lean_bg.wasm"));
  cpSync(wasmFile, path.join(out("esbuild-wasm-file"), "lians_score_bg.wasm"));
  html("esbuild-wasm-file");
  await checkAuditPage("esbuild-wasm-file");
});

entry("rollup-inline", async () => {
  await run(path.join(BIN, "rollup"), ["browser/inline.js", "-p", "node-resolve", "-f", "es", "-o", `${out("rollup-inline")}/main.js`, "--silent"]);
  html("rollup-inline");
  await checkPage("rollup-inline");
});

entry("rollup-wasm-file", async () => {
  await run(path.join(BIN, "rollup"), ["browser/main.js", "-p", "node-resolve", "-f", "es", "-o", `${out("rollup-wasm-file")}/main.js`, "--silent"]);
  cpSync(leanWasmFile, path.join(out("rollup-wasm-file"), "lians_score_lean_bg.wasm"));
  cpSync(wasmFile, path.join(out("rollup-wasm-file"), "lians_score_bg.wasm"));
  html("rollup-wasm-file");
  await checkAuditPage("rollup-wasm-file");
});

entry("parcel-inline", async () => {
  const dir = path.join(WORK, "parcel");
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(WORK, "browser"), dir, { recursive: true });
  writeFileSync(path.join(dir, "index.html"), page("inline.js"));
  await run(path.join(BIN, "parcel"), ["build", "index.html", "--dist-dir", out("parcel-inline"), "--public-url", "./", "--cache-dir", path.join(WORK, ".parcel-cache"), "--no-source-maps", "--log-level", "warn"], { cwd: dir });
  await checkPage("parcel-inline");
});

entry("bun-build-inline", async () => {
  await run(path.join(BIN, "bun"), ["build", "browser/inline.js", "--target=browser", `--outdir=${out("bun-build-inline")}`, "--entry-naming=main.js"]);
  html("bun-build-inline");
  await checkPage("bun-build-inline");
});

entry("bun", async () => {
  await run(path.join(BIN, "bun"), ["esm.mjs"]);
  await run(path.join(BIN, "bun"), ["cjs.cjs"]);
});

entry("deno", () => run(path.join(ROOT, "node_modules/.bin/deno"), ["run", "--quiet", "--allow-read", "--no-prompt", "deno.mjs"]));

entry("workerd", async () => {
  const dir = out("workerd");
  mkdirSync(dir, { recursive: true });
  await run(path.join(BIN, "esbuild"), ["workerd/worker.mjs", "--bundle", "--format=esm", "--platform=neutral", "--conditions=workerd,worker",
    "--external:*.wasm", `--outfile=${dir}/worker.js`, "--log-level=warning"]);
  cpSync(path.join(FIX, "workerd/config.capnp"), path.join(dir, "config.capnp"));
  cpSync(wasmFile, path.join(dir, "lians_score_bg.wasm"));
  const bundled = readFileSync(path.join(dir, "worker.js"), "utf8");
  check(bundled.includes('"../dist/web/lians_score_bg.wasm"'), "workerd bundle: expected the .wasm import to stay external");
  check(!bundled.includes("lians_score_lean"), "workerd bundle: the lean browser glue is bundled (the workerd entry needs the full build only)");
  const port = await freePort();
  const proc = start(path.join(ROOT, "node_modules/.bin/workerd"), ["serve", path.join(dir, "config.capnp"), "--socket-addr", `http=127.0.0.1:${port}`]);
  try {
    await waitFor(`http://127.0.0.1:${port}/`, proc);
    checkVerify(await json(`http://127.0.0.1:${port}/`, { method: "POST", body: SAMPLE_TEXT }), "workerd");
  } finally {
    await proc.stop();
  }
});

entry("edge-runtime", async () => {
  // The edge-light entry bundled as Next.js does for the edge: `?module` .wasm
  // imports become a binding that the host fills with a module compiled in
  // its own realm (so the foreign-realm path is exercised).
  const esbuild = createRequire(path.join(HERE, "package.json"))("esbuild");
  const result = await esbuild.build({
    entryPoints: [path.join(WORK, "edge/handler.js")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "neutral",
    conditions: ["edge-light", "worker", "browser"],
    mainFields: ["module", "main"],
    logLevel: "warning",
    plugins: [{
      name: "wasm-module",
      setup(build) {
        build.onResolve({ filter: /\.wasm\?module$/ }, (args) => ({ path: path.resolve(args.resolveDir, args.path.replace(/\?module$/, "")), namespace: "wasm-module" }));
        build.onLoad({ filter: /.*/, namespace: "wasm-module" }, () => ({ contents: "export default globalThis.__LIANS_WASM_MODULE__;", loader: "js" }));
      },
    }],
  });
  const { EdgeRuntime } = createRequire(path.join(HERE, "package.json"))("edge-runtime");
  const hostModule = new WebAssembly.Module(readFileSync(wasmFile));
  const runtime = new EdgeRuntime({
    extend(context) {
      context.__LIANS_WASM_MODULE__ = hostModule;
      return context;
    },
  });
  check(runtime.evaluate("globalThis.__LIANS_WASM_MODULE__ instanceof WebAssembly.Module") === false, "edge-runtime: expected a foreign-realm module");
  runtime.evaluate(result.outputFiles[0].text);
  const res = await runtime.dispatchFetch("http://127.0.0.1/verify", { method: "POST", body: SAMPLE_TEXT });
  checkVerify(JSON.parse(await res.text()), "edge-runtime");
});

for (const mode of ["turbopack", "webpack"]) {
  entry(`next-${mode}`, async () => {
    // Next.js App Router with no next.config: a client page (init + scoreMemory),
    // a Node route, an Edge route (edge-light entry) and an Edge route wiring
    // `lians-score/lians_score_bg.wasm?module` itself. Build, start, request.
    const dir = path.join(WORK, `next-${mode}`);
    cpSync(path.join(FIX, "next"), dir, { recursive: true });
    await run(path.join(BIN, "next"), ["build", ...(mode === "webpack" ? ["--webpack"] : [])], { cwd: dir, timeout: 600_000 });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const proc = start(path.join(BIN, "next"), ["start", "-H", "127.0.0.1", "-p", String(port)], { cwd: dir });
    try {
      await waitFor(`${base}/api/node`, proc);
      const node = await json(`${base}/api/node`);
      check(node.runtime === "nodejs" && node.policy === "lians-memory-scoring-v2", `node route: ${JSON.stringify(node)}`);
      checkVerify({ ...(await json(`${base}/api/edge`, { method: "POST", body: SAMPLE_TEXT })), sha: node.sha }, "edge route (POST)");
      const edge = await json(`${base}/api/edge`);
      check(edge.runtime === "edge" && edge.sha === node.sha, `edge route: ${JSON.stringify(edge)}`);
      const edgeModule = await json(`${base}/api/edge-module`);
      check(edgeModule.sha === node.sha, `edge ?module route: ${JSON.stringify(edgeModule)}`);
      const text = await pageResult(`${base}/`);
      check(/^ok lians-memory-scoring-v2 0\.\d+$/.test(text), `next page: ${JSON.stringify(text)}`);
    } finally {
      await proc.stop();
    }
  });
}

// ---------------------------------------------------------------- run

rmSync(PKG, { recursive: true, force: true });
mkdirSync(PKG, { recursive: true });
await run("tar", ["-xzf", path.resolve(tarball), "-C", PKG, "--strip-components=1"], { cwd: HERE });
rmSync(WORK, { recursive: true, force: true });
mkdirSync(path.join(WORK, "out"), { recursive: true });
for (const f of ["browser", "edge", "workerd", "ts"]) cpSync(path.join(FIX, f), path.join(WORK, f), { recursive: true });
for (const f of ["esm.mjs", "cjs.cjs", "deno.mjs"]) cpSync(path.join(HERE, "..", f), path.join(WORK, f));
writeFileSync(path.join(WORK, "browser/recall-body.js"), `// tests/data/samples/${path.basename(SAMPLE)}, as the raw text a fetch returns.\nexport const RECALL_BODY = ${JSON.stringify(SAMPLE_TEXT)};\n`);

await new Promise((r) => staticServer.listen(0, "127.0.0.1", r));
const staticBase = `http://127.0.0.1:${staticServer.address().port}`;

const results = [];
const t0 = Date.now();
for (const { name, fn } of entries) {
  if (only && !only.has(name)) continue;
  const t = Date.now();
  try {
    await fn();
    results.push({ name, ok: true, s: (Date.now() - t) / 1000 });
    console.log(`ok    ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  } catch (error) {
    results.push({ name, ok: false, s: (Date.now() - t) / 1000 });
    console.log(`FAIL  ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)\n${String(error && error.stack ? error.message : error).replace(/^/gm, "      ")}`);
  }
}
if (browser) await browser.close();
staticServer.close();
const failed = results.filter((r) => !r.ok);
console.log(`\nmatrix duration: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
console.log(`matrix: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
