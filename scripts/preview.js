#!/usr/bin/env node
// `npm run preview`: runs scripts/run-preview.ts from source (scripts/ts.js). It uses the plan
// harness under test/ (to move to its own package: docs/architecture.md).
"use strict";
process.env.CHECKPOINT_DISABLE = "1";
require("./ts").register();
const { runPreview } = require("./run-preview.ts");

runPreview(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`preview failed: ${error && error.message ? error.message : error}\n`);
    process.exitCode = 1;
  },
);
