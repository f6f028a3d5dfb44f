// Cloudflare Workers / workerd entry: the .wasm is imported as a compiled
// WebAssembly.Module (instantiating from bytes is not allowed on Workers) and
// instantiated synchronously when this module loads. No init() needed.
import wasmModule from "../dist/web/lians_score_bg.wasm";
import { initSync } from "./web.mjs";

initSync({ module: wasmModule });

export * from "./web.mjs";
