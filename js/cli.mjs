#!/usr/bin/env node
// lians-score command line, running the WebAssembly build (Node.js entry).
// Exit codes: 0 success / valid, 1 invalid or failed input, 2 usage error.
import { readFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const api = require("./node.cjs");
const glue = require("../dist/node/lians_score.js");

const USAGE = `usage: lians-score <command> [options]

commands:
  score [FILE|-] [--fn NAME]
        Score JSON input: one JSON object (the score_memory keyword arguments)
        or JSON Lines, one object per line. Prints one compact JSON result per
        input (Python number forms: 1.0 stays 1.0). --fn selects another
        function: score_memory (default), evaluate, tokenize_for_scoring,
        detect_risk_tags, rescore_review_item, sort_candidates.
  verify FILE [--expected-sha256 HEX] [--query TEXT] [--content ID=TEXT]...
              [--context-text-file FILE] [--recall-file FILE] [--given FILE]
        Verify a /v1/recall or /v1/context response body (or a bare receipt)
        from its raw text. The kind is taken from the receipt's schema.
  verify-pack FILE [--trusted-key BASE64 | --trusted-key-file FILE]
              [--key-id ID] [--allow-unsigned]
        Verify a signed Evidence Pack v2.
  replay FILE...
        Replay scoring conformance vectors; prints {"id","actual"} lines for
        check_scoring.py (byte-identical to the native CLI).
  verify-replay FILE...
        Replay receipt conformance cases; prints result lines for
        check_receipts.py (byte-identical to the native CLI).

options:
  -h, --help      this help
  -V, --version   print the version

Verification prints the report as JSON and exits 0 when valid, 1 when not.
`;

class UsageError extends Error {}

function out(text) {
  writeChunks(1, text);
}

function writeChunks(fd, text) {
  const buf = Buffer.from(text, "utf8");
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, Math.min(buf.length - off, 1 << 20));
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      if (e.code === "EPIPE") process.exit(0);
      throw e;
    }
  }
}

function readInput(file) {
  if (file === undefined || file === "-") return readFileSync(0, "utf8");
  return readFileSync(file, "utf8");
}

function readBytes(file) {
  return file === "-" ? readFileSync(0) : readFileSync(file);
}

/** Parse `--name value` / `--flag` options; returns {positional, options}. */
function parseArgs(args, spec) {
  const positional = [];
  const options = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      const kind = spec[name];
      if (kind === undefined) throw new UsageError(`unknown option --${name}`);
      if (kind === "flag") {
        if (eq > 0) throw new UsageError(`--${name} takes no value`);
        options[name] = true;
        continue;
      }
      let value;
      if (eq > 0) value = arg.slice(eq + 1);
      else if (i + 1 < args.length) value = args[++i];
      else throw new UsageError(`--${name} needs a value`);
      if (kind === "list") (options[name] ??= []).push(value);
      else options[name] = value;
    } else {
      positional.push(arg);
    }
  }
  return { positional, options };
}

function describe(error) {
  if (error && typeof error === "object" && "code" in error && error.name === "LiansScoreError") {
    return `${error.code}${error.path ? ` at ${error.path}` : ""}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

const SCORE_FUNCTIONS = new Set([
  "score_memory",
  "evaluate",
  "tokenize_for_scoring",
  "detect_risk_tags",
  "rescore_review_item",
  "sort_candidates",
]);

function cmdScore(args) {
  const { positional, options } = parseArgs(args, { fn: "value" });
  if (positional.length > 1) throw new UsageError("score takes at most one input file");
  const fn = options.fn ?? "score_memory";
  if (!SCORE_FUNCTIONS.has(fn)) throw new UsageError(`unknown --fn ${fn}`);
  const text = readInput(positional[0]);
  // One JSON document, or JSON Lines when the whole text is not one document.
  let documents;
  try {
    JSON.parse(text);
    documents = [text];
  } catch {
    documents = text.split("\n").filter((line) => line.trim() !== "");
  }
  let failed = 0;
  const lines = [];
  for (const doc of documents) {
    try {
      lines.push(glue.callJson(fn, doc));
    } catch (error) {
      failed++;
      lines.push(JSON.stringify({ error: { code: error.code ?? "error", message: error.message, path: error.path ?? "" } }));
    }
  }
  out(lines.length ? lines.join("\n") + "\n" : "");
  if (failed) process.stderr.write(`lians-score: ${failed} of ${documents.length} inputs failed\n`);
  return failed ? 1 : 0;
}

function printReport(report) {
  out(JSON.stringify(report, null, 2) + "\n");
  return report.valid === true ? 0 : 1;
}

function receiptSchema(text) {
  try {
    const body = JSON.parse(text);
    if (body && typeof body === "object" && !Array.isArray(body)) {
      const receipt = body.receipt && typeof body.receipt === "object" ? body.receipt : body;
      return typeof receipt.schema === "string" ? receipt.schema : undefined;
    }
  } catch {
    // The verifier itself reports malformed JSON.
  }
  return undefined;
}

function cmdVerify(args) {
  const { positional, options } = parseArgs(args, {
    "expected-sha256": "value",
    query: "value",
    content: "list",
    "context-text-file": "value",
    "recall-file": "value",
    given: "value",
  });
  if (positional.length !== 1) throw new UsageError("verify takes exactly one response or receipt file");
  const wire = readBytes(positional[0]).toString("utf8");
  const given = options.given ? JSON.parse(readFileSync(options.given, "utf8")) : {};
  if (options["expected-sha256"]) given.expected_sha256 = options["expected-sha256"];
  if (options.query !== undefined) given.query = options.query;
  for (const pair of options.content ?? []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError("--content needs ID=TEXT");
    (given.contents ??= {})[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  if (options["context-text-file"]) given.context_text = readFileSync(options["context-text-file"], "utf8");
  if (options["recall-file"]) given.recall_wire = readFileSync(options["recall-file"], "utf8");
  const schema = receiptSchema(wire);
  const verify = schema === api.CONTEXT_RECEIPT_SCHEMA ? api.verifyContextReceipt : api.verifyRecallReceipt;
  return printReport(verify(wire, given));
}

function cmdVerifyPack(args) {
  const { positional, options } = parseArgs(args, {
    "trusted-key": "value",
    "trusted-key-file": "value",
    "key-id": "value",
    "allow-unsigned": "flag",
  });
  if (positional.length !== 1) throw new UsageError("verify-pack takes exactly one pack file");
  const wire = readBytes(positional[0]).toString("utf8");
  const opts = {};
  if (options["trusted-key"] && options["trusted-key-file"]) {
    throw new UsageError("give --trusted-key or --trusted-key-file, not both");
  }
  if (options["trusted-key"]) opts.trusted_public_key = options["trusted-key"];
  if (options["trusted-key-file"]) opts.trusted_public_key = readFileSync(options["trusted-key-file"], "utf8").trim();
  if (options["key-id"]) opts.expected_key_id = options["key-id"];
  if (options["allow-unsigned"]) opts.allow_unsigned = true;
  return printReport(api.verifyEvidencePack(wire, opts));
}

function replayFiles(args, lineFn) {
  const { positional } = parseArgs(args, {});
  if (positional.length === 0) throw new UsageError("give at least one file");
  for (const file of positional) {
    const text = readInput(file);
    const lines = text.split("\n");
    let chunk = [];
    for (let i = 0; i < lines.length; i++) {
      let line;
      try {
        line = lineFn(lines[i]);
      } catch (error) {
        if (chunk.length) out(chunk.join(""));
        throw new Error(`${file}:${i + 1}: ${describe(error)}`);
      }
      if (line !== undefined && line !== null) chunk.push(line + "\n");
      if (chunk.length >= 256) {
        out(chunk.join(""));
        chunk = [];
      }
    }
    if (chunk.length) out(chunk.join(""));
  }
  return 0;
}

function cmdVerifyReplay(args) {
  if (typeof glue.replayReceiptsLine !== "function") throw new Error("verify-replay is not available in this build");
  return replayFiles(args, (line) => glue.replayReceiptsLine(line));
}

export function main(argv) {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case "score":
        return cmdScore(args);
      case "verify":
        return cmdVerify(args);
      case "verify-pack":
        return cmdVerifyPack(args);
      case "replay":
        return replayFiles(args, (line) => glue.replayScoringLine(line));
      case "verify-replay":
        return cmdVerifyReplay(args);
      case "-h":
      case "--help":
      case "help":
        out(USAGE);
        return 0;
      case "-V":
      case "--version":
        out(`lians-score ${api.VERSION}\n`);
        return 0;
      default:
        process.stderr.write(command === undefined ? USAGE : `lians-score: unknown command ${command}\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`lians-score: ${error.message}\n(see lians-score --help)\n`);
      return 2;
    }
    process.stderr.write(`lians-score: ${describe(error)}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
