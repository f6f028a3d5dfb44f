// The wrapper shared by the ESM entries that instantiate the wasm themselves
// (web, inline; workerd, edge-light and deno are the web entry plus a
// synchronous initSync()): idempotent init()/initSync(), one shared in-flight
// load, the not_initialized guard, the LiansScoreError class for every coded
// error (js/errors.mjs), and foreign-realm WebAssembly.Module normalization.
import { API_NAMES } from "./names.mjs";
import { LiansScoreError, adoptError } from "./errors.mjs";
import { BODY_NAMES, MAX_BODY_BYTES, RESET_MEMORY_BYTES, checkBody, readLimits, recycleText, utf8Text } from "./limits.mjs";

/**
 * The API over one wasm-bindgen `web`-target glue module (`names`: its public
 * functions). configureLimits() sets the default body cap and the reset
 * threshold (js/limits.mjs). After a call that left the wasm memory over the
 * threshold the instance is dropped and a fresh one instantiated from the same
 * compiled module (docs/edge-memory.md): wasm memory never shrinks, so one
 * large or hostile body would otherwise pin its peak for the life of the
 * isolate. Below it (every ordinary call) the instance is kept.
 */
export function createApi(initGlue, glue, names = API_NAMES) {
  let bodyCap = MAX_BODY_BYTES;
  let resetAt = RESET_MEMORY_BYTES;
  let ready = false;
  /** Instances dropped so far (memoryStats().resets). */
  let resets = 0;
  /** The one in-flight init() load, shared by concurrent callers. */
  let loading;
  /** Calls in progress: a call re-entered from a getter of its own argument must not swap the instance under it. */
  let depth = 0;

  function notInitialized(name) {
    return new LiansScoreError(
      "not_initialized",
      `lians-score: ${name}() was called before the WebAssembly module was initialized; ` +
        "call `await init()` (or `initSync(...)`) first",
      "",
    );
  }

  /** Fetch/compile/instantiate the wasm (idempotent; concurrent calls share one load). */
  function init(input) {
    if (ready) return Promise.resolve();
    if (loading === undefined) {
      loading = load(input).then(
        () => {
          ready = true;
        },
        (error) => {
          loading = undefined; // a failed load can be retried
          throw error;
        },
      );
    }
    return loading;
  }

  async function load(input) {
    if (hasOwn(input, "module_or_path")) input = input.module_or_path;
    // A URL object (or anything URL-like with `href`) is fetched by its text.
    if (input !== null && typeof input === "object" && typeof input.href === "string") input = input.href;
    input = await input;
    await withSameRealmModule(input, (arg) => initGlue(arg === undefined ? undefined : { module_or_path: arg }));
  }

  /** Instantiate synchronously from a `WebAssembly.Module` or the `.wasm` bytes (idempotent). */
  function initSync(input) {
    if (ready) return;
    if (input === undefined) {
      throw new TypeError("lians-score: initSync() needs the WebAssembly.Module or the .wasm bytes");
    }
    if (hasOwn(input, "module")) input = input.module;
    withSameRealmModule(input, (arg) => glue.initSync({ module: arg }));
    ready = true;
  }

  /** True once init()/initSync() has completed. */
  function isInitialized() {
    return ready;
  }

  function hasOwn(value, key) {
    return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype && Object.hasOwn(value, key);
  }

  /**
   * Call `use(module)` so that wasm-bindgen's `instanceof WebAssembly.Module`
   * test holds for a module compiled in another JavaScript realm (Next.js's edge
   * sandbox and `edge-runtime` inject the `?module` import from the host realm;
   * `node:vm` contexts likewise). Without this the glue takes the module for
   * bytes and fails with "WebAssembly.Module(): Argument 0 must be a buffer
   * source". The module object is given this realm's prototype for the call
   * (its internal slots, which instantiation uses, are realm-independent) and
   * its own prototype back afterwards.
   */
  function withSameRealmModule(module, use) {
    if (!isForeignModule(module)) return use(module);
    const proto = Object.getPrototypeOf(module);
    Object.setPrototypeOf(module, WebAssembly.Module.prototype);
    try {
      return use(module);
    } finally {
      Object.setPrototypeOf(module, proto);
    }
  }

  function isForeignModule(value) {
    if (value === null || typeof value !== "object" || value instanceof WebAssembly.Module) return false;
    try {
      WebAssembly.Module.exports(value); // brand check: a real module of any realm
      return true;
    } catch {
      return false;
    }
  }

  /**
   * After a call that left the wasm memory over the threshold: a fresh
   * instance (the glue's __lians_reset, appended by scripts/build.sh; absent
   * in other glues, where nothing is reset).
   */
  function resetIfGrown() {
    if (typeof glue.__lians_memory_bytes !== "function" || glue.__lians_memory_bytes() <= resetAt) return;
    glue.__lians_reset();
    resets++;
  }

  function guarded(name) {
    const fn = glue[name];
    const body = BODY_NAMES.includes(name);
    return {
      [name](...args) {
        if (!ready) throw notInitialized(name);
        if (body) args = checkBody(args, bodyCap);
        args = utf8Text(name, args); // JSON text as UTF-8 bytes (js/limits.mjs)
        depth++;
        try {
          return fn(...args);
        } catch (error) {
          throw adoptError(error); // the wasm's coded errors become LiansScoreError instances
        } finally {
          recycleText(name, args);
          if (--depth === 0) resetIfGrown();
        }
      },
    }[name];
  }

  /** Memory of the current instance (bytes) and the number of instances dropped. */
  function memoryStats() {
    const bytes = typeof glue.__lians_memory_bytes === "function" && ready ? glue.__lians_memory_bytes() : 0;
    return { memoryBytes: bytes, resets, maxBodyBytes: bodyCap, resetMemoryBytes: resetAt };
  }

  /** Set the default `maxBodyBytes` of the body functions and/or the reset threshold (bytes). */
  function configureLimits(limits) {
    ({ maxBodyBytes: bodyCap, resetMemoryBytes: resetAt } = readLimits(limits, { maxBodyBytes: bodyCap, resetMemoryBytes: resetAt }));
  }

  const api = { init, initSync, isInitialized, memoryStats, configureLimits };
  for (const name of names) api[name] = guarded(name);
  return api;
}
