// `lians-score/verify` on Vercel Edge (edge-light): as js/edge-light.mjs, over
// the verify-only wasm (`?module` gives a compiled WebAssembly.Module).
import wasmModule from "../dist/verify/lians_score_verify_bg.wasm?module";
import { initSync } from "./verify.mjs";

initSync({ module: wasmModule });

export * from "./verify.mjs";
