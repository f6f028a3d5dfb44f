# Run the guard in workerd itself (the runtime of Cloudflare Workers, npm `workerd`),
# without wrangler: bundle first, as wrangler does, then serve (package.json scripts):
#   npm run build                                  # esbuild → build/worker.js, + the verify-only .wasm
#   LIANS_URL=http://127.0.0.1:8000 npm run workerd  # workerd serve workerd.capnp on 127.0.0.1:8787 (PORT=…)
# LIANS_URL is read from the environment (the binding below); workerd's own
# "internet" service is redefined to allow local addresses too (a local server).
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
    (name = "dist/verify/lians_score_verify_bg.wasm", wasm = embed "build/lians_score_verify_bg.wasm"),
  ],
  bindings = [ (name = "LIANS_URL", fromEnvironment = "LIANS_URL") ],
  compatibilityDate = "2026-01-01",
);
