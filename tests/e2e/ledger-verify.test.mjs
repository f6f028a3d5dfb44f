// Verify tab → the browser's consistency ledger (IndexedDB) in headless Chromium:
// two answers of the real server that tell the same memory's event time
// differently (tests/data/ledger, lie-db-event-time) verify each on its own;
// the second raises I2, shown as text. Nothing leaves 127.0.0.1.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDashboard, stopDashboard, openDashboard } from './helpers.mjs';
import { loadPackage, REPO } from './pkg.mjs';

const { pkg, reason } = await loadPackage();
const strict = Boolean(process.env.CI || process.env.LIANS_E2E_REQUIRE_PKG);
const skip = strict ? false : (!pkg ? `package not built: ${reason}` : false);
const lines = (f) => readFileSync(join(REPO, 'tests/data/ledger', f), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('Verify tab records into the consistency ledger', { skip }, () => {
  let server;
  let browser;
  before(async () => ({ server, browser } = await startDashboard()));
  after(() => stopDashboard({ server, browser }));

  it('the second of two contradicting answers raises I2', async () => {
    // The same recall before and after the row was edited (the same query, the same client).
    const lie = lines('lie-db-event-time.jsonl');
    const honest = lines('honest.jsonl');
    const after = lie.find((e) => e.request.url.endsWith('/v1/recall') && !JSON.parse(e.request.body).as_of);
    const before = honest.find((e) => e.request.url.endsWith('/v1/recall') && e.request.body === after.request.body);
    const query = JSON.parse(after.request.body).query;
    const recorders = [];
    const { page, rec } = await openDashboard(browser, server, recorders);
    await page.click('#tab-verify');
    for (const [e, want] of [[before, /no contradiction/], [after, /alarm/]]) {
      await page.fill('#v-wire', e.response.body);
      await page.fill('#v-query', query);
      await page.click('#v-run');
      await page.waitForSelector('#v-ledger', { timeout: 30000 });
      const text = await page.textContent('#v-ledger');
      assert.match(text, want, text);
      if (want.source === 'alarm') assert.match(text, /I2 [0-9a-f-]{36}/);
    }
    assert.deepEqual(rec.external, []);
    assert.deepEqual(rec.pageErrors, []);
  });
});
