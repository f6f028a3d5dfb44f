// Vercel Edge (edge-light) entry: `?module` imports the .wasm as a compiled
// WebAssembly.Module, instantiated synchronously when this module loads.
import wasmModule from "../dist/web/lians_score_bg.wasm?module";
import { configureLimits, initSync } from "./edge.mjs";
import { EDGE_MAX_BODY_BYTES, RESET_MEMORY_BYTES } from "./limits.mjs";

// Worker-safe defaults: bodies over EDGE_MAX_BODY_BYTES are too_large, and the instance is reset
// after a call that left more than RESET_MEMORY_BYTES (docs/edge-memory.md).
configureLimits({ maxBodyBytes: EDGE_MAX_BODY_BYTES, resetMemoryBytes: RESET_MEMORY_BYTES });
initSync({ module: wasmModule });

export * from "./edge.mjs";
