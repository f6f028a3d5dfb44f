"""Start a real Lians server (PyPI lians-sdk==0.5.0) for tests, offline on SQLite.

Run it with the venv of scripts/lians/venv.sh (CPython 3.12):

    .lians-venv/bin/python scripts/lians/server.py [--state-file PATH] [--cors ORIGINS] [--port N]

Each start is fresh: a new temporary SQLite database, a new random Ed25519
signing seed, new admin/API/encryption secrets, a free 127.0.0.1 port (the
socket is bound here and handed to uvicorn, so no other process can take it in
between). As soon as the socket is bound it prints one JSON line on stdout and
writes the same object to --state-file (if given):

    {"url", "pid", "admin_secret", "public_key_b64", "key_id", "db_path", "cors_origins"}

Readiness is GET {url}/livez (the app starts a little after the line). Stop it
with SIGTERM to its pid; the temporary directory is then removed. Nothing is
stored outside that directory and the state file; the secrets are test-only.

The app does three things production does with PostgreSQL that SQLite lacks;
they are worked around here, never in the package (../shared/lians-server.md):
  1. no Alembic migrations in the wheel: create the schema with
     Base.metadata.create_all, without the PostgreSQL-only (hnsw/GIN) indexes;
  2. db.py runs SELECT set_config(...) on every transaction: register a no-op
     3-argument SQLite function of that name on each connection;
  3. db.parse_db_url() mangles sqlite+aiosqlite:////abs: write six slashes.
"""
import argparse
import asyncio
import base64
import json
import os
import secrets
import shutil
import signal
import socket
import sys
import tempfile


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--state-file", help="also write the state JSON here (atomically)")
    ap.add_argument("--cors", default="*", help="CORS_ORIGINS (comma-separated origins, or *)")
    ap.add_argument("--port", type=int, default=0, help="127.0.0.1 port (0: a free one)")
    ap.add_argument("--key-id", default="test-local", help="EVIDENCE_SIGNING_KEY_ID")
    ap.add_argument("--admission-mode", default="enforce", help="ADMISSION_MODE")
    ap.add_argument("--log-level", default="warning", help="uvicorn log level")
    ap.add_argument("--data-dir", help="keep the database and secrets in this directory across starts "
                    "(a later start with the same directory serves the same data; nothing is removed)")
    args = ap.parse_args()

    if sys.version_info[:2] != (3, 12):
        print(f"lians server: needs CPython 3.12 (this is {sys.version.split()[0]})", file=sys.stderr)
        return 3

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives import serialization

    tmp = args.data_dir or tempfile.mkdtemp(prefix="lians-server-")
    try:
        db_path = os.path.abspath(os.path.join(tmp, "lians.db"))
        kept = os.path.join(tmp, "secrets.json")
        if args.data_dir and os.path.exists(kept):
            with open(kept) as f:
                s = json.load(f)
        else:
            s = {"seed": base64.b64encode(secrets.token_bytes(32)).decode(), "admin": secrets.token_urlsafe(36),
                 "api": secrets.token_urlsafe(24), "master": base64.b64encode(secrets.token_bytes(32)).decode()}
            if args.data_dir:
                os.makedirs(tmp, exist_ok=True)
                with open(kept, "w") as f:
                    json.dump(s, f)
        seed = base64.b64decode(s["seed"])
        public_raw = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        admin_secret = s["admin"]
        env = {
            "DATABASE_URL": "sqlite+aiosqlite://///" + db_path,  # six slashes: workaround 3
            "EMBEDDING_PROVIDER": "local",
            "AIRGAP_MODE": "true",
            "ADMISSION_MODE": args.admission_mode,
            "RECALL_CACHE_ENABLED": "false",
            "RETENTION_PRUNE_INTERVAL_HOURS": "0",
            "DURABLE_JOB_WORKER_MODE": "disabled",
            "RLS_BARRIERS_ENABLED": "false",
            "ADMIN_SECRET": admin_secret,
            "API_SECRET_SEED": s["api"],
            "MASTER_ENCRYPTION_KEY": s["master"],
            "CORS_ORIGINS": args.cors,
            "EVIDENCE_SIGNING_PRIVATE_KEY": base64.b64encode(seed).decode(),
            "EVIDENCE_SIGNING_KEY_ID": args.key_id,
            "RATE_LIMIT_PER_MINUTE": "1000000",
        }
        assert db_path.startswith("/")
        os.environ.update(env)

        # Importing db builds the engine from the environment above.
        from lians_engine.lians import db, models  # noqa: F401  (models registers the tables)
        from sqlalchemy import event

        @event.listens_for(db.engine.sync_engine, "connect")
        def _sqlite_set_config(dbapi_conn, _record):  # workaround 2
            dbapi_conn.create_function("set_config", 3, lambda _name, value, _local: value)

        async def create_schema():  # workaround 1
            for table in db.Base.metadata.tables.values():
                for index in list(table.indexes):
                    if index.dialect_kwargs.get("postgresql_using"):
                        table.indexes.discard(index)
            async with db.engine.begin() as conn:
                await conn.run_sync(db.Base.metadata.create_all)
            await db.engine.dispose()

        asyncio.run(create_schema())

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", args.port))
        port = sock.getsockname()[1]
        state = {
            "url": f"http://127.0.0.1:{port}",
            "pid": os.getpid(),
            "admin_secret": admin_secret,
            "public_key_b64": base64.b64encode(public_raw).decode(),
            "key_id": args.key_id,
            "db_path": db_path,
            "cors_origins": args.cors,
        }
        line = json.dumps(state)
        if args.state_file:
            part = args.state_file + ".part"
            with open(part, "w") as f:
                f.write(line + "\n")
            os.replace(part, args.state_file)
        print(line, flush=True)

        import uvicorn
        from lians_engine.lians.main import app

        config = uvicorn.Config(app, log_level=args.log_level, lifespan="on", access_log=False)
        server = uvicorn.Server(config)
        # uvicorn re-raises a captured SIGTERM with the handler that was there
        # before it: make that one an exit, so the finally below removes tmp.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        server.run(sockets=[sock])
        return 0
    finally:
        if not args.data_dir:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
