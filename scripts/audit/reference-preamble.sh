# Sourced (with the script's arguments) by scripts/audit/planner-diff.sh and stages-diff.sh: the
# start they share, a differential run against the reference (lians-sdk 0.5.0, CPython 3.12).
# Before sourcing set NAME (the script's name in messages) and SEED_VAR (the environment
# variable that reproduces a run). Sets COUNT ($1, default 20000, the CI size), PY
# ($LIANS_ORACLE_PYTHON, else .lians-venv/bin/python), SEED ($SEED_VAR, else a fresh one) and
# OUT (test-output/audit, created), with the repository as the working directory. Without
# CPython 3.12 and lians-sdk 0.5.0 at $PY it exits: 0 with a SKIPPED message, 1 under CI=true.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
COUNT=${1:-20000}
PY=${LIANS_ORACLE_PYTHON:-.lians-venv/bin/python}
if ! "$PY" -c 'import sys; assert sys.version_info[:2] == (3, 12); from lians_engine.lians import query_planner' 2>/dev/null; then
  msg="$NAME: no CPython 3.12 with lians-sdk 0.5.0 at $PY"
  if [[ ${CI:-} == true ]]; then
    echo "$msg: failing under CI=true" >&2
    exit 1
  fi
  echo "$msg: SKIPPED"
  exit 0
fi
SEED=${!SEED_VAR:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
OUT=test-output/audit
mkdir -p "$OUT"
