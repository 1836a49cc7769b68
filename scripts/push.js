#!/usr/bin/env node
// `npm run push`: runs scripts/commands/push.ts bundled with everything it imports into build/push.js
// (only when a source changed) and with V8's code cache, as `npm run synth` does
// (synth-bundle.js). Transpiling and loading cdktf and the constructs from source was most
// of a push's own time, and of every case of test/app/push/push.test.ts, which runs this.
"use strict";
process.env.CHECKPOINT_DISABLE = "1";
const path = require("path");
const { bundleEntry, run, INPUTS } = require("./synth-bundle");

const BUNDLE = path.join(__dirname, "..", "build", "push.js");

try {
  bundleEntry({
    entry: "scripts/commands/push.ts",
    outfile: BUNDLE,
    inputs: [...INPUTS, "scripts/commands/push.ts", "packages/terraform-harness/src"],
  });
} catch (error) {
  process.stderr.write(`push: ${error && error.message ? error.message : error}\n`);
  process.exit(1);
}
// push.ts reads its arguments from process.argv.slice(2), which are this script's.
run(BUNDLE);
