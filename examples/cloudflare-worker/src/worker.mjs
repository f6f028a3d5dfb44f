// A guard Worker in front of a Lians server. Clients call the guard instead of
// the server; it forwards every request to env.LIANS_URL and:
//   POST /v1/recall, POST /v1/context: verifies the answer from its raw bytes
//     (receipt hash, query hash against the request's query, every memory
//     content and the context text against their hashes: body binding) with
//     lians-score's createVerifyingFetch. Valid → the server's bytes, unchanged,
//     plus `x-lians-verification: valid` and `x-lians-receipt-sha256`.
//     Invalid → 502 with the report's failures; the body never reaches the client.
//   anything else: passed through as the server answered.
// `lians-score/verify` is the verify-only build: 99 KB gzip of wasm instead of 186 KB.
import { createVerifyingFetch, LiansScoreError, LiansVerificationError } from "lians-score/verify";

// Captures the runtime's fetch once: the guard's own outbound requests.
const verifyingFetch = createVerifyingFetch(fetch);

export default {
  async fetch(request, env) {
    if (!env.LIANS_URL) return problem(500, { error: "misconfigured", message: "set LIANS_URL (wrangler.toml [vars])" });
    const incoming = new URL(request.url);
    const target = new URL(incoming.pathname + incoming.search, env.LIANS_URL);
    const headers = new Headers(request.headers);
    headers.delete("host");
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const upstream = new Request(target, {
      method: request.method,
      headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
      redirect: "manual",
    });
    try {
      return await verifyingFetch(upstream);
    } catch (error) {
      if (error instanceof LiansVerificationError) {
        const failed = error.report.checks.filter((c) => c.status === "failed");
        return problem(502, {
          error: "lians_verification_failed",
          failures: error.report.failures,
          checks: failed.map((c) => ({ code: c.code, pointer: c.pointer, message: c.message })),
        });
      }
      if (error instanceof LiansScoreError) {
        // An answer or request the verifier could not read (not JSON, no query): not passed on either.
        return problem(502, { error: "lians_unverifiable", code: error.code, path: error.path, message: error.message });
      }
      return problem(502, { error: "lians_upstream_unreachable", message: String(error && error.message) });
    }
  },
};

function problem(status, body) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-lians-verification": "invalid" },
  });
}
