// Worker of `node bench/memory.mjs --workerd` (issue #32): POST /measure?kind=K&as=bytes|string
// verifies the POSTed body once with a fresh instance of the workerd entry and
// answers its wasm memory before and after ({before, after, outcome}).
import * as lib from "./js/workerd.mjs";
import { measure } from "./measure.mjs";

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/health") return Response.json({ ok: lib.isInitialized() });
    if (url.pathname !== "/measure") return Response.json({ error: "not found" }, { status: 404 });
    const body = new Uint8Array(await request.arrayBuffer());
    return Response.json(measure(lib, url.searchParams.get("kind"), body, url.searchParams.get("as")));
  },
};
