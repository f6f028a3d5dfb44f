#!/usr/bin/env bash
# Refresh the vendored conformance corpus, samples and behavioural specification
# from ../shared (or $LIANS_SHARED_SRC) and say what changed. The copies in
# tests/data/conformance and tests/data/samples are what every test reads, and
# docs/spec is what the code's `§` references point into (tests/js/links.test.mjs
# checks each names a file and a heading there), so a clone anywhere tests and
# documents itself; never edit them by hand (the corpus is recorded from the
# Python reference).
#   bash scripts/refresh-conformance.sh          # copy, then list changes
#   bash scripts/refresh-conformance.sh --check  # exit 1 if they differ
set -euo pipefail
cd "$(dirname "$0")/.."
src=${LIANS_SHARED_SRC:-../shared}
check=0
[[ "${1-}" == "--check" ]] && check=1
if [[ ! -d "$src/conformance" || ! -d "$src/samples" || ! -d "$src/spec" ]]; then
  echo "refresh-conformance: no $src/conformance, $src/samples or $src/spec here; nothing to do" >&2
  exit 0
fi
changed=0
for pair in "conformance:tests/data/conformance" "samples:tests/data/samples" "spec:docs/spec"; do
  from="$src/${pair%%:*}" to="${pair#*:}"
  mkdir -p "$to"
  # What differs, file by file (added, removed, changed).
  while IFS= read -r line; do
    changed=1
    echo "$line"
  done < <(diff -rq "$from" "$to" 2>/dev/null | sed "s#^Only in $from#added upstream#; s#^Only in $to#removed upstream#" || true)
  if ((!check)); then
    rm -rf "$to"
    cp -r "$from" "$to"
    chmod -R u+w "$to"
  fi
done
if ((changed)); then
  if ((check)); then echo "refresh-conformance: the vendored copies differ from $src" >&2; exit 1; fi
  echo "refresh-conformance: updated from $src (review with git diff --stat tests/data/conformance tests/data/samples docs/spec)"
else
  echo "refresh-conformance: tests/data/conformance, tests/data/samples and docs/spec equal $src"
fi
