#!/usr/bin/env node
// The project's one way to run TypeScript: esbuild's transform, without type-checking (that
// is `npm run typecheck`), with the compiler options of tsconfig.json. Used three ways:
//   node scripts/ts.js scripts/commands/push.ts [args]   run a script (npm run push, docs, preview, …)
//   require("./ts").register()                  load .ts files from source (bench, preview)
//   jest.config.js `transform`                   the tests (this module is the transformer)
// and by `npm run synth`, which bundles main.ts with the same esbuild (synth-bundle.js).
"use strict";
const fs = require("fs");
const path = require("path");
const Module = require("module");

const root = path.resolve(__dirname, "..");
const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, "tsconfig.json"), "utf8"));

/**
 * esbuild's options for one file: CommonJS for Node 20, an inline source map for traces. The
 * map names the source by its base name, which resolves against the file's own folder (as
 * jest and Node read it), so the output is the same wherever the project is: a temp copy of
 * it (test/core/new-template.test.ts) reuses jest's transform cache.
 */
function options(filename) {
  return {
    loader: "ts",
    format: "cjs",
    target: "node20",
    sourcemap: "inline",
    sourcefile: path.basename(filename),
    tsconfigRaw: { compilerOptions },
    // `await import("…")` becomes a require, as CommonJS under jest needs (no VM modules).
    supported: { "dynamic-import": false },
  };
}

/** JavaScript for the TypeScript `source` of `filename`. */
function transpile(source, filename) {
  try {
    return require("esbuild").transformSync(source, options(filename)).code;
  } catch (e) {
    // esbuild names the file as the source map does (its base name): say which one.
    // (Not `instanceof Error`: under jest, esbuild's errors come from another realm.)
    if (e && Array.isArray(e.errors)) e.message = `${filename}: ${e.message}`;
    throw e;
  }
}

let fingerprint;
/** What the output depends on besides the file: esbuild's version and this module (its options). */
function transformFingerprint() {
  fingerprint ??= [
    require("esbuild/package.json").version,
    fs.readFileSync(__filename, "utf8"),
    JSON.stringify(compilerOptions),
  ].join("\0");
  return fingerprint;
}

/**
 * Changes with the source, the file's path from the project root, esbuild's version and this
 * module (its options): the same for the same file in a copy of the project elsewhere.
 */
function cacheKey(source, filename) {
  const file = path.relative(root, filename).split(path.sep).join("/");
  return require("crypto")
    .createHash("sha256")
    .update(`${transformFingerprint()}\0${file}\0${source}`)
    .digest("hex");
}

/** A cache entry's content (a Buffer without `encoding`), or undefined when there is none. */
function readCacheEntry(file, encoding) {
  try {
    return fs.readFileSync(file, encoding);
  } catch {
    return undefined;
  }
}

/**
 * Writes a cache entry through a temp file, so that a concurrent process (a jest worker)
 * never reads half of it. A cache that cannot be written only costs speed. For the jest
 * runtime's code cache (test/support/code-cache-runtime.js).
 */
function writeCacheEntry(file, data) {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, data);
    fs.renameSync(partial, file);
  } catch {
    // Left unwritten.
  }
}

/** Lets `require` load .ts files from source. */
function register() {
  if (Module._extensions[".ts"]) return;
  Module._extensions[".ts"] = function compileTs(module, filename) {
    module._compile(transpile(fs.readFileSync(filename, "utf8"), filename), filename);
  };
}

/** jest's transformer interface (`process`, `getCacheKey`). */
function transformForJest(source, filename) {
  return { code: transpile(source, filename) };
}

/** jest's key of the transform (jest.config.js sets the `id` that names the cache's folder). */
function getCacheKey(source, filename) {
  return cacheKey(source, filename);
}

module.exports = {
  register,
  transpile,
  readCacheEntry,
  writeCacheEntry,
  process: transformForJest,
  getCacheKey,
};

if (require.main === module) {
  const [script, ...args] = process.argv.slice(2);
  if (script === undefined) {
    process.stderr.write("usage: node scripts/ts.js <file.ts> [args…]\n");
    process.exit(2);
  }
  register();
  const file = path.resolve(script);
  // The script sees its own path and arguments, as if run by node directly.
  process.argv = [process.argv[0], file, ...args];
  Module.runMain();
}
