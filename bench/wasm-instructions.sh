#!/usr/bin/env bash
# Instructions per call of the wasm package in Node, counted by valgrind: repeatable
# whatever else the machine is doing, unlike wall or CPU time (issue #15's workloads).
# Node runs with --single-threaded --no-liftoff --no-wasm-lazy-compilation, so all the
# wasm is compiled by TurboFan before the first call and nothing compiles in the
# background; each workload runs A and B times in two processes and the difference,
# divided by B - A, is one call's instructions (start-up and compiling cancel out).
#   bash bench/wasm-instructions.sh [DIST] [A B]     (default dist/node 2 5; ~5 min)
# DIST may be a CommonJS entry (js/node.cjs) instead of a glue directory: the calls then go through the
# JS wrapper users call (its body caps and its string-to-UTF-8 step, js/limits.mjs utf8Text).
# WASM_IR_CASES="verify verify_bytes" picks cases (default: the five below; *_bytes = the body as a Uint8Array;
# also batch_full (scoreCandidates output "full"), memory (200 x scoreMemory(JSON text)) and memory_objects
# (200 x scoreMemory(object), the same lines parsed beforehand)).
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${1:-dist/node} a=${2:-2} b=${3:-5}
command -v valgrind >/dev/null || { echo "wasm-instructions.sh: needs valgrind" >&2; exit 1; }
data=target/bench-data batch=target/bench-edge/batch.jsonl
[[ -f $batch && -f $data/recall_receipt_200.wire.json ]] || { echo "run scripts/bench-edge.sh once first (it writes the workloads)" >&2; exit 1; }
query=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).query)' "$data/recall_receipt_200.given.json")
count() { # <what> <n>
  valgrind --tool=callgrind --smc-check=all-non-file --cache-sim=no --callgrind-out-file=/dev/null \
    node --single-threaded --no-liftoff --no-wasm-lazy-compilation bench/wasm-ir.mjs "$dist" "$2" "$1" \
    "$batch" "$data/recall_receipt_200.wire.json" "$data/recall_receipt_200.receipt.json" "$query" 2>&1 |
    sed -n 's/.*Collected : //p'
}
for what in ${WASM_IR_CASES:-receipt receipt_bytes verify verify_bytes batch}; do
  i1=$(count $what $a) i2=$(count $what $b)
  echo "{\"side\":\"wasm\",\"case\":\"instructions_$what\",\"dist\":\"$dist\",\"instructions_per_call\":$(( (i2 - i1) / (b - a) ))}"
done
