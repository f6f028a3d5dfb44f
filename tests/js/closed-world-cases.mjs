// Issue #28's six classes of bodies that used to verify `valid` while a
// JavaScript client reads something else, built from the real samples
// (tests/data/samples) with their number lexemes kept: one or more cases per
// class, each with the failed check (code and pointer) every front end must
// report, or (pack signature edits a pin does not cover) the unbound_fields
// the report must list. Used by tests/js/closed-world.test.mjs (JS API, npm
// CLI, createVerifyingFetch), the dashboard's Verify tab test
// (tests/e2e/closed-world.test.mjs) and the guard Worker test
// (tests/examples/run.mjs).
import { readFileSync } from "node:fs";
import path from "node:path";
import { Raw, Members, parseLexemes, ser } from "./lexemes.mjs";
import { SAMPLES } from "./helpers.mjs";

const sample = (name) => readFileSync(path.join(SAMPLES, name), "utf8");
export const RECALL = sample("recall-08-fast-filters-acme-tinyfloat.json");
export const RECALL_QUERY = "Acme revenue";
export const CONTEXT = sample("context-01-deep-acme-summary.json");
export const CONTEXT_QUERY = "Summarize Acme account facts";
export const PACK = sample("pack-01-v2-signed.json");
export const PACK_KEY = sample("evidence_public_key.b64").trim();
export const PACK_KEY_ID = "lians-real-test-key";

/** The six classes. */
export const CLASSES = ["missing-key", "time-spelling", "view-order", "pack-signature", "non-finite", "negative-zero"];

/** A body as an editable object: its receipt as canonical text (same hash), the rest with number lexemes. */
function template(lians, kind, text) {
  const verify = kind === "recall" ? lians.verifyRecallReceipt : lians.verifyContextReceipt;
  const canonical = verify(text, { include_canonical: true }).canonical;
  return { ...parseLexemes(text), receipt: new Raw(canonical) };
}

/** Drop the member `key` of the object at `path`. */
function drop(body, path, key) {
  let o = body;
  for (const k of path) o = o[k];
  delete o[key];
  return body;
}

/** The pack text with its signature block edited by `edit` and pack_hash recomputed (what an attacker can do). */
export function rewritePackSignature(lians, text, edit) {
  const pack = parseLexemes(text);
  const signature = new Members(Object.entries(pack.signature));
  edit(signature);
  const { pack_hash: _, ...rest } = pack;
  const withSig = { ...rest, signature };
  const hash = lians.sha256Hex(lians.canonicalJson(ser(withSig)));
  return ser({ ...withSig, pack_hash: hash });
}

const set = (members, key, value) => {
  const i = members.entries.findIndex(([k]) => k === key);
  if (i >= 0) members.entries[i] = [key, value];
  else members.entries.push([key, value]);
};

/**
 * The cases: { cls, name, kind: "recall"|"context"|"pack", text, query?, options?,
 * code, pointer } (a failed check), or { ..., valid: true, unbound: [pointers] }.
 */
export function closedWorldCases(lians) {
  const out = [];
  const recall = (cls, name, edit, code, pointer) => {
    const b = template(lians, "recall", RECALL);
    out.push({ cls, name, kind: "recall", text: ser(edit(b)), query: RECALL_QUERY, code, pointer });
  };
  const context = (cls, name, edit, code, pointer) => {
    const b = template(lians, "context", CONTEXT);
    out.push({ cls, name, kind: "context", text: ser(edit(b)), query: CONTEXT_QUERY, code, pointer });
  };
  // 1. A key the server always sends, missing (a client reads undefined).
  recall("missing-key", "recall without memories[0].content", (b) => drop(b, ["memories", 0], "content"), "body_mismatch", "/memories/0/content");
  recall("missing-key", "recall without memories", (b) => drop(b, [], "memories"), "body_mismatch", "/memories");
  recall("missing-key", "recall without memories[1].event_time", (b) => drop(b, ["memories", 1], "event_time"), "body_mismatch", "/memories/1/event_time");
  context("missing-key", "context without context_text", (b) => drop(b, [], "context_text"), "body_mismatch", "/context_text");
  context("missing-key", "context without open_conflicts", (b) => drop(b, [], "open_conflicts"), "body_mismatch", "/open_conflicts");
  context("missing-key", "context without memories[2].score", (b) => drop(b, ["memories", 2], "score"), "body_mismatch", "/memories/2/score");
  // 2. A time spelled otherwise than the server's encoder (fromisoformat reads it; new Date() does not).
  recall("time-spelling", "event_time with a ( separator", (b) => {
    b.memories[0].event_time = `${b.memories[0].event_time.replace("T", "(")}Z`;
    return b;
  }, "body_mismatch", "/memories/0/event_time");
  recall("time-spelling", "view event_time with a basic-format offset", (b) => {
    b.receipt_view.memories_used[0].event_time = `${b.receipt_view.memories_used[0].event_time}+0000`;
    return b;
  }, "body_mismatch", "/receipt_view/memories_used/0/event_time");
  context("time-spelling", "event_time a day ahead at +15:00 spelled with a space", (b) => {
    const t = b.memories[1].event_time; // naive UTC in the receipt
    const shifted = new Date(Date.parse(`${t}Z`) + 15 * 3600e3).toISOString().slice(0, 19).replace("T", " ");
    b.memories[1].event_time = `${shifted}+15:00`;
    return b;
  }, "body_mismatch", "/memories/1/event_time");
  // 3. receipt_view.memories_used repeated, dropped or reordered.
  recall("view-order", "memories_used [B, B]", (b) => {
    const used = b.receipt_view.memories_used;
    b.receipt_view.memories_used = [used[1], used[1]];
    return b;
  }, "body_mismatch", "/receipt_view/memories_used/0/id");
  recall("view-order", "memories_used []", (b) => {
    b.receipt_view.memories_used = [];
    return b;
  }, "body_mismatch", "/receipt_view/memories_used");
  context("view-order", "memories_used reversed", (b) => {
    b.receipt_view.memories_used.reverse();
    return b;
  }, "body_mismatch", "/receipt_view/memories_used/0/id");
  context("view-order", "memories_used [A, B, C, D, E, F, F]", (b) => {
    const used = b.receipt_view.memories_used;
    used.push(used.at(-1));
    return b;
  }, "body_mismatch", "/receipt_view/memories_used");
  // 4. A rewritten pack signature block (pack_hash recomputed).
  const rewritten = rewritePackSignature(lians, PACK, (sig) => {
    set(sig, "key_id", "acme-cfo");
    set(sig, "identity_note", "Identity verified by Lians: this pack was approved by the ACME CFO.");
    set(sig, "approved_by", "ACME CFO");
  });
  out.push({
    cls: "pack-signature", name: "rewritten signature block, key id pinned", kind: "pack", text: rewritten,
    options: { trusted_public_key: PACK_KEY, expected_key_id: PACK_KEY_ID }, code: "key_id_mismatch", pointer: "/signature/key_id",
  });
  out.push({
    cls: "pack-signature", name: "rewritten signature block, only the key pinned", kind: "pack", text: rewritten,
    options: { trusted_public_key: PACK_KEY }, valid: true,
    unbound: ["/signature/key_id", "/signature/identity_note", "/signature/approved_by"],
  });
  // 5. NaN / Infinity outside the receipt (JSON.parse throws).
  recall("non-finite", "latency_ms NaN", (b) => ({ ...b, latency_ms: new Raw("NaN") }), "non_json_number", "/latency_ms");
  recall("non-finite", "memories[0].metadata Infinity", (b) => {
    b.memories[0].metadata = { ...b.memories[0].metadata, weight: new Raw("Infinity") };
    return b;
  }, "non_json_number", "/memories/0/metadata/weight");
  context("non-finite", "token_estimate -Infinity", (b) => ({ ...b, token_estimate: new Raw("-Infinity") }), "non_json_number", "/token_estimate");
  out.push({
    cls: "non-finite", name: "pack signature member NaN", kind: "pack",
    text: rewritePackSignature(lians, PACK, (sig) => set(sig, "confidence", new Raw("NaN"))),
    options: { trusted_public_key: PACK_KEY }, code: "non_json_number", pointer: "/signature/confidence",
  });
  // 6. -0 for a bound 0 (-0.0 for 0.0).
  recall("negative-zero", "score_breakdown lambda -0.0", (b) => {
    b.memories[0].score_breakdown.ranking_stages[0].lambda = new Raw("-0.0");
    return b;
  }, "body_mismatch", "/memories/0/score_breakdown");
  recall("negative-zero", "score_breakdown lambda -0", (b) => {
    b.memories[0].score_breakdown.ranking_stages[0].lambda = new Raw("-0");
    return b;
  }, "body_mismatch", "/memories/0/score_breakdown");
  // (An Evidence Pack: the hashes and the signature read 0, a client -0; round 9.)
  out.push({
    cls: "negative-zero", name: "pack signature member -0", kind: "pack",
    text: rewritePackSignature(lians, PACK, (sig) => set(sig, "weight", new Raw("-0"))),
    options: { trusted_public_key: PACK_KEY }, code: "body_mismatch", pointer: "/signature/weight",
  });
  return out;
}

/** The report rejects the case as it says (or, for `valid: true` cases, lists its unbound fields). */
export function judge(c, report) {
  if (c.valid) {
    if (!report.valid) return `${c.name}: expected valid, got ${JSON.stringify(report.failures)}`;
    const missing = c.unbound.filter((p) => !report.unbound_fields.includes(p));
    return missing.length ? `${c.name}: unbound_fields ${JSON.stringify(report.unbound_fields)} lacks ${missing}` : null;
  }
  if (report.valid) return `${c.name}: verified valid`;
  const hit = report.checks.some((k) => k.status === "failed" && k.code === c.code && k.pointer === c.pointer);
  if (!hit) {
    const failed = report.checks.filter((k) => k.status === "failed").map((k) => `${k.code} ${k.pointer}`);
    return `${c.name}: no failed ${c.code} at ${c.pointer} (failed: ${failed.join(", ")})`;
  }
  return null;
}
