#!/usr/bin/env bash
# The declaration copies TypeScript's node16/nodenext resolution needs beside
# the .mjs / .cjs entries (called by scripts/build.sh and the prepack script):
# js/index.d.{mts,cts} are byte copies of js/index.d.ts; js/verify.d.{mts,cts}
# are js/verify.d.ts importing ./index.mjs / ./index.cjs instead of ./index.js;
# js/guard.d.{mts,cts} likewise from js/guard.d.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
cp js/index.d.ts js/index.d.mts
cp js/index.d.ts js/index.d.cts
sed 's|from "./index.js"|from "./index.mjs"|' js/verify.d.ts > js/verify.d.mts
sed 's|from "./index.js"|from "./index.cjs"|' js/verify.d.ts > js/verify.d.cts
sed 's|from "./index.js"|from "./index.mjs"|' js/guard.d.ts > js/guard.d.mts
sed 's|from "./index.js"|from "./index.cjs"|' js/guard.d.ts > js/guard.d.cts
