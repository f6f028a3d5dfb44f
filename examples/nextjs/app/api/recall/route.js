// POST /api/recall {"query": "..."}: recall from the Lians server through a
// verifying fetch, on the Edge runtime (the edge-light file of
// lians-score/verify, the verify-only build: the .wasm is ready on import).
// The raw Lians body is passed on only if it verifies; a tampered one is
// answered 502 with the report's failures.
import { createVerifyingFetch, LiansVerificationError } from "lians-score/verify";

export const runtime = "edge";

// Only the Lians server's answers are verified (the scope); any other request passes through.
let verifiedFetch;

export async function POST(request) {
  verifiedFetch ??= createVerifyingFetch(fetch, { baseUrl: process.env.LIANS_URL });
  const { query, agent_id = process.env.LIANS_AGENT_ID ?? "example-agent", k = 5 } = await request.json();
  if (typeof query !== "string") return Response.json({ error: "query must be a string" }, { status: 400 });
  try {
    const res = await verifiedFetch(`${process.env.LIANS_URL}/v1/recall`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": process.env.LIANS_API_KEY ?? "" },
      body: JSON.stringify({ agent_id, query, k }),
    });
    // The verified bytes as the server sent them (the page verifies them again).
    return new Response(await res.text(), {
      status: res.status,
      headers: {
        "content-type": res.headers.get("content-type") ?? "application/json",
        "x-lians-verification": res.headers.get("x-lians-verification") ?? "not-verified",
        "x-lians-receipt-sha256": res.headers.get("x-lians-receipt-sha256") ?? "",
      },
    });
  } catch (error) {
    if (error instanceof LiansVerificationError) {
      return Response.json({ error: "lians_verification_failed", failures: error.report.failures }, { status: 502 });
    }
    throw error;
  }
}
