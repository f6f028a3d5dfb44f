#!/usr/bin/env bash
# The crates as `cargo publish` would upload them (lians-score, and the
# lians-score-core it depends on, under crates/core): only the library, CLI, bench,
# example and test sources and the docs (Cargo.toml `include`); no web app,
# npm package or test data. With --publish, also `cargo publish --dry-run`
# (it compiles the packaged crate from scratch: ~2 min, so not in every CI run).
set -euo pipefail
cd "$(dirname "$0")/../.."
core=$(cargo package --list --allow-dirty --quiet -p lians-score-core 2>&1)
bad=$(echo "$core" | grep -vE '^(src/.*\.rs|Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|README\.md|LICENSE|\.cargo_vcs_info\.json)$' || true)
if [[ -n "$bad" ]]; then echo "FAIL: unexpected files in lians-score-core:" >&2; echo "$bad" >&2; exit 1; fi
for must in LICENSE README.md src/lib.rs src/json/parse.rs; do
  echo "$core" | grep -qx "$must" || { echo "FAIL: $must missing from lians-score-core" >&2; exit 1; }
done
echo "lians-score-core contents: ok ($(echo "$core" | wc -l) files)"
list=$(cargo package --list --allow-dirty --quiet -p lians-score 2>&1)
echo "$list" | sed 's/^/  /'
bad=$(echo "$list" | grep -vE '^(src/.*\.rs|benches/[a-z_]+\.rs|examples/rust/[a-z_]+\.rs|tests/[a-z_]+\.rs|tests/(common|fuzz_checks)/[a-z_]+\.rs|Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|README\.md|CHANGELOG\.md|LICENSE|\.cargo_vcs_info\.json)$' || true)
if [[ -n "$bad" ]]; then echo "FAIL: unexpected files in the crate:" >&2; echo "$bad" >&2; exit 1; fi
for must in LICENSE README.md CHANGELOG.md src/lib.rs; do
  echo "$list" | grep -qx "$must" || { echo "FAIL: $must missing from the crate" >&2; exit 1; }
done
echo "crate contents: ok ($(echo "$list" | wc -l) files)"
if [[ "${1:-}" == "--publish" ]]; then
  # Both crates, core first, resolved against each other (cargo >= 1.90).
  cargo publish --dry-run --allow-dirty --workspace
fi
