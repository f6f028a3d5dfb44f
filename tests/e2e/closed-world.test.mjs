// Issue #28's six classes in the dashboard's Verify and Evidence Pack tabs
// (headless Chromium, the built package): each case (tests/js/closed-world-cases.mjs)
// pasted as the user would shows an invalid verdict with a failed row of its
// code at its pointer, or (a rewritten pack signature the pins do not cover)
// lists the edited members under "Not bound".
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startDashboard, stopDashboard, openDashboard } from './helpers.mjs';
import { loadPackage, verifiersWork } from './pkg.mjs';
import * as lians from 'lians-score';
import { closedWorldCases } from '../js/closed-world-cases.mjs';

const { pkg, reason } = await loadPackage();
const skip = pkg ? (verifiersWork(pkg) ? false : 'the package verifiers do not work') : `package not built: ${reason}`;

let server;
let browser;
const recorders = [];
before(async () => ({ server, browser } = await startDashboard()));
after(() => stopDashboard({ server, browser }));

describe('closed world (issue #28) in the Verify tabs', () => {
  it('every case of the six classes is rejected with its code at its pointer', { skip }, async () => {
    const { page } = await openDashboard(browser, server, recorders, {}, '#empty');
    const problems = [];
    for (const c of closedWorldCases(lians)) {
      const pack = c.kind === 'pack';
      await page.click(pack ? '#tab-pack' : '#tab-verify');
      const p = pack ? '#p' : '#v';
      await page.fill(`${p}-wire`, c.text);
      if (pack) {
        await page.fill('#p-key', c.options.trusted_public_key);
        await page.fill('#p-keyid', c.options.expected_key_id ?? '');
      } else {
        await page.fill('#v-query', c.query);
      }
      await page.click(`${p}-run`);
      const want = c.valid ? 'true' : 'false';
      try {
        await page.waitForSelector(`${p}-result .verdict[data-valid="${want}"]`, { timeout: 20_000 });
      } catch {
        problems.push(`${c.name}: no verdict valid=${want}`);
        continue;
      }
      if (c.valid) {
        const text = await page.textContent(`${p}-result`);
        for (const u of c.unbound) if (!text.includes(u)) problems.push(`${c.name}: ${u} not shown as unbound`);
        continue;
      }
      const rows = await page.$$eval(`${p}-result table.checks tr[data-status="failed"]`, (trs) => trs.map((t) => [t.dataset.code, t.querySelector('td.ptr')?.textContent ?? '']));
      if (!rows.some(([code, ptr]) => code === c.code && ptr.startsWith(c.pointer))) {
        problems.push(`${c.name}: no failed ${c.code} at ${c.pointer}: ${JSON.stringify(rows).slice(0, 300)}`);
      }
    }
    assert.deepEqual(problems, []);
  });
});
