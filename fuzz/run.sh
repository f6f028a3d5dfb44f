#!/usr/bin/env bash
# Run the cargo-fuzz targets two at a time (2 cores), niced, each for
# SECONDS (default 600), on the corpora in fuzz/corpus (seeded by
# fuzz/seeds.py when missing). Logs: fuzz/logs/<target>.log; crashes land
# in fuzz/artifacts/<target>/ (copy each into fuzz/regressions/<target>/
# once fixed, so tests/fuzz_regressions.rs replays it).
#
#   bash fuzz/run.sh [SECONDS] [TARGET...]
#   FUZZ_SANITIZER=none bash fuzz/run.sh ...   # no ASan: ~2x the executions
#
# Stable Rust: cargo-fuzz needs nightly flags, RUSTC_BOOTSTRAP=1 allows them.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
shift || true
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(json_roundtrip text_detectors receipt_verify api_call)
fi
export RUSTC_BOOTSTRAP=1
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
[[ -d corpus ]] || python3 seeds.py
mkdir -p logs
# -O: release; -a: debug assertions (integer overflow checks) on.
san=(-s "${FUZZ_SANITIZER:-address}")
nice cargo fuzz build -O -a "${san[@]}"
max_len() {
  case $1 in
    receipt_verify|json_roundtrip) echo 65536 ;;
    api_call) echo 16384 ;;
    *) echo 4096 ;;
  esac
}
run() {
  local t=$1
  mkdir -p "corpus/$t"
  nice -n 10 cargo fuzz run -O -a "${san[@]}" "$t" "corpus/$t" -- \
    -max_len="$(max_len "$t")" -timeout=20 -rss_limit_mb=3072 \
    -max_total_time="$secs" -print_final_stats=1 >"logs/$t.log" 2>&1 && echo "$t: done" && return 0
  echo "$t: FAILED (see fuzz/logs/$t.log and fuzz/artifacts/$t/)"
  return 1
}
# Each pair runs in the background; a crash (or any failure) of any target
# makes the script exit 1 after every target has run.
failed=()
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pids=()
  run "${targets[i]}" & pids+=($!)
  if ((i + 1 < ${#targets[@]})); then run "${targets[i + 1]}" & pids+=($!); fi
  for ((k = 0; k < ${#pids[@]}; k++)); do
    wait "${pids[k]}" || failed+=("${targets[i + k]}")
  done
done
for t in "${targets[@]}"; do
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|^Done' "logs/$t.log" | sed "s/^/$t: /" || true
  echo "$t: corpus $(ls "corpus/$t" | wc -l) files"
done
if ((${#failed[@]})); then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}" >&2
  exit 1
fi
