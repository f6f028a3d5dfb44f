// Shared set-up for the Playwright end-to-end tests: the dashboard server on
// 127.0.0.1 (a free port), headless Chromium from /usr/bin/chromium, and a
// guard that records every request that would leave 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { REPO } from './pkg.mjs';

// The file the dashboard's /sample/<name> route serves (www/sample, then tests/data/samples).
export { sampleFile } from '../../scripts/serve.mjs';

export const OUT_DIR = join(REPO, 'test-output');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-quic', '--no-first-run', '--disable-default-apps', '--disable-extensions',
];

/** Start scripts/serve.mjs on a free port; resolves {url, stop()}. */
export function startServer(env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, 'scripts', 'serve.mjs')], {
      env: { ...process.env, PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => { child.kill('SIGTERM'); reject(new Error(`server did not start: ${out}${err}`)); }, 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: `http://127.0.0.1:${m[1]}/`,
          port: Number(m[1]),
          log: () => out + err,
          stop: () => new Promise((r) => { if (child.exitCode !== null) return r(); child.once('exit', r); child.kill('SIGTERM'); }),
        });
      }
    });
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => { clearTimeout(timer); if (!/http:\/\/127/.test(out)) reject(new Error(`server exited ${code}: ${out}${err}`)); });
  });
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A page that records dialogs, console errors, page errors and any request
 * to a host other than 127.0.0.1 (those are aborted, not sent).
 */
export async function newPage(browser, { width = 1280, height = 900, colorScheme = 'light', phone = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme, acceptDownloads: true, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
  const page = await context.newPage();
  const rec = { dialogs: [], unloads: 0, external: [], requests: [], consoleErrors: [], pageErrors: [] };
  // The page asks before it goes away with unsent decisions (beforeunload): counted and accepted (a
  // reload in a test goes on). Any other dialog (alert, confirm, prompt) is a finding: recorded, dismissed.
  page.on('dialog', (d) => {
    if (d.type() === 'beforeunload') { rec.unloads++; d.accept().catch(() => {}); return; }
    rec.dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  page.on('console', (m) => { if (m.type() === 'error') rec.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => rec.pageErrors.push(String(e)));
  page.on('request', (r) => rec.requests.push(r.url()));
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    const local = (u.protocol === 'http:' && u.hostname === '127.0.0.1') || u.protocol === 'data:' || u.protocol === 'blob:';
    if (!local) { rec.external.push(route.request().url()); return route.abort(); }
    return route.continue();
  });
  return { page, context, rec };
}

/** Wait until the queue has finished re-scoring (or found the scorer unavailable). */
export async function waitForScoring(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const w = document.getElementById('progress-wrap');
    return w && (w.dataset.state === 'done' || w.dataset.state === 'unavailable');
  }, null, { timeout });
  return page.evaluate(() => document.getElementById('progress-wrap').dataset.state);
}

export function outPath(name) {
  mkdirSync(OUT_DIR, { recursive: true });
  return join(OUT_DIR, name);
}

/** The dashboard server (with `env`) and Chromium, for one file's or describe's before(). */
export async function startDashboard(env = {}) {
  return { server: await startServer(env), browser: await launchBrowser() };
}

/** The after() of startDashboard. */
export async function stopDashboard({ server, browser } = {}) {
  await browser?.close();
  await server?.stop();
}

/** A recorded page (newPage) at the dashboard's `hash`; its recorder joins `recorders`. */
export async function openDashboard(browser, server, recorders, opts = {}, hash = '') {
  const p = await newPage(browser, opts);
  recorders.push(p.rec);
  await p.page.goto(server.url + hash);
  return p;
}

/** Set `text` as the queue file and wait for the re-scoring to end. */
export async function loadQueueFile(page, text, name = 'queue.json') {
  await page.setInputFiles('#queue-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
  return waitForScoring(page);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations in the page (or under `selector`), one line each. */
export async function axeSerious(page, selector = null) {
  await page.evaluate(AXE); // evaluated through the driver, not subject to the page CSP
  const res = await page.evaluate((sel) => window.axe.run(sel ? document.querySelector(sel) : document, { resultTypes: ['violations'] }), selector);
  return res.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => [].concat(n.target).join(' ')).join(' | ')}`);
}

/** Holds every request matching `glob` until the returned `release()` is called: for tests of
 * what the page does while a fetch is still on its way. `page.unroute(glob)` ends the hold. */
export async function holdRoute(page, glob) {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(glob, async (route) => { await held; await route.continue(); });
  return release;
}
