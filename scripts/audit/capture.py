"""Capture real POST /v1/recall bodies of every recall mode for the audit tests.

Runs the Lians engine (PyPI lians-sdk==0.5.0) in-process on SQLite, offline,
as /work/shared/lians-server.md describes, on 127.0.0.1 and a free port;
writes a fixed set of memories, runs one recall per mode and writes each raw
response body (byte for byte) with its query to OUT_DIR/<name>.json and
OUT_DIR/<name>.query.txt.

usage: VENV/bin/python scripts/audit/capture.py OUT_DIR

The venv needs: lians-sdk==0.5.0 aiosqlite cryptography fastapi numpy pgvector
pydantic pydantic-settings "sqlalchemy[asyncio]" greenlet uvicorn httpx
(CPython 3.12). Development aid: the tests replay the committed captures.
"""
import asyncio
import base64
import json
import os
import socket
import sys
import tempfile
import threading
import time

out_dir = os.path.abspath(sys.argv[1])
os.makedirs(out_dir, exist_ok=True)
work = tempfile.mkdtemp(prefix="lians-audit-")
os.environ.update({
    "DATABASE_URL": f"sqlite+aiosqlite://////{work.lstrip('/')}/lians.db",
    "EMBEDDING_PROVIDER": "local",
    "AIRGAP_MODE": "true",
    "ADMISSION_MODE": "enforce",
    "RECALL_CACHE_ENABLED": "false",
    "RETENTION_PRUNE_INTERVAL_HOURS": "0",
    "DURABLE_JOB_WORKER_MODE": "disabled",
    "RLS_BARRIERS_ENABLED": "false",
    "ADMIN_SECRET": "audit-capture-admin-secret-0123456789abcdef",
    "API_SECRET_SEED": "audit-capture-seed",
    "MASTER_ENCRYPTION_KEY": base64.b64encode(os.urandom(32)).decode(),
    "CORS_ORIGINS": "*",
    "RATE_LIMIT_PER_MINUTE": "100000",
})

import httpx  # noqa: E402
import uvicorn  # noqa: E402
from sqlalchemy import event  # noqa: E402

from lians_engine.lians import db, models  # noqa: E402
from lians_engine.lians.main import app  # noqa: E402


@event.listens_for(db.engine.sync_engine, "connect")
def _set_config(dbapi_conn, _record):
    dbapi_conn.create_function("set_config", 3, lambda *a: None)


async def create_schema():
    for table in models.Base.metadata.tables.values():
        for index in list(table.indexes):
            if index.dialect_kwargs.get("postgresql_using"):
                table.indexes.discard(index)
    async with db.engine.begin() as conn:
        await conn.run_sync(models.Base.metadata.create_all)
    await db.engine.dispose()


asyncio.run(create_schema())
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
port = sock.getsockname()[1]
sock.close()
server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
threading.Thread(target=server.run, daemon=True).start()
base = f"http://127.0.0.1:{port}"
for _ in range(200):
    try:
        if httpx.get(f"{base}/livez").status_code == 200:
            break
    except httpx.HTTPError:
        pass
    time.sleep(0.1)

c = httpx.Client(base_url=base, timeout=60)
key = c.post("/v1/admin/api-keys", headers={"X-Admin-Secret": os.environ["ADMIN_SECRET"]},
             json={"namespace": "audit-ns", "scopes": ["read", "write", "admin"]}).json()["key"]
c.headers["X-API-Key"] = key
AGENT = "audit-agent"

wide = {f"k{i:02d}": (i if i % 3 else f"v{i}") for i in range(74)}
nested = {"a": {"b": {"c": {"d": {"e": "deep"}}}}, "list": [1, 2.5, {"x": "y"}], "ticker": "ACME"}
long_text = ("Acme revenue and renewal notes. " * 1100)[:32672]
writes = [
    dict(content="Acme Corp renewed its enterprise contract on 2026-03-14 at $48,500 per year.",
         event_time="2026-03-14T16:00:00Z", source="crm", importance=0.8,
         metadata={"customer": "acme", "ticker": "ACME"}),
    dict(content="Acme revenue grew 12% in Q2 2026 according to the quarterly finance report.",
         event_time="2026-07-01T09:00:00Z", source="user_provided",
         metadata={"customer": "acme", "metric": "revenue"}),
    dict(content="Globex is a supplier of Acme and ships widgets every week.",
         event_time="2026-06-01T10:00:00Z", source="chat", metadata={"ticker": "GBX", "customer": "globex"}),
    dict(content="Der Umsatz von Acme in Zürich stieg im Jahr 2026 um 5 Prozent.",
         event_time="2026-05-05T08:00:00Z", source="imported", metadata={"site": "Zürich", "customer": "acme"}),
    dict(content="アクメ 売上 は 2026年 に 増加 しました。 収益 revenue は 好調 です。 Acme Japan revenue grew.",
         event_time="2026-05-06T08:00:00Z", source="chat", metadata={"customer": "acme"}),
    dict(content=long_text, event_time="2026-02-01T00:00:00Z", source="system_verified",
         metadata={"customer": "acme", "trust_level": "high"}),
    dict(content="Acme account review: the revenue forecast relies on the renewal and expansion.",
         event_time="2026-08-01T12:00:00Z", source="crm", metadata=wide),
    dict(content="Acme relationship owner is Dana; why churn risk is low: strong support and adoption.",
         event_time="2026-08-02T12:00:00Z", metadata=nested),
    dict(content="When did Acme first sign? Acme first signed in 2024 and renewed yearly since.",
         event_time="2024-01-15T12:00:00Z", source="crm", importance=0.2, metadata={"customer": "acme"}),
    dict(content="Acme revenue note written an hour later, adjacent context for neighbours.",
         event_time="2026-07-01T09:30:00Z", source="chat", metadata={"customer": "acme"}),
    dict(content="Acme policy: enterprise customers may request a refund within 45 days of invoice.",
         event_time="2026-07-01T08:45:00Z", source="crm", metadata={"customer": "acme", "kind": "policy"}),
]
for w in writes:
    r = c.post("/v1/memories", json={"agent_id": AGENT, **w})
    assert r.status_code in (200, 202, 422), (r.status_code, r.text[:300])
    if r.status_code != 200:
        print("write", r.status_code, w["content"][:40], file=sys.stderr)
for src, rel, dst in [("ACME", "supplier_of", "GBX"), ("GBX", "partner_of", "INIT")]:
    r = c.post("/v1/graph/relate", json={"agent_id": AGENT, "src_entity": src, "rel_type": rel,
                                         "dst_entity": dst, "event_time": "2026-01-01T00:00:00Z"})
    assert r.status_code == 200, r.text[:300]

recalls = {
    "fast-standard": dict(query="Acme revenue", k=5),
    "fast-filters": dict(query="Acme revenue", k=5, filters={"customer": "acme"}),
    "fast-keyed": dict(query="Acme contract", k=3, filters={"ticker": "ACME"}),
    "fast-context": dict(query="Acme revenue", k=4, include_context=True),
    "fast-mmr": dict(query="Acme revenue renewal", k=5, filters={"_rerank": "mmr", "_mmr_lambda": 0.3}),
    "fast-graph": dict(query="Acme supplier widgets", k=5, filters={"_near_entity": "ACME"}),
    "fast-adaptive": dict(query="When did Acme first sign and why is churn risk low?", k=5, strategy="adaptive"),
    "fast-asof": dict(query="Acme revenue", k=5, as_of="2026-06-15T00:00:00Z"),
    "deep": dict(query="Summarize Acme account facts", k=6, mode="deep"),
    "deep-multilingual": dict(query="Umsatz Zürich 売上", k=5, mode="deep"),
    "reconstruct": dict(query="Acme renewal history", k=6, mode="reconstruct"),
    "reconstruct-asof": dict(query="Acme contract", k=4, mode="reconstruct", as_of="2026-07-15T00:00:00+02:00"),
    "deep-mmr-graph": dict(query="Acme relationships", k=6, mode="deep",
                           filters={"_rerank": "mmr", "_near_entity": "GBX"}),
}
for name, req in recalls.items():
    r = c.post("/v1/recall", json={"agent_id": AGENT, **req})
    assert r.status_code == 200, (name, r.status_code, r.text[:300])
    with open(os.path.join(out_dir, f"recall-{name}.json"), "wb") as f:
        f.write(r.content)
    with open(os.path.join(out_dir, f"recall-{name}.query.txt"), "w", encoding="utf-8") as f:
        f.write(req["query"])
    os.makedirs(os.path.join(out_dir, "requests"), exist_ok=True)
    with open(os.path.join(out_dir, "requests", f"recall-{name}.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps({"agent_id": AGENT, **req}, ensure_ascii=False, indent=1) + "\n")
    print(name, len(json.loads(r.content)["memories"]), "results")
server.should_exit = True
