// A verification report (receipt or Evidence Pack) as a verdict, the hash,
// "what this proves" and a table of every check. Shared by verify.js and pack.js.
import { h, replace } from './dom.js';

// Plain names for the verifier's check codes (a code names the failure it guards against).
const CHECK_LABELS = {
  malformed_json: 'Well-formed JSON', nesting_too_deep: 'Nesting depth', unsupported_schema: 'Schema',
  non_finite_number: 'All numbers finite', non_json_number: 'Readable by JSON.parse', receipt_hash_mismatch: 'Receipt hash', query_hash_mismatch: 'Query hash',
  content_hash_mismatch: 'Memory content hash', neighbor_hash_mismatch: 'Neighbour hashes', context_hash_mismatch: 'Context text hash',
  retrieval_receipt_mismatch: 'Linked recall receipt', score_mismatch: 'score = final_score', order_violation: 'Result order',
  stage_chain: 'Ranking stage chain', rank_calibration: 'Rank calibration', body_mismatch: 'Body agrees with receipt',
  manifest_hash_mismatch: 'Manifest hash', pack_hash_mismatch: 'Pack hash', signature_invalid: 'Ed25519 signature',
  unsigned_pack: 'Pack is signed', untrusted_key: 'Trusted public key', key_id_mismatch: 'Key id',
};
function checkLabel(c) {
  const code = String(c?.code ?? '');
  if (code === 'receipt_hash_mismatch' && String(c?.pointer ?? '').startsWith('/evidence_graph')) return 'Receipt binding';
  return CHECK_LABELS[code] ?? code;
}

export function statusCell(s) {
  const st = s === 'passed' || s === 'failed' || s === 'skipped' ? s : 'skipped';
  return h('span', { class: `st ${st}` }, st === 'passed' ? '✓ passed' : st === 'failed' ? '✕ failed' : '– skipped');
}

// Checks that compare the body's own text with its receipt's hashes: skipped
// under privacy-minimal writes, so a valid result then covers less.
const CONTENT_CODES = new Set(['content_hash_mismatch', 'neighbor_hash_mismatch']);
const STATUS_ORDER = { failed: 0, passed: 1, skipped: 2 };

/** How many content comparisons the skipped checks stand for (their message counts them; else one each). */
export function skippedContentComparisons(checks) {
  let n = 0;
  for (const c of checks) {
    if (c?.status !== 'skipped' || !CONTENT_CODES.has(String(c.code))) continue;
    const m = /^(\d+) [^.]*comparison/.exec(String(c.message ?? ''));
    n += m ? Number(m[1]) : 1;
  }
  return n;
}

export function renderReport(out, report, { title, explain, extra, hashTitle = 'Canonical hash (SHA-256 of the Python-canonical JSON)' }) {
  const valid = report?.valid === true;
  // Failed checks first (then passed, then skipped), each group in the verifier's order.
  const checks = (Array.isArray(report?.checks) ? report.checks : [])
    .map((c, i) => [c, i]).sort(([a, i], [b, j]) => (STATUS_ORDER[a?.status] ?? 3) - (STATUS_ORDER[b?.status] ?? 3) || i - j).map(([c]) => c);
  // Valid with content comparisons skipped (privacy-minimal writes): amber, never green.
  const skippedContent = valid ? skippedContentComparisons(checks) : 0;
  const verdict = !valid ? 'bad' : skippedContent ? 'partial' : 'ok';
  const failures = Array.isArray(report?.failures) ? report.failures : [];
  const counts = { passed: 0, failed: 0, skipped: 0 };
  checks.forEach((c) => { if (c && counts[c.status] != null) counts[c.status]++; });
  const canonical = typeof report?.canonical === 'string' ? report.canonical : null;
  const unbound = Array.isArray(report?.unbound_fields) ? report.unbound_fields.map(String) : [];
  replace(out,
    h('div', { class: `verdict ${verdict}`, dataset: { valid: String(valid), verdict } }, h('span', { 'aria-hidden': 'true' }, valid ? (skippedContent ? '◐' : '✓') : '✕'),
      `${title}: ${!valid ? 'INVALID' : skippedContent ? `valid for the fields checked; ${skippedContent} content comparison${skippedContent === 1 ? '' : 's'} skipped` : 'valid'}`),
    skippedContent ? h('div', { class: 'callout warn', id: 'partial-note' }, `Privacy-minimal writes: the body's memory contents were not compared with the receipt (${skippedContent} comparison${skippedContent === 1 ? '' : 's'} skipped), so this result does not show that the text you read is the text the server bound.`) : null,
    h('p', { class: 'muted' }, `${counts.passed} passed · ${counts.failed} failed · ${counts.skipped} skipped`),
    failures.length ? h('div', { class: 'callout bad' }, 'Failure codes: ', ...failures.flatMap((c, i) => [i ? ', ' : '', h('code', null, String(c))])) : null,
    h('h3', null, hashTitle),
    h('div', { class: 'hash', id: 'receipt-sha' }, String(report?.receipt_sha256 ?? '—')),
    canonical != null ? h('details', null, h('summary', null, `Canonical text (${canonical.length.toLocaleString()} characters)`),
      h('pre', { class: 'canonical' }, canonical.length > 200000 ? `${canonical.slice(0, 200000)}\n… (truncated for display)` : canonical)) : null,
    h('div', { class: 'callout', id: 'proves' }, h('strong', null, 'What this proves. '), ...explain.map((t, i) => [i ? ' ' : '', t])),
    extra ?? null,
    h('h3', null, 'Checks'),
    checks.length ? h('table', { class: 'checks' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Result'), h('th', { scope: 'col' }, 'Check'), h('th', { scope: 'col' }, 'JSON pointer'), h('th', { scope: 'col' }, 'Detail'))),
      h('tbody', null, ...checks.map((c) => h('tr', { dataset: { code: String(c?.code ?? ''), status: String(c?.status ?? '') } },
        h('td', null, statusCell(c?.status)),
        h('td', null, checkLabel(c), h('code', { class: 'code' }, String(c?.code ?? '')), c?.severity === 'info' ? h('span', { class: 'muted' }, ' (info)') : null),
        h('td', { class: 'ptr' }, c?.pointer == null || c.pointer === '' ? '(whole document)' : String(c.pointer),
          typeof c?.compared_with === 'string' ? h('span', { class: 'muted against' }, ' vs ', c.compared_with) : null),
        h('td', null, String(c?.message ?? '')))))) : h('p', { class: 'muted' }, 'The verifier reported no individual checks.'),
    unbound.length ? h('details', { id: 'unbound-fields' },
      h('summary', null, `Not bound by the receipt (${unbound.length} field${unbound.length === 1 ? '' : 's'}: a change there is not detected)`),
      h('ul', { class: 'unbound' }, ...unbound.map((p) => h('li', null, h('code', null, p))))) : null,
  );
}
