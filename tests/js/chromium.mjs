// Real headless Chromium (playwright-core; /usr/bin/chromium, or $CHROMIUM) on a page of this
// repository served from a static server on 127.0.0.1: the launch shared by the browser e2e
// tests (browser.e2e.mjs, ledger-browser.e2e.mjs). Both are started and stopped by each call.
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
  ".jsonl": "application/x-ndjson",
  ".b64": "text/plain",
};

// Chromium flags from ../shared/toolchain.md (no background network traffic).
const ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
  "--disable-sync", "--disable-quic", "--no-first-run", "--disable-default-apps", "--disable-extensions",
];

/** GET of the repository's files (`/shared/...`: the shared spec's), on an ephemeral port. */
function serve() {
  const roots = { "/shared/": SHARED, "/": ROOT };
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
    const prefix = pathname.startsWith("/shared/") ? "/shared/" : "/";
    const base = roots[prefix];
    const file = path.resolve(base, "." + pathname.slice(prefix.length - 1));
    if (!file.startsWith(base + path.sep) || req.method !== "GET") return res.writeHead(403).end();
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

/**
 * Open `page` (a path such as "/tests/js/browser/index.html"), wait until its title is "done"
 * (at most `timeout` ms) and return `{ results: window[global], errors, wasm }` (the page's uncaught
 * errors, as text; the paths of the `.wasm` files it fetched, in order).
 */
export async function runPage(page, global, timeout) {
  const server = await serve();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ARGS });
  try {
    const tab = await browser.newPage();
    const errors = [];
    const wasm = [];
    tab.on("pageerror", (e) => errors.push(String(e)));
    tab.on("request", (r) => r.url().endsWith(".wasm") && wasm.push(new URL(r.url()).pathname));
    await tab.goto(`http://127.0.0.1:${server.address().port}${page}`);
    await tab.waitForFunction(() => document.title === "done", null, { timeout });
    return { results: await tab.evaluate((name) => window[name], global), errors, wasm };
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}
