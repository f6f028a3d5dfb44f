// Shared helpers for the Node tests.
import { readFileSync, existsSync } from "node:fs";
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
