# Bench config for bench/workerd-bench.mjs: the package's workerd entry plus the two
# workloads as text modules (written by scripts/bench-edge.sh into target/). The socket
# address is overridden on the command line (--socket-addr http=127.0.0.1:PORT).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:8788", http = (), service = "main") ],
);

const worker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "body.json", text = embed "../../target/bench-data/recall_receipt_200.wire.json"),
    (name = "body.bin", data = embed "../../target/bench-data/recall_receipt_200.wire.json"),
    (name = "given.json", text = embed "../../target/bench-data/recall_receipt_200.given.json"),
    (name = "batch.jsonl", text = embed "../../target/bench-edge/batch.jsonl"),
    (name = "js/workerd.mjs", esModule = embed "../../js/workerd.mjs"),
    (name = "js/edge.mjs", esModule = embed "../../js/edge.mjs"),
    (name = "js/core.mjs", esModule = embed "../../js/core.mjs"),
    (name = "js/errors.mjs", esModule = embed "../../js/errors.mjs"),
    (name = "js/fetch.mjs", esModule = embed "../../js/fetch.mjs"),
    (name = "js/ledger.mjs", esModule = embed "../../js/ledger.mjs"),
    (name = "js/ledger-web.mjs", esModule = embed "../../js/ledger-web.mjs"),
    (name = "js/names.mjs", esModule = embed "../../js/names.mjs"),
    (name = "js/limits.mjs", esModule = embed "../../js/limits.mjs"),
    (name = "js/constants.mjs", esModule = embed "../../js/constants.mjs"),
    (name = "dist/web/lians_score.js", esModule = embed "../../dist/web/lians_score.js"),
    (name = "dist/web/lians_score_bg.wasm", wasm = embed "../../dist/web/lians_score_bg.wasm"),
  ],
  compatibilityDate = "2026-01-01",
);
