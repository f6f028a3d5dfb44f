// A large review queue for the dashboard's e2e test and bench/dashboard-bench.mjs:
// an AdmissionListResult of `n` held items (500 is the API's maximum page) cut
// from the sample queue (www/sample/queue-sample.json: the real list-route items
// and the richer export shape with importance and metadata), cycled, each with
// its own id. Every third item's content gains a prefix, so its re-score differs
// from the stored breakdown (unexplained drift) and the scores vary.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './pkg.mjs';
import { spansAt } from '../../www/jsonspan.js';

export function bigQueueItems(n = 500, salt = 0) {
  const base = spansAt(readFileSync(join(REPO, 'www', 'sample', 'queue-sample.json'), 'utf8'), [['pending', '*']]).map((s) => s.text);
  const items = [];
  for (let i = 0; i < n; i++) {
    const id = `10000000-0000-4000-8${String(salt % 1000).padStart(3, '0')}-${String(i).padStart(12, '0')}`;
    let t = base[i % base.length].replace(/"id":"[0-9a-f-]{36}"/, `"id":"${id}"`);
    if (i % 3 === 2) t = t.replace('"content":"', `"content":"Copy ${i}: `);
    items.push(t);
  }
  return items;
}

export function bigQueue(n = 500, salt = 0) {
  return `{"pending":[\n${bigQueueItems(n, salt).join(',\n')}\n],"total":${n},"status_filter":"pending"}\n`;
}
