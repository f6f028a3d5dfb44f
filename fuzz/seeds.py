#!/usr/bin/env python3
"""Write seed corpora for the cargo-fuzz targets from the vendored conformance
data and the captured samples (tests/data, a copy of ../shared; read-only,
nothing there is modified).

    python3 fuzz/seeds.py [--shared tests/data] [--out fuzz/corpus] [--max-bytes 65536]

Layout written: <out>/<target>/<sha1 of content>, one input per file, in each
target's input format (see tests/fuzz_checks/mod.rs):

* json_roundtrip:  JSON text (receipt wires, scoring vector inputs, samples)
* receipt_verify:  1 kind byte (0 recall, 1 context, 2 evidence_pack,
                   3 canonical) + wire [+ 0xFF + given JSON]
* api_call:        1 selector byte (function, JSON mode) + JSON text input
* text_detectors:  UTF-8 content strings

`wire_repeat` cases are expanded with the count capped at 600, so deep
documents stay over the 512 nesting limit while huge strings shrink.
Inputs larger than --max-bytes are skipped (libFuzzer's -max_len is set
to the same figure in FUZZING.md).
"""
import argparse
import hashlib
import json
import os
import sys

KIND = {"recall": 0, "context": 1, "evidence_pack": 2, "canonical": 3}
API = {"score_memory": 0, "evaluate": 1, "rescore_review_item": 2, "stable_score_key": 3,
       "rank_position_score": 5, "tokenize_for_scoring": 6, "detect_risk_tags": 7}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(here, "..", "tests", "data"))
    ap.add_argument("--out", default=os.path.join(here, "corpus"))
    ap.add_argument("--max-bytes", type=int, default=65536)
    args = ap.parse_args()
    conf = os.path.join(args.shared, "conformance")
    if not os.path.isdir(conf):
        sys.exit(f"seeds.py: no conformance data at {conf} (pass --shared)")
    counts = {}

    def put(target, data):
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        if len(data) > args.max_bytes:
            return
        d = os.path.join(args.out, target)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, hashlib.sha1(data).hexdigest())
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            counts[target] = counts.get(target, 0) + 1

    def dumps(v):
        # ensure_ascii keeps lone surrogates as escapes; key order is kept.
        return json.dumps(v, separators=(",", ":"))

    # Receipt cases.
    with open(os.path.join(conf, "receipts", "cases.jsonl"), encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            case = json.loads(line)
            wire = case["wire"]
            for r in case.get("wire_repeat", []):
                wire = wire.replace(r["marker"], r["text"] * min(r["count"], 600), 1)
            wire_b = wire.encode("utf-8", "surrogatepass")
            put("json_roundtrip", wire_b)
            given = case.get("given")
            tail = b"" if given is None else b"\xff" + dumps(given).encode()
            put("receipt_verify", bytes([KIND[case["kind"]]]) + wire_b + tail)
            # The same wire under every verifier.
            for k in range(4):
                put("receipt_verify", bytes([k]) + wire_b)

    # Scoring vectors.
    scoring = os.path.join(conf, "scoring")
    for name in sorted(os.listdir(scoring)):
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(scoring, name), encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                v = json.loads(line)
                fn, inp = v["fn"], v["input"]
                put("json_roundtrip", dumps(inp))
                sel = bytes([API[fn]])
                if fn in ("score_memory", "evaluate"):
                    put("api_call", sel + dumps(inp).encode())
                elif fn == "stable_score_key":
                    put("api_call", sel + dumps(inp.get("candidates")).encode())
                elif fn == "rank_position_score":
                    args3 = [inp.get("position"), inp.get("total"), inp.get("input_score")]
                    put("api_call", sel + dumps(args3).encode())
                elif fn == "tokenize_for_scoring":
                    put("api_call", sel + dumps(inp.get("value")).encode())
                    if isinstance(inp.get("value"), str):
                        put("text_detectors", inp["value"])
                elif fn == "detect_risk_tags":
                    put("api_call", sel + dumps(inp.get("content")).encode())
                if isinstance(inp.get("content"), str):
                    put("text_detectors", inp["content"])

    # Captured samples.
    samples = os.path.join(args.shared, "samples")
    if os.path.isdir(samples):
        for name, kind in [("recall-08-fast-filters-acme-tinyfloat.json", 0),
                           ("context-01-deep-acme-summary.json", 1),
                           ("pack-01-v2-signed.json", 2)]:
            path = os.path.join(samples, name)
            if os.path.exists(path):
                data = open(path, "rb").read()
                put("json_roundtrip", data)
                put("receipt_verify", bytes([kind]) + data)
        path = os.path.join(samples, "admissions.json")
        if os.path.exists(path):
            data = json.load(open(path, encoding="utf-8"))
            for item in data.get("pending", []):
                put("api_call", bytes([API["rescore_review_item"]]) + dumps(item).encode())
                put("text_detectors", item.get("content", ""))

    # Structure-aware api_call inputs (selector bit 3): fixed pseudo-random bytes.
    for fn in range(8):
        for n in range(8):
            body = hashlib.sha256(f"api-{fn}-{n}".encode()).digest() * 4
            put("api_call", bytes([8 | fn]) + body)
            put("text_detectors", b"\xfe" + body)

    for target in sorted(counts):
        print(f"{target}: {counts[target]} new seeds")


if __name__ == "__main__":
    main()
