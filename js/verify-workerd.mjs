// `lians-score/verify` on Cloudflare Workers / workerd: as js/workerd.mjs, over
// the verify-only wasm (imported as a compiled WebAssembly.Module).
import wasmModule from "../dist/verify/lians_score_verify_bg.wasm";
import { initSync } from "./verify.mjs";

initSync({ module: wasmModule });

export * from "./verify.mjs";
