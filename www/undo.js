// The Undo toast (#undo-toast): after each decision, single or bulk, it names
// what was done and offers Undo (also the keys u and z, list.js). Undo puts
// back the decisions the items had before and selects the item it concerns.
import { state, ui, undoLast, rowById } from './state.js';
import { $, setText } from './dom.js';
import { snippetOf } from './queue.js';
import { showControls } from './controls.js';

const toast = $('#undo-toast');
const text = $('#undo-text');
const VERB = { approve: 'Approved', reject: 'Rejected', clear: 'Cleared the decision of' };
let timer = 0;

function hideLater(ms = 8000) {
  clearTimeout(timer);
  timer = setTimeout(() => { toast.hidden = true; }, ms);
}

function describe(entry) {
  if (entry.count === 1) {
    const id = entry.changes[0][0];
    return `${VERB[entry.what] ?? entry.what} “${showControls(snippetOf(rowById(id)?.obj?.content, 48))}”`;
  }
  return `${VERB[entry.what] ?? entry.what} ${entry.count} items`;
}

/** A decision was made: say which, with Undo. */
export function showUndo(entry) {
  setText(text, `${describe(entry)} (not sent yet).`);
  toast.dataset.what = entry.what;
  toast.dataset.count = String(entry.count);
  if (toast.hidden) toast.hidden = false;
  hideLater();
}

/** Hide the toast (a confirmation opened where it would sit). */
export function hideUndo() { clearTimeout(timer); toast.hidden = true; }

/** Undo the last decision; the toast says what was undone. */
export function undo() {
  if (state.sending) { ui.say('Decisions are being sent: wait for the submit to finish.', true); return; }
  const entry = undoLast();
  if (!entry) { setText(text, 'Nothing to undo.'); toast.dataset.what = 'none'; toast.hidden = false; hideLater(3000); return; }
  const what = entry.count === 1 ? `“${showControls(snippetOf(rowById(entry.changes[0][0])?.obj?.content, 48))}”` : `${entry.count} items`;
  setText(text, `Undone: ${what} ${entry.count === 1 ? 'is' : 'are'} as before.`);
  toast.dataset.what = 'undone';
  toast.dataset.count = String(entry.count);
  toast.hidden = false;
  hideLater(4000);
  if (entry.select != null && rowById(entry.select)) ui.selectItem(entry.select);
}

$('#undo-btn').addEventListener('click', () => { undo(); $('#queue-list').focus({ preventScroll: true }); });
