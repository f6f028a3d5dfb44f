#!/usr/bin/env node
// Every example in examples/, run as its README says: the fenced `sh` blocks
// under "## Run it" of examples/NAME/README.md, in order, run by bash in that
// folder of this checkout (from the build and `npm pack` they start with to the
// last command; a line ending in `&` keeps running in the background, as it
// does for a user, and is stopped at the end). Each run is then checked, and
// the JS examples are also run through the tampering proxy (tests/live/proxy.mjs)
// in front of a second real Lians server (tests/live/server.mjs):
//   node               the README's run prints "ok: every answer verified";
//                      through the proxy recall.mjs exits 1 (REJECTED)
//   cloudflare-worker  the guard (lians-score/guard); the README's run (esbuild
//                      bundle, workerd, curl) gets x-lians-verification: valid;
//                      through the proxy: valid answers byte for byte, tampered
//                      ones 502 with content_hash_mismatch / context_hash_mismatch;
//                      /healthz; writes and other routes pass through
//   browser            the README's server; the page in headless Chromium: the
//                      sample verifies, a tampered copy does not
//   nextjs             the README's build and server: the Edge route and the
//                      page; through the proxy the route answers 502
//   rust               the README's cargo run
//
//   node tests/examples/run.mjs [--only node,browser,...]
// Prints one line per example (ok/FAIL, seconds); exits 1 if any failed.
// Without CPython 3.12 (no Lians server) it fails under CI=true and skips the
// server-backed examples elsewhere. npm installs prefer the local cache
// (npm_config_prefer_offline): the worker's tools (wrangler, esbuild, workerd)
// and Next.js come from the registry the first time.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { liansAvailable, startLians } from "../live/server.mjs";
import { startTamperingProxy } from "../live/proxy.mjs";
import { tamperAt, editString } from "../live/tamper.mjs";
import { run as sh, start as startProc, freePort, waitFor, check } from "../js/proc.mjs";
import { createServer } from "node:http";
import * as liansScore from "lians-score";
import { closedWorldCases } from "../js/closed-world-cases.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const EXAMPLES = path.join(ROOT, "examples");
const SAMPLE = readFileSync(path.join(ROOT, "tests/data/samples/recall-08-fast-filters-acme-tinyfloat.json"), "utf8");
const SAMPLE_QUERY = "Acme revenue";
const AGENT = "example-agent";
const ENV = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
};
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt > 0 ? new Set(process.argv[onlyAt + 1].split(",")) : null;

// ---------------------------------------------------------------- helpers

const run = (cmd, args, opts = {}) => sh(cmd, args, { cwd: ROOT, env: ENV, ...opts });
const start = (cmd, args, opts = {}) => startProc(cmd, args, { cwd: ROOT, env: ENV, ...opts });

/** The commands of examples/NAME/README.md: its fenced `sh` blocks under "## Run it", in order. */
export function readmeCommands(name) {
  const text = readFileSync(path.join(EXAMPLES, name, "README.md"), "utf8");
  const section = text.split(/^## /m).find((s) => s.startsWith("Run it"));
  check(section, `examples/${name}/README.md has no "## Run it" section`);
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  check(blocks.length > 0, `examples/${name}/README.md: no \`\`\`sh block under "## Run it"`);
  return blocks.join("");
}

/**
 * Run the README's commands in examples/NAME with bash (-e, -u, pipefail), as a
 * process group of their own. Resolves when bash is done with them, with the
 * output so far; commands it left running (`… &`) keep running until stop().
 */
function runReadme(name, env) {
  const script = `set -euo pipefail\n${readmeCommands(name)}`;
  const child = spawn("bash", ["-c", script], { cwd: path.join(EXAMPLES, name), env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`examples/${name}: the README's commands did not finish in 15 min:\n${out.slice(-4000)}`));
    }, 900_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      const result = { code, output: () => out, stop };
      if (code === 0) resolve(result);
      else {
        stop();
        reject(new Error(`examples/${name}: the README's commands exited ${code}:\n${out.slice(-4000)}`));
      }
    });
  });
}

/** Stop the Lians server a README started (scripts/lians/dev-server.mjs), if it is still running. */
const stopDevServer = () => run(process.execPath, ["scripts/lians/dev-server.mjs", "stop"], { allowFail: true });

/** The URL a README's background server printed (http://127.0.0.1:PORT/). */
async function printedUrl(proc, pattern = /http:\/\/127\.0\.0\.1:\d+\/?/) {
  const deadline = Date.now() + 60_000;
  while (!pattern.test(proc.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const url = proc.output().match(pattern)?.[0];
  check(url, `no server URL in the output:\n${proc.output().slice(-2000)}`);
  return url.replace(/\/$/, "");
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
  const dir = path.join(EXAMPLES, "node");
  const readme = await runReadme("node", ENV);
  const out = readme.output();
  check(/recall: valid, receipt [0-9a-f]{64}/.test(out) && out.includes("ok: every answer verified"), `node example, as in its README:\n${out}`);
  check(existsSync(path.join(dir, "node_modules/lians-score/js/web.mjs")), "node example: lians-score not installed from the tarball");
  // Through the tampering proxy.
  const env = { ...ENV, LIANS_URL: proxy.url, LIANS_API_KEY: key, LIANS_AGENT_ID: AGENT };
  proxy.tamper = false;
  const ok = await run(process.execPath, ["recall.mjs"], { cwd: dir, env });
  check(ok.out.includes("ok: every answer verified"), `node example through the proxy:\n${ok.out}`);
  proxy.tamper = true;
  const bad = await run(process.execPath, ["recall.mjs"], { cwd: dir, env, allowFail: true });
  check(bad.code === 1 && /recall REJECTED: .*content_hash_mismatch/.test(bad.out), `node example, tampered: exit ${bad.code}\n${bad.out}`);
  proxy.tamper = false;
});

example("cloudflare-worker", async () => {
  const dir = path.join(EXAMPLES, "cloudflare-worker");
  const readme = await runReadme("cloudflare-worker", { ...ENV, PORT: String(await freePort()) });
  try {
    const out = readme.output();
    check(/^HTTP\/1\.1 200/m.test(out) && /^x-lians-verification: valid\r?$/im.test(out), `guard, as in its README:\n${out}`);
    const pj = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    for (const tool of ["wrangler", "esbuild", "workerd"]) check(pj.devDependencies?.[tool], `the worker example must declare ${tool} as a devDependency`);
    check(readFileSync(path.join(dir, "build/worker.js"), "utf8").includes('"../dist/verify/lians_score_verify_bg.wasm"'), "guard bundle: expected the verify-only .wasm import");
  } finally {
    readme.stop();
    await stopDevServer();
  }
  // The same build in workerd, through the tampering proxy.
  const port = await freePort();
  const guard = `http://127.0.0.1:${port}`;
  const proc = start(path.join(dir, "node_modules/.bin/workerd"), ["serve", "workerd.capnp", "--socket-addr", `http=127.0.0.1:${port}`], {
    cwd: dir,
    env: { ...ENV, LIANS_URL: proxy.url },
  });
  try {
    await waitFor(`${guard}/livez`, proc);
    const health = await fetch(`${guard}/healthz`);
    check(health.status === 200 && (await health.json()).status === "ok", `guard /healthz: ${health.status}`);
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
    const write = await fetch(`${guard}/v1/memories`, { method: "POST", headers, body: JSON.stringify({ agent_id: AGENT, content: "The guard Worker passes writes through unchanged.", source: "user_provided", event_time: new Date().toISOString() }) });
    const written = Buffer.from(await write.arrayBuffer());
    check(write.status === proxy.log.at(-1).status && Buffer.compare(written, proxy.log.at(-1).sent) === 0, `guard: a write passes through byte for byte (${write.status})`);
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
      // The guard's 502 body: { error, failures, report } (the verification report with its checks).
      const hit = (report.report?.checks ?? []).some((k) => k.code === c.code && k.pointer === c.pointer && k.status === "failed");
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
    const readme = await runReadme("browser", { ...ENV, PORT: "0" });
    try {
      const url = await printedUrl(readme);
      await withPage(async (page) => {
        await page.goto(`${url}/`);
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
      readme.stop();
    }
  },
  () => null,
);

example("nextjs", async () => {
  const dir = path.join(EXAMPLES, "nextjs");
  const port = await freePort();
  const readme = await runReadme("nextjs", { ...ENV, PORT: String(port) });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/`, { output: readme.output, child: { exitCode: null, signalCode: null } });
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
  } finally {
    readme.stop();
    await stopDevServer();
  }
  // The same build through the tampering proxy.
  const port2 = await freePort();
  const proc = start(path.join(dir, "node_modules/.bin/next"), ["start", "-H", "127.0.0.1", "-p", String(port2)], {
    cwd: dir,
    env: { ...ENV, LIANS_URL: proxy.url, LIANS_API_KEY: key, LIANS_AGENT_ID: AGENT },
  });
  try {
    await waitFor(`http://127.0.0.1:${port2}/`, proc);
    proxy.tamper = true;
    const bad = await fetch(`http://127.0.0.1:${port2}/api/recall`, { method: "POST", body: JSON.stringify({ query: "planning review" }) });
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
    const readme = await runReadme("rust", ENV);
    const out = readme.output();
    check(/as received: valid true/.test(out) && /content rewritten: valid false .*content_hash_mismatch/.test(out), `rust example, as in its README:\n${out}`);
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
await stopDevServer();
const failed = results.filter((r) => !r.ok);
console.log(`\nexamples: ${results.length - failed.length} passed, ${failed.length} failed (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
process.exit(failed.length ? 1 : 0);
