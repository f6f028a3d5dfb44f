// createVerifyingFetch (js/fetch.mjs) over a stub base fetch that answers with
// the captured server samples (tests/data/samples), as is or tampered byte for byte;
// and the error classes (js/errors.mjs) across the ESM and CommonJS entries.
// tests/live/fetch.test.mjs runs the same against a real Lians server, from
// the packed tarball.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import * as lians from "lians-score";
import * as web from "../../js/web.mjs";
import { ROOT, SAMPLES } from "./helpers.mjs";
import { tamperAt, editString } from "../live/tamper.mjs";

const cjs = createRequire(import.meta.url)(path.join(ROOT, "js/node.cjs"));
const sample = (name) => readFileSync(path.join(SAMPLES, name), "utf8");
const RECALL = sample("recall-08-fast-filters-acme-tinyfloat.json");
const RECALL_QUERY = "Acme revenue";
const CONTEXT = sample("context-01-deep-acme-summary.json");
const CONTEXT_QUERY = "Summarize Acme account facts";
const PACK = sample("pack-01-v2-signed.json");
const PACK_KEY = sample("evidence_public_key.b64").trim();
const BASE = "https://lians.example/api";
/** The scope every wrapper here is given: the server above. */
const SCOPE = { baseUrl: BASE };

/** A base fetch answering from `routes` (`"METHOD /path"` → body text or {status, body, headers}); records each call. */
function stubFetch(routes) {
  const calls = [];
  async function base(input, init) {
    const request = new Request(input, init);
    const url = new URL(request.url);
    // Routed as the server does: on the percent-decoded path, a trailing slash redirected to the route.
    const key = `${request.method} ${decodeURIComponent(url.pathname).replace(/\/+$/, "")}`;
    calls.push({ input, init, key, body: request.method === "GET" ? null : await request.text() });
    let route = routes[key];
    if (route === undefined) return new Response("not found", { status: 404 });
    if (typeof route === "string" || route instanceof Uint8Array) route = { body: route };
    return new Response(route.body, {
      status: route.status ?? 200,
      headers: { "content-type": "application/json", ...route.headers },
    });
  }
  base.calls = calls;
  return base;
}

const post = (query, extra = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ agent_id: "a", query, ...extra }),
});

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected a rejection");
}

test("a valid recall resolves to a Response over the same bytes, with the verification headers", async () => {
  const base = stubFetch({ "POST /api/v1/recall": RECALL });
  const seen = [];
  const vfetch = lians.createVerifyingFetch(base, { ...SCOPE, onVerified: (report, request) => seen.push({ report, request }) });
  const res = await vfetch(`${BASE}/v1/recall`, post(RECALL_QUERY));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-lians-verification"), "valid");
  assert.equal(res.headers.get("x-lians-receipt-sha256"), JSON.parse(RECALL).receipt_sha256);
  assert.equal(res.headers.get("content-type"), "application/json");
  assert.equal(res.liansVerification.valid, true);
  assert.equal(await res.clone().text(), RECALL);
  assert.deepEqual(await res.json(), JSON.parse(RECALL));
  assert.equal(seen.length, 1);
  assert.deepEqual(seen[0].request, { url: `${BASE}/v1/recall`, method: "POST", endpoint: "recall", query: RECALL_QUERY });
  assert.equal(seen[0].report, res.liansVerification);
  // The request reached the base fetch unchanged.
  assert.equal(base.calls[0].body, post(RECALL_QUERY).body);
});

test("a recall whose memory content was rewritten rejects with LiansVerificationError (content_hash_mismatch)", async () => {
  const tampered = tamperAt(RECALL, ["memories", 0, "content"], editString);
  const vfetch = lians.createVerifyingFetch(stubFetch({ "POST /api/v1/recall": tampered }), SCOPE);
  const error = await rejection(vfetch(`${BASE}/v1/recall`, post(RECALL_QUERY)));
  assert.ok(error instanceof lians.LiansVerificationError);
  assert.ok(error instanceof lians.LiansScoreError);
  assert.ok(error instanceof Error);
  assert.equal(error.name, "LiansVerificationError");
  assert.equal(error.code, "verification_failed");
  assert.equal(error.path, "/memories/0/content");
  assert.ok(error.report.failures.includes("content_hash_mismatch"), JSON.stringify(error.report.failures));
  assert.match(error.message, /content_hash_mismatch/);
});

test("a query other than the one sent is a query_hash_mismatch", async () => {
  const vfetch = lians.createVerifyingFetch(stubFetch({ "POST /api/v1/recall": RECALL }), SCOPE);
  const error = await rejection(vfetch(`${BASE}/v1/recall`, post("another query")));
  assert.ok(error instanceof lians.LiansVerificationError);
  assert.deepEqual(error.report.failures, ["query_hash_mismatch"]);
});

test("context: valid, and a rewritten context text is context_hash_mismatch", async () => {
  const vfetch = lians.createVerifyingFetch(stubFetch({ "POST /api/v1/context": CONTEXT }), SCOPE);
  const res = await vfetch(`${BASE}/v1/context`, post(CONTEXT_QUERY));
  assert.equal(res.headers.get("x-lians-verification"), "valid");
  assert.equal((await res.json()).context, JSON.parse(CONTEXT).context);

  const tampered = tamperAt(CONTEXT, ["context"], editString);
  const bad = lians.createVerifyingFetch(stubFetch({ "POST /api/v1/context": tampered }), SCOPE);
  const error = await rejection(bad(`${BASE}/v1/context`, post(CONTEXT_QUERY)));
  assert.ok(error instanceof lians.LiansVerificationError);
  assert.ok(error.report.failures.includes("context_hash_mismatch"), JSON.stringify(error.report.failures));
});

test('onInvalid: "report" resolves with x-lians-verification: invalid and the report', async () => {
  const tampered = tamperAt(RECALL, ["memories", 0, "content"], editString);
  const vfetch = lians.createVerifyingFetch(stubFetch({ "POST /api/v1/recall": tampered }), { ...SCOPE, onInvalid: "report" });
  const res = await vfetch(`${BASE}/v1/recall`, post(RECALL_QUERY));
  assert.equal(res.headers.get("x-lians-verification"), "invalid");
  assert.equal(res.liansVerification.valid, false);
  assert.ok(res.liansVerification.failures.includes("content_hash_mismatch"));
  assert.equal(await res.text(), tampered);
});

test("other requests pass through untouched (same Response object)", async () => {
  const answers = new Map();
  const base = async (input, init) => {
    const res = new Response(RECALL, { status: 200, headers: { "x-lians-verification": "valid" } });
    answers.set(`${typeof input === "string" ? input : input.url} ${init?.method ?? "GET"}`, res);
    return res;
  };
  const vfetch = lians.createVerifyingFetch(base, SCOPE);
  for (const [url, init] of [
    [`${BASE}/v1/memories`, post("q")],
    [`${BASE}/v1/recall`, { method: "GET" }],
    [`${BASE}/v1/recall/extra`, post("q")],
    [`${BASE}/v1/recalls`, post("q")],
    [`${BASE}/v1/decisions/d/evidence-pack`, undefined], // no trusted key: not verified
    ["https://other.example/", undefined],
  ]) {
    const res = await vfetch(url, init);
    assert.equal(res, answers.get(`${url} ${init?.method ?? "GET"}`), url);
  }
});

test("non-2xx answers of the verified routes pass through, without spoofed verification headers", async () => {
  const base = stubFetch({
    "POST /api/v1/recall": { status: 422, body: '{"detail":"bad"}', headers: { "x-lians-verification": "valid" } },
    "POST /api/v1/context": { status: 500, body: "oops" },
  });
  const vfetch = lians.createVerifyingFetch(base, SCOPE);
  const res = await vfetch(`${BASE}/v1/recall`, post("q"));
  assert.equal(res.status, 422);
  assert.equal(res.headers.get("x-lians-verification"), null);
  assert.equal(await res.text(), '{"detail":"bad"}');
  const res2 = await vfetch(`${BASE}/v1/context`, post("q"));
  assert.equal(res2.status, 500);
  assert.equal(await res2.text(), "oops");
});

test("inputs: Request objects, URL objects, and bodies as string, bytes, Blob, ReadableStream", async () => {
  const base = stubFetch({ "POST /api/v1/recall": RECALL });
  const vfetch = lians.createVerifyingFetch(base, SCOPE);
  const text = post(RECALL_QUERY).body;
  const bytes = new TextEncoder().encode(text);
  const stream = () =>
    new ReadableStream({
      start(c) {
        c.enqueue(bytes.slice(0, 7));
        c.enqueue(bytes.slice(7));
        c.close();
      },
    });
  const cases = [
    ["string URL, string body", () => vfetch(`${BASE}/v1/recall`, post(RECALL_QUERY))],
    ["URL object", () => vfetch(new URL(`${BASE}/v1/recall`), post(RECALL_QUERY))],
    ["Request", () => vfetch(new Request(`${BASE}/v1/recall`, post(RECALL_QUERY)))],
    ["Request + init body", () => vfetch(new Request(`${BASE}/v1/recall`, { method: "POST", body: "{}" }), { body: text })],
    ["Uint8Array", () => vfetch(`${BASE}/v1/recall`, { method: "POST", body: bytes })],
    ["ArrayBuffer", () => vfetch(`${BASE}/v1/recall`, { method: "POST", body: bytes.slice().buffer })],
    ["DataView", () => vfetch(`${BASE}/v1/recall`, { method: "POST", body: new DataView(bytes.slice().buffer) })],
    ["Blob", () => vfetch(`${BASE}/v1/recall`, { method: "POST", body: new Blob([text]) })],
    ["ReadableStream", () => vfetch(`${BASE}/v1/recall`, { method: "POST", body: stream(), duplex: "half" })],
    ["lower-case method, trailing slash", () => vfetch(`${BASE}/v1/recall/`, { ...post(RECALL_QUERY), method: "post" })],
    ["percent-encoded path", () => vfetch(`${BASE}/v1/rec%61ll`, post(RECALL_QUERY))],
  ];
  for (const [name, call] of cases) {
    const res = await call();
    assert.equal(res.headers.get("x-lians-verification"), "valid", name);
    assert.equal(base.calls.at(-1).body, text, `${name}: the base fetch got the body`);
  }
  // A wrong query in each body form is caught, i.e. the query really is read from it.
  const wrong = new TextEncoder().encode(post("wrong").body);
  for (const body of [wrong, new Blob([wrong])]) {
    const error = await rejection(vfetch(`${BASE}/v1/recall`, { method: "POST", body }));
    assert.deepEqual(error.report.failures, ["query_hash_mismatch"]);
  }
});

test("a request body without a readable string query fails closed with a LiansScoreError", async () => {
  const vfetch = lians.createVerifyingFetch(stubFetch({ "POST /api/v1/recall": RECALL }), SCOPE);
  for (const [init, code, where] of [
    [{ method: "POST" }, "missing_field", "/query"],
    [{ method: "POST", body: "not json" }, "malformed_json", ""],
    [{ method: "POST", body: "{}" }, "missing_field", "/query"],
    [{ method: "POST", body: '{"query":1}' }, "wrong_type", "/query"],
    [{ method: "POST", body: new URLSearchParams({ query: RECALL_QUERY }) }, "malformed_json", ""],
    [{ method: "POST", body: new Uint8Array([0x7b, 0xff, 0x7d]) }, "wrong_type", "/query"],
  ]) {
    const error = await rejection(vfetch(`${BASE}/v1/recall`, init));
    assert.ok(error instanceof lians.LiansScoreError, String(error));
    assert.ok(!(error instanceof lians.LiansVerificationError));
    assert.equal(error.code, code, String(init.body));
    assert.equal(error.path, where);
  }
});

test("a body that is not UTF-8 or not JSON is invalid, never valid", async () => {
  const junk = new Uint8Array([0x7b, 0xff, 0x7d]);
  const vfetch = lians.createVerifyingFetch(stubFetch({ "POST /api/v1/recall": junk, "POST /api/v1/context": "" }), { ...SCOPE, onInvalid: "report" });
  const error = await rejection(vfetch(`${BASE}/v1/recall`, post("q")));
  assert.ok(error instanceof lians.LiansScoreError);
  assert.equal(error.code, "malformed_json");
  const res = await vfetch(`${BASE}/v1/context`, post("q"));
  assert.equal(res.headers.get("x-lians-verification"), "invalid");
  assert.ok(res.liansVerification.failures.includes("malformed_json"));
});

test("installed as globalThis.fetch it captures the base fetch (no recursion)", async () => {
  const saved = globalThis.fetch;
  const base = stubFetch({ "POST /api/v1/recall": RECALL });
  try {
    globalThis.fetch = base;
    globalThis.fetch = lians.createVerifyingFetch(fetch, SCOPE);
    const res = await fetch(`${BASE}/v1/recall`, post(RECALL_QUERY));
    assert.equal(res.headers.get("x-lians-verification"), "valid");
    assert.equal(base.calls.length, 1);
    // The default base is the global fetch at creation time.
    globalThis.fetch = base;
    globalThis.fetch = lians.createVerifyingFetch(undefined, SCOPE);
    const res2 = await fetch(`${BASE}/v1/recall`, post(RECALL_QUERY));
    assert.equal(res2.headers.get("x-lians-verification"), "valid");
    assert.equal(base.calls.length, 2);
    // A LiansClient-style call: global fetch, then res.json().
    const tampered = tamperAt(RECALL, ["memories", 0, "content"], editString);
    globalThis.fetch = lians.createVerifyingFetch(stubFetch({ "POST /api/v1/recall": tampered }), SCOPE);
    const error = await rejection(fetch(`${BASE}/v1/recall`, post(RECALL_QUERY)).then((r) => r.json()));
    assert.ok(error instanceof lians.LiansVerificationError);
  } finally {
    globalThis.fetch = saved;
  }
});

test("Evidence Packs are verified when a trusted key is given", async () => {
  const base = stubFetch({ "GET /api/v1/decisions/d1/evidence-pack": PACK });
  const vfetch = lians.createVerifyingFetch(base, { ...SCOPE, trustedPublicKey: PACK_KEY, expectedKeyId: "lians-real-test-key" });
  const res = await vfetch(`${BASE}/v1/decisions/d1/evidence-pack?version=v2`);
  assert.equal(res.headers.get("x-lians-verification"), "valid");
  assert.equal(await res.text(), PACK);
  const other = lians.createVerifyingFetch(base, { ...SCOPE, trustedPublicKey: "A".repeat(43) + "=" });
  const error = await rejection(other(`${BASE}/v1/decisions/d1/evidence-pack?version=v2`));
  assert.ok(error.report.failures.includes("untrusted_key"));
  const wrongId = lians.createVerifyingFetch(base, { ...SCOPE, trustedPublicKey: PACK_KEY, expectedKeyId: "other" });
  assert.ok((await rejection(wrongId(`${BASE}/v1/decisions/d1/evidence-pack`))).report.failures.includes("key_id_mismatch"));
});

test("options: unknown names throw with a did-you-mean hint; wrong types throw", () => {
  const throwsCode = (fn, code, pattern) => {
    try {
      fn();
    } catch (error) {
      assert.ok(error instanceof lians.LiansScoreError, String(error));
      assert.equal(error.code, code);
      if (pattern) assert.match(error.message, pattern);
      return;
    }
    assert.fail("expected a throw");
  };
  const f = async () => new Response("");
  throwsCode(() => lians.createVerifyingFetch(f, { ...SCOPE, onVerfied() {} }), "invalid_value", /did you mean "onVerified"/);
  throwsCode(() => lians.createVerifyingFetch(f, { ...SCOPE, oninvalid: "report" }), "invalid_value", /did you mean "onInvalid"/);
  throwsCode(() => lians.createVerifyingFetch(f, { ...SCOPE, trustedKey: "x" }), "invalid_value", /did you mean "trustedPublicKey"/);
  throwsCode(() => lians.createVerifyingFetch(f, { ...SCOPE, zzzzzzzzzzzz: 1 }), "invalid_value", /unknown createVerifyingFetch option "zzzzzzzzzzzz"; known/);
  throwsCode(() => lians.createVerifyingFetch(f, { ...SCOPE, given: { privacy_minmal: true } }), "invalid_value", /did you mean "privacy_minimal"/);
  throwsCode(() => lians.createVerifyingFetch(f, { ...SCOPE, given: { query: "q" } }), "invalid_value", /query of its own request/);
  throwsCode(() => lians.createVerifyingFetch(f, { ...SCOPE, onInvalid: "ignore" }), "invalid_value");
  throwsCode(() => lians.createVerifyingFetch(f, { ...SCOPE, onVerified: 1 }), "wrong_type");
  throwsCode(() => lians.createVerifyingFetch(f, { ...SCOPE, expectedKeyId: "id" }), "missing_field");
  throwsCode(() => lians.createVerifyingFetch(f, "options"), "wrong_type");
  throwsCode(() => lians.createVerifyingFetch("https://lians.example"), "wrong_type");
  throwsCode(() => lians.createVerifyingFetch(f, { ...SCOPE, given: [] }), "wrong_type");
});

test("scope: a non-Lians API answering the same paths is left untouched; only the scoped server is verified", async () => {
  // Another API whose `/v1/context` and `/v1/recall` answers are not Lians answers (no receipt, no query).
  const foreign = '{"context":"weather: sunny","items":[]}';
  const answers = [];
  const base = async (input, init) => {
    const href = new URL(typeof input === "string" ? input : input.url).href;
    const res = new Response(href.startsWith(`${BASE}/`) ? RECALL : foreign, { status: 200, headers: { "content-type": "application/json" } });
    answers.push(res);
    return res;
  };
  const vfetch = lians.createVerifyingFetch(base, SCOPE);
  for (const url of [
    "https://other.example/v1/context",
    "https://other.example/api/v1/recall",
    "https://lians.example/v1/recall", // the right host, outside the /api prefix
    "https://lians.example/apix/v1/recall", // a prefix is a path segment, not a string prefix
    "http://lians.example/api/v1/recall", // another origin (scheme)
    "https://lians.example:8443/api/v1/recall", // another origin (port)
    "https://lians.example.evil/api/v1/recall",
  ]) {
    const res = await vfetch(url, { method: "POST", body: "not even JSON" });
    assert.equal(res, answers.at(-1), `${url}: the base fetch's own Response`);
    assert.equal(res.liansVerification, undefined);
    assert.equal(await res.text(), foreign, url);
  }
  // Under the scope (the host's case and a default port do not matter), the answer is verified.
  for (const url of [`${BASE}/v1/recall`, "https://LIANS.example:443/api/v1/recall", `${BASE}/v1/recall/`]) {
    const res = await vfetch(url, post(RECALL_QUERY));
    assert.equal(res.headers.get("x-lians-verification"), "valid", url);
    assert.equal(res.liansVerification.valid, true);
  }
  // A root scope (origin only, trailing slash or not) covers every path of that origin.
  for (const baseUrl of ["https://lians.example", "https://lians.example/", new URL("https://lians.example")]) {
    const root = lians.createVerifyingFetch(base, { baseUrl });
    const error = await rejection(root("https://lians.example/api/v1/recall", post("another query")));
    assert.ok(error instanceof lians.LiansVerificationError, String(baseUrl));
  }
});

test("scope: baseUrls verifies under each of several servers", async () => {
  const base = stubFetch({ "POST /api/v1/recall": RECALL, "POST /v1/context": CONTEXT });
  const vfetch = lians.createVerifyingFetch(base, { baseUrls: [BASE, "http://127.0.0.1:8000"] });
  assert.equal((await vfetch(`${BASE}/v1/recall`, post(RECALL_QUERY))).headers.get("x-lians-verification"), "valid");
  assert.equal((await vfetch("http://127.0.0.1:8000/v1/context", post(CONTEXT_QUERY))).headers.get("x-lians-verification"), "valid");
  const passed = await vfetch("http://127.0.0.1:8001/v1/context", post("q"));
  assert.equal(passed.headers.get("x-lians-verification"), null);
  assert.equal(await passed.text(), CONTEXT, "another port: the answer as is, not checked against the wrong query");
});

test("scope: required, and checked: invalid_value with a hint when missing or malformed", () => {
  const f = async () => new Response("");
  const throwsCode = (fn, code, path, pattern) => {
    try {
      fn();
    } catch (error) {
      assert.ok(error instanceof lians.LiansScoreError, String(error));
      assert.equal(error.code, code, error.message);
      assert.equal(error.path, path);
      if (pattern) assert.match(error.message, pattern);
      return;
    }
    assert.fail("expected a throw");
  };
  const hint = /createVerifyingFetch\(fetch, \{ baseUrl: "https:\/\/lians\.example" \}\)/;
  throwsCode(() => lians.createVerifyingFetch(f), "invalid_value", "/options/baseUrl", hint);
  throwsCode(() => lians.createVerifyingFetch(f, {}), "invalid_value", "/options/baseUrl", hint);
  throwsCode(() => lians.createVerifyingFetch(f, { onInvalid: "report" }), "invalid_value", "/options/baseUrl", hint);
  throwsCode(() => cjs.createVerifyingFetch(f), "invalid_value", "/options/baseUrl", hint);
  throwsCode(() => web.createVerifyingFetch(f), "invalid_value", "/options/baseUrl", hint);
  throwsCode(() => lians.createVerifyingFetch(f, { baseUrl: BASE, baseUrls: [BASE] }), "invalid_value", "/options/baseUrls");
  throwsCode(() => lians.createVerifyingFetch(f, { baseUrls: [] }), "invalid_value", "/options/baseUrls", hint);
  throwsCode(() => lians.createVerifyingFetch(f, { baseUrls: BASE }), "wrong_type", "/options/baseUrls");
  throwsCode(() => lians.createVerifyingFetch(f, { baseUrl: 1 }), "wrong_type", "/options/baseUrl");
  throwsCode(() => lians.createVerifyingFetch(f, { baseUrls: [BASE, null] }), "wrong_type", "/options/baseUrls/1");
  throwsCode(() => lians.createVerifyingFetch(f, { baseUrl: "lians.example" }), "invalid_value", "/options/baseUrl", /not an absolute URL/);
  throwsCode(() => lians.createVerifyingFetch(f, { baseUrl: "ftp://lians.example" }), "invalid_value", "/options/baseUrl", /http: or https:/);
  throwsCode(() => lians.createVerifyingFetch(f, { baseUrl: `${BASE}?k=1` }), "invalid_value", "/options/baseUrl", /no query/);
  throwsCode(() => lians.createVerifyingFetch(f, { baseUrl: "https://u:p@lians.example" }), "invalid_value", "/options/baseUrl", /credentials/);
  throwsCode(() => lians.createVerifyingFetch(f, { baseUrI: BASE }), "invalid_value", "/options/baseUrI", /did you mean "baseUrl"/);
});

test("LiansScoreError is one class across the ESM and CommonJS entries, for every thrown coded error", () => {
  assert.equal(lians.LiansScoreError, cjs.LiansScoreError);
  assert.equal(web.LiansScoreError, cjs.LiansScoreError);
  assert.equal(web.LiansVerificationError, cjs.LiansVerificationError);
  for (const call of [() => cjs.scoreMemory("{"), () => lians.canonicalJson("[1,"), () => web.verifyRecallReceipt({})]) {
    try {
      call();
      assert.fail("expected a throw");
    } catch (error) {
      assert.ok(error instanceof lians.LiansScoreError);
      assert.ok(error instanceof web.LiansScoreError);
      assert.ok(error instanceof cjs.LiansScoreError);
      assert.ok(!(error instanceof cjs.LiansVerificationError));
      assert.equal(error.name, "LiansScoreError");
      assert.equal(typeof error.code, "string");
      assert.equal(typeof error.path, "string");
      assert.match(error.stack, /LiansScoreError/);
    }
  }
  const made = new cjs.LiansVerificationError({ valid: false, failures: ["x"], checks: [] });
  assert.ok(made instanceof web.LiansScoreError);
  assert.equal(made.code, "verification_failed");
});
