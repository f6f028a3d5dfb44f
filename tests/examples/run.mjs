#!/usr/bin/env node
// Build and run every example in examples/ from the packed tarball, against a
// real Lians server (tests/live/server.mjs) with the tampering proxy
// (tests/live/proxy.mjs) between the examples and the server:
//   node               npm install of the tarball; recall.mjs exits 0 through the
//                      proxy, and 1 (REJECTED) while the proxy rewrites answers
//   cloudflare-worker  bundled as wrangler does (esbuild, `workerd` condition),
//                      run in workerd (npm `workerd`, no wrangler): valid answers
//                      byte for byte with x-lians-verification: valid; tampered
//                      ones 502 with content_hash_mismatch / context_hash_mismatch
//   browser            the plain page in headless Chromium: the sample verifies,
//                      a tampered copy does not
//   nextjs             next build (the packaging matrix's pinned Next.js) + next
//                      start: the Edge route (valid; 502 when tampered) and the page
//   rust               cargo run --release --example verify_and_score
//
//   node tests/examples/run.mjs [--only node,browser,...]
// Prints one line per example (ok/FAIL, seconds); exits 1 if any failed.
// Without CPython 3.12 (no Lians server) it fails under CI=true and skips the
// server-backed examples elsewhere.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { packTarball } from "../package/tarball.mjs";
import { liansAvailable, startLians } from "../live/server.mjs";
import { startTamperingProxy } from "../live/proxy.mjs";
import { tamperAt, editString } from "../live/tamper.mjs";
import { run as sh, start as startProc, freePort, waitFor, check } from "../js/proc.mjs";
import { createServer } from "node:http";
import * as liansScore from "lians-score";
import { closedWorldCases } from "../js/closed-world-cases.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const EXAMPLES = path.join(ROOT, "examples");
const MATRIX = path.join(ROOT, "tests/package/matrix");
const MATRIX_BIN = path.join(MATRIX, "node_modules/.bin");
const SAMPLE = readFileSync(path.join(ROOT, "tests/data/samples/recall-08-fast-filters-acme-tinyfloat.json"), "utf8");
const SAMPLE_QUERY = "Acme revenue";
const AGENT = "example-agent";
const ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NO_COLOR: "1", FORCE_COLOR: "0" };
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt > 0 ? new Set(process.argv[onlyAt + 1].split(",")) : null;

// ---------------------------------------------------------------- helpers

const run = (cmd, args, opts = {}) => sh(cmd, args, { cwd: ROOT, env: ENV, ...opts });
const start = (cmd, args, opts = {}) => startProc(cmd, args, { cwd: ROOT, env: ENV, ...opts });

/** Copy examples/NAME to `dest` with its lians-score dependency pointed at the tarball. */
function copyExample(name, dest) {
  rmSync(dest, { recursive: true, force: true });
  cpSync(path.join(EXAMPLES, name), dest, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|\.next|build)([/\\]|$)/.test(path.relative(EXAMPLES, src)),
  });
  const pj = JSON.parse(readFileSync(path.join(dest, "package.json"), "utf8"));
  check(/^file:\.\.\/\.\.\/lians-score-\d+\.\d+\.\d+\.tgz$/.test(pj.dependencies?.["lians-score"] ?? ""), `${name}: package.json must depend on file:../../lians-score-<version>.tgz`);
  check(pj.dependencies["lians-score"].endsWith(path.basename(tarball)), `${name}: depends on ${pj.dependencies["lians-score"]}, the tarball is ${path.basename(tarball)}`);
  pj.dependencies["lians-score"] = `file:${tarball}`;
  writeFileSync(path.join(dest, "package.json"), `${JSON.stringify(pj, null, 2)}\n`);
  return dest;
}

/** npm install (offline) of an example whose only dependency is the tarball. */
async function npmInstall(dir) {
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--silent"], { cwd: dir });
  check(existsSync(path.join(dir, "node_modules/lians-score/js/web.mjs")), `${dir}: lians-score not installed`);
}

let browser;
async function chromium() {
  if (!browser) {
    const { chromium: c } = createRequire(path.join(ROOT, "package.json"))("playwright-core");
    browser = await c.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  }
  return browser;
}

async function withPage(fn) {
  const page = await (await chromium()).newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  try {
    return await fn(page);
  } catch (error) {
    throw new Error(`${error.message}\n${problems.join("\n")}`);
  } finally {
    await page.close();
  }
}

// ---------------------------------------------------------------- set-up

const REQUIRED = process.env.CI === "true" || process.env.LIANS_LIVE_REQUIRE === "1";
const t0 = Date.now();
const tarball = packTarball();
console.log(`tarball ${path.basename(tarball)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
const work = mkdtempSync(path.join(tmpdir(), "lians-examples-"));
const avail = await liansAvailable();
if (avail.skip && REQUIRED) throw new Error(`examples need a Lians server under CI: ${avail.skip}`);
let lians;
let proxy;
let key;
if (!avail.skip) {
  lians = await startLians();
  key = await lians.makeKey("ns-examples", ["read", "write"]);
  for (const content of [
    "The quarterly planning review moved to Thursday at 15:00.",
    "The planning review needs the updated revenue forecast.",
    "Design reviews for the mobile app happen every Tuesday.",
  ]) {
    const r = await lians.call("POST", "/v1/memories", { key, body: { agent_id: AGENT, content, source: "user_provided", event_time: new Date().toISOString() } });
    check(r.status === 200 || r.status === 201, `seeding a memory: ${r.status} ${r.text.slice(0, 300)}`);
  }
  proxy = await startTamperingProxy(lians.url);
}
const needsServer = () => {
  if (!lians) return `no Lians server (${avail.skip})`;
  return null;
};

const examples = [];
const example = (name, fn, needs = needsServer) => examples.push({ name, fn, needs });

// ---------------------------------------------------------------- the examples

example("node", async () => {
  const dir = copyExample("node", path.join(work, "node"));
  await npmInstall(dir);
  const env = { ...ENV, LIANS_URL: proxy.url, LIANS_API_KEY: key, LIANS_AGENT_ID: AGENT };
  proxy.tamper = false;
  const ok = await run(process.execPath, ["recall.mjs"], { cwd: dir, env });
  check(/recall: valid, receipt [0-9a-f]{64}/.test(ok.out) && ok.out.includes("ok: every answer verified"), `node example output:\n${ok.out}`);
  proxy.tamper = true;
  const bad = await run(process.execPath, ["recall.mjs"], { cwd: dir, env, allowFail: true });
  check(bad.code === 1 && /recall REJECTED: .*content_hash_mismatch/.test(bad.out), `node example, tampered: exit ${bad.code}\n${bad.out}`);
  proxy.tamper = false;
});

example("cloudflare-worker", async () => {
  const dir = copyExample("cloudflare-worker", path.join(work, "cloudflare-worker"));
  await npmInstall(dir);
  // What wrangler does: bundle with the workerd condition, the .wasm kept as a module.
  await run(path.join(MATRIX_BIN, "esbuild"), ["src/worker.mjs", "--bundle", "--format=esm", "--platform=neutral", "--conditions=workerd,worker",
    "--external:*.wasm", "--outfile=build/worker.js", "--log-level=warning"], { cwd: dir });
  cpSync(path.join(dir, "node_modules/lians-score/dist/verify/lians_score_bg.wasm"), path.join(dir, "build/lians_score_bg.wasm"));
  check(readFileSync(path.join(dir, "build/worker.js"), "utf8").includes('"../dist/verify/lians_score_bg.wasm"'), "guard bundle: expected the verify-only .wasm import");
  const port = await freePort();
  const guard = `http://127.0.0.1:${port}`;
  const proc = start(path.join(ROOT, "node_modules/.bin/workerd"), ["serve", "workerd.capnp", "--socket-addr", `http=127.0.0.1:${port}`], {
    cwd: dir,
    env: { ...ENV, LIANS_URL: proxy.url },
  });
  try {
    await waitFor(`${guard}/livez`, proc);
    const headers = { "Content-Type": "application/json", "X-API-Key": key };
    const call = (route, query) => fetch(`${guard}${route}`, { method: "POST", headers, body: JSON.stringify({ agent_id: AGENT, query }) });
    for (const route of ["/v1/recall", "/v1/context"]) {
      proxy.tamper = false;
      const res = await call(route, "planning review");
      const bytes = Buffer.from(await res.arrayBuffer());
      check(res.status === 200, `guard ${route}: HTTP ${res.status} ${bytes.toString().slice(0, 400)}`);
      check(res.headers.get("x-lians-verification") === "valid", `guard ${route}: x-lians-verification ${res.headers.get("x-lians-verification")}`);
      check(/^[0-9a-f]{64}$/.test(res.headers.get("x-lians-receipt-sha256") ?? ""), `guard ${route}: no receipt hash header`);
      const sent = proxy.log.filter((l) => l.path === route).at(-1).sent;
      check(Buffer.compare(bytes, sent) === 0, `guard ${route}: the body is not byte for byte what the server sent`);
      proxy.tamper = true;
      const bad = await call(route, "planning review");
      const report = await bad.json();
      const want = route === "/v1/recall" ? "content_hash_mismatch" : "context_hash_mismatch";
      check(bad.status === 502 && report.error === "lians_verification_failed" && report.failures.includes(want), `guard ${route}, tampered: ${bad.status} ${JSON.stringify(report)}`);
      check(proxy.log.at(-1).tampered, `guard ${route}: the proxy did not tamper`);
    }
    proxy.tamper = false;
    const other = await fetch(`${guard}/v1/admissions`, { headers: { "X-API-Key": key } });
    check(other.headers.get("x-lians-verification") === null && other.status === proxy.log.at(-1).status, `guard: other routes pass through (${other.status})`);
  } finally {
    proxy.tamper = false;
    await proc.stop();
  }
  // Issue #28's six classes (its recall and context cases) from an upstream answering each
  // case's bytes (`?case=N`): 502, never passed on, with the failed check's code at its pointer.
  const cases = closedWorldCases(liansScore).filter((c) => c.kind !== "pack");
  const upstream = createServer((req, res) => {
    const c = cases[Number(new URL(req.url, "http://x").searchParams.get("case"))];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(c ? c.text : "{}");
  });
  await new Promise((r) => upstream.listen(0, "127.0.0.1", r));
  const port2 = await freePort();
  const guard2 = `http://127.0.0.1:${port2}`;
  const proc2 = start(path.join(ROOT, "node_modules/.bin/workerd"), ["serve", "workerd.capnp", "--socket-addr", `http=127.0.0.1:${port2}`], {
    cwd: dir,
    env: { ...ENV, LIANS_URL: `http://127.0.0.1:${upstream.address().port}` },
  });
  try {
    await waitFor(`${guard2}/livez`, proc2);
    for (const [i, c] of cases.entries()) {
      const res = await fetch(`${guard2}/v1/${c.kind}?case=${i}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ agent_id: AGENT, query: c.query }) });
      const report = await res.json();
      const hit = (report.checks ?? []).some((k) => k.code === c.code && k.pointer === c.pointer);
      check(res.status === 502 && report.error === "lians_verification_failed" && hit, `guard, ${c.cls} (${c.name}): ${res.status} ${JSON.stringify(report).slice(0, 400)}`);
    }
  } finally {
    await proc2.stop();
    upstream.close();
  }
});

example(
  "browser",
  async () => {
    const dir = copyExample("browser", path.join(work, "browser"));
    await npmInstall(dir);
    const proc = start(process.execPath, ["serve.mjs"], { cwd: dir, env: { ...ENV, PORT: "0" } });
    try {
      const deadline = Date.now() + 10_000;
      while (!/http:\/\/127\.0\.0\.1:\d+\//.test(proc.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const url = proc.output().match(/http:\/\/127\.0\.0\.1:\d+\//)?.[0];
      check(url, `browser example server did not start:\n${proc.output()}`);
      await withPage(async (page) => {
        await page.goto(url);
        const verify = async (body, query) => {
          await page.evaluate(() => (document.getElementById("result").textContent = "pending"));
          await page.fill("#body", body);
          await page.fill("#query", query);
          await page.click("#verify");
          await page.waitForFunction(() => document.getElementById("result").textContent !== "pending", null, { timeout: 30_000 });
          return page.textContent("#result");
        };
        const good = await verify(SAMPLE, SAMPLE_QUERY);
        check(good === `valid ${JSON.parse(SAMPLE).receipt_sha256}`, `browser page, sample: ${JSON.stringify(good)}`);
        const bad = await verify(tamperAt(SAMPLE, ["memories", 0, "content"], editString), SAMPLE_QUERY);
        check(bad === "invalid: content_hash_mismatch", `browser page, tampered: ${JSON.stringify(bad)}`);
        const wrongQuery = await verify(SAMPLE, "another query");
        check(wrongQuery === "invalid: query_hash_mismatch", `browser page, other query: ${JSON.stringify(wrongQuery)}`);
      });
    } finally {
      await proc.stop();
    }
  },
  () => null,
);

example("nextjs", async () => {
  check(existsSync(path.join(MATRIX_BIN, "next")), "the packaging matrix's Next.js is not installed (scripts/bootstrap.sh)");
  // Inside the matrix folder, so next/react resolve to the matrix's pinned install (no download);
  // lians-score is unpacked from the tarball as npm installs a dependency-free package.
  const dir = copyExample("nextjs", path.join(MATRIX, "work-examples/nextjs"));
  const pkgDir = path.join(dir, "node_modules/lians-score");
  mkdirSync(pkgDir, { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", pkgDir, "--strip-components=1"]);
  // LIANS_EXAMPLES_NEXT_FLAGS=--webpack: where Turbopack refuses the matrix's node_modules (a symlink out of the checkout).
  const flags = (process.env.LIANS_EXAMPLES_NEXT_FLAGS ?? "").split(" ").filter(Boolean);
  await run(path.join(MATRIX_BIN, "next"), ["build", ...flags], { cwd: dir, timeout: 600_000 });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = start(path.join(MATRIX_BIN, "next"), ["start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: dir,
    env: { ...ENV, LIANS_URL: proxy.url, LIANS_API_KEY: key, LIANS_AGENT_ID: AGENT },
  });
  try {
    await waitFor(`${base}/`, proc);
    proxy.tamper = false;
    const res = await fetch(`${base}/api/recall`, { method: "POST", body: JSON.stringify({ query: "planning review" }) });
    const text = await res.text();
    check(res.status === 200 && res.headers.get("x-lians-verification") === "valid", `next route: ${res.status} ${res.headers.get("x-lians-verification")} ${text.slice(0, 300)}`);
    check(JSON.parse(text).memories.length > 0, "next route: no memories");
    const shown = await withPage(async (page) => {
      await page.goto(`${base}/?q=planning%20review`);
      await page.waitForFunction(() => document.getElementById("result")?.textContent !== "pending", null, { timeout: 30_000 });
      return page.textContent("#result");
    });
    check(/^edge valid, browser valid [0-9a-f]{64}$/.test(shown), `next page: ${JSON.stringify(shown)}`);
    proxy.tamper = true;
    const bad = await fetch(`${base}/api/recall`, { method: "POST", body: JSON.stringify({ query: "planning review" }) });
    const report = await bad.json();
    check(bad.status === 502 && report.failures.includes("content_hash_mismatch"), `next route, tampered: ${bad.status} ${JSON.stringify(report)}`);
  } finally {
    proxy.tamper = false;
    await proc.stop();
  }
});

example(
  "rust",
  async () => {
    const r = await run("cargo", ["run", "--release", "--quiet", "--example", "verify_and_score"], { timeout: 600_000 });
    check(/as received: valid true/.test(r.out) && /content rewritten: valid false .*content_hash_mismatch/.test(r.out), `rust example output:\n${r.out}`);
  },
  () => null,
);

// ---------------------------------------------------------------- run

const results = [];
for (const { name, fn, needs } of examples) {
  if (only && !only.has(name)) continue;
  const missing = needs();
  if (missing) {
    console.log(`skip  ${name}: ${missing}`);
    continue;
  }
  const t = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok    ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(`FAIL  ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)\n${String(error && error.message).replace(/^/gm, "      ")}`);
  }
}
if (browser) await browser.close();
await proxy?.stop();
await lians?.stop();
rmSync(work, { recursive: true, force: true });
const failed = results.filter((r) => !r.ok);
console.log(`\nexamples: ${results.length - failed.length} passed, ${failed.length} failed (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
process.exit(failed.length ? 1 : 0);
