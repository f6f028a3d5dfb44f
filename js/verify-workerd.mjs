// `lians-score/verify` on Cloudflare Workers / workerd: as js/workerd.mjs, over
// the verify-only wasm (imported as a compiled WebAssembly.Module).
import wasmModule from "../dist/verify/lians_score_verify_bg.wasm";
import { configureLimits, initSync } from "./verify.mjs";
import { EDGE_MAX_BODY_BYTES } from "./limits.mjs";

// Worker-safe default: bodies over EDGE_MAX_BODY_BYTES are too_large (docs/edge-memory.md).
configureLimits({ maxBodyBytes: EDGE_MAX_BODY_BYTES });
initSync({ module: wasmModule });

export * from "./verify.mjs";
