// The consistency ledger's storage in Node.js: one SQLite file
// (node-sqlite3-wasm: SQLite compiled to WebAssembly with a VFS over the
// file system, so pages are read and written in place; no native build).
// Loaded only when createLedger({ path }) is called from the Node entry.
//
// Compact rows (docs/ledger.md, "Size"): uuids and SHA-256 hashes as blobs,
// names (source, namespace, agent, subject, client) interned, times as the
// text the server sent (the wall clock and the offset both matter for I2).
import { createRequire } from "node:module";
import { LiansScoreError } from "./errors.mjs";

const require = createRequire(import.meta.url);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS memory(
  id PRIMARY KEY, h, etr TEXT, etw TEXT, src INT, ing TEXT, ns INT, agent INT, subj INT, first INT, p1 INT, p2 INT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS memory_subject ON memory(ns, subj) WHERE subj > 0;
CREATE TABLE IF NOT EXISTS name(n INTEGER PRIMARY KEY, s TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS exchange(seq INTEGER PRIMARY KEY, receipt BLOB, kind INT, client INT, t INT);
PRAGMA user_version = 1;
`;

/** Open (or create) the ledger database at `path`. */
export function openSqliteStore({ path }) {
  if (typeof path !== "string" || path === "") {
    throw new LiansScoreError("wrong_type", "lians-score: createLedger({ path }) needs a file path string", "/options/path");
  }
  let Database;
  try {
    ({ Database } = require("node-sqlite3-wasm"));
  } catch (error) {
    throw new LiansScoreError("invalid_value", `lians-score: the Node ledger needs the node-sqlite3-wasm package (npm install node-sqlite3-wasm): ${error.message}`, "/options/path");
  }
  const db = new Database(path);
  return new SqliteStore(db);
}

export class SqliteStore {
  constructor(db) {
    this.db = db;
    db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    db.exec(SCHEMA);
    this.names = new Map();
    for (const { n, s } of db.all("SELECT n, s FROM name")) this.names.set(s, n);
    this.byN = new Map([...this.names].map(([s, n]) => [n, s]));
    this.seq = (db.get("SELECT max(seq) AS m FROM exchange").m ?? 0) + 1;
  }

  allocSeq() {
    return this.seq++;
  }

  name(s) {
    if (s === undefined) return null;
    if (s === null) return 0;
    let n = this.names.get(s);
    if (n === undefined) {
      n = this.db.run("INSERT INTO name(s) VALUES (?)", [s]).lastInsertRowid;
      n = Number(n);
      this.names.set(s, n);
      this.byN.set(n, s);
    }
    return n;
  }

  unname(n) {
    if (n === null || n === undefined) return undefined;
    if (n === 0) return null;
    return this.byN.get(n);
  }

  async getMemories(ids) {
    const out = new Map();
    for (const id of ids) {
      const row = this.db.get("SELECT * FROM memory WHERE id = ?", [encodeId(id)]);
      if (row) out.set(id, this.decode(row));
    }
    return out;
  }

  decode(row) {
    const rec = { id: decodeId(row.id), first: row.first };
    if (row.h !== null) rec.h = decodeHash(row.h);
    if (row.etr !== null) rec.etr = row.etr;
    if (row.etw !== null) rec.etw = row.etw;
    if (row.ing !== null) rec.ing = row.ing;
    for (const k of ["src", "ns", "agent", "subj"]) {
      const v = this.unname(row[k]);
      if (v !== undefined) rec[k] = v;
    }
    if (row.p1 !== null) rec.p1 = row.p1;
    if (row.p2 !== null) rec.p2 = row.p2;
    return rec;
  }

  async getMeta(keys) {
    const out = new Map();
    for (const k of keys) {
      const row = this.db.get("SELECT v FROM meta WHERE k = ?", [k]);
      if (row) out.set(k, JSON.parse(row.v));
    }
    return out;
  }

  async getExchanges(seqs) {
    const out = new Map();
    for (const s of seqs) {
      const row = this.db.get("SELECT * FROM exchange WHERE seq = ?", [s]);
      if (row) out.set(s, { receipt: row.receipt === null ? null : decodeHash(row.receipt), kind: row.kind, client: this.unname(row.client), t: row.t });
    }
    return out;
  }

  async subjectMemories(ns, subj) {
    const n = this.names.get(ns);
    const s = this.names.get(subj);
    if (n === undefined || s === undefined) return [];
    return this.db.all("SELECT * FROM memory WHERE ns = ? AND subj = ?", [n, s]).map((row) => this.decode(row));
  }

  async allMemories() {
    return this.db.all("SELECT * FROM memory").map((row) => this.decode(row));
  }

  async commit({ memories, meta, exchange }) {
    const db = this.db;
    db.exec("BEGIN");
    try {
      for (const r of memories) {
        db.run("INSERT OR REPLACE INTO memory(id, h, etr, etw, src, ing, ns, agent, subj, first, p1, p2) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", [
          encodeId(r.id),
          r.h === undefined ? null : encodeHash(r.h),
          r.etr ?? null,
          r.etw ?? null,
          this.name(r.src),
          r.ing ?? null,
          this.name(r.ns),
          this.name(r.agent),
          this.name(r.subj),
          r.first,
          r.p1 ?? null,
          r.p2 ?? null,
        ]);
      }
      for (const [k, v] of meta) db.run("INSERT OR REPLACE INTO meta(k, v) VALUES (?, ?)", [k, JSON.stringify(v)]);
      db.run("INSERT INTO exchange(seq, receipt, kind, client, t) VALUES (?,?,?,?,?)", [
        exchange.seq,
        exchange.receipt === null ? null : encodeHash(exchange.receipt),
        exchange.kind,
        this.name(exchange.client),
        exchange.t,
      ]);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }

  async stats() {
    return {
      memories: this.db.get("SELECT count(*) AS c FROM memory").c,
      exchanges: this.db.get("SELECT count(*) AS c FROM exchange").c,
    };
  }

  async close() {
    this.db.close();
  }
}

function encodeId(id) {
  return UUID.test(id) ? hexBytes(id.replaceAll("-", "")) : id;
}

function decodeId(v) {
  if (typeof v === "string") return v;
  const h = bytesHex(v);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function encodeHash(h) {
  return HEX64.test(h) ? hexBytes(h) : h;
}

function decodeHash(v) {
  return typeof v === "string" ? v : bytesHex(v);
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function bytesHex(bytes) {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}
