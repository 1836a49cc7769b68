#!/usr/bin/env node
// The project's one way to run TypeScript: esbuild's transform, without type-checking (that
// is `npm run typecheck`), with the compiler options of tsconfig.json. Used three ways:
//   node scripts/ts.js cli/push.ts [args]   run a script (npm run push, docs, preview, …)
//   require("./ts").register()                  load .ts files from source (bench, preview)
//   jest.config.js `transform`                   the tests (this module is the transformer)
// and by `npm run synth`, which bundles main.ts with the same esbuild (synth-bundle.js).
"use strict";
const fs = require("fs");
const path = require("path");
const Module = require("module");

const root = path.resolve(__dirname, "..");
const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, "tsconfig.json"), "utf8"));

/** esbuild's options for one file: CommonJS for Node 20, an inline source map for traces. */
function options(filename) {
  return {
    loader: "ts",
    format: "cjs",
    target: "node20",
    sourcemap: "inline",
    sourcefile: filename,
    tsconfigRaw: { compilerOptions },
    // `await import("…")` becomes a require, as CommonJS under jest needs (no VM modules).
    supported: { "dynamic-import": false },
  };
}

/** JavaScript for the TypeScript `source` of `filename`. */
function transpile(source, filename) {
  return require("esbuild").transformSync(source, options(filename)).code;
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

/** Changes with the source, the file, esbuild's version and this module (its options). */
function getCacheKey(source, filename) {
  const version = require("esbuild/package.json").version;
  const self = fs.readFileSync(__filename, "utf8");
  return require("crypto")
    .createHash("sha256")
    .update(`${version}\0${self}\0${JSON.stringify(compilerOptions)}\0${filename}\0${source}`)
    .digest("hex");
}

module.exports = { register, transpile, process: transformForJest, getCacheKey };

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
