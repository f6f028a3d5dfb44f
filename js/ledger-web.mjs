// The consistency ledger's storage in a browser (IndexedDB: createLedger({ name }))
// and in a Cloudflare Worker (a Durable Object's storage: createLedger({ storage:
// state.storage })). js/ledger.mjs holds the invariants; this file only stores.
// No SQLite here: the web, workerd, edge-light and deno entries import it.
import { LiansScoreError } from "./errors.mjs";

/** The store for `{ name }` (IndexedDB) or `{ storage }` (a Durable Object's storage). */
export function openWebStore(opts) {
  if (opts.storage !== undefined) return openDurableStore(opts.storage);
  if (typeof opts.name !== "string" || opts.name === "") {
    throw new LiansScoreError("wrong_type", "lians-score: createLedger needs { name } (IndexedDB) or { storage } (a Durable Object's storage) here", "/options/name");
  }
  if (typeof globalThis.indexedDB === "undefined") {
    throw new LiansScoreError("invalid_value", "lians-score: createLedger({ name }) needs IndexedDB, which this runtime does not have", "/options/name");
  }
  return openIdbStore(opts.name);
}

// ---------------------------------------------------------------- IndexedDB

const req = (r) =>
  new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
const done = (tx) =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });

async function openIdbStore(name) {
  const open = globalThis.indexedDB.open(`lians-ledger:${name}`, 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    const memory = db.createObjectStore("memory", { keyPath: "id" });
    memory.createIndex("subject", ["ns", "subj"]);
    db.createObjectStore("meta");
    db.createObjectStore("exchange", { keyPath: "seq" });
  };
  const db = await req(open);
  const tx = db.transaction("exchange", "readonly");
  const last = await req(tx.objectStore("exchange").openCursor(null, "prev"));
  const seq = last ? last.key + 1 : 1;
  return new IdbStore(db, seq);
}

class IdbStore {
  constructor(db, seq) {
    this.db = db;
    this.seq = seq;
  }

  allocSeq() {
    return this.seq++;
  }

  async getMany(store, keys) {
    const out = new Map();
    if (keys.length === 0) return out;
    const os = this.db.transaction(store, "readonly").objectStore(store);
    const values = await Promise.all(keys.map((k) => req(os.get(k))));
    keys.forEach((k, i) => {
      if (values[i] !== undefined) out.set(k, values[i]);
    });
    return out;
  }

  getMemories(ids) {
    return this.getMany("memory", ids);
  }

  getMeta(keys) {
    return this.getMany("meta", keys);
  }

  getExchanges(seqs) {
    return this.getMany("exchange", seqs);
  }

  subjectMemories(ns, subj) {
    return req(this.db.transaction("memory", "readonly").objectStore("memory").index("subject").getAll([ns, subj]));
  }

  allMemories() {
    return req(this.db.transaction("memory", "readonly").objectStore("memory").getAll());
  }

  async commit({ memories, meta, exchange }) {
    const tx = this.db.transaction(["memory", "meta", "exchange"], "readwrite");
    const m = tx.objectStore("memory");
    for (const r of memories) m.put(clean(r));
    const k = tx.objectStore("meta");
    for (const [key, value] of meta) k.put(value, key);
    tx.objectStore("exchange").put(exchange);
    await done(tx);
  }

  async stats() {
    const tx = this.db.transaction(["memory", "exchange"], "readonly");
    const [memories, exchanges] = await Promise.all([req(tx.objectStore("memory").count()), req(tx.objectStore("exchange").count())]);
    return { memories, exchanges };
  }

  async close() {
    this.db.close();
  }
}

/** A record without its unknown (undefined) fields. */
function clean(r) {
  const out = {};
  for (const [k, v] of Object.entries(r)) if (v !== undefined) out[k] = v;
  return out;
}

// ---------------------------------------------------------------- Durable Object storage

const MAX_KEYS = 128; // storage.get / put take at most 128 keys at once

async function openDurableStore(storage) {
  if (storage === null || typeof storage !== "object" || typeof storage.get !== "function" || typeof storage.put !== "function" || typeof storage.list !== "function") {
    throw new LiansScoreError("wrong_type", "lians-score: createLedger({ storage }) needs a Durable Object's storage (state.storage)", "/options/storage");
  }
  const seq = (await storage.get("q")) ?? 1;
  return new DurableStore(storage, seq);
}

class DurableStore {
  constructor(storage, seq) {
    this.storage = storage;
    this.seq = seq;
  }

  allocSeq() {
    return this.seq++;
  }

  async getMany(prefix, keys) {
    const out = new Map();
    for (let i = 0; i < keys.length; i += MAX_KEYS) {
      const part = keys.slice(i, i + MAX_KEYS);
      const got = await this.storage.get(part.map((k) => prefix + k));
      for (const k of part) {
        const v = got.get(prefix + k);
        if (v !== undefined) out.set(k, v);
      }
    }
    return out;
  }

  getMemories(ids) {
    return this.getMany("m:", ids);
  }

  getMeta(keys) {
    return this.getMany("k:", keys);
  }

  getExchanges(seqs) {
    return this.getMany("x:", seqs.map(String)).then((m) => new Map([...m].map(([k, v]) => [Number(k), v])));
  }

  async subjectMemories(ns, subj) {
    const ids = [...(await this.storage.list({ prefix: `s:${ns}\u001f${subj}\u001f` })).values()];
    return [...(await this.getMemories(ids)).values()];
  }

  async allMemories() {
    return [...(await this.storage.list({ prefix: "m:" })).values()];
  }

  async commit({ memories, meta, exchange }) {
    const entries = {};
    for (const r of memories) {
      entries[`m:${r.id}`] = clean(r);
      if (typeof r.ns === "string" && typeof r.subj === "string") entries[`s:${r.ns}\u001f${r.subj}\u001f${r.id}`] = r.id;
    }
    for (const [k, v] of meta) entries[`k:${k}`] = v;
    entries[`x:${exchange.seq}`] = exchange;
    entries.q = exchange.seq + 1;
    // One put of up to 128 keys is atomic; a larger exchange is written in parts, the sequence number last.
    const keys = Object.keys(entries).filter((k) => k !== "q");
    for (let i = 0; i < keys.length; i += MAX_KEYS - 1) {
      const part = {};
      for (const k of keys.slice(i, i + MAX_KEYS - 1)) part[k] = entries[k];
      if (i + MAX_KEYS - 1 >= keys.length) part.q = entries.q;
      await this.storage.put(part);
    }
  }

  async stats() {
    const [memories, exchanges] = await Promise.all([this.storage.list({ prefix: "m:" }), this.storage.list({ prefix: "x:" })]);
    return { memories: memories.size, exchanges: exchanges.size };
  }

  async close() {}
}
