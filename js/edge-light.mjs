// Vercel Edge (edge-light) entry: `?module` imports the .wasm as a compiled
// WebAssembly.Module, instantiated synchronously when this module loads.
import wasmModule from "../dist/web/lians_score_bg.wasm?module";
import { configureLimits, initSync } from "./web.mjs";
import { EDGE_MAX_BODY_BYTES } from "./limits.mjs";

// Worker-safe default: bodies over EDGE_MAX_BODY_BYTES are too_large (docs/edge-memory.md).
configureLimits({ maxBodyBytes: EDGE_MAX_BODY_BYTES });
initSync({ module: wasmModule });

export * from "./web.mjs";
