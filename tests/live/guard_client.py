"""The real Python client of lians-sdk 0.5.0 (``lians.LiansClient``) pointed at ``lians-score guard``.

    python guard_client.py honest BASE_URL API_KEY AGENT   # writes, recall, context, review queue, erase
    python guard_client.py tamper BASE_URL API_KEY AGENT   # recall and context must raise

Prints one JSON object (what happened, step by step) on stdout; tests/live/guard.test.mjs asserts on it.
Nothing here knows about the guard: the client is used exactly as its README says, with the guard's URL
as ``base_url``. The review queue has no method on the client: it goes through the client's own request
helper (``_async._req``: same headers, same transport, same error handling).
"""
import json
import sys
from datetime import datetime, timezone

import httpx
from lians import LiansClient


def main() -> int:
    mode, base_url, api_key, agent = sys.argv[1:5]
    out: dict = {"mode": mode}
    now = datetime.now(timezone.utc)
    with LiansClient(base_url=base_url, api_key=api_key) as client:
        if mode == "honest":
            written = client.add(agent_id=agent, content="The Osprey launch review is on Wednesday at nine.",
                                 event_time=now, source="user_provided")
            client.add(agent_id=agent, content="Osprey needs the new payments service before launch.",
                       event_time=now, source="user_provided")
            out["write"] = {"id": written.get("id"), "content": written.get("content")}
            recall = client.recall(agent_id=agent, query="Osprey launch review", k=3)
            out["recall"] = {"count": len(recall["memories"]), "contents": [m["content"] for m in recall["memories"]],
                             "receipt_sha256": recall.get("receipt_sha256")}
            context = client.context(agent_id=agent, query="What do we know about Osprey?")
            out["context"] = {"text": context.get("context_text") or context.get("context"),
                              "memories": len(context.get("memories", [])), "receipt_sha256": context.get("receipt_sha256")}
            # A write the server holds for review (PII), then the review queue and its resolution.
            held = client.add(agent_id=agent, content="Email dana.reyes@example.com about the Osprey contract renewal.",
                              event_time=now, source="user_provided")
            out["held"] = {"status": held.get("status"), "pending_id": held.get("pending_id")}
            queue = client._loop.run_until_complete(client._async._req("GET", "/v1/admissions", params={"status": "pending"}))
            out["queue"] = {"total": queue.get("total"), "ids": [p.get("id") for p in queue.get("pending", [])]}
            if held.get("pending_id"):
                resolved = client._loop.run_until_complete(client._async._req(
                    "POST", f"/v1/admissions/{held['pending_id']}/resolve", json={"action": "reject", "note": "via the guard"}))
                out["resolved"] = {"status": resolved.get("status")}
            # A subject's memory, then its erasure (crypto-shred).
            client.add(agent_id=agent, content="Osprey's contact prefers email for contract questions.",
                       event_time=now, source="user_provided", subject_id="subject-osprey")
            erased = client.erase(subject_id="subject-osprey", request_ref="guard-test-1")
            out["erase"] = {k: erased.get(k) for k in ("subject_id", "request_ref", "memories_erased", "erased_count", "status") if k in erased}
            out["erase_keys"] = sorted(erased.keys())
        else:
            for name, call in (
                ("recall", lambda: client.recall(agent_id=agent, query="Osprey launch review", k=3)),
                ("context", lambda: client.context(agent_id=agent, query="What do we know about Osprey?")),
            ):
                try:
                    result = call()
                    out[name] = {"raised": False, "result": result}
                except httpx.HTTPStatusError as error:
                    body = error.response.json()
                    out[name] = {"raised": True, "type": type(error).__name__, "status": error.response.status_code,
                                 "error": body.get("error"), "failures": body.get("failures")}
            # Writes still work while answers are being tampered with.
            written = client.add(agent_id=agent, content="The Osprey retrospective is next Friday.", event_time=now,
                                 source="user_provided")
            out["write"] = {"id": written.get("id")}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
