#!/usr/bin/env node
// Dashboard benchmark (issue #15): a 500-item review queue (the API's maximum)
// opened from a file, re-scored and rendered, in headless Debian Chromium.
//
//   node bench/dashboard-bench.mjs [--runs N] [--json]
//
// Needs the package built (bash scripts/build.sh), playwright-core and
// /usr/bin/chromium (CHROMIUM_PATH overrides), as the e2e tests do.
//
// The clock is the page's own: performance marks the app sets (markQueue in
// www/state.js): lians:queue-input in the file input's change event, -scored
// when the re-scores arrive, -rendered once the list is rebuilt, -painted in a
// task queued from the next requestAnimationFrame (after that frame's paint).
// Each run also checks the list on screen: 500 rows, each with its re-scored
// "if approved" value.
// Scenarios (the page at #empty, so the file is its first queue):
//   cold page load:     a fresh browser context (empty HTTP and code caches),
//                       the file 1 s after the scorer is ready (a user choosing it);
//   cold, file at once: the same, the file as soon as the scorer is ready;
//   warm page load:     the page reloaded in a context that opened it (and a
//                       queue) before, the file after 1 s;
//   next queue:         the same page, another file.
// Prints medians (and min/max) of each phase; --json prints one JSON line too.
//
//   node bench/dashboard-bench.mjs --keys [--items 1500] [--presses 40] [--pace 100] [--json]
//
// times single keys instead (issue #21): a queue of --items held items from a
// file, re-scored, then --presses rounds of a (approve the current item and
// move to the next undecided), r (reject, move on), k (back to the item just
// rejected), u (undo that decision), j (move), x (select), and q, a key the
// page ignores: the floor of this clock (the wait for the next frame and an
// empty frame). Per key the time from the keydown event (its timeStamp) to a
// task queued from the next requestAnimationFrame (a listener the bench adds,
// so any version of the page is timed the same way), and the renderer's
// script + style + layout time for it (CDP Performance metrics; paint is not
// in it). Median, p90, p95 and max per key, and the load average: the machine
// may be shared, so run it when the load is low and repeat it.
// Keys are --pace ms apart (default 100: a reviewer reads between keys), and
// the bench waits for a key's frames on a timer, never with animation frames
// of its own: those kept the page's frame clock ticking, so that a key handled
// quickly then waited for the clock's next tick, up to a frame (measured: the
// ignored key q took ~11 ms back to back, 1.6 ms paced). --pace 0 presses
// keys back to back.
//
// The page draws everything a key changes in that first frame (the list row,
// the selection, the counts, the whole detail pane of the new item). A second
// clock, "complete", runs to the first such frame after which nothing on the
// page is [data-pending]: it would expose a page that shows part of a change a
// frame later (measured: drawing the score table one frame later took a's
// first frame from ~21 to ~15 ms at load 14, but its complete one to ~40 ms,
// so the page does not do it). The next key is pressed after both.
import os from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { startServer, launchBrowser, newPage } from '../tests/e2e/helpers.mjs';
import { bigQueue } from '../tests/e2e/big-queue.mjs';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Math.max(1, Number(args[runsAt + 1])) : 7;
const JSON_OUT = args.includes('--json');
const N = 500;
const median = (v) => { const s = [...v].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const argNum = (name, dflt) => { const at = args.indexOf(name); return at >= 0 ? Math.max(1, Number(args[at + 1])) : dflt; };

if (args.includes('--keys')) {
  const paceAt = args.indexOf('--pace');
  await keysBench(argNum('--items', 1500), argNum('--presses', 40), paceAt >= 0 ? Math.max(0, Number(args[paceAt + 1])) : 100);
  process.exit(0);
}

/** Keypress → painted frame at `n` items (see the header). */
async function keysBench(n, presses, PACE) {
  const server = await startServer();
  const browser = await launchBrowser();
  const out = {};
  try {
    const { page } = await newPage(browser);
    // The clock, set by the bench (so it times any version of the page the same way): a capture-phase
    // keydown listener that runs before the page's own, and measures from the event's timeStamp to a
    // task queued from the next animation frame (after that frame's paint).
    // A second clock, lians:key-full, runs to the first frame after which no part of the page is still
    // [data-pending]; on a page that defers nothing (this one) it equals the first. The next key is
    // pressed only after both.
    await page.addInitScript(() => {
      document.addEventListener('keydown', (e) => {
        const t0 = e.timeStamp;
        const tick = (first) => {
          const t = performance.now();
          if (first) performance.measure('lians:key', { start: t0, end: t });
          if (!document.querySelector('[data-pending]')) { performance.measure('lians:key-full', { start: t0, end: t }); return; }
          requestAnimationFrame(() => setTimeout(() => tick(false), 0));
        };
        requestAnimationFrame(() => setTimeout(() => tick(true), 0));
      }, true);
    });
    await page.goto(`${server.url}#empty`);
    await page.waitForFunction(() => /scorer (ready|unavailable)/.test(document.getElementById('pkg-status').textContent));
    await page.setInputFiles('#queue-file', { name: 'queue.json', mimeType: 'application/json', buffer: Buffer.from(bigQueue(n, 5)) });
    await page.waitForFunction(() => document.getElementById('progress-wrap').dataset.state === 'done', null, { timeout: 300000, polling: 100 });
    const rows = await page.locator('#queue-list [role="option"]').count();
    if (rows !== n) throw new Error(`${rows} rows listed, want ${n}`);
    await page.focus('#queue-list');
    await page.waitForTimeout(500);
    // The renderer's own accounting (CDP Performance metrics): script, style and layout time per key,
    // less sensitive than wall time to a machine shared with other work.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const measures = () => page.evaluate(() => performance.getEntriesByName('lians:key-full').length);
    const press = async (key) => {
      const before = await measures();
      const m0 = await metrics();
      await page.keyboard.press(key);
      // Polled on a timer, not on animation frames: frames the bench requests itself would keep the
      // page's frame clock ticking, so that the next key's frame waited for a tick of that clock.
      await page.waitForFunction((b) => performance.getEntriesByName('lians:key-full').length > b, before, { polling: 4 });
      const [wall, full] = await page.evaluate(() => ['lians:key', 'lians:key-full'].map((n) => performance.getEntriesByName(n).at(-1).duration));
      const m1 = await metrics();
      const d = (k) => (m1[k] - m0[k]) * 1000;
      if (PACE) await page.waitForTimeout(PACE);
      return { wall, full, work: d('ScriptDuration') + d('RecalcStyleDuration') + d('LayoutDuration') };
    };
    const plan = { a: [], r: [], k: [], u: [], j: [], x: [], q: [] };
    for (let i = 0; i < presses; i++) for (const k of Object.keys(plan)) plan[k].push(await press(k));
    const decided = await page.locator('#queue-list [data-decision]').count();
    if (decided !== presses) throw new Error(`${decided} rows decided at the end, want ${presses} (one a per round; each r undone by u)`);
    const q = (v, p) => { const s = [...v].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
    console.log(`dashboard keys: ${n} items, ${presses} presses per key, ${PACE} ms between keys; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (${os.cpus().length} cpus)`);
    const cols = ['painted median', 'p90', 'p95', 'max', 'complete median', 'p95', 'work median', 'p95'];
    console.log(`${'ms per key'.padEnd(10)}${cols.map((p) => p.padStart(p.length > 4 ? 16 : 7)).join('')}`);
    for (const [k, v] of Object.entries(plan)) {
      const wall = v.map((x) => x.wall);
      const full = v.map((x) => x.full);
      const work = v.map((x) => x.work);
      out[k] = { median: median(wall), p90: q(wall, 0.9), p95: q(wall, 0.95), max: Math.max(...wall), full_median: median(full), full_p95: q(full, 0.95), work_median: median(work), work_p95: q(work, 0.95) };
      const vals = [out[k].median, out[k].p90, out[k].p95, out[k].max, out[k].full_median, out[k].full_p95, out[k].work_median, out[k].work_p95];
      console.log(`${`  ${k}`.padEnd(10)}${vals.map((x, i) => x.toFixed(1).padStart(cols[i].length > 4 ? 16 : 7)).join('')}`);
    }
    console.log('(painted: keydown to a task queued from the next animation frame; complete: to the first such frame with nothing\n [data-pending] (the same when nothing is drawn later); work: the renderer\'s script + style + layout time (all frames).\n a: approve and move to the next undecided; r: reject, move on; k: back; u: undo (the decision k came back to);\n j: move; x: select; q: ignored by the page (the clock\'s floor).)');
  } finally {
    await browser.close();
    await server.stop();
  }
  if (JSON_OUT) console.log(JSON.stringify({ bench: 'dashboard-keys', n, presses, pace_ms: PACE, loadavg: os.loadavg(), ...out }));
}


/**
 * CPU time (ms) used so far by every process this one started (Chromium's
 * browser, GPU, renderer and utility processes, and the static server), from
 * /proc/PID/task/TID/schedstat (ns on CPU per thread; Linux only, else NaN).
 * Less sensitive than wall time to a machine shared with other work.
 */
function childCpuMs() {
  try {
    const parent = new Map();
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try { parent.set(Number(d), Number(readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1])); } catch { /* gone */ }
    }
    const mine = (pid) => { for (let p = parent.get(pid); p; p = parent.get(p)) if (p === process.pid) return true; return false; };
    let ns = 0;
    for (const pid of parent.keys()) {
      if (!mine(pid)) continue;
      try { for (const t of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]); } catch { /* gone */ }
    }
    return ns / 1e6;
  } catch { return NaN; }
}

/** Open `text` through the file input and return the phase times (ms since the input event). */
async function openFile(page, text, name) {
  const cpu0 = childCpuMs();
  await page.setInputFiles('#queue-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForFunction(() => performance.getEntriesByName('lians:queue-painted').length > 0, null, { timeout: 120000, polling: 50 });
  const r = await page.evaluate((n) => {
    const at = (m) => performance.getEntriesByName(`lians:queue-${m}`).at(-1)?.startTime ?? NaN;
    const t0 = at('input');
    const rows = [...document.querySelectorAll('#queue-list [role="option"]')];
    const rescored = rows.filter((el) => /^→ \d/.test(el.querySelector('[data-col="approved"]')?.textContent ?? '')).length;
    return {
      text: at('text') - t0, listed: at('listed') - t0, scored: at('scored') - t0, rendered: at('rendered') - t0, painted: at('painted') - t0,
      worker: Number(document.getElementById('progress-wrap').dataset.ms),
      rows: rows.length, rescored, state: document.getElementById('progress-wrap').dataset.state, n,
    };
  }, N);
  r.cpu = childCpuMs() - cpu0;
  if (r.rows !== N || r.rescored !== N || r.state !== 'done') throw new Error(`the list is not complete: ${JSON.stringify(r)}`);
  return r;
}

const IDLE_MS = 1000; // a user choosing a file after the page opened

async function ready(page, idle) {
  await page.waitForFunction(() => /scorer (ready|unavailable)/.test(document.getElementById('pkg-status').textContent));
  if (idle) await page.waitForTimeout(idle);
}

const server = await startServer();
const browser = await launchBrowser();
const scenarios = [
  ['cold page load', 'a fresh browser context (empty HTTP and code caches), the page idle for 1 s, its first queue'],
  ['cold, file at once', 'a fresh browser context, the file set as soon as the scorer is ready (workers still starting)'],
  ['warm page load', 'the page reloaded in a context that has opened it and a queue before (HTTP and code caches warm), idle 1 s, first queue'],
  ['next queue', 'the same page, another file after the first'],
];
const results = Object.fromEntries(scenarios.map(([k]) => [k, []]));
try {
  const queues = [bigQueue(N, 0), bigQueue(N, 1)]; // tests/e2e/big-queue.mjs
  for (let i = 0; i < RUNS; i++) {
    for (const [name, idle] of [['cold page load', IDLE_MS], ['cold, file at once', 0]]) {
      const { page, context } = await newPage(browser);
      await page.goto(`${server.url}#empty`);
      await ready(page, idle);
      results[name].push(await openFile(page, queues[i % 2], 'queue-500.json'));
      await context.close();
    }
  }
  {
    const { page, context } = await newPage(browser);
    await page.goto(`${server.url}#empty`);
    await ready(page, 0);
    await openFile(page, queues[1], 'queue-500.json');
    for (let i = 0; i < RUNS; i++) {
      await page.reload();
      await ready(page, IDLE_MS);
      results['warm page load'].push(await openFile(page, queues[i % 2], 'queue-500.json'));
    }
    for (let i = 0; i < RUNS; i++) results['next queue'].push(await openFile(page, queues[(i + 1) % 2], 'queue-500.json'));
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

const phases = ['text', 'listed', 'scored', 'rendered', 'painted', 'worker', 'cpu'];
const summary = {};
console.log(`dashboard: ${N}-item queue from the file input, ${RUNS} runs each; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (${os.cpus().length} cpus)`);
console.log(`${'ms since the input event'.padEnd(26)}${phases.map((p) => p.padStart(10)).join('')}`);
for (const [name, what] of scenarios) {
  const runs = results[name];
  summary[name] = Object.fromEntries(phases.map((p) => [p, median(runs.map((r) => r[p]))]));
  console.log(`${`${name} median`.padEnd(26)}${phases.map((p) => median(runs.map((r) => r[p])).toFixed(1).padStart(10)).join('')}`);
  console.log(`${'  min'.padEnd(26)}${phases.map((p) => Math.min(...runs.map((r) => r[p])).toFixed(1).padStart(10)).join('')}`);
  console.log(`${'  max'.padEnd(26)}${phases.map((p) => Math.max(...runs.map((r) => r[p])).toFixed(1).padStart(10)).join('')}`);
  console.log(`  (${what})`);
}
console.log('(painted: input event to the frame after the re-scored list; worker: the re-scoring as the worker reports it;\n cpu: CPU ms of all Chromium processes from setting the file to reading the marks, every thread)');
if (JSON_OUT) console.log(JSON.stringify({ bench: 'dashboard', n: N, runs: RUNS, loadavg: os.loadavg(), ...summary }));
