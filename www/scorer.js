// The top bar's scorer pill: starts loading the lians-score package (lians.load(),
// which loads it once for every caller) and shows whether it is ready.
import * as lians from './lians.js';
import { $ } from './dom.js';

const pkgStatus = $('#pkg-status');
lians.load().then((ok) => {
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

