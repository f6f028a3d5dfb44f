#!/usr/bin/env node
// lians-score command line, running the WebAssembly build (Node.js entry).
// The grammar, the usage text and every command are the crate's `cli`
// module (src/cli/mod.rs), shared with the native CLI (src/bin/lians-score):
// same commands, flags, output bytes and exit statuses (0 ok/valid,
// 1 invalid input or failed verification, 2 usage or I/O error). This file
// only reads files (as raw bytes; `-` is standard input) and writes what the
// command returns.
import { readFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import crypto from "node:crypto";
import { HOST_SHA256_MIN_BYTES, hostSha256 } from "./limits.mjs";

const require = createRequire(import.meta.url);
const glue = require("../dist/cli/lians_score.js");
// SHA-256 through node:crypto, as in the library's Node entry (js/limits.mjs hostSha256).
glue.setHostSha256(hostSha256(crypto), HOST_SHA256_MIN_BYTES);

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

/** A file argument's bytes; `-` is standard input. Throws (with a message naming the file) when unreadable. */
function read(file) {
  const bytes = readFileSync(file === "-" ? 0 : file);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function main(argv) {
  const [stdout, stderr, status] = glue.cliRun(argv, read);
  writeChunks(1, stdout);
  writeChunks(2, stderr);
  return status;
}

// `guard` and `ledger` are JavaScript only (js/guard-node.mjs, js/ledger-cli.mjs); every other command is the crate's.
const args = process.argv.slice(2);
if (args[0] === "guard") {
  const { runGuard } = await import("./guard-node.mjs");
  process.exitCode = await runGuard(args.slice(1));
} else if (args[0] === "ledger") {
  const { ledgerMain } = await import("./ledger-cli.mjs");
  process.exitCode = await ledgerMain(args.slice(1));
} else {
  process.exitCode = main(args);
}
