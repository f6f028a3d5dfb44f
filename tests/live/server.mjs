// A real Lians server (PyPI lians-sdk==0.5.0) for the live tests.
//
//   import { liansAvailable, startLians } from './server.mjs';
//   const avail = await liansAvailable();        // {python} or {skip: reason}; throws under CI=true
//   test('...', { skip: avail.skip }, async () => {
//     const lians = await startLians();          // fresh DB, signing key, secrets, free port
//     const key = await lians.makeKey('ns-1');   // an API key with read, write, admin scopes
//     const r = await lians.call('POST', '/v1/memories', { key, body: {...} }); // {status, text, json}
//     await lians.stop();
//   });
//
// scripts/lians/venv.sh installs the server into .lians-venv/ (idempotent, ~1 s
// when present); scripts/lians/server.py starts it. Without CPython 3.12 the
// tests skip with a clear message, except under CI=true (or LIANS_LIVE_REQUIRE=1),
// where that is a failure.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REQUIRED = process.env.CI === 'true' || process.env.LIANS_LIVE_REQUIRE === '1';

let availability;

/**
 * Make sure the venv exists (runs scripts/lians/venv.sh once per process).
 * Resolves {python, skip: false, installMs} or {skip: reason}; under CI=true a
 * missing CPython 3.12 throws instead of skipping.
 */
export function liansAvailable() {
  availability ??= (async () => {
    const t0 = performance.now();
    const r = spawnSync('bash', [join(REPO, 'scripts', 'lians', 'venv.sh')], { encoding: 'utf8' });
    const installMs = Math.round(performance.now() - t0);
    if (r.status === 0) {
      const python = r.stdout.trim().split('\n').pop();
      process.stderr.write(`live: Lians venv ready in ${installMs} ms (${python})\n`);
      return { python, skip: false, installMs };
    }
    const why = `scripts/lians/venv.sh exited ${r.status}: ${(r.stderr || r.stdout).trim()}`;
    if (r.status === 3 && !REQUIRED) {
      const reason = `no CPython 3.12: live Lians tests skipped (${why})`;
      process.stderr.write(`live: ${reason}\n`);
      return { skip: reason };
    }
    throw new Error(`live Lians server unavailable${REQUIRED ? ' (required under CI)' : ''}: ${why}`);
  })();
  return availability;
}

/**
 * Start a fresh server; resolves once GET /livez answers.
 * @param {{cors?: string, admissionMode?: string, keyId?: string, timeoutMs?: number, dataDir?: string, port?: number}} [opts]
 *   dataDir: keep the database and secrets there (a later start with it serves the same data); port: this port
 * @returns {Promise<{url: string, pid: number, adminSecret: string, publicKey: string, keyId: string,
 *   startMs: number, makeKey: (ns: string, scopes?: string[]) => Promise<string>,
 *   call: (method: string, path: string, o?: {key?: string, body?: any, raw?: string, headers?: object}) =>
 *     Promise<{status: number, text: string, json: any, headers: Headers}>,
 *   log: () => string, stop: () => Promise<void>}>}
 */
export async function startLians(opts = {}) {
  const avail = await liansAvailable();
  if (avail.skip) throw new Error(avail.skip);
  const dir = mkdtempSync(join(tmpdir(), 'lians-live-'));
  const stateFile = join(dir, 'state.json');
  const args = [join(REPO, 'scripts', 'lians', 'server.py'), '--state-file', stateFile,
    '--cors', opts.cors ?? '*', '--admission-mode', opts.admissionMode ?? 'enforce',
    '--key-id', opts.keyId ?? 'test-local', ...(opts.dataDir ? ['--data-dir', opts.dataDir] : []),
    ...(opts.port ? ['--port', String(opts.port)] : [])];
  const t0 = performance.now();
  const child = spawn(avail.python, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d) => { log += d; if (log.length > 400_000) log = log.slice(-200_000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((r) => child.once('exit', (code, sig) => r({ code, sig })));
  let done = false;
  exited.then(() => { done = true; });

  const stop = async () => {
    if (!done) { child.kill('SIGTERM'); }
    const t = setTimeout(() => { if (!done) child.kill('SIGKILL'); }, 10_000);
    await exited;
    clearTimeout(t);
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let state;
  try {
    for (;;) {
      if (done) throw new Error(`Lians server exited before it was ready:\n${log.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`Lians server not ready in time:\n${log.slice(-4000)}`);
      if (!state) {
        try { state = JSON.parse(readFileSync(stateFile, 'utf8')); } catch { /* not yet */ }
      }
      if (state) {
        try {
          const r = await fetch(`${state.url}/livez`, { signal: AbortSignal.timeout(2000) });
          if (r.ok) break;
        } catch { /* not listening yet */ }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  const startMs = Math.round(performance.now() - t0);
  if (state.pid !== child.pid) { await stop(); throw new Error(`state pid ${state.pid} is not the child ${child.pid}`); }

  const call = async (method, path, { key, body, raw, headers = {} } = {}) => {
    const h = { ...headers };
    if (key) h['X-API-Key'] = key;
    let payload;
    if (raw !== undefined) payload = raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) h['Content-Type'] = 'application/json';
    const res = await fetch(state.url + path, { method, headers: h, body: payload });
    const text = await res.text();
    let json;
    try { json = JSON.parse(text); } catch { json = undefined; }
    return { status: res.status, text, json, headers: res.headers };
  };

  const makeKey = async (namespace, scopes = ['read', 'write', 'admin']) => {
    const r = await call('POST', '/v1/admin/api-keys', { headers: { 'X-Admin-Secret': state.admin_secret }, body: { namespace, scopes } });
    if (r.status !== 201 || !r.json?.key) throw new Error(`creating an API key failed: ${r.status} ${r.text}`);
    return r.json.key;
  };

  process.stderr.write(`live: Lians server at ${state.url} (pid ${state.pid}) ready in ${startMs} ms\n`);
  return {
    url: state.url,
    pid: state.pid,
    adminSecret: state.admin_secret,
    publicKey: state.public_key_b64,
    keyId: state.key_id,
    dbPath: state.db_path,
    startMs,
    makeKey,
    call,
    log: () => log,
    stop,
  };
}
