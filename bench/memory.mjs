// Peak WebAssembly memory per body byte (issue #32): for recall, context and
// Evidence Pack bodies of 1, 4, 16 and 32 MiB, real-shaped and hostile
// (bench/memory-bodies.mjs), verified once each by a fresh instance of the
// browser build (dist/web through js/web.mjs, the entry workerd and edge-light
// use), the body given as UTF-8 bytes and as a string. Wasm memory never
// shrinks, so its size after the call is the call's peak; the ratio is
// (after − before) / body bytes.
//
//   node bench/memory.mjs [--sizes 1,4,16,32] [--kinds recall,context,pack] [--shapes a,b] [--workerd [--no-node]] [--md]
//                         [--wasm FILE]   (Node side: another build of dist/web's .wasm, e.g. main's)
//
// --workerd runs the same measurements inside workerd (bench/workerd/memory.capnp,
// the workerd entry js/workerd.mjs; the body is POSTed and read with
// request.arrayBuffer()). JSON lines on stdout, a table on stderr (--md: Markdown).
// Benchmarks are not tests: nothing here fails on a number.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SHAPES, bodyText } from "./memory-bodies.mjs";
import { measure } from "./memory-measure.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MiB = 1 << 20;
const arg = (name, dflt) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : dflt;
};
const sizes = arg("--sizes", "1,4,16,32").split(",").map(Number);
const kinds = arg("--kinds", "recall,context,pack").split(",");
const shapes = arg("--shapes", SHAPES.join(",")).split(",");
const inWorkerd = process.argv.includes("--workerd");
const md = process.argv.includes("--md");

async function nodeSide() {
  const lib = await import("../js/web.mjs");
  lib.initSync(readFileSync(path.resolve(ROOT, arg("--wasm", "dist/web/lians_score_bg.wasm"))));
  return (kind, body, as) => measure(lib, kind, body, as);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function workerdSide() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(path.join(ROOT, "node_modules/.bin/workerd"), ["serve", path.join(ROOT, "bench/workerd/memory.capnp"), "--socket-addr", `http=127.0.0.1:${port}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const deadline = Date.now() + 60000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited: ${log}`);
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`workerd did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const run = async (kind, body, as) => {
    let res;
    try {
      res = await fetch(`${base}/measure?kind=${kind}&as=${as}`, { method: "POST", body });
    } catch (error) {
      throw new Error(`workerd: ${error.message}; its log: ${log.slice(-2000)}`);
    }
    if (!res.ok) throw new Error(`workerd: ${res.status} ${await res.text()} ${log}`);
    return res.json();
  };
  run.stop = () => {
    child.kill("SIGTERM");
    return new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
  };
  return run;
}

const sides = process.argv.includes("--no-node") ? [] : [["node", await nodeSide()]];
const rows = [];
try {
  for (const kind of kinds) {
    for (const shape of shapes) {
      // A fresh workerd per body shape: dropped instances are freed only when V8 collects them,
      // and dozens of 16-32 MiB hostile bodies back to back in one isolate once ended its process.
      if (inWorkerd) {
        const at = sides.findIndex(([side]) => side === "workerd");
        if (at >= 0) await sides.splice(at, 1)[0][1].stop();
        sides.push(["workerd", await workerdSide()]);
      }
      for (const mib of sizes) {
        const body = new TextEncoder().encode(bodyText(kind, shape, Math.min(mib * MiB, 32 * MiB)));
        for (const [side, run] of sides) {
          for (const as of ["bytes", "string"]) {
            const { before, after, outcome } = await run(kind, body, as);
            const row = { side, kind, shape, mib, as, body_bytes: body.length, before, after, per_byte: (after - before) / body.length, outcome };
            rows.push(row);
            console.log(JSON.stringify(row));
            if (!md) {
              console.error(
                `${side.padEnd(7)} ${kind.padEnd(7)} ${shape.padEnd(15)} ${String(mib).padStart(2)} MiB ${as.padEnd(6)} ` +
                  `${((after - before) / MiB).toFixed(1).padStart(7)} MiB grown  ${row.per_byte.toFixed(2).padStart(6)} per byte  ${outcome}`,
              );
            }
          }
        }
      }
    }
  }
} finally {
  for (const [, run] of sides) if (run.stop) await run.stop();
}
if (md) {
  // One row per (kind, shape, size), a column per side × input form.
  const cols = [...new Set(rows.map((r) => `${r.side} ${r.as}`))];
  console.error(`| kind | body | MiB | ${cols.join(" | ")} |`);
  console.error(`|---|---|---:|${cols.map(() => "---:").join("|")}|`);
  const keys = [...new Set(rows.map((r) => `${r.kind}|${r.shape}|${r.mib}`))];
  for (const k of keys) {
    const [kind, shape, mib] = k.split("|");
    const cells = cols.map((c) => {
      const r = rows.find((r) => `${r.kind}|${r.shape}|${r.mib}` === k && `${r.side} ${r.as}` === c);
      return r ? r.per_byte.toFixed(2) : "";
    });
    console.error(`| ${kind} | ${shape} | ${mib} | ${cells.join(" | ")} |`);
  }
  const worst = Math.max(...rows.map((r) => r.per_byte));
  console.error(`\nworst: ${worst.toFixed(2)} bytes of wasm memory per body byte`);
}
