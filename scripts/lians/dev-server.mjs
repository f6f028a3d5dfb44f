#!/usr/bin/env node
// A real Lians server for trying the examples: starts the PyPI reference
// (lians-sdk 0.5.0, installed into .lians-venv by scripts/lians/venv.sh; needs
// CPython 3.12) on a free 127.0.0.1 port with a fresh SQLite database
// (scripts/lians/server.py), creates an API key, optionally writes a few
// memories, and prints shell lines for the examples to use:
//
//   eval "$(node scripts/lians/dev-server.mjs start --seed)"   # sets LIANS_URL, LIANS_API_KEY, LIANS_AGENT_ID
//   node scripts/lians/dev-server.mjs stop                     # stops it (by its pid)
//
//   start [--seed] [--scopes read,write,admin] [--namespace NS]
//     --seed   write three short memories for the agent "example-agent" first
//   stop     stop the server this script started
//   status   print the lines again if it is running
//
// The server keeps running after this script exits (one at a time, per clone);
// its state (URL, pid, admin secret: test-only) is in test-output/lians-dev/.
// Everything it stores is in a temporary directory removed when it stops.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DIR = path.join(ROOT, "test-output/lians-dev");
const STATE = path.join(DIR, "state.json");
const SESSION = path.join(DIR, "session.json");
const AGENT = "example-agent";
const SEED = [
  "The quarterly planning review moved to Thursday at 15:00.",
  "The planning review needs the updated revenue forecast.",
  "Design reviews for the mobile app happen every Tuesday.",
];

const [cmd = "", ...rest] = process.argv.slice(2);
const flag = (name) => rest.includes(name);
const option = (name, fallback) => {
  const at = rest.indexOf(name);
  return at >= 0 && rest[at + 1] ? rest[at + 1] : fallback;
};
const fail = (message, code = 1) => {
  process.stderr.write(`dev-server: ${message}\n`);
  process.exit(code);
};
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
const lines = (s) =>
  [
    `export LIANS_URL=${quote(s.url)}`,
    `export LIANS_API_KEY=${quote(s.key)}`,
    `export LIANS_AGENT_ID=${quote(AGENT)}`,
    `# Lians server (lians-sdk 0.5.0) at ${s.url}, pid ${s.pid}; stop it with: node scripts/lians/dev-server.mjs stop`,
  ].join("\n");
const running = () => {
  if (!existsSync(SESSION)) return null;
  const s = JSON.parse(readFileSync(SESSION, "utf8"));
  return alive(s.pid) ? s : null;
};

async function call(url, pathname, { method = "GET", headers = {}, body } = {}) {
  const res = await fetch(url + pathname, {
    method,
    headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: (() => { try { return JSON.parse(text); } catch { return undefined; } })() };
}

async function start() {
  const already = running();
  if (already) {
    process.stdout.write(`${lines(already)}\n`);
    return;
  }
  const venv = spawnSync("bash", [path.join(ROOT, "scripts/lians/venv.sh")], { encoding: "utf8" });
  if (venv.status !== 0) {
    fail(
      `the Lians server needs CPython 3.12 and the lians-sdk venv (scripts/lians/venv.sh exited ${venv.status}):\n` +
        `${(venv.stderr || venv.stdout).trim()}`,
      venv.status === 3 ? 3 : 1,
    );
  }
  const python = venv.stdout.trim().split("\n").pop();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const log = openSync(path.join(DIR, "server.log"), "w");
  const child = spawn(python, [path.join(ROOT, "scripts/lians/server.py"), "--state-file", STATE, "--cors", option("--cors", "*")], {
    detached: true,
    stdio: ["ignore", log, log],
  });
  child.unref();
  const deadline = Date.now() + 60_000;
  let state;
  for (;;) {
    if (!alive(child.pid)) fail(`the server exited before it was ready; see ${path.relative(ROOT, path.join(DIR, "server.log"))}`);
    if (Date.now() > deadline) {
      process.kill(child.pid, "SIGTERM");
      fail("the server was not ready within 60 s");
    }
    if (!state && existsSync(STATE)) {
      try {
        state = JSON.parse(readFileSync(STATE, "utf8"));
      } catch {
        /* being written */
      }
    }
    if (state) {
      try {
        if ((await fetch(`${state.url}/livez`, { signal: AbortSignal.timeout(2000) })).ok) break;
      } catch {
        /* not listening yet */
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const scopes = option("--scopes", "read,write,admin").split(",");
  const made = await call(state.url, "/v1/admin/api-keys", {
    method: "POST",
    headers: { "X-Admin-Secret": state.admin_secret },
    body: { namespace: option("--namespace", "examples"), scopes },
  });
  if (made.status !== 201 || !made.json?.key) {
    process.kill(child.pid, "SIGTERM");
    fail(`creating an API key failed: ${made.status} ${made.text.slice(0, 300)}`);
  }
  const session = { url: state.url, pid: child.pid, key: made.json.key };
  if (flag("--seed")) {
    for (const content of SEED) {
      const r = await call(state.url, "/v1/memories", {
        method: "POST",
        headers: { "X-API-Key": session.key },
        body: { agent_id: AGENT, content, source: "user_provided", event_time: new Date().toISOString() },
      });
      if (r.status !== 200 && r.status !== 201) {
        process.kill(child.pid, "SIGTERM");
        fail(`writing a memory failed: ${r.status} ${r.text.slice(0, 300)}`);
      }
    }
  }
  writeFileSync(SESSION, `${JSON.stringify(session)}\n`);
  process.stdout.write(`${lines(session)}\n`);
}

async function stop() {
  const s = existsSync(SESSION) ? JSON.parse(readFileSync(SESSION, "utf8")) : null;
  if (!s || !alive(s.pid)) {
    rmSync(DIR, { recursive: true, force: true });
    process.stderr.write("dev-server: no server running\n");
    return;
  }
  process.kill(s.pid, "SIGTERM");
  const deadline = Date.now() + 10_000;
  while (alive(s.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive(s.pid)) process.kill(s.pid, "SIGKILL");
  rmSync(DIR, { recursive: true, force: true });
  process.stderr.write(`dev-server: stopped the Lians server (pid ${s.pid})\n`);
}

if (cmd === "start") await start();
else if (cmd === "stop") await stop();
else if (cmd === "status") {
  const s = running();
  if (!s) fail("no server running (start one: node scripts/lians/dev-server.mjs start)");
  process.stdout.write(`${lines(s)}\n`);
} else fail("usage: node scripts/lians/dev-server.mjs start [--seed] [--scopes a,b] [--namespace NS] | stop | status", 2);
