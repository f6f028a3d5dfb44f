#!/usr/bin/env python3
"""Random held writes, scored by the reference exactly as a Lians server stores them, for the
review-queue inference test (src/admission/review.rs).

    python review_writes.py gen --seed S --count N --out RECORDS.jsonl --items-out ITEMS.jsonl
        N held writes (enforce mode). Each line: {"item": <PendingAdmissionOut as the list route
        returns it: no importance, no metadata>, "written": {importance?, metadata?},
        "approved": <breakdown approval stores>, "trusted_review": <breakdown on the trusted path>}.
    python review_writes.py check RECORDS.jsonl RESCORED.jsonl
        RESCORED = `lians-score score --fn rescore_review_item ITEMS.jsonl`. Every held
        re-score must equal the stored breakdown (no drift), and "If approved" / trusted review
        must equal the reference's exactly, except where the written importance had more than the
        6 decimals the breakdown stores (then only final_score may differ, by at most 1e-6).

The server path restated here (lians_engine/lians/admission_service.py, 0.5.0):
  write:   MemoryAdd (importance float in [0, 1], default 0.5; metadata dict, default {}) ->
           evaluate(content, source, mode="enforce") -> attach_memory_admission(req, decision) ->
           held when the action is "review" (pending row: event_time, source, importance,
           metadata = attach's new metadata, risk_tags).
  list:    PendingAdmissionOut, score_breakdown = metadata["_score"], event_time = the stored
           column: UTC "...Z" on Postgres, the naive wall-clock on SQLite (which drops the offset).
  approve: MemoryAdd(event_time=stored column, importance, metadata={**pending.metadata,
           "_admission": {...}}) -> attach(decision admit with the pending tags, action "approved",
           safety_status "approved").
When `lians_engine.lians.admission_service` imports (the server venv), its own
`attach_memory_admission` is used; otherwise (the scorer-only venv) the same 20 lines, below.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import sys
from datetime import timezone
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen  # noqa: E402

# Importing the service builds (never connects) the app's database engine: point it at SQLite,
# so the default PostgreSQL URL does not require asyncpg. No file is created.
os.environ.setdefault("DATABASE_URL", "sqlite+aiosqlite://////" + os.path.join(tempfile.gettempdir(), "lians-oracle-unused.db").lstrip("/"))
os.environ.setdefault("AGENTMEM_ALLOW_UNENCRYPTED", "true")
try:  # the server's own function when its dependencies are installed
    from lians_engine.lians.admission_service import attach_memory_admission as _server_attach
except Exception:  # noqa: BLE001 - scorer-only venv
    _server_attach = None


def attach(scoring, req, decision, action=None, safety_status=None):
    if _server_attach is not None:
        _server_attach(req, decision, action=action, safety_status=safety_status)
        return
    recorded = action or decision.action
    status = safety_status or {"admit": "safe", "review": "review_needed", "reject": "rejected"}.get(decision.action, "review_needed")
    caller = dict(req.metadata or {})
    caller.pop("_admission", None)
    caller.pop("_score", None)
    breakdown = scoring.score_memory(content=req.content, reference_time=req.event_time, event_time=req.event_time,
                                     valid_from=req.event_time, metadata=caller, importance=req.importance,
                                     source=req.source, safety_status=status, risk_tags=decision.risk_tags,
                                     purpose="admission")
    req.metadata = {**caller, "_admission": {"action": recorded, "risk_tags": list(decision.risk_tags)}, "_score": breakdown}


def held_content(rng: random.Random) -> str:
    """Content that enforce mode holds: PII/PHI/MNPI, not injection-like, not vague."""
    sensitive = rng.choice([
        lambda: gen.digits(rng, 3) + "-" + gen.digits(rng, 2) + "-" + gen.digits(rng, 4),
        lambda: rng.choice(["billing.contact", "a.b+x", "é", "ops"]) + "@" + rng.choice(["example", "acme-corp"]) + rng.choice([".com", ".co.uk", ".io"]),
        lambda: rng.choice(["MRN", "mrn", "MRN-", "MRN:", "npi ", "NPI:"]) + gen.digits(rng, rng.choice([4, 6, 7, 10])),
        lambda: gen.card(rng),
        lambda: rng.choice(["material non-public", "insider information", "MNPI", "embargoed earnings", "unannounced merger", "pre-announcement"]),
    ])
    parts = [gen.sentence(rng, rng.randint(0, 8)), sensitive(), gen.sentence(rng, rng.randint(0, 8))]
    if rng.random() < 0.3:
        parts.append(sensitive())
    if rng.random() < 0.03:
        parts.append("word " * rng.randint(1700, 1800))  # past the 8,192 sample
    return " ".join(parts)


def written_metadata(rng: random.Random):
    r = rng.random()
    if r < 0.25:
        return None  # omitted: {}
    if r < 0.35:
        return {}
    if r < 0.45:  # only reserved/control keys: no public metadata
        return {k: gen.meta_value(rng, 1, [10]) for k in rng.sample(["_x", "_admission", "_score", "materiality", "trust_level", "source_trust"], rng.randint(1, 3))}
    if r < 0.6:  # a trust claim, with or without public keys
        m = {rng.choice(["trust_level", "source_trust"]): rng.choice(["system_verified", "trusted_source", "", 0, None, False, "chat", 1])}
        if rng.random() < 0.5:
            m["customer"] = "acme"
        return m
    m = gen.meta_object(rng)
    while len(m) > 98:  # MemoryAdd allows 100 keys; attach adds two
        m.pop(next(iter(m)))
    return m


def written_importance(rng: random.Random):
    r = rng.random()
    if r < 0.25:
        return None  # omitted: 0.5
    if r < 0.75:
        return round(rng.random(), rng.randint(1, 6))  # what clients send
    if r < 0.85:
        return rng.choice([0.0, 1.0, 0.15, 0.4, 0.45, 0.5, 0.55, 0.7, 0.8, 0.9, 0.44999999999999996, 0.7999999999999999])
    return rng.random()  # full precision: recovered to 6 places


def listed_time(t, backend: str) -> str:
    """The stored column as the list route prints it (pydantic JSON)."""
    if backend == "sqlite":
        return t.replace(tzinfo=None).isoformat()  # SQLite keeps the wall-clock and drops the offset
    u = t.astimezone(timezone.utc) if t.tzinfo else t.replace(tzinfo=timezone.utc)
    return u.replace(tzinfo=None).isoformat() + "Z"


def stored_time(t, backend: str):
    if backend == "sqlite":
        return t.replace(tzinfo=None)
    return t.astimezone(timezone.utc) if t.tzinfo else t.replace(tzinfo=timezone.utc)


def one(rng: random.Random, scoring, admission, k: int, seed: str):
    content = held_content(rng)
    source = rng.choice(gen.SOURCES)
    importance = written_importance(rng)
    metadata = written_metadata(rng)
    event = gen.moment(rng)
    if event.year < 2 or event.year > 9998:
        event = event.replace(year=2026)
    decision = admission.evaluate(content, source, mode="enforce", blocked_sources=set())
    if decision.action != "review":
        return None
    req = SimpleNamespace(agent_id="a", content=content, event_time=event, source=source, subject_id=None,
                          metadata=dict(metadata) if metadata is not None else {}, importance=0.5 if importance is None else importance)
    attach(scoring, req, decision)
    backend = rng.choice(["postgres", "sqlite"])
    pending_metadata, pending_event = req.metadata, stored_time(event, backend)
    item = {"id": f"00000000-0000-4000-8000-{k:012d}", "namespace": "ns", "agent_id": "a", "content": content,
            "event_time": listed_time(event, backend), "source": source, "subject_id": None,
            "risk_tags": list(decision.risk_tags), "reasons": list(decision.reasons), "status": "pending",
            "created_at": "2026-12-01T00:00:00Z", "resolved_at": None, "memory_id": None,
            "score_breakdown": pending_metadata["_score"]}
    approve = SimpleNamespace(agent_id="a", content=content, event_time=pending_event, source=source, subject_id=None,
                              metadata={**pending_metadata, "_admission": {"action": "approved", "risk_tags": list(decision.risk_tags)}},
                              importance=req.importance)
    trusted = SimpleNamespace(**vars(approve))
    trusted.metadata = dict(approve.metadata)
    attach(scoring, approve, type(decision)("admit", list(decision.risk_tags), list(decision.reasons)), action="approved", safety_status="approved")
    attach(scoring, trusted, type(decision)("admit", list(admission.detect_risk_tags(content)), []), action="approved", safety_status="approved")
    written = {}
    if importance is not None:
        written["importance"] = importance
    if metadata is not None:
        written["metadata"] = metadata
    return {"item": item, "written": written, "backend": backend,
            "approved": approve.metadata["_score"], "trusted_review": trusted.metadata["_score"]}


from oracle import dumps  # noqa: E402  (the vector files' JSON form: escapes for U+2028 etc. and lone surrogates)


def cmd_gen(args) -> int:
    from lians_engine.lians import admission, scoring
    n = k = 0
    with open(args.out, "w", encoding="utf-8") as f, open(args.items_out, "w", encoding="utf-8") as items:
        while n < args.count:
            rng = random.Random(f"{args.seed}:review:{k}")
            k += 1
            try:
                rec = one(rng, scoring, admission, k, args.seed)
                line = dumps(rec) if rec else None
            except (ValueError, TypeError, OverflowError):
                continue
            if line:
                f.write(line + "\n")
                items.write(dumps(rec["item"]) + "\n")
                n += 1
    print(f"review writes: {n} held writes ({'server attach_memory_admission' if _server_attach else 'attach restated'})", file=sys.stderr)
    return 0


def more_than_6_decimals(x) -> bool:
    return isinstance(x, float) and round(x, 6) != x


def cmd_check(args) -> int:
    records = [json.loads(line) for line in open(args.items, encoding="utf-8")]
    outs = [json.loads(line) for line in open(args.rescored, encoding="utf-8")]
    if len(records) != len(outs):
        print(f"review check: {len(records)} items but {len(outs)} re-scores")
        return 1
    bad = imprecise = 0
    stats = {"importance inferred exact": 0, "importance at_most": 0, "public metadata": 0, "trust claim": 0,
             "event time inferred": 0, "sqlite": 0}
    for rec, out in zip(records, outs):
        problems = []
        if "error" in out:
            problems.append(f"error {out}")
        else:
            if out["drift"]["drifted"]:
                problems.append(f"drift {out['drift']}")
            if json.dumps(out["held"], sort_keys=True) != json.dumps(rec["item"]["score_breakdown"], sort_keys=True):
                problems.append("held != stored")
            for col in ("approved", "trusted_review"):
                want, got = rec[col], out[col]
                if json.dumps(want) != json.dumps(got):
                    diff = {k for k in want if json.dumps(want[k]) != json.dumps(got.get(k))}
                    imp = rec["written"].get("importance")
                    if diff == {"final_score"} and more_than_6_decimals(imp) and abs(want["final_score"] - got["final_score"]) <= 1.0000001e-6:
                        imprecise += 1
                    else:
                        problems.append(f"{col}: {sorted(diff)} want {[want.get(k) for k in sorted(diff)]} got {[got.get(k) for k in sorted(diff)]}")
            inp = out["inputs"]
            stats["importance inferred exact"] += inp["importance"]["bound"] == "exact"
            stats["importance at_most"] += inp["importance"]["bound"] == "at_most"
            stats["public metadata"] += inp["public_metadata"]["value"]
            stats["trust claim"] += inp["trust_claim"]["value"]
            stats["event time inferred"] += inp["event_time"]["source"] == "inferred"
        stats["sqlite"] += rec["backend"] == "sqlite"
        if problems:
            bad += 1
            if bad <= args.show:
                print(f"FAIL {rec['item']['id']} written={json.dumps(rec['written'], ensure_ascii=False)[:300]}\n  " + "\n  ".join(p[:600] for p in problems))
                print(f"  item {dumps(rec['item'])[:1500]}")
    print(f"review check: {len(records) - bad}/{len(records)} held writes re-scored exactly from the list form "
          f"({imprecise} approved/trusted finals within 1e-6 where the importance had > 6 decimals); "
          + ", ".join(f"{k} {v}" for k, v in stats.items()))
    return 1 if bad or not records else 0


def main() -> int:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--seed", required=True)
    g.add_argument("--count", type=int, required=True)
    g.add_argument("--out", required=True)
    g.add_argument("--items-out", required=True, help="the list-route items alone, one per line")
    c = sub.add_parser("check")
    c.add_argument("items")
    c.add_argument("rescored")
    c.add_argument("--show", type=int, default=10)
    args = p.parse_args()
    return cmd_gen(args) if args.cmd == "gen" else cmd_check(args)


if __name__ == "__main__":
    sys.exit(main())
