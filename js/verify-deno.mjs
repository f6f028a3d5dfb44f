// `lians-score/verify` on Deno: as js/deno.mjs, over the verify-only wasm
// (read next to the module on import: --allow-read).
import { initSync } from "./verify.mjs";

initSync({ module: Deno.readFileSync(new URL("../dist/verify/lians_score_verify_bg.wasm", import.meta.url)) });

export * from "./verify.mjs";
