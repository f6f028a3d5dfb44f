#!/usr/bin/env bash
# Print raw / gzip -9 / brotli sizes of the built wasm; fail above the budget.
# Usage: bash scripts/size.sh [file.wasm]   (default dist/web/lians_score_bg.wasm)
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-dist/web/lians_score_bg.wasm}
limit_gzip=$((200 * 1024))   # hard limit (issue #15)
target_gzip=$((150 * 1024))  # goal
if [[ ! -f "$file" ]]; then echo "size.sh: $file not found (run scripts/build.sh)" >&2; exit 1; fi
sizes=$(node -e '
  const fs = require("fs"), zlib = require("zlib");
  const b = fs.readFileSync(process.argv[1]);
  const gz = zlib.gzipSync(b, { level: 9 }).length;
  const br = zlib.brotliCompressSync(b, { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }).length;
  console.log(b.length, gz, br);' "$file")
read -r raw gzip brotli <<<"$sizes"
kb() { awk -v n="$1" 'BEGIN { printf "%.1f KB", n / 1024 }'; }
printf 'wasm size (%s): raw %s (%d B), gzip -9 %s (%d B), brotli %s (%d B)\n' \
  "$file" "$(kb "$raw")" "$raw" "$(kb "$gzip")" "$gzip" "$(kb "$brotli")" "$brotli"
if (( gzip > limit_gzip )); then
  echo "size.sh: FAIL gzip size $(kb "$gzip") is over the 200 KB limit" >&2
  exit 1
elif (( gzip > target_gzip )); then
  echo "size.sh: warning: gzip size $(kb "$gzip") is over the 150 KB target"
else
  echo "size.sh: ok (limit 200 KB gzip, target 150 KB)"
fi
