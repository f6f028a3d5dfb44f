// Web Worker: re-scores a whole queue off the main thread and reports progress.
// Messages in:  {type:'score', job, items:[{raw, obj}]}
// Messages out: {type:'ready', ok, error?}
//               {type:'progress', job, done, total, results:[{i, held, approved, trusted_review, drift, error}]}
//               {type:'done', job, total, ms}

import * as lians from './lians.js';
import { scoreBatch } from './scoring.js';

let current = 0;

self.onmessage = async (ev) => {
  const msg = ev.data || {};
  if (msg.type !== 'score') return;
  const job = msg.job;
  current = job;
  const ok = await lians.load();
  if (!ok) {
    const e = lians.errorInfo(lians.lastLoadError());
    self.postMessage({ type: 'ready', job, ok: false, error: e });
    return;
  }
  self.postMessage({ type: 'ready', job, ok: true });
  const t0 = performance.now();
  await scoreBatch(msg.items, {
    chunk: 20,
    isCancelled: () => current !== job,
    onChunk: (done, total, results) => self.postMessage({ type: 'progress', job, done, total, results }),
  });
  if (current === job) self.postMessage({ type: 'done', job, total: msg.items.length, ms: performance.now() - t0 });
};
