#!/usr/bin/env node
// `npm run plan-upgrade`: runs scripts/commands/plan-upgrade.ts bundled with everything it
// imports, the plan harness included, into build/plan-upgrade.js (only when a source changed),
// as `npm run preview` does. Every temp folder of the run (the synthesized template, the
// harness's work dirs, which hold each workspace's state and so its tokens, the mock's
// sockets) is made in one private folder, removed at exit, also on Ctrl-C or SIGTERM.
"use strict";
process.env.CHECKPOINT_DISABLE = "1";
const fs = require("fs");
const os = require("os");
const path = require("path");

const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), "coder-cdktf-plan-upgrade-"));
process.env.TMPDIR = runTmp;
process.on("exit", () => fs.rmSync(runTmp, { recursive: true, force: true }));
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  // `on`, not `once`: each of the plans running in parallel may pass the signal on, and a
  // second one without a handler would kill the process before the folder is removed.
  process.on(signal, () => process.exit(code));
}
const { bundleEntry, run, INPUTS } = require("./synth-bundle");

const BUNDLE = path.join(__dirname, "..", "build", "plan-upgrade.js");

let runPlanUpgrade;
try {
  bundleEntry({
    entry: "scripts/commands/plan-upgrade.ts",
    outfile: BUNDLE,
    inputs: [...INPUTS, "scripts/commands/plan-upgrade.ts", "packages/terraform-harness/src"],
  });
  let skipCdktfCreationStacks;
  ({ runPlanUpgrade, skipCdktfCreationStacks } = run(BUNDLE));
  // The template is synthesized from tested code: cdktf's creation stacks would only cost CPU.
  skipCdktfCreationStacks();
} catch (error) {
  process.stderr.write(`plan-upgrade: ${error && error.message ? error.message : error}\n`);
  process.exit(1);
}

runPlanUpgrade(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`plan-upgrade: ${error && error.message ? error.message : error}\n`);
    process.exitCode = 1;
  },
);
