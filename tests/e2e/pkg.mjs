// Locate and load the lians-score package's Node entry for the e2e tests.
// LIANS_PKG_ROOT points at a folder holding a built package (package.json,
// js/, dist/); by default the repository itself.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PKG_ROOT = process.env.LIANS_PKG_ROOT ? resolve(process.env.LIANS_PKG_ROOT) : REPO;

function nodeEntry() {
  try {
    const pj = JSON.parse(readFileSync(join(PKG_ROOT, 'package.json'), 'utf8'));
    const node = pj.exports?.['.']?.node;
    const rel = typeof node === 'string' ? node : node?.import;
    if (rel && existsSync(join(PKG_ROOT, rel))) return join(PKG_ROOT, rel);
  } catch { /* fall through */ }
  const guess = join(PKG_ROOT, 'js', 'node.mjs');
  return existsSync(guess) ? guess : null;
}

/** The package namespace, or null with a reason when it is not built. */
export async function loadPackage() {
  const entry = nodeEntry();
  if (!entry) return { pkg: null, reason: `no built package under ${PKG_ROOT} (run npm run build)` };
  try {
    const pkg = await import(pathToFileURL(entry).href);
    await pkg.init?.();
    pkg.scoreMemory({ content: 'probe', reference_time: '2026-01-01T00:00:00Z' });
    return { pkg, reason: null };
  } catch (e) {
    return { pkg: null, reason: `package at ${entry} failed to load: ${e.message}` };
  }
}

/** Does a verifier work yet (other branches may still stub it)? */
export function verifiersWork(pkg) {
  try {
    const r = pkg.verifyRecallReceipt('{"schema":"lians.recall-receipt.v2"}');
    return r && typeof r === 'object' && 'valid' in r;
  } catch {
    return false;
  }
}
