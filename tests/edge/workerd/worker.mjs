// A Worker using lians-score through its workerd entry (no init() call: the
// entry instantiates the imported WebAssembly.Module synchronously).
import {
  scoreMemory, verifyRecallReceipt, auditRecall, sha256Hex, isInitialized, VERSION, LiansScoreError, LiansVerificationError,
  createVerifyingFetch, configureLimits, memoryStats,
} from "./js/workerd.mjs";

function json(value, status = 200) {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    try {
      if (url.pathname === "/health") {
        const exported = [LiansScoreError, LiansVerificationError, createVerifyingFetch].every((f) => typeof f === "function");
        return json({ ok: isInitialized(), version: VERSION, sha: sha256Hex("abc"), exported });
      }
      if (url.pathname === "/score" && request.method === "POST") return json(scoreMemory(await request.text()));
      if (url.pathname === "/verify" && request.method === "POST") return json(verifyRecallReceipt(await request.text()));
      if (url.pathname === "/limits") return json(memoryStats());
      if (url.pathname === "/verify-bytes" && request.method === "POST") {
        // The body as bytes (the edge default cap applies); ?reset=N sets the reset threshold first.
        if (url.searchParams.has("reset")) configureLimits({ resetMemoryBytes: Number(url.searchParams.get("reset")) });
        const report = verifyRecallReceipt(new Uint8Array(await request.arrayBuffer()));
        return json({ valid: report.valid, stats: memoryStats() });
      }
      if (url.pathname === "/audit" && request.method === "POST") {
        return json(auditRecall(await request.text(), { query: url.searchParams.get("query") }));
      }
      return json({ error: "not found" }, 404);
    } catch (error) {
      return json({ error: { code: error.code, path: error.path, message: error.message, typed: error instanceof LiansScoreError } }, 400);
    }
  },
};
