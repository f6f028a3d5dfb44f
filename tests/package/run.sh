#!/usr/bin/env bash
# Packaging test: `npm pack`, install the tarball into a fresh project in a
# temp dir, then use it from ESM, CommonJS, TypeScript (tsc --noEmit), Deno
# (npm resolution, "deno" condition) and the `lians-score` bin.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/tests/package"
export PATH="$ROOT/node_modules/.bin:$PATH"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lians-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cd "$ROOT"
tarball=$(npm pack --silent --pack-destination "$tmp" | tail -1)
echo "packed $tarball ($(du -k "$tmp/$tarball" | cut -f1) KB)"

# What is (not) in the tarball.
tar -tzf "$tmp/$tarball" | sed 's|^package/||' | sort > "$tmp/files.txt"
for must in package.json README.md js/cli.mjs js/index.d.ts js/index.d.cts js/node.cjs js/node.mjs js/web.mjs \
            js/workerd.mjs js/deno.mjs js/edge-light.mjs js/bundler.mjs \
            dist/node/lians_score.js dist/node/lians_score_bg.wasm dist/web/lians_score.js \
            dist/web/lians_score_bg.wasm dist/bundler/lians_score.js dist/bundler/lians_score_bg.wasm; do
  grep -qx "$must" "$tmp/files.txt" || { echo "FAIL: $must missing from the tarball" >&2; exit 1; }
done
if grep -E '^(src|tests|scripts|target|node_modules|www)/' "$tmp/files.txt"; then
  echo "FAIL: development files in the tarball" >&2; exit 1
fi

app="$tmp/app"
mkdir -p "$app"
cp "$HERE/esm.mjs" "$HERE/cjs.cjs" "$HERE/check.mts" "$HERE/check.cts" "$HERE/deno.mjs" "$HERE/tsconfig.json" "$app/"
cd "$app"
printf '{"name":"lians-score-consumer","private":true,"version":"1.0.0"}\n' > package.json
npm install --silent --no-audit --no-fund --offline "$tmp/$tarball"

echo "-- ESM";        node esm.mjs
echo "-- CommonJS";   node cjs.cjs
echo "-- TypeScript"; tsc -p tsconfig.json && echo "tsc ok"
echo "-- bin";        v=$(npx --no-install lians-score --version) && echo "$v" && [[ "$v" == lians-score* ]]
echo "-- Deno";       DENO_NO_UPDATE_CHECK=1 deno run --quiet --allow-read=. --no-prompt deno.mjs
echo "package test: ok"
