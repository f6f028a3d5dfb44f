# workerd config for the consistency ledger on a Durable Object's storage
# (tests/edge/ledger-workerd.test.mjs). The socket address is overridden on the
# command line (--socket-addr http=127.0.0.1:PORT).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The guard's upstream is a stub on 127.0.0.1 (the test's): loopback only.
    (name = "internet", network = (allow = ["local", "private"])),
  ],
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
    (name = "js/names.mjs", esModule = embed "../../../js/names.mjs"),
    (name = "js/constants.mjs", esModule = embed "../../../js/constants.mjs"),
    (name = "js/limits.mjs", esModule = embed "../../../js/limits.mjs"),
    (name = "js/ledger.mjs", esModule = embed "../../../js/ledger.mjs"),
    (name = "js/ledger-web.mjs", esModule = embed "../../../js/ledger-web.mjs"),
    (name = "js/guard.mjs", esModule = embed "../../../js/guard.mjs"),
    (name = "tests/js/ledger-fixtures.mjs", esModule = embed "../../js/ledger-fixtures.mjs"),
    (name = "dist/web/lians_score.js", esModule = embed "../../../dist/web/lians_score.js"),
    (name = "dist/web/lians_score_bg.wasm", wasm = embed "../../../dist/web/lians_score_bg.wasm"),
  ],
  compatibilityDate = "2026-01-01",
  durableObjectNamespaces = [
    (className = "LedgerObject", uniqueKey = "lians-score-ledger-test"),
    (className = "GuardObject", uniqueKey = "lians-score-ledger-guard-test"),
  ],
  durableObjectStorage = (inMemory = void),
  bindings = [
    (name = "LEDGER", durableObjectNamespace = "LedgerObject"),
    (name = "GUARD", durableObjectNamespace = "GuardObject"),
  ],
);
