// Real headless Chromium (playwright-core, /usr/bin/chromium) loading the
// browser entry from a static server on 127.0.0.1. Started and stopped here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { chromium } from "playwright-core";
import { ROOT, SHARED } from "./helpers.mjs";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".b64": "text/plain",
};

// Chromium flags from ../shared/toolchain.md (no background network traffic).
const ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--disable-quic", "--no-first-run", "--disable-default-apps", "--disable-extensions",
];

function serve() {
  const roots = { "/shared/": SHARED, "/": ROOT };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    let pathname = decodeURIComponent(url.pathname);
    if (pathname === "/") pathname = "/tests/js/browser/index.html";
    const prefix = pathname.startsWith("/shared/") ? "/shared/" : "/";
    const base = roots[prefix];
    const file = path.resolve(base, "." + pathname.slice(prefix.length - 1));
    if (!file.startsWith(base + path.sep) || req.method !== "GET") {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("browser entry in headless Chromium", async () => {
  const server = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ARGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => document.title === "done", null, { timeout: 30000 });
    const r = await page.evaluate(() => window.__results);
    assert.deepEqual(errors, []);

    assert.equal(r.beforeInit.ok, false);
    assert.equal(r.beforeInit.code, "not_initialized");
    assert.deepEqual(r.init, { ok: true, value: true });
    assert.equal(r.sha.value, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert.equal(r.canonical.value, '{"a":[1e-07,"\\ud800"],"b":1.0}', JSON.stringify(r.canonical));
    assert.equal(r.canonicalObject.value, '{"big":9007199254740992.0,"\\ud800":-0.0}', JSON.stringify(r.canonicalObject));
    assert.equal(r.cycle.code, "invalid_value");
    assert.equal(r.cycle.name, "LiansScoreError");
    assert.equal(r.score.ok, true, JSON.stringify(r.score));
    assert.equal(r.score.value.scoring_policy_version, "lians-memory-scoring-v2");
    assert.equal(r.receiptObject.code, "wrong_type");
    assert.equal(r.verify.ok, true, JSON.stringify(r.verify));
    assert.equal(r.verify.value.report.valid, true, JSON.stringify(r.verify.value.report.failures));
    assert.equal(r.verify.value.report.receipt_sha256, r.verify.value.expected);
    assert.equal(r.verifyBytes.ok, true, JSON.stringify(r.verifyBytes));
    assert.equal(r.verifyBytes.value.valid, true, JSON.stringify(r.verifyBytes.value.failures));
    assert.equal(r.audit.ok, true, JSON.stringify(r.audit));
    for (const [name, a] of Object.entries(r.audit.value)) assert.equal(a.consistent, true, `${name}: ${a.failures}`);
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("one instance survives every kind of bad input in Chromium (tests/js/hostile.mjs)", async () => {
  const server = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ARGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/tests/js/browser/hostile.html`);
    await page.waitForFunction(() => document.title === "done", null, { timeout: 120000 });
    const r = await page.evaluate(() => window.__hostile);
    assert.deepEqual(errors, []);
    assert.deepEqual(r.problems, [], r.problems.join("\n"));
    assert.ok(r.calls > 1000 && r.codes.too_large > 0 && r.codes.wrong_type > 0, JSON.stringify(r.codes));
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
