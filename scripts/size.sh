#!/usr/bin/env bash
# Print raw / gzip -9 / brotli sizes of the built package; fail above the
# budget (gzip -9: 192,148 B for the lean browser .wasm, 216 KB for the full
# one: scripts/size.mjs LIMIT_LEAN_GZIP, LIMIT_FULL_GZIP). Flags go to scripts/size.mjs
# (--write-readme: rewrite README.md's size block; --check-readme: fail when stale).
set -euo pipefail
cd "$(dirname "$0")/.."
exec node scripts/size.mjs "$@"
