#!/usr/bin/env bash
# Install everything the build and the tests need, idempotently (CI, `npm test`):
# the dashboard/build part (scripts/bootstrap-dashboard.sh: wasm32 target,
# wasm-bindgen-cli, wasm-pack, npm devDependencies) and the test part
# (scripts/bootstrap-test.sh: Chromium, the Lians server venv, the packaging
# matrix tools). `npm start` runs only the first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap-dashboard.sh
bash scripts/bootstrap-test.sh
