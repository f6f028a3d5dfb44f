// Reading a chosen or dropped file as text (shared by the queue, verify and pack panels).
import { ui } from './state.js';

/** Read a File (≤ 64 MiB) and call onText(text, name); errors go to the status line. */
export function readFileInto(file, onText) {
  if (!file) return;
  if (file.size > 64 * 1024 * 1024) { ui.say(`${file.name} is larger than 64 MiB; not loaded.`, true); return; }
  file.text().then((t) => onText(t, file.name), (e) => ui.say(`Could not read ${file.name}: ${e.message}`, true));
}

/** Make `zone` accept a dropped file or dropped text. */
export function makeDropZone(zone, onText) {
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('dragover'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragover'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('dragover');
    const f = e.dataTransfer?.files?.[0];
    if (f) readFileInto(f, onText);
    else {
      const t = e.dataTransfer?.getData('text/plain');
      if (t) onText(t, 'dropped text');
    }
  });
}
