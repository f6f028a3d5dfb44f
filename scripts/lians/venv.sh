#!/usr/bin/env bash
# Install a real Lians server (PyPI lians-sdk==0.5.0, the whole engine) into
# the git-ignored venv .lians-venv/ at the repository root, idempotently.
# See ../shared/lians-server.md for why each package is named.
#
#   bash scripts/lians/venv.sh          # install or check; prints the venv's python
#   LIANS_VENV=/abs/dir bash ...        # another venv location
#   LIANS_PYTHON312=/path/python3.12     # this interpreter (must be 3.12)
#
# Exit codes: 0 ready (installed or already matching), 3 no CPython 3.12 on
# this machine (nothing done), 1 anything else (pip failed, ...).
# CPython 3.12 is required: 3.11 sums floats differently from production.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=${LIANS_VENV:-$PWD/.lians-venv}

# Exactly these (lians-server.md); change them here and the stamp forces a reinstall.
PACKAGES=(lians-sdk==0.5.0 aiosqlite cryptography fastapi numpy pgvector pydantic
  pydantic-settings "sqlalchemy[asyncio]" greenlet uvicorn httpx)

# Importable, and the pinned engine version (main.py needs DATABASE_URL: not imported here).
CHECK='import importlib.metadata as m, uvicorn, aiosqlite, greenlet, fastapi, sqlalchemy.ext.asyncio, cryptography
from lians_engine.lians import scoring, admission
assert m.version("lians-sdk") == "0.5.0", m.version("lians-sdk")'

find_python312() {
  local root cand cands
  root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
  # The python3.12 on PATH is a pyenv shim that refuses to run: use the interpreter itself.
  if [[ -n "${LIANS_PYTHON312:-}" ]]; then cands=("$LIANS_PYTHON312")
  else cands=("$root"/versions/3.12*/bin/python3.12 /usr/bin/python3.12 /usr/local/bin/python3.12); fi
  for cand in "${cands[@]}"; do
    if [[ -x "$cand" ]] && "$cand" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' 2>/dev/null; then
      echo "$cand"; return 0
    fi
  done
  return 1
}

if ! py312=$(find_python312); then
  if [[ -n "${LIANS_PYTHON312:-}" ]]; then
    echo "lians venv: LIANS_PYTHON312=$LIANS_PYTHON312 is not a runnable CPython 3.12. The live Lians tests need one." >&2
    exit 3
  fi
  echo "lians venv: no CPython 3.12 found (looked in \$(pyenv root)/versions/3.12*/bin/python3.12, /usr/bin, /usr/local/bin; set LIANS_PYTHON312 to override). The live Lians tests need it." >&2
  exit 3
fi

want=$(printf '%s\n' "$py312" "$("$py312" -c 'import sys; print(sys.version)')" "${PACKAGES[@]}" | sha256sum | cut -c1-64)
stamp=$VENV/.lians-venv.sha256
if [[ -x "$VENV/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]] \
  && "$VENV/bin/python" -c "$CHECK" 2>/dev/null; then
  echo "lians venv: present and matching ($VENV)"
  echo "$VENV/bin/python"
  exit 0
fi

start=$SECONDS
echo "lians venv: installing into $VENV with $py312"
rm -rf "$VENV"
"$py312" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PACKAGES[@]}"
"$VENV/bin/python" -c "$CHECK"
echo "$want" > "$stamp"
echo "lians venv: installed in $((SECONDS - start)) s"
echo "$VENV/bin/python"
