// Bench worker (bench/workerd-bench.mjs): the two issue #15 workloads embedded as text
// modules, so a request spends its CPU on the work itself, not on receiving 11 MB.
//   GET /verify  verifyRecallReceipt(200-result body, { query })  -> {"valid": true}
//   GET /verify-bytes  the same body as its UTF-8 bytes (a Uint8Array over a data module, as
//                      from `await request.arrayBuffer()`)
//   GET /verify-bytes?n=K  K verifications in one request; GET /noop  the same response without work;
//   GET /encode  only the string body's encodeInto (the glue's UTF-16 -> UTF-8 step of the string path)
//   GET /score   scoreCandidates(null, 1,600-candidate JSONL)     -> {"count": 1600, "errors": 0}
import { scoreCandidates, verifyRecallReceipt, isInitialized } from "./js/workerd.mjs";
import body from "./body.json";
import bodyData from "./body.bin";
import given from "./given.json";
import batch from "./batch.jsonl";

const query = JSON.parse(given).query;
const bodyBytes = new Uint8Array(bodyData);
const encoder = new TextEncoder();
const decoded = new TextDecoder().decode(bodyBytes);

function json(value, status = 200) {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/health") return json({ ok: isInitialized() });
    if (url.pathname === "/verify-decoded") {
      const r = verifyRecallReceipt(decoded, { query });
      return json({ valid: r.valid, failures: r.failures });
    }
    if (url.pathname === "/verify") {
      const r = verifyRecallReceipt(body, { query });
      return json({ valid: r.valid, failures: r.failures });
    }
    if (url.pathname === "/verify-bytes") {
      // ?n=K: K verifications in one request (the slope over K is one verification's CPU, without the request's).
      const n = Number(url.searchParams.get("n") ?? 1);
      let r;
      for (let i = 0; i < n; i++) r = verifyRecallReceipt(bodyBytes, { query });
      return json({ valid: r.valid, failures: r.failures });
    }
    if (url.pathname === "/noop") return json({ valid: true, failures: [] }); // a request's own CPU
    if (url.pathname === "/encode") {
      // The string body's UTF-8 encoding alone, as the glue's passStringToWasm0 does it (encodeInto).
      const view = new Uint8Array(body.length * 3);
      const { written } = encoder.encodeInto(body, view);
      return json({ valid: written === bodyBytes.length, failures: [] });
    }
    if (url.pathname === "/score") {
      const r = scoreCandidates(null, batch);
      return json({ count: r.count, errors: r.errors.length });
    }
    return json({ error: "not found" }, 404);
  },
};
