#!/usr/bin/env node
// `npm run preview`: runs cli/run-preview.ts. Everything it imports but the plan harness
// is bundled into build/preview.js (only when a source changed) and run with V8's code cache,
// as `npm run synth` does (synth-bundle.js): loading cdktf and the constructs from source
// was a third of a preview. The plan harness (the package
// @coder-cdktf/terraform-harness, packages/terraform-harness/) stays a require at run time and is loaded
// from source (scripts/ts.js).
"use strict";
process.env.CHECKPOINT_DISABLE = "1";
const path = require("path");
require("./ts").register();
const { bundleEntry, run, INPUTS } = require("./synth-bundle");

const BUNDLE = path.join(__dirname, "..", "build", "preview.js");

let runPreview;
try {
  bundleEntry({
    entry: "cli/run-preview.ts",
    outfile: BUNDLE,
    inputs: [...INPUTS, "cli/run-preview.ts"],
    external: ["@coder-cdktf/terraform-harness"],
  });
  ({ runPreview } = run(BUNDLE));
} catch (error) {
  process.stderr.write(`preview failed: ${error && error.message ? error.message : error}\n`);
  process.exit(1);
}

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
