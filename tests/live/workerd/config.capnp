# workerd config for the live tests: tests/live/workerd/worker.mjs with the
# package's workerd entry (ES module glue + the .wasm as a compiled `wasm`
# module). The socket address is given on the command line.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const worker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "js/workerd.mjs", esModule = embed "../../../js/workerd.mjs"),
    (name = "js/edge.mjs", esModule = embed "../../../js/edge.mjs"),
    (name = "js/core.mjs", esModule = embed "../../../js/core.mjs"),
    (name = "js/errors.mjs", esModule = embed "../../../js/errors.mjs"),
    (name = "js/fetch.mjs", esModule = embed "../../../js/fetch.mjs"),
    (name = "js/ledger.mjs", esModule = embed "../../../js/ledger.mjs"),
    (name = "js/ledger-web.mjs", esModule = embed "../../../js/ledger-web.mjs"),
    (name = "js/names.mjs", esModule = embed "../../../js/names.mjs"),
    (name = "js/limits.mjs", esModule = embed "../../../js/limits.mjs"),
    (name = "js/constants.mjs", esModule = embed "../../../js/constants.mjs"),
    (name = "dist/web/lians_score.js", esModule = embed "../../../dist/web/lians_score.js"),
    (name = "dist/web/lians_score_bg.wasm", wasm = embed "../../../dist/web/lians_score_bg.wasm"),
  ],
  compatibilityDate = "2026-01-01",
);
