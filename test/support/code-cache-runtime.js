// jest `runtime`: jest's own, with V8's code cache for the modules it compiles.
//
// Every test file gets a fresh module registry, so each of the ~117 files compiles cdktf, the
// provider bindings and the project's sources again: in a profile of the whole suite, V8's
// compile of those modules was ~20 s. The cache stores V8's compiled form of each module
// (keyed by its file, source and the wrapper's parameters, per V8 version), as `npm run synth`'s
// bundle does (scripts/synth-bundle.js); V8 checks the source before it uses an entry and
// rejects a stale one, which is then compiled as before and replaced.
"use strict";
const crypto = require("crypto");
const path = require("path");
const vm = require("vm");
const JestRuntime = require("jest-runtime").default;
// Entries go through a temp file, as the transform's do: workers compile the same modules at once.
const { readCacheEntry, writeCacheEntry } = require("../../scripts/ts");

/**
 * The entry of a module in the cache under jest's `cacheDirectory`. By its absolute file, not
 * by its source alone: V8 (Node 20's) checks an entry's source but keeps the file name it was
 * made under, so the same module at another path (a copy of the project) would report the
 * first one's path in its stack traces.
 */
function cacheFile(cacheDirectory, source, parameters, filename) {
  const key = crypto
    .createHash("sha256")
    .update(`${filename}\0${parameters.join(",")}\0${source}`)
    .digest("hex");
  return path.join(cacheDirectory, `v8-code-cache-${process.versions.v8}`, `${key}.bin`);
}

/** Set in the workers to jest's cache directory, which holds the code cache. */
const CACHE_ENV = "CODER_CDKTF_JEST_CACHE_DIRECTORY";

class CodeCacheRuntime extends JestRuntime {
  constructor(...args) {
    super(...args);
    // Inside jest's cache directory, so `jest --clearCache` clears it too.
    const { cacheDirectory } = this._config;
    // The test file's own process.env (jest gives each file a copy).
    const testProcess = this._environment.global.process;
    if (testProcess && testProcess.env) testProcess.env[CACHE_ENV] = cacheDirectory;
    const executor = this.executor;
    const compile = executor.compile.bind(executor);
    executor.compile = (source, filename) => {
      const context = executor.environment.getVmContext();
      if (context == null || executor.resolution.isCoreModule(filename)) {
        return compile(source, filename);
      }
      const parameters = executor.injectedModuleParameters;
      const file = cacheFile(cacheDirectory, source, parameters, filename);
      const cachedData = readCacheEntry(file);
      const options = (withCache) => ({
        filename,
        parsingContext: context,
        ...(withCache ? { cachedData } : { produceCachedData: true }),
        importModuleDynamically: (specifier, _fn, attributes, ...rest) =>
          executor.dynamicImport(specifier, filename, context, attributes, rest[0]),
      });
      try {
        if (cachedData !== undefined) {
          const fn = vm.compileFunction(source, parameters, options(true));
          if (!fn.cachedDataRejected) return fn;
        }
        const fn = vm.compileFunction(source, parameters, options(false));
        if (fn.cachedDataProduced && fn.cachedData) writeCacheEntry(file, fn.cachedData);
        return fn;
      } catch {
        // Jest's own compile reports syntax errors its way.
        return compile(source, filename);
      }
    };
  }
}

module.exports = CodeCacheRuntime;
// For the runtime's own test, which reads the folder from CACHE_ENV.
module.exports.CACHE_ENV = CACHE_ENV;
module.exports.cacheFile = cacheFile;
