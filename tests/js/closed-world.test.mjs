// Issue #28, "a closed wire contract", in Node against the wasm build, with
// JSON.parse, res.json() and new Date() as the client:
//
//   * the six classes (closed-world-cases.mjs) are rejected with their code
//     and pointer by the JS API, the npm CLI, the native CLI (when built) and
//     createVerifyingFetch;
//   * the adversarial classes over every body it has (the samples, the
//     receipt corpus's valid bodies, the live bodies of test-output/live;
//     LIANS_AIRTIGHT_BODIES_DIR: only that directory's): removal of every key
//     the server sent, one at a time, at every pointer; time respellings
//     judged by Date.parse under TZ America/New_York, Asia/Tokyo and UTC;
//     receipt_view multiplicity and order; pack signature-block edits;
//     non-finite numbers anywhere; -0 and -0.0 for every zero.
//
// Oracles are the client's, independent of the contract tables: a removed
// key the real server sent is never `valid` (receipt_view, which lians-sdk
// 0.5.0 does not send, aside); a `valid` time is read by Date.parse as the
// bound instant in every time zone; a `valid` view lists the results'
// ids in order; a `valid` pack's edited signature member is pinned or in
// unbound_fields; a `valid` body is readable by JSON.parse; a `valid` -0 sits
// under an unbound field.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, existsSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as lians from "lians-score";
import { ROOT, SAMPLES, RECEIPTS_FILE, mulberry32, verificationBodies } from "./helpers.mjs";
import { Raw, Members, Num, ser, clone, bodyTemplate } from "./lexemes.mjs";
import {
  CLASSES, closedWorldCases, judge, rewritePackSignature, PACK, PACK_KEY, PACK_KEY_ID, RECALL, CONTEXT,
} from "./closed-world-cases.mjs";

const SEED = Number(process.env.LIANS_AIRTIGHT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const PER_BODY = Number(process.env.LIANS_AIRTIGHT_PER_BODY ?? 60);
console.log(`closed-world: LIANS_AIRTIGHT_SEED=${SEED}`);

const CASES = closedWorldCases(lians);

const verify = (kind, text, options = null) =>
  kind === "pack" ? lians.verifyEvidencePack(text, options) : kind === "recall" ? lians.verifyRecallReceipt(text, options) : lians.verifyContextReceipt(text, options);
const optionsOf = (c) => (c.kind === "pack" ? c.options : { query: c.query });

// ------------------------------------------------------------ the front ends

test("the six classes: every case is rejected with its code and pointer by the JS API", () => {
  assert.deepEqual([...new Set(CASES.map((c) => c.cls))].sort(), [...CLASSES].sort());
  const problems = CASES.map((c) => judge(c, verify(c.kind, c.text, optionsOf(c)))).filter(Boolean);
  assert.deepEqual(problems, []);
  // The bytes of each case, as a client: NaN cases are the only ones JSON.parse rejects.
  for (const c of CASES) {
    let parsed = true;
    try {
      JSON.parse(c.text);
    } catch {
      parsed = false;
    }
    assert.equal(parsed, c.cls !== "non-finite", c.name);
  }
  // The unedited samples stay valid (the cases' templates verify).
  assert.equal(lians.verifyRecallReceipt(RECALL).valid, true);
  assert.equal(lians.verifyContextReceipt(CONTEXT).valid, true);
  assert.equal(lians.verifyEvidencePack(PACK, { trusted_public_key: PACK_KEY, expected_key_id: PACK_KEY_ID }).valid, true);
});

// The native binary (scripts/test-all.sh builds the release one before the Node tests): the newest built.
const NATIVE = [path.join(ROOT, "target/release/lians-score"), path.join(ROOT, "target/debug/lians-score")]
  .filter(existsSync)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];

for (const [name, argv0] of [["npm CLI", [path.join(ROOT, "js/cli.mjs")]], ["native CLI", NATIVE && []]]) {
  test(`the six classes through the ${name}: exit 1, the code and pointer in the report`, { skip: !argv0 && "native binary not built" }, () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lians-closed-"));
    try {
      const problems = [];
      CASES.forEach((c, i) => {
        const file = path.join(dir, `case-${i}.json`);
        writeFileSync(file, c.text);
        const args = c.kind === "pack"
          ? ["verify-pack", file, "--trusted-public-key", c.options.trusted_public_key, ...(c.options.expected_key_id ? ["--expected-key-id", c.options.expected_key_id] : [])]
          : ["verify", file, "--query", c.query];
        const cmd = argv0.length ? process.execPath : NATIVE;
        const r = spawnSync(cmd, [...argv0, ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
        if (r.status !== (c.valid ? 0 : 1)) problems.push(`${c.name}: exit ${r.status} ${r.stderr}`);
        const p = judge(c, JSON.parse(r.stdout));
        if (p) problems.push(p);
      });
      assert.deepEqual(problems, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("the six classes through createVerifyingFetch: LiansVerificationError with the code, or the unbound fields on the report", async () => {
  const problems = [];
  for (const c of CASES) {
    const route = c.kind === "pack" ? "/api/v1/decisions/d1/evidence-pack" : `/api/v1/${c.kind}`;
    const base = async () => new Response(c.text, { status: 200, headers: { "content-type": "application/json" } });
    const scope = { baseUrl: "https://lians.example" };
    const options = c.kind === "pack" ? { ...scope, trustedPublicKey: c.options.trusted_public_key, expectedKeyId: c.options.expected_key_id } : scope;
    const vfetch = lians.createVerifyingFetch(base, options);
    const init = c.kind === "pack" ? undefined : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ agent_id: "a", query: c.query }) };
    try {
      const res = await vfetch(`https://lians.example${route}`, init);
      if (!c.valid) problems.push(`${c.name}: resolved (${res.headers.get("x-lians-verification")})`);
      else {
        const p = judge(c, res.liansVerification);
        if (p) problems.push(p);
      }
    } catch (error) {
      if (!(error instanceof lians.LiansVerificationError)) problems.push(`${c.name}: threw ${error}`);
      else {
        const p = judge(c, error.report);
        if (p) problems.push(p);
      }
    }
  }
  assert.deepEqual(problems, []);
});

// ------------------------------------------------------------ bodies

/** Each body with its editable template (receipt as canonical text), when it verifies valid as it is and re-serialised. */
function templates() {
  const out = [];
  for (const b of verificationBodies()) {
    if (b.kind === "pack") continue;
    const given = b.given ?? null;
    const template = bodyTemplate(verify, b.kind, b.text, given);
    if (!template) continue;
    out.push({ ...b, given, template, orig: JSON.parse(b.text) });
  }
  return out;
}
const TEMPLATES = templates();

/** Up to PER_BODY of `items` (all of them for the samples), chosen by the seed. */
function pick(items, all, rand) {
  if (all || items.length <= PER_BODY) return items;
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, PER_BODY);
}

const get = (v, p) => p.reduce((o, k) => (o == null ? undefined : o[k]), v);
const failedAt = (r, code, pointer) => r.checks.some((c) => c.status === "failed" && c.code === code && c.pointer === pointer);
const ptr = (p) => p.map((k) => `/${String(k).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");

test("bodies: the samples, the corpus and the live captures are used", () => {
  if (process.env.LIANS_AIRTIGHT_BODIES_DIR) assert.ok(TEMPLATES.length >= 1, "live bodies are used");
  else assert.ok(TEMPLATES.length >= 50, `${TEMPLATES.length} bodies`);
});

// ------------------------------------------------------------ removal of every sent key

/** [path of an object, its keys] for every object the body binding reads. */
function objectsOf(body, kind) {
  const out = [[[], Object.keys(body).filter((k) => k !== "receipt")]];
  const each = (p) => (get(body, p) ?? []).forEach((o, i) => o && typeof o === "object" && out.push([[...p, i], Object.keys(o)]));
  each(["memories"]);
  if (body.receipt_view && typeof body.receipt_view === "object") {
    out.push([["receipt_view"], Object.keys(body.receipt_view)]);
    each(["receipt_view", "memories_used"]);
  }
  if (kind === "context") {
    if (body.provenance && typeof body.provenance === "object") out.push([["provenance"], Object.keys(body.provenance)]);
    each(["open_conflicts"]);
  }
  return out;
}

/** Members a real server may leave out: receipt_view (lians-sdk 0.5.0's server sends none), and
 * provenance's unbound members (the corpus's server sends only the two hashes there). */
const MAY_BE_ABSENT = new Set(["/receipt_view", ...["as_of", "total_candidates", "query_variants", "provenance_coverage", "mode"].map((k) => `/provenance/${k}`)]);

test("removal of every key the server sent, one at a time, at every pointer: never valid", () => {
  const rand = mulberry32(SEED);
  const problems = [];
  let tried = 0;
  for (const b of TEMPLATES) {
    const removals = [];
    for (const [p, keys] of objectsOf(b.orig, b.kind)) for (const k of keys) removals.push([...p, k]);
    for (const p of pick(removals, b.all, rand)) {
      const mutant = clone(b.template);
      delete get(mutant, p.slice(0, -1))[p.at(-1)];
      const r = verify(b.kind, ser(mutant), b.given);
      tried += 1;
      const at = ptr(p);
      if (MAY_BE_ABSENT.has(at)) {
        if (!r.valid) problems.push(`${b.name}: without ${at}: invalid (${r.failures})`);
      } else if (r.valid) {
        problems.push(`${b.name}: without ${at}: valid (a client reads undefined)`);
      } else if (!failedAt(r, "body_mismatch", at)) {
        problems.push(`${b.name}: without ${at}: no body_mismatch at ${at} (${r.failures})`);
      }
    }
  }
  console.log(`closed-world: ${tried} removals`);
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems`);
});

// ------------------------------------------------------------ time respellings

/** Spellings of the instant `ms` that Python's fromisoformat reads (and more): [text, instant or null]. */
function timeSpellings(ms) {
  const out = [];
  for (const off of [0, 60, -300, 330, 900, -720]) {
    const d = new Date(ms + off * 60e3).toISOString();
    const [date, time] = [d.slice(0, 10), d.slice(11, 19)];
    const frac = d.slice(19, 23); // .mmm
    const sign = off < 0 ? "-" : "+";
    const hh = String(Math.floor(Math.abs(off) / 60)).padStart(2, "0");
    const mm = String(Math.abs(off) % 60).padStart(2, "0");
    const offsets = off === 0 ? ["Z", "z", "+00:00", "-00:00", "+0000", "+00", "+00:00:00", ""] : [`${sign}${hh}:${mm}`, `${sign}${hh}${mm}`, `${sign}${hh}:${mm}:00`];
    const dates = [date, date.replaceAll("-", "")];
    const times = [time, time.replaceAll(":", ""), time.slice(0, 5)];
    const fracs = ["", `${frac}000`, frac, ".0", `${frac}0000`, frac.replace(".", ",") + "000"];
    for (const sep of ["T", " ", "t", "(", "_", "x"]) {
      for (const dt of dates) for (const tm of times) for (const fr of fracs) for (const of of offsets) {
        if (fr && tm.length === 5) continue;
        out.push(`${dt}${sep}${tm}${fr}${of}`);
      }
    }
  }
  return [...new Set(out)];
}

const TZS = ["America/New_York", "Asia/Tokyo", "UTC"];

test("time respellings: a valid body time is read by Date.parse as the bound instant under every TZ", () => {
  const saved = process.env.TZ;
  const rand = mulberry32(SEED ^ 0x5eed);
  const problems = [];
  const stats = { tried: 0, valid: 0 };
  try {
    for (const b of pick(TEMPLATES, false, rand).slice(0, 10)) {
      const results = b.orig.receipt?.results ?? [];
      const sites = [];
      if (typeof b.orig.as_of === "string") sites.push([["as_of"], b.orig.receipt?.as_of]);
      b.orig.memories?.forEach((m, i) => i < 2 && sites.push([["memories", i, "event_time"], results[i]?.event_time]));
      b.orig.receipt_view?.memories_used?.forEach((u, j) => j < 1 && sites.push([["receipt_view", "memories_used", j, "event_time"], results.find((r) => r.id === u.id)?.event_time]));
      for (const [p, bound] of sites) {
        if (typeof bound !== "string") continue;
        // The bound instant: a naive receipt time is UTC.
        const naive = !/(Z|[+-]\d\d:\d\d)$/.test(bound);
        const instant = Date.parse(naive ? `${bound}Z` : bound);
        const all = timeSpellings(instant);
        // A seeded share of the spellings per site, and the server's own forms.
        const strict = all.filter((t) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?(Z|[+-]\d\d:\d\d)$/.test(t));
        for (const t of [...strict, ...pick(all, false, rand).slice(0, 150)]) {
          const mutant = clone(b.template);
          const parent = get(mutant, p.slice(0, -1));
          parent[p.at(-1)] = t;
          const r = verify(b.kind, ser(mutant), b.given);
          stats.tried += 1;
          if (!r.valid) continue;
          stats.valid += 1;
          if (t === bound) continue; // the bound text itself
          for (const tz of TZS) {
            process.env.TZ = tz;
            const seen = Date.parse(t);
            if (seen !== instant) problems.push(`${b.name} ${ptr(p)} = ${JSON.stringify(t)}: valid, but Date.parse under ${tz} reads ${Number.isNaN(seen) ? "Invalid Date" : new Date(seen).toISOString()}, bound ${bound}`);
          }
        }
      }
    }
  } finally {
    process.env.TZ = saved;
  }
  console.log(`closed-world: time spellings tried/valid ${stats.tried}/${stats.valid}`);
  assert.ok(stats.tried > 1000, `${stats.tried} spellings`);
  assert.ok(stats.valid < stats.tried / 4, "most spellings fail");
  assert.ok(stats.valid > 0, "the server's own spellings stay valid");
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems`);
});

// ------------------------------------------------------------ view multiplicity and order

test("receipt_view.memories_used repeated, dropped or reordered: valid only when it lists the results' ids in order", () => {
  const rand = mulberry32(SEED ^ 0x7a1e);
  const problems = [];
  let tried = 0;
  for (const b of TEMPLATES) {
    const used = b.template.receipt_view?.memories_used;
    if (!Array.isArray(used) || used.length === 0) continue;
    const ids = (b.orig.receipt?.results ?? []).map((r) => r.id);
    const n = used.length;
    const variants = [
      [], [used[0]], [...used, used[0]], used.map(() => used[n - 1]), [...used].reverse(),
      used.filter((_, j) => j !== n - 1), [used[0], ...used], used.map((_, j) => used[(j + 1) % n]),
      used.map((_, j) => used[Math.floor(rand() * n)]),
    ];
    for (const v of variants) {
      const mutant = clone(b.template);
      mutant.receipt_view.memories_used = v.map(clone);
      const r = verify(b.kind, ser(mutant), b.given);
      tried += 1;
      const seen = JSON.parse(ser(mutant)).receipt_view.memories_used.map((u) => u.id);
      const same = seen.length === ids.length && seen.every((id, j) => id === ids[j]);
      if (r.valid && !same) problems.push(`${b.name}: valid with memories_used ids ${JSON.stringify(seen)} for results ${JSON.stringify(ids)}`);
      if (!r.valid && same) problems.push(`${b.name}: the results' own order fails (${r.failures})`);
    }
  }
  console.log(`closed-world: ${tried} view variants`);
  // (lians-sdk 0.5.0's live bodies carry no receipt_view: the samples and the corpus do.)
  if (!process.env.LIANS_AIRTIGHT_BODIES_DIR) assert.ok(tried > 50);
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems`);
});

// ------------------------------------------------------------ pack signature-block edits

function packs() {
  const out = [{ name: "samples/pack", text: PACK, key: PACK_KEY, keyId: PACK_KEY_ID }];
  for (const b of verificationBodies()) if (b.kind === "pack" && b.key) out.push({ name: b.name, text: b.text, key: b.key, keyId: JSON.parse(b.text).signature?.key_id });
  return out;
}

test("pack signature-block edits (pack_hash recomputed): valid only with the edited member pinned and unchanged, or listed unbound", () => {
  const problems = [];
  let tried = 0;
  for (const p of packs()) {
    const sig = JSON.parse(p.text).signature;
    const edits = [];
    for (const k of Object.keys(sig)) {
      edits.push([k, "rewritten", (m) => m.entries.forEach((e) => e[0] === k && (e[1] = typeof e[1] === "string" ? `${e[1]} (ACME CFO)` : "ACME CFO"))]);
      edits.push([k, "removed", (m) => (m.entries = m.entries.filter((e) => e[0] !== k))]);
    }
    for (const k of ["approved_by", "identity", "note", "__proto__"]) edits.push([k, "added", (m) => m.entries.push([k, "ACME CFO"])]);
    for (const pins of [{}, { trusted_public_key: p.key }, { trusted_public_key: p.key, expected_key_id: p.keyId }]) {
      for (const [k, what, edit] of edits) {
        const text = rewritePackSignature(lians, p.text, edit);
        const r = lians.verifyEvidencePack(text, pins);
        tried += 1;
        if (!r.valid) continue;
        const at = `/signature/${k}`;
        const pinned = (k === "public_key" && pins.trusted_public_key) || (k === "key_id" && pins.expected_key_id);
        if (pinned) problems.push(`${p.name}: ${at} ${what} with it pinned: valid`);
        else if (what !== "removed" && !r.unbound_fields.includes(at)) problems.push(`${p.name}: ${at} ${what}: valid, unbound_fields ${JSON.stringify(r.unbound_fields)}`);
        if (what === "removed" && ["status", "value", "public_key", "algorithm"].includes(k)) problems.push(`${p.name}: ${at} removed: valid`);
      }
    }
    // As sent: identity_note (the server's words, never signed) is always listed; key_id unless pinned.
    const r = lians.verifyEvidencePack(p.text, { trusted_public_key: p.key });
    assert.equal(r.valid, true, p.name);
    assert.ok(r.unbound_fields.includes("/signature/identity_note") && r.unbound_fields.includes("/signature/key_id"), JSON.stringify(r.unbound_fields));
    const pinned = lians.verifyEvidencePack(p.text, { trusted_public_key: p.key, expected_key_id: p.keyId });
    assert.deepEqual(pinned.unbound_fields, ["/signature/identity_note"], p.name);
  }
  console.log(`closed-world: ${tried} pack edits`);
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems`);
});

// ------------------------------------------------------------ non-finite numbers anywhere

/** Every path to a scalar in `v` (array indices as numbers). */
function scalarPaths(v, p = [], out = []) {
  if (v instanceof Raw || v instanceof Members) return out;
  if (v && typeof v === "object" && !(v instanceof Num)) for (const [k, x] of Object.entries(v)) scalarPaths(x, [...p, Array.isArray(v) ? Number(k) : k], out);
  else out.push(p);
  return out;
}

test("NaN, Infinity, -Infinity anywhere in a body or a pack: never valid; outside the receipt, non_json_number at the pointer", () => {
  const rand = mulberry32(SEED ^ 0x0a0a);
  const problems = [];
  let tried = 0;
  for (const b of TEMPLATES) {
    const paths = scalarPaths({ ...b.template, receipt: undefined }).filter((p) => p[0] !== "receipt");
    for (const p of pick(paths, b.all, rand)) {
      const token = ["NaN", "Infinity", "-Infinity"][Math.floor(rand() * 3)];
      const mutant = clone(b.template);
      get(mutant, p.slice(0, -1))[p.at(-1)] = new Raw(token);
      const r = verify(b.kind, ser(mutant), b.given);
      tried += 1;
      if (r.valid) problems.push(`${b.name}: ${token} at ${ptr(p)}: valid`);
      else if (!failedAt(r, "non_json_number", ptr(p))) problems.push(`${b.name}: ${token} at ${ptr(p)}: no non_json_number there (${r.failures})`);
    }
    // In the receipt (the hashed value: non_finite_number), never valid either.
    const text = ser({ ...b.template, receipt: new Raw(b.template.receipt.text.replace(/("score":)([0-9.eE+-]+)/, "$1NaN")) });
    if (text !== ser(b.template)) {
      const r = verify(b.kind, text, b.given);
      tried += 1;
      if (r.valid) problems.push(`${b.name}: NaN in the receipt: valid`);
    }
  }
  // A pack: NaN in the signature block (pack_hash recomputed) or the manifest.
  for (const p of packs()) {
    for (const token of ["NaN", "Infinity", "-Infinity"]) {
      const text = rewritePackSignature(lians, p.text, (m) => m.entries.push(["weight", new Raw(token)]));
      const r = lians.verifyEvidencePack(text, { trusted_public_key: p.key });
      tried += 1;
      if (r.valid || !failedAt(r, "non_json_number", "/signature/weight")) problems.push(`${p.name}: ${token} in the signature: ${JSON.stringify(r.failures)}`);
      const manifest = p.text.replace(/"schema"\s*:/, `"x":${token},"schema":`);
      const rm = lians.verifyEvidencePack(manifest, { trusted_public_key: p.key });
      tried += 1;
      if (rm.valid) problems.push(`${p.name}: ${token} in the manifest: valid`);
    }
  }
  console.log(`closed-world: ${tried} non-finite mutants`);
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems`);
});

// ------------------------------------------------------------ -0

/** Paths to numeric zeros in `v` (numbers are Num lexemes). */
function zeroPaths(v, p = [], out = []) {
  if (v instanceof Raw || v instanceof Members) return out;
  if (v instanceof Num) {
    // A +0 (a -0.0 the server sent is read as -0 already).
    if (Object.is(Number(v.text), 0)) out.push(p);
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) zeroPaths(x, [...p, Array.isArray(v) ? Number(k) : k], out);
  }
  return out;
}

/** Is `pointer` at or under a pattern of unbound_fields (`*` for an index)? */
function underUnbound(pointer, unbound) {
  const parts = pointer.split("/");
  return unbound.some((u) => {
    const q = u.split("/");
    return q.length <= parts.length && q.every((x, i) => x === "*" ? /^\d+$/.test(parts[i]) : x === parts[i]);
  });
}

test("-0 and -0.0 for every zero: valid only under an unbound field", () => {
  const problems = [];
  let tried = 0;
  for (const b of TEMPLATES) {
    const zeros = zeroPaths({ ...b.template, receipt: undefined }).filter((p) => p[0] !== "receipt");
    const base = verify(b.kind, ser(b.template), b.given);
    for (const p of zeros.slice(0, b.all ? zeros.length : 20)) {
      for (const token of ["-0", "-0.0", "-0e0"]) {
        const mutant = clone(b.template);
        get(mutant, p.slice(0, -1))[p.at(-1)] = new Raw(token);
        const text = ser(mutant);
        const r = verify(b.kind, text, b.given);
        tried += 1;
        if (r.valid && !underUnbound(ptr(p), base.unbound_fields)) problems.push(`${b.name}: ${token} at ${ptr(p)}: valid, and a client reads -0 there (bound)`);
        if (r.valid) assert.ok(Object.is(get(JSON.parse(text), p), -0));
      }
    }
  }
  console.log(`closed-world: ${tried} -0 mutants`);
  assert.ok(tried > 0);
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems`);
});
