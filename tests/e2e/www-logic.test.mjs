// Unit tests (Node, no browser) of the dashboard's DOM-free modules.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { spansAt, textAt } from '../../www/jsonspan.js';
import { parseQueueText, driftView, buildDecisionExport, shellQuote, gateOf, componentRows, inputsText, QueueError, filterRows, heldSentence, markRuns, snippetOf, riskRank } from '../../www/queue.js';
import { readSaved, writeSaved, scopeKey, namespaceOf } from '../../www/saved.js';
import { classifyResolve, resolveUrl, submitDecisions } from '../../www/resolve.js';
import { REPO } from './pkg.mjs';

const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';

describe('jsonspan', () => {
  it('cuts exact value texts, keeping lexemes and key order', () => {
    const t = '{"pending": [ {"id":"a","metadata":{"2":1.0,"b":1e-7}} , {"id":"b\\"}"} ], "x": [1]}';
    assert.deepEqual(spansAt(t, [['pending', '*']]).map((s) => s.text), ['{"id":"a","metadata":{"2":1.0,"b":1e-7}}', '{"id":"b\\"}"}']);
    assert.equal(textAt(t, ['pending', 0, 'metadata']), '{"2":1.0,"b":1e-7}');
    assert.equal(textAt(t, ['nope']), null);
  });
  it('takes the last of duplicate keys, like JSON.parse', () => {
    assert.equal(textAt('{"a":1,"a":{"z":2}}', ['a']), '{"z":2}');
  });
  it('decodes escaped keys and refuses malformed text', () => {
    assert.equal(textAt('{"\\u0061\\n":[true]}', ['a\n']), '[true]');
    assert.throws(() => spansAt('{"a":1', [['a']]), SyntaxError);
    assert.throws(() => spansAt('[1] 2', [[0]]), SyntaxError);
  });
  it('skips unwanted values exactly: escaped quotes and backslashes, brackets inside strings', () => {
    const inner = '{"s":"a\\\\","t":"\\"}]{[","u":[{"v":"\\\\\\""}],"w":[]}';
    assert.equal(JSON.parse(inner).t, '"}]{[');
    const t = `{"pending":[${inner} , ${inner}],"after":"x"}`;
    assert.deepEqual(spansAt(t, [['pending', '*']]).map((s) => s.text), [inner, inner]);
    assert.equal(textAt(t, ['after']), '"x"');
  });
  it('keeps the nesting limit (512) inside skipped values', () => {
    const nest = (d, inner = '1') => '['.repeat(d) + inner + ']'.repeat(d);
    assert.equal(spansAt(nest(512), [[0]]).length, 1);
    assert.equal(spansAt(nest(513, ''), [[0]]).length, 1);
    assert.throws(() => spansAt(nest(513), [[0]]), /nesting too deep/);
    assert.throws(() => spansAt(`{"a":${nest(512, '{"k":1}')}}`, [['a']]), /nesting too deep at offset 517/);
  });
});

describe('parseQueueText', () => {
  const item = (id, extra = {}) => ({ id, content: 'c', event_time: '2026-01-01T00:00:00Z', ...extra });
  it('reads AdmissionListResult, {items}, and bare arrays', () => {
    const a = parseQueueText(JSON.stringify({ pending: [item(U1)], total: 1, status_filter: 'pending' }));
    assert.equal(a.info.shape, 'AdmissionListResult');
    assert.equal(a.info.status_filter, 'pending');
    assert.equal(parseQueueText(JSON.stringify({ items: [item(U1)] })).info.shape, 'items');
    assert.equal(parseQueueText(JSON.stringify([item(U1), item(U2)])).items.length, 2);
  });
  it('keeps each item\'s raw text', () => {
    const text = `{"pending":[{"id":"${U1}","content":"c","metadata":{"1":1.0,"a":2}}]}`;
    assert.equal(parseQueueText(text).items[0].raw, `{"id":"${U1}","content":"c","metadata":{"1":1.0,"a":2}}`);
  });
  it('skips bad items with a warning and flags non-UUID ids', () => {
    const r = parseQueueText(JSON.stringify({ pending: [item(U1), item(U1), { id: 'x' }, 7, item('not-a-uuid')] }));
    assert.deepEqual(r.items.map((i) => i.obj.id), [U1, 'not-a-uuid']);
    assert.equal(r.warnings.length, 4);
  });
  it('gives clear errors', () => {
    assert.throws(() => parseQueueText(''), QueueError);
    assert.throws(() => parseQueueText('{"pending":'), /Not valid JSON/);
    assert.throws(() => parseQueueText('{"memories":[]}'), /Expected an AdmissionListResult/);
  });
});

describe('drift', () => {
  const base = {
    importance_score: 0.6, confidence_score: 1.0, trust_score: 0.6, freshness_score: 1.0, relevance_score: 0.5, stability_score: 0.65,
    safety_score: 0.5, final_score: 0.0, eligible: false, safety_eligible: false, temporal_eligible: true, purpose: 'admission',
    scoring_policy_version: 'lians-memory-scoring-v2', reference_time: '2026-11-18T09:00:00+00:00',
    weights: { importance_score: 0.25 }, scoring_limits: { token_cap: 1024 }, reasons: ['r'],
  };
  // The analysis itself is the package's (tests/spec_examples.rs, mod drift);
  // the page only maps it to what it renders.
  it('maps the package drift analysis to the view', () => {
    const causes = [{ code: 'policy-version', text: 'stored with scoring policy "lians-memory-scoring-v1"' }];
    const d = driftView({ drift: { drifted: true, fields: ['confidence_score'], explained: true, unexplained_fields: [], causes } });
    assert.deepEqual(d, { status: 'drift', differs: ['confidence_score'], causes, explained: true });
    assert.equal(driftView({ drift: { drifted: false, fields: [], explained: true, unexplained_fields: [], causes: [] } }).status, 'match');
    assert.equal(driftView({ drift: null }).causes[0].code, 'no-stored');
    assert.equal(driftView(null).causes[0].code, 'no-rescore');
  });
  it('labels inferred, supplied and assumed inputs', () => {
    const t = inputsText({
      event_time: { value: '2026-11-29T09:00:00+05:30', source: 'inferred' },
      importance: { value: 0.7999999999999999, source: 'inferred', bound: 'at_most' },
      public_metadata: { value: true, source: 'inferred' },
      trust_claim: { value: false, source: 'supplied' },
    });
    assert.match(t, /importance ≤ 0\.8 .*\(worked out from the stored scores\)/);
    assert.match(t, /public metadata present \(worked out from the stored scores\)/);
    assert.match(t, /trust claim absent \(supplied\)/);
    assert.match(t, /^written at 2026-11-29T09:00:00\+05:30 \(worked out from the stored scores\)/);
    assert.match(inputsText({ importance: { value: 0.5, source: 'default', bound: 'exact' }, public_metadata: { value: false, source: 'default' }, trust_claim: { value: false, source: 'default' } }), /^importance 0\.5 \(assumed\)/);
    assert.match(inputsText(null), /unknown/);
  });
  it('names the gate that zeroed a score', () => {
    assert.deepEqual(gateOf({ ...base, reasons: ['a', 'b', 'c', 'd', 'e', 'f', 'human review required before normal recall'] }), { gate: 'safety', reason: 'human review required before normal recall' });
    assert.equal(gateOf({ ...base, eligible: true }), null);
    assert.equal(gateOf({ ...base, safety_eligible: true, temporal_eligible: false, reasons: ['a', 'b', 'c', 'not yet valid'] }).gate, 'temporal');
    assert.equal(componentRows(base).find((r) => r.key === 'importance_score').contribution, 0.6 * 0.25);
  });
});

describe('decision export', () => {
  it('writes exact resolve bodies and safe curl lines', () => {
    const ex = buildDecisionExport(new Map([
      [U1, { action: 'approve', note: null }],
      [U2, { action: 'reject', note: "it's PII; $(rm -rf /) `x`" }],
      ['"; rm -rf / #', { action: 'approve', note: null }],
    ]), { generatedAt: 'T' });
    assert.deepEqual(ex.skipped, ['"; rm -rf / #']);
    assert.deepEqual(ex.doc.decisions.map((d) => JSON.stringify(d.body)), ['{"action":"approve","note":null}', `{"action":"reject","note":"it's PII; $(rm -rf /) \`x\`"}`]);
    const line = ex.curl.split('\n').find((l) => l.includes(U2));
    // The shell hands curl exactly the JSON body.
    const body = line.slice(line.indexOf('--data-raw ') + 11);
    assert.equal(execFileSync('sh', ['-c', `printf %s ${body}`]).toString(), JSON.stringify(ex.doc.decisions[1].body));
    assert.equal(shellQuote("a'b"), "'a'\\''b'");
  });
});

describe('resolve', () => {
  it('classifies every resolve answer (the live tests send real ones)', () => {
    assert.deepEqual(classifyResolve(200, `{"status":"approved","pending_id":"${U1}","memory_id":"${U2}"}`), { outcome: 'approved', status: 200, memory_id: U2 });
    assert.deepEqual(classifyResolve(200, `{"status":"rejected","pending_id":"${U1}"}`), { outcome: 'rejected', status: 200 });
    assert.deepEqual(classifyResolve(409, '{"detail":"Already resolved"}'), { outcome: 'conflict', status: 409, detail: 'Already resolved (HTTP 409 Conflict): someone else, or an earlier submit, decided it. The server says: “Already resolved”.' });
    assert.equal(classifyResolve(401, '{"detail":"Invalid API key"}').outcome, 'unauthorized');
    assert.equal(classifyResolve(403, '{"detail":"admin scope required"}').outcome, 'forbidden');
    assert.equal(classifyResolve(404, 'x').outcome, 'not_found');
    assert.equal(classifyResolve(500, '<html>').detail, 'The server failed (HTTP 500 Internal Server Error): try again later, or look at the server\'s log.', 'never raw HTML');
    assert.equal(classifyResolve(200, '{"status":"weird"}').outcome, 'http_error');
  });
  it('submitDecisions: at most `concurrency` in flight, every entry once, results in the entries\' order; a hung request times out', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(8, '0')}-1111-4111-8111-111111111111`);
    const entries = ids.map((id, i) => ({ pending_id: id, body: { action: i % 2 ? 'reject' : 'approve', note: null } }));
    let now = 0;
    let max = 0;
    const seen = [];
    const fetchImpl = async (url, init) => {
      now++; max = Math.max(max, now);
      seen.push(String(url).split('/')[5]);
      await new Promise((r) => setTimeout(r, 5 + (seen.length * 7) % 13)); // answers out of order
      now--;
      const { action } = JSON.parse(init.body);
      return { status: 200, statusText: 'OK', text: async () => JSON.stringify({ status: action === 'approve' ? 'approved' : 'rejected', memory_id: null }) };
    };
    const order = [];
    const out = await submitDecisions(entries, { base: 'http://127.0.0.1:9', key: 'k', fetchImpl, concurrency: 6, onOutcome: (e, r, done, k) => order.push([k, done]) });
    assert.equal(max, 6);
    assert.deepEqual([...seen].sort(), [...ids].sort());
    assert.deepEqual(out.map((x) => x.entry.pending_id), ids);
    assert.deepEqual(out.map((x) => x.result.outcome), ids.map((_, i) => (i % 2 ? 'rejected' : 'approved')));
    assert.deepEqual(order.map(([, d]) => d), ids.map((_, i) => i + 1));
    const keep = setTimeout(() => {}, 5000); // Node's AbortSignal.timeout timer does not hold the event loop
    const hung = await submitDecisions(entries.slice(0, 2), { base: 'http://127.0.0.1:9', key: 'k', timeoutMs: 50, fetchImpl: (u, init) => new Promise((_, rej) => init.signal.addEventListener('abort', () => rej(init.signal.reason))) });
    assert.deepEqual(hung.map((x) => x.result.outcome), ['timeout', 'timeout']);
    clearTimeout(keep);
  });
  it('builds the resolve URL for UUIDs and http(s) bases only', () => {
    assert.equal(resolveUrl('http://127.0.0.1:9/base', U1).href, `http://127.0.0.1:9/base/v1/admissions/${U1}/resolve`);
    assert.equal(resolveUrl('https://l.example/', U1).href, `https://l.example/v1/admissions/${U1}/resolve`);
    assert.throws(() => resolveUrl('javascript:alert(1)', U1), /http\(s\)/);
    assert.throws(() => resolveUrl('https://l.example/', '../../x'), /not a UUID/);
  });
});

describe('serve.mjs', () => {
  it('rejects a bad PORT and a bad LIANS_API_URL', () => {
    const run = (env) => {
      try { execFileSync(process.execPath, [join(REPO, 'scripts', 'serve.mjs')], { env: { ...process.env, ...env }, stdio: 'pipe', timeout: 5000 }); return 0; } catch (e) { return e.status; }
    };
    assert.equal(run({ PORT: 'eighty' }), 2);
    assert.equal(run({ PORT: '0', LIANS_API_URL: 'javascript:alert(1)' }), 2);
  });
});

describe('triage helpers (issue 21)', () => {
  const row = (id, extra = {}) => ({ id, tags: [], status: 'pending', searchText: '', ...extra });
  it('filterRows reads decisions from the page map', () => {
    const rows = [row('a'), row('b'), row('c')];
    const decisions = new Map([['a', 'approve'], ['b', 'reject']]);
    const ids = (d) => filterRows(rows, { decision: d, decisions }).map((r) => r.id);
    assert.deepEqual(ids('approve'), ['a']);
    assert.deepEqual(ids('reject'), ['b']);
    assert.deepEqual(ids('undecided'), ['c']);
  });
  it('riskRank: injection and blocked sources first, untagged last', () => {
    assert.ok(riskRank(['injection']) < riskRank(['mnpi']));
    assert.ok(riskRank(['mnpi']) < riskRank(['phi:mrn']));
    assert.ok(riskRank(['phi:npi']) < riskRank(['pii:ssn']));
    assert.ok(riskRank(['pii:email', 'mnpi']) === riskRank(['mnpi']));
    assert.ok(riskRank([]) > riskRank(['vague']));
  });
  it('heldSentence says what was found and what approving does', () => {
    assert.equal(heldSentence(['pii:ssn'], { final_score: 0.7675, eligible: true }), 'Held for an SSN. If approved: 0.7675, eligible for recall.');
    assert.equal(heldSentence(['pii:email', 'pii:credit_card', 'mnpi'], { final_score: 1, eligible: true }),
      'Held for an email address, a card number and material non-public information. If approved: 1.0, eligible for recall.');
    assert.match(heldSentence(['injection'], { final_score: 0, eligible: false, safety_eligible: false, reasons: ['', '', '', '', '', '', 'unsafe or quarantined'] }),
      /^Held for a prompt-injection phrase\. If approved: 0\.0, still not recallable \(zeroed by the safety gate: unsafe or quarantined\)\.$/);
    assert.equal(heldSentence(['x:new'], null, { scoring: true }), 'Held for the risk tag x:new. If approved: re-scoring….');
    assert.equal(heldSentence(['pii:ssn'], null, { status: 'approved' }), 'Held for an SSN. Already approved: read-only.');
  });
  it('markRuns cuts exact runs; overlaps carry both tags; malformed spans are dropped', () => {
    const c = 'SSN 078-05-1120, mail a@b.co';
    const spans = [{ tag: 'pii:ssn', start: 4, end: 15, text: '078-05-1120' }, { tag: 'pii:email', start: 22, end: 28, text: 'a@b.co' }];
    const runs = markRuns(c, spans);
    assert.equal(runs.map((r) => r.text).join(''), c);
    assert.deepEqual(runs.filter((r) => r.tags.length).map((r) => [r.tags, r.text]), [[['pii:ssn'], '078-05-1120'], [['pii:email'], 'a@b.co']]);
    const over = markRuns('abcdef', [{ tag: 'x', start: 0, end: 4, text: 'abcd' }, { tag: 'y', start: 2, end: 6, text: 'cdef' }]);
    assert.deepEqual(over, [{ text: 'ab', tags: ['x'] }, { text: 'cd', tags: ['x', 'y'] }, { text: 'ef', tags: ['y'] }]);
    for (const bad of [{ tag: 'x', start: 0, end: 3, text: 'zzz' }, { tag: 'x', start: -1, end: 2, text: 'ab' }, { tag: 'x', start: 2, end: 99, text: 'c' }, { tag: 'x', start: 1.5, end: 2, text: 'b' }, null]) {
      assert.deepEqual(markRuns('abcdef', [bad]), [{ text: 'abcdef', tags: [] }]);
    }
    assert.deepEqual(markRuns('😀x', [{ tag: 't', start: 0, end: 2, text: '😀' }]), [{ text: '😀', tags: ['t'] }, { text: 'x', tags: [] }]);
  });
  it('snippetOf is one short line', () => {
    assert.equal(snippetOf('a\n  b'), 'a b');
    assert.equal(snippetOf('x'.repeat(100), 10), `${'x'.repeat(10)}…`);
    assert.equal(snippetOf(null), '');
  });
  it('saved work: per origin and namespace, ids/actions/notes only, validated on the way back', () => {
    const store = new Map();
    const s = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
    const k = scopeKey('https://lians.example.com', 'ns-1');
    assert.notEqual(k, scopeKey('https://lians.example.com', 'ns-2'));
    assert.notEqual(k, scopeKey('https://other.example.com', 'ns-1'));
    assert.ok(writeSaved(s, k, new Map([[U1, { action: 'approve', note: 'ok' }], [U2, { action: null, note: '' }]])));
    assert.deepEqual(JSON.parse(store.get(k)), { v: 1, decisions: { [U1]: { action: 'approve', note: 'ok' } } });
    assert.deepEqual([...readSaved(s, k)], [[U1, { action: 'approve', note: 'ok' }]]);
    store.set(k, JSON.stringify({ v: 1, decisions: { [U1]: { action: 'delete-everything', note: 7 }, [U2]: { action: 'reject' }, x: 'nope' } }));
    assert.deepEqual([...readSaved(s, k)], [[U2, { action: 'reject', note: '' }]]);
    for (const junk of ['{', 'null', '[]', '{"v":2,"decisions":{}}']) { store.set(k, junk); assert.equal(readSaved(s, k).size, 0); }
    assert.ok(writeSaved(s, k, new Map()));
    assert.equal(store.has(k), false);
    assert.equal(writeSaved({ setItem: () => { throw new Error('quota'); }, removeItem() {} }, k, new Map([[U1, { action: 'reject' }]])), false);
    assert.equal(namespaceOf([{ namespace: 'a' }, { namespace: 'a' }]), 'a');
    assert.equal(namespaceOf([{ namespace: 'a' }, { namespace: 'b' }]), '*');
    assert.equal(namespaceOf([]), '');
  });
});

describe('www/ module structure (the rule in www/state.js)', () => {
  const WWW = join(REPO, 'www');
  const source = (f) => readFileSync(join(WWW, f), 'utf8');
  // The views the rule names, read from state.js's own comment, so the test follows the rule as written.
  const head = source('state.js').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(2)).join(' ');
  const views = new Set(/Every view \(([^)]*)\)/.exec(head)[1].split(/[\s,]+/).filter((x) => x.endsWith('.js')));
  const imports = (f) => [...source(f).matchAll(/^\s*import\s[^'"]*['"]\.\/([\w-]+\.js)['"]/gm)].map((m) => m[1]);

  it('names every module, each a view, a helper, the entry (app.js) or the worker', () => {
    const helpers = new Set(/the\s+helpers \(([^)]*)\)/.exec(head)[1].split(/[\s,]+/).filter((x) => x.endsWith('.js')));
    const all = readdirSync(WWW).filter((f) => f.endsWith('.js'));
    const extra = ['app.js', 'state.js', 'worker.js', 'warmup.js'];
    assert.deepEqual(all.filter((f) => !views.has(f) && !helpers.has(f) && !extra.includes(f)), [], 'a module state.js does not name');
    assert.equal(views.size, 11);
  });

  it('no module but app.js imports a view; app.js wires every ui entry point', () => {
    for (const f of readdirSync(WWW).filter((x) => x.endsWith('.js') && x !== 'app.js')) {
      assert.deepEqual(imports(f).filter((m) => views.has(m)), [], `${f} imports a view`);
    }
    const declared = [...source('state.js').matchAll(/^ {2}(\w+): (?:noop|\(\) => |async \(\) =>)/gm)].map((m) => m[1]);
    const wiring = source('app.js').slice(source('app.js').indexOf('const wiring = {'));
    assert.ok(declared.length >= 15);
    for (const k of declared) assert.match(wiring, new RegExp(`^ {2}${k}: \\w+\\.\\w+,$`, 'm'), `app.js wires ui.${k}`);
    for (const f of views) assert.ok(imports('app.js').includes(f), `app.js imports ${f}`);
  });

  it('no stale document reference in www/', () => {
    for (const f of readdirSync(WWW).filter((x) => /\.(js|css|html)$/.test(x))) {
      for (const m of source(f).matchAll(/\b((?:docs|tests|scripts|bench|js|src)\/[\w./-]+\.(?:md|mjs|js|rs|sh|json))\b/g)) {
        assert.ok(existsSync(join(REPO, m[1])), `${f} cites ${m[1]}, which does not exist`);
      }
    }
  });
});
