// The packed npm tarball, installed into a fresh throwaway project, for tests
// and examples that must run from what users install (not from the repo):
//
//   import { packTarball, installTarball } from "../package/tarball.mjs";
//   const tgz = packTarball();                       // `npm pack` once per process (needs a build)
//   const app = installTarball({ dir });             // npm install --offline of it into dir (or a temp dir)
//   const esm = await app.importEsm();               // import "lians-score" from there
//   const cjs = app.requireCjs();                    // require("lians-score") from there
//
// LIANS_TARBALL=/path/lians-score-x.y.z.tgz uses that tarball instead of packing.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let packed;

/** The absolute path of the packed tarball (packed once per process). */
export function packTarball() {
  if (process.env.LIANS_TARBALL) return path.resolve(process.env.LIANS_TARBALL);
  if (packed) return packed;
  const dest = mkdtempSync(path.join(tmpdir(), "lians-tarball-"));
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", dest], { cwd: ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop();
  packed = path.join(dest, name);
  return packed;
}

/** Install the tarball into `dir` (created; default a new temp dir) with npm, offline. */
export function installTarball({ dir, tarball = packTarball() } = {}) {
  dir ??= mkdtempSync(path.join(tmpdir(), "lians-app-"));
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path.join(dir, "package.json"))) {
    writeFileSync(path.join(dir, "package.json"), '{"name":"lians-score-consumer","private":true,"version":"1.0.0"}\n');
  }
  execFileSync("npm", ["install", "--silent", "--no-audit", "--no-fund", "--offline", "--no-save", tarball], { cwd: dir, stdio: "pipe" });
  const probe = path.join(dir, "lians-probe.mjs");
  writeFileSync(probe, 'export * from "lians-score";\n');
  return {
    dir,
    tarball,
    importEsm: () => import(pathToFileURL(probe).href),
    requireCjs: () => createRequire(path.join(dir, "package.json"))("lians-score"),
  };
}
