# Run the guard in workerd itself (the runtime of Cloudflare Workers, npm `workerd`),
# without wrangler: bundle first, as wrangler does, then serve.
#   npx esbuild src/worker.mjs --bundle --format=esm --conditions=workerd,worker \
#     --external:*.wasm --outfile=build/worker.js
#   cp node_modules/lians-score/dist/verify/lians_score_bg.wasm build/
#   npx workerd serve workerd.capnp --socket-addr http=127.0.0.1:8787
# LIANS_URL below is the server; workerd's own "internet" service is redefined
# to allow local addresses too (a local test server).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .guard),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const guard :Workerd.Worker = (
  modules = [
    (name = "build/worker.js", esModule = embed "build/worker.js"),
    (name = "dist/verify/lians_score_bg.wasm", wasm = embed "build/lians_score_bg.wasm"),
  ],
  bindings = [ (name = "LIANS_URL", fromEnvironment = "LIANS_URL") ],
  compatibilityDate = "2026-01-01",
);
