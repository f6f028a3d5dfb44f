#!/usr/bin/env node
// Where the .wasm's code goes: function body sizes from a build that kept its
// name section, summed by path prefix, or the difference between two builds.
//   node scripts/wasm-funcs.mjs A.wasm [B.wasm] [--depth N] [--top N]
// --depth 0 lists functions; N > 0 sums by the first N `::` segments of the
// (hash-stripped) name (default 3). With B, prints B − A per key.
// The shipped .wasm has no names: make a names-kept copy of wasm-bindgen's
// output, before wasm-opt (BENCHMARKS.md, "Round 7: size"), e.g.
//   CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_RELEASE_PANIC=abort CARGO_PROFILE_RELEASE_LTO=true \
//   CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 cargo build --release --target wasm32-unknown-unknown -p lians-score-wasm
//   wasm-bindgen --target web --no-typescript --out-dir /tmp/names target/wasm32-unknown-unknown/release/lians_score_wasm.wasm
// (add `-g` to the wasm-opt flags of crates/wasm/Cargo.toml to keep names after wasm-opt too).
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = Number(args[i + 1]);
  args.splice(i, 2);
  return v;
};
const depth = flag("--depth", 3);
const top = flag("--top", 60);
if (args.length < 1 || args.length > 2) {
  console.error("usage: node scripts/wasm-funcs.mjs A.wasm [B.wasm] [--depth N] [--top N]");
  process.exit(2);
}

/** Function body sizes by name (the name section's function names). */
function functions(file) {
  const b = readFileSync(file);
  let p = 8;
  const leb = () => {
    let r = 0, s = 0, x;
    do { x = b[p++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
    return r;
  };
  const skipName = () => { const l = leb(); p += l; };
  let imports = 0;
  const sizes = [];
  const names = new Map();
  while (p < b.length) {
    const id = b[p++];
    const n = leb();
    const end = p + n;
    if (id === 2) {
      for (let c = leb(); c > 0; c--) {
        skipName(); skipName();
        const kind = b[p++];
        if (kind === 0) { leb(); imports++; }
        else if (kind === 1) { p++; if (leb() & 1) { leb(); leb(); } else leb(); }
        else if (kind === 2) { if (leb() & 1) { leb(); leb(); } else leb(); }
        else if (kind === 3) p += 2;
        else if (kind === 4) { p++; leb(); }
      }
    } else if (id === 10) {
      for (let c = leb(); c > 0; c--) { const size = leb(); sizes.push(size); p += size; }
    } else if (id === 0) {
      const l = leb();
      const name = b.subarray(p, p + l).toString();
      p += l;
      while (name === "name" && p < end) {
        const sub = b[p++];
        const len = leb();
        const subEnd = p + len;
        if (sub === 1) {
          for (let c = leb(); c > 0; c--) {
            const idx = leb();
            const l2 = leb();
            names.set(idx, b.subarray(p, p + l2).toString());
            p += l2;
          }
        }
        p = subEnd;
      }
    }
    p = end;
  }
  if (names.size === 0) console.error(`wasm-funcs: ${file} has no function names (see the header)`);
  return sizes.map((size, i) => [names.get(i + imports) ?? `func${i + imports}`, size]);
}

function byKey(file) {
  const m = new Map();
  for (const [name, size] of functions(file)) {
    const clean = name.replace(/^<+/, "").replace(/\[[0-9a-f]+\]/g, "").replace(/::h[0-9a-f]{16}$/, "");
    const key = depth === 0 ? clean : clean.split(/::|\s/).slice(0, depth).join("::");
    m.set(key, (m.get(key) ?? 0) + size);
  }
  return m;
}

const a = byKey(args[0]);
if (args.length === 1) {
  const rows = [...a].sort((x, y) => y[1] - x[1]);
  console.log(`total ${rows.reduce((t, r) => t + r[1], 0)} B of function bodies`);
  for (const [k, v] of rows.slice(0, top)) console.log(`${v}\t${k}`);
} else {
  const b = byKey(args[1]);
  const rows = [...new Set([...a.keys(), ...b.keys()])]
    .map((k) => [k, a.get(k) ?? 0, b.get(k) ?? 0])
    .sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]));
  console.log(`total ${rows.reduce((t, r) => t + r[2] - r[1], 0)} B (B − A); columns: delta, A, B, key`);
  for (const [k, x, y] of rows.slice(0, top)) console.log(`${y - x}\t${x}\t${y}\t${k}`);
}
