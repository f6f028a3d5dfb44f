#!/usr/bin/env node
// Static server for the review-queue dashboard (`npm start`).
//
//   PORT=8080 node scripts/serve.mjs
//
// Serves www/ and the package's browser build on 127.0.0.1 only, with a
// strict Content-Security-Policy header on every response. /sample/ is
// www/sample (the embedded sample queue) and then tests/data/samples (the
// captured server responses the page links to: served from the repo's test
// data, not copied).
//
// Environment:
//   PORT              port to listen on (default 8080; 0 picks a free port)
//   LIANS_API_URL     optional Lians base URL; its origin is added to the CSP
//                     connect-src (header and the page's meta tag) and
//                     pre-filled in the "Fetch from Lians" form
//   LIANS_PKG_ROOT    optional folder holding the built package (package.json,
//                     js/, dist/); default: this repository
//   LIANS_PKG_ENTRY   optional path (relative to that folder) of the package's
//                     browser entry module, e.g. js/web.mjs; found from
//                     package.json otherwise (see findEntry)
//
// The page imports ./lians-pkg.js; this server generates that module as a
// re-export of the browser entry, served from /lib/<path under the repo>.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WWW = join(REPO, 'www');
// Where /lib/ is served from: the package (its package.json, js/ and dist/).
const ROOT = process.env.LIANS_PKG_ROOT ? resolve(process.env.LIANS_PKG_ROOT) : REPO;
// Only these top-level folders of the repo are reachable under /lib/.
const LIB_DIRS = ['pkg', 'dist', 'js'];
// What /sample/<name> reads, first match wins: the generated sample queue, then the captured samples.
export const SAMPLE_DIRS = [join(WWW, 'sample'), join(REPO, 'tests', 'data', 'samples')];

export const BASE_CSP = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'style-src': ["'self'"],
  'connect-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/** Origin of a configured API URL, or throws with a clear message. */
export function apiOrigin(url) {
  if (!url) return '';
  let u;
  try { u = new URL(url); } catch { throw new Error(`LIANS_API_URL is not a URL: ${url}`); }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`LIANS_API_URL must be http(s): ${url}`);
  return u.origin;
}

export function cspString({ api = '', meta = false } = {}) {
  const parts = [];
  for (const [k, v] of Object.entries(BASE_CSP)) {
    if (meta && k === 'frame-ancestors') continue; // ignored (with a console warning) in <meta>
    const vals = k === 'connect-src' && api ? [...v, api] : v;
    parts.push(`${k} ${vals.join(' ')}`);
  }
  return parts.join('; ');
}

/** Find the package's browser entry (path relative to ROOT), or null. */
export function findEntry() {
  if (process.env.LIANS_PKG_ENTRY) return process.env.LIANS_PKG_ENTRY.replace(/^\.?\//, '');
  // 1. package.json exports: a "browser" condition or a ./web subpath.
  try {
    const pj = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const pick = (x) => {
      if (typeof x === 'string') return x;
      if (x && typeof x === 'object') return pick(x.browser) ?? pick(x.import) ?? pick(x.default) ?? null;
      return null;
    };
    const ex = pj.exports;
    const cands = [];
    if (ex && typeof ex === 'object') {
      if (ex['./web']) cands.push(pick(ex['./web']));
      if (ex['./browser']) cands.push(pick(ex['./browser']));
      const dot = ex['.'] ?? ex;
      if (dot && typeof dot === 'object' && dot.browser) cands.push(pick(dot.browser));
    }
    if (typeof pj.browser === 'string') cands.push(pj.browser);
    for (const c of cands) {
      if (!c) continue;
      const rel = c.replace(/^\.\//, '');
      if (LIB_DIRS.includes(rel.split('/')[0]) && existsSync(join(ROOT, rel))) return rel;
    }
  } catch { /* no package.json yet */ }
  // 2. Usual wasm-pack --target web output locations.
  for (const rel of ['js/web.mjs', 'pkg/web/lians_score.js', 'dist/web/lians_score.js', 'pkg-web/lians_score.js', 'pkg/lians_score.js', 'js/browser.mjs', 'js/browser.js']) {
    if (LIB_DIRS.includes(rel.split('/')[0]) && existsSync(join(ROOT, rel))) return rel;
  }
  return null;
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.b64': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.d.ts': 'text/plain; charset=utf-8',
};

function securityHeaders(api) {
  return {
    'Content-Security-Policy': cspString({ api }),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cache-Control': 'no-cache',
  };
}

/** `base/rel` if it stays inside `base`, else null. */
function inside(base, rel) {
  const full = resolve(base, rel);
  return full !== base && full.startsWith(base + sep) ? full : null;
}

/** The files a URL path may name, in order (the first that exists is served); [] if none is allowed. */
function resolvePath(urlPath) {
  let p;
  try { p = decodeURIComponent(urlPath); } catch { return []; }
  if (p.includes('\0') || p.includes('\\')) return [];
  if (p.startsWith('/sample/')) return SAMPLE_DIRS.map((d) => inside(d, p.slice(8))).filter(Boolean);
  let base;
  let rel;
  if (p.startsWith('/lib/')) {
    rel = p.slice(5);
    const top = rel.split('/')[0];
    if (!LIB_DIRS.includes(top)) return [];
    base = ROOT;
  } else {
    base = WWW;
    rel = p === '/' ? 'index.html' : p.slice(1);
  }
  const full = inside(base, rel);
  if (!full) return [];
  if (base === ROOT && !LIB_DIRS.some((d) => full.startsWith(join(ROOT, d) + sep))) return [];
  return [full];
}

/** The file /sample/<name> serves (for tests that compare with it), or null. */
export function sampleFile(name) {
  return resolvePath(`/sample/${name}`).find((f) => existsSync(f)) ?? null;
}

export function createDashboardServer({ api = '', entry = findEntry() } = {}) {
  const headers = securityHeaders(api);
  return createServer(async (req, res) => {
    const send = (status, body, type = 'text/plain; charset=utf-8', extra = {}) => {
      res.writeHead(status, { ...headers, 'Content-Type': type, ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'Method not allowed\n', undefined, { Allow: 'GET, HEAD' });
    let url;
    try { url = new URL(req.url, 'http://127.0.0.1'); } catch { return send(400, 'Bad request\n'); }
    const path = url.pathname;

    if (path === '/lians-pkg.js') {
      const e = entry ?? findEntry();
      const body = e
        ? `// Generated by scripts/serve.mjs: the lians-score browser build.\nimport * as pkg from '/lib/${e}';\nexport default pkg;\n`
        : `// Generated by scripts/serve.mjs: no browser build found (run \`npm run build\`).\nthrow new Error('lians-score browser build not found: run npm run build');\n`;
      return send(200, body, TYPES['.js']);
    }

    let file = null;
    for (const f of resolvePath(path)) {
      try { if ((await stat(f)).isFile()) { file = f; break; } } catch { /* next candidate */ }
    }
    if (!file) return send(404, 'Not found\n');
    let body = await readFile(file);
    const name = file.toLowerCase();
    const type = name.endsWith('.d.ts') ? TYPES['.d.ts'] : TYPES[extname(name)] ?? 'application/octet-stream';
    if (file === join(WWW, 'index.html')) {
      let html = body.toString('utf8');
      html = html.replace(/(<meta http-equiv="Content-Security-Policy" content=")[^"]*(")/, `$1${cspString({ api, meta: true })}$2`);
      if (api) html = html.replace('<meta name="lians-api-url" content="">', `<meta name="lians-api-url" content="${api}">`);
      body = html;
    }
    return send(200, body, type);
  });
}

async function main() {
  const port = process.env.PORT === undefined || process.env.PORT === '' ? 8080 : Number(process.env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be an integer 0-65535, got ${JSON.stringify(process.env.PORT)}`);
    process.exit(2);
  }
  let api;
  try { api = apiOrigin(process.env.LIANS_API_URL || ''); } catch (e) { console.error(e.message); process.exit(2); }
  const entry = findEntry();
  const server = createDashboardServer({ api, entry });
  server.on('error', (e) => { console.error(`serve: ${e.message}`); process.exit(1); });
  server.listen(port, '127.0.0.1', () => {
    const { port: p } = server.address();
    console.log(`lians-score dashboard: http://127.0.0.1:${p}/`);
    console.log(entry ? `package browser build: ${entry}` : 'package browser build: NOT FOUND (run `npm run build`); the page shows stored scores only');
    if (api) console.log(`connect-src also allows ${api}`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
