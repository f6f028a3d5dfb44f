// The consistency ledger (issue #30; ../shared/spec/consistency-ledger.md):
// facts about a memory that never change in the engine, checked across every
// verified exchange a client records. One implementation of the invariants;
// the storage is an adapter (SQLite in Node: js/ledger-sqlite.mjs; IndexedDB
// in a browser and a Durable Object's storage in a Worker: js/ledger-web.mjs).
// This file imports nothing but ./errors.mjs.
//
// An exchange is one line of a replay log:
//   { client, t_sent, t_recv, request: { method, url, body, headers? }, response: { status, body } }
// bodies as raw text (null when none), times ISO 8601 with an offset. Of
// `request.headers` only `idempotency-key` is read (for I13).
//
// record(exchange) verifies a recall/context answer from its raw bytes
// against the `query` of its own request (the same check as
// createVerifyingFetch) and records only an answer that verified; writes,
// erasures, certificates, prunes and key creations are events it uses.
// It returns { alarms, warnings, kind, recorded, verification }.
import { LiansScoreError } from "./errors.mjs";

/** The invariants this ledger checks (ids of the spec). */
export const INVARIANTS = Object.freeze({
  I1: "id → content_hash is a function",
  I1b: "id → SHA-256 of the returned plaintext, while content is present",
  I2: "id → event_time (as instants; a write's own answer against a read on the instant or the wall clock)",
  I3: "id → source",
  I4: "id → ingestion_time",
  I5: "valid_from = event_time on every observation",
  I6: "id → namespace, agent, subject; a memory in an answer carries the namespace of the client that asked",
  I7: "ingestion_time ≤ the client's first sight (+ skew); an own write's ingestion_time lies within its request window",
  I8: "every result of an as_of T recall has event_time ≤ T",
  I9: "after an erasure of subject S, no memory seen with subject S (ingested before it) returns",
  I10: "after a prune with cutoff C, nothing of that namespace ingested before C returns",
  I12: "a closed interval has valid_to > valid_from or valid_to ≥ ingestion_time",
  I13: "the same Idempotency-Key returns the same id",
  I14: "an erasure certificate lists every content hash the client saw for that subject",
  I15: "a present-time reference_time lies within [sent − skew − cache TTL, received + skew]",
});

const OPTION_NAMES = ["path", "name", "storage", "skewMs", "cacheTtlMs", "privacyMinimal"];
const KIND = { recall: 1, context: 2, write: 3, lineage: 4, erase: 5, certificate: 6, prune: 7, key: 8 };
const ENCODER = new TextEncoder();

/** createLedger over one entry's API (verifyRecallReceipt, verifyContextReceipt, init, isInitialized) and one storage opener. */
export function ledgerFor(api, openStore, what) {
  return async function createLedger(options) {
    const opts = readOptions(options, what);
    if (typeof api.isInitialized === "function" && !api.isInitialized()) await api.init();
    const store = await openStore(opts);
    return new Ledger(api, store, opts);
  };
}

function readOptions(options, what) {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new LiansScoreError("wrong_type", `lians-score: createLedger(options) needs an object (${what}), got ${describe(options)}`, "/options");
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw new LiansScoreError("invalid_value", `lians-score: unknown createLedger option ${JSON.stringify(key)}; known: ${OPTION_NAMES.join(", ")}`, `/options/${key}`);
    }
  }
  for (const key of ["skewMs", "cacheTtlMs"]) {
    const v = options[key];
    if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v >= 0)) {
      throw new LiansScoreError("invalid_value", `lians-score: options.${key} must be a number of milliseconds ≥ 0, got ${describe(v)}`, `/options/${key}`);
    }
  }
  return {
    ...options,
    skewMs: options.skewMs ?? 5_000,
    cacheTtlMs: options.cacheTtlMs ?? 60_000,
    privacyMinimal: options.privacyMinimal === true,
  };
}

class Ledger {
  constructor(api, store, opts) {
    this.api = api;
    this.store = store;
    this.opts = opts;
    this.queue = Promise.resolve();
    this.closed = false;
  }

  /** Verify (recall/context) and record one exchange; resolves { alarms, warnings, kind, recorded, verification }. */
  record(exchange, options) {
    const run = this.queue.then(() => this.recordNow(exchange, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async recordNow(exchange, options) {
    if (this.closed) throw new LiansScoreError("invalid_value", "lians-score: this ledger is closed", "");
    const ex = readExchange(exchange);
    const route = classify(ex.request.method, ex.request.url);
    const out = { kind: route ? route.kind : "other", recorded: false, alarms: [], warnings: [], verification: null };
    if (route === null || !(ex.response.status >= 200 && ex.response.status < 300)) return out;
    let body;
    if (route.kind === "recall" || route.kind === "context") {
      let report = options && options.verification;
      if (report === undefined) {
        const query = requestQuery(ex.request.body);
        if (query === null) {
          out.warnings.push(warning("unverifiable", `${route.kind} request has no string "query": not recorded`));
          return out;
        }
        const bytes = ENCODER.encode(ex.response.body ?? "");
        report =
          route.kind === "recall" ? this.api.verifyRecallReceipt(bytes, { query }) : this.api.verifyContextReceipt(bytes, { query });
      }
      out.verification = report;
      if (!report.valid) {
        out.warnings.push(warning("invalid", `the ${route.kind} answer failed verification (${report.failures.join(", ")}): not recorded`));
        return out;
      }
    }
    try {
      body = JSON.parse(ex.response.body ?? "null");
    } catch {
      out.warnings.push(warning("unreadable", `the ${route.kind} answer is not JSON: not recorded`));
      return out;
    }
    if (body === null || typeof body !== "object") return out;
    const ctx = new Recording(this, ex, route, body, out);
    await ctx.run();
    out.recorded = true;
    return out;
  }

  /** True for a route whose answer the ledger records (recall, context, writes, lineage, erasures, certificates, prunes, key creations). */
  accepts(method, url) {
    return classify(String(method).toUpperCase(), String(url)) !== null;
  }

  /** [{ id, fingerprint }] over every memory whose receipt-bound (content_hash, event_time, source) the ledger knows. */
  async fingerprints() {
    await this.queue;
    const out = [];
    for (const rec of await this.store.allMemories()) {
      if (rec.h === undefined || rec.src === undefined || (rec.etr === undefined && rec.etw === undefined)) continue;
      out.push({ id: rec.id, fingerprint: await fingerprintOf(rec) });
    }
    out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return out;
  }

  /** Counts: memories and exchanges recorded. */
  async stats() {
    await this.queue;
    return this.store.stats();
  }

  async close() {
    await this.queue;
    if (!this.closed) {
      this.closed = true;
      await this.store.close();
    }
  }
}

/** The ids whose fingerprints differ between two ledgers (or two fingerprints() lists). */
export async function compareLedgers(a, b) {
  const fa = await fingerprintList(a, "/a");
  const fb = await fingerprintList(b, "/b");
  const map = new Map(fa.map((x) => [x.id, x.fingerprint]));
  const differ = [];
  let shared = 0;
  for (const { id, fingerprint } of fb) {
    const other = map.get(id);
    if (other === undefined) continue;
    shared++;
    if (other !== fingerprint) differ.push(id);
  }
  differ.sort();
  return { shared, differ, only_a: fa.length - shared, only_b: fb.length - shared };
}

async function fingerprintList(x, pointer) {
  if (Array.isArray(x)) return x;
  if (x !== null && typeof x === "object" && typeof x.fingerprints === "function") return x.fingerprints();
  throw new LiansScoreError("wrong_type", `lians-score: compareLedgers needs two ledgers or fingerprints() lists, got ${describe(x)}`, pointer);
}

async function fingerprintOf(rec) {
  const et = rec.etr ?? rec.etw;
  const t = parseTime(et);
  return sha256Hex(JSON.stringify([rec.id, rec.h, t === null ? et : isoMicros(t.instant), rec.src]));
}

// ---------------------------------------------------------------- one exchange

class Recording {
  constructor(ledger, ex, route, body, out) {
    this.ledger = ledger;
    this.store = ledger.store;
    this.opts = ledger.opts;
    this.ex = ex;
    this.route = route;
    this.body = body;
    this.out = out;
    this.sent = ex.tSent;
    this.recv = ex.tRecv;
    this.seq = this.store.allocSeq();
    this.obs = []; // { id, fields..., where, bound }
    this.meta = new Map(); // pending meta writes
    this.receipt = null;
  }

  alarm(invariant, id, message, previous, current) {
    this.out.alarms.push({ invariant, memory_id: id, message, previous, current });
  }

  here(value, where) {
    return { value, receipt_sha256: this.receipt, client: this.ex.client, t_recv: this.ex.t_recv, kind: this.route.kind, where };
  }

  async run() {
    const { kind } = this.route;
    if (kind === "recall" || kind === "context") this.collectRead();
    else if (kind === "write") this.collectWrites();
    else if (kind === "lineage") this.collectLineage();
    await this.check();
  }

  collectRead() {
    const body = this.body;
    const receipt = isObject(body.receipt) ? body.receipt : {};
    this.receipt = typeof body.receipt_sha256 === "string" ? body.receipt_sha256 : null;
    const mems = new Map();
    for (const m of Array.isArray(body.memories) ? body.memories : []) if (isObject(m) && typeof m.id === "string") mems.set(m.id, m);
    const asOf = receipt.as_of == null ? null : parseTime(receipt.as_of);
    this.asOf = asOf;
    this.asOfText = receipt.as_of;
    this.referenceTime = typeof receipt.reference_time === "string" ? receipt.reference_time : null;
    for (const [i, r] of (Array.isArray(receipt.results) ? receipt.results : []).entries()) {
      if (!isObject(r) || typeof r.id !== "string") continue;
      const m = mems.get(r.id);
      const o = { id: r.id, h: r.content_hash, et: r.event_time, src: r.source, result: true, where: `/receipt/results/${i}` };
      if (m !== undefined) {
        o.ns = m.namespace;
        o.agent = m.agent_id;
        o.subj = m.subject_id;
        o.ing = m.ingestion_time;
        o.vf = m.valid_from;
        o.vt = m.valid_to;
      }
      this.obs.push(o);
      const nb = isObject(r.context_neighbors) ? r.context_neighbors : {};
      for (const [side, n] of Object.entries(nb)) {
        if (!isObject(n) || typeof n.id !== "string") continue;
        this.obs.push({
          id: n.id,
          h: n.content_hash,
          et: n.event_time,
          src: n.source,
          ing: n.ingestion_time,
          vf: n.valid_from,
          vt: n.valid_to,
          where: `/receipt/results/${i}/context_neighbors/${side}`,
        });
      }
    }
    for (const [i, c] of (Array.isArray(receipt.open_conflicts) ? receipt.open_conflicts : []).entries()) {
      if (!isObject(c)) continue;
      for (const side of ["a", "b"]) {
        const id = c[`memory_${side}_id`];
        const h = c[`memory_${side}_content_sha256`];
        if (typeof id === "string" && typeof h === "string") this.obs.push({ id, h, where: `/receipt/open_conflicts/${i}/memory_${side}_id` });
      }
    }
  }

  collectWrites() {
    const list = this.route.batch ? (Array.isArray(this.body.memories) ? this.body.memories : []) : [this.body];
    const reqBody = this.route.batch ? null : parseJson(this.ex.request.body);
    for (const [i, m] of list.entries()) {
      if (!isObject(m) || typeof m.id !== "string") continue;
      this.obs.push({
        id: m.id,
        h: m.content_hash,
        etw: m.event_time,
        src: m.source,
        ns: m.namespace,
        agent: m.agent_id,
        subj: m.subject_id,
        ing: m.ingestion_time,
        vf: m.valid_from,
        vt: m.valid_to,
        content: m.content,
        own: true,
        sentContent: isObject(reqBody) && typeof reqBody.content === "string" ? reqBody.content : undefined,
        where: this.route.batch ? `/memories/${i}` : "",
      });
    }
  }

  collectLineage() {
    for (const [i, n] of (Array.isArray(this.body.nodes) ? this.body.nodes : []).entries()) {
      if (!isObject(n) || typeof n.id !== "string") continue;
      this.obs.push({
        id: n.id,
        h: n.content_hash,
        et: n.event_time,
        src: n.source,
        ing: n.ingestion_time,
        vf: n.valid_from,
        vt: n.valid_to,
        content: n.content,
        where: `/nodes/${i}`,
      });
    }
  }

  async check() {
    const { kind } = this.route;
    const client = this.ex.client;
    const metaKeys = [`c\u001f${client}`];
    const body = this.body;
    const ids = [...new Set(this.obs.map((o) => o.id))];
    const recs = await this.store.getMemories(ids);
    const nsKeys = new Set();
    for (const o of this.obs) {
      const r = recs.get(o.id);
      const ns = typeof o.ns === "string" ? o.ns : r && r.ns;
      if (typeof ns === "string") nsKeys.add(ns);
    }
    for (const ns of nsKeys) metaKeys.push(`p\u001f${ns}`, `n\u001f${ns}`);
    const subjects = new Set();
    for (const o of this.obs) {
      const r = recs.get(o.id);
      const subj = typeof o.subj === "string" ? o.subj : r && r.subj;
      const ns = typeof o.ns === "string" ? o.ns : r && r.ns;
      if (typeof subj === "string" && typeof ns === "string") subjects.add(`e\u001f${ns}\u001f${subj}`);
    }
    metaKeys.push(...subjects);
    const idem = this.ex.idempotencyKey;
    if (kind === "write" && idem !== null) metaKeys.push(`i\u001f${client}\u001f${idem}`);
    const meta = await this.store.getMeta(metaKeys);
    const clientNs = meta.get(`c\u001f${client}`);
    const exchanges = new Map();
    const prevSeqs = new Set();
    for (const r of recs.values()) {
      if (r.p1 !== undefined) prevSeqs.add(r.p1);
      if (r.p2 !== undefined) prevSeqs.add(r.p2);
    }
    if (prevSeqs.size) for (const [s, x] of await this.store.getExchanges([...prevSeqs])) exchanges.set(s, x);
    const prevObs = (rec, value, which) => {
      const x = exchanges.get(which === 2 ? rec.p2 : rec.p1);
      return x
        ? { value, receipt_sha256: x.receipt ?? null, client: x.client, t_recv: new Date(x.t).toISOString(), kind: kindName(x.kind) }
        : { value, receipt_sha256: null };
    };

    // Event answers: key creation, erase, certificate, prune.
    if (kind === "key" && typeof body.namespace === "string") {
      // A key-creation answer names a namespace: the first one recorded is its creation as this ledger knows it.
      const k = `n\u001f${body.namespace}`;
      const had = (await this.store.getMeta([k])).get(k);
      if (had === undefined) this.meta.set(k, this.sent);
    }
    if (kind === "erase" && typeof body.subject_id === "string") {
      if (typeof clientNs !== "string") {
        this.out.warnings.push(warning("I9", `erase of subject ${JSON.stringify(body.subject_id)} by a client whose namespace is not known yet: not used`));
      } else {
        await this.eraseEvent(clientNs, body.subject_id, this.sent - this.opts.skewMs);
      }
    }
    if (kind === "certificate" && typeof body.subject_id === "string" && typeof body.namespace === "string") {
      const erasedAt = parseTime(body.erased_at);
      if (erasedAt !== null) {
        const erased = erasedAt.instant / 1000;
        await this.eraseEvent(body.namespace, body.subject_id, erased);
        // I14: every content hash seen for the subject, ingested before the erasure, is listed.
        const listed = new Set(Array.isArray(body.content_hashes) ? body.content_hashes.map((h) => String(h).toLowerCase()) : []);
        for (const rec of await this.store.subjectMemories(body.namespace, body.subject_id)) {
          const ing = rec.ing === undefined ? null : parseTime(rec.ing);
          if (ing === null || ing.instant / 1000 >= erased || rec.h === undefined) continue;
          if (!listed.has(rec.h)) {
            this.alarm("I14", rec.id, `the erasure certificate of subject ${JSON.stringify(body.subject_id)} does not list content hash ${rec.h} of a memory ingested before ${body.erased_at}`, prevObs(rec, rec.h, 1), this.here(body.content_hashes, "/content_hashes"));
          }
        }
      }
    }
    if (kind === "prune" && typeof body.namespace === "string") {
      const cutoff = parseTime(body.cutoff_date);
      if (cutoff !== null) {
        const k = `p\u001f${body.namespace}`;
        const had = (await this.store.getMeta([k])).get(k);
        const c = cutoff.instant / 1000;
        if (had === undefined || had.c < c) this.meta.set(k, { c, after: this.recv, text: body.cutoff_date });
      }
    }

    // Observations of memories.
    const updated = new Map();
    const read = kind === "recall" || kind === "context";
    if (read && this.asOf === null && this.referenceTime !== null) {
      const rt = parseTime(this.referenceTime);
      if (rt !== null) {
        const t = rt.instant / 1000;
        if (t < this.sent - this.opts.skewMs - this.opts.cacheTtlMs || t > this.recv + this.opts.skewMs) {
          this.alarm("I15", null, `present-time reference_time ${this.referenceTime} lies outside the request window [${this.ex.t_sent}, ${this.ex.t_recv}] (skew ${this.opts.skewMs} ms, cache TTL ${this.opts.cacheTtlMs} ms)`, null, this.here(this.referenceTime, "/receipt/reference_time"));
        }
      }
    }
    let learnedNs = clientNs;
    for (const o of this.obs) {
      const prev = updated.get(o.id) ?? recs.get(o.id);
      const rec = prev === undefined ? { id: o.id, first: this.recv, p1: this.seq } : { ...prev };
      const isNew = prev === undefined;
      const cur = (value) => this.here(value, o.where);

      // Per-observation checks.
      if (o.vf !== undefined && o.vf !== null) {
        const et = o.et ?? o.etw;
        if (typeof et === "string" && !sameInstant(o.vf, et)) this.alarm("I5", o.id, `valid_from ${o.vf} ≠ event_time ${et}`, null, cur({ valid_from: o.vf, event_time: et }));
      }
      if (o.vt !== undefined && o.vt !== null && typeof o.vf === "string") {
        const vt = parseTime(o.vt);
        const vf = parseTime(o.vf);
        const ingText = o.ing ?? rec.ing;
        const ing = typeof ingText === "string" ? parseTime(ingText) : null;
        if (vt !== null && vf !== null && !(vt.instant > vf.instant) && !(ing !== null && vt.instant >= ing.instant)) {
          this.alarm("I12", o.id, `closed interval valid_to ${o.vt} is neither after valid_from ${o.vf} nor at/after ingestion_time ${ingText}`, null, cur({ valid_from: o.vf, valid_to: o.vt, ingestion_time: ingText }));
        }
      }
      if (o.result && this.asOf !== null && typeof o.et === "string") {
        const et = parseTime(o.et);
        if (et !== null && et.instant > this.asOf.instant) this.alarm("I8", o.id, `result event_time ${o.et} is after as_of ${this.asOfText}`, null, cur(o.et));
      }
      if (typeof o.content === "string" && !this.opts.privacyMinimal && typeof o.h === "string") {
        const hash = await sha256Hex(o.content);
        if (hash !== o.h.toLowerCase()) this.alarm("I1b", o.id, `returned content hashes to ${hash}, not content_hash ${o.h}`, null, cur({ content_hash: o.h, content_sha256: hash }));
      }
      if (o.own && typeof o.sentContent === "string" && typeof o.h === "string" && !this.opts.privacyMinimal) {
        const hash = await sha256Hex(o.sentContent);
        if (hash !== o.h.toLowerCase()) this.alarm("I1b", o.id, `the content sent hashes to ${hash}, the write answered content_hash ${o.h}`, null, cur(o.h));
      }

      // Namespace of the client (I6, second half).
      if (typeof o.ns === "string") {
        if (learnedNs === undefined) {
          learnedNs = o.ns;
          this.meta.set(`c\u001f${this.ex.client}`, o.ns);
        } else if (learnedNs !== o.ns) {
          this.alarm("I6", o.id, `a memory of namespace ${JSON.stringify(o.ns)} in an answer to client ${JSON.stringify(this.ex.client)}, whose namespace is ${JSON.stringify(learnedNs)}`, null, cur(o.ns));
        }
      }

      // Functions of the id: I1, I2, I3, I4, I6.
      const field = (inv, name, key, value, equal = (a, b) => a === b, which = 1) => {
        if (value === undefined) return;
        if (rec[key] === undefined) {
          rec[key] = value;
          if (which === 2 && rec.p2 === undefined) rec.p2 = this.seq;
          return;
        }
        if (!equal(rec[key], value)) this.alarm(inv, o.id, `${name} changed from ${JSON.stringify(rec[key])} to ${JSON.stringify(value)}`, prevObs(rec, rec[key], which), cur(value));
      };
      field("I1", "content_hash", "h", typeof o.h === "string" ? o.h.toLowerCase() : undefined);
      field("I3", "source", "src", o.src === null || typeof o.src === "string" ? o.src : undefined);
      field("I4", "ingestion_time", "ing", typeof o.ing === "string" ? o.ing : undefined, sameInstant, 2);
      field("I6", "namespace", "ns", typeof o.ns === "string" ? o.ns : undefined, undefined, 2);
      field("I6", "agent", "agent", typeof o.agent === "string" ? o.agent : undefined, undefined, 2);
      field("I6", "subject", "subj", o.subj === null || typeof o.subj === "string" ? o.subj : undefined, undefined, 2);
      if (typeof o.et === "string") {
        if (rec.etr !== undefined && !sameInstant(rec.etr, o.et)) {
          this.alarm("I2", o.id, `event_time changed from ${rec.etr} to ${o.et}`, prevObs(rec, rec.etr, 1), cur(o.et));
        } else if (rec.etw !== undefined && !sameInstantOrWall(rec.etw, o.et)) {
          this.alarm("I2", o.id, `event_time read as ${o.et}, written as ${rec.etw}`, prevObs(rec, rec.etw, 1), cur(o.et));
        }
        if (rec.etr === undefined) rec.etr = o.et;
      }
      if (typeof o.etw === "string") {
        if (rec.etw !== undefined && !sameInstant(rec.etw, o.etw)) {
          this.alarm("I2", o.id, `event_time changed from ${rec.etw} to ${o.etw}`, prevObs(rec, rec.etw, 1), cur(o.etw));
        } else if (rec.etw === undefined && rec.etr !== undefined && !sameInstantOrWall(o.etw, rec.etr)) {
          this.alarm("I2", o.id, `event_time written as ${o.etw}, read before as ${rec.etr}`, prevObs(rec, rec.etr, 1), cur(o.etw));
        }
        if (rec.etw === undefined) rec.etw = o.etw;
      }

      // I7: ingestion time against the client's clock.
      const ingText = typeof o.ing === "string" ? o.ing : undefined;
      const ing = ingText === undefined ? null : parseTime(ingText);
      if (ing !== null) {
        const t = ing.instant / 1000;
        const firstSight = isNew ? this.recv : Math.min(rec.first, this.recv);
        if (t > firstSight + this.opts.skewMs) {
          this.alarm("I7", o.id, `ingestion_time ${ingText} is after the client first saw the memory (${new Date(firstSight).toISOString()}, skew ${this.opts.skewMs} ms)`, null, cur(ingText));
        }
        if (o.own && isNew && t < this.sent - this.opts.skewMs) {
          this.alarm("I7", o.id, `a new memory written in [${this.ex.t_sent}, ${this.ex.t_recv}] has ingestion_time ${ingText}, before the request was sent`, null, cur(ingText));
        }
        const ns = typeof o.ns === "string" ? o.ns : rec.ns;
        if (typeof ns === "string") {
          const k = `n\u001f${ns}`;
          const created = this.meta.get(k) ?? meta.get(k);
          if (created !== undefined && t < created - this.opts.skewMs) {
            this.out.warnings.push(warning("I7", `memory ${o.id} has ingestion_time ${ingText}, before the first key-creation answer this ledger recorded for namespace ${JSON.stringify(ns)} (that key need not have been the namespace's first)`, o.id));
          }
        }
      }

      // I9, I10: erased and pruned memories never return.
      if (read) {
        const ns = typeof o.ns === "string" ? o.ns : rec.ns;
        const subj = o.subj === undefined ? rec.subj : o.subj;
        const recIng = rec.ing === undefined ? null : parseTime(rec.ing);
        if (typeof ns === "string" && typeof subj === "string" && !isNew) {
          const e = meta.get(`e\u001f${ns}\u001f${subj}`) ?? this.meta.get(`e\u001f${ns}\u001f${subj}`);
          if (e !== undefined && this.sent > e.after && rec.first < e.after && recIng !== null && recIng.instant / 1000 < e.before) {
            this.alarm("I9", o.id, `a memory of subject ${JSON.stringify(subj)}, seen before its erasure (answered ${new Date(e.after).toISOString()}), returned again`, prevObs(rec, subj, 2), cur(subj));
          }
        }
        if (typeof ns === "string" && recIng !== null) {
          const p = meta.get(`p\u001f${ns}`) ?? this.meta.get(`p\u001f${ns}`);
          if (p !== undefined && this.sent > p.after && recIng.instant / 1000 < p.c) {
            this.alarm("I10", o.id, `a memory of namespace ${JSON.stringify(ns)} ingested at ${rec.ing}, before the prune cutoff ${p.text}, returned after the prune`, prevObs(rec, rec.ing, 2), cur(rec.ing));
          }
        }
      }
      updated.set(o.id, rec);
    }

    // I13: the same Idempotency-Key returns the same id.
    if (kind === "write" && idem !== null && !this.route.batch) {
      const k = `i\u001f${client}\u001f${idem}`;
      const had = meta.get(k);
      const id = typeof body.id === "string" ? body.id : null;
      if (had !== undefined && id !== null && had !== id) {
        this.alarm("I13", id, `Idempotency-Key ${JSON.stringify(idem)} answered id ${id}, before ${had}`, { value: had, receipt_sha256: null }, this.here(id, "/id"));
      } else if (had === undefined && id !== null) this.meta.set(k, id);
    }

    const changed = [];
    for (const [id, rec] of updated) {
      const before = recs.get(id);
      if (before === undefined || !sameRecord(before, rec)) changed.push(rec);
    }
    await this.store.commit({
      memories: changed,
      meta: [...this.meta],
      exchange: { seq: this.seq, receipt: this.receipt, kind: KIND[kind], client, t: this.recv },
    });
  }

  async eraseEvent(ns, subject, before) {
    const k = `e\u001f${ns}\u001f${subject}`;
    const had = this.meta.get(k) ?? (await this.store.getMeta([k])).get(k);
    if (had === undefined || had.before < before) this.meta.set(k, { before, after: this.recv });
  }
}

function sameRecord(a, b) {
  for (const k of ["h", "etr", "etw", "src", "ing", "ns", "agent", "subj", "p1", "p2", "first"]) if (a[k] !== b[k]) return false;
  return true;
}

function kindName(k) {
  for (const [name, v] of Object.entries(KIND)) if (v === k) return name;
  return "other";
}

function warning(code, message, id = null) {
  return { code, memory_id: id, message };
}

// ---------------------------------------------------------------- exchanges

function readExchange(x) {
  const bad = (pointer, message, code = "wrong_type") => new LiansScoreError(code, `lians-score: exchange ${message}`, pointer);
  if (!isObject(x)) throw bad("", `must be an object, got ${describe(x)}`);
  if (typeof x.client !== "string" || x.client === "") throw bad("/client", "needs a non-empty string client", x.client === undefined ? "missing_field" : "wrong_type");
  const tSent = exchangeTime(x.t_sent, "/t_sent");
  const tRecv = exchangeTime(x.t_recv, "/t_recv");
  if (!isObject(x.request)) throw bad("/request", "needs a request object", x.request === undefined ? "missing_field" : "wrong_type");
  if (!isObject(x.response)) throw bad("/response", "needs a response object", x.response === undefined ? "missing_field" : "wrong_type");
  const { method, url, body, headers } = x.request;
  if (typeof method !== "string") throw bad("/request/method", "needs a string request.method");
  if (typeof url !== "string") throw bad("/request/url", "needs a string request.url");
  if (body !== null && body !== undefined && typeof body !== "string") throw bad("/request/body", "request.body must be raw text or null");
  const { status } = x.response;
  if (!Number.isInteger(status)) throw bad("/response/status", "needs an integer response.status");
  if (x.response.body !== null && x.response.body !== undefined && typeof x.response.body !== "string") throw bad("/response/body", "response.body must be raw text or null");
  let idempotencyKey = null;
  if (isObject(headers)) {
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === "idempotency-key" && typeof v === "string") idempotencyKey = v;
  }
  return {
    client: x.client,
    t_sent: x.t_sent,
    t_recv: x.t_recv,
    tSent,
    tRecv,
    request: { method: method.toUpperCase(), url, body: body ?? null },
    response: { status, body: x.response.body ?? null },
    idempotencyKey,
  };
}

function exchangeTime(v, pointer) {
  const t = typeof v === "string" ? parseTime(v) : null;
  if (t === null || !t.offset) {
    throw new LiansScoreError(v === undefined ? "missing_field" : "invalid_value", `lians-score: exchange ${pointer.slice(1)} must be an ISO 8601 time with an offset, got ${describe(v)}`, pointer);
  }
  return t.instant / 1000;
}

function classify(method, href) {
  let path;
  try {
    path = new URL(href, "http://ledger.invalid").pathname;
  } catch {
    return null;
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the raw path
  }
  path = path.replace(/\/+$/, "");
  const at = path.indexOf("/v1/");
  if (at < 0) return null;
  const p = path.slice(at + 3);
  if (method === "POST" && p === "/recall") return { kind: "recall" };
  if (method === "POST" && p === "/context") return { kind: "context" };
  if (method === "POST" && p === "/memories") return { kind: "write", batch: false };
  if (method === "POST" && (p === "/memories/batch" || p === "/memories/messages")) return { kind: "write", batch: true };
  if (method === "GET" && /^\/memories\/[^/]+\/lineage$/.test(p)) return { kind: "lineage" };
  if (method === "POST" && p === "/erase") return { kind: "erase" };
  if (method === "GET" && /^\/erase\/.+\/certificate$/.test(p)) return { kind: "certificate" };
  if (method === "POST" && /^\/admin\/retention\/[^/]+\/prune$/.test(p)) return { kind: "prune" };
  if (method === "POST" && p === "/admin/api-keys") return { kind: "key" };
  return null;
}

function requestQuery(text) {
  const v = parseJson(text);
  return isObject(v) && typeof v.query === "string" ? v.query : null;
}

function parseJson(text) {
  if (typeof text !== "string") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- times

const TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|z|[+-]\d{2}:?\d{2})?$/;

/** { instant, wall } in microseconds since the epoch (a time without an offset is UTC); null when not a time. */
export function parseTime(s) {
  if (typeof s !== "string") return null;
  const m = TIME.exec(s);
  if (m === null) return null;
  const micro = Number(((m[7] ?? "") + "000000").slice(0, 6));
  const wallMs = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  if (!Number.isFinite(wallMs)) return null;
  const wall = wallMs * 1000 + micro;
  let offsetMin = 0;
  const z = m[8];
  if (z !== undefined && z !== "Z" && z !== "z") {
    const digits = z.replace(":", "");
    offsetMin = (z[0] === "-" ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  return { instant: wall - offsetMin * 60_000_000, wall, offset: z !== undefined };
}

function sameInstant(a, b) {
  if (a === b) return true;
  const x = parseTime(a);
  const y = parseTime(b);
  return x !== null && y !== null && x.instant === y.instant;
}

/** A write's own answer against a read: SQLite drops the offset on storage, so the wall clock may be what is read back. */
function sameInstantOrWall(written, read) {
  if (sameInstant(written, read)) return true;
  const x = parseTime(written);
  const y = parseTime(read);
  return x !== null && y !== null && !y.offset && x.wall === y.wall;
}

function isoMicros(us) {
  const ms = Math.floor(us / 1000);
  const rest = us - ms * 1000;
  return new Date(ms).toISOString().replace("Z", String(rest).padStart(3, "0") + "Z");
}

// ---------------------------------------------------------------- helpers

export async function sha256Hex(text) {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", ENCODER.encode(text));
  let out = "";
  for (const b of new Uint8Array(digest)) out += b.toString(16).padStart(2, "0");
  return out;
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "object") return "an object";
  return typeof value;
}
