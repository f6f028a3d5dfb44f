// The guard as a Cloudflare Worker: the same guard as `npx lians-score guard`
// (one implementation of the checks, `lians-score/guard`), hosted by the Workers
// runtime. Clients call the Worker instead of the Lians server (env.LIANS_URL):
//   POST /v1/recall, POST /v1/context: the answer is verified from its raw bytes
//     against the query of its own request (receipt hash, query hash, every memory
//     content and the context text against their hashes: body binding). Valid →
//     the server's bytes, unchanged, plus `x-lians-verification: valid` and
//     `x-lians-receipt-sha256`. Invalid → 502 with the report as JSON; the body
//     never reaches the client.
//   GET /healthz: the guard's own `{"status":"ok"}`.
//   anything else: streamed through as the server answered (redirects not followed).
// Optional: LIANS_MAX_BODY (bytes, default 16 MiB), LIANS_TIMEOUT_MS (default 30000).
// `lians-score/verify` is the verify-only build (less than half the wasm of the full one).
import * as lians from "lians-score/verify";
import { createGuard } from "lians-score/guard";

let guard;
let guardFor;

export default {
  async fetch(request, env) {
    if (!env.LIANS_URL) {
      return new Response(JSON.stringify({ error: "misconfigured", message: "set LIANS_URL, the Lians server's URL (a Worker variable)" }), {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    }
    if (guardFor !== env) {
      guard = createGuard(lians, {
        upstream: env.LIANS_URL,
        maxBody: env.LIANS_MAX_BODY ? Number(env.LIANS_MAX_BODY) : undefined,
        timeoutMs: env.LIANS_TIMEOUT_MS ? Number(env.LIANS_TIMEOUT_MS) : undefined,
        // The runtime's fetch, called as a plain function (a Worker's fetch refuses another `this`).
        fetch: (input, init) => fetch(input, init),
      });
      guardFor = env;
    }
    return guard.handle(request);
  },
};
