#!/usr/bin/env bash
# Build the WebAssembly package: every wasm-pack target into dist/<name>/,
# then print the size report. Usage: bash scripts/build.sh [--dev]
#
# The wasm release profile (size-first: opt-level z, panic abort) is applied
# here through environment variables, so Cargo.toml's [profile.release] keeps
# opt-level 3 for native builds and benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

# wasm-pack --mode no-install silently skips wasm-opt when it is missing:
# insist on the npm binaryen build (the only one that reads wasm-bindgen's output).
if ! command -v wasm-opt >/dev/null 2>&1; then
  echo "build.sh: wasm-opt not found; run 'npm ci' (devDependency binaryen) first" >&2
  exit 1
fi
echo "wasm-opt: $(command -v wasm-opt) ($(wasm-opt --version))"
echo "wasm-bindgen: $(wasm-bindgen --version)   wasm-pack: $(wasm-pack --version)"

mode=--release
if [[ "${1:-}" == "--dev" ]]; then mode=--dev; fi

export CARGO_PROFILE_RELEASE_OPT_LEVEL=z
export CARGO_PROFILE_RELEASE_PANIC=abort
export CARGO_PROFILE_RELEASE_LTO=true
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
export CARGO_PROFILE_RELEASE_DEBUG=false
# lians-score-core (the hot JSON/Unicode/tokenizer loops) and sha2 keep their
# opt-level 3 from the [profile.release.package.*] sections: see the notes there.

build() { # <wasm-pack target> <out dir name> <package type> [cargo args...]
  local target=$1 dir=dist/$2 type=$3
  shift 3
  rm -rf "$dir"
  # The binding crate (crates/wasm, lians-score-wasm) is what wasm-pack builds;
  # its out-dir is relative to that crate, hence the absolute path.
  wasm-pack --quiet build crates/wasm --mode no-install "$mode" --target "$target" \
    --out-dir "$PWD/$dir" --out-name lians_score --no-typescript --no-pack --no-gitignore -- "$@"
  rm -f "$dir/README.md" "$dir/.gitignore" "$dir/LICENSE"*
  # The nearest package.json decides how Node/Deno read the .js glue.
  printf '{"type":"%s"}\n' "$type" > "$dir/package.json"
}

build nodejs node commonjs
# dist/cli: the npm CLI's own wasm (js/cli.mjs; also the conformance replays of
# the tests): the cargo feature js-cli adds cliRun, cliScore and the replay
# exports, which every other build leaves out (12 KB gzip smaller).
build nodejs cli commonjs --features js-cli
build web web module
# The web-target glues (dist/web, dist/verify; dist/inline copies dist/web)
# get two functions the JS wrapper (js/core.mjs) uses to drop an instance whose
# memory grew past its threshold (wasm memory never shrinks) and instantiate a
# fresh one from the same compiled module: issue #32, docs/edge-memory.md.
reset_hooks() { # <out dir name>
  cat >> "dist/$1/lians_score.js" <<'JS'

// Appended by scripts/build.sh (js/core.mjs resets the instance with these).
export function __lians_memory_bytes() {
  return wasm === undefined ? 0 : wasm.memory.buffer.byteLength;
}
export function __lians_reset() {
  const module = wasmModule;
  wasm = undefined;
  return initSync({ module });
}
JS
}
reset_hooks web
build bundler bundler module
# `lians-score/verify` (browsers, workerd, edge-light, Deno): the verifiers,
# canonical JSON and hashing only (cargo feature verify-only; ~46 % smaller).
build web verify module --features verify-only,js-cli
reset_hooks verify

# Embed the wasm where bundlers cannot carry a file (dist/node, dist/inline),
# and regenerate the entries' export lists from js/names.mjs.
node scripts/embed-wasm.mjs
node scripts/gen-entries.mjs

# One hand-checked declaration file (js/index.d.ts); ESM and CommonJS
# consumers get byte copies with the extensions TypeScript's node16/nodenext
# resolution needs (.d.mts beside .mjs entries, .d.cts beside .cjs ones).
bash scripts/copy-dts.sh

# Sizes (and the README's marked size block, rewritten when they changed).
bash scripts/size.sh --write-readme
