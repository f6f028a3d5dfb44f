#!/usr/bin/env python3
"""The reference as an oracle: random vectors recorded from `lians_engine.lians.scoring` and
`admission` (PyPI `lians-sdk==0.5.0`, CPython 3.12), in the conformance vector format
(tests/data/conformance/scoring/README.md), and an exact checker.

    python oracle.py gen --seed S --count N --out DIR [--start K]
        writes DIR/oracle.jsonl: N vectors spread over score_memory, tokenize_for_scoring,
        detect_risk_tags, evaluate, rank_position_score, risk_spans (the engine's own patterns
        under `re.finditer`) and is_too_vague (ids `orc-<fn>-<seed>-<k>`), expected = the reference's.
    python oracle.py check VECTORS.jsonl ACTUAL.jsonl [--show N]
        exact comparison: every vector's actual, parsed and re-serialized with json.dumps, must be
        byte-identical to its expected (same keys in the same order, same types: 1 is not 1.0, the
        same doubles as the reference's rounding produced, the same reasons and eligibility).
        Writes nothing; exits 1 on any difference and prints each one as a regression vector line.

Run by scripts/oracle.sh, which also replays the vectors natively and in wasm.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen  # noqa: E402

FNS = (["score_memory"] * 12 + ["tokenize_for_scoring"] * 4 + ["detect_risk_tags"] * 4 + ["evaluate"] * 4
       + ["rank_position_score"] + ["risk_spans"] * 3 + ["is_too_vague"])


def reference():
    from lians_engine.lians import admission, scoring
    return scoring, admission


def marker(v):
    """The vector format's encoding of non-finite floats (README: importance, base_relevance)."""
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    return v


def unmarker(v):
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(v, v) if isinstance(v, str) else v


def score_input(rng: random.Random) -> dict:
    ref = gen.moment(rng)
    inp: dict = {"content": gen.content(rng), "reference_time": gen.iso(ref)}
    if rng.random() < 0.03:
        inp["reference_time"] = gen.iso_text(rng)  # any form fromisoformat reads (refused ones are skipped)
    opt = lambda p: rng.random() < p  # noqa: E731
    if opt(0.7):
        inp["metadata"] = gen.metadata(rng)
    if opt(0.7):
        inp["importance"] = gen.importance_like(rng)
    if opt(0.7):
        inp["source"] = rng.choice(gen.SOURCES)
    if opt(0.7):
        inp["event_time"] = None if opt(0.15) else gen.iso(gen.near(rng, ref)) if opt(0.97) else gen.iso_text(rng)
    if opt(0.3):
        inp["valid_from"] = None if opt(0.2) else gen.iso(gen.near(rng, ref))
    if opt(0.3):
        inp["valid_to"] = None if opt(0.2) else gen.iso(gen.near(rng, ref))
    if opt(0.2):
        inp["superseded"] = rng.choice([True, False])
    if opt(0.6):
        inp["query"] = rng.choice([None, "", " ", "\u3000", gen.sentence(rng), gen.sentence(rng, 2), gen.sentence(rng, 20)])
    if opt(0.1):
        inp["query_tokens"] = [gen.token(rng).lower() for _ in range(rng.randint(0, 6))]
    if opt(0.4):
        inp["base_relevance"] = gen.importance_like(rng) if opt(0.8) else None
    if opt(0.4):
        inp["safety_status"] = rng.choice(gen.STATUSES)
    if opt(0.4):
        inp["risk_tags"] = None if opt(0.1) else rng.sample(gen.TAGS, rng.randint(0, 3))
    if opt(0.1):
        inp["verified_trust_level"] = rng.choice(gen.LEVELS)
    if opt(0.5):
        inp["purpose"] = rng.choice(gen.PURPOSES)
    return inp


def call_score(scoring, inp: dict):
    kw = dict(inp)
    for k in ("reference_time", "event_time", "valid_from", "valid_to"):
        if isinstance(kw.get(k), str):
            kw[k] = datetime.fromisoformat(kw[k])
    for k in ("importance", "base_relevance"):
        if k in kw:
            kw[k] = unmarker(kw[k])
    if kw.get("query_tokens") is not None:
        kw["query_tokens"] = tuple(kw["query_tokens"])
    return scoring.score_memory(**kw)


def tokenize_input(rng: random.Random) -> dict:
    r = rng.random()
    if r < 0.85:
        return {"value": gen.content(rng)}
    return {"value": rng.choice([None, True, False, 0, -0, 1, 10**30, -7, 1.5, 1e20, 1e16, 1e-5, -0.0, 0.1, 1e300,
                                 5e-324, 123456789.125, gen.tie_number(rng)])}


def evaluate_input(rng: random.Random) -> dict:
    inp = {"content": gen.content(rng) if rng.random() < 0.6 else gen.pii(rng) + " " + gen.sentence(rng, rng.randint(0, 6)),
           "source": rng.choice(gen.SOURCES)}
    if rng.random() < 0.8:
        inp["mode"] = rng.choice(["enforce", "enforce", "monitor", "off", "Enforce", "", "OFF"])
    if rng.random() < 0.7:
        pool = ["evil", "spam.example", "scraped", "Evil", "chat", "i̇mported", "", " scraped ", "evil\ud800", "evil\udfff"]
        inp["blocked_sources"] = None if rng.random() < 0.1 else rng.sample(pool, rng.randint(0, 3))
    return inp


def risk_spans(admission, content: str) -> list:
    """Where the detectors match (spec `scoring-admission.md` §8.3), from the engine's own compiled patterns: every match
    `re.finditer` yields, cards only when `_luhn_ok`, by tag in detector order, then by position."""
    found = []
    for tag, rx in admission._DETECTORS:  # pii:ssn, pii:email, phi:mrn, phi:npi
        found += [(tag, m) for m in rx.finditer(content)]
    found += [("pii:credit_card", m) for m in admission._CREDIT_CARD.finditer(content) if admission._luhn_ok(m.group(0))]
    found += [("mnpi", m) for m in admission._MNPI.finditer(content)]
    found += [("injection", m) for m in admission._INJECTION.finditer(content)]
    spans = [{"tag": t, "start": m.start(), "end": m.end(), "text": m.group(0)} for t, m in found]
    # The invariant the port relies on: the span tags (plus vague) are detect_risk_tags.
    tags = list(dict.fromkeys(s["tag"] for s in spans)) + (["vague"] if admission.is_too_vague(content) else [])
    assert tags == admission.detect_risk_tags(content), (content, tags)
    return spans


def spans_input(rng: random.Random) -> dict:
    r = rng.random()
    if r < 0.4:
        return {"content": gen.detector_dense(rng)}
    if r < 0.7:
        return {"content": gen.sentence(rng, rng.randint(0, 4)) + " " + gen.detector_dense(rng) + " " + gen.sentence(rng, rng.randint(0, 4))}
    return {"content": gen.content(rng)}


def vector(rng: random.Random, scoring, admission, fn: str, vid: str):
    if fn == "score_memory":
        inp = score_input(rng)
        out = call_score(scoring, inp)
        inp = {k: (marker(v) if k in ("importance", "base_relevance") else v) for k, v in inp.items()}
        expected = out
    elif fn == "tokenize_for_scoring":
        inp = tokenize_input(rng)
        expected = {"tokens": list(scoring.tokenize_for_scoring(inp["value"]))}
    elif fn == "detect_risk_tags":
        inp = {"content": gen.content(rng) if rng.random() < 0.5 else gen.sentence(rng, rng.randint(1, 4)) + " " + gen.pii(rng) + " " + gen.sentence(rng, rng.randint(0, 4))}
        expected = {"tags": list(admission.detect_risk_tags(inp["content"]))}
    elif fn == "fromisoformat":
        # As the vector file reads back: adjacent lone surrogates written as \ud800\udfff are one pair.
        inp = {"text": json.loads(json.dumps(gen.iso_text(rng)))}
        expected = expected_of(scoring, admission, fn, inp)
    elif fn in ("risk_spans", "is_too_vague"):
        inp = spans_input(rng)
        expected = expected_of(scoring, admission, fn, inp)
    elif fn == "rank_position_score":
        arg = lambda: rng.choice([rng.randint(-3, 300), gen.tie_number(rng) * 10, gen.importance_like(rng),  # noqa: E731
                                  " 7 ", "\x1f7", "\u00857", "٣", "1_0", "-2", "+1", "3.0", True, None,
                                  "1" * 40, str(rng.randrange(10**60)), 1e300, -1e300, 1e20])
        inp = {"position": arg(), "total": arg(), "input_score": gen.importance_like(rng)}
        inp = {k: marker(v) for k, v in inp.items()}
        expected = expected_of(scoring, admission, fn, inp)
    else:
        inp = evaluate_input(rng)
        expected = expected_of(scoring, admission, fn, inp)
    return {"id": vid, "fn": fn, "input": inp, "expected": expected}


def dumps(v) -> str:
    # Raw U+2028/U+2029/U+0085/U+FEFF escaped so the file splits on \n only (README).
    text = json.dumps(v, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for c in ("\u2028", "\u2029", "\u0085", "\ufeff"):
        text = text.replace(c, "\\u%04x" % ord(c))
    # Lone surrogates (Python strings can hold them) can only be written as escapes.
    return _SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def cmd_gen(args) -> int:
    scoring, admission = reference()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    skipped = 0
    with open(out / "oracle.jsonl", "w", encoding="utf-8") as f:
        for k in range(args.start, args.start + args.count):
            rng = random.Random(f"{args.seed}:{k}")  # each vector reproducible on its own
            fn = args.only or rng.choice(FNS)
            try:
                v = vector(rng, scoring, admission, fn, f"orc-{fn}-{args.seed}-{k}")
                line = dumps(v)
            except (ValueError, TypeError, OverflowError):
                skipped += 1  # the reference raises (e.g. an out-of-range datetime): not a parity input
                continue
            f.write(line + "\n")
    if skipped:
        print(f"oracle: {skipped} generated inputs made the reference raise; skipped", file=sys.stderr)
    return 0


def expected_of(scoring, admission, fn: str, inp: dict):
    """The reference's result for one vector input (the conformance `expected` shape)."""
    if fn == "score_memory":
        try:
            return call_score(scoring, inp)
        except (ValueError, TypeError, OverflowError, AttributeError) as e:  # the reference raises: any typed error
            return {"error": type(e).__name__}
    if fn == "tokenize_for_scoring":
        return {"tokens": list(scoring.tokenize_for_scoring(inp["value"]))}
    if fn == "detect_risk_tags":
        return {"tags": list(admission.detect_risk_tags(inp["content"]))}
    if fn == "fromisoformat":
        try:  # the C implementation (datetime.datetime), what the reference runs
            return {"isoformat": datetime.fromisoformat(inp["text"]).isoformat()}
        except ValueError as e:
            return {"error": type(e).__name__}
    if fn == "risk_spans":
        return {"spans": risk_spans(admission, inp["content"])}
    if fn == "is_too_vague":
        return {"vague": admission.is_too_vague(inp["content"])}
    if fn == "rank_position_score":
        try:
            return {"score": scoring.rank_position_score(*(unmarker(inp[k]) for k in ("position", "total", "input_score")))}
        except Exception as e:  # noqa: BLE001 - the reference's exception name is the expected value
            return {"error": type(e).__name__}
    kw = {}
    if "mode" in inp:
        kw["mode"] = inp["mode"]
    if "blocked_sources" in inp:
        kw["blocked_sources"] = None if inp["blocked_sources"] is None else set(inp["blocked_sources"])
    d = admission.evaluate(inp["content"], inp["source"], **kw)
    return {"action": d.action, "risk_tags": list(d.risk_tags), "reasons": list(d.reasons)}


def cmd_record(args) -> int:
    """Fill in `expected` of hand-written vectors ({id, fn, input}) from the reference."""
    scoring, admission = reference()
    lines = []
    for line in open(args.file, encoding="utf-8"):
        if line.strip():
            v = json.loads(line)
            v["expected"] = expected_of(scoring, admission, v["fn"], v["input"])
            lines.append(dumps({"id": v["id"], "fn": v["fn"], "input": v["input"], "expected": v["expected"]}))
    Path(args.file).write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    print(f"recorded {len(lines)} vectors in {args.file}")
    return 0


def cmd_check(args) -> int:
    actual = {}
    with open(args.actual, encoding="utf-8") as f:
        for line in f:
            o = json.loads(line)
            actual[o["id"]] = o.get("actual")
    n = bad = 0
    by_fn: dict[str, int] = {}
    with open(args.vectors, encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            n += 1
            by_fn[v["fn"]] = by_fn.get(v["fn"], 0) + 1
            exp, act = v["expected"], actual.get(v["id"], "<missing>")
            if isinstance(exp, dict) and set(exp) == {"error"} and isinstance(act, dict) and "error" in act:
                act = exp  # the reference raised and so did the port (its error codes are its own)
            want = json.dumps(exp, ensure_ascii=False)
            got = json.dumps(act, ensure_ascii=False)
            if want != got:
                bad += 1
                if bad <= args.show:
                    print(f"DIFF {v['id']}\n  expected {dumps(exp)[:600]}\n  actual   {dumps(act)[:600]}\n  vector   {line.strip()[:2000]}")
    counts = ", ".join(f"{k} {c}" for k, c in sorted(by_fn.items()))
    print(f"oracle check {Path(args.actual).name}: {n - bad}/{n} exact ({counts})")
    return 1 if bad or n == 0 else 0


def main() -> int:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--seed", required=True)
    g.add_argument("--count", type=int, required=True)
    g.add_argument("--start", type=int, default=0)
    g.add_argument("--out", required=True)
    g.add_argument("--only", help="every vector of this fn (e.g. fromisoformat)")
    c = sub.add_parser("check")
    c.add_argument("vectors")
    c.add_argument("actual")
    c.add_argument("--show", type=int, default=10)
    r = sub.add_parser("record")
    r.add_argument("file")
    args = p.parse_args()
    return {"gen": cmd_gen, "check": cmd_check, "record": cmd_record}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
