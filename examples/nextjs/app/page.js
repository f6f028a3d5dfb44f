"use client";
// Recall through /api/recall (verified at the edge), then verify the same raw
// body again here in the browser with the package's web entry.
import { useEffect, useState } from "react";
import { init, verifyRecallReceipt } from "lians-score/verify";

export default function Page() {
  const [result, setResult] = useState("pending");
  const [memories, setMemories] = useState([]);
  useEffect(() => {
    const query = new URLSearchParams(window.location.search).get("q") ?? "planning review";
    (async () => {
      const res = await fetch("/api/recall", { method: "POST", body: JSON.stringify({ query }) });
      const text = await res.text(); // raw text: the receipt hash needs each number's spelling
      if (!res.ok) return setResult(`rejected ${res.status} ${text}`);
      await init();
      const report = verifyRecallReceipt(text, { query });
      setMemories(JSON.parse(text).memories.map((m) => m.content));
      setResult(`edge ${res.headers.get("x-lians-verification")}, browser ${report.valid ? "valid" : "invalid"} ${report.receipt_sha256}`);
    })().catch((e) => setResult(`error ${e && e.message}`));
  }, []);
  return (
    <main>
      <h1>Verified recall</h1>
      <p id="result">{result}</p>
      <ul>
        {memories.map((m, i) => (
          <li key={i}>{m}</li>
        ))}
      </ul>
    </main>
  );
}
