// Shared helpers for the Node tests.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SHARED = path.resolve(ROOT, process.env.LIANS_SHARED || "tests/data");
export const SCORING_DIR = path.join(SHARED, "conformance/scoring");
export const RECEIPTS_FILE = path.join(SHARED, "conformance/receipts/cases.jsonl");
export const SAMPLES = path.join(SHARED, "samples");

export function haveShared() {
  return existsSync(SCORING_DIR);
}

/** Raw lines of a vector file (strings, not parsed: inputs go in as JSON text). */
export function vectorLines(fn) {
  return readFileSync(path.join(SCORING_DIR, `${fn}.jsonl`), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
}

/** Every n-th element, so tests stay fast but cover each file. */
export function sample(items, count) {
  if (items.length <= count) return items;
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]);
}

/** Decode the vectors' non-finite markers in the named fields. */
export function decodeMarkers(object, fields) {
  const out = { ...object };
  for (const f of fields) {
    if (out[f] === "NaN") out[f] = NaN;
    else if (out[f] === "Infinity") out[f] = Infinity;
    else if (out[f] === "-Infinity") out[f] = -Infinity;
  }
  return out;
}

/** Seeded PRNG (mulberry32): uniform floats in [0, 1), the same stream for the same seed. */
export function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The verifiable bodies the adversarial suites mutate: the two samples, the corpus's valid recall/context
 * bodies and the live captures in test-output/live (recall, context and signed packs, as `kind` "pack" with
 * the capture's `public_key.b64`), or only LIANS_AIRTIGHT_BODIES_DIR's.
 */
export function verificationBodies() {
  const only = process.env.LIANS_AIRTIGHT_BODIES_DIR;
  if (only) return dirBodies(only);
  const out = [];
  for (const [file, kind] of [["recall-08-fast-filters-acme-tinyfloat.json", "recall"], ["context-01-deep-acme-summary.json", "context"]]) {
    out.push({ name: `samples/${file}`, kind, text: readFileSync(path.join(SAMPLES, file), "utf8"), given: null, all: true });
  }
  for (const line of readFileSync(RECEIPTS_FILE, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    if (!c.expected?.valid || (c.kind !== "recall" && c.kind !== "context") || typeof c.wire !== "string") continue;
    let b;
    try {
      b = JSON.parse(c.wire);
    } catch {
      continue;
    }
    if (!b || typeof b !== "object" || !("receipt" in b) || c.wire.length > 1 << 20) continue;
    out.push({ name: `corpus/${c.id}`, kind: c.kind, text: c.wire, given: c.given, all: false });
  }
  out.push(...dirBodies(path.join(ROOT, "test-output", "live")));
  return out;
}

function dirBodies(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const text = readFileSync(path.join(dir, f), "utf8");
    let b;
    try {
      b = JSON.parse(text);
    } catch {
      continue;
    }
    if (!b || typeof b !== "object") continue;
    if ("receipt" in b) {
      out.push({ name: `live/${f}`, kind: String(b.receipt?.schema ?? "").includes("context") ? "context" : "recall", text, given: null, all: false });
    } else if (b.signature && b.manifest_hash) {
      const key = path.join(dir, "public_key.b64");
      out.push({ name: `live/${f}`, kind: "pack", text, key: existsSync(key) ? readFileSync(key, "utf8").trim() : null });
    }
  }
  return out;
}
