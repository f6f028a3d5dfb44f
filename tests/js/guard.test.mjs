// The guard (js/guard.mjs, js/guard-node.mjs) over a local upstream that answers with
// the captured server samples (tests/data/samples), as is or tampered byte for byte.
// tests/live/guard.test.mjs runs it against a real Lians server, with the real Python client.
//   - createGuard: option checks; handle() (the web host, as in the Worker);
//   - startGuard (node:http): byte-for-byte valid answers, 502 reports, streamed
//     pass-through, hop-by-hop headers, bounds, timeout, the onExchange/onPassThrough seams.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequire } from "node:module";
import * as lians from "lians-score";
import * as verify from "../../js/verify.mjs";
import { createGuard } from "../../js/guard.mjs";
import { startGuard } from "../../js/guard-node.mjs";
import { ROOT, SAMPLES } from "./helpers.mjs";
import { tamperAt, editString } from "../live/tamper.mjs";

// The verify-only entry as a Worker has it (the wasm instantiated from its bytes).
verify.initSync(readFileSync(path.join(ROOT, "dist/verify/lians_score_verify_bg.wasm")));
const guardCjs = createRequire(import.meta.url)(path.join(ROOT, "js/guard.cjs"));
const sample = (name) => readFileSync(path.join(SAMPLES, name), "utf8");
const RECALL = sample("recall-08-fast-filters-acme-tinyfloat.json");
const RECALL_QUERY = "Acme revenue";
const CONTEXT = sample("context-01-deep-acme-summary.json");
const CONTEXT_QUERY = "Summarize Acme account facts";
const TAMPERED = tamperAt(RECALL, ["memories", 0, "content"], editString);
const body = (query) => JSON.stringify({ agent_id: "a", query });

/** A local upstream: routes "METHOD /path" → {status, body, headers, delayMs}; records each request. */
async function upstream(routes) {
  const seen = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
    const route = routes[`${req.method} ${req.url.split("?")[0]}`];
    if (route === undefined) {
      res.writeHead(404, { "content-type": "text/plain" });
      return void res.end("not found");
    }
    const answer = typeof route === "string" ? { body: route } : route;
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
    if (answer.chunks) {
      for (const part of answer.chunks) {
        res.write(part);
        await new Promise((r) => setTimeout(r, 5));
      }
      return void res.end();
    }
    res.end(answer.body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

const closers = [];
after(async () => {
  for (const c of closers.reverse()) await c();
});
async function setup(routes, options = {}) {
  const up = await upstream(routes);
  const g = await startGuard({ upstream: up.url, port: 0, ...options });
  closers.push(up.close, g.close);
  return { up, g };
}

test("createGuard: options are checked (typed errors); the CommonJS twin is the same code", () => {
  const throwsCode = (fn, code, pointer) =>
    assert.throws(fn, (e) => e instanceof lians.LiansScoreError && e.code === code && (pointer === undefined || e.path === pointer));
  throwsCode(() => createGuard(verify, {}), "invalid_value", "/options/upstream");
  throwsCode(() => createGuard(verify, { upstream: "ftp://x" }), "invalid_value", "/options/upstream");
  throwsCode(() => createGuard(verify, { upstream: "https://x", upstrem: 1 }), "invalid_value", "/options/upstrem");
  throwsCode(() => createGuard(verify, { upstream: "https://x", audit: true }), "invalid_value", "/options/audit"); // no auditRecall in verify
  throwsCode(() => createGuard(verify, { upstream: "https://x", maxBody: 0 }), "invalid_value", "/options/maxBody");
  throwsCode(() => createGuard({}, { upstream: "https://x" }), "wrong_type", "/api");
  const g = createGuard(lians, { upstream: "https://lians.example/base/", audit: true });
  assert.equal(g.target("/v1/recall?x=1"), "https://lians.example/base/v1/recall?x=1");
  assert.equal(g.endpoint("POST", "/v1/recall"), "recall");
  assert.equal(g.endpoint("POST", "/v1/context/"), "context");
  assert.equal(g.endpoint("GET", "/v1/recall"), null);
  assert.equal(g.endpoint("POST", "/v1/memories"), null);
  assert.equal(typeof guardCjs.createGuard, "function");
  assert.equal(guardCjs.createGuard(lians, { upstream: "https://lians.example" }).target("/a"), "https://lians.example/a");
});

test("handle() (the Worker's host): valid byte for byte with headers; tampered 502 with the report; the rest untouched", async () => {
  const answers = { "/v1/recall": RECALL, "/v1/context": CONTEXT };
  let tamper = false;
  const calls = [];
  const fetcher = async (url, init) => {
    calls.push({ url, init });
    const p = new URL(url).pathname;
    if (answers[p] && init.method === "POST") return new Response(tamper && p === "/v1/recall" ? TAMPERED : answers[p], { status: 200, headers: { "content-type": "application/json", "x-lians-verification": "valid" } });
    return new Response("other", { status: 302, headers: { location: "/elsewhere", "x-lians-verification": "valid" } });
  };
  const g = createGuard(verify, { upstream: "https://lians.example", fetch: fetcher });
  const req = (p, query, method = "POST") => new Request(`https://guard.example${p}`, { method, body: method === "POST" ? body(query) : undefined, headers: { "x-api-key": "k" } });
  const ok = await g.handle(req("/v1/recall", RECALL_QUERY));
  assert.equal(ok.status, 200);
  assert.equal(await ok.text(), RECALL);
  assert.equal(ok.headers.get("x-lians-verification"), "valid");
  assert.equal(ok.headers.get("x-lians-receipt-sha256"), JSON.parse(RECALL).receipt_sha256);
  assert.equal(calls.at(-1).url, "https://lians.example/v1/recall");
  assert.equal(calls.at(-1).init.redirect, "manual");
  const ctx = await g.handle(req("/v1/context", CONTEXT_QUERY));
  assert.equal(ctx.headers.get("x-lians-verification"), "valid");
  const wrongQuery = await g.handle(req("/v1/recall", "another query"));
  assert.equal(wrongQuery.status, 502);
  assert.deepEqual((await wrongQuery.json()).failures, ["query_hash_mismatch"]);
  tamper = true;
  const bad = await g.handle(req("/v1/recall", RECALL_QUERY));
  assert.equal(bad.status, 502);
  const report = await bad.json();
  assert.equal(report.error, "lians_verification_failed");
  assert.ok(report.failures.includes("content_hash_mismatch"));
  assert.equal(report.report.valid, false);
  const noQuery = await g.handle(new Request("https://guard.example/v1/recall", { method: "POST", body: "{}" }));
  assert.equal(noQuery.status, 502);
  assert.deepEqual(Object.keys(await noQuery.json()), ["error", "code", "path", "message"]);
  const other = await g.handle(req("/v1/memories", "q"));
  assert.equal(other.status, 302);
  assert.equal(other.headers.get("location"), "/elsewhere");
  assert.equal(other.headers.get("x-lians-verification"), null, "a server cannot vouch for itself");
  assert.equal(await other.text(), "other");
  const health = await g.handle(req("/healthz", null, "GET"));
  assert.deepEqual(await health.json(), { status: "ok" });
});

test("handle() over a real fetch (Node's): a streamed request body passes through; a recall is verified", async () => {
  const { up } = await setup({ "POST /upload": { status: 201, body: "stored" }, "POST /v1/recall": RECALL });
  const g = createGuard(verify, { upstream: up.url });
  const stream = new ReadableStream({
    start(c) {
      c.enqueue(new TextEncoder().encode("part one, "));
      c.enqueue(new TextEncoder().encode("part two"));
      c.close();
    },
  });
  const res = await g.handle(new Request("https://guard.example/upload", { method: "POST", body: stream, duplex: "half" }));
  assert.equal(res.status, 201);
  assert.equal(await res.text(), "stored");
  assert.equal(up.seen.at(-1).body, "part one, part two");
  const ok = await g.handle(new Request("https://guard.example/v1/recall", { method: "POST", body: body(RECALL_QUERY) }));
  assert.equal(ok.headers.get("x-lians-verification"), "valid");
  assert.equal(await ok.text(), RECALL);
});

test("startGuard: a valid answer passes byte for byte with the upstream's headers and the verification headers", async () => {
  const { up, g } = await setup({ "POST /v1/recall": { body: RECALL, headers: { "x-upstream": "1", "x-lians-verification": "valid", "set-cookie": ["a=1", "b=2"] } }, "POST /v1/context": CONTEXT });
  const res = await fetch(`${g.url}/v1/recall`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "accept-encoding": "gzip" }, body: body(RECALL_QUERY) });
  assert.equal(res.status, 200);
  assert.equal(await res.text(), RECALL);
  assert.equal(res.headers.get("x-lians-verification"), "valid");
  assert.equal(res.headers.get("x-lians-receipt-sha256"), JSON.parse(RECALL).receipt_sha256);
  assert.equal(res.headers.get("x-upstream"), "1");
  assert.deepEqual(res.headers.getSetCookie(), ["a=1", "b=2"]);
  const sent = up.seen.at(-1);
  assert.equal(sent.body, body(RECALL_QUERY), "the request went as sent");
  assert.equal(sent.headers["x-api-key"], "k");
  assert.equal(sent.headers["accept-encoding"], "identity", "the answer is asked for uncompressed");
  const ctx = await fetch(`${g.url}/v1/context`, { method: "POST", body: body(CONTEXT_QUERY) });
  assert.equal(await ctx.text(), CONTEXT);
  assert.equal(ctx.headers.get("x-lians-verification"), "valid");
});

test("startGuard: tampered / unverifiable answers are 502 JSON; non-2xx answers of the verified routes pass", async () => {
  const { g } = await setup({
    "POST /v1/recall": TAMPERED,
    "POST /v1/context": { status: 422, body: '{"detail":"bad"}', headers: { "x-lians-verification": "valid" } },
  });
  const bad = await fetch(`${g.url}/v1/recall`, { method: "POST", body: body(RECALL_QUERY) });
  assert.equal(bad.status, 502);
  assert.equal(bad.headers.get("x-lians-verification"), "invalid");
  const report = await bad.json();
  assert.ok(report.failures.includes("content_hash_mismatch"));
  const junk = await fetch(`${g.url}/v1/recall`, { method: "POST", body: "not json" });
  assert.equal(junk.status, 502);
  assert.equal((await junk.json()).code, "malformed_json");
  const notUtf8 = await fetch(`${g.url}/v1/recall`, { method: "POST", body: new Uint8Array([0x7b, 0xff, 0x7d]) });
  assert.equal((await notUtf8.json()).code, "invalid_utf8");
  const err = await fetch(`${g.url}/v1/context`, { method: "POST", body: body("q") });
  assert.equal(err.status, 422);
  assert.equal(await err.text(), '{"detail":"bad"}');
  assert.equal(err.headers.get("x-lians-verification"), null);
});

test("startGuard: other routes stream through untouched (status, headers, body, redirects, hop-by-hop dropped)", async () => {
  const big = "x".repeat(3 * 1024 * 1024);
  const { up, g } = await setup(
    {
      "GET /stream": { chunks: ["one,", "two,", "three"], headers: { "content-type": "text/plain" } },
      "POST /upload": { status: 201, body: "stored" },
      "GET /moved": { status: 307, body: "", headers: { location: "https://elsewhere.example/" } },
      "GET /big": { body: big, headers: { "content-type": "text/plain" } },
    },
    { maxBody: 1024 },
  );
  const s = await fetch(`${g.url}/stream`);
  assert.equal(await s.text(), "one,two,three");
  const u = await new Promise((resolve, reject) => {
    const r = http.request(`${g.url}/upload`, { method: "POST", headers: { connection: "keep-alive, x-hop", "x-hop": "1", "x-end": "2" } }, (res) => {
      res.resume();
      res.once("end", () => resolve(res));
    });
    r.once("error", reject);
    r.end("a".repeat(5000));
  });
  assert.equal(u.statusCode, 201);
  assert.equal(up.seen.at(-1).body.length, 5000, "a streamed body is not bounded by --max-body");
  assert.equal(up.seen.at(-1).headers["x-hop"], undefined, "headers named by Connection are hop-by-hop");
  assert.equal(up.seen.at(-1).headers["x-end"], "2");
  const m = await fetch(`${g.url}/moved`, { redirect: "manual" });
  assert.equal(m.status, 307);
  assert.equal(m.headers.get("location"), "https://elsewhere.example/");
  const b = await fetch(`${g.url}/big`);
  assert.equal((await b.text()).length, big.length, "a large answer streams through");
  const missing = await fetch(`${g.url}/nothing`);
  assert.equal(missing.status, 404);
  assert.equal(await missing.text(), "not found");
});

test("startGuard: bounds (413, 502) and the upstream timeout (504); an unreachable upstream is 502", async () => {
  const { g } = await setup({ "POST /v1/recall": RECALL, "POST /v1/context": { body: CONTEXT, delayMs: 1000 } }, { maxBody: 1000, timeoutMs: 200 });
  const tooBig = await fetch(`${g.url}/v1/recall`, { method: "POST", body: body("q".repeat(2000)) });
  assert.equal(tooBig.status, 413);
  assert.equal((await tooBig.json()).error, "lians_request_too_large");
  const longAnswer = await fetch(`${g.url}/v1/recall`, { method: "POST", body: body(RECALL_QUERY) });
  assert.equal(longAnswer.status, 502);
  assert.equal((await longAnswer.json()).error, "lians_response_too_large");
  const slow = await fetch(`${g.url}/v1/context`, { method: "POST", body: body(CONTEXT_QUERY) });
  assert.equal(slow.status, 504);
  assert.equal((await slow.json()).error, "lians_upstream_timeout");
  const dead = await startGuard({ upstream: "http://127.0.0.1:9", port: 0 });
  closers.push(dead.close);
  const r = await fetch(`${dead.url}/v1/memories`);
  assert.equal(r.status, 502);
  assert.equal((await r.json()).error, "lians_upstream_unreachable");
  const health = await fetch(`${dead.url}/healthz`);
  assert.equal(health.status, 200);
});

test("startGuard: the seams: onExchange sees every verified exchange (and may refuse it), onPassThrough the rest", async () => {
  const exchanges = [];
  const passed = [];
  let refuse = false;
  const { g } = await setup(
    { "POST /v1/recall": RECALL, "POST /v1/memories": { status: 201, body: '{"id":"m1"}' } },
    {
      onExchange: (exchange, info) => {
        exchanges.push({ exchange, info });
        return refuse ? { error: "lians_ledger_alarm", alarms: [{ invariant: "I1" }] } : undefined;
      },
      onPassThrough: (exchange) => passed.push(exchange),
    },
  );
  const res = await fetch(`${g.url}/v1/recall?trace=1`, { method: "POST", headers: { "x-api-key": "secret" }, body: body(RECALL_QUERY) });
  assert.equal(res.status, 200);
  const { exchange, info } = exchanges[0];
  assert.deepEqual(Object.keys(exchange), ["client", "t_sent", "t_recv", "request", "response"]);
  assert.match(exchange.client, /^guard:[0-9a-f]{16}$/);
  assert.ok(!exchange.client.includes("secret"));
  assert.match(exchange.t_sent, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
  assert.deepEqual(exchange.request, { method: "POST", url: `${g.guard.upstream.href}/v1/recall?trace=1`, body: body(RECALL_QUERY) });
  assert.deepEqual(exchange.response, { status: 200, body: RECALL });
  assert.equal(info.endpoint, "recall");
  assert.equal(info.report.valid, true);
  refuse = true;
  const refused = await fetch(`${g.url}/v1/recall`, { method: "POST", body: body(RECALL_QUERY) });
  assert.equal(refused.status, 502);
  assert.deepEqual(await refused.json(), { error: "lians_ledger_alarm", alarms: [{ invariant: "I1" }] });
  const w = await fetch(`${g.url}/v1/memories`, { method: "POST", headers: { "idempotency-key": "ik-1" }, body: '{"content":"c"}' });
  assert.equal(w.status, 201);
  await w.text();
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(passed.at(-1).request, { method: "POST", url: `${g.guard.upstream.href}/v1/memories`, body: '{"content":"c"}', headers: { "idempotency-key": "ik-1" } });
  assert.deepEqual(passed.at(-1).response, { status: 201, body: '{"id":"m1"}' });
});
