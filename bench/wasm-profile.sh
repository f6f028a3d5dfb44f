#!/usr/bin/env bash
# Where one call's wasm instructions go, by function (a companion of bench/wasm-instructions.sh:
# the same driver and flags, plus V8's --perf-basic-prof map to name the TurboFan code).
# Needs a build whose wasm keeps its name section: wasm-opt -g (scripts/build.sh strips it), e.g.
#   cargo build --release --target wasm32-unknown-unknown -p lians-score-wasm (with build.sh's
#   CARGO_PROFILE_RELEASE_* variables), wasm-bindgen --target nodejs --keep-debug --out-dir D
#   --out-name lians_score, wasm-opt -Oz --converge --enable-bulk-memory
#   --enable-nontrapping-float-to-int --enable-simd -g D/lians_score_bg.wasm -o D/lians_score_bg.wasm
#   bash bench/wasm-profile.sh DIR [CASE] [A B]      self instructions per function and call
#   CALLERS=substring bash bench/wasm-profile.sh DIR [CASE]   calls into matching functions, by caller
# Cases as bench/wasm-ir.mjs (default verify_bytes); outputs in target/wasm-profile/.
set -euo pipefail
cd "$(dirname "$0")/.."
dist=$1 what=${2:-verify_bytes} a=${3:-1} b=${4:-3}
data=target/bench-data batch=target/bench-edge/batch.jsonl out=target/wasm-profile
[[ -f $batch && -f $data/recall_receipt_200.wire.json ]] || { echo "run scripts/bench-edge.sh once first (it writes the workloads)" >&2; exit 1; }
mkdir -p "$out"
query=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).query)' "$data/recall_receipt_200.given.json")
run() { # <n> <name> [valgrind options]
  local n=$1 name=$2
  shift 2
  valgrind --tool=callgrind --smc-check=all-non-file --cache-sim=no --dump-instr=yes "$@" --callgrind-out-file="$out/$name.%p" \
    node --perf-basic-prof --single-threaded --no-liftoff --no-wasm-lazy-compilation bench/wasm-ir.mjs "$dist" "$n" "$what" \
    "$batch" "$data/recall_receipt_200.wire.json" "$data/recall_receipt_200.receipt.json" "$query" >/dev/null 2>&1
  local f pid
  f=$(ls -t "$out/$name".* | grep -v '\.cg$\|\.map$' | head -1)
  pid=${f##*.}
  mv "$f" "$out/$name.cg"
  mv "/tmp/perf-$pid.map" "$out/$name.map"
}
if [[ -n ${CALLERS:-} ]]; then
  run 1 "$what.calls" --collect-jumps=yes
  python3 bench/wasm-profile.py --callers "$out/$what.calls.cg" "$out/$what.calls.map" "$CALLERS"
else
  run "$a" "$what.$a"
  run "$b" "$what.$b"
  python3 bench/wasm-profile.py "$out/$what.$a.cg" "$out/$what.$a.map" "$out/$what.$b.cg" "$out/$what.$b.map" $((b - a)) "${TOP:-40}"
fi
