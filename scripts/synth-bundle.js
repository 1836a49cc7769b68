// The fast synth path: main.ts and everything it imports (our code, cdktf, the provider
// bindings) bundled into one file by esbuild, and run with V8's code cache.
//
// Why: most of a synth run is Node loading and compiling a few hundred modules (cdktf
// alone takes ~150 ms). One bundle removes the module resolution, and the code cache
// removes most of the compiling on every run after the first. No type-checking happens
// here; that is `npm run typecheck`.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const Module = require("module");

const root = path.resolve(__dirname, "..");
const BUNDLE = path.join(root, "build", "synth.js");
const CACHE = `${BUNDLE}.cache`;
/** What the bundle is made of: rebuilt when any of these is newer than it. */
const INPUTS = ["main.ts", "lib", "templates", ".gen", "package-lock.json"];

function newestMtime(rel) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return 0;
  const st = fs.statSync(abs);
  if (!st.isDirectory()) return st.mtimeMs;
  return fs
    .readdirSync(abs)
    .reduce((m, e) => Math.max(m, newestMtime(path.join(rel, e))), st.mtimeMs);
}

/** Bundles main.ts into build/synth.js unless the bundle is newer than every input. */
function bundle() {
  if (!fs.existsSync(path.join(root, ".gen", "providers"))) {
    throw new Error(".gen/providers is missing: run `npm run gen:providers` (npm ci runs it)");
  }
  const built = fs.existsSync(BUNDLE) ? fs.statSync(BUNDLE).mtimeMs : -1;
  if (built >= Math.max(...INPUTS.map(newestMtime))) return false;
  require("esbuild").buildSync({
    entryPoints: [path.join(root, "main.ts")],
    bundle: true,
    platform: "node",
    target: "node20",
    // jsonc-parser's UMD build requires its parts dynamically; its ESM build bundles.
    mainFields: ["module", "main"],
    outfile: BUNDLE,
    logLevel: "error",
  });
  fs.rmSync(CACHE, { force: true });
  return true;
}

/** Runs the bundle as the main module, with V8's code cache from the previous run. */
function run() {
  const source = fs.readFileSync(BUNDLE, "utf8");
  const cachedData = fs.existsSync(CACHE) ? fs.readFileSync(CACHE) : undefined;
  const script = new vm.Script(Module.wrap(source), { filename: BUNDLE, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    // Written at exit, so the cache also holds the functions this run compiled lazily.
    process.on("exit", () => {
      try {
        fs.writeFileSync(CACHE, script.createCachedData());
      } catch {
        // A cache that cannot be written only costs speed next time.
      }
    });
  }
  const mod = new Module(BUNDLE, null);
  mod.filename = BUNDLE;
  mod.paths = Module._nodeModulePaths(path.dirname(BUNDLE));
  const wrapper = script.runInThisContext();
  wrapper.call(
    mod.exports,
    mod.exports,
    (id) => mod.require(id),
    mod,
    BUNDLE,
    path.dirname(BUNDLE),
  );
}

module.exports = { bundle, run, BUNDLE };
