#!/usr/bin/env bash
# The reference as an oracle (tests/oracle/): seeded random inputs scored by the Python
# reference (`lians-sdk==0.5.0`, CPython 3.12) and by the native and wasm builds, compared
# EXACTLY (same JSON values, keys, order, types, reasons and eligibility; native and wasm
# output byte-identical); plus random held writes re-scored from their list-route form
# (importance, metadata and event time inferred from the stored breakdown, src/admission/review.rs); plus
# DATES strings read by CPython's C `datetime.fromisoformat` and by PyDateTime::parse_py (py/time.rs),
# native and wasm, compared exactly (`fromisoformat` vectors: the isoformat() text, or an error).
#
#   bash scripts/oracle.sh [COUNT] [REVIEW_COUNT] [DATES]   default 20000, 3000 and 50000 (the CI size)
#   LIANS_ORACLE_SEED=S ...                          reproduce a run (a new seed otherwise; printed)
#   bash scripts/oracle.sh 2000000 100000            a long run: bounded, chunked (LIANS_ORACLE_CHUNK,
#                                                    default 50000), ~1 min per 100k inputs on 2 cores
#
# Needs target/release/lians-score and dist/ (bash scripts/build.sh), and a CPython 3.12 with
# lians-sdk 0.5.0: $LIANS_ORACLE_PYTHON, else .lians-venv/bin/python (scripts/lians/venv.sh).
# Without one it skips (exit 0) with a message, except under CI=true, where it fails.
# Differences are kept in test-output/oracle/ (each one a ready regression vector line).
set -uo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-${LIANS_ORACLE_COUNT:-20000}}
REVIEW=${2:-${LIANS_ORACLE_REVIEW_COUNT:-3000}}
DATES=${3:-${LIANS_ORACLE_DATES:-50000}}
CHUNK=${LIANS_ORACLE_CHUNK:-50000}
MAX=20000000
if ! [[ $COUNT =~ ^[0-9]+$ && $REVIEW =~ ^[0-9]+$ && $DATES =~ ^[0-9]+$ && $CHUNK =~ ^[0-9]+$ ]] ||
  ((COUNT > MAX || REVIEW > MAX || DATES > MAX || CHUNK < 1)); then
  echo "oracle: COUNT, REVIEW_COUNT and DATES must be integers <= $MAX" >&2
  exit 2
fi

PY=${LIANS_ORACLE_PYTHON:-.lians-venv/bin/python}
if ! "$PY" -c 'import sys; assert sys.version_info[:2] == (3, 12); from lians_engine.lians import scoring, admission' 2>/dev/null; then
  msg="oracle: no CPython 3.12 with lians-sdk 0.5.0 at $PY (run bash scripts/lians/venv.sh, or set LIANS_ORACLE_PYTHON)"
  if [[ ${CI:-} == true ]]; then
    echo "$msg: failing under CI=true" >&2
    exit 1
  fi
  echo "$msg: SKIPPED"
  exit 0
fi

NATIVE=target/release/lians-score
[[ -x $NATIVE ]] || cargo build --release --quiet --bin lians-score || exit 1
if [[ ! -f dist/node/lians_score.js ]]; then
  echo "oracle: dist/ missing: run bash scripts/build.sh" >&2
  exit 1
fi

SEED=${LIANS_ORACLE_SEED:-$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}
echo "oracle seed: $SEED (reproduce: LIANS_ORACLE_SEED=$SEED bash scripts/oracle.sh $COUNT $REVIEW $DATES)"
OUT=test-output/oracle
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
rm -f "$OUT"/*.diff
ORACLE=tests/oracle/oracle.py
status=0

# Two generator processes (2 cores); each vector is seeded by (seed, index) alone.
gen_range() { # <start> <count> <out file> [gen options]
  local half=$(($2 / 2)) a b
  "$PY" "$ORACLE" gen --seed "$SEED" --start "$1" --count "$half" --out "$WORK/a" "${@:4}" &
  a=$!
  "$PY" "$ORACLE" gen --seed "$SEED" --start $(($1 + half)) --count $(($2 - half)) --out "$WORK/b" "${@:4}" &
  b=$!
  wait $a && wait $b || return 1
  cat "$WORK/a/oracle.jsonl" "$WORK/b/oracle.jsonl" > "$3"
}

done_n=0 t0=$SECONDS
while ((done_n < COUNT)); do
  n=$((COUNT - done_n < CHUNK ? COUNT - done_n : CHUNK))
  v=$WORK/vectors.jsonl
  gen_range "$done_n" "$n" "$v" || { echo "oracle: generator failed" >&2; exit 1; }
  ((done_n == 0)) && cat tests/data/oracle/regressions.jsonl >> "$v"
  t1=$SECONDS
  "$NATIVE" replay "$v" > "$WORK/native.jsonl" || { echo "oracle: native replay failed" >&2; exit 1; }
  node js/cli.mjs replay "$v" > "$WORK/wasm.jsonl" || { echo "oracle: wasm replay failed" >&2; exit 1; }
  if ! cmp -s "$WORK/native.jsonl" "$WORK/wasm.jsonl"; then
    echo "oracle: native and wasm outputs differ (kept in $OUT/)" >&2
    cp "$WORK/native.jsonl" "$OUT/native-$done_n.diff"; cp "$WORK/wasm.jsonl" "$OUT/wasm-$done_n.diff"
    status=1
  fi
  if ! "$PY" "$ORACLE" check "$v" "$WORK/native.jsonl" > "$WORK/check.txt"; then
    cp "$v" "$OUT/vectors-$done_n.diff"
    status=1
  fi
  cat "$WORK/check.txt" | head -40
  done_n=$((done_n + n))
  echo "oracle: $done_n/$COUNT inputs checked ($((SECONDS - t0)) s; replays $((SECONDS - t1)) s)"
done

# Dates: fromisoformat vectors only (ids orc-fromisoformat-<seed>-<k>), chunked like the inputs.
dates_n=0 t3=$SECONDS
while ((dates_n < DATES)); do
  n=$((DATES - dates_n < CHUNK ? DATES - dates_n : CHUNK))
  v=$WORK/dates.jsonl
  gen_range "$dates_n" "$n" "$v" --only fromisoformat || { echo "oracle: date generator failed" >&2; exit 1; }
  "$NATIVE" replay "$v" > "$WORK/native.jsonl" || { echo "oracle: native replay failed" >&2; exit 1; }
  node js/cli.mjs replay "$v" > "$WORK/wasm.jsonl" || { echo "oracle: wasm replay failed" >&2; exit 1; }
  if ! cmp -s "$WORK/native.jsonl" "$WORK/wasm.jsonl"; then
    echo "oracle: native and wasm date outputs differ (kept in $OUT/)" >&2
    cp "$WORK/native.jsonl" "$OUT/dates-native-$dates_n.diff"; cp "$WORK/wasm.jsonl" "$OUT/dates-wasm-$dates_n.diff"
    status=1
  fi
  if ! "$PY" "$ORACLE" check "$v" "$WORK/native.jsonl" > "$WORK/check.txt"; then
    cp "$v" "$OUT/dates-$dates_n.diff"
    status=1
  fi
  head -40 "$WORK/check.txt"
  dates_n=$((dates_n + n))
done
((DATES > 0)) && echo "oracle: $DATES date strings checked ($((SECONDS - t3)) s)"

if ((REVIEW > 0)); then
  t2=$SECONDS
  RW=tests/oracle/review_writes.py
  "$PY" "$RW" gen --seed "$SEED" --count "$REVIEW" --out "$WORK/writes.jsonl" --items-out "$WORK/items.jsonl" || exit 1
  "$NATIVE" score --fn rescore_review_item "$WORK/items.jsonl" > "$WORK/rescored.jsonl" || { echo "oracle: native re-score failed" >&2; exit 1; }
  node js/cli.mjs score --fn rescore_review_item "$WORK/items.jsonl" > "$WORK/rescored-wasm.jsonl" || { echo "oracle: wasm re-score failed" >&2; exit 1; }
  if ! cmp -s "$WORK/rescored.jsonl" "$WORK/rescored-wasm.jsonl"; then
    echo "oracle: native and wasm review re-scores differ" >&2
    status=1
  fi
  if ! "$PY" "$RW" check "$WORK/writes.jsonl" "$WORK/rescored.jsonl"; then
    cp "$WORK/writes.jsonl" "$OUT/review-writes.diff"
    status=1
  fi
  echo "oracle: review writes $((SECONDS - t2)) s"
fi
((status == 0)) && echo "oracle: all exact (seed $SEED, $COUNT inputs, $REVIEW held writes, $DATES date strings, $((SECONDS - t0)) s)"
exit $status
