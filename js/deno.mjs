// Deno entry: reads the .wasm next to the glue synchronously (needs
// --allow-read for the package directory) and instantiates it on load.
import { initSync } from "./web.mjs";

initSync({ module: Deno.readFileSync(new URL("../dist/web/lians_score_bg.wasm", import.meta.url)) });

export * from "./web.mjs";
