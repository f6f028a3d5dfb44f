// Re-scoring the loaded queue: Web Workers (worker.js), or the main thread
// when workers are unavailable; drives the progress bar.
//
// The workers start with the page (each loads the package and warms up), so
// a queue is scored by code that is already compiled. A queue of more than
// SPLIT_MIN items is split between the workers (contiguous parts, in
// parallel); their progress and results are merged here.
import { state, ui, markQueue } from './state.js';
import { $ } from './dom.js';
import * as lians from './lians.js';
import { scoreBatch, unpackResults } from './scoring.js';

const progWrap = $('#progress-wrap');
const prog = $('#score-progress');
const progText = $('#progress-text');
// Two workers (a page URL with #workers=1 … #workers=4 overrides it, for comparisons).
const POOL = Math.min(4, Math.max(1, Number(/workers=(\d)/.exec(location.hash)?.[1] ?? 2)));
const SPLIT_MIN = 40;
let workers = null;
let workerBroken = false;

function getWorkers() {
  if (workers || workerBroken) return workers;
  try {
    workers = [];
    for (let k = 0; k < POOL; k++) {
      const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      w.onmessage = (e) => onPartMessage(e.data);
      w.onerror = (e) => { e.preventDefault?.(); brokenWorkers(); };
      workers.push(w);
    }
  } catch {
    brokenWorkers(false);
  }
  return workers;
}

function brokenWorkers(fallback = true) {
  if (workerBroken) return;
  workerBroken = true;
  for (const w of workers ?? []) w.terminate();
  workers = null;
  if (fallback) fallbackToMainThread();
}

let pendingJob = null;
export function startScoring() {
  const job = ++state.job;
  const items = state.items;
  state.scoring = true;
  progWrap.hidden = false;
  progWrap.dataset.updates = '0';
  progWrap.dataset.state = 'running';
  prog.max = Math.max(1, items.length);
  prog.value = 0;
  progText.textContent = `Re-scoring 0 / ${items.length}…`;
  const ws = getWorkers();
  const parts = ws ? (items.length > SPLIT_MIN ? ws.length : 1) : 0;
  pendingJob = { job, t0: performance.now(), parts, partsDone: 0, done: 0, ms: 0 };
  if (ws) {
    state.scoredWith = parts > 1 ? `${parts} Web Workers` : 'Web Worker';
    // The exact text is what the package scores (lians.js): send only that (cheap to clone).
    const size = Math.ceil(items.length / parts);
    ws.forEach((w, k) => {
      const from = k * size;
      if (k < parts) w.postMessage({ type: 'score', job, from, items: items.slice(from, from + size).map((it) => ({ raw: it.raw })) });
      else w.postMessage({ type: 'cancel', job });
    });
  } else {
    runOnMainThread(job);
  }
}

function fallbackToMainThread() {
  if (pendingJob && state.scoring) runOnMainThread(pendingJob.job);
}

async function runOnMainThread(job) {
  state.scoredWith = 'main thread';
  const ok = await lians.load();
  if (job !== state.job) return;
  if (!ok) { onScoringUnavailable(lians.errorInfo(lians.lastLoadError())); return; }
  await scoreBatch(state.items, {
    chunk: 20,
    isCancelled: () => job !== state.job,
    onChunk: (done, total, results) => onWorkerMessage({ type: 'progress', job, done, total, results }),
  });
  if (job === state.job) onWorkerMessage({ type: 'done', job, total: state.items.length, ms: performance.now() - pendingJob.t0 });
}

/** One worker's part of the job: merged into one progress stream and one 'done'. */
function onPartMessage(msg) {
  const p = pendingJob;
  if (!msg || !p || msg.job !== p.job || msg.job !== state.job) return;
  if (msg.type === 'progress') {
    p.done += msg.results.length;
    onWorkerMessage({ type: 'progress', job: msg.job, done: p.done, total: state.items.length, results: unpackResults(msg.results, msg.full) });
  } else if (msg.type === 'done') {
    p.ms = Math.max(p.ms, msg.ms);
    if (++p.partsDone === p.parts) onWorkerMessage({ type: 'done', job: msg.job, total: state.items.length, ms: p.ms });
  } else {
    onWorkerMessage(msg);
  }
}

function onWorkerMessage(msg) {
  if (!msg || msg.job !== state.job) return;
  if (msg.type === 'ready' && !msg.ok) { if (state.scoring) onScoringUnavailable(msg.error); return; }
  if (msg.type === 'progress') {
    for (const r of msg.results) state.results[r.i] = r;
    ui.applyResults(msg.results);
    prog.max = Math.max(1, msg.total);
    prog.value = msg.done;
    progWrap.dataset.updates = String(Number(progWrap.dataset.updates) + 1);
    progText.textContent = `Re-scoring ${msg.done} / ${msg.total}…`;
  } else if (msg.type === 'done') {
    markQueue('scored');
    state.scoring = false;
    progWrap.dataset.ms = String(msg.ms);
    progWrap.dataset.state = 'done';
    prog.value = prog.max;
    const failed = state.results.filter((r) => r?.error).length;
    progText.textContent = `Re-scored ${msg.total} item${msg.total === 1 ? '' : 's'} in ${(msg.ms / 1000).toFixed(2)} s (${state.scoredWith})${failed ? ` · ${failed} failed` : ''}`;
    ui.scoringDone();
    markQueue('rendered');
    requestAnimationFrame(() => setTimeout(() => markQueue('painted'), 0));
  }
}

function onScoringUnavailable(err) {
  state.scoring = false;
  progWrap.dataset.state = 'unavailable';
  prog.value = 0;
  progText.textContent = `Client re-scoring unavailable (${err?.code ?? 'error'}: ${err?.message ?? ''}). Showing stored scores only.`;
  ui.buildRows();
  ui.renderList(true);
}

// Start the workers with the page: they load the package and warm up before the first queue.
getWorkers();
