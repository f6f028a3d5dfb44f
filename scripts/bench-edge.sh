#!/usr/bin/env bash
# Issue #15's side-by-side speed comparison, in one run on this machine:
# the CPython 3.12 reference (lians-sdk==0.5.0, in-process), native Rust and
# the wasm package in Node, on
#   * the 1,600-candidate batch of bench/reference/make_batch.py (11 MB JSONL), and
#   * the 200-result recall body of benches/workload.rs (1.44 MB),
# plus the CPU per request of both inside workerd (bench/workerd-bench.mjs) and the Node cold start.
#
#   bash scripts/bench-edge.sh [--build] [--md]
#
# The reference needs a CPython 3.12 venv with lians-sdk==0.5.0: LIANS_PY=path/to/python,
# else .lians-venv/bin/python, else /tmp/speed-venv/bin/python, else it runs scripts/lians/venv.sh.
# Benchmarks are not tests: nothing here fails on a timing. Results: target/bench-edge/.
# The dashboard (500-item queue in Chromium, ~1.5 min) has its own command: node bench/dashboard-bench.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

build=no md=""
for arg in "$@"; do
  case "$arg" in
    --build) build=yes ;;
    --md) md=--md ;;
    *) echo "bench-edge.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done
[[ $build == yes || ! -f dist/web/lians_score_bg.wasm ]] && bash scripts/build.sh >&2

py=${LIANS_PY:-}
for cand in .lians-venv/bin/python /tmp/speed-venv/bin/python; do
  [[ -z $py && -x $cand ]] && py=$cand
done
if [[ -z $py ]]; then
  # The repository's Lians venv (installs lians-sdk==0.5.0 under CPython 3.12 when it exists).
  bash scripts/lians/venv.sh >&2 && py=.lians-venv/bin/python
fi
if [[ -z $py ]] || ! "$py" -c 'import lians_engine.lians.scoring' 2>/dev/null; then
  echo "bench-edge.sh: no CPython 3.12 with lians-sdk==0.5.0 (set LIANS_PY, or create .lians-venv)" >&2
  exit 1
fi
ref_dir=$("$py" -c 'import os, lians_engine.lians as l; print(os.path.dirname(l.__file__))')

out=target/bench-edge
data=target/bench-data
mkdir -p "$out"
echo "== workloads" >&2
[[ -f $out/batch.jsonl ]] || "$py" bench/reference/make_batch.py "$out/batch.jsonl"
[[ -f $data/recall_receipt_200.wire.json ]] || cargo run --release --quiet --example gen_workloads >&2
body=$data/recall_receipt_200.wire.json
receipt=$data/recall_receipt_200.receipt.json
query=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).query)' "$data/recall_receipt_200.given.json")

{
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
  echo "rustc: $(rustc --version)"
  echo "node: $(node --version)"
  echo "python: $("$py" --version) ($("$py" -c 'import importlib.metadata as m; print("lians-sdk", m.version("lians-sdk"))'))"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

echo "== reference (CPython)" >&2
# The shared scripts as they are (wall clock), then the same scripts on the process CPU clock.
ref_batch=$("$py" bench/reference/bench_ref.py "$ref_dir" "$out/batch.jsonl" --repeat 5)
ref_verify=$("$py" bench/reference/bench_verify_ref.py "$body" 31)
ref_batch_cpu=$("$py" bench/reference/cpu_clock.py bench/reference/bench_ref.py "$ref_dir" "$out/batch.jsonl" --repeat 5)
ref_verify_cpu=$("$py" bench/reference/cpu_clock.py bench/reference/bench_verify_ref.py "$body" 31)
ms() { awk -v s="$1" 'BEGIN{print s*1000}'; }
{
  echo "{\"side\":\"reference\",\"case\":\"batch\",\"median_ms\":$(ms "$ref_batch"),\"cpu_median_ms\":$(ms "$ref_batch_cpu")}"
  echo "{\"side\":\"reference\",\"case\":\"verify_200\",\"median_ms\":$(ms "$ref_verify"),\"cpu_median_ms\":$(ms "$ref_verify_cpu")}"
} > "$out/reference.jsonl"
cat "$out/reference.jsonl" >&2

echo "== native" >&2
cargo run --release --quiet --example edge_bench -- "$out/batch.jsonl" "$body" "$query" > "$out/native.jsonl"
echo "== wasm (Node)" >&2
node bench/edge-bench.mjs "$out/batch.jsonl" "$body" "$query" "$receipt" > "$out/wasm.jsonl"
echo "== workerd (CPU of the workerd process per request, bounded sequential load on 127.0.0.1)" >&2
node bench/workerd-bench.mjs --requests 40 > "$out/workerd.jsonl"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

cat "$out/machine.txt"
bash scripts/size.sh dist/web/lians_score_bg.wasm || true
echo
node bench/edge-report.mjs "$out/reference.jsonl" "$out/native.jsonl" "$out/wasm.jsonl" "$out/workerd.jsonl" $md
