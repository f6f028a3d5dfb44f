#!/usr/bin/env bash
# Packaging test, from the packed tarball: `npm pack`; what is (not) in it;
# `npm publish --dry-run`; `npm install` of the tarball into a fresh project
# (ESM, CommonJS, the `lians-score` bin); then the matrix of bundlers and
# runtimes (tests/package/matrix/run.mjs: TypeScript x3, attw, Vite, webpack,
# esbuild, Rollup, Parcel, Bun, Deno, workerd, edge-runtime, Next.js).
#   bash tests/package/run.sh [--only name,name]   (--only: matrix entries)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/tests/package"
export PATH="$ROOT/node_modules/.bin:$PATH"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lians-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

cd "$ROOT"
tarball=$(npm pack --silent --pack-destination "$tmp" | tail -1)
echo "packed $tarball ($(du -k "$tmp/$tarball" | cut -f1) KB)"

# What is (not) in the tarball.
tar -tzf "$tmp/$tarball" | sed 's|^package/||' | sort > "$tmp/files.txt"
for must in package.json README.md LICENSE CHANGELOG.md js/cli.mjs js/index.d.ts js/index.d.mts js/index.d.cts \
            js/names.mjs js/core.mjs js/constants.mjs js/errors.mjs js/errors.cjs js/fetch.mjs js/fetch.cjs js/limits.mjs js/limits.cjs js/node.cjs js/node.mjs js/web.mjs js/inline.mjs \
            js/workerd.mjs js/edge.mjs js/deno.mjs js/edge-light.mjs js/bundler.mjs inline/package.json \
            js/verify.mjs js/verify-workerd.mjs js/verify-edge-light.mjs js/verify-deno.mjs js/verify.d.ts js/verify.d.mts js/verify.d.cts \
            dist/verify/lians_score_verify.js dist/verify/lians_score_verify_bg.wasm dist/cli/lians_score.js dist/cli/lians_score_bg.wasm \
            dist/node/lians_score.js dist/node/lians_score_bg.wasm.cjs dist/web/lians_score.js \
            dist/web/lians_score_bg.wasm dist/web-lean/lians_score_lean.js dist/web-lean/lians_score_lean_bg.wasm dist/bundler/lians_score.js dist/bundler/lians_score_bg.wasm \
            dist/inline/lians_score.js dist/inline/lians_score_bg.wasm.mjs \
            js/guard.mjs js/guard.cjs js/guard-node.mjs js/guard.d.ts js/guard.d.mts js/guard.d.cts \
            js/ledger.mjs js/ledger-sqlite.mjs js/ledger-web.mjs js/ledger-cli.mjs; do
  grep -qx "$must" "$tmp/files.txt" || { echo "FAIL: $must missing from the tarball" >&2; exit 1; }
done
if grep -E '^(src|tests|scripts|target|node_modules|www|bench|benches|fuzz|docs)/|^dist/node/lians_score_bg\.wasm$' "$tmp/files.txt"; then
  echo "FAIL: development (or unused) files in the tarball" >&2; exit 1
fi
echo "tarball: $(wc -l < "$tmp/files.txt") files, contents ok"

# Publishable: npm's own checks (no upload).
npm publish --dry-run --silent "$tmp/$tarball" > "$tmp/publish.log" 2>&1 || { cat "$tmp/publish.log" >&2; exit 1; }
if grep -iE '^npm (warn|error)' "$tmp/publish.log" | grep -v 'requires you to be logged in'; then echo "FAIL: npm publish --dry-run warned" >&2; exit 1; fi
echo "npm publish --dry-run: ok"

app="$tmp/app"
mkdir -p "$app"
cp "$HERE/esm.mjs" "$HERE/cjs.cjs" "$app/"
cd "$app"
printf '{"name":"lians-score-consumer","private":true,"version":"1.0.0"}\n' > package.json
npm install --silent --no-audit --no-fund --offline "$tmp/$tarball"

echo "-- npm install: ESM";       node esm.mjs
echo "-- npm install: CommonJS";  node cjs.cjs
echo "-- npm install: bin";       v=$(npx --no-install lians-score --version) && echo "$v" && [[ "$v" == lians-score* ]]
echo "-- npm install: bin guard"; npx --no-install lians-score guard --help > guard-help.txt && grep -q '^usage: lians-score guard --upstream URL' guard-help.txt && echo ok
echo "-- npm install: bin ledger (node-sqlite3-wasm installed as a dependency)"
npx --no-install lians-score ledger replay "$HERE/../data/ledger/honest.jsonl" --db ledger.db && test -s ledger.db && echo ok
echo "package install test: ok ($((SECONDS - start)) s)"

echo "-- matrix"
node "$HERE/matrix/run.mjs" "$tmp/$tarball" "$@"
