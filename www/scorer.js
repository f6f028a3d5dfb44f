// Loads the lians-score package once and shows its state in the top bar.
import * as lians from './lians.js';
import { $ } from './dom.js';

const pkgStatus = $('#pkg-status');
export const pkgReady = lians.load().then((ok) => {
  if (ok) {
    pkgStatus.textContent = 'scorer ready';
    pkgStatus.className = 'pill ok';
  } else {
    const e = lians.errorInfo(lians.lastLoadError());
    pkgStatus.textContent = 'scorer unavailable';
    pkgStatus.className = 'pill bad';
    pkgStatus.title = `${e.code}: ${e.message}`;
  }
  return ok;
});

