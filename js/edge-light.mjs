// Vercel Edge (edge-light) entry: `?module` imports the .wasm as a compiled
// WebAssembly.Module, instantiated synchronously when this module loads.
import wasmModule from "../dist/web/lians_score_bg.wasm?module";
import { initSync } from "./web.mjs";

initSync({ module: wasmModule });

export * from "./web.mjs";
