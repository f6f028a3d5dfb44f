// Verify a pasted body with the package's browser entry (wasm-pack `web`
// target): `await init()` fetches the .wasm next to the glue once.
import { init, verifyRecallReceipt, verifyContextReceipt, RECALL_RECEIPT_SCHEMA, LiansScoreError } from "lians-score";

const $ = (id) => document.getElementById(id);

async function verify() {
  const wire = $("body").value; // the raw text: JSON.parse would lose 1e-07 vs 1e-7
  const query = $("query").value;
  const given = query ? { query } : {};
  let report;
  try {
    await init();
    // A context body carries a context receipt; everything else is read as a recall body.
    const isContext = /"schema"\s*:\s*"lians\.context-receipt\.v2"/.test(wire) && !wire.includes(`"${RECALL_RECEIPT_SCHEMA}"`);
    report = (isContext ? verifyContextReceipt : verifyRecallReceipt)(wire, given);
  } catch (error) {
    const what = error instanceof LiansScoreError ? `${error.code}: ${error.message}` : String(error);
    show(false, `cannot verify (${what})`, "");
    return;
  }
  const failed = report.checks.filter((c) => c.status === "failed");
  show(
    report.valid,
    report.valid ? `valid ${report.receipt_sha256}` : `invalid: ${report.failures.join(", ")}`,
    [
      ...failed.map((c) => `FAILED ${c.code} at ${c.pointer}: ${c.message}`),
      `${report.checks.filter((c) => c.status === "passed").length} checks passed`,
      `not bound by the receipt (do not rely on): ${report.unbound_fields.join(", ")}`,
    ].join("\n"),
  );
}

function show(valid, headline, details) {
  $("result").textContent = headline; // text only: nothing pasted is ever parsed as HTML
  $("result").className = valid ? "valid" : "invalid";
  $("details").textContent = details;
}

$("verify").addEventListener("click", verify);
