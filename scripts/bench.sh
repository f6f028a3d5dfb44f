#!/usr/bin/env bash
# Run every benchmark (native Rust and the wasm package in Node, on the same
# deterministic workloads) and print one table with medians and ratios.
#
#   bash scripts/bench.sh [--quick] [--build | --no-build] [--md]
#
#   --quick     fewer samples (about 1 minute instead of 3)
#   --build     rebuild the wasm package first (npm run build, the wasm branch's build)
#   --no-build  never rebuild (default: build only when dist/node is missing)
#   --md        print the tables as Markdown (for BENCHMARKS.md)
#
# Not part of any test command. Results (JSON lines) go to target/bench-results/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

quick="" build=auto md=""
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --build) build=yes ;;
    --no-build) build=no ;;
    --md) md=--md ;;
    *) echo "bench.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

out=target/bench-results
mkdir -p "$out"
wasm=dist/web/lians_score_bg.wasm

if [[ $build == yes || ( $build == auto && ! -f $wasm ) ]]; then
  npm run build
elif [[ -f $wasm && -n "$(find src crates Cargo.toml -newer "$wasm" -print -quit)" ]]; then
  echo "bench.sh: warning: $wasm is older than src/ or Cargo.toml (pass --build to rebuild it)" >&2
fi

echo "== machine" >&2
{
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
  echo "rustc: $(rustc --version)"
  echo "node: $(node --version)"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt" >&2

echo "== workloads (target/bench-data)" >&2
cargo run --release --quiet --example gen_workloads 2>&1 | tail -n +2 >&2

echo "== native (cargo bench --bench native)" >&2
BENCH_QUICK=$quick cargo bench --quiet --bench native > "$out/native.jsonl"

echo "== wasm in Node (bench/node-bench.mjs)" >&2
node bench/node-bench.mjs ${quick:+--quick} > "$out/node.jsonl"

echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt" >&2
echo >&2
cat "$out/machine.txt"
bash scripts/size.sh "$wasm" | head -1
echo
node bench/report.mjs "$out/native.jsonl" "$out/node.jsonl" $md
