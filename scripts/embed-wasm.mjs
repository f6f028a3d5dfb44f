#!/usr/bin/env node
// After wasm-pack (called by scripts/build.sh): embed the .wasm in JavaScript
// where a bundler may not be able to carry a separate file.
//   dist/node:   the CommonJS glue reads `${__dirname}/lians_score_bg.wasm` at
//                require time, which breaks once a bundler (Next.js) moves the
//                code; it now reads ../web/lians_score_bg.wasm when that file
//                is there (the installed package: faster) and requires
//                lians_score_bg.wasm.cjs (the bytes, in base64) otherwise, and
//                the .wasm file is dropped.
//   dist/inline: a copy of the web glue without the default
//                `new URL("lians_score_bg.wasm", import.meta.url)` (so bundlers
//                emit no stray asset), plus lians_score_bg.wasm.mjs.
// Fails (exit 1) if wasm-bindgen's output no longer has the expected shape.
import { readFileSync, writeFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = (...p) => path.join(ROOT, "dist", ...p);
const b64 = readFileSync(dist("web", "lians_score_bg.wasm")).toString("base64");

function replaceOnce(text, from, to, what) {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) {
    console.error(`embed-wasm: expected exactly one ${JSON.stringify(from)} in ${what}`);
    process.exit(1);
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}

// ---- dist/node
const nodeGlue = dist("node", "lians_score.js");
let text = readFileSync(nodeGlue, "utf8");
text = replaceOnce(text, "const wasmPath = `${__dirname}/lians_score_bg.wasm`;\n", "", nodeGlue);
// Reading the package's own dist/web/lians_score_bg.wasm (the same build) is
// ~3 ms faster than parsing and decoding 0.5 MB of base64 JS, so the glue
// does that when the file is there and has the expected length; otherwise
// (the glue bundled elsewhere) it takes the embedded bytes, which bundlers
// still see through the static require().
const wasmLength = readFileSync(dist("web", "lians_score_bg.wasm")).length;
text = replaceOnce(
  text,
  "const wasmBytes = require('fs').readFileSync(wasmPath);",
  `const wasmBytes = (() => {
    const length = ${wasmLength};
    try {
        // open + read into an exact buffer: ~0.3 ms less than a first readFileSync
        const fs = require('fs');
        const fd = fs.openSync(__dirname + '/../web/lians_score_bg.wasm', 'r');
        try {
            const bytes = new Uint8Array(length + 1);
            let n = 0;
            for (let k; n <= length && (k = fs.readSync(fd, bytes, n, length + 1 - n, n)) > 0;) n += k;
            if (n === length) return bytes.subarray(0, length);
        } finally {
            fs.closeSync(fd);
        }
    } catch (_) { /* not next to dist/web: bundled */ }
    return require('./lians_score_bg.wasm.cjs');
})();`,
  nodeGlue,
);
// The instance reset of js/node.cjs (issue #32, docs/edge-memory.md): the two
// functions scripts/build.sh appends to the web glues, for this glue's own
// module-level instance: a fresh instance of the compiled module, and the
// glue's cached views of the old memory dropped.
const start = "let wasmInstance = new WebAssembly.Instance(wasmModule, __wbg_get_imports());\nlet wasm = wasmInstance.exports;\nwasm.__wbindgen_start();\n";
const caches = [...text.matchAll(/^let (cached\w+Memory0) = null;$/gm)].map((m) => m[1]);
if (!text.endsWith(start) || caches.length === 0) {
  console.error(`embed-wasm: ${nodeGlue} does not end with the expected instantiation (or has no cached memory views)`);
  process.exit(1);
}
text += `
// Appended by scripts/embed-wasm.mjs (js/node.cjs resets the instance with these; __lians_memory: its string staging).
exports.__lians_memory_bytes = function () {
    return wasm.memory.buffer.byteLength;
};
exports.__lians_memory = function () {
    return wasm.memory;
};
exports.__lians_reset = function () {
    wasmInstance = new WebAssembly.Instance(wasmModule, __wbg_get_imports());
    wasm = wasmInstance.exports;
${caches.map((c) => `    ${c} = null;\n`).join("")}    wasm.__wbindgen_start();
};
`;
writeFileSync(nodeGlue, text);
writeFileSync(
  dist("node", "lians_score_bg.wasm.cjs"),
  `"use strict";\n// lians_score_bg.wasm, embedded by scripts/embed-wasm.mjs.\nmodule.exports = Buffer.from("${b64}", "base64");\n`,
);
rmSync(dist("node", "lians_score_bg.wasm"));

// ---- dist/inline
mkdirSync(dist("inline"), { recursive: true });
text = readFileSync(dist("web", "lians_score.js"), "utf8");
text = replaceOnce(
  text,
  "module_or_path = new URL('lians_score_bg.wasm', import.meta.url);",
  "throw new Error('lians-score/inline: the wasm is embedded; init() needs no argument');",
  "dist/web/lians_score.js",
);
writeFileSync(dist("inline", "lians_score.js"), text);
writeFileSync(
  dist("inline", "lians_score_bg.wasm.mjs"),
  `// lians_score_bg.wasm, embedded by scripts/embed-wasm.mjs.
const base64 = "${b64}";
function decode(text) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
export default decode(base64);
`,
);
writeFileSync(dist("inline", "package.json"), '{"type":"module"}\n');
console.log(`embed-wasm: dist/node and dist/inline embed the wasm (${b64.length} base64 characters)`);
