"""Make the ten lying-server fixtures of issue #29 from real captured bodies.

    .lians-venv/bin/python scripts/audit/lies.py tests/data/audit tests/data/audit/lies

Each lie edits a captured body the way a lying server would: `memories[i]` and
`receipt.results[i]` alike, stage records written by the reference's own
`apply_ordered_ranking_stage` (lians-sdk 0.5.0), the order re-sorted by the
reference's `stable_score_key`, and `receipt_sha256` recomputed from the
Python-canonical JSON the server hashes. Writes `<lie>.json` (the body),
`<lie>.request.json` (what the client sent) and `lies.json` (lie -> source,
expected audit code, what changed). Deterministic: rerunning gives the same bytes.
"""
import base64
import copy
import hashlib
import json
import os
import sys
import tempfile
from types import SimpleNamespace

work = tempfile.mkdtemp(prefix="lians-lies-")
os.environ.update({
    "DATABASE_URL": f"sqlite+aiosqlite://////{work.lstrip('/')}/lians.db",
    "EMBEDDING_PROVIDER": "local",
    "AIRGAP_MODE": "true",
    "RECALL_CACHE_ENABLED": "false",
    "MASTER_ENCRYPTION_KEY": base64.b64encode(b"\0" * 32).decode(),
})

from datetime import datetime  # noqa: E402

from lians_engine.lians.ranking import apply_ordered_ranking_stage  # noqa: E402
from lians_engine.lians.scoring import stable_score_key  # noqa: E402

src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
AGENT = "audit-agent"

# The requests the captured bodies answer (scripts/audit/capture.py).
REQUESTS = {
    "fast-standard": dict(query="Acme revenue", k=5),
    "fast-filters": dict(query="Acme revenue", k=5, filters={"customer": "acme"}),
    "fast-mmr": dict(query="Acme revenue renewal", k=5, filters={"_rerank": "mmr", "_mmr_lambda": 0.3}),
    "fast-graph": dict(query="Acme supplier widgets", k=5, filters={"_near_entity": "ACME"}),
    "fast-asof": dict(query="Acme revenue", k=5, as_of="2026-06-15T00:00:00Z"),
    "deep": dict(query="Summarize Acme account facts", k=6, mode="deep"),
}


def load(name):
    with open(os.path.join(src, f"recall-{name}.json"), "rb") as f:
        return json.loads(f.read())


def dt(s):
    return datetime.fromisoformat(s) if s else None


def rows(body):
    """The memories as the ranking functions see them (breakdown copies)."""
    out = []
    for m in body["memories"]:
        row = SimpleNamespace(
            id=m["id"], event_time=dt(m["event_time"]), ingestion_time=dt(m.get("ingestion_time")),
            metadata_=m.get("metadata") or {}, _score_breakdown=copy.deepcopy(m["score_breakdown"]), out=m,
        )
        out.append(row)
    return out


def strip_last_stage(row):
    """Undo the last ranking stage of a row: its record, reason and output."""
    bd = row._score_breakdown
    stage = bd["ranking_stages"].pop()
    bd["reasons"].pop()
    bd["final_score"] = stage["input_score"]
    if not bd["ranking_stages"]:
        del bd["ranking_stages"]
    return stage["input_score"]


def finish(body, ordered):
    """Write rows back in `ordered` order (memories and receipt alike), re-hash."""
    mems, results = [], []
    by_id = {r["id"]: r for r in body["receipt"]["results"]}
    for row, score, _content in ordered:
        m = row.out
        m["score_breakdown"] = row._score_breakdown
        m["score"] = row._score_breakdown["final_score"]
        r = by_id[row.id]
        r["score_breakdown"] = copy.deepcopy(row._score_breakdown)
        r["score"] = m["score"]
        mems.append(m)
        results.append(r)
    body["memories"], body["receipt"]["results"] = mems, results
    return rehash(body)


def resort(body, rows_):
    ordered = sorted(rows_, key=lambda r: stable_score_key(r.id, r.event_time, r.ingestion_time, r._score_breakdown))
    return finish(body, [(r, r._score_breakdown["final_score"], None) for r in ordered])


MMR_REASON = "maximal marginal relevance diversity reranking applied"


def restage(body, order, stage, reason, details, scores=None):
    """Apply the reference's ranking stage to rows in `order` (input score: `scores[id]`, else the
    row's final score), then write them back (finish)."""
    rows_ = [(r, scores[r.id] if scores else r._score_breakdown["final_score"], None) for r in order]
    return finish(body, apply_ordered_ranking_stage(rows_, stage=stage, details=details, reason=reason))


def mmr_detail(lam, score, similarity):
    """An mmr-rerank stage record's details: objective lambda * score - (1 - lambda) * similarity."""
    return {"lambda": round(lam, 6), "selection_objective": round(lam * score - (1 - lam) * similarity, 6),
            "input_relevance": round(score, 6), "max_selected_similarity": similarity}


def set_reference_time(body, ref):
    """`reference_time` moved in the receipt and in every score breakdown."""
    body["receipt"]["reference_time"] = ref
    for m in body["memories"]:
        m["score_breakdown"]["reference_time"] = ref
    for r in body["receipt"]["results"]:
        r["score_breakdown"]["reference_time"] = ref


def rehash(body):
    encoded = json.dumps(body["receipt"], sort_keys=True, separators=(",", ":"), default=str)
    sha = hashlib.sha256(encoded.encode()).hexdigest()
    body["receipt_sha256"] = sha
    if isinstance(body.get("receipt_view"), dict):
        body["receipt_view"]["receipt_sha256"] = sha
    return body


LIES = {}


def lie(name, source, code, what):
    def wrap(fn):
        body = fn(load(source))
        request = {"agent_id": AGENT, **REQUESTS[source]}
        with open(os.path.join(out, f"{name}.json"), "w", encoding="utf-8") as f:
            f.write(json.dumps(body, ensure_ascii=False, separators=(",", ":")))
        with open(os.path.join(out, f"{name}.request.json"), "w", encoding="utf-8") as f:
            f.write(json.dumps(request, ensure_ascii=False, indent=1) + "\n")
        LIES[name] = {"source": f"recall-{source}", "code": code, "what": what}
        return fn
    return wrap


@lie("fusion-all-rank-one", "deep", "fusion_inconsistent",
     "every fused result claims normalized_rrf_score 1.0 (rank 1 in both facets), fused score recomputed, re-sorted")
def _(body):
    rs = rows(body)
    for r in rs:
        bd = r._score_breakdown
        f = bd["fusion"]
        f["normalized_rrf_score"] = 1.0
        score = round(0.72 * 1.0 + 0.18 * f["strongest_input_score"] + 0.10 * f["facet_support"] / f["facet_count"], 6)
        st = bd["ranking_stages"][-1]
        st["normalized_rrf_score"] = 1.0
        st["output_score"] = score
        bd["final_score"] = score
    return resort(body, rs)


@lie("mmr-first-pick-not-largest", "fast-mmr", "stage_replay_mismatch",
     "mmr-rerank re-run with every similarity 0.0 but the fourth input picked first")
def _(body):
    rs = rows(body)
    inputs = {r.id: strip_last_stage(r) for r in rs}
    lam = 0.3
    first = rs[3]
    rest = sorted([r for r in rs if r is not first], key=lambda r: -inputs[r.id])
    order = [first] + rest
    details = [mmr_detail(lam, inputs[r.id], 0.0) for r in order]
    return restage(body, order, "mmr-rerank", MMR_REASON, details, inputs)


@lie("mmr-selection-lambda-one", "fast-standard", "stage_replay_mismatch",
     "an invented mmr-selection stage with lambda 1.0 and a wrong first record, the last result moved first")
def _(body):
    rs = rows(body)
    order = [rs[-1]] + rs[:-1]
    details = [{"lambda": 1.0, "selection_objective": 0.9, "normalized_relevance": 0.9,
                "max_selected_similarity": 0.0}] + [
        {"lambda": 1.0, "selection_objective": round(1.0 - 0.1 * (i + 1), 6),
         "normalized_relevance": round(1.0 - 0.1 * (i + 1), 6), "max_selected_similarity": 0.0}
        for i in range(len(order) - 1)]
    return restage(body, order, "mmr-selection", "configured maximal marginal relevance selection applied", details)


@lie("cross-encoder-contradicts-scores", "fast-standard", "stage_replay_mismatch",
     "a cross-encoder order contradicting its own raw_model_score, mixed models and evaluated flags")
def _(body):
    rs = rows(body)
    order = [rs[-1]] + rs[:-1]
    raws = [0.1, 0.9, 0.8, 0.7, 0.6]
    details = []
    for i, _r in enumerate(order):
        d = {"model": "BAAI/bge-reranker-v2-m3" if i % 2 == 0 else "other/model", "evaluated": i < 3}
        if i < 3:
            d["raw_model_score"] = raws[i]
        details.append(d)
    return restage(body, order, "cross-encoder", "cross-encoder relevance reranking applied", details)


@lie("graph-distance-without-entity", "fast-graph", "stage_replay_mismatch",
     "graph proximity distance 0, bonus 1.0, for a result with entity null and no ticker")
def _(body):
    rs = rows(body)
    inputs = {r.id: strip_last_stage(r) for r in rs}
    ranked = []
    for r in rs:
        old = next(s for s in r.out["score_breakdown"]["ranking_stages"] if s["stage"] == "graph-proximity")
        d = {k: old[k] for k in ("anchor", "entity_key", "entity", "distance")}
        if r is rs[-1]:
            d["entity"], d["distance"] = None, 0
        bonus = 1.0 / (1.0 + d["distance"]) if d["distance"] is not None else 0.0
        d["proximity_bonus"] = round(bonus, 6)
        d["combined_objective"] = round(float(inputs[r.id]) + bonus, 6)
        ranked.append((float(inputs[r.id]) + bonus, r, d))
    ranked.sort(key=lambda x: (-x[0], stable_score_key(x[1].id, x[1].event_time, x[1].ingestion_time,
                                                        x[1]._score_breakdown)))
    return restage(body, [r for _, r, _ in ranked], "graph-proximity", "graph proximity reranking applied",
                   [d for _, _, d in ranked], inputs)


@lie("as-of-moved", "fast-asof", "request_mismatch",
     "receipt.as_of moved together with reference_time (one second later: every bound value unchanged)")
def _(body):
    body["receipt"]["as_of"] = body["as_of"] = "2026-06-15T00:00:01+00:00"
    set_reference_time(body, "2026-06-15T00:00:01+00:00")
    return rehash(body)


@lie("rerank-not-requested", "fast-standard", "request_mismatch",
     "receipt.filters gains _rerank: mmr, which the client never sent, to justify a reorder")
def _(body):
    body["receipt"]["filters"] = {"_rerank": "mmr"}
    rs = rows(body)
    order = [rs[0], rs[2], rs[1], rs[3], rs[4]]
    inputs = {r.id: r._score_breakdown["final_score"] for r in rs}
    details = [mmr_detail(0.5, inputs[r.id], 0.0 if i == 0 else 0.2) for i, r in enumerate(order)]
    return restage(body, order, "mmr-rerank", MMR_REASON, details, inputs)


@lie("reference-before-ingestion", "fast-standard", "reference_time_inconsistent",
     "no as_of, and reference_time two seconds before every result's ingestion_time")
def _(body):
    earliest = min(m["ingestion_time"] for m in body["memories"])
    set_reference_time(body, (datetime.fromisoformat(earliest).replace(microsecond=0)).isoformat() + "+00:00")
    return rehash(body)


@lie("filter-not-held", "fast-filters", "filter_violation",
     "a returned memory's metadata.customer is ACME against the filter acme")
def _(body):
    body["memories"][2]["metadata"]["customer"] = "ACME"
    return rehash(body)


@lie("derived-clause-below-parent", "fast-standard", "derived_clause_returned",
     "the last result is a derived clause of the first (metadata._parent), returned below it")
def _(body):
    body["memories"][4]["metadata"]["_parent"] = body["memories"][0]["id"]
    return rehash(body)


with open(os.path.join(out, "lies.json"), "w", encoding="utf-8") as f:
    f.write(json.dumps(LIES, ensure_ascii=False, indent=1) + "\n")
print(f"{len(LIES)} lies written to {out}")
