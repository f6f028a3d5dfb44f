// CPU per request inside workerd, measured from outside (issue #15): start workerd on
// 127.0.0.1 with bench/workerd/config.capnp, warm up, then send a bounded number of
// sequential requests per endpoint and read the workerd process's CPU time
// (utime + stime from /proc/PID/stat) before and after. Reports CPU ms per request and
// requests per CPU-second (JSON lines on stdout). Linux only; the process is stopped by PID.
//   node bench/workerd-bench.mjs [--requests N] [--dist DIR] [--only verify] [--nodejs-compat]
// --dist DIR: another build's dist/ (e.g. main's, for a side-by-side row; a copy of the
// config pointing at DIR/web is written next to it); --only verify: the two verify rows.
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const at = process.argv.indexOf("--requests");
const N = at > 0 ? Number(process.argv[at + 1]) : 60;
const opt = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
let config = path.join(ROOT, "bench/workerd/config.capnp");
if (opt("--dist") || process.argv.includes("--nodejs-compat")) {
  // The same config, its wasm and glue from DIR/web (embed paths are relative to the config);
  // --nodejs-compat: with workerd's nodejs_compat flag (node:crypto: the host's SHA-256, js/limits.mjs hostSha256).
  const web = path.relative(path.join(ROOT, "bench/workerd"), path.join(path.resolve(opt("--dist") ?? "dist"), "web"));
  let text = readFileSync(config, "utf8").replaceAll('"../../dist/web/', `"${web}/`);
  if (process.argv.includes("--nodejs-compat")) text = text.replace('compatibilityDate = "2026-01-01",', '$&\n  compatibilityFlags = ["nodejs_compat"],');
  config = path.join(ROOT, "bench/workerd", `.config-${process.pid}.capnp`);
  writeFileSync(config, text);
  process.on("exit", () => rmSync(config, { force: true }));
}
const TICK = 100; // USER_HZ: /proc times are in clock ticks of 10 ms

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

function cpuMs(pid) {
  // Fields after the ")" of the command name: utime is field 14, stime 15 (1-based).
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICK;
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const child = spawn(path.join(ROOT, "node_modules/.bin/workerd"), ["serve", config, "--socket-addr", `http=127.0.0.1:${port}`], { stdio: ["ignore", "pipe", "pipe"] });
let log = "";
child.stdout.on("data", (d) => (log += d));
child.stderr.on("data", (d) => (log += d));
try {
  const deadline = Date.now() + 60000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited: ${log}`);
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`workerd did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // The node_modules/.bin/workerd shim may be a wrapper: measure the process that listens.
  const pid = child.pid;
  for (const [name, route, check] of [
    ["workerd_verify_200", "/verify", (r) => r.valid === true],
    ["workerd_verify_200_bytes", "/verify-bytes", (r) => r.valid === true],
    // Where a request's CPU goes: the request alone, and five verifications per request.
    ["workerd_verify_noop", "/noop", (r) => r.valid === true],
    ["workerd_verify_200_bytes_x5", "/verify-bytes?n=5", (r) => r.valid === true],
    ["workerd_verify_encode_string", "/encode", (r) => r.valid === true],
    ["workerd_verify_200_decoded", "/verify-decoded", (r) => r.valid === true],
    ["workerd_score_1600", "/score", (r) => r.count === 1600 && r.errors === 0],
  ].filter(([name]) => !opt("--only") || name.includes(opt("--only")))) {
    for (let i = 0; i < 10; i++) await (await fetch(base + route)).json(); // warm-up (V8 tiers up)
    const c0 = cpuMs(pid);
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const r = await (await fetch(base + route)).json();
      if (!check(r)) throw new Error(`${route}: ${JSON.stringify(r)}`);
    }
    const cpu = cpuMs(pid) - c0;
    const wall = performance.now() - t0;
    const row = { side: "workerd", case: name, requests: N, cpu_ms_per_request: cpu / N, requests_per_cpu_second: (N * 1000) / cpu, wall_ms_per_request: wall / N };
    console.log(JSON.stringify(row));
    console.error(`workerd ${route.padEnd(14)} ${row.cpu_ms_per_request.toFixed(2)} ms CPU/request (${row.requests_per_cpu_second.toFixed(0)} requests per CPU-second, ${N} requests, wall ${row.wall_ms_per_request.toFixed(1)} ms)`);
  }
} finally {
  child.kill("SIGTERM");
  await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
}
