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
/** What the bundle is made of: rebuilt when any of these is newer than it. */
const INPUTS = [
  "main.ts",
  "lib",
  "app",
  "templates",
  ".gen",
  "package-lock.json",
  "scripts/bundle-stubs",
];

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
  return bundleEntry({ entry: "main.ts", outfile: BUNDLE, inputs: INPUTS });
}

/**
 * Bundles `entry` (relative to the root) into `outfile` unless it is newer than every one of
 * `inputs`. `external`: packages by name, or folders (relative to the root), left to a require at run time, with
 * the path as the source wrote it (an outfile in build/ resolves `../x` as the source in a
 * top-level folder does). Written through a temp file, so a concurrent run never loads half.
 */
function bundleEntry({ entry, outfile, inputs, external = [] }) {
  if (!fs.existsSync(path.join(root, ".gen", "providers"))) {
    throw new Error(".gen/providers is missing: run `npm run gen:providers` (npm ci runs it)");
  }
  const built = fs.existsSync(outfile) ? fs.statSync(outfile).mtimeMs : -1;
  if (built >= Math.max(...inputs.map(newestMtime))) return false;
  const result = require("esbuild").buildSync({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform: "node",
    target: "node20",
    // jsonc-parser's UMD build requires its parts dynamically; its ESM build bundles.
    mainFields: ["module", "main"],
    outfile,
    external: external.map((e) => (e.startsWith("@") ? e : path.join(root, e))),
    // Packages cdktf loads at start for features no template uses (see each stub).
    alias: { archiver: path.join(__dirname, "bundle-stubs", "archiver.js") },
    write: false,
    logLevel: "error",
  });
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  const temp = `${outfile}.${process.pid}.tmp`;
  fs.writeFileSync(temp, result.outputFiles[0].contents);
  fs.renameSync(temp, outfile);
  fs.rmSync(`${outfile}.cache`, { force: true });
  return true;
}

/**
 * Runs a bundle (build/synth.js by default) as a module, with V8's code cache from the
 * previous run. Returns its exports.
 */
function run(file = BUNDLE) {
  const cache = `${file}.cache`;
  const source = fs.readFileSync(file, "utf8");
  const cachedData = fs.existsSync(cache) ? fs.readFileSync(cache) : undefined;
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) {
    // Written at exit, so the cache also holds the functions this run compiled lazily.
    process.on("exit", () => {
      try {
        fs.writeFileSync(cache, script.createCachedData());
      } catch {
        // A cache that cannot be written only costs speed next time.
      }
    });
  }
  const mod = new Module(file, null);
  mod.filename = file;
  const wrapper = script.runInThisContext();
  // A real require (with `require.resolve`), resolving from the bundle's folder.
  const requireFromBundle = Module.createRequire(file);
  wrapper.call(mod.exports, mod.exports, requireFromBundle, mod, file, path.dirname(file));
  return mod.exports;
}

module.exports = { bundle, bundleEntry, run, BUNDLE, INPUTS };
