// Decisions: the reviewer's approve/reject choices, decided one by one or in
// bulk (after an in-page confirmation), saved in the tab (state.js, saved.js),
// exported (JSON, curl) or submitted to the Lians server after an in-page
// confirmation, a few requests at a time, with the progress in the sticky bar.
import { state, ui, safeOrigin, rowById, decideMany, forgetSaved, saveNow, registerConfirm, closeConfirms } from './state.js';
import { h, replace, $, download, setText } from './dom.js';
import { buildDecisionExport, snippetOf, isUuid } from './queue.js';
import { scopeLabel } from './saved.js';
import { OUTCOMES, CONCURRENCY, outcomeName, resolveUrl, submitDecisions } from './resolve.js';
import { showControls } from './controls.js';

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
// The counts are redrawn at once; the export preview (up to 1,500 entries of
// text, costly to lay out) shortly after, and only while it is on screen:
// marked data-stale until then.
let previewTimer = 0;
let previewOnScreen = false;
function renderPreview() {
  clearTimeout(previewTimer);
  previewTimer = 0;
  const ex = currentExport();
  decPreview.value = decFormat.value === 'curl' ? ex.curl : ex.json;
  delete decPreview.dataset.stale;
}
function schedulePreview() {
  decPreview.dataset.stale = 'true';
  if (!previewTimer && previewOnScreen) previewTimer = setTimeout(renderPreview, 50);
}
if (typeof IntersectionObserver === 'function') {
  new IntersectionObserver((entries) => {
    previewOnScreen = entries.at(-1).isIntersecting;
    if (previewOnScreen && decPreview.dataset.stale) schedulePreview();
  }).observe(decPreview);
} else previewOnScreen = true;
const decCount = $('#dec-count');
const barDecisions = $('#bar-decisions');
function renderDecisions() {
  let a = 0;
  let rj = 0;
  let skipped = 0;
  for (const [id, v] of state.decisions) { if (!isUuid(id)) skipped++; else if (v === 'approve') a++; else rj++; }
  const text = a + rj + skipped ? `${a} approve · ${rj} reject${skipped ? ` · ${skipped} skipped (id not a UUID)` : ''}` : 'none yet';
  setText(decCount, text);
  setText(barDecisions, a + rj ? `${text} · ${state.sending ? 'sending' : 'not sent yet'}` : 'no decisions');
  $('#discard-saved').disabled = !(state.decisions.size || state.notes.size || state.savedOther.size);
  schedulePreview();
  if (!confirmBox.hidden && !sending) renderConfirm();
}
decFormat.addEventListener('input', () => { renderDecisions(); renderPreview(); });
$('#dec-download-json').addEventListener('click', () => download('lians-review-decisions.json', currentExport().json));
$('#dec-download-sh').addEventListener('click', () => download('lians-review-decisions.sh', currentExport().curl, 'text/x-shellscript'));
$('#dec-copy').addEventListener('click', async () => {
  if (decPreview.dataset.stale) renderPreview();
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

const snippet = (id) => showControls(snippetOf(rowById(id)?.obj?.content));

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
      ` as POST /v1/admissions/{id}/resolve, up to ${CONCURRENCY} at a time, with the API key from this page${ex.skipped.length ? ` (${ex.skipped.length} skipped: id not a UUID)` : ''}. The list is read again when you press Send.`));
  replace($('#dec-confirm-list'), ...(planned ? planned.entries : []).map((e) => h('li', { dataset: { id: e.pending_id, action: e.body.action } },
    h('strong', null, e.body.action), ' ', h('span', { class: 'mono' }, e.pending_id), ' ', h('span', { class: 'muted' }, snippet(e.pending_id)),
    e.body.note ? h('span', null, ` · note: ${e.body.note}`) : null)));
  confirmBtn.disabled = !planned;
}

// The safe button (Cancel) takes the focus: Enter twice never sends.
function openConfirm(open) {
  if (open) closeConfirms(confirmBox);
  confirmBox.hidden = !open;
  submitBtn.setAttribute('aria-expanded', String(open));
  if (open) { renderConfirm(); cancelBtn.focus(); }
}
registerConfirm(confirmBox, () => { openConfirm(false); ui.say('Nothing was sent.'); });

submitBtn.addEventListener('click', () => { if (!sending) openConfirm(confirmBox.hidden); });
cancelBtn.addEventListener('click', () => { openConfirm(false); ui.say('Nothing was sent.'); submitBtn.focus(); });

function outcomeText(entry, r, origin) {
  const base = OUTCOMES[r.outcome] ?? r.outcome;
  if (r.outcome === 'approved') return `${base}${r.memory_id ? `, memory ${r.memory_id}` : ''}`;
  if (r.outcome === 'rejected') return base;
  if (r.outcome === 'network') return `${base}.${ui.cspHint(origin)}`;
  if (r.outcome === 'timeout') return `${base}: ${r.detail}; it may or may not have been applied (a retry of an applied one answers "already resolved").`;
  return r.detail || base;
}

const progressEl = $('#send-progress');
/** "140 approved, 7 rejected, 1 already resolved" */
// In one fixed order (approved first), whatever order the answers came in.
const countsText = (counts) => [...new Set([...Object.keys(OUTCOMES), ...Object.keys(counts)])].filter((k) => counts[k]).map((k) => `${counts[k]} ${outcomeName(k, counts[k])}`).join(', ');

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
  if (n) { saveNow(); ui.renderList(true); }
  return n;
}

confirmBtn.addEventListener('click', async () => {
  if (sending) return;
  // The list is built now, from the decisions as they are (not as they were when the box opened).
  renderConfirm();
  if (!planned) return;
  const plan = planned;
  const key = ui.apiKey();
  const total = plan.entries.length;
  sending = true;
  state.sending = true;
  submitBtn.disabled = true;
  confirmBtn.disabled = true;
  confirmBox.hidden = true;
  submitBtn.setAttribute('aria-expanded', 'false');
  const list = h('ul');
  const head = h('p', { class: 'status', id: 'send-summary' }, `Sending ${total} decision${total === 1 ? '' : 's'} to ${plan.origin}…`);
  const tail = h('p', { class: 'status' });
  replace(results, head, list, tail);
  results.dataset.state = 'sending';
  progressEl.hidden = false;
  progressEl.dataset.state = 'sending';
  progressEl.dataset.done = '0';
  progressEl.dataset.total = String(total);
  replace(progressEl, `Sending 0 of ${total}…`);
  renderDecisions();
  const counts = {};
  const retry = new Map(); // pending_id → body, for outcomes worth retrying
  const placed = new Array(total); // the outcome items by plan index
  try {
    await submitDecisions(plan.entries, {
      base: plan.base,
      key,
      timeoutMs: ui.fetchTimeoutMs(),
      onOutcome: (entry, r, done, k) => {
        counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
        if (!FINAL.has(r.outcome)) retry.set(entry.pending_id, entry.body);
        progressEl.dataset.done = String(done);
        setText(progressEl, `Sending ${done} of ${total}… (${countsText(counts)})`);
        const li = h('li', { dataset: { id: entry.pending_id, action: entry.body.action, outcome: r.outcome, status: String(r.status ?? ''), memoryId: r.memory_id ?? '' } },
          h('span', { class: 'mono' }, entry.pending_id), ' ', h('span', { class: 'muted' }, `“${snippet(entry.pending_id)}”`), ` ${entry.body.action}: `, outcomeText(entry, r, plan.origin));
        // In the order of the confirmation list, whatever order the answers come in.
        placed[k] = li;
        let after = null;
        for (let j = k + 1; j < placed.length && !after; j++) after = placed[j] ?? null;
        list.insertBefore(li, after);
      },
    });
    const summary = `Sent ${total} decision${total === 1 ? '' : 's'} to ${plan.origin}: ${countsText(counts)}.`;
    head.textContent = summary;
    progressEl.dataset.state = retry.size ? 'partial' : 'sent';
    replace(progressEl, summary, ' ', h('button', { type: 'button', class: 'link', id: 'send-details', on: { click: () => results.scrollIntoView({ block: 'start' }) } }, 'Each outcome'));
    // Resolved (or gone) items: their saved decisions are done with.
    const finished = plan.entries.map((e) => e.pending_id).filter((id) => !retry.has(id));
    for (const id of finished) state.decisions.delete(id);
    forgetSaved(finished);
    const wasCut = state.fetched?.truncated ? state.fetched.count : 0;
    tail.textContent = 'Refreshing the queue…';
    const ok = await ui.fetchQueue({ force: true });
    // A refreshed queue starts with the saved decisions (state.js): those that did not go through, for a retry.
    const kept = ok ? restoreDecisions(retry) : 0;
    replace(tail, ok ? `Queue refreshed from the server: ${state.rows.length} item${state.rows.length === 1 ? '' : 's'}.${kept ? ` ${kept} decision${kept === 1 ? '' : 's'} that did not go through ${kept === 1 ? 'is' : 'are'} kept for a retry.` : ''}` : 'The queue could not be refreshed: see the status line above.',
      ok && wasCut ? [` The queue was cut at ${wasCut} items before: this is the next batch. `,
        h('button', { type: 'button', id: 'fetch-next', on: { click: () => ui.fetchQueue() } }, 'Fetch the next batch again')] : null);
  } finally {
    sending = false;
    state.sending = false;
    submitBtn.disabled = false;
    results.dataset.state = 'done';
    renderDecisions();
  }
});

// ─── bulk decisions: the checked rows, after an in-page confirmation that states the count ───
const bulkBox = $('#bulk-box');
const bulkBtn = $('#bulk-confirm');
let bulkAction = null;
function openBulk(action) {
  const ids = [...state.checked].filter((id) => rowById(id)?.status === 'pending');
  if (!ids.length) return;
  bulkAction = action;
  const verb = action === 'approve' ? 'Approve' : 'Reject';
  const already = ids.filter((id) => state.decisions.has(id)).length;
  replace($('#bulk-text'), `${verb} ${ids.length} selected item${ids.length === 1 ? '' : 's'}?`,
    already ? ` ${already} of them already ${already === 1 ? 'has' : 'have'} a decision, which this replaces.` : '',
    ' Nothing is sent: they join the decisions below, to submit when you are ready.');
  bulkBtn.textContent = `${verb} ${ids.length} item${ids.length === 1 ? '' : 's'}`;
  bulkBtn.dataset.count = String(ids.length);
  bulkBtn.dataset.action = action;
  closeConfirms(bulkBox);
  bulkBox.hidden = false;
  for (const b of ['#bulk-approve', '#bulk-reject']) $(b).setAttribute('aria-expanded', 'true');
  $('#bulk-cancel').focus(); // the safe button: Enter twice decides nothing
}
function closeBulk() {
  bulkBox.hidden = true;
  bulkAction = null;
  for (const b of ['#bulk-approve', '#bulk-reject']) $(b).setAttribute('aria-expanded', 'false');
}
registerConfirm(bulkBox, () => { closeBulk(); ui.say('No decision was made.'); });
$('#bulk-approve').addEventListener('click', () => openBulk('approve'));
$('#bulk-reject').addEventListener('click', () => openBulk('reject'));
$('#bulk-cancel').addEventListener('click', () => { closeBulk(); ui.say('No decision was made.'); $('#queue-list').focus({ preventScroll: true }); });
bulkBtn.addEventListener('click', () => {
  if (!bulkAction) return;
  const action = bulkAction;
  const n = decideMany([...state.checked], action);
  closeBulk();
  state.checked = new Set();
  state.anchor = null;
  ui.renderList(true);
  ui.say(`${action === 'approve' ? 'Approved' : 'Rejected'} ${n} item${n === 1 ? '' : 's'} (not sent yet; u undoes).`);
  $('#queue-list').focus({ preventScroll: true }); // back to the keys
});

// ─── Discard saved decisions (this queue's scope), after an in-page confirmation ───
const discardBox = $('#discard-box');
$('#discard-saved').addEventListener('click', () => {
  const n = state.decisions.size + [...state.savedOther.values()].filter((d) => d.action).length;
  const scope = state.scope ? scopeLabel(state.scope.origin, state.scope.namespace) : 'this queue';
  replace($('#discard-text'), `Discard ${n} decision${n === 1 ? '' : 's'} and the notes saved for ${scope}? Nothing was sent; this cannot be undone.`);
  closeConfirms(discardBox);
  discardBox.hidden = false;
  $('#discard-saved').setAttribute('aria-expanded', 'true');
  $('#discard-cancel').focus();
});
const closeDiscard = () => { discardBox.hidden = true; $('#discard-saved').setAttribute('aria-expanded', 'false'); };
registerConfirm(discardBox, closeDiscard);
$('#discard-cancel').addEventListener('click', closeDiscard);
$('#discard-confirm').addEventListener('click', () => {
  closeDiscard();
  forgetSaved();
  ui.renderList(true);
  ui.say('Saved decisions and notes discarded.');
});

// Entry point (app.js puts it in state.js's `ui`).
export { renderDecisions };
