#!/usr/bin/env python3
"""Differential check of the JSON reader and canonical printer against
CPython's `json` module, over fuzz corpora (or any files).

    python3 fuzz/py_json_diff.py [--bin target/release/lians-score] DIR_OR_FILE...

Every input that is valid UTF-8 becomes a `canonical` receipt case; the
native `lians-score verify-replay` reads it, and for each case this checks:

* CPython accepts  <=> lians-score accepts (`malformed_json` otherwise);
* when both accept: the canonical text is byte-identical to
  `json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))`,
  and receipt_sha256 is its SHA-256.

Documents nested deeper than 512 are skipped where CPython accepts them
(the spec refuses them with `nesting_too_deep`; CPython's own limit is its
recursion limit), and so are canonical texts over 1 MiB (the CLI does not
print those). The reference is CPython 3.12; 3.11's `json` reads and prints
the same way (same float repr, same 4,300-digit integer limit).
Exit status 1 on any difference (the first 20 are printed).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile


def depth(text):
    """Maximum array/object nesting, ignoring brackets inside strings."""
    d = best = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            d += 1
            best = max(best, d)
        elif ch in "]}":
            d -= 1
    return best


def files(paths):
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                full = os.path.join(p, name)
                if os.path.isfile(full):
                    yield full
        else:
            yield p


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(here, "..", "target", "release", "lians-score"))
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    sys.setrecursionlimit(100000)

    docs = []
    for path in files(args.paths):
        raw = open(path, "rb").read()
        # A leading selector byte (receipt_verify corpus) is tried both ways.
        for data in (raw, raw[1:]) if raw[:1] in (b"\x00", b"\x01", b"\x02", b"\x03") else (raw,):
            data = data.split(b"\xff")[0]
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            docs.append((path, text))

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for i, (_, text) in enumerate(docs):
            f.write(json.dumps({"id": str(i), "kind": "canonical", "wire": text}) + "\n")
        cases = f.name
    try:
        out = subprocess.run([args.bin, "verify-replay", cases], capture_output=True, text=True, check=False)
    finally:
        os.unlink(cases)
    if out.returncode not in (0, 1):
        sys.exit(f"verify-replay failed: {out.stderr}")
    rows = {r["id"]: r for r in map(json.loads, out.stdout.splitlines())}

    problems, compared, skipped, both_refuse = [], 0, 0, 0
    for i, (path, text) in enumerate(docs):
        row = rows[str(i)]
        try:
            value = json.loads(text)
            expected = json.dumps(value, sort_keys=True, separators=(",", ":"))
            py_error = None
        except (ValueError, RecursionError) as e:
            expected, py_error = None, e
        ours_ok = row["receipt_sha256"] is not None
        if py_error is None and not ours_ok:
            if "nesting_too_deep" in row["failures"] and depth(text) > 512:
                skipped += 1
                continue
            problems.append(f"{path}: CPython accepts, lians-score refuses {row['failures']}")
        elif py_error is not None and ours_ok:
            problems.append(f"{path}: CPython refuses ({py_error}), lians-score accepts")
        elif py_error is None:
            if row["canonical"] is None:
                skipped += 1
                continue
            compared += 1
            if row["canonical"] != expected:
                problems.append(f"{path}: canonical differs\n  ours: {row['canonical'][:300]}\n  cpython: {expected[:300]}")
            elif row["receipt_sha256"] != hashlib.sha256(expected.encode("ascii")).hexdigest():
                problems.append(f"{path}: receipt_sha256 differs")
        else:
            compared += 1
            both_refuse += 1
    print(f"{len(docs)} documents: {compared} compared ({compared - both_refuse} canonical texts, "
          f"{both_refuse} refused by both), {skipped} skipped, {len(problems)} differences "
          f"(CPython {sys.version.split()[0]})")
    for p in problems[:20]:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
