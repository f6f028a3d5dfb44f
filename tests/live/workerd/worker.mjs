// A Worker verifying Lians response bodies with lians-score's workerd entry:
//   POST /verify?kind=recall|context[&query=Q]   body: the raw response text
//   POST /verify-pack?key=B64&key_id=ID          body: the raw Evidence Pack
// Answers the VerificationReport as JSON (400 with {error} if the verifier throws).
import { verifyRecallReceipt, verifyContextReceipt, verifyEvidencePack } from "./js/workerd.mjs";

const json = (value, status = 200) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const q = url.searchParams;
    try {
      if (url.pathname === "/health") return json({ ok: true });
      if (url.pathname === "/verify" && request.method === "POST") {
        const given = q.has("query") ? { query: q.get("query") } : undefined;
        const fn = q.get("kind") === "context" ? verifyContextReceipt : verifyRecallReceipt;
        return json(fn(await request.text(), given));
      }
      if (url.pathname === "/verify-pack" && request.method === "POST") {
        return json(verifyEvidencePack(await request.text(), { trusted_public_key: q.get("key"), expected_key_id: q.get("key_id") }));
      }
      return json({ error: "not found" }, 404);
    } catch (error) {
      return json({ error: { code: error.code, path: error.path, message: error.message } }, 400);
    }
  },
};
