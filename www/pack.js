// The "Evidence Pack" tab: an Evidence Pack v2, its Ed25519 signature and
// the recall receipts it binds.
import { SAMPLE, fetchText, fillGuard } from './state.js';
import { h, replace, $ } from './dom.js';
import * as lians from './lians.js';
import { readFileInto, makeDropZone } from './files.js';
import { renderReport, statusCell } from './report.js';

const p = { wire: $('#p-wire'), key: $('#p-key'), keyId: $('#p-keyid'), unsigned: $('#p-unsigned'), out: $('#p-result') };
// Samples arrive asynchronously; one that lands after the user edited the
// field (or asked for it again) is dropped, never written over the edit.
const packFill = fillGuard([p.wire]);
const keyFill = fillGuard([p.key, p.keyId]);
// Samples still arriving when the user asks to verify are waited for: "Verify"
// right after "Load sample" verifies the sample, not the still-empty field.
const arriving = new Set();
function arrive(load) {
  const done = load().finally(() => arriving.delete(done));
  arriving.add(done);
}
$('#p-sample').addEventListener('click', () => arrive(async () => {
  const ticket = packFill();
  try {
    const text = await fetchText(SAMPLE.pack);
    if (!ticket.superseded() && !ticket.edited()) p.wire.value = text;
  } catch (e) { replace(p.out, h('p', { class: 'status bad' }, e.message)); }
}));
$('#p-sample-key').addEventListener('click', () => arrive(async () => {
  const ticket = keyFill();
  try {
    const key = (await fetchText(SAMPLE.packKey)).trim();
    if (!ticket.superseded() && !ticket.edited()) { p.key.value = key; p.keyId.value = SAMPLE.packKeyId; }
  } catch (e) { replace(p.out, h('p', { class: 'status bad' }, e.message)); }
}));
$('#p-file').addEventListener('change', (e) => { readFileInto(e.target.files[0], (t) => { p.wire.value = t; }); e.target.value = ''; });
makeDropZone($('#pack-drop'), (t) => { p.wire.value = t; });

/** Why a trusted key is not one (null: it is base64 of 32 bytes, the size of an Ed25519 public key). */
function keyProblem(b64) {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return 'not a 32-byte Ed25519 public key (not base64 text)';
  let n;
  try { n = atob(b64).length; } catch { return 'not a 32-byte Ed25519 public key (not base64 text)'; }
  return n === 32 ? null : `not a 32-byte Ed25519 public key (it decodes to ${n} byte${n === 1 ? '' : 's'})`;
}

async function runPack() {
  await Promise.all([...arriving]);
  if (!(await lians.load())) { replace(p.out, h('p', { class: 'status bad' }, 'The lians-score package is not loaded: cannot verify.')); return; }
  const wire = p.wire.value;
  if (!wire.trim()) { replace(p.out, h('p', { class: 'empty' }, 'Paste a pack first.')); return; }
  const opts = {};
  if (p.key.value.trim()) {
    const problem = keyProblem(p.key.value.trim());
    if (problem) { replace(p.out, h('p', { class: 'status bad', id: 'p-key-problem' }, `Trusted public key: ${problem}.`)); p.out.scrollIntoView({ block: 'nearest' }); return; }
    opts.trusted_public_key = p.key.value.trim();
  }
  if (p.keyId.value.trim()) opts.expected_key_id = p.keyId.value.trim();
  if (p.unsigned.checked) opts.allow_unsigned = true;
  let report;
  try { report = lians.verifyEvidencePack(wire, opts); } catch (e) {
    const info = lians.errorInfo(e);
    replace(p.out, h('p', { class: 'status bad' }, `Verifier error ${info.code}${info.path ? ` at ${info.path}` : ''}: ${info.message}`));
    return;
  }
  let sig = null;
  let links = 0;
  try {
    const doc = JSON.parse(wire);
    sig = doc && typeof doc.signature === 'object' ? doc.signature : null;
    links = Array.isArray(doc?.evidence_graph) ? doc.evidence_graph.filter((l) => l?.evidence_type === 'recall_receipt').length : 0;
  } catch { /* the report says why */ }
  const checks = Array.isArray(report?.checks) ? report.checks : [];
  const summarize = (pred) => summarizeBy((c) => pred(String(c?.code ?? '')));
  const summarizeBy = (pred) => {
    const cs = checks.filter(pred);
    if (!cs.length) return 'not reported';
    if (cs.some((c) => c.status === 'failed')) return statusCell('failed');
    if (cs.every((c) => c.status === 'skipped')) return statusCell('skipped');
    return statusCell('passed');
  };
  const kv = (k, val) => [h('dt', null, k), h('dd', null, val)];
  const extra = h('div', null,
    h('h3', null, 'Signature and binding'),
    h('dl', { class: 'kv' },
      kv('signature', summarize((c) => /signature|unsigned/.test(c))),
      kv('trusted key', opts.trusted_public_key ? summarize((c) => /untrusted_key|trusted_key|public_key/.test(c)) : 'no trusted key given: identity not established'),
      kv('key id', opts.expected_key_id ? summarize((c) => /key_id/.test(c)) : 'no key id given'),
      kv('receipt bindings', h('span', null, summarizeBy((c) => String(c?.pointer ?? '').startsWith('/evidence_graph')), ` ${links} recall_receipt link${links === 1 ? '' : 's'}`)),
      kv('manifest / pack hash', summarize((c) => /manifest_hash|pack_hash/.test(c))),
      kv('pack says: algorithm', sig ? String(sig.algorithm ?? '—') : '—'),
      kv('pack says: key id', sig ? String(sig.key_id ?? '—') : '—'),
      kv('pack says: public key', sig ? h('span', { class: 'mono' }, String(sig.public_key ?? '—')) : '—'),
      sig?.identity_note != null ? kv('pack says: note', String(sig.identity_note)) : null));
  renderReport(p.out, report, {
    title: 'Evidence Pack',
    hashTitle: 'Manifest hash (SHA-256 of the canonical manifest)',
    extra,
    explain: [
      'A valid signature proves the manifest was signed by whoever holds the private key matching the pack\'s public_key, and was not changed since. It says who signed only if that public key equals one you obtained independently and entered above: a pack can carry any key, including an attacker\'s.',
      'The manifest and pack hashes prove integrity, not authorship. Receipt bindings check that every recall_receipt link hashes to the receipt body it carries.',
    ],
  });
}
$('#p-run').addEventListener('click', runPack);

