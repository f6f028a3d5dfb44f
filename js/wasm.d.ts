// Types of the package's `.wasm` subpaths: `lians-score/lians_score_bg.wasm`
// (the full build; `lians-score/lians_score.wasm` is the same file),
// `lians-score/lians_score_lean_bg.wasm` (the lean browser build: no
// auditRecall; what a plain `init()` of the browser entry fetches) and
// `lians-score/lians_score_verify_bg.wasm` (the verify-only build of
// `lians-score/verify`), each also with the `?module` suffix.
//
// What such an import gives is decided by the bundler or runtime, not by the
// package: workerd/wrangler (`CompiledWasm` modules) and Next.js/Vercel Edge
// (`?module`) give a compiled `WebAssembly.Module`, the input `initSync` takes:
//
//   import wasm from "lians-score/lians_score_bg.wasm?module";
//   import { initSync } from "lians-score/web";
//   initSync({ module: wasm });
//
// The full `.wasm` goes with the full entries (`lians-score`, `/web`,
// `/inline`, `/bundler`), the verify-only one with `lians-score/verify`: their
// imports differ, so a module of the other build does not instantiate.
// Typed structurally, as in index.d.ts, so no DOM library is needed.

/** The compiled `WebAssembly.Module` of the imported `.wasm` file. */
declare const wasmModule: object;
export default wasmModule;
