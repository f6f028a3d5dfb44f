#!/usr/bin/env bash
# The audit's query planner (src/audit/planner.rs) against the reference's plan_query
# (lians-sdk 0.5.0, CPython 3.12): COUNT generated queries from a fresh seed (printed;
# LIANS_PLANNER_SEED=S reproduces a run), every plan compared exactly.
#
#   bash scripts/audit/planner-diff.sh [COUNT]     default 20000 (the CI size; ~3 s)
#
# Needs CPython 3.12 with lians-sdk 0.5.0: $LIANS_ORACLE_PYTHON, else .lians-venv/bin/python.
# Without one it skips (exit 0) with a message, except under CI=true, where it fails
# (scripts/audit/reference-preamble.sh).
NAME=planner-diff SEED_VAR=LIANS_PLANNER_SEED
source "$(dirname "$0")/reference-preamble.sh" "$@"
echo "planner-diff: seed $SEED (replay with LIANS_PLANNER_SEED=$SEED), $COUNT queries"
"$PY" scripts/audit/planner_cases.py "$SEED" "$COUNT" > "$OUT/planner-cases.jsonl" || exit 1
LIANS_PLANNER_CASES="$PWD/$OUT/planner-cases.jsonl" cargo test --release --quiet --lib \
  audit::planner::tests::matches_the_reference_planner_on_a_cases_file -- --nocapture 2>&1 |
  grep -E "identical|panicked|left|right|test result|error" ; exit "${PIPESTATUS[0]}"
