// The wrapper shared by the ESM entries that instantiate the wasm themselves
// (web, inline, edge; workerd and edge-light are js/edge.mjs and deno the web
// entry, plus a synchronous initSync()): idempotent init()/initSync(), one shared in-flight
// load, the not_initialized guard, the LiansScoreError class for every coded
// error (js/errors.mjs), and foreign-realm WebAssembly.Module normalization;
// for the browser entry, two builds (lean by default, full with the audit).
import { API_NAMES, LEAN_OMITTED_NAMES } from "./names.mjs";
import { LiansScoreError, adoptError } from "./errors.mjs";
import { BODY_NAMES, HOST_SHA256_MIN_BYTES, MAX_BODY_BYTES, RESET_MEMORY_BYTES, checkBody, hostSha256, readLimits, recycleText, utf8Text } from "./limits.mjs";

/**
 * The API over one wasm-bindgen `web`-target glue module (`names`: its public
 * functions). configureLimits() sets the default body cap and the reset
 * threshold (js/limits.mjs). After a call that left the wasm memory over the
 * threshold the instance is dropped and a fresh one instantiated from the same
 * compiled module (docs/edge-memory.md): wasm memory never shrinks, so one
 * large or hostile body would otherwise pin its peak for the life of the
 * isolate. Below it (every ordinary call) the instance is kept.
 *
 * `full` (the browser entry, js/web.mjs; issue #32 round 8): `{ initGlue,
 * glue }` of the full build, the first pair being the lean one (no
 * auditRecall: LEAN_OMITTED_NAMES). A plain init() loads the lean build,
 * `init({ audit: true })` the full one (after a lean init it replaces the lean
 * instance, which is dropped); init(module or bytes or URL) and initSync()
 * take either build and tell which from its exports. A function the loaded
 * build lacks throws not_initialized saying to call `await init({ audit: true })`.
 */
export function createApi(initGlue, glue, names = API_NAMES, full = undefined) {
  let bodyCap = MAX_BODY_BYTES;
  let resetAt = RESET_MEMORY_BYTES;
  let ready = false;
  /** Instances dropped so far (memoryStats().resets). */
  let resets = 0;
  /** The one in-flight init() load, shared by concurrent callers. */
  let loading;
  /** Calls in progress: a call re-entered from a getter of its own argument must not swap the instance under it. */
  let depth = 0;
  /** The builds (`lean` is the only one without `full`) and the one whose instance is in use. */
  const lean = { initGlue, glue, audit: full === undefined };
  const complete = full === undefined ? lean : { initGlue: full.initGlue, glue: full.glue, audit: true };
  let current = lean;
  /** The in-flight upgrade to the full build (init({ audit: true }) after a lean init). */
  let upgrading;
  /** The lean instance is to be dropped when the outermost call returns (an upgrade from inside a call). */
  let dropPending = false;
  /** The host's synchronous SHA-256 where one is reachable (node:crypto: Node, Deno, workerd with nodejs_compat). */
  const sha256 = hostSha256();

  /** Hand a fresh instance of `build` the host's SHA-256 (glues without setHostSha256: nothing to do). */
  function hosted(build) {
    if (sha256 !== undefined && typeof build.glue.setHostSha256 === "function") build.glue.setHostSha256(sha256, HOST_SHA256_MIN_BYTES);
  }

  function notInitialized(name) {
    const audit = !lean.audit && LEAN_OMITTED_NAMES.includes(name);
    return new LiansScoreError(
      "not_initialized",
      `lians-score: ${name}() was called before the WebAssembly module was initialized; ` +
        (audit ? "call `await init({ audit: true })` first (it loads the full build, which has the audit)" : "call `await init()` (or `initSync(...)`) first"),
      "",
    );
  }

  /** `init()` on a lean instance: what a function of the full build only says. */
  function needsAudit(name) {
    return new LiansScoreError(
      "not_initialized",
      `lians-score: ${name}() needs the full WebAssembly build, and \`init()\` loaded the lean one (no audit, ` +
        "~38 KB gzip smaller); call `await init({ audit: true })` first",
      "/",
    );
  }

  /** The `audit` option of init({ audit, module_or_path }) (a boolean; false when absent). */
  function auditOption(input) {
    if (!hasOwn(input, "audit")) return false;
    if (typeof input.audit !== "boolean") {
      throw new LiansScoreError("wrong_type", `lians-score: init() option \`audit\` must be a boolean, got ${typeof input.audit}`, "/audit");
    }
    return input.audit;
  }

  /** Fetch/compile/instantiate the wasm (idempotent; concurrent calls share one load; `{ audit: true }`: the full build). */
  function init(input) {
    let audit;
    try {
      audit = auditOption(input);
    } catch (error) {
      return Promise.reject(error);
    }
    if (ready && (!audit || current.audit)) return Promise.resolve();
    if (ready) return upgrade(input);
    if (loading === undefined) {
      loading = load(input, audit).then(
        () => {
          ready = true;
        },
        (error) => {
          loading = undefined; // a failed load can be retried
          throw error;
        },
      );
      return loading;
    }
    // A load is in flight: join it, then upgrade if it was not the full build.
    return audit ? loading.then(() => init(input)) : loading;
  }

  /** init({ audit: true }) on a lean instance: the full build's instance replaces it (one in-flight upgrade). */
  function upgrade(input) {
    if (upgrading === undefined) {
      upgrading = load(input, true).finally(() => {
        upgrading = undefined;
      });
    }
    return upgrading;
  }

  async function load(input, audit) {
    if (hasOwn(input, "module_or_path")) input = input.module_or_path;
    else if (hasOwn(input, "audit")) input = undefined;
    // A URL object (or anything URL-like with `href`) is fetched by its text.
    if (input !== null && typeof input === "object" && typeof input.href === "string") input = input.href;
    input = await input;
    // The glue of the build asked for loads its default .wasm or the given module, bytes or URL. Both builds import
    // the same names, so either glue instantiates either .wasm; the instance's exports tell which build it is.
    const build = audit ? complete : lean;
    const exports = await withSameRealmModule(input, (arg) => build.initGlue(arg === undefined ? undefined : { module_or_path: arg }));
    const got = LEAN_OMITTED_NAMES.every((name) => typeof exports[name] === "function") ? complete : lean;
    if (got !== build) {
      // The other build was given: its module moves to its own glue (no second fetch), or is refused for the audit.
      const module = build.glue.__lians_module();
      build.glue.__lians_drop();
      if (audit) {
        throw new LiansScoreError(
          "invalid_value",
          "lians-score: init({ audit: true }) was given the lean build (no auditRecall); pass the full lians_score_bg.wasm, or no module",
          "/module_or_path",
        );
      }
      withSameRealmModule(module, (arg) => got.glue.initSync({ module: arg }));
    }
    hosted(got);
    use(got);
  }

  /** The build a compiled module is (the full one exports auditRecall). */
  function buildOf(module) {
    if (full === undefined) return lean;
    const exported = WebAssembly.Module.exports(module).map((e) => e.name);
    return LEAN_OMITTED_NAMES.every((name) => exported.includes(name)) ? complete : lean;
  }

  /** Make `build`'s fresh instance the one in use; a lean instance next to a full one is dropped (its memory with it). */
  function use(build) {
    if (!ready || build === current || lean === complete) {
      current = build;
    } else {
      dropLean(); // one build is in use and the other one is new: the lean one goes, whichever it is
      current = complete;
    }
  }

  /** Drop the lean instance, or (initSync of the full build from a getter of a call's own argument) after the outermost call. */
  function dropLean() {
    if (depth > 0) dropPending = true;
    else lean.glue.__lians_drop();
  }

  /** Instantiate synchronously from a `WebAssembly.Module` or the `.wasm` bytes (idempotent; the full build's after a lean init upgrades). */
  function initSync(input) {
    if (ready && current.audit) return;
    if (input === undefined) {
      if (ready) return;
      throw new TypeError("lians-score: initSync() needs the WebAssembly.Module or the .wasm bytes");
    }
    if (hasOwn(input, "module")) input = input.module;
    if (full === undefined) {
      withSameRealmModule(input, (arg) => glue.initSync({ module: arg }));
      hosted(lean);
      ready = true;
      return;
    }
    const module = input instanceof WebAssembly.Module || isForeignModule(input) ? input : new WebAssembly.Module(input);
    const build = buildOf(module);
    if (ready && !build.audit) return; // lean on lean: nothing to do
    withSameRealmModule(module, (arg) => build.glue.initSync({ module: arg }));
    hosted(build);
    use(build);
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
    const { glue } = current;
    if (typeof glue.__lians_memory_bytes !== "function" || glue.__lians_memory_bytes() <= resetAt) return;
    glue.__lians_reset();
    hosted(current);
    resets++;
  }

  function guarded(name) {
    const body = BODY_NAMES.includes(name);
    return {
      [name](...args) {
        if (!ready) throw notInitialized(name);
        const fn = current.glue[name];
        if (fn === undefined) throw needsAudit(name);
        if (body) args = checkBody(args, bodyCap);
        args = utf8Text(name, args); // JSON text as UTF-8 bytes (js/limits.mjs)
        depth++;
        try {
          return fn(...args);
        } catch (error) {
          throw adoptError(error); // the wasm's coded errors become LiansScoreError instances
        } finally {
          recycleText(name, args);
          if (--depth === 0) {
            if (dropPending) {
              dropPending = false;
              lean.glue.__lians_drop();
            }
            resetIfGrown();
          }
        }
      },
    }[name];
  }

  /** Memory of the current instance (bytes) and the number of instances dropped. */
  function memoryStats() {
    const { glue } = current;
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
