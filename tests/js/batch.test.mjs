// scoreCandidates (the batch API) in wasm against one scoreMemory call per candidate,
// on every public score_memory vector input (JSON text, lexemes kept): full output
// deep-equal, compact columns equal to the breakdown values, JSONL text equal to the
// native CLI's lines, JS-object candidates as scoreMemory converts them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as lians from "lians-score";
import { ROOT, vectorLines } from "./helpers.mjs";

/** The raw text of the line's "input" member (lexemes kept, unlike JSON.parse). */
function rawInput(line) {
  const key = '"input":';
  let i = line.indexOf(key) + key.length;
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (--depth === 0) return line.slice(start, i + 1);
    }
  }
  throw new Error("no input member");
}

const inputs = vectorLines("score_memory").map(rawInput);
const single = (text) => {
  try {
    return lians.scoreMemory(text);
  } catch (e) {
    return { error: e.code, message: e.message, path: e.path };
  }
};

test("scoreCandidates equals scoreMemory per candidate on every vector input", () => {
  assert.ok(inputs.length > 2000);
  const jsonl = inputs.join("\n") + "\n";
  const want = inputs.map(single);
  const full = lians.scoreCandidates(null, jsonl, { output: "full" });
  assert.equal(full.length, inputs.length);
  for (let i = 0; i < inputs.length; i++) {
    if ("error" in want[i]) assert.equal(full[i].error, want[i].error, inputs[i]);
    else assert.deepStrictEqual(full[i], want[i], inputs[i]);
  }
  const c = lians.scoreCandidates(null, jsonl);
  assert.equal(c.count, inputs.length);
  assert.equal(c.errors.length, want.filter((w) => "error" in w).length);
  for (let i = 0; i < inputs.length; i++) {
    const w = want[i];
    if ("error" in w) {
      assert.ok(Number.isNaN(c.final_score[i]));
      continue;
    }
    assert.equal(c.final_score[i], w.final_score);
    assert.equal(c.eligible[i], w.eligible ? 1 : 0);
    assert.equal(c.safety_eligible[i], w.safety_eligible ? 1 : 0);
    assert.equal(c.temporal_eligible[i], w.temporal_eligible ? 1 : 0);
    for (const [name, col] of Object.entries(c.components)) assert.equal(col[i], w[name], `${name} ${inputs[i]}`);
  }
});

test("scoreCandidates JSONL output is byte-identical to the native CLI", { skip: !existsSync(path.join(ROOT, "target/release/lians-score")) && "no native build" }, () => {
  const jsonl = inputs.join("\n") + "\n";
  const file = path.join(mkdtempSync(path.join(tmpdir(), "lians-batch-")), "inputs.jsonl");
  writeFileSync(file, jsonl);
  let native;
  try {
    native = execFileSync(path.join(ROOT, "target/release/lians-score"), ["score", file], { encoding: "utf8", maxBuffer: 1 << 28 });
  } catch (e) {
    native = e.stdout; // exit status 1: some inputs are errors
  }
  assert.equal(lians.scoreCandidates(null, jsonl, { output: "jsonl" }), native);
});

test("shared inputs, JS-object candidates, errors", () => {
  const shared = { reference_time: "2026-11-30T00:00:00+00:00", query: "budget deadline", purpose: "recall" };
  const cands = [
    { content: "The budget deadline is 2026-09-30.", event_time: "2026-11-01T00:00:00+00:00", source: "chat" },
    { content: "東京 予算", query: "予算", metadata: { entity: "x" } },
    { content: 5 },
  ];
  const full = lians.scoreCandidates(shared, cands, { output: "full" });
  assert.deepStrictEqual(full[0], lians.scoreMemory({ ...shared, ...cands[0] }));
  assert.deepStrictEqual(full[1], lians.scoreMemory({ ...shared, ...cands[1] }));
  assert.equal(full[2].error, "wrong_type");
  assert.equal(full[2].path, "/content");
  const text = lians.scoreCandidates(JSON.stringify(shared), cands.map((c) => JSON.stringify(c)).join("\n"), { output: "full" });
  assert.deepStrictEqual(text, full);
  const compact = lians.scoreCandidates(shared, cands);
  assert.deepStrictEqual(compact.errors.map((e) => [e.index, e.error]), [[2, "wrong_type"]]);
  // purpose is any value in the reference (echoed); an uniterable risk_tags raises there.
  assert.throws(() => lians.scoreCandidates({ risk_tags: 7 }, "[]"), (e) => e.code === "wrong_type" && e.path === "/shared/risk_tags");
  assert.throws(() => lians.scoreCandidates(null, 42), (e) => e.code === "wrong_type");
  assert.throws(() => lians.scoreCandidates(null, "[]", { output: "xml" }), (e) => e.code === "invalid_value");
  const bad = lians.scoreCandidates(shared, '{"content":"a"}\nnot json\n');
  assert.equal(bad.count, 2);
  assert.deepStrictEqual(bad.errors.map((e) => [e.index, e.error]), [[1, "malformed_json"]]);
});
