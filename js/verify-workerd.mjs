// `lians-score/verify` on Cloudflare Workers / workerd: as js/workerd.mjs, over
// the verify-only wasm (imported as a compiled WebAssembly.Module).
import wasmModule from "../dist/verify/lians_score_verify_bg.wasm";
import { configureLimits, initSync } from "./verify.mjs";
import { EDGE_MAX_BODY_BYTES, RESET_MEMORY_BYTES } from "./limits.mjs";

// Worker-safe defaults: bodies over EDGE_MAX_BODY_BYTES are too_large, and the instance is reset
// after a call that left more than RESET_MEMORY_BYTES (docs/edge-memory.md).
configureLimits({ maxBodyBytes: EDGE_MAX_BODY_BYTES, resetMemoryBytes: RESET_MEMORY_BYTES });
initSync({ module: wasmModule });

export * from "./verify.mjs";
