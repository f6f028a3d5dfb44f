#!/usr/bin/env node
// lians-score command line, running the WebAssembly build (Node.js entry).
// Mirrors the native CLI (src/bin/lians-score): same commands, flags, output
// bytes and exit statuses (0 ok/valid, 1 invalid input or failed
// verification, 2 usage or I/O error), plus a few conveniences (--fn,
// --content, --*-file flags, --version).
import { readFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { VERSION } = require("./node.cjs");
const glue = require("../dist/node/lians_score.js");

const USAGE = `usage: lians-score <command> [args]

commands:
  replay FILE.jsonl...       replay scoring vectors; prints {"id","actual"} lines
  verify-replay FILE.jsonl   replay receipt cases; prints checker result lines
  score [FILE|-] [--fn NAME] score a JSON object, array or JSONL of score_memory inputs
                             (--fn: evaluate, tokenize_for_scoring, detect_risk_tags,
                             rescore_review_item or sort_candidates instead)
  verify FILE|- [--kind recall|context] [--query Q] [--expected-sha256 H]
                [--context-text T | --context-text-file F] [--recall-file F]
                [--content ID=TEXT]... [--given GIVEN.json] [--privacy-minimal] [--include-canonical]
                             verify a recall/context response body or bare receipt
  verify-pack FILE|- [--trusted-public-key B64 | --trusted-public-key-file F]
                [--expected-key-id ID] [--allow-unsigned] [--include-canonical]
                             verify an Evidence Pack v2
  --version                  print the package version

Inputs are read as raw text (receipts must be: number spellings decide the
hash). Output is compact JSON, one line per result, the same bytes as the
native \`cargo run --release --bin lians-score -- ...\`.

exit status: 0 ok/valid, 1 invalid input or failed verification, 2 usage error
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

/** Parse `--name value` / `--name=value` / `--flag` options; returns {positional, options, order}. */
function parseArgs(args, spec) {
  const positional = [];
  const options = {};
  const order = [];
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
        order.push([name, true]);
        continue;
      }
      let value;
      if (eq > 0) value = arg.slice(eq + 1);
      else if (i + 1 < args.length) value = args[++i];
      else throw new UsageError(`--${name} needs a value`);
      if (kind === "list") (options[name] ??= []).push(value);
      else options[name] = value;
      order.push([name, value]);
    } else {
      positional.push(arg);
    }
  }
  return { positional, options, order };
}

function describe(error) {
  if (error && typeof error === "object" && "code" in error && error.name === "LiansScoreError") {
    return `${error.code}${error.path ? ` at ${error.path}` : ""}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function cmdScore(args) {
  const { positional, options } = parseArgs(args, { fn: "value" });
  if (positional.length > 1) throw new UsageError("usage: lians-score score FILE|-");
  const file = positional[0] ?? "-";
  const [output, status] = glue.cliScore(readInput(file), options.fn ?? "score_memory", file);
  out(output);
  return status;
}

/** Flag values → the flat `key, JSON text` list the wasm helpers read ("" = merge a --given file). */
function optionOps(options, order) {
  const ops = [];
  for (const [name, value] of order) {
    switch (name) {
      case "given":
        ops.push("", readInput(value));
        break;
      case "context-text-file":
        ops.push("context_text", JSON.stringify(readInput(value)));
        break;
      case "recall-file":
        ops.push("recall_wire", JSON.stringify(readInput(value)));
        break;
      case "trusted-public-key-file":
        ops.push("trusted_public_key", JSON.stringify(readInput(value).trim()));
        break;
      case "content": {
        const eq = value.indexOf("=");
        if (eq <= 0) throw new UsageError("--content needs ID=TEXT");
        (options.contents ??= {})[value.slice(0, eq)] = value.slice(eq + 1);
        break;
      }
      case "kind":
        break;
      default:
        ops.push(name.replaceAll("-", "_"), value === true ? "true" : JSON.stringify(value));
    }
  }
  if (options.contents) ops.push("contents", JSON.stringify(options.contents));
  return ops;
}

function cmdVerify(args) {
  const spec = {
    kind: "value", query: "value", "expected-sha256": "value", "context-text": "value", "context-text-file": "value",
    "recall-file": "value", content: "list", given: "value", "include-canonical": "flag", "privacy-minimal": "flag",
  };
  const { positional, options, order } = parseArgs(args, spec);
  if (positional.length !== 1) throw new UsageError("usage: lians-score verify FILE|- [--kind recall|context] [--query Q] [--expected-sha256 H] [--given GIVEN.json] [--privacy-minimal]");
  const wire = readInput(positional[0]);
  const [output, status] = glue.cliVerify(options.kind ?? "", wire, optionOps(options, order));
  out(output);
  return status;
}

function cmdVerifyPack(args) {
  const spec = {
    "trusted-public-key": "value", "trusted-public-key-file": "value", "expected-key-id": "value",
    "allow-unsigned": "flag", "include-canonical": "flag",
  };
  const { positional, options, order } = parseArgs(args, spec);
  if (positional.length !== 1) throw new UsageError("usage: lians-score verify-pack FILE|- [--trusted-public-key B64] [--expected-key-id ID] [--allow-unsigned]");
  const [output, status] = glue.cliVerifyPack(readInput(positional[0]), optionOps(options, order));
  out(output);
  return status;
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
        out(`lians-score ${VERSION}\n`);
        return 0;
      default:
        process.stderr.write(command === undefined ? USAGE : `lians-score: unknown command ${command}\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    // As natively: anything that stops a command (usage, unreadable file,
    // a case line that is not a case) exits 2; 1 is for results.
    const hint = error instanceof UsageError ? "\n(see lians-score --help)" : "";
    process.stderr.write(`lians-score: ${describe(error)}${hint}\n`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
