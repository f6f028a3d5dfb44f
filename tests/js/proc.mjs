// Child processes and local servers for the tests and scripts that drive real tools (the packaging
// matrix, the examples run, workerd): one copy of run/start/freePort/waitFor/check.
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

/** Run a command to its end; resolves { code, out } (stdout and stderr interleaved). A non-zero exit
 *  rejects with the output's tail, unless `allowFail`. Killed after `timeout` ms. */
export function run(cmd, args, { cwd, env = process.env, timeout = 300_000, allowFail = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeout);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0 || allowFail) resolve({ code, out });
      else reject(new Error(`${path.basename(cmd)} ${args.join(" ")} exited ${code ?? signal}:\n${out.slice(-4000)}`));
    });
  });
}

/** Start a long-running process (a server); returns { child, output(), stop() }. */
export function start(cmd, args, { cwd, env = process.env } = {}) {
  const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  return {
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", resolve);
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Poll `url` until it answers (`ok(res)`, default: any status below 500) or `ms` pass; fails early if
 *  `proc` (from start()) exits. Resolves with the response. */
export async function waitFor(url, proc, { ms = 60_000, ok = (res) => res.status < 500 } = {}) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`server exited (${proc.child.exitCode}):\n${proc.output().slice(-4000)}`);
    try {
      const res = await fetch(url);
      if (ok(res)) return res;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no answer from ${url} in ${ms} ms:\n${proc.output().slice(-4000)}`);
}

export function check(cond, message) {
  if (!cond) throw new Error(message);
}
