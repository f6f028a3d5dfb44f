#!/usr/bin/env bash
# Install everything the build and the tests need, idempotently: each step
# checks first and skips when the right version is already there.
#   rustup wasm32 target, wasm-bindgen-cli (= Cargo.lock's wasm-bindgen),
#   wasm-pack 0.15.1, Chromium + chromedriver (apt), npm devDependencies,
#   a real Lians server for the live tests (scripts/lians/venv.sh: .lians-venv).
# Only registries are used (crates.io, npm, Debian); nothing downloads
# prebuilt binaries from elsewhere (see ../shared/toolchain.md).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n== bootstrap: %s\n' "$*"; }

step "rust wasm32 target"
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "present"
else
  rustup target add wasm32-unknown-unknown
fi

step "wasm-bindgen-cli"
want_bindgen=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
if [[ -z "$want_bindgen" ]]; then echo "bootstrap: no wasm-bindgen in Cargo.lock" >&2; exit 1; fi
have_bindgen=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [[ "$have_bindgen" == "$want_bindgen" ]]; then
  echo "wasm-bindgen $have_bindgen present"
else
  echo "installing wasm-bindgen-cli $want_bindgen (have: ${have_bindgen:-none})"
  # --locked fails for some versions (a locked dependency is missing from the registry).
  cargo install wasm-bindgen-cli --version "$want_bindgen" --locked \
    || cargo install wasm-bindgen-cli --version "$want_bindgen"
fi

step "wasm-pack"
want_pack=0.15.1
have_pack=$(wasm-pack --version 2>/dev/null | awk '{print $2}' || true)
if [[ "$have_pack" == "$want_pack" ]]; then
  echo "wasm-pack $have_pack present"
else
  echo "installing wasm-pack $want_pack (have: ${have_pack:-none})"
  cargo install wasm-pack --version "$want_pack" --locked \
    || cargo install wasm-pack --version "$want_pack"
fi

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

step "npm devDependencies"
lock_sum=$(sha256sum package-lock.json | cut -c1-64)
stamp=node_modules/.bootstrap-lock.sha256
if [[ -d node_modules && -f "$stamp" && "$(cat "$stamp")" == "$lock_sum" ]]; then
  echo "node_modules matches package-lock.json"
else
  npm ci --no-audit --no-fund
  echo "$lock_sum" > "$stamp"
fi
echo "wasm-opt: $(node_modules/.bin/wasm-opt --version)"

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
