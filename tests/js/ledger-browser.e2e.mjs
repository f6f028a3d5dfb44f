// The consistency ledger on IndexedDB in real headless Chromium (playwright-core,
// /usr/bin/chromium): the same fixtures and the same alarms as on SQLite in Node
// (tests/js/ledger.test.mjs) and on a Durable Object in workerd (tests/edge/ledger-workerd.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { ROOT } from "./helpers.mjs";

const TYPES = { ".html": "text/html; charset=utf-8", ".mjs": "text/javascript; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".wasm": "application/wasm", ".json": "application/json", ".jsonl": "application/x-ndjson" };
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run", "--disable-default-apps", "--disable-extensions"];

function serve() {
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
    const file = path.resolve(ROOT, "." + (pathname === "/" ? "/tests/js/browser/ledger.html" : pathname));
    if (!file.startsWith(ROOT + path.sep) || req.method !== "GET") return res.writeHead(403).end();
    let body;
    try {
      body = await readFile(file);
    } catch {
      return res.writeHead(404).end();
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" }).end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("the ledger on IndexedDB in Chromium: no alarm on the honest sequence, each lie its invariants", async () => {
  const lies = JSON.parse(readFileSync(path.join(ROOT, "tests/data/ledger/lies.json"), "utf8"));
  const server = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ARGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => document.title === "done", null, { timeout: 240_000 });
    const r = await page.evaluate(() => window.__results);
    assert.deepEqual(errors, []);
    assert.ok(r.ok, r.error);
    const honest = r.results["honest.jsonl"];
    assert.deepEqual(honest.invariants, []);
    assert.equal(honest.invalid, 0);
    assert.ok(honest.recorded >= 100);
    assert.equal(honest.stats.exchanges, honest.recorded);
    assert.deepEqual(r.results.reopened, honest.stats);
    for (const [file, expect] of Object.entries(lies)) {
      assert.deepEqual(r.results[file].invariants, [...expect].sort(), file);
      assert.equal(r.results[file].invalid, 0, file);
    }
  } finally {
    await browser.close();
    server.close();
  }
});
