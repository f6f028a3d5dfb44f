#!/usr/bin/env bash
# What only the tests need (on top of scripts/bootstrap-dashboard.sh),
# idempotently: Chromium + chromedriver (apt), the real Lians server venv for
# the live tests (scripts/lians/venv.sh: .lians-venv, ~150 MB), the packaging
# matrix's pinned tools (tests/package/matrix, ~660 MB).
# Only registries are used (Debian, PyPI, npm).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n== bootstrap: %s\n' "$*"; }

step "chromium + chromedriver (+ a CJK font for readable screenshots)"
if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver && -d /usr/share/fonts/truetype/wqy ]]; then
  echo "present: $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
elif command -v apt-get >/dev/null 2>&1; then
  sudo_cmd=""
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver fonts-wqy-microhei
else
  echo "bootstrap: cannot install chromium (no apt-get); browser tests will fail" >&2
fi

step "Lians server venv (live tests)"
lians_rc=0
bash scripts/lians/venv.sh || lians_rc=$?
if ((lians_rc == 3)); then
  if [[ "${CI:-}" == "true" ]]; then
    echo "bootstrap: CI needs CPython 3.12 for the live Lians tests" >&2
    exit 1
  fi
  echo "bootstrap: no CPython 3.12: the live Lians tests will be skipped"
elif ((lians_rc != 0)); then
  echo "bootstrap: installing the Lians server venv failed (exit $lians_rc); the live Lians tests will fail" >&2
  if [[ "${CI:-}" == "true" ]]; then exit "$lians_rc"; fi
fi

# The packaging matrix's tools (Next.js, Vite, webpack, esbuild, Rollup, Parcel,
# Bun, edge-runtime, attw, TypeScript), pinned by their own lockfile. ~690 MB;
# `npm ci --prefer-offline` takes them from the npm cache (~/.npm) when it can.
step "packaging matrix tools (tests/package/matrix)"
matrix=tests/package/matrix
lock_sum=$(cat "$matrix/package.json" "$matrix/package-lock.json" | sha256sum | cut -c1-64)
stamp=$matrix/node_modules/.bootstrap-lock.sha256
if [[ -d $matrix/node_modules && -f "$stamp" && "$(cat "$stamp")" == "$lock_sum" ]]; then
  echo "$matrix/node_modules matches its package-lock.json"
else
  (cd "$matrix" && npm ci --no-audit --no-fund --prefer-offline)
  echo "$lock_sum" > "$stamp"
fi
