// `lians-score ledger …` (Node.js): the consistency ledger from the command line.
//
//   lians-score ledger replay EXCHANGES.jsonl [--db PATH] [--skew-ms N] [--cache-ttl-ms N]
//     Reads an exchange log (one JSON object a line: client, t_sent, t_recv,
//     request {method, url, body}, response {status, body}), verifies each
//     recall/context answer, records it and every write, erasure, certificate,
//     prune and key creation, prints `ALARM <invariant> <memory id> <message>`
//     for each alarm (and `INVALID <line> …` for an answer that failed
//     verification) and exits 1 when any was printed. Without --db the ledger
//     lives in a temporary file, removed at the end.
//   lians-score ledger diff A.db B.db
//     Prints the ids the two ledgers hold with different fingerprints (one a
//     line); exits 1 when there is one.
// Exit 2: usage or I/O error.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareLedgers, createLedger } from "./node.mjs";

const USAGE = `usage: lians-score ledger replay EXCHANGES.jsonl [--db PATH] [--skew-ms N] [--cache-ttl-ms N]
       lians-score ledger diff A.db B.db
`;

export async function ledgerMain(argv, out = (s) => process.stdout.write(s), err = (s) => process.stderr.write(s)) {
  const [command, ...rest] = argv;
  try {
    if (command === "replay") return await replay(rest, out, err);
    if (command === "diff") return await diff(rest, out, err);
    err(command === undefined || command === "--help" || command === "-h" ? USAGE : `lians-score ledger: unknown command ${JSON.stringify(command)}\n${USAGE}`);
    return command === "--help" || command === "-h" ? 0 : 2;
  } catch (error) {
    err(`lians-score ledger: ${error && error.message}\n`);
    return 2;
  }
}

function flags(args, known) {
  const files = [];
  const opts = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith("--")) {
      const [name, inline] = a.slice(2).split("=", 2);
      if (!known.includes(name)) throw new Error(`unknown flag --${name}\n${USAGE}`);
      const v = inline ?? args[++i];
      if (v === undefined) throw new Error(`--${name} needs a value`);
      opts[name] = v;
    } else files.push(a);
  }
  return { files, opts };
}

function milliseconds(v, name) {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number of milliseconds ≥ 0`);
  return n;
}

async function replay(args, out, err) {
  const { files, opts } = flags(args, ["db", "skew-ms", "cache-ttl-ms"]);
  if (files.length !== 1) {
    err(USAGE);
    return 2;
  }
  const text = readFileSync(files[0] === "-" ? 0 : files[0], "utf8");
  let tmp;
  let path = opts.db;
  if (path === undefined) {
    tmp = mkdtempSync(join(tmpdir(), "lians-ledger-"));
    path = join(tmp, "ledger.db");
  }
  const ledger = await createLedger({ path, skewMs: milliseconds(opts["skew-ms"], "skew-ms"), cacheTtlMs: milliseconds(opts["cache-ttl-ms"], "cache-ttl-ms") });
  let alarms = 0;
  let invalid = 0;
  let exchanges = 0;
  let recorded = 0;
  try {
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      if (line === "") continue;
      let exchange;
      try {
        exchange = JSON.parse(line);
      } catch {
        throw new Error(`${files[0]}:${i + 1}: not a JSON object`);
      }
      let result;
      try {
        result = await ledger.record(exchange);
      } catch (error) {
        throw new Error(`${files[0]}:${i + 1}: ${error.message}`);
      }
      exchanges++;
      if (result.recorded) recorded++;
      if (result.verification && !result.verification.valid) {
        invalid++;
        out(`INVALID line ${i + 1} ${exchange.request.method} ${exchange.request.url}: ${result.verification.failures.join(", ")}\n`);
      }
      for (const a of result.alarms) {
        alarms++;
        const prev = a.previous && a.previous.receipt_sha256 ? ` previous receipt ${a.previous.receipt_sha256}` : "";
        const cur = a.current && a.current.receipt_sha256 ? ` receipt ${a.current.receipt_sha256}` : "";
        out(`ALARM ${a.invariant} ${a.memory_id ?? "-"} line ${i + 1}: ${a.message}${prev}${cur}\n`);
      }
      for (const w of result.warnings) err(`warning: line ${i + 1}: ${w.code}: ${w.message}\n`);
    }
    const stats = await ledger.stats();
    err(`ledger: ${exchanges} exchanges, ${recorded} recorded, ${stats.memories} memories, ${alarms} alarm(s), ${invalid} invalid answer(s)\n`);
  } finally {
    await ledger.close();
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  }
  return alarms > 0 || invalid > 0 ? 1 : 0;
}

async function diff(args, out, err) {
  const { files } = flags(args, []);
  if (files.length !== 2) {
    err(USAGE);
    return 2;
  }
  for (const f of files) if (!existsSync(f)) throw new Error(`${f}: no such ledger file`);
  const la = await createLedger({ path: files[0] });
  const lb = await createLedger({ path: files[1] });
  try {
    const r = await compareLedgers(la, lb);
    for (const id of r.differ) out(`${id}\n`);
    err(`ledger diff: ${r.shared} shared ids, ${r.differ.length} differ, ${r.only_a} only in ${files[0]}, ${r.only_b} only in ${files[1]}\n`);
    return r.differ.length > 0 ? 1 : 0;
  } finally {
    await la.close();
    await lb.close();
  }
}
