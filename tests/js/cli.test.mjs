// The packaged CLI (npx lians-score): usage, exit codes, score/verify commands.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { existsSync } from "node:fs";
import { ROOT, SAMPLES, vectorLines } from "./helpers.mjs";

const CLI = path.join(ROOT, "js/cli.mjs");

function run(args, input) {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: "utf8", maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("--help, --version and usage errors", () => {
  let r = run(["--help"]);
  assert.equal(r.code, 0);
  for (const cmd of ["score", "verify", "verify-pack", "replay", "verify-replay"]) assert.match(r.stdout, new RegExp(`\\n  ${cmd} `));
  r = run(["--version"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^lians-score \d+\.\d+\.\d+\n$/);
  assert.equal(run([]).code, 2);
  assert.equal(run(["frobnicate"]).code, 2);
  assert.equal(run(["verify"]).code, 2);
  assert.equal(run(["score", "--nope"]).code, 2);
  r = run(["verify", "/nonexistent/file.json"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /ENOENT|no such file/);
});

test("score: one JSON document or JSON Lines; Python number forms", () => {
  const doc = '{"content":"Alice prefers window seats","reference_time":"2026-08-01T00:00:00+00:00"}';
  let r = run(["score", "-"], doc);
  assert.equal(r.code, 0, r.stderr);
  const one = r.stdout.trim().split("\n");
  assert.equal(one.length, 1);
  assert.match(one[0], /"safety_score":1\.0/); // Python float form, not JSON.stringify's 1
  assert.equal(JSON.parse(one[0]).scoring_policy_version, "lians-memory-scoring-v2");
  r = run(["score"], `${doc}\n\n${doc}\n{"content":5}\n`);
  assert.equal(r.code, 1);
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines.length, 3);
  assert.equal(lines[0], one[0]);
  assert.equal(typeof JSON.parse(lines[2]).error, "string");
  r = run(["score", "--fn", "detect_risk_tags"], '"mail me at a@example.com"');
  assert.equal(r.code, 0, r.stderr);
  assert.ok(JSON.parse(r.stdout).includes("pii:email"));
});

test("replay: one checker line per vector", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "lians-cli-"));
  try {
    const lines = vectorLines("rank_position_score").slice(0, 20);
    const file = path.join(dir, "v.jsonl");
    writeFileSync(file, lines.join("\n") + "\n\n");
    const r = run(["replay", file]);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout.split("\n");
    assert.equal(out.pop(), "");
    assert.equal(out.length, 20);
    out.forEach((line, i) => assert.equal(JSON.parse(line).id, JSON.parse(lines[i]).id));
    // A line that is not JSON is answered with an error actual (as natively), not a crash.
    writeFileSync(file, lines[0] + "\n{oops\n");
    const bad = run(["replay", file]);
    assert.equal(bad.code, 0, bad.stderr);
    const [first, second] = bad.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(first.id, JSON.parse(lines[0]).id);
    assert.equal(second.id, null);
    assert.equal(second.actual.error, "malformed_json");
    assert.equal(run(["verify-replay", file]).code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("verify and verify-pack: exit 0 when valid, 1 when not", () => {
  const recall = path.join(SAMPLES, "recall-08-fast-filters-acme-tinyfloat.json");
  let r = run(["verify", recall]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(JSON.parse(r.stdout).valid, true);
  r = run(["verify", recall, "--expected-sha256", "f".repeat(64)]);
  assert.equal(r.code, 1);
  assert.ok(JSON.parse(r.stdout).failures.includes("receipt_hash_mismatch"));
  const context = path.join(SAMPLES, "context-01-deep-acme-summary.json");
  r = run(["verify", context]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const pack = path.join(SAMPLES, "pack-01-v2-signed.json");
  r = run(["verify-pack", pack, "--trusted-public-key-file", path.join(SAMPLES, "evidence_public_key.b64"), "--expected-key-id", "lians-real-test-key"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  r = run(["verify-pack", pack, "--expected-key-id", "someone-else"]);
  assert.equal(r.code, 1);
  assert.ok(JSON.parse(r.stdout).failures.includes("key_id_mismatch"));
  const tampered = readFileSync(recall, "utf8").replaceAll('"retrieval_degraded":false', '"retrieval_degraded":true');
  r = run(["verify", "-"], tampered);
  assert.equal(r.code, 1);
});

// The same commands through the native binary (built by scripts/test-all.sh
// before the Node tests): same stdout bytes, same exit status.
const NATIVE = path.join(ROOT, "target/release/lians-score");
test("score, verify and verify-pack print exactly what the native CLI prints", { skip: !existsSync(NATIVE) && "native binary not built" }, () => {
  const recall = path.join(SAMPLES, "recall-08-fast-filters-acme-tinyfloat.json");
  const context = path.join(SAMPLES, "context-01-deep-acme-summary.json");
  const pack = path.join(SAMPLES, "pack-01-v2-signed.json");
  const key = readFileSync(path.join(SAMPLES, "evidence_public_key.b64"), "utf8").trim();
  const dir = mkdtempSync(path.join(tmpdir(), "lians-cli-"));
  try {
    const inputs = path.join(dir, "inputs.jsonl");
    const lines = vectorLines("score_memory").slice(0, 25).map((l) => l.slice(l.indexOf('"input":') + 8, l.lastIndexOf(',"expected":')));
    writeFileSync(inputs, lines.join("\n") + '\n{"content":5,"reference_time":"x"}\n');
    const array = path.join(dir, "inputs.json");
    writeFileSync(array, "[" + lines.slice(0, 5).join(",") + "]");
    const given = path.join(dir, "given.json");
    writeFileSync(given, JSON.stringify({ query: "nope", contents: { x: "y" } }));
    const cases = [
      ["score", inputs],
      ["score", array],
      ["verify", recall],
      ["verify", recall, "--expected-sha256", "F".repeat(64), "--include-canonical"],
      ["verify", recall, "--given", given, "--query", "acme revenue"],
      ["verify", context, "--context-text", "not the context"],
      ["verify", context, "--kind", "recall"],
      ["verify-pack", pack, "--trusted-public-key", key, "--expected-key-id", "lians-real-test-key"],
      ["verify-pack", pack, "--allow-unsigned", "--expected-key-id", "other"],
      // One grammar: `--name=value` everywhere, every flag in both CLIs, files read by options.
      ["verify", "--expected-sha256=" + "F".repeat(64), "--include-canonical", recall],
      ["verify", recall, "--content", "m1=some text", "--content=m2=a=b", "--kind=recall"],
      ["verify", context, "--context-text-file", given, "--recall-file", recall],
      ["verify-pack", pack, "--trusted-public-key-file", path.join(SAMPLES, "evidence_public_key.b64"), "--expected-key-id=lians-real-test-key"],
      ["verify-pack", pack, "--given", given],
      ["score", "--fn=score_memory", inputs],
      ["score", "--", array],
      ["verify-replay", inputs],
      ["replay", inputs, array],
      // Usage errors: same status and the same message.
      ["verify", recall, "--include-canonical=yes"],
      ["verify", recall, "--kind"],
      ["verify", recall, "--fn", "x"],
      ["verify-pack", pack, "--query", "q"],
      ["score", inputs, array],
      ["replay"],
      ["verify", "--help"],
      ["--help"],
      ["--version"],
      ["frobnicate"],
      [],
    ];
    for (const args of cases) {
      const wasm = run(args);
      const native = spawnSync(NATIVE, args, { encoding: "utf8", maxBuffer: 1 << 28 });
      assert.equal(wasm.stdout, native.stdout, `stdout of ${args.join(" ")}`);
      assert.equal(wasm.code, native.status, `status of ${args.join(" ")}`);
      assert.equal(wasm.stderr, native.stderr, `stderr of ${args.join(" ")}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
