// A Worker whose Durable Object keeps a consistency ledger in its storage
// (createLedger({ storage: state.storage }), js/ledger-web.mjs).
//   POST /replay?object=NAME   body: exchanges as JSONL → { invariants, alarms, recorded, invalid, stats }
// Each NAME is one Durable Object, so one ledger; replaying into the same NAME again continues it.
//   /guard/…   the guard (js/guard.mjs) in one Durable Object whose storage holds its ledger: every
//              verified answer is recorded (an alarm → 502), and every write, erasure, certificate, prune
//              and key creation once answered. The upstream is the x-test-upstream header of the first request.
import * as api from "./js/workerd.mjs";
import { createGuard } from "./js/guard.mjs";
const { createLedger } = api;
import { invariantsOf, parseLines, replay } from "./tests/js/ledger-fixtures.mjs";

export class LedgerObject {
  constructor(state) {
    this.state = state;
  }

  async fetch(request) {
    const ledger = await createLedger({ storage: this.state.storage });
    const r = await replay(ledger, parseLines(await request.text()));
    const stats = await ledger.stats();
    await ledger.close();
    return Response.json({ invariants: invariantsOf(r.alarms), alarms: r.alarms.length, recorded: r.recorded, invalid: r.invalid, stats });
  }
}

export class GuardObject {
  constructor(state) {
    this.state = state;
    this.ready = null;
  }

  async fetch(request) {
    this.ready ??= (async () => {
      // The answers are replayed from a recording: a year of clock skew keeps I7/I15 out of this test of the host.
      const ledger = await createLedger({ storage: this.state.storage, skewMs: 365 * 86_400_000 });
      const guard = createGuard(api, {
        upstream: request.headers.get("x-test-upstream"),
        onExchange: async (exchange, { report }) => {
          if (!report.valid) return null;
          const r = await ledger.record(exchange, { verification: report });
          return r.alarms.length > 0 ? { error: "lians_ledger_alarm", alarms: r.alarms } : null;
        },
      });
      return { ledger, guard };
    })();
    const { ledger, guard } = await this.ready;
    const url = new URL(request.url);
    const inner = new Request(new URL(url.pathname.replace(/^\/guard/, "") + url.search, url.origin), request);
    inner.headers.delete("x-test-upstream");
    const method = inner.method.toUpperCase();
    const target = guard.target(new URL(inner.url).pathname + url.search);
    if (guard.endpoint(method, new URL(inner.url).pathname) !== null || !ledger.accepts(method, target)) return guard.handle(inner);
    // An event the ledger uses: passed through, then recorded.
    const requestText = method === "GET" || method === "HEAD" ? null : await inner.clone().text();
    const key = inner.headers.get("x-api-key");
    const tSent = new Date().toISOString().replace("Z", "+00:00");
    const res = await guard.handle(inner);
    if (res.status >= 200 && res.status < 300) {
      const exchange = {
        client: key ? `guard:${api.sha256Hex(key).slice(0, 16)}` : "guard",
        t_sent: tSent,
        t_recv: new Date().toISOString().replace("Z", "+00:00"),
        request: { method, url: target, body: requestText || null },
        response: { status: res.status, body: await res.clone().text() },
      };
      const idem = inner.headers.get("idempotency-key");
      if (idem !== null) exchange.request.headers = { "idempotency-key": idem };
      const r = await ledger.record(exchange);
      if (r.alarms.length > 0) return Response.json({ error: "lians_ledger_alarm", alarms: r.alarms }, { status: 502 });
    }
    return res;
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/health") return Response.json({ ok: true });
    if (url.pathname.startsWith("/guard/")) return env.GUARD.get(env.GUARD.idFromName("guard")).fetch(request);
    if (request.method !== "POST" || url.pathname !== "/replay") return new Response("not found", { status: 404 });
    const stub = env.LEDGER.get(env.LEDGER.idFromName(url.searchParams.get("object") ?? "default"));
    return stub.fetch(request);
  },
};
