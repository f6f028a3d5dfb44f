// Re-scoring the loaded queue: a Web Worker (worker.js), or the main thread
// when workers are unavailable; drives the progress bar.
import { state, ui, markQueue } from './state.js';
import { $ } from './dom.js';
import * as lians from './lians.js';
import { scoreBatch } from './scoring.js';
import { pkgReady } from './scorer.js';

const progWrap = $('#progress-wrap');
const prog = $('#score-progress');
const progText = $('#progress-text');
let worker = null;
let workerBroken = false;

function getWorker() {
  if (worker || workerBroken) return worker;
  try {
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (e) => onWorkerMessage(e.data);
    worker.onerror = (e) => { e.preventDefault?.(); workerBroken = true; worker = null; fallbackToMainThread(); };
  } catch {
    workerBroken = true;
    worker = null;
  }
  return worker;
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
  pendingJob = { job, t0: performance.now() };
  const w = getWorker();
  if (w) {
    state.scoredWith = 'Web Worker';
    // The exact text is what the package scores (lians.js): send only that (cheap to clone).
    w.postMessage({ type: 'score', job, items: items.map((it) => ({ raw: it.raw })) });
  } else {
    runOnMainThread(job);
  }
}

function fallbackToMainThread() {
  if (pendingJob && state.scoring) runOnMainThread(pendingJob.job);
}

async function runOnMainThread(job) {
  state.scoredWith = 'main thread';
  const ok = await pkgReady;
  if (job !== state.job) return;
  if (!ok) { onScoringUnavailable(lians.errorInfo(lians.lastLoadError())); return; }
  await scoreBatch(state.items, {
    chunk: 20,
    isCancelled: () => job !== state.job,
    onChunk: (done, total, results) => onWorkerMessage({ type: 'progress', job, done, total, results }),
  });
  if (job === state.job) onWorkerMessage({ type: 'done', job, total: state.items.length, ms: performance.now() - pendingJob.t0 });
}

function onWorkerMessage(msg) {
  if (!msg || msg.job !== state.job) return;
  if (msg.type === 'ready' && !msg.ok) { onScoringUnavailable(msg.error); return; }
  if (msg.type === 'progress') {
    for (const r of msg.results) state.results[r.i] = r;
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
    ui.buildRows();
    ui.renderList(true);
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

ui.startScoring = startScoring;
// Start the worker with the page: it loads the package and warms up before the first queue.
getWorker();
