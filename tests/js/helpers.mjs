// Shared helpers for the Node tests.
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SHARED = path.resolve(ROOT, process.env.LIANS_SHARED ?? "tests/data");
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

/** Python round(x, 6) is close enough here: compare like check_scoring.py. */
function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}

/** check_scoring.py's structural comparison; returns null or a description. */
export function compare(expected, actual, where = "expected") {
  if (expected && typeof expected === "object" && !Array.isArray(expected)) {
    const keys = Object.keys(expected);
    if (keys.length === 1 && keys[0] === "error") {
      return actual && typeof actual === "object" && "error" in actual ? null : `${where}: want an error, got ${JSON.stringify(actual)}`;
    }
  }
  if (typeof expected === "boolean" || typeof actual === "boolean") {
    return expected === actual ? null : `${where}: ${expected} vs ${actual}`;
  }
  if (typeof expected === "number") {
    if (typeof actual !== "number") return `${where}: ${expected} vs ${JSON.stringify(actual)}`;
    if (!Number.isFinite(expected) || !Number.isFinite(actual)) {
      return Object.is(expected, actual) || (Number.isNaN(expected) && Number.isNaN(actual)) ? null : `${where}: ${expected} vs ${actual}`;
    }
    return round6(expected) === round6(actual) || Math.abs(expected - actual) < 5e-7 ? null : `${where}: ${expected} vs ${actual}`;
  }
  if (expected === null || typeof expected === "string") {
    return expected === actual ? null : `${where}: ${JSON.stringify(expected)} vs ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return `${where}: ${JSON.stringify(expected)} vs ${JSON.stringify(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const d = compare(expected[i], actual[i], `${where}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (!actual || typeof actual !== "object" || Array.isArray(actual)) return `${where}: object vs ${JSON.stringify(actual)}`;
  const want = Object.keys(expected).sort();
  const got = Object.keys(actual).sort();
  if (want.join("\n") !== got.join("\n")) return `${where}: keys ${want} vs ${got}`;
  for (const key of want) {
    const d = compare(expected[key], actual[key], `${where}.${key}`);
    if (d) return d;
  }
  return null;
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
