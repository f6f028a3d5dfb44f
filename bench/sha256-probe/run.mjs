// Driver of bench/sha256-probe (see src/lib.rs): node run.mjs check 0 WASM | node run.mjs VARIANT N WASM
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
const [which, n] = process.argv.slice(2);
const m = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(process.argv[4] || "target/wasm32-unknown-unknown/release/shatest.wasm")), {}).exports;
const mem = () => new Uint8Array(m.memory.buffer);
const buf = m.buf(), out = m.out();
const data = new Uint8Array(1 << 20); for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
mem().set(data, buf);
if (which === "check") {
  for (const len of [...Array(300).keys(), 1000, 4095, 65536, 661000, 1 << 20]) {
    const want = createHash("sha256").update(data.subarray(0, len)).digest("hex");
    for (const f of ["h_sha2", "h_mine"]) { m[f](len); const got = Buffer.from(mem().subarray(out, out + 32)).toString("hex"); if (got !== want) throw new Error(f + " " + len); }
  }
  if (m.h_four_check) for (const len of [0, 4, 220, 256, 1000, 4000, 661000]) { const q = Math.floor(len / 4); for (let k = 0; k < 4; k++) { m.h_four_check(len, k); const want = createHash("sha256").update(data.subarray(k * q, k * q + q)).digest("hex"); const got = Buffer.from(mem().subarray(out, out + 32)).toString("hex"); if (got !== want) throw new Error("four " + len + " " + k); } }
  console.log("ok");
} else {
  const f = m[which];
  for (let i = 0; i < Number(n); i++) f(661000);
}
