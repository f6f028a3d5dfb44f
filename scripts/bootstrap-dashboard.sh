#!/usr/bin/env bash
# What `npm start` (the dashboard) and `npm run build` need, idempotently: each
# step checks first and skips when the right version is already there.
#   rustup wasm32 target, wasm-bindgen-cli (= Cargo.lock's wasm-bindgen),
#   wasm-pack 0.15.1 (both compiled from crates.io: ~5 min the first time on
#   2 cores), the npm devDependencies (binaryen's wasm-opt for the build).
# The test tools are scripts/bootstrap-test.sh; scripts/bootstrap.sh runs both.
# Only registries are used (crates.io, npm); nothing downloads prebuilt
# binaries from elsewhere (see ../shared/toolchain.md).
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

step "npm devDependencies"
lock_sum=$(sha256sum package-lock.json | cut -c1-64)
stamp=node_modules/.bootstrap-lock.sha256
if [[ -d node_modules && -f "$stamp" && "$(cat "$stamp")" == "$lock_sum" ]]; then
  echo "node_modules matches package-lock.json"
else
  npm ci --no-audit --no-fund
  echo "$lock_sum" > "$stamp"
fi
# (binaryen's package.json rather than `wasm-opt --version`, which takes seconds to start)
echo "wasm-opt: binaryen $(node -p 'require("./node_modules/binaryen/package.json").version')"
