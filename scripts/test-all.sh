#!/usr/bin/env bash
# Every test of the project, in one run (called by `npm test` and `.ci/run`,
# after scripts/bootstrap.sh). Runs all steps, then prints a summary and exits
# non-zero if any step failed. Outputs go to test-output/.
#   Rust: cargo test --release; clippy -D warnings (native all targets, wasm
#   lib); rustdoc -D warnings; a debug cargo test of the fast targets (integer overflow checks on).
#   The native conformance run is inside cargo test: tests/scoring_conformance.rs
#   and tests/receipts_conformance.rs replay the corpus through the CLI's own
#   replay commands, judge it with the vendored checkers and leave the output in
#   test-output/native-{scoring,receipts}.jsonl.
#   wasm: build (all targets + size budget); wasm replays + checkers, byte-
#   compared with those native outputs; the reference oracle (scripts/oracle.sh:
#   random inputs, native + wasm vs the Python reference, exactly); the
#   number differentials (tests/numbers: float(), JSON numbers, repr, exp vs
#   CPython, a fresh seed); Node
#   tests (ESM, CJS, web entry, CLI); tsc --noEmit; headless Chromium;
#   workerd; Deno; npm pack + the packaging matrix; the dashboard e2e tests;
#   the live tests against a real Lians server.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1
SHARED=${LIANS_SHARED:-tests/data}
SCORING=$SHARED/conformance/scoring
RECEIPTS=$SHARED/conformance/receipts
OUT=test-output
mkdir -p "$OUT"

failed=()
passed=()
step() { # <name> <command...>
  local name=$1 start=$SECONDS
  shift
  printf '\n===== %s\n' "$name"
  if "$@"; then
    passed+=("$name ($((SECONDS - start)) s)")
  else
    failed+=("$name")
    printf -- '----- FAILED: %s\n' "$name"
  fi
}

# The native replay outputs written by `cargo test --release` (see the header).
need_native() { # <file>
  [[ -s "$1" ]] && return 0
  echo "no native output $1 to compare with (written by cargo test --release: tests/*_conformance.rs)" >&2
  return 1
}

wasm_scoring() {
  : > "$OUT/wasm-scoring.jsonl"
  for f in "$SCORING"/*.jsonl; do
    node js/cli.mjs replay "$f" >> "$OUT/wasm-scoring.jsonl" || return 1
  done
  python3 "$SHARED/conformance/check_scoring.py" "$SCORING" "$OUT/wasm-scoring.jsonl" || return 1
  need_native "$OUT/native-scoring.jsonl" || return 1
  cmp "$OUT/native-scoring.jsonl" "$OUT/wasm-scoring.jsonl" && echo "wasm scoring replay is byte-identical to native"
}

wasm_receipts() {
  node js/cli.mjs verify-replay "$RECEIPTS/cases.jsonl" > "$OUT/wasm-receipts.jsonl" || return 1
  python3 "$SHARED/conformance/check_receipts.py" "$RECEIPTS" "$OUT/wasm-receipts.jsonl" || return 1
  need_native "$OUT/native-receipts.jsonl" || return 1
  cmp "$OUT/native-receipts.jsonl" "$OUT/wasm-receipts.jsonl" && echo "wasm receipt replay is byte-identical to native"
}

# The reference as an oracle (scripts/oracle.sh): 20,000 random inputs (risk spans included), 3,000
# held writes and 50,000 date strings (CPython fromisoformat; ~1 s),
# native and wasm vs lians-sdk 0.5.0 under CPython 3.12 (.lians-venv, scripts/lians/venv.sh,
# idempotent). Without CPython 3.12 it skips with a message, except under CI=true (fails).
reference_oracle() {
  if [[ -z ${LIANS_ORACLE_PYTHON:-} ]]; then
    bash scripts/lians/venv.sh > "$OUT/lians-venv.log" 2>&1 || echo "lians venv not ready (exit $?, $OUT/lians-venv.log)"
  fi
  bash scripts/oracle.sh
}

# Number differentials vs CPython 3.12 (tests/numbers/): float() and JSON number spellings,
# repr and math.exp, exactly, from a fresh seed (printed; --seed reproduces). Skips without
# CPython 3.12 (.lians-venv, set up by the oracle step), except under CI=true (fails).
number_differentials() {
  local py=${LIANS_ORACLE_PYTHON:-.lians-venv/bin/python}
  if ! "$py" -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null; then
    if [[ ${CI:-} == true ]]; then echo "no CPython 3.12 at $py: failing under CI=true" >&2; return 1; fi
    echo "skipped: no CPython 3.12 at $py"
    return 0
  fi
  cargo build --release --quiet --example numbers_diff || return 1
  "$py" tests/numbers/numbers_diff.py --ci
}

node_tests() {
  node --test --test-reporter=spec tests/js/*.test.mjs tests/js/*.test.cjs
}

types() {
  tsc --version && tsc -p tsconfig.json
}

live_tests() {
  rm -rf "$OUT/live"
  node --test --test-concurrency=1 --test-reporter=spec tests/live/*.test.mjs
}

deno_tests() {
  deno --version | head -1 && deno test --allow-read --no-prompt tests/edge/deno.test.mjs
}

clippy() {
  cargo clippy --workspace --all-targets --quiet -- -D warnings || return 1
  cargo clippy --workspace --target wasm32-unknown-unknown --lib --quiet -- -D warnings || return 1
  cargo clippy -p lians-score-wasm --target wasm32-unknown-unknown --features verify-only,js-cli --quiet -- -D warnings || return 1
  cargo clippy -p lians-score-wasm --target wasm32-unknown-unknown --features js-cli --quiet -- -D warnings || return 1
  cargo clippy -p lians-score-wasm --target wasm32-unknown-unknown --features lean --quiet -- -D warnings
}

# Debug build: overflow checks and debug assertions on. Only the lib and the
# fast targets (about 80 s cold on 2 cores, most of it compiling; the slow
# exhaustive targets run in release above).
debug_tests() {
  cargo test -p lians-score-core --lib || return 1
  cargo test --lib --test spec_examples --test scoring_conformance --test cli --test fuzz_regressions
}

# Every single-field edit of the bodies the live step captured (test-output/live):
# bound fields fail with their code and pointer, unbound ones are listed.
live_body_sweep() {
  if ! compgen -G "$OUT/live/recall-*.json" >/dev/null; then
    if [[ "${CI:-}" == "true" ]]; then echo "no live bodies in $OUT/live (the live step must capture them under CI)" >&2; return 1; fi
    echo "skipped: no live bodies in $OUT/live (no CPython 3.12 / Lians venv here)"
    return 0
  fi
  LIANS_BODIES_DIR="$OUT/live" cargo test --release --quiet --test receipts_mutation live_bodies -- --nocapture 2>&1 | grep -E "caught|test result|panicked|FAILED" ; return "${PIPESTATUS[0]}"
}

live_airtight() {
  if ! compgen -G "$OUT/live/*.json" >/dev/null; then
    if [[ "${CI:-}" == "true" ]]; then echo "no live bodies in $OUT/live (the live step must capture them under CI)" >&2; return 1; fi
    echo "skipped: no live bodies in $OUT/live (no CPython 3.12 / Lians venv here)"
    return 0
  fi
  LIANS_AIRTIGHT_BODIES_DIR="$OUT/live" node --test --test-reporter=spec tests/js/airtight.test.mjs tests/js/closed-world.test.mjs
}

# Includes the native conformance run (scoring and receipts, judged by the vendored checkers).
rm -f "$OUT/native-scoring.jsonl" "$OUT/native-receipts.jsonl"
step "cargo test --release" cargo test --release --workspace
step "rustfmt --check" cargo fmt --all --check
step "clippy -D warnings" clippy
step "rustdoc -D warnings (no broken or private intra-doc links)" env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
step "cargo test (debug: overflow checks)" debug_tests
step "wasm build + size" bash scripts/build.sh
if [[ " ${failed[*]-} " == *"wasm build"* ]]; then
  echo "wasm build failed: skipping the wasm tests" >&2
else
  step "wasm scoring conformance (= native bytes)" wasm_scoring
  step "reference oracle (random inputs vs lians-sdk, CPython 3.12)" reference_oracle
  step "number differentials vs CPython (float, JSON numbers, repr, exp; 500,000 inputs)" number_differentials
  step "audit query planner vs the reference (20,000 queries, CPython 3.12)" bash scripts/audit/planner-diff.sh
  step "audit stage replays vs the reference's stage functions (20,000 cases, CPython 3.12)" bash scripts/audit/stages-diff.sh
  step "wasm receipt conformance (= native bytes)" wasm_receipts
  step "node tests (ESM, CJS, web entry, CLI)" node_tests
  step "typescript (tsc --noEmit)" types
  step "headless chromium (playwright-core)" node --test --test-reporter=spec tests/js/browser.e2e.mjs
  step "workerd" node --test --test-reporter=spec tests/edge/workerd.test.mjs
  step "consistency ledger: IndexedDB in chromium, a Durable Object in workerd" node --test --test-reporter=spec tests/js/ledger-browser.e2e.mjs tests/edge/ledger-workerd.test.mjs
  step "deno" deno_tests
  step "npm package + packaging matrix (tests/package: pack, publish --dry-run, install; TS x3, attw, Vite, webpack, esbuild, Rollup, Parcel, Bun, Deno, workerd, edge-runtime, Next.js x2)" bash tests/package/run.sh
  step "crate package contents (cargo package --list)" bash tests/package/crate.sh
  # examples/ from the tarball against a real Lians server + a tampering proxy: node, the guard Worker in
  # workerd, the plain browser page, Next.js (the matrix's pinned install), rust (~2 min, most of it next build).
  step "examples (tests/examples/run.mjs: node, cloudflare-worker in workerd, browser, nextjs, rust)" node tests/examples/run.mjs
  if compgen -G "tests/e2e/*.test.mjs" >/dev/null; then
    step "dashboard e2e (tests/e2e)" node --test --test-reporter=spec tests/e2e/*.test.mjs
  fi
  # A real Lians server (lians-sdk 0.5.0 in .lians-venv, started by the tests
  # themselves); skipped with a message without CPython 3.12, a failure under CI.
  step "live Lians server (tests/live)" live_tests
  step "body binding sweep over the live bodies" live_body_sweep
  step "adversarial mutation suite over the live bodies (wasm, JSON.parse as the client)" live_airtight
fi

printf '\n===== summary\n'
for p in "${passed[@]}"; do echo "ok    $p"; done
for f in "${failed[@]}"; do echo "FAIL  $f"; done
if ((${#failed[@]})); then
  echo "${#failed[@]} step(s) failed"
  exit 1
fi
echo "all ${#passed[@]} steps passed"
