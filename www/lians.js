// The one module that talks to the lians-score package.
//
// Everything else in www/ calls these functions and never the package
// directly, so a change in the package's JS surface is a change here only.
// Used by the page (the views app.js imports) and by the Web Worker (worker.js).
//
// The package's browser build is served at ./lians-pkg.js: a module whose
// default export is the package's namespace (scripts/serve.mjs generates it;
// a static deployment writes that one-line module itself: README.md,
// "Deploying the static files elsewhere").

const PKG_URL = new URL('./lians-pkg.js', import.meta.url).href;

let pkg = null;
let loading = null;
let loadError = null;

/** Load and initialise the package once. Resolves to true, or false with lastLoadError() set. */
export function load() {
  if (!loading) {
    loading = (async () => {
      try {
        const ns = await import(PKG_URL);
        const m = ns.default && typeof ns.default === 'object' ? ns.default : ns;
        const init = typeof m.init === 'function' ? m.init : (typeof m.default === 'function' ? m.default : null);
        // The dashboard audits recall responses (audit-view.js): the full build
        // (a plain init() of the browser entry loads the lean one, without auditRecall).
        if (init) await init({ audit: true });
        for (const name of ['scoreMemory', 'rescoreReviewItem', 'verifyRecallReceipt', 'verifyContextReceipt', 'verifyEvidencePack']) {
          if (typeof m[name] !== 'function') throw new Error(`the package has no ${name}()`);
        }
        pkg = m;
        return true;
      } catch (e) {
        loadError = e;
        return false;
      }
    })();
  }
  return loading;
}

export const isLoaded = () => pkg !== null;
export const lastLoadError = () => loadError;

function need() {
  if (!pkg) throw Object.assign(new Error('the lians-score package is not loaded'), { code: 'package_unavailable' });
  return pkg;
}

/** {code, path, message} of anything thrown by the package (or by us). */
export function errorInfo(e) {
  if (e && typeof e === 'object') {
    return { code: String(e.code ?? e.name ?? 'error'), path: e.path == null ? '' : String(e.path), message: String(e.message ?? e) };
  }
  return { code: 'error', path: '', message: String(e) };
}

// The exact JSON text decides the scores (key order, `1` vs `1.0`), so when
// the item's text is there it is the only input: if the package rejects it,
// that error is the result (shown on the item), never a silent retry with the
// parsed object, which would score different inputs. The object is used only
// when no text exists.
function textOrObject(fn, text, obj) {
  return fn(typeof text === 'string' ? text : obj);
}

/**
 * Re-score one review-queue item (PendingAdmissionOut, optionally with
 * `importance` and `metadata`). Returns {held, approved, trusted_review, drift, inputs}.
 */
export function rescoreItem(itemText, itemObj) {
  const m = need();
  const r = textOrObject((x) => m.rescoreReviewItem(x), itemText, itemObj);
  return { held: r.held ?? null, approved: r.approved ?? null, trusted_review: r.trusted_review ?? null, drift: r.drift ?? null, inputs: r.inputs ?? null };
}

export function scoreMemory(input) {
  const m = need();
  return m.scoreMemory(input);
}

export function detectRiskTags(content) { return need().detectRiskTags(content); }

/**
 * Where the admission detectors match in `content`: [{tag, start, end, text}]
 * (UTF-16 offsets), or null when this build has no riskSpans() (the page then
 * shows the content unmarked) or it refused the input.
 */
export function riskSpans(content) {
  if (!pkg || typeof pkg.riskSpans !== 'function') return null;
  try { return pkg.riskSpans(content); } catch { return null; }
}
export function evaluateAdmission(args) { return need().evaluateAdmission(args); }
export function canonicalJson(text) { return need().canonicalJson(text); }
export function sha256Hex(text) { return need().sha256Hex(text); }

/** kind: 'recall' | 'context'. Returns the package's report object. */
export function verifyReceipt(kind, wireText, given) {
  const m = need();
  const g = given && Object.keys(given).length ? given : undefined;
  return kind === 'context' ? m.verifyContextReceipt(wireText, g) : m.verifyRecallReceipt(wireText, g);
}

/** Recall audit: re-derive the server's scores from a raw recall body. `query` undefined: the body's own; `request` (optional): what the client sent. */
export function auditRecall(wireText, query, request) {
  const m = need();
  if (typeof m.auditRecall !== 'function') throw Object.assign(new Error('this lians-score build has no auditRecall()'), { code: 'package_unavailable' });
  const options = {};
  if (query !== undefined) options.query = query;
  if (request !== undefined) options.request = request;
  return m.auditRecall(wireText, Object.keys(options).length ? options : undefined);
}

// The consistency ledger of this browser (IndexedDB "lians-ledger:dashboard"): every valid answer verified
// in the Verify tab is recorded. A pasted answer carries no request time, so the clock checks (I7, I15)
// are off here (an unbounded skew); every other invariant is checked across the answers verified so far.
let ledger = null;
export async function recordVerified(kind, wireText, query, report) {
  const m = need();
  if (typeof m.createLedger !== 'function' || typeof indexedDB === 'undefined') return null;
  ledger ??= m.createLedger({ name: 'dashboard', skewMs: Number.MAX_SAFE_INTEGER / 4 });
  const now = new Date().toISOString().replace('Z', '+00:00');
  return (await ledger).record({
    client: 'dashboard', t_sent: now, t_recv: now,
    request: { method: 'POST', url: `https://dashboard.invalid/v1/${kind === 'context' ? 'context' : 'recall'}`, body: JSON.stringify({ query: query ?? '' }) },
    response: { status: 200, body: wireText },
  }, { verification: report });
}

export function verifyEvidencePack(wireText, opts) {
  return need().verifyEvidencePack(wireText, opts ?? {});
}
