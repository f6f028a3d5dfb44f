#!/usr/bin/env node
// Record exchange logs of a real Lians server (PyPI lians-sdk==0.5.0) for the
// consistency ledger's fixtures (tests/data/ledger/, docs/ledger.md).
//
//   node scripts/ledger/record.mjs [--out DIR]     # default tests/data/ledger
//
// Writes:
//   honest.jsonl   one honest sequence (three clients: two API keys on one
//                  namespace, one on another) through every write path of
//                  ../shared/spec/consistency-ledger.md, with the same reads
//                  after every phase. The ledger must raise no alarm on it.
//   lie-db-*.jsonl the server's SQLite rows edited by hand between two reads
//                  (stop the server, edit the row, start it, read again): the
//                  reads after the edit, to replay after honest.jsonl.
//   lie-log-*.jsonl lies told in the log itself (times, an Idempotency-Key
//                  answer, a certificate, a write answer, a client label):
//                  each line either `"replaces": N` (line N of honest.jsonl)
//                  or follows honest.jsonl.
//   lies.json      each lie file's expected invariants (exactly these alarm).
// One exchange a line: { client, t_sent, t_recv, request: { method, url, body,
// headers? }, response: { status, body } }, bodies as raw text. API keys and
// the admin secret are never written (request headers keep only
// Idempotency-Key; a key-creation answer's "key" is replaced by "<redacted>").
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO, liansAvailable, startLians } from '../../tests/live/server.mjs';

const iso = (ms = Date.now()) => new Date(ms).toISOString().replace('Z', '+00:00');
const DAY = 86_400_000;

/** An exchange log over one running server. */
export class Recorder {
  constructor(lians) {
    this.lians = lians;
    this.log = [];
    this.keys = new Map(); // client → API key (never logged)
  }

  async x(client, method, path, { body, headers = {}, admin = false, keep = true } = {}) {
    const h = { ...headers };
    if (admin) h['X-Admin-Secret'] = this.lians.adminSecret;
    else if (this.keys.has(client)) h['X-API-Key'] = this.keys.get(client);
    const payload = body === undefined ? null : JSON.stringify(body);
    if (payload !== null) h['Content-Type'] = 'application/json';
    const t_sent = iso();
    const res = await fetch(this.lians.url + path, { method, headers: h, body: payload ?? undefined });
    let text = await res.text();
    const t_recv = iso();
    let json;
    try { json = JSON.parse(text); } catch { json = undefined; }
    if (path === '/v1/admin/api-keys' && res.status === 201 && json?.key) {
      this.keys.set(body.client_name, json.key);
      text = text.replace(JSON.stringify(json.key), '"<redacted>"');
    }
    const request = { method, url: this.lians.url + path, body: payload };
    const idem = headers['Idempotency-Key'];
    if (idem !== undefined) request.headers = { 'idempotency-key': idem };
    if (keep) this.log.push({ client, t_sent, t_recv, request, response: { status: res.status, body: text } });
    return { status: res.status, text, json };
  }

  async makeKey(client, namespace) {
    // client_name is not a field of the API: it is dropped before sending.
    const body = { namespace, scopes: ['read', 'write', 'admin'] };
    const t_sent = iso();
    const res = await fetch(`${this.lians.url}/v1/admin/api-keys`, {
      method: 'POST', headers: { 'X-Admin-Secret': this.lians.adminSecret, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    const text = await res.text();
    const t_recv = iso();
    if (res.status !== 201) throw new Error(`key creation: ${res.status} ${text}`);
    const json = JSON.parse(text);
    this.keys.set(client, json.key);
    this.log.push({ client: 'admin', t_sent, t_recv, request: { method: 'POST', url: `${this.lians.url}/v1/admin/api-keys`, body: JSON.stringify(body) },
      response: { status: 201, body: text.replace(JSON.stringify(json.key), '"<redacted>"') } });
  }

  async write(client, fields, headers) {
    const r = await this.x(client, 'POST', '/v1/memories', { body: { agent_id: AGENT, ...fields }, headers });
    if (r.status !== 200) throw new Error(`write ${JSON.stringify(fields.content)}: ${r.status} ${r.text}`);
    return r.json;
  }

  save(file, from = 0) {
    writeFileSync(file, this.log.slice(from).map((e) => JSON.stringify(e)).join('\n') + '\n');
    return this.log.length - from;
  }
}

export const AGENT = 'ops';
const QUERIES = ['ACME revenue guidance', 'warehouse lease Rotterdam', 'customer seven contract terms'];

/** The same reads after every phase, for each client. */
async function reads(rec, clients, asOf) {
  for (const c of clients) {
    const q = QUERIES[clients.indexOf(c) % QUERIES.length];
    await rec.x(c, 'POST', '/v1/recall', { body: { agent_id: AGENT, query: q, k: 8 } });
    await rec.x(c, 'POST', '/v1/recall', { body: { agent_id: AGENT, query: q, k: 8 } });
    await rec.x(c, 'POST', '/v1/recall', { body: { agent_id: AGENT, query: q, k: 8, as_of: asOf } });
    await rec.x(c, 'POST', '/v1/recall', { body: { agent_id: AGENT, query: QUERIES[2], k: 6, mode: 'deep' } });
    await rec.x(c, 'POST', '/v1/recall', { body: { agent_id: AGENT, query: QUERIES[1], k: 6, include_context: true } });
    await rec.x(c, 'POST', '/v1/context', { body: { agent_id: AGENT, query: QUERIES[0] } });
  }
}

/** The honest scenario; returns the ids it wrote, by role. */
export async function honest(rec, hooks = {}) {
  const now = Date.now();
  const at = (days, h = 9) => new Date(Math.floor((now - days * DAY) / DAY) * DAY + h * 3_600_000).toISOString().replace('.000Z', '+00:00');
  const ids = {};
  await rec.makeKey('a1', 'ledger-ns-a');
  await rec.makeKey('a2', 'ledger-ns-a');
  await rec.makeKey('b1', 'ledger-ns-b');
  const all = ['a1', 'a2', 'b1'];

  // Phase 1: plain and keyed writes, two keys on one namespace, two namespaces, an Idempotency-Key replay, +02:00.
  const facts = [
    'ACME warehouse lease in Rotterdam extended to week 14: 320 pallets, owner team ops-4',
    'BOLT carrier contract in Osaka renegotiated to week 9: 12 trucks, owner team north-2',
    'CRUX pallet audit in Lyon approved for week 22: 41 containers, owner team infra-7',
    'DYNA cold-chain sensor rollout in Denver paused at week 30: 90 sensors, owner team south-1',
  ];
  for (const [i, content] of facts.entries()) ids[`a1-${i}`] = (await rec.write('a1', { content, event_time: at(20 - i), source: 'ops-log' })).id;
  ids.keyed1 = (await rec.write('a1', { content: 'ACME revenue guidance for 2027 is 10M USD.', event_time: at(10), source: 'finance', metadata: { ticker: 'ACME', metric: 'revenue_guidance' } })).id;
  ids.idem = (await rec.write('a1', { content: 'EMBR forklift fleet renewal in Pune starts week 18 with 6 trucks.', event_time: at(8) }, { 'Idempotency-Key': 'ledger-idem-1' })).id;
  await rec.write('a1', { content: 'EMBR forklift fleet renewal in Pune starts week 18 with 6 trucks.', event_time: at(8) }, { 'Idempotency-Key': 'ledger-idem-1' });
  ids.offset = (await rec.write('a2', { content: 'FLUX loading dock redesign in Valencia signed off on week 12 by the facilities team.', event_time: at(6, 16).replace('+00:00', '+02:00'), source: 'facilities' })).id;
  ids.a2 = (await rec.write('a2', { content: 'GLYPH customs broker review in Gdansk moved to week 40: 3 brokers shortlisted.', event_time: at(5) })).id;
  ids.subj1 = (await rec.write('a1', { content: 'Customer seven contract terms: net 45 payment, renewal in March 2027.', event_time: at(4), subject_id: 'cust-7' })).id;
  ids.subj2 = (await rec.write('a1', { content: 'Customer seven prefers the Porto rail freight pilot for Q2 deliveries.', event_time: at(3), subject_id: 'cust-7' })).id;
  for (const [i, content] of [facts[0], 'HALO rail freight pilot in Porto expanded to week 26: 14 containers, owner team ops-9',
    'ACME revenue guidance for 2027 was raised in the board deck of week 47.'].entries()) {
    ids[`b1-${i}`] = (await rec.write('b1', { content, event_time: at(12 - i) })).id;
  }
  ids.future = (await rec.write('a2', { content: 'CRUX pallet audit in Lyon is scheduled to close in week 3 of 2027.', event_time: at(-20) })).id;
  const asOf = at(9, 12);
  await reads(rec, all, asOf);

  // Phase 2: a backdated write, a retroactive supersession and its reject.
  ids.backdated = (await rec.write('a1', { content: 'ACME revenue guidance for 2027 is 9M USD.', event_time: at(15), source: 'finance', metadata: { ticker: 'ACME', metric: 'revenue_guidance' } })).id;
  ids.keyed2 = (await rec.write('a1', { content: 'ACME revenue guidance for 2027 is 12M USD.', event_time: at(2), source: 'finance', metadata: { ticker: 'ACME', metric: 'revenue_guidance' } })).id;
  await rec.x('a1', 'GET', '/v1/supersessions/review');
  await reads(rec, all, asOf);
  await rec.x('a1', 'PATCH', `/v1/supersessions/${ids.keyed1}`, { body: { action: 'reject', reviewer_note: 'the 12M figure is a draft' } });
  await reads(rec, ['a1', 'a2'], asOf);

  // Phase 3: feedback, a review replace, a review retire of a future-dated memory, lineage.
  await rec.x('a1', 'POST', `/v1/memories/${ids['a1-1']}/feedback`, { body: { agent_id: AGENT, signal: 'helpful', query: QUERIES[1] } });
  await rec.x('a2', 'POST', `/v1/memories/${ids['a1-2']}/feedback`, { body: { agent_id: AGENT, signal: 'outdated' } });
  await rec.x('a1', 'POST', `/v1/memories/${ids['a1-3']}/feedback`, { body: { agent_id: AGENT, signal: 'incorrect', note: 'the rollout resumed' } });
  await rec.x('a2', 'POST', `/v1/memories/${ids.future}/feedback`, { body: { agent_id: AGENT, signal: 'outdated' } });
  await rec.x('a1', 'POST', `/v1/memories/${ids['a1-3']}/review`, { body: { agent_id: AGENT, action: 'replace', reviewer: 'qa', correction: 'DYNA cold-chain sensor rollout in Denver resumed at week 31: 95 sensors, owner team south-1' } });
  await rec.x('a2', 'POST', `/v1/memories/${ids.future}/review`, { body: { agent_id: AGENT, action: 'retire', reviewer: 'qa', note: 'cancelled' } });
  await rec.x('a1', 'GET', `/v1/memories/${ids.keyed1}/lineage?agent_id=${AGENT}`);
  await reads(rec, all, asOf);

  // Phase 4: a conflict (same key, same time, two values), read while open, then resolved.
  await rec.write('a1', { content: 'BOLT gross margin for Q4 2026 is 31 percent.', event_time: at(1), source: 'analyst_a', metadata: { ticker: 'BOLT', metric: 'gross_margin' } });
  await rec.write('a2', { content: 'BOLT gross margin for Q4 2026 is 29 percent.', event_time: at(1), source: 'analyst_b', metadata: { ticker: 'BOLT', metric: 'gross_margin' } });
  await rec.x('a1', 'POST', '/v1/context', { body: { agent_id: AGENT, query: 'BOLT gross margin' } });
  const conflicts = await rec.x('a1', 'GET', '/v1/conflicts');
  for (const c of (conflicts.json?.conflicts ?? conflicts.json?.items ?? []).slice(0, 1)) {
    await rec.x('a1', 'POST', `/v1/conflicts/${c.id}/resolve`, { body: { resolution: 'accept_a', note: 'analyst a is the source of record' } });
  }
  await reads(rec, ['a1', 'a2'], asOf);

  // Phase 5: erasure with its certificate, then re-ingestion of the erased text.
  hooks.beforeErase?.();
  await rec.x('a1', 'POST', '/v1/erase', { body: { subject_id: 'cust-7', request_ref: 'dsr-ledger-1' } });
  await rec.x('a1', 'GET', '/v1/erase/cust-7/certificate');
  await reads(rec, ['a1', 'a2'], asOf);
  ids.reingested = (await rec.write('a1', { content: 'Customer seven contract terms: net 45 payment, renewal in March 2027.', event_time: at(4) })).id;
  await reads(rec, ['a1', 'a2'], asOf);

  // Phase 6: a legal hold refuses a prune; a prune of the other namespace.
  await rec.x('admin', 'PUT', '/v1/admin/retention/ledger-ns-a', { admin: true, body: { content_ttl_days: 0, legal_hold: true } });
  await rec.x('admin', 'POST', '/v1/admin/retention/ledger-ns-a/prune', { admin: true });
  hooks.beforePrune?.();
  await rec.x('admin', 'PUT', '/v1/admin/retention/ledger-ns-b', { admin: true, body: { content_ttl_days: 0, legal_hold: false } });
  await rec.x('admin', 'POST', '/v1/admin/retention/ledger-ns-b/prune', { admin: true });
  await reads(rec, all, asOf);
  ids.afterPrune = (await rec.write('b1', { content: 'HALO rail freight pilot in Porto closed at week 27 with 15 containers.', event_time: at(0, 1) })).id;
  await reads(rec, ['b1'], asOf);
  return { ids, asOf };
}

const PY = () => join(REPO, '.lians-venv', 'bin', 'python');

/** Run SQL on a stopped server's database (the statements are this file's own; ids are hex). */
function sqlite(dbPath, script) {
  const code = 'import sqlite3,sys\nc=sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.commit()';
  const r = spawnSync(PY(), ['-c', code, dbPath, script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sqlite edit failed: ${r.stderr}`);
}

/** A consistent copy of a running server's database (SQLite's online backup). */
function snapshot(dbPath, to) {
  const code = 'import sqlite3,sys\ns=sqlite3.connect(sys.argv[1])\nd=sqlite3.connect(sys.argv[2])\ns.backup(d)\nd.close()';
  const r = spawnSync(PY(), ['-c', code, dbPath, to], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`snapshot failed: ${r.stderr}`);
}

const hex = (id) => id.replaceAll('-', '');

/** The row edits of lie-db-*.jsonl: [name, expected invariants, edit(db, ids, dataDir)]. */
export const DB_LIES = [
  ['content-source', ['I1', 'I3'], (db, ids) => sqlite(db, `
    UPDATE memories SET content_encrypted = (SELECT content_encrypted FROM memories WHERE id = '${hex(ids['a1-1'])}'),
      content_hash = (SELECT content_hash FROM memories WHERE id = '${hex(ids['a1-1'])}'), source = 'board-deck'
    WHERE id = '${hex(ids['a1-0'])}';`)],
  ['event-time', ['I2'], (db, ids) => sqlite(db, `
    UPDATE memories SET event_time = datetime(event_time, '-3 days'), valid_from = datetime(valid_from, '-3 days')
    WHERE id = '${hex(ids['a1-0'])}';`)],
  ['ingestion-time', ['I4'], (db, ids) => sqlite(db, `
    UPDATE memories SET ingestion_time = datetime(ingestion_time, '-1 hours') WHERE id = '${hex(ids['a1-2'])}';`)],
  ['valid-from', ['I5'], (db, ids) => sqlite(db, `
    UPDATE memories SET valid_from = datetime(valid_from, '-1 days') WHERE id = '${hex(ids['a1-1'])}';`)],
  ['closed-before-start', ['I12'], (db, ids) => sqlite(db, `
    UPDATE memories SET valid_to = datetime(valid_from, '-1 days') WHERE id = '${hex(ids.keyed1)}';`)],
  ['restored-erasure', ['I9'], (db, ids, dir) => sqlite(db, `
    ATTACH '${join(dir, 'before-erase.db')}' AS snap;
    UPDATE memories SET (content_encrypted, embedding, metadata, erased_at) =
      (SELECT content_encrypted, embedding, metadata, erased_at FROM snap.memories WHERE id = '${hex(ids.subj1)}')
    WHERE id = '${hex(ids.subj1)}';
    UPDATE subject_keys SET enc_key = (SELECT enc_key FROM snap.subject_keys s WHERE s.namespace = subject_keys.namespace AND s.subject_id = subject_keys.subject_id)
    WHERE subject_id = 'cust-7';`)],
  ['restored-prune', ['I10'], (db, ids, dir) => sqlite(db, `
    ATTACH '${join(dir, 'before-prune.db')}' AS snap;
    UPDATE memories SET (content_encrypted, embedding, metadata, erased_at) =
      (SELECT content_encrypted, embedding, metadata, erased_at FROM snap.memories s WHERE s.id = memories.id)
    WHERE namespace = 'ledger-ns-b' AND id IN (SELECT id FROM snap.memories);`)],
];

const shift = (t, ms) => iso(Date.parse(t) + ms);
const isWrite = (e) => e.request.method === 'POST' && e.request.url.endsWith('/v1/memories') && e.response.status === 200;

/** Lies told in the log itself (no receipt to break): [name, expected invariants, lines]. */
export function syntheticLies(log) {
  const out = [];
  const copy = () => log.map((e) => structuredClone(e));
  // I15: a present-time answer replayed ten minutes after it was made.
  {
    const lines = copy();
    const i = lines.findIndex((e) => e.request.url.endsWith('/v1/recall') && !JSON.parse(e.request.body).as_of);
    const last = lines[lines.length - 1];
    lines.push({ ...structuredClone(lines[i]), t_sent: shift(last.t_recv, 600_000), t_recv: shift(last.t_recv, 600_100) });
    out.push(['replayed-answer', ['I15', 'I9'], lines]); // it also returns memories erased since
  }
  // I13: the same Idempotency-Key answered with another memory.
  {
    const lines = copy();
    const idem = lines.filter((e) => e.request.headers?.['idempotency-key']);
    const other = lines.find((e) => isWrite(e) && !e.request.headers && JSON.parse(e.response.body).id !== JSON.parse(idem[0].response.body).id);
    idem[1].response = structuredClone(other.response);
    out.push(['idempotency', ['I13', 'I1b'], lines]); // the other memory's hash is not the content sent
  }
  // I14: an erasure certificate that leaves out a content hash the client saw.
  {
    const lines = copy();
    const cert = lines.find((e) => /\/v1\/erase\/.+\/certificate$/.test(e.request.url));
    const body = JSON.parse(cert.response.body);
    const dropped = body.content_hashes.shift();
    cert.response.body = cert.response.body.replace(`"${dropped}",`, '').replace(`,"${dropped}"`, '').replace(`"${dropped}"`, '');
    out.push(['certificate', ['I14'], lines]);
  }
  // I7: a write whose ingestion time is an hour before the request was sent.
  {
    const lines = copy();
    const w = lines.find(isWrite);
    w.t_sent = shift(w.t_sent, 3_600_000);
    w.t_recv = shift(w.t_recv, 3_600_000);
    out.push(['write-window', ['I7'], lines]);
  }
  // I1b (then I1): a write answered with a content hash that is not its content's.
  {
    const lines = copy();
    const w = lines.find(isWrite);
    const h = JSON.parse(w.response.body).content_hash;
    w.response.body = w.response.body.replaceAll(h, h.slice(0, 63) + (h[63] === '0' ? '1' : '0'));
    out.push(['write-hash', ['I1', 'I1b'], lines]);
  }
  // I6: a client of one namespace answered with memories of another.
  {
    const lines = copy();
    const b = lines.filter((e) => e.client === 'b1' && e.request.url.endsWith('/v1/recall') && JSON.parse(e.response.body).memories.length > 0).pop();
    const last = lines[lines.length - 1];
    lines.push({ ...structuredClone(b), client: 'a1', t_sent: shift(last.t_recv, 10), t_recv: shift(last.t_recv, 20) });
    out.push(['other-namespace', ['I6'], lines]);
  }
  return out;
}

/**
 * A lie file holds only what differs from honest.jsonl: an exchange with
 * `"replaces": N` stands for line N of honest.jsonl; the others follow its
 * last line (tests/js/ledger-fixtures.mjs assembles them).
 */
function lieLines(honestLog, lines) {
  const out = [];
  for (const [i, e] of lines.entries()) {
    if (i < honestLog.length) {
      if (JSON.stringify(e) !== JSON.stringify(honestLog[i])) out.push(JSON.stringify({ replaces: i + 1, ...e }));
    } else out.push(JSON.stringify(e));
  }
  return out.join('\n') + '\n';
}

async function main() {
  const args = process.argv.slice(2);
  const outDir = args[0] === '--out' ? args[1] : join(REPO, 'tests', 'data', 'ledger');
  mkdirSync(outDir, { recursive: true });
  const avail = await liansAvailable();
  if (avail.skip) throw new Error(avail.skip);

  const data = mkdtempSync(join(tmpdir(), 'lians-ledger-rec-'));
  try {
    let lians = await startLians({ dataDir: data });
    const rec = new Recorder(lians);
    const { ids, asOf } = await honest(rec, {
      beforeErase: () => snapshot(lians.dbPath, join(data, 'before-erase.db')),
      beforePrune: () => snapshot(lians.dbPath, join(data, 'before-prune.db')),
    });
    const n = rec.save(join(outDir, 'honest.jsonl'));
    process.stderr.write(`record: honest.jsonl: ${n} exchanges\n`);
    writeFileSync(join(outDir, 'honest-ids.json'), JSON.stringify({ ids, asOf }, null, 2) + '\n');
    const keys = rec.keys;
    const manifest = {};
    for (const [name, expect, lines] of syntheticLies(rec.log)) {
      writeFileSync(join(outDir, `lie-log-${name}.jsonl`), lieLines(rec.log, lines));
      manifest[`lie-log-${name}.jsonl`] = expect;
    }
    await lians.stop();

    // The database lies: edit one row with the server stopped, start it, read again.
    for (const [name, expect, edit] of DB_LIES) {
      const copy = mkdtempSync(join(tmpdir(), 'lians-ledger-lie-'));
      spawnSync('cp', ['-a', `${data}/.`, copy]);
      edit(join(copy, 'lians.db'), ids, copy);
      lians = await startLians({ dataDir: copy });
      const liar = new Recorder(lians);
      liar.keys = keys;
      await reads(liar, name === 'restored-prune' ? ['b1'] : ['a1', 'a2'], asOf);
      if (name === 'restored-erasure') await liar.x('a1', 'POST', '/v1/recall', { body: { agent_id: AGENT, query: 'Customer seven contract terms net 45 payment', k: 8 } });
      await liar.x('a1', 'GET', `/v1/memories/${ids.keyed1}/lineage?agent_id=${AGENT}`);
      await lians.stop();
      rmSync(copy, { recursive: true, force: true });
      // The lie file: the honest log (against the old url) then the reads after the edit.
      writeFileSync(join(outDir, `lie-db-${name}.jsonl`), lieLines(rec.log, [...rec.log, ...liar.log]));
      process.stderr.write(`record: lie-db-${name}.jsonl (expects ${expect.join(', ')})\n`);
      manifest[`lie-db-${name}.jsonl`] = expect;
    }
    writeFileSync(join(outDir, 'lies.json'), JSON.stringify(manifest, null, 2) + '\n');
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => { console.error(e); process.exit(1); });
}
