"""Stage-replay cases from the reference's own functions (lians-sdk 0.5.0).

    python stages_cases.py SEED COUNT > cases.jsonl

One JSON line per case, COUNT in all, the kinds in turn:
  fusion          _fuse_recall_rankings on 2-4 random facet rankings (ranks 1..floor, random raw scores)
  mmr-rerank      mmr_rerank on random relevances, random embeddings (some missing), λ in [0, 1)
  mmr-selection   _mmr_select on a random pool sorted as hybrid_recall sorts it, k < pool, λ < 1
  cross-encoder   _cross_encoder_plan with a stand-in model (random finite scores), then
                  apply_ordered_ranking_stage as rerank_cross_encoder does
  graph           _rerank_by_proximity with entity_distances' BFS over a random graph (its
                  _live_edges replaced by the random edges), metadata with and without the key
Each line: {kind, scopes, floor, memories: [{id, score_breakdown, metadata}], truth}; `truth` holds
what the reference used (fusion: each memory's ranks per facet). Read by tests/audit_stages.rs
(LIANS_STAGE_CASES); see scripts/audit/stages-diff.sh.
"""
import asyncio
import base64
import json
import math
import os
import random
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

work = tempfile.mkdtemp(prefix="lians-stages-")
os.environ.update({
    "DATABASE_URL": f"sqlite+aiosqlite://////{work.lstrip('/')}/lians.db",
    "EMBEDDING_PROVIDER": "local",
    "AIRGAP_MODE": "true",
    "MASTER_ENCRYPTION_KEY": base64.b64encode(b"\0" * 32).decode(),
})

from lians_engine.lians import graph_service, ranking  # noqa: E402
from lians_engine.lians import memory_service  # noqa: E402
from lians_engine.lians.query_planner import QueryPlan  # noqa: E402
from lians_engine.lians.scoring import stable_score_key  # noqa: E402

SCOPES = ["episodic", "temporal", "relational", "typed"]
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def mem(rng, i, score):
    row = SimpleNamespace(
        id=f"m{i:04d}-{rng.randrange(1 << 30):08x}",
        event_time=T0 + timedelta(seconds=rng.randrange(0, 10**6)),
        ingestion_time=T0 + timedelta(seconds=rng.randrange(0, 10**6)),
        metadata_={},
        embedding=None,
    )
    row._score_breakdown = {"final_score": score, "reasons": []}
    return row


def out(rows_):
    return [{"id": r.id, "score_breakdown": r._score_breakdown, "metadata": r.metadata_} for r, *_ in rows_]


def fusion_case(rng):
    n_facets = rng.randint(2, 4)
    scopes = tuple(SCOPES[:n_facets])
    floor = rng.choice([20, 24, 36, 80, 120, 200])
    pool = [mem(rng, i, 0.0) for i in range(rng.randint(2, 40))]
    rankings, truth = [], {}
    breakdowns = []
    for f in range(n_facets):
        members = rng.sample(pool, rng.randint(1, min(len(pool), floor)))
        ranking_ = []
        bds = {}
        for rank, m in enumerate(members, start=1):
            raw = round(rng.random(), 6)
            ranking_.append((m, raw, None))
            bds[str(m.id)] = {"final_score": raw, "reasons": []}
            truth.setdefault(m.id, {})[scopes[f]] = rank
        rankings.append(ranking_)
        breakdowns.append(bds)
    plan = QueryPlan(tuple(f"q{f}" for f in range(n_facets)), scopes, False)
    fused = memory_service._fuse_recall_rankings(rankings, plan, limit=floor, facet_breakdowns=breakdowns)
    k = rng.randint(1, min(len(fused), 200))
    fused = fused[:k]
    return {"kind": "fusion", "scopes": list(scopes), "floor": floor, "memories": out(fused),
            "truth": {m.id: truth[m.id] for m, *_ in fused}}


def embedding(rng, dim):
    if rng.random() < 0.15:
        return None
    if rng.random() < 0.1:
        return [0.0] * dim
    return [rng.uniform(-1, 1) for _ in range(dim)]


def mmr_rerank_case(rng):
    n = rng.randint(2, 12)
    dim = rng.choice([2, 3, 8])
    rows = []
    for i in range(n):
        score = round(rng.random(), 6) if rng.random() > 0.2 else round(rng.choice([0.5, 0.25]), 6)
        m = mem(rng, i, score)
        m.embedding = embedding(rng, dim)
        rows.append((m, score, None))
    rows.sort(key=lambda e: stable_score_key(e[0].id, e[0].event_time, e[0].ingestion_time, e[0]._score_breakdown))
    lam = rng.choice([0.0, 0.3, 0.5, 0.7, 0.99, rng.random()])
    result = ranking.mmr_rerank(rows, lambda_=lam)
    return {"kind": "mmr-rerank", "scopes": ["episodic"], "floor": 20, "memories": out(result), "truth": {"lambda": lam}}


def mmr_selection_case(rng):
    n = rng.randint(2, 20)
    dim = rng.choice([2, 3, 8])
    rows = []
    for i in range(n):
        score = round(rng.random(), 6)
        m = mem(rng, i, score)
        m.embedding = embedding(rng, dim)
        rows.append((m, score, None))
    rows.sort(key=lambda e: stable_score_key(e[0].id, e[0].event_time, e[0].ingestion_time, e[0]._score_breakdown))
    k = rng.randint(1, n - 1)
    lam = rng.choice([0.0, 0.3, 0.5, 0.9, rng.random(), -0.25])
    result = ranking._mmr_select(rows, k, lam=lam)
    return {"kind": "mmr-selection", "scopes": ["episodic"], "floor": 20, "memories": out(result),
            "truth": {"lambda": lam, "k": k}}


class StandInModel:
    def __init__(self, rng):
        self.rng = rng

    def predict(self, pairs, show_progress_bar=False):
        return [self.rng.choice([self.rng.uniform(-12, 12), 0.5, 1.0]) for _ in pairs]


def cross_encoder_case(rng):
    n = rng.randint(2, 40)
    rows = []
    for i in range(n):
        score = round(rng.random(), 6)
        rows.append((mem(rng, i, score), score, "content"))
    rows.sort(key=lambda e: stable_score_key(e[0].id, e[0].event_time, e[0].ingestion_time, e[0]._score_breakdown))
    k = rng.randint(1, n)
    ranking.RERANKER_MODEL = rng.choice(["BAAI/bge-reranker-v2-m3", "cross-encoder/ms-marco-MiniLM-L-6-v2"])
    ranking.RERANKER_PREFETCH = rng.choice([1, 5, 30])
    ranking._reranker = StandInModel(rng)
    result = ranking.rerank_cross_encoder("q", rows, k)
    return {"kind": "cross-encoder", "scopes": ["episodic"], "floor": 20, "memories": out(result), "truth": {"k": k}}


def graph_case(rng):
    names = ["ACME", "GBX", "Globex", "Initech", "Umbrella", "Hooli", "Acme  Corp", " ACME "]
    n = rng.randint(1, 10)
    key = rng.choice(["ticker", "entity", "customer"])
    rows = []
    for i in range(n):
        score = round(rng.random(), 6)
        m = mem(rng, i, score)
        r = rng.random()
        if r < 0.2:
            m.metadata_ = {}
        elif r < 0.3:
            m.metadata_ = {key: None}
        elif r < 0.35:
            m.metadata_ = {key: ""}
        else:
            m.metadata_ = {key: rng.choice(names)}
        rows.append((m, score, None))
    rows.sort(key=lambda e: stable_score_key(e[0].id, e[0].event_time, e[0].ingestion_time, e[0]._score_breakdown))
    anchor = rng.choice(names)
    edges = [SimpleNamespace(src_entity=rng.choice(names).strip(), dst_entity=rng.choice(names).strip())
             for _ in range(rng.randint(0, 8))]

    async def live_edges(*_a, **_k):
        return edges

    graph_service._live_edges = live_edges
    result = asyncio.run(memory_service._rerank_by_proximity(None, "ns", "agent", anchor, key, rows, None))
    metadata = [r.metadata_ for r, *_ in result]
    return {"kind": "graph", "scopes": ["episodic"], "floor": 20, "memories": out(result),
            "truth": {"anchor": anchor, "key": key}, "metadata": metadata}


KINDS = [fusion_case, mmr_rerank_case, mmr_selection_case, cross_encoder_case, graph_case]


def main() -> None:
    rng = random.Random(int(sys.argv[1]))
    count = int(sys.argv[2])
    w = sys.stdout
    for i in range(count):
        case = KINDS[i % len(KINDS)](rng)
        w.write(json.dumps(case, default=str, allow_nan=False) + "\n")


if __name__ == "__main__":
    main()
