#!/usr/bin/env node
// Capture raw response bodies of a real Lians server, with fresh random
// content every run (the seed is printed; LIANS_LIVE_SEED or --seed replays
// the same content, though ids and times always differ).
//
//   node tests/live/capture.mjs [--out DIR] [--seed N]   # starts its own server
//   import { captureLive } from './capture.mjs';          // with a running one
//   const manifest = await captureLive(lians, { outDir, seed });
//
// Writes into outDir (default test-output/live/):
//   recall-<kind>.json      POST /v1/recall bodies, byte for byte: fast, deep,
//                           reconstruct, as_of, filters, include_context, mmr
//                           (filters._rerank), near_entity (filters._near_entity),
//                           adaptive, envelope (bound to the decision envelope)
//   context-<kind>.json     POST /v1/context bodies: default (deep, adaptive), fast-mmr
//   pack-v2.json            GET /v1/decisions/{id}/evidence-pack?version=v2, signed
//   public_key.b64          the server's Ed25519 public key (base64 of 32 raw bytes)
//   capture.json            the manifest: {seed, url, key_id, public_key_b64,
//                           agent_id, memories: [{id, content, metadata}], items:
//                           [{name, kind: recall|context|pack, file, method, path,
//                           request, status, query, memory_count}]}
// Bodies are the raw response text; nothing is re-serialized.
import { randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from './server.mjs';

export const DEFAULT_OUT = join(REPO, 'test-output', 'live');

/** A small seeded PRNG (mulberry32): the same seed gives the same content. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  return { next, int, pick };
}

/** A fresh seed (or LIANS_LIVE_SEED), printed so a failing run can be replayed. */
export function liveSeed(label = 'live') {
  const env = process.env.LIANS_LIVE_SEED;
  const seed = env !== undefined && env !== '' ? Number(env) >>> 0 : randomInt(0, 2 ** 32 - 1);
  process.stderr.write(`${label}: seed ${seed} (replay with LIANS_LIVE_SEED=${seed})\n`);
  return seed;
}

const TICKERS = ['ACME', 'BOLT', 'CRUX', 'DYNA', 'EMBR', 'FLUX', 'GLYPH', 'HALO'];
const TOPICS = ['supply', 'logistics', 'pricing', 'hiring', 'roadmap', 'facilities'];
const PLACES = ['Rotterdam', 'Osaka', 'Lyon', 'Denver', 'Pune', 'Valencia', 'Gdansk', 'Porto'];
const THINGS = ['warehouse lease', 'carrier contract', 'pallet audit', 'cold-chain sensor rollout',
  'forklift fleet renewal', 'loading dock redesign', 'customs broker review', 'rail freight pilot'];
const VERBS = ['moved', 'extended', 'paused', 'approved', 'rescheduled', 'expanded', 'renegotiated'];
const UNITS = ['pallets', 'containers', 'sensors', 'trucks', 'shifts'];

/** Specific, non-sensitive facts (stored, not held): a ticker, a topic, a place, numbers. */
export function randomFacts(r, n) {
  const facts = [];
  for (let i = 0; i < n; i++) {
    const ticker = TICKERS[i % TICKERS.length];
    const topic = r.pick(TOPICS);
    const place = r.pick(PLACES);
    const thing = r.pick(THINGS);
    const qty = r.int(2, 900);
    const week = r.int(1, 52);
    const content = `${ticker} ${thing} in ${place} ${r.pick(VERBS)} to week ${week}: ${qty} ${r.pick(UNITS)}, owner team ${r.pick(['north', 'south', 'ops', 'infra'])}-${r.int(1, 99)}`;
    // Numbers of several spellings land in receipts (ints, short and tiny floats).
    const metadata = { ticker, topic, place, weight: r.pick([1, 0.5, 0.25, 1e-7, 2.5, r.int(1, 9) / 10]), rev: r.int(0, 3) };
    facts.push({ content, metadata, importance: r.pick([undefined, 0.3, 0.6, 0.9]), ticker, topic, place, thing });
  }
  return facts;
}

const isoNow = () => new Date().toISOString().replace('Z', '+00:00');

/**
 * Write random memories to a running server and capture every body kind.
 * @param {{url: string, keyId: string, publicKey: string, makeKey: Function, call: Function}} lians
 * @param {{outDir?: string, seed?: number, namespace?: string, agentId?: string}} [opts]
 */
export async function captureLive(lians, opts = {}) {
  const outDir = opts.outDir ?? DEFAULT_OUT;
  const seed = opts.seed ?? liveSeed('capture');
  const r = rng(seed);
  mkdirSync(outDir, { recursive: true });
  const key = await lians.makeKey(opts.namespace ?? `cap-${seed}`);
  const agent = opts.agentId ?? `agent-${seed.toString(36)}`;
  const call = (method, path, body) => lians.call(method, path, { key, body });
  const must = async (method, path, body, want = [200, 201]) => {
    const res = await call(method, path, body);
    if (!want.includes(res.status)) throw new Error(`${method} ${path} -> ${res.status}: ${res.text.slice(0, 600)}`);
    return res;
  };

  // Two halves with an as_of instant between them.
  const facts = randomFacts(r, 12);
  const memories = [];
  let asOf;
  for (const [i, f] of facts.entries()) {
    if (i === 6) {
      await new Promise((res) => setTimeout(res, 1100));
      asOf = isoNow();
      await new Promise((res) => setTimeout(res, 1100));
    }
    const body = { agent_id: agent, content: f.content, event_time: isoNow(), metadata: f.metadata, source: 'user_provided' };
    if (f.importance !== undefined) body.importance = f.importance;
    const res = await call('POST', '/v1/memories', body);
    if (res.status !== 200 && res.status !== 201) throw new Error(`write ${i} -> ${res.status}: ${res.text.slice(0, 400)}`);
    memories.push({ id: res.json.id, content: f.content, metadata: f.metadata, importance: f.importance });
  }
  // A small graph for proximity: ACME supplies BOLT, BOLT partners CRUX.
  for (const [src, rel, dst] of [['ACME', 'supplies', 'BOLT'], ['BOLT', 'partners_with', 'CRUX'], ['DYNA', 'competes_with', 'ACME']]) {
    await must('POST', '/v1/graph/relate', { agent_id: agent, src_entity: src, rel_type: rel, dst_entity: dst, event_time: isoNow() });
  }

  // opts.asOfEverywhere: every recall carries an as_of after the writes (a server with
  // RECALL_MMR_LAMBDA < 1 answers 500 MissingGreenlet in _mmr_select without one);
  // opts.recallsOnly: no context calls and no Evidence Pack.
  let asOfEnd;
  if (opts.asOfEverywhere) {
    await new Promise((res) => setTimeout(res, 1100));
    asOfEnd = isoNow();
  }
  const items = [];
  // When each call was sent and its answer received (client clock), for the audit's request.
  let sentAt;
  let receivedAt;
  const timed = async (method, path, body) => {
    sentAt = new Date().toISOString();
    const res = await must(method, path, body);
    receivedAt = new Date().toISOString();
    return res;
  };
  const save = (name, kind, method, path, request, res, query) => {
    const file = `${name}.json`;
    writeFileSync(join(outDir, file), res.text);
    items.push({ name, kind, file, method, path, request, status: res.status, query, sent_at: sentAt, received_at: receivedAt, memory_count: Array.isArray(res.json?.memories) ? res.json.memories.length : undefined });
    sentAt = undefined; // only a timed call has its times
    receivedAt = undefined;
  };
  const queryOf = (f) => `${f.ticker} ${f.thing} ${f.place}`;
  const q = () => queryOf(r.pick(facts));

  const recalls = [
    ['fast', { mode: 'fast' }],
    ['deep', { mode: 'deep' }],
    ['reconstruct', { mode: 'reconstruct', k: 8 }],
    ['as_of', { as_of: asOf }],
    ['filters', { filters: { topic: r.pick(facts).topic } }],
    ['include_context', { include_context: true }],
    ['mmr', { filters: { _rerank: 'mmr' }, k: 6 }],
    ['near_entity', { filters: { _near_entity: 'ACME' }, k: 6 }],
    ['adaptive', { strategy: 'adaptive', max_query_variants: 4, query: `what changed for ${r.pick(TICKERS)} and ${r.pick(TICKERS)} after week ${r.int(1, 30)}` }],
  ];
  for (const [kind, extra] of recalls) {
    const request = { agent_id: agent, query: q(), k: 5, ...(asOfEnd ? { as_of: asOfEnd } : {}), ...extra };
    const res = await timed('POST', '/v1/recall', request);
    save(`recall-${kind}`, 'recall', 'POST', '/v1/recall', request, res, request.query);
  }
  if (opts.recallsOnly) {
    const manifest = { seed, agent, items };
    writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 1));
    return manifest;
  }
  for (const [kind, extra] of [['default', {}], ['fast-mmr', { mode: 'fast', strategy: 'standard', mmr: true, max_tokens: 256 }]]) {
    const request = { agent_id: agent, query: q(), ...extra };
    const res = await must('POST', '/v1/context', request);
    save(`context-${kind}`, 'context', 'POST', '/v1/context', request, res, request.query);
  }

  // Evidence Pack v2: envelope → bound recall → seal → pack.
  const env = await must('POST', '/v1/decision-envelopes', { agent_id: agent, decision_type: 'vendor_review' });
  const envelopeId = env.json.id;
  const bound = { agent_id: agent, query: q(), k: 5, decision_envelope_id: envelopeId };
  const boundRes = await timed('POST', '/v1/recall', bound);
  save('recall-envelope', 'recall', 'POST', '/v1/recall', bound, boundRes, bound.query);
  const evidenceIds = (boundRes.json.memories ?? []).map((m) => m.id);
  const seal = await must('POST', `/v1/decision-envelopes/${envelopeId}/seal`, {
    outcome: r.pick(['approve', 'escalate', 'decline']), reason_codes: ['live-test', `seed-${seed}`],
    decided_at: isoNow(), evidence_memory_ids: evidenceIds,
  });
  const decisionId = seal.json?.decision?.id ?? seal.json?.id;
  if (!decisionId) throw new Error(`seal answered without a decision id: ${seal.text.slice(0, 400)}`);
  const packPath = `/v1/decisions/${decisionId}/evidence-pack?version=v2`;
  const pack = await must('GET', packPath);
  save('pack-v2', 'pack', 'GET', packPath, null, pack, undefined);
  writeFileSync(join(outDir, 'public_key.b64'), `${lians.publicKey}\n`);

  const manifest = {
    seed, url: lians.url, key_id: lians.keyId, public_key_b64: lians.publicKey, agent_id: agent,
    as_of: asOf, envelope_id: envelopeId, decision_id: decisionId, memories, items,
  };
  writeFileSync(join(outDir, 'capture.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { ...manifest, outDir };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
  const { startLians } = await import('./server.mjs');
  const lians = await startLians();
  try {
    const seedArg = opt('--seed');
    const m = await captureLive(lians, { outDir: opt('--out'), seed: seedArg === undefined ? undefined : Number(seedArg) >>> 0 });
    for (const it of m.items) console.log(`${it.status} ${it.file}${it.memory_count === undefined ? '' : ` (${it.memory_count} memories)`}`);
    console.log(`wrote ${m.items.length} bodies to ${m.outDir}`);
  } finally {
    await lians.stop();
  }
}
