// A Worker whose Durable Object keeps a consistency ledger in its storage
// (createLedger({ storage: state.storage }), js/ledger-web.mjs).
//   POST /replay?object=NAME   body: exchanges as JSONL → { invariants, alarms, recorded, invalid, stats }
// Each NAME is one Durable Object, so one ledger; replaying into the same NAME again continues it.
import { createLedger } from "./js/workerd.mjs";
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

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/health") return Response.json({ ok: true });
    if (request.method !== "POST" || url.pathname !== "/replay") return new Response("not found", { status: 404 });
    const stub = env.LEDGER.get(env.LEDGER.idFromName(url.searchParams.get("object") ?? "default"));
    return stub.fetch(request);
  },
};
