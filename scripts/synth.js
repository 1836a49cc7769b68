#!/usr/bin/env node
// `npm run synth` and cdktf.json's app: bundle (no type-checking; only when a source
// changed) and run main with V8's code cache. See synth-bundle.js.
"use strict";
const { bundle, run } = require("./synth-bundle");
try {
  bundle();
} catch (e) {
  process.stderr.write(`build failed: ${e.message}\n`);
  process.exit(1);
}
run();
