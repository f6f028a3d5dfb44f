// `lians-score guard`: the guard (js/guard.mjs) as a Node.js server, node:http
// only. Clients in any language call it instead of the Lians server:
//
//   npx lians-score guard --upstream https://lians.example [--listen 127.0.0.1:8787]
//                         [--audit] [--ledger PATH] [--max-body BYTES] [--timeout MS]
//
//   recall/context answers  buffered (≤ --max-body each way), verified from
//                           their raw bytes against their own request (js/guard.mjs):
//                           valid → byte for byte + x-lians-verification headers;
//                           otherwise 502 with the report as JSON
//   everything else         piped both ways as it comes (status, headers, body;
//                           redirects are answers, not followed)
//   GET /healthz            200 {"status":"ok"} (the guard's own)
//   upstream silent for --timeout ms: 504 (or the connection is cut if the answer
//   had started); SIGTERM/SIGINT: stop accepting, finish what is in flight, exit 0.
import http from "node:http";
import https from "node:https";
import * as api from "./node.mjs";
import { GUARD_DEFAULTS, HOP_BY_HOP, HEADER_AUDIT, createGuard } from "./guard.mjs";
import { HEADER_SHA256, HEADER_VERIFICATION, exchangeOf, isoNow } from "./fetch.mjs";

const GUARD_HEADERS = new Set([HEADER_VERIFICATION, HEADER_SHA256, HEADER_AUDIT]);
const SHUTDOWN_GRACE_MS = 10_000;

export const USAGE = `usage: lians-score guard --upstream URL [--listen HOST:PORT] [--audit] [--ledger PATH] [--max-body BYTES] [--timeout MS]

A verifying reverse proxy in front of a Lians server, for clients in any language:
point the client's base URL at the guard. Every POST /v1/recall and /v1/context
answer is verified from its raw bytes against its own request; a valid one passes
byte for byte with x-lians-verification: valid and x-lians-receipt-sha256, any
other becomes HTTP 502 with the report as JSON. Every other request passes untouched.

  --upstream URL      the Lians server (http: or https:, optionally with a path prefix)
  --listen HOST:PORT  where to listen (default 127.0.0.1:8787; port 0: any free port)
  --audit             audit recall answers too (auditRecall); inconsistent → 502
  --ledger PATH       record every exchange in a consistency ledger (SQLite file); an alarm → 502
  --max-body BYTES    the largest recall/context request or answer (default ${GUARD_DEFAULTS.maxBody})
  --timeout MS        the longest upstream silence (default ${GUARD_DEFAULTS.timeoutMs})
  GET /healthz        answers {"status":"ok"}; SIGTERM stops it gracefully
`;

/**
 * Start a guard. Resolves `{ url, server, guard, close() }` once listening.
 * options: { upstream, host = "127.0.0.1", port = 8787, audit, maxBody, timeoutMs, onExchange, onPassThrough, log }
 *   onExchange(exchange, info)  every verified exchange, before its answer is released (js/guard.mjs)
 *   onPassThrough(exchange)     every other exchange, once its answer was sent (writes, erasures, certificates,
 *                               prunes, key creations: the ledger's events); bodies over maxBody are not
 *                               recorded (the exchange is still proxied); `request.headers` carries
 *                               `idempotency-key` when sent. Errors it throws are logged.
 */
export async function startGuard(options) {
  const { host = "127.0.0.1", port = 8787, log = () => {}, onPassThrough = null, ...guardOptions } = options;
  if (onPassThrough !== null && typeof onPassThrough !== "function") throw new TypeError("startGuard: onPassThrough must be a function");
  const guard = createGuard(api, guardOptions);
  const upstreamUrl = new URL(guard.upstream.href);
  const transport = upstreamUrl.protocol === "https:" ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 256 });
  const inFlight = new Set();

  const server = http.createServer((req, res) => {
    const done = new Promise((resolve) => res.once("close", resolve));
    inFlight.add(done);
    done.then(() => inFlight.delete(done));
    serve(req, res).catch((error) => {
      log(`guard: ${req.method} ${req.url}: ${error && error.stack}`);
      if (!res.headersSent) sendJson(res, 502, { error: "lians_guard_error", message: String(error && error.message) });
      else res.destroy();
    });
  });
  server.requestTimeout = 0; // bounded by --timeout upstream and the body bounds, not by a wall clock

  async function serve(req, res) {
    const method = (req.method ?? "GET").toUpperCase();
    const path = req.url ?? "/";
    if (method === "GET" && path.split("?")[0] === "/healthz") {
      req.resume();
      return sendJson(res, 200, { status: "ok" });
    }
    const url = guard.target(path.startsWith("/") ? path : `/${path}`);
    const headers = forwardHeaders(req.rawHeaders, upstreamUrl.host);
    const endpoint = guard.endpoint(method, new URL(path, "http://guard").pathname);
    if (endpoint === null) return pipeThrough(req, res, method, url, headers);

    const requestBody = await readBounded(req, guard.maxBody);
    if (requestBody === null) return sendJson(res, 413, { error: "lians_request_too_large", max_body: guard.maxBody }, true);
    // The body goes whole; the answer is verified from its bytes: ask for them as they are (no compression).
    const sent = without(headers, ["content-length", "accept-encoding"]);
    sent.push("content-length", String(requestBody.length), "accept-encoding", "identity");
    const tSent = isoNow();
    const up = await exchange(method, url, sent, requestBody);
    if (up.error) return sendJson(res, up.timeout ? 504 : 502, up.timeout ? { error: "lians_upstream_timeout", timeout_ms: guard.timeoutMs } : { error: "lians_upstream_unreachable", message: up.error });
    const upRes = up.res;
    const status = upRes.statusCode ?? 502;
    if (!(status >= 200 && status < 300)) return relay(upRes, res);
    const encoding = (upRes.headers["content-encoding"] ?? "identity").toLowerCase();
    let responseBody;
    try {
      responseBody = await readBounded(upRes, guard.maxBody);
    } catch {
      if (up.timedOut()) return sendJson(res, 504, { error: "lians_upstream_timeout", timeout_ms: guard.timeoutMs });
      return sendJson(res, 502, { error: "lians_upstream_unreachable", message: "the answer was cut off" });
    }
    if (responseBody === null) {
      up.upReq.destroy();
      return sendJson(res, 502, { error: "lians_response_too_large", max_body: guard.maxBody });
    }
    if (encoding !== "identity") return sendJson(res, 502, { error: "lians_unverifiable", code: "content_encoding", message: `the answer came ${encoding}-encoded though identity was asked for` });
    const decision = await guard.check({ endpoint, method, url, requestBody, status, responseBody, tSent, tRecv: isoNow(), client: clientOf(req) });
    if (!decision.valid) {
      res.writeHead(decision.status, [...decision.headers.flat(), "content-length", String(decision.body.length)]);
      return void res.end(decision.body);
    }
    const out = [];
    for (let i = 0; i < upRes.rawHeaders.length; i += 2) {
      const name = upRes.rawHeaders[i].toLowerCase();
      if (HOP_BY_HOP.includes(name) || GUARD_HEADERS.has(name) || name === "content-length") continue;
      out.push(upRes.rawHeaders[i], upRes.rawHeaders[i + 1]);
    }
    out.push(...decision.headers.flat(), "content-length", String(decision.body.length));
    res.writeHead(status, upRes.statusMessage, out);
    res.end(decision.body);
  }

  /** One upstream exchange: resolves { res, upReq, timedOut() } once the answer's head arrived, or { error, timeout }. */
  function exchange(method, url, headers, body, req) {
    return new Promise((resolve) => {
      const upReq = transport.request(url, { method, headers, agent, timeout: guard.timeoutMs });
      let settled = false;
      let timedOut = false;
      const settle = (value) => {
        if (!settled) {
          settled = true;
          resolve(value);
        }
      };
      upReq.once("response", (upRes) => settle({ res: upRes, upReq, timedOut: () => timedOut }));
      upReq.once("timeout", () => {
        timedOut = true;
        upReq.destroy(new Error("upstream timeout"));
        settle({ error: "timeout", timeout: true });
      });
      upReq.on("error", (error) => settle({ error: error.message, timeout: timedOut }));
      if (req !== undefined) {
        req.pipe(upReq);
        req.once("error", () => upReq.destroy());
      } else upReq.end(body);
    });
  }

  /** A route the guard does not verify: streamed both ways, as it comes (and recorded for onPassThrough). */
  async function pipeThrough(req, res, method, url, headers) {
    const tSent = isoNow();
    const sentBody = onPassThrough === null ? null : tap(req, guard.maxBody);
    const up = await exchange(method, url, headers, undefined, req);
    res.once("close", () => {
      if (!res.writableFinished) up.upReq?.destroy();
    });
    if (up.error) {
      req.resume();
      return sendJson(res, up.timeout ? 504 : 502, up.timeout ? { error: "lians_upstream_timeout", timeout_ms: guard.timeoutMs } : { error: "lians_upstream_unreachable", message: up.error });
    }
    if (onPassThrough !== null) {
      const answer = tap(up.res, guard.maxBody);
      up.res.once("end", () => {
        const requestText = sentBody.text();
        const responseText = answer.text();
        if (requestText === undefined || responseText === undefined) return; // over maxBody: proxied, not recorded
        const exchangeLine = exchangeOf({ client: clientOf(req), tSent, tRecv: isoNow(), method, url, requestText, status: up.res.statusCode, bytes: responseText ?? "" });
        const key = req.headers["idempotency-key"];
        if (typeof key === "string") exchangeLine.request.headers = { "idempotency-key": key };
        Promise.resolve()
          .then(() => onPassThrough(exchangeLine))
          .catch((error) => log(`guard: onPassThrough: ${error && error.stack}`));
      });
    }
    relay(up.res, res);
  }

  const sockets = new Set();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const shown = address.family === "IPv6" || address.address.includes(":") ? `[${address.address}]` : address.address;

  let closing;
  /** Stop accepting, let what is in flight finish (≤ 10 s), then close every connection. */
  function close() {
    closing ??= (async () => {
      const stopped = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections?.();
      const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
      await Promise.race([Promise.all([...inFlight]), grace]);
      for (const socket of sockets) socket.destroy();
      await stopped;
      agent.destroy();
    })();
    return closing;
  }

  return { url: `http://${shown}:${address.port}`, server, guard, close };
}

/** The upstream's answer relayed as it comes: status, reason, headers (raw, minus hop-by-hop and the guard's own), streamed body. */
function relay(upRes, res) {
  const out = [];
  for (let i = 0; i < upRes.rawHeaders.length; i += 2) {
    const name = upRes.rawHeaders[i].toLowerCase();
    if (HOP_BY_HOP.includes(name) || GUARD_HEADERS.has(name)) continue;
    out.push(upRes.rawHeaders[i], upRes.rawHeaders[i + 1]);
  }
  res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, out);
  upRes.pipe(res);
  upRes.once("error", () => res.destroy());
  upRes.once("aborted", () => res.destroy());
}

/** The client's raw headers to forward: minus hop-by-hop (and those `Connection` names), `host` set to the upstream's. */
function forwardHeaders(rawHeaders, upstreamHost) {
  const named = new Set();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === "connection") for (const n of rawHeaders[i + 1].split(",")) named.add(n.trim().toLowerCase());
  }
  const out = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (HOP_BY_HOP.includes(name) || named.has(name) || name === "host") continue;
    out.push(rawHeaders[i], rawHeaders[i + 1]);
  }
  out.push("host", upstreamHost);
  return out;
}

/** Raw headers without the given (lower-case) names. */
function without(raw, names) {
  const out = [];
  for (let i = 0; i < raw.length; i += 2) if (!names.includes(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return out;
}

/** Who sent a request, as the exchange log names it: the guard plus a short hash of its API key. */
function clientOf(req) {
  const key = req.headers["x-api-key"];
  if (typeof key !== "string" || key === "") return "guard";
  return `guard:${api.sha256Hex(key).slice(0, 16)}`;
}

/** Watch a stream's chunks without consuming it: `text()` is its text (null when empty), undefined past `max` bytes. */
function tap(stream, max) {
  const chunks = [];
  let size = 0;
  stream.on("data", (chunk) => {
    size += chunk.length;
    if (size <= max) chunks.push(chunk);
    else chunks.length = 0;
  });
  return {
    text: () => (size > max ? undefined : size === 0 ? null : Buffer.concat(chunks, size).toString("utf8")),
  };
}

/** A stream's bytes, or null as soon as they pass `max` bytes (the rest is left unread). */
function readBounded(stream, max) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const finish = (value, error) => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      stream.off("aborted", onAborted);
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size > max) {
        stream.pause();
        finish(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => finish(new Uint8Array(Buffer.concat(chunks, size)));
    const onError = (error) => finish(undefined, error);
    const onAborted = () => finish(undefined, new Error("the connection was cut"));
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", onError);
    stream.once("aborted", onAborted);
  });
}

function sendJson(res, status, body, closeAfter = false) {
  const bytes = Buffer.from(JSON.stringify(body));
  const headers = { "content-type": "application/json", "content-length": String(bytes.length) };
  if (status !== 200) headers[HEADER_VERIFICATION] = "invalid";
  if (closeAfter) headers.connection = "close";
  res.writeHead(status, headers);
  res.end(bytes);
}

/** Parse the guard's arguments; throws an Error with `usage: true` on a usage error. */
export function parseGuardArgs(argv) {
  const opts = { host: "127.0.0.1", port: 8787, audit: false };
  const usage = (message) => Object.assign(new Error(message), { usage: true });
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= argv.length) throw usage(`${flag} needs a value`);
      return argv[++i];
    };
    if (flag === "--help" || flag === "-h") opts.help = true;
    else if (flag === "--upstream") opts.upstream = value();
    else if (flag === "--listen") {
      const listen = value();
      const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s]+)):(\d{1,5})$/.exec(listen);
      if (!m || Number(m[3]) > 65535) throw usage(`--listen must be HOST:PORT (e.g. 127.0.0.1:8787), got ${JSON.stringify(listen)}`);
      opts.host = m[1] ?? m[2];
      opts.port = Number(m[3]);
    } else if (flag === "--audit" && inline === undefined) opts.audit = true;
    else if (flag === "--max-body") opts.maxBody = integer(flag, value(), usage);
    else if (flag === "--timeout") opts.timeoutMs = integer(flag, value(), usage);
    else if (flag === "--ledger") opts.ledger = value();
    else throw usage(`unknown guard argument ${JSON.stringify(arg)}`);
  }
  if (!opts.help && opts.upstream === undefined) throw usage("--upstream URL is required (the Lians server the guard stands in front of)");
  return opts;
}

function integer(flag, text, usage) {
  if (!/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(Number(text))) throw usage(`${flag} must be a positive integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** `lians-score guard …`: resolves the exit status (0 after a graceful stop, 2 on a usage or start-up error). */
export async function runGuard(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  let opts;
  try {
    opts = parseGuardArgs(argv);
  } catch (error) {
    stderr.write(`lians-score guard: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    stdout.write(USAGE);
    return 0;
  }
  const { help: _help, ledger: ledgerPath, ...options } = opts;
  const log = (line) => stderr.write(`${line}\n`);
  let running;
  let ledger = null;
  try {
    if (ledgerPath !== undefined) {
      // The consistency ledger (js/ledger.mjs): every verified answer is recorded before it is released (an alarm
      // makes it a 502), every write, erasure, certificate, prune and key creation once it was answered.
      const { createLedger } = await import("./node.mjs");
      ledger = await createLedger({ path: ledgerPath });
      options.onExchange = async (exchange, { report }) => {
        if (!report.valid) return null;
        const r = await ledger.record(exchange, { verification: report });
        for (const a of r.alarms) log(`guard: ALARM ${a.invariant} ${a.memory_id ?? "-"}: ${a.message}`);
        return r.alarms.length > 0 ? { error: "lians_ledger_alarm", alarms: r.alarms } : null;
      };
      options.onPassThrough = async (exchange) => {
        const r = await ledger.record(exchange);
        for (const a of r.alarms) log(`guard: ALARM ${a.invariant} ${a.memory_id ?? "-"}: ${a.message}`);
      };
    }
    running = await startGuard({ ...options, log });
  } catch (error) {
    if (ledger !== null) await ledger.close();
    stderr.write(`lians-score guard: ${error.message}\n`);
    return 2;
  }
  if (!["127.0.0.1", "::1", "localhost"].includes(opts.host)) {
    stderr.write(`lians-score guard: listening on ${opts.host}, not only this machine: anyone who reaches it reaches the server\n`);
  }
  stdout.write(`lians-score guard: listening on ${running.url}, verifying ${running.guard.upstream.href}${opts.audit ? " (with audit)" : ""}\n`);
  await new Promise((resolve) => {
    const stop = () => resolve();
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  await running.close();
  if (ledger !== null) await ledger.close();
  stdout.write("lians-score guard: stopped\n");
  return 0;
}
