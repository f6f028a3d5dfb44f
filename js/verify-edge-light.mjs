// `lians-score/verify` on Vercel Edge (edge-light): as js/edge-light.mjs, over
// the verify-only wasm (`?module` gives a compiled WebAssembly.Module).
import wasmModule from "../dist/verify/lians_score_verify_bg.wasm?module";
import { configureLimits, initSync } from "./verify.mjs";
import { EDGE_MAX_BODY_BYTES, RESET_MEMORY_BYTES } from "./limits.mjs";

// Worker-safe defaults: bodies over EDGE_MAX_BODY_BYTES are too_large, and the instance is reset
// after a call that left more than RESET_MEMORY_BYTES (docs/edge-memory.md).
configureLimits({ maxBodyBytes: EDGE_MAX_BODY_BYTES, resetMemoryBytes: RESET_MEMORY_BYTES });
initSync({ module: wasmModule });

export * from "./verify.mjs";
