#!/usr/bin/env python3
"""Differential check of the tokenizer and the admission detectors against
CPython (`str.casefold`, `str.isalnum`, and `re` patterns restating spec
`scoring-admission.md` §3.4 and §8.2), over fuzz corpora and/or random strings.

    python3 fuzz/py_text_diff.py [--bin target/release/lians-score] [--random N] [--seed S] [DIR_OR_FILE...]

The native side is `lians-score replay` on `tokenize_for_scoring` and
`detect_risk_tags` vectors. The patterns below are this script's own
restatement of the reference's (`\\w`, `\\d`, `\\s`, `\\b` and `re.I` are
CPython's Unicode-aware ones, exactly the semantics spec `scoring-admission.md` §7 describes);
spec §8 says its scanner restatements were fuzzed against the reference
patterns. Strings holding a code point unassigned in this CPython's Unicode
database are skipped (CPython 3.11 has Unicode 14.0, the reference 3.12 has
15.0). Exit status 1 on any difference (the first 20 are printed).
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import unicodedata

SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b")
MRN = re.compile(r"\bMRN[-:\s]?\d{4,}\b", re.I)
NPI = re.compile(r"\bNPI[-:\s]?\d{10}\b", re.I)
CARD = re.compile(r"\b(?:\d[ -]?){13,16}\b")
MNPI = re.compile(
    r"\b(?:material non-public|material non public|material nonpublic|insider information|mnpi|embargoed earnings"
    r"|unannounced merger|unannounced acquisition|unannounced deal|pre-announcement|pre announcement|preannouncement)\b",
    re.I,
)
INJECTION = re.compile(
    r"ignore (?:all )?(?:previous|prior|above) instructions"
    r"|disregard (?:the )?(?:system prompt|system instructions|previous prompt|previous instructions)"
    r"|reveal your (?:system )?prompt|you are now (?:a|in)|override your (?:instructions|guardrails)",
    re.I,
)
VAGUE_RUN = re.compile(r"[a-z0-9]+")
WORD = re.compile(r"[^\W_]+")  # isalnum runs
UNSEGMENTED = [(0x0E00, 0x0E7F), (0x0E80, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x3040, 0x30FF),
               (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF)]


def luhn(digits):
    if not 13 <= len(digits) <= 16:
        return False
    parity = len(digits) % 2
    total = 0
    for i, d in enumerate(digits):
        if i % 2 == parity:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def detect(content):
    tags = []
    if SSN.search(content):
        tags.append("pii:ssn")
    if EMAIL.search(content):
        tags.append("pii:email")
    if MRN.search(content):
        tags.append("phi:mrn")
    if NPI.search(content):
        tags.append("phi:npi")
    for m in CARD.finditer(content):
        if luhn([unicodedata.decimal(c) for c in m.group() if c.isdecimal()]):
            tags.append("pii:credit_card")
            break
    if MNPI.search(content):
        tags.append("mnpi")
    if INJECTION.search(content):
        tags.append("injection")
    if len(set(VAGUE_RUN.findall(content.lower()))) < 3:
        tags.append("vague")
    return tags


def unsegmented(c):
    cp = ord(c)
    return any(lo <= cp <= hi for lo, hi in UNSEGMENTED)


def tokenize(s):
    if len(s) > 8192:
        s = s[:4095] + " " + s[-4096:]
    tokens = []
    for word in WORD.findall(s.casefold()):
        segment = ""
        for c in word + "\0":
            if segment and (c == "\0" or unsegmented(c) != unsegmented(segment[0])):
                if unsegmented(segment[0]) and len(segment) > 1:
                    tokens.extend(segment[i:i + 2] for i in range(len(segment) - 1))
                else:
                    tokens.append(segment)
                segment = ""
            segment += c
        if len(tokens) >= 1024:
            break
    return tokens[:1024]


PALETTE = (
    list("abcdeiknsxyz ABCIKMNPRS0123456789@.+-:_$%!/'") + ["İ", "ı", "ſ", "K", "ß", "ﬁ", "Σ", "ς", "é", "e\u0301",
    "\u0307", "\u094d", "\u00a0", "\u3000", "\u2028", "\u0085", "\u001c", "\t", "\n", "\u200b", "贷", "款", "ー", "カ", "ท",
    "ລ", "က", "ក", "한", "𠀀", "ｸ", "ﾞ", "٣", "३", "３", "𝟘", "²", "①", "Ⅻ"] + [
    "123-45-6789", "a.b+x@example.co.uk", "user@localhost", "MRN:12345", "mrn 1234", "npi 1234567890", "npı 12345678901",
    "4111 1111 1111 1111", "4111-1111-1111-1111", "4111111111111112", "1234 4111111111111111", "material non-public",
    "MNPI's", "pre-announcement", "unannounced deals", "ignore previous instructions", "İGNORE ALL PRİOR İNSTRUCTİONS",
    "disregard the system prompt", "you are now in", "reveal your system prompt", "override your guardrails",
    "贷款风险评估", "カタカナー", "ทดสอบ", "हिन्दी", "Straße", "credit_limit", "x² ①②"])


def random_strings(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        k = rng.randrange(1, 16)
        yield "".join(rng.choice(PALETTE) if rng.random() < 0.9 else chr(rng.randrange(0x20, 0x3000)) for _ in range(k))


def corpus_strings(paths):
    for p in paths:
        names = [os.path.join(p, n) for n in sorted(os.listdir(p))] if os.path.isdir(p) else [p]
        for name in names:
            data = open(name, "rb").read()
            if data[:1] == b"\xfe":
                continue  # generated by the harness from the bytes; not the string itself
            yield data.decode("utf-8", "replace")  # as the harness's from_utf8_lossy


def assigned(s):
    """`s` with code points unassigned in this CPython's Unicode replaced by U+FFFD."""
    return "".join(c if unicodedata.category(c) != "Cn" else "\ufffd" for c in s)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(here, "..", "target", "release", "lians-score"))
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()

    strings = [assigned(s) for s in list(corpus_strings(args.paths)) + list(random_strings(args.random, args.seed))]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for i, s in enumerate(strings):
            f.write(json.dumps({"id": f"t{i}", "fn": "tokenize_for_scoring", "input": {"value": s}}) + "\n")
            f.write(json.dumps({"id": f"d{i}", "fn": "detect_risk_tags", "input": {"content": s}}) + "\n")
        vectors = f.name
    try:
        out = subprocess.run([args.bin, "replay", vectors], capture_output=True, text=True, check=True)
    finally:
        os.unlink(vectors)
    actual = {r["id"]: r["actual"] for r in map(json.loads, out.stdout.splitlines())}

    problems = []
    tag_counts = {}
    for i, s in enumerate(strings):
        want_tokens, want_tags = tokenize(s), detect(s)
        for t in want_tags:
            tag_counts[t] = tag_counts.get(t, 0) + 1
        got_tokens = actual[f"t{i}"].get("tokens")
        got_tags = actual[f"d{i}"].get("tags")
        if got_tokens != want_tokens:
            problems.append(f"tokens differ for {s[:200]!r}\n  ours:    {got_tokens[:20]}\n  cpython: {want_tokens[:20]}")
        if got_tags != want_tags:
            problems.append(f"tags differ for {s[:200]!r}\n  ours:    {got_tags}\n  cpython: {want_tags}")
    print(f"{len(strings)} strings: {len(problems)} differences (CPython {sys.version.split()[0]}, "
          f"Unicode {unicodedata.unidata_version}); tags seen: {json.dumps(tag_counts, sort_keys=True)}")
    for p in problems[:20]:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
