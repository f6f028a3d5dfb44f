#!/usr/bin/env bash
# Print raw / gzip -9 / brotli sizes of the built package; fail above the
# budget (210 KB gzip for the .wasm: scripts/size.mjs LIMIT_GZIP). Flags go to scripts/size.mjs
# (--write-readme: rewrite README.md's size block; --check-readme: fail when stale).
set -euo pipefail
cd "$(dirname "$0")/.."
exec node scripts/size.mjs "$@"
