// Decisions: the reviewer's approve/reject choices, exported (JSON, curl) or
// submitted to the Lians server after an in-page confirmation.
import { state, ui, safeOrigin, rowById } from './state.js';
import { h, replace, $, download } from './dom.js';
import { buildDecisionExport } from './queue.js';
import { OUTCOMES, resolveUrl, submitDecisions } from './resolve.js';

const decPreview = $('#dec-preview');
const decFormat = $('#dec-format');
function currentExport() {
  const m = new Map();
  for (const r of state.rows) {
    const a = state.decisions.get(r.id);
    if (a) m.set(r.id, { action: a, note: state.notes.get(r.id) || null });
  }
  return buildDecisionExport(m, { baseUrl: safeOrigin(ui.apiBase()) || '' });
}
function renderDecisions() {
  const ex = currentExport();
  const a = ex.doc.decisions.filter((d) => d.body.action === 'approve').length;
  const rj = ex.doc.count - a;
  $('#dec-count').textContent = ex.doc.count ? `${a} approve · ${rj} reject${ex.skipped.length ? ` · ${ex.skipped.length} skipped (id not a UUID)` : ''}` : 'none yet';
  decPreview.value = decFormat.value === 'curl' ? ex.curl : ex.json;
  if (!confirmBox.hidden && !sending) renderConfirm();
}
decFormat.addEventListener('input', renderDecisions);
$('#dec-download-json').addEventListener('click', () => download('lians-review-decisions.json', currentExport().json));
$('#dec-download-sh').addEventListener('click', () => download('lians-review-decisions.sh', currentExport().curl, 'text/x-shellscript'));
$('#dec-copy').addEventListener('click', async () => {
  try { await navigator.clipboard.writeText(decPreview.value); ui.say('Copied to the clipboard.'); } catch { decPreview.select(); ui.say('Select-all done: press Ctrl+C to copy.'); }
});

// ─── Submit to Lians: nothing is sent before the confirm button is pressed ───
const submitBtn = $('#dec-submit');
const confirmBox = $('#dec-confirm');
const confirmBtn = $('#dec-submit-confirm');
const cancelBtn = $('#dec-submit-cancel');
const results = $('#dec-results');
let sending = false;
let planned = null; // {entries, base, origin}: exactly what the confirmation lists

const snippet = (id) => {
  const c = rowById(id)?.obj?.content;
  return typeof c === 'string' ? (c.length > 80 ? `${c.slice(0, 80)}…` : c) : '';
};

/** Fill the confirmation from the current decisions and the Fetch form's URL and key. */
function renderConfirm() {
  const ex = currentExport();
  const base = ui.apiBase();
  let problem = '';
  let origin = '';
  try { origin = resolveUrl(base, '00000000-0000-0000-0000-000000000000').origin; } catch (e) { problem = `Set the base URL under "Fetch from Lians…" first (${base ? e.message : 'empty'}).`; }
  if (!problem && !ui.apiKey()) problem = 'Enter an API key with admin scope under "Fetch from Lians…" first.';
  if (!problem && !ex.doc.count) problem = 'No decisions to send: approve (a) or reject (r) items first.';
  planned = problem ? null : { entries: ex.doc.decisions, base, origin };
  replace($('#dec-confirm-target'), problem
    ? h('span', { class: 'status bad' }, problem)
    : h('span', null, `${ex.doc.count} decision${ex.doc.count === 1 ? '' : 's'} will be sent to `, h('strong', { class: 'mono' }, origin),
      ` as POST /v1/admissions/{id}/resolve, one at a time, with the API key from this page${ex.skipped.length ? ` (${ex.skipped.length} skipped: id not a UUID)` : ''}.`));
  replace($('#dec-confirm-list'), ...(planned ? planned.entries : []).map((e) => h('li', { dataset: { id: e.pending_id, action: e.body.action } },
    h('strong', null, e.body.action), ' ', h('span', { class: 'mono' }, e.pending_id), ' ', h('span', { class: 'muted' }, snippet(e.pending_id)),
    e.body.note ? h('span', null, ` · note: ${e.body.note}`) : null)));
  confirmBtn.disabled = !planned;
}

function openConfirm(open) {
  confirmBox.hidden = !open;
  submitBtn.setAttribute('aria-expanded', String(open));
  if (open) { renderConfirm(); (planned ? confirmBtn : cancelBtn).focus(); }
}

submitBtn.addEventListener('click', () => { if (!sending) openConfirm(confirmBox.hidden); });
cancelBtn.addEventListener('click', () => { openConfirm(false); ui.say('Nothing was sent.'); submitBtn.focus(); });

function outcomeText(entry, r) {
  const base = OUTCOMES[r.outcome] ?? r.outcome;
  if (r.outcome === 'approved') return `${base}${r.memory_id ? `, memory ${r.memory_id}` : ''}`;
  if (r.outcome === 'rejected') return base;
  if (r.outcome === 'network') return `${base}: ${r.detail}.${ui.cspHint(planned?.origin ?? '')}`;
  return `${base}${r.status ? ` (HTTP ${r.status})` : ''}${r.detail ? `: ${r.detail}` : ''}`;
}

// Outcomes after which a retry cannot help: the item is resolved (or gone).
const FINAL = new Set(['approved', 'rejected', 'conflict', 'not_found']);

/** Re-apply decisions to the items of the (refreshed) queue that still carry them; returns how many. */
function restoreDecisions(bodies) {
  let n = 0;
  for (const [id, body] of bodies) {
    if (!rowById(id)) continue;
    state.decisions.set(id, body.action);
    if (body.note) state.notes.set(id, body.note);
    n++;
  }
  if (n) ui.renderList(true);
  return n;
}

confirmBtn.addEventListener('click', async () => {
  if (sending || !planned) return;
  const plan = planned;
  const key = ui.apiKey();
  sending = true;
  submitBtn.disabled = true;
  confirmBtn.disabled = true;
  confirmBox.hidden = true;
  submitBtn.setAttribute('aria-expanded', 'false');
  const list = h('ul');
  const head = h('p', { class: 'status' }, `Sending ${plan.entries.length} decision${plan.entries.length === 1 ? '' : 's'} to ${plan.origin}…`);
  const tail = h('p', { class: 'status' });
  replace(results, head, list, tail);
  results.dataset.state = 'sending';
  const counts = {};
  const retry = new Map(); // pending_id → body, for outcomes worth retrying
  try {
    await submitDecisions(plan.entries, {
      base: plan.base,
      key,
      onOutcome: (entry, r) => {
        counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
        if (!FINAL.has(r.outcome)) retry.set(entry.pending_id, entry.body);
        list.appendChild(h('li', { dataset: { id: entry.pending_id, action: entry.body.action, outcome: r.outcome, status: String(r.status ?? ''), memoryId: r.memory_id ?? '' } },
          h('span', { class: 'mono' }, entry.pending_id), ` ${entry.body.action}: `, outcomeText(entry, r)));
      },
    });
    head.textContent = `Sent ${plan.entries.length} decision${plan.entries.length === 1 ? '' : 's'} to ${plan.origin}: ${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ')}.`;
    tail.textContent = 'Refreshing the queue…';
    const ok = await ui.fetchQueue();
    // A refreshed queue starts without decisions: keep those that did not go through, for a retry.
    const kept = ok ? restoreDecisions(retry) : 0;
    tail.textContent = ok ? `Queue refreshed from the server.${kept ? ` ${kept} decision${kept === 1 ? '' : 's'} that did not go through ${kept === 1 ? 'is' : 'are'} kept for a retry.` : ''}` : 'The queue could not be refreshed: see the status line above.';
  } finally {
    sending = false;
    submitBtn.disabled = false;
    results.dataset.state = 'done';
  }
});

ui.renderDecisions = renderDecisions;
