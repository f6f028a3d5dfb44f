#!/usr/bin/env bash
# Build the WebAssembly package: every wasm-pack target into dist/<name>/,
# then print the size report. Usage: bash scripts/build.sh [--dev] [--force]
#
# Skipped when nothing it reads changed: dist/.inputs.sha256 holds a hash of
# the inputs (the Rust and JS sources, Cargo.toml/Cargo.lock, package-lock.json,
# these build scripts, the versions of rustc, wasm-bindgen, wasm-pack and
# wasm-opt, the mode and RUSTFLAGS), written after a successful build; when it
# matches and every output is there, the build is not run (--force runs it).
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

mode=--release force=
for arg in "$@"; do
  case $arg in
    --dev) mode=--dev ;;
    --force) force=1 ;;
    *) echo "build.sh: unknown argument $arg (--dev, --force)" >&2; exit 2 ;;
  esac
done

# What every output depends on, as one hash (see the header).
inputs_hash() {
  {
    echo "mode $mode RUSTFLAGS=${RUSTFLAGS:-} CARGO_ENCODED_RUSTFLAGS=${CARGO_ENCODED_RUSTFLAGS:-}"
    rustc -vV
    wasm-bindgen --version
    wasm-pack --version
    # The npm binaryen's version from its package.json: `wasm-opt --version`
    # starts a JS/wasm program (seconds), and this hash must be quick.
    command -v wasm-opt
    cat node_modules/binaryen/package.json 2>/dev/null || wasm-opt --version
    find src crates js -type f \( -name '*.rs' -o -name '*.toml' -o -name '*.mjs' -o -name '*.cjs' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \) -print0 \
      | LC_ALL=C sort -z | xargs -0 sha256sum
    sha256sum Cargo.toml Cargo.lock package.json package-lock.json scripts/build.sh scripts/embed-wasm.mjs \
      scripts/gen-entries.mjs scripts/copy-dts.sh scripts/size.sh scripts/size.mjs
  } | sha256sum | cut -c1-64
}
stamp=dist/.inputs.sha256
outputs=(dist/node/lians_score.js dist/node/lians_score_bg.wasm.cjs dist/cli/lians_score.js dist/cli/lians_score_bg.wasm
         dist/web/lians_score.js dist/web/lians_score_bg.wasm dist/web-lean/lians_score_lean.js
         dist/web-lean/lians_score_lean_bg.wasm dist/bundler/lians_score.js dist/bundler/lians_score_bg.wasm
         dist/inline/lians_score.js dist/inline/lians_score_bg.wasm.mjs dist/verify/lians_score_verify.js
         dist/verify/lians_score_verify_bg.wasm js/index.d.mts js/index.d.cts js/verify.d.mts js/verify.d.cts)
if [[ -z $force && -f $stamp && "$(cat "$stamp")" == "$(inputs_hash)" ]] && ls "${outputs[@]}" >/dev/null 2>&1; then
  echo "build.sh: dist/ is up to date (inputs unchanged since the last build: $stamp; --force rebuilds)"
  exit 0
fi
rm -f "$stamp"
echo "wasm-opt: $(command -v wasm-opt) ($(wasm-opt --version))"
echo "wasm-bindgen: $(wasm-bindgen --version)   wasm-pack: $(wasm-pack --version)"

export CARGO_PROFILE_RELEASE_OPT_LEVEL=z
export CARGO_PROFILE_RELEASE_PANIC=abort
export CARGO_PROFILE_RELEASE_LTO=true
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
export CARGO_PROFILE_RELEASE_DEBUG=false
# lians-score-core (the hot JSON/Unicode/tokenizer loops) and sha2 keep their
# opt-level 3 from the [profile.release.package.*] sections: see the notes there.

build() { # <wasm-pack target> <out dir name> <package type> <out name> [cargo args...]
  local target=$1 dir=dist/$2 type=$3 name=$4
  shift 4
  rm -rf "$dir"
  # The binding crate (crates/wasm, lians-score-wasm) is what wasm-pack builds;
  # its out-dir is relative to that crate, hence the absolute path.
  wasm-pack --quiet build crates/wasm --mode no-install "$mode" --target "$target" \
    --out-dir "$PWD/$dir" --out-name "$name" --no-typescript --no-pack --no-gitignore -- "$@"
  rm -f "$dir/README.md" "$dir/.gitignore" "$dir/LICENSE"*
  # The nearest package.json decides how Node/Deno read the .js glue.
  printf '{"type":"%s"}\n' "$type" > "$dir/package.json"
}

build nodejs node commonjs lians_score
# dist/cli: the npm CLI's own wasm (js/cli.mjs; also the conformance replays of
# the tests): the cargo feature js-cli adds cliRun, cliScore and the replay
# exports, which every other build leaves out (12 KB gzip smaller).
build nodejs cli commonjs lians_score --features js-cli
build web web module lians_score
# The web-target glues (dist/web, dist/verify; dist/inline copies dist/web)
# get two functions the JS wrapper (js/core.mjs) uses to drop an instance whose
# memory grew past its threshold (wasm memory never shrinks) and instantiate a
# fresh one from the same compiled module: issue #32, docs/edge-memory.md.
reset_hooks() { # <out dir name> <out name>
  cat >> "dist/$1/$2.js" <<'JS'

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
reset_hooks web lians_score
# dist/web-lean: the browser's default wasm (issue #32 round 8): the cargo
# feature lean leaves out auditRecall (the request-aware audit, ~38 KB gzip),
# so a plain `init()` of js/web.mjs fetches lians_score_lean_bg.wasm and
# `init({ audit: true })` the full dist/web/lians_score_bg.wasm. Built under
# the full build's out name and then renamed, so that its imports come from
# the same module name ("./lians_score_bg.js", the same names): either glue
# instantiates either .wasm, and js/core.mjs tells a given module's build from
# the instance's exports (round 9). One more wasm-pack run (about a minute).
build web web-lean module lians_score --features lean
mv dist/web-lean/lians_score.js dist/web-lean/lians_score_lean.js
mv dist/web-lean/lians_score_bg.wasm dist/web-lean/lians_score_lean_bg.wasm
default_url="new URL('lians_score_bg.wasm', import.meta.url)"
if [[ $(grep -cF "$default_url" dist/web-lean/lians_score_lean.js) != 1 ]]; then
  echo "build.sh: dist/web-lean/lians_score_lean.js does not name its default .wasm as expected" >&2
  exit 1
fi
sed -i "s|new URL('lians_score_bg.wasm', import.meta.url)|new URL('lians_score_lean_bg.wasm', import.meta.url)|" dist/web-lean/lians_score_lean.js
reset_hooks web-lean lians_score_lean
# Both browser glues get __lians_module and __lians_drop: js/core.mjs moves a
# module the other glue was given to its own glue, and drops the lean
# instance when it upgrades to the full build (so its memory is not kept).
swap_hooks() { # <out dir name> <out name>
  local glue=dist/$1/$2.js caches
  caches=$(sed -nE 's/^let (cached[A-Za-z0-9]+Memory0) = null;$/  \1 = null;/p' "$glue")
  if [[ -z $caches ]] || ! grep -q '^let __wbg_init_promise;$' "$glue" || ! grep -q '^let wasmModule, wasmInstance, wasm;$' "$glue"; then
    echo "build.sh: $glue does not have the expected wasm-bindgen state variables" >&2
    exit 1
  fi
  cat >> "$glue" <<JS
export function __lians_module() {
  return wasmModule;
}
export function __lians_drop() {
  wasm = wasmInstance = wasmModule = __wbg_init_promise = undefined;
$caches
}
JS
}
swap_hooks web lians_score
swap_hooks web-lean lians_score_lean
build bundler bundler module lians_score
# `lians-score/verify` (browsers, workerd, edge-light, Deno): the verifiers,
# canonical JSON and hashing only (cargo feature verify-only; ~46 % smaller).
# Its own file names (lians_score_verify_bg.wasm), so that it cannot be taken
# for the full build's lians_score_bg.wasm (their imports differ).
build web verify module lians_score_verify --features verify-only,js-cli
reset_hooks verify lians_score_verify

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

inputs_hash > "$stamp"
