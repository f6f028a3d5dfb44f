// The ONE list of the package's public functions (the wasm exports that form
// the API). Everything else is derived from it or checked against it:
//   - the export lists of js/web.mjs, js/inline.mjs, js/node.cjs, js/node.mjs
//     and js/bundler.mjs are generated from it by `node scripts/gen-entries.mjs`
//     (scripts/build.sh runs it; `--check` fails when they are stale);
//   - tests/js/names.test.mjs checks that js/index.d.ts declares exactly these
//     functions, and that every wasm export is either here or in
//     INTERNAL_NAMES below (so a new #[wasm_bindgen] function cannot be
//     forgotten).
// Adding a function: add its js_name here, declare it in js/index.d.ts, run
// `node scripts/gen-entries.mjs` (scripts/build.sh does).
export const API_NAMES = [
  "scoreMemory",
  "scoreCandidates",
  "tokenizeForScoring",
  "detectRiskTags",
  "riskSpans",
  "isTooVague",
  "evaluateAdmission",
  "rescoreReviewItem",
  "rankPositionScore",
  "sortCandidates",
  "canonicalJson",
  "sha256Hex",
  "verifyRecallReceipt",
  "verifyContextReceipt",
  "verifyEvidencePack",
  "auditRecall",
];

// wasm exports kept internal (used by js/cli.mjs and the tests only).
export const INTERNAL_NAMES = [
  "cliRun",
  "cliScore",
  "crateVersion",
  "replayReceiptsLine",
  "replayScoringLine",
  "setHostSha256",
  "__lians_utf16",
  "__lians_score_memory",
];

// Internal exports the lean browser wasm (cargo feature lean) and dist/verify leave out: the
// Node entry's string staging (js/node.cjs; issue #32 round 10) and its scoreMemory result
// left in wasm memory as numbers (round 12).
export const FULL_ONLY_NAMES = ["__lians_utf16", "__lians_score_memory"];

// The internal exports of the npm CLI and the conformance replays: only in the
// wasm built with the cargo feature js-cli (dist/cli: js/cli.mjs; dist/verify),
// not in the library's builds (dist/web, dist/node, dist/bundler, inline).
export const CLI_NAMES = ["cliRun", "cliScore", "replayReceiptsLine", "replayScoringLine"];

// What scripts/build.sh appends to the web-target glues (dist/web, dist/verify, dist/inline):
// js/core.mjs reads the wasm memory and resets the instance with them (docs/edge-memory.md).
export const GLUE_HOOK_NAMES = ["__lians_memory_bytes", "__lians_reset"];

// What scripts/build.sh appends to the two browser glues (dist/web, dist/web-lean;
// dist/inline copies dist/web) besides GLUE_HOOK_NAMES: js/core.mjs moves a module
// the other build's glue was given to its own glue, and drops the lean instance
// when it upgrades.
export const LEAN_HOOK_NAMES = ["__lians_module", "__lians_drop"];

// The API functions the lean browser wasm (cargo feature lean, dist/web-lean:
// what a plain `init()` of js/web.mjs fetches) leaves out; `init({ audit: true })`
// loads the full build, which has them (issue #32 round 8).
export const LEAN_OMITTED_NAMES = ["auditRecall"];

// Functions every entry adds around the wasm exports.
export const INIT_NAMES = ["init", "initSync", "isInitialized"];

// The subset `lians-score/verify` exports (js/verify.mjs over dist/verify, the
// wasm built with the cargo feature verify-only, which exports only these and
// the internal crateVersion/replayReceiptsLine).
export const VERIFY_NAMES = ["canonicalJson", "sha256Hex", "verifyRecallReceipt", "verifyContextReceipt", "verifyEvidencePack"];

// Written in JavaScript (js/fetch.mjs, js/limits.mjs, js/core.mjs), exported by every entry.
export const JS_NAMES = ["createVerifyingFetch", "configureLimits", "memoryStats"];
export const CLASS_NAMES = ["LiansScoreError", "LiansVerificationError"];
