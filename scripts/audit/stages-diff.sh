#!/usr/bin/env bash
# The audit's stage replays (src/audit/replay.rs) against the reference's own stage functions
# (lians-sdk 0.5.0, CPython 3.12): COUNT random cases from a fresh seed (printed;
# LIANS_STAGES_SEED=S reproduces a run), see scripts/audit/stages_cases.py.
#
#   bash scripts/audit/stages-diff.sh [COUNT]     default 20000 (the CI size)
#
# Needs CPython 3.12 with lians-sdk 0.5.0: $LIANS_ORACLE_PYTHON, else .lians-venv/bin/python.
# Without one it skips (exit 0) with a message, except under CI=true, where it fails
# (scripts/audit/reference-preamble.sh).
NAME=stages-diff SEED_VAR=LIANS_STAGES_SEED
source "$(dirname "$0")/reference-preamble.sh" "$@"
echo "stages-diff: seed $SEED (replay with LIANS_STAGES_SEED=$SEED), $COUNT cases"
"$PY" scripts/audit/stages_cases.py "$SEED" "$COUNT" > "$OUT/stage-cases.jsonl" || exit 1
LIANS_STAGE_CASES="$PWD/$OUT/stage-cases.jsonl" cargo test --release --quiet --test audit_stages -- --nocapture 2>&1 |
  grep -E "stage replays|panicked|rejects|line|test result|error" ; exit "${PIPESTATUS[0]}"
