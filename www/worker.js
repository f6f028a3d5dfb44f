// Web Worker: re-scores a whole queue off the main thread and reports progress.
// Started with the page (rescore.js), so the package is loaded (fetched,
// compiled, instantiated) before the first queue arrives, and kept for every
// later queue.
// Messages in:  {type:'score', job, from, items:[{raw}]}   items[k] is the queue's item from + k
//               {type:'cancel', job}                     stop the current job (a newer one went elsewhere)
// Messages out: {type:'ready', ok, error?}
//               {type:'progress', job, done, total, results:[{i, error, drift, finals}], full}   (packResults in scoring.js)
//               {type:'done', job, total, ms}

import * as lians from './lians.js';
import { scoreBatch, scoreOne, packResults } from './scoring.js';
import { WARM_ITEMS } from './warmup.js';

let current = 0;
const loaded = lians.load();

// A zero-delay yield: a message to ourselves. setTimeout(0) is clamped to
// 4 ms once nested, which cost ~100 ms over a 500-item queue; a yield lets a
// newer job's message (which cancels this one) be seen between chunks.
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()?.();
const yieldNow = () => new Promise((r) => { waiting.push(r); channel.port2.postMessage(0); });

// Warm up while no queue has arrived (see warmup.js): ~150 re-scores, one per
// task, stopped by the first queue.
const WARM_ROUNDS = 150;
loaded.then(async (ok) => {
  for (let i = 0; ok && i < WARM_ROUNDS && current === 0; i++) { scoreOne({ raw: WARM_ITEMS[i % WARM_ITEMS.length] }); await yieldNow(); }
});

self.onmessage = async (ev) => {
  const msg = ev.data || {};
  if (msg.type === 'cancel') { current = msg.job; return; }
  if (msg.type !== 'score') return;
  const job = msg.job;
  const from = msg.from ?? 0;
  current = job;
  const ok = await loaded;
  if (!ok) {
    const e = lians.errorInfo(lians.lastLoadError());
    self.postMessage({ type: 'ready', job, ok: false, error: e });
    return;
  }
  if (current !== job) return;
  self.postMessage({ type: 'ready', job, ok: true });
  const t0 = performance.now();
  await scoreBatch(msg.items, {
    chunk: 50,
    yieldFn: yieldNow,
    isCancelled: () => current !== job,
    onChunk: (done, total, results) => {
      for (const r of results) r.i += from;
      self.postMessage({ type: 'progress', job, done, total, ...packResults(results) });
    },
  });
  if (current === job) self.postMessage({ type: 'done', job, total: msg.items.length, ms: performance.now() - t0 });
};
