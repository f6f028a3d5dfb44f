// Linear cost of the densest nestings (issue #32): CPU time of one verifyRecallReceipt of the
// `deep`, `deep-then-wide` and `nested2` bodies of bench/memory-bodies.mjs at 4 and 32 MiB, as bytes,
// through the browser entry (js/web.mjs). CPU ms are noisy: look at the 4 -> 32 MiB ratio (~8 = linear).
//   node bench/memory-linear.mjs [WASM]   (default dist/web/lians_score_bg.wasm)
import { readFileSync } from "node:fs";
import { bodyText } from "./memory-bodies.mjs";
const lib = await import("../js/web.mjs");
lib.initSync(readFileSync(process.argv[2] || "dist/web/lians_score_bg.wasm"));
lib.configureLimits({ maxBodyBytes: 32 << 20, resetMemoryBytes: 0 });
for (const shape of ["deep", "deep-then-wide", "nested2"]) {
  for (const mib of [4, 32]) {
    const body = new TextEncoder().encode(bodyText("recall", shape, mib << 20));
    const t = process.cpuUsage();
    const r = lib.verifyRecallReceipt(body, { query: "q" });
    const u = process.cpuUsage(t);
    console.log(`${shape.padEnd(15)} ${String(mib).padStart(2)} MiB ${((u.user + u.system) / 1000).toFixed(0).padStart(6)} ms CPU  valid=${r.valid}`);
  }
}
