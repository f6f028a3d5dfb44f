// Verify Lians answers in Node.js, two ways:
//   1. createVerifyingFetch(fetch, { baseUrl }): a fetch whose recall/context
//      answers from the server at baseUrl are verified from their raw bytes
//      (requests elsewhere pass through); print the report of one recall;
//   2. the one-liner `globalThis.fetch = createVerifyingFetch(fetch, { baseUrl })`, under
//      which a client that calls the global fetch and then res.json() (as the
//      Lians TypeScript SDK's LiansClient does) only ever sees verified results.
//
//   LIANS_URL=http://127.0.0.1:8000 LIANS_API_KEY=... node recall.mjs
//
// Writes one memory (so a fresh namespace has something to recall), recalls
// it, asks for a context. Exits 1 if an answer fails verification.
import { createVerifyingFetch, LiansVerificationError } from "lians-score";

const base = process.env.LIANS_URL;
const key = process.env.LIANS_API_KEY;
if (!base || !key) {
  console.error("set LIANS_URL (the server's base URL) and LIANS_API_KEY (a key with read and write scopes)");
  process.exit(2);
}
const agent = process.env.LIANS_AGENT_ID ?? "example-agent";
const headers = { "Content-Type": "application/json", "X-API-Key": key };

// ---- 1. An explicit verifying fetch, with a log of every report.
const verifiedFetch = createVerifyingFetch(fetch, {
  baseUrl: base,
  onVerified: (report, request) => console.log(`verified ${request.method} ${new URL(request.url).pathname}: valid=${report.valid}`),
});

const write = await fetch(`${base}/v1/memories`, {
  method: "POST",
  headers,
  body: JSON.stringify({
    agent_id: agent,
    content: "The quarterly planning review moved to Thursday at 15:00.",
    source: "user_provided",
    event_time: new Date().toISOString(),
  }),
});
if (!write.ok) throw new Error(`writing a memory failed: HTTP ${write.status} ${await write.text()}`);

try {
  const res = await verifiedFetch(`${base}/v1/recall`, {
    method: "POST",
    headers,
    body: JSON.stringify({ agent_id: agent, query: "when is the planning review", k: 3 }),
  });
  if (!res.ok) throw new Error(`recall failed: HTTP ${res.status} ${await res.text()}`);
  const report = res.liansVerification; // also: res.headers.get("x-lians-verification") === "valid"
  console.log(`recall: ${res.headers.get("x-lians-verification")}, receipt ${res.headers.get("x-lians-receipt-sha256")}`);
  console.log(`  checks: ${report.checks.filter((c) => c.status === "passed").length} passed, ${report.failures.length} failed`);
  console.log(`  not bound by the receipt (do not rely on): ${report.unbound_fields.slice(0, 4).join(", ")}, …`);
  const body = await res.json();
  for (const m of body.memories) console.log(`  memory ${m.id}: ${JSON.stringify(m.content)}`);
} catch (error) {
  if (error instanceof LiansVerificationError) {
    console.error(`recall REJECTED: ${error.report.failures.join(", ")}`);
    for (const c of error.report.checks.filter((c) => c.status === "failed")) console.error(`  ${c.code} at ${c.pointer}: ${c.message}`);
    process.exit(1);
  }
  throw error;
}

// ---- 2. The one-liner in front of any client that uses the global fetch.
globalThis.fetch = createVerifyingFetch(fetch, { baseUrl: base });

// What LiansClient does for client.recall(...) / client.context(...): the global fetch, then res.json().
async function liansCall(path, body) {
  const res = await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
}
// With the SDK itself (it calls the global fetch, so install the wrapper before creating the client):
//   import { LiansClient } from "@lians-ai/lians";
//   globalThis.fetch = createVerifyingFetch(fetch, { baseUrl: "https://your-lians-server" });
//   const client = new LiansClient(/* your usual options */);
//   await client.recall({ agent_id, query });   // rejects with LiansVerificationError if tampered in transit
//   // non-2xx answers are untouched, so the SDK's own LiansError{status, body} still reports them

try {
  const recall = await liansCall("/v1/recall", { agent_id: agent, query: "planning review", k: 2 });
  console.log(`global fetch recall: ${recall.memories.length} verified memories`);
  const context = await liansCall("/v1/context", { agent_id: agent, query: "What changed about the planning review?" });
  console.log(`global fetch context: ${context.context_text.length} characters of verified context text`);
} catch (error) {
  if (error instanceof LiansVerificationError) {
    console.error(`REJECTED by the verifying fetch: ${error.report.failures.join(", ")}`);
    process.exit(1);
  }
  throw error;
}
console.log("ok: every answer verified");
