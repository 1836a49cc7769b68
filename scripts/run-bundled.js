// Runs one command of scripts/commands/ bundled with everything it imports into
// build/<command>.js (only when a source changed) and with V8's code cache, as `npm run synth`
// does (synth-bundle.js). Transpiling and loading cdktf and the constructs from source was
// most of a push's own time, and of every case of the tests that run these commands.
// Used by scripts/push.js, promote.js and plan-upgrade.js. The harness is an input: push
// runs the upgrade check (plan-upgrade) when asked.
"use strict";
const path = require("path");
const { bundleEntry, run, INPUTS } = require("./synth-bundle");

function runBundled(command) {
  process.env.CHECKPOINT_DISABLE = "1";
  const entry = `scripts/commands/${command}.ts`;
  const bundle = path.join(__dirname, "..", "build", `${command}.js`);
  try {
    bundleEntry({
      entry,
      outfile: bundle,
      inputs: [...INPUTS, entry, "packages/terraform-harness/src"],
    });
  } catch (error) {
    process.stderr.write(`${command}: ${error && error.message ? error.message : error}\n`);
    process.exit(1);
  }
  // The command reads its arguments from process.argv.slice(2), which are the launcher's.
  run(bundle);
}

module.exports = { runBundled };
