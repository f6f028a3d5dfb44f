// Decisions: the export (JSON and curl) of the reviewer's approve/reject choices.
import { state, ui, safeOrigin } from './state.js';
import { $, download } from './dom.js';
import { buildDecisionExport } from './queue.js';

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
}
decFormat.addEventListener('input', renderDecisions);
$('#dec-download-json').addEventListener('click', () => download('lians-review-decisions.json', currentExport().json));
$('#dec-download-sh').addEventListener('click', () => download('lians-review-decisions.sh', currentExport().curl, 'text/x-shellscript'));
$('#dec-copy').addEventListener('click', async () => {
  try { await navigator.clipboard.writeText(decPreview.value); ui.say('Copied to the clipboard.'); } catch { decPreview.select(); ui.say('Select-all done: press Ctrl+C to copy.'); }
});

ui.renderDecisions = renderDecisions;
