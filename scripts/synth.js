#!/usr/bin/env node
// `npm run synth` and cdktf.json's app: transpile (no type-checking) and run main.
"use strict";
const { build } = require("./build");
try {
  build();
} catch (e) {
  process.stderr.write(`build failed: ${e.message}\n`);
  process.exit(1);
}
require("../build/main.js");
