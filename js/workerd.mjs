// Cloudflare Workers / workerd entry: the .wasm is imported as a compiled
// WebAssembly.Module (instantiating from bytes is not allowed on Workers) and
// instantiated synchronously when this module loads. No init() needed.
import wasmModule from "../dist/web/lians_score_bg.wasm";
import { configureLimits, initSync } from "./web.mjs";
import { EDGE_MAX_BODY_BYTES } from "./limits.mjs";

// Worker-safe default: bodies over EDGE_MAX_BODY_BYTES are too_large (docs/edge-memory.md).
configureLimits({ maxBodyBytes: EDGE_MAX_BODY_BYTES });
initSync({ module: wasmModule });

export * from "./web.mjs";
