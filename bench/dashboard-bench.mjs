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
