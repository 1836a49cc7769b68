#!/usr/bin/env node
// `npm run preview`: runs scripts/commands/run-preview.ts. Everything it imports, the plan harness
// (packages/terraform-harness) included, is bundled into build/preview.js (only when a source
// changed) and run with V8's code cache, as `npm run synth` does (synth-bundle.js): loading
// cdktf and the constructs from source was a third of a preview, and the harness from source
// (through esbuild's transform) another ~0.15 s. The mock provider still runs from the
// harness's folder, in a process of its own. The synthesized template is kept in
// build/preview-synth/ for the next preview of the same code and configuration.
"use strict";
process.env.CHECKPOINT_DISABLE = "1";
const fs = require("fs");
const os = require("os");
const path = require("path");

// Every temp folder of this run (the synthesized template, the harness's work dirs with the
// configuration and the Dev Container variables, the mock's sockets) is made in one private
// folder, removed when the process exits, also on Ctrl-C or SIGTERM, which would otherwise
// leave them behind. Terraform and the mock inherit TMPDIR.
const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), "coder-cdktf-preview-run-"));
process.env.TMPDIR = runTmp;
process.on("exit", () => fs.rmSync(runTmp, { recursive: true, force: true }));
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.once(signal, () => process.exit(code));
}
const { bundleEntry, run, INPUTS } = require("./synth-bundle");

const BUNDLE = path.join(__dirname, "..", "build", "preview.js");
const SYNTH_CACHE = path.join(__dirname, "..", "build", "preview-synth");

let runPreview;
try {
  bundleEntry({
    entry: "scripts/commands/run-preview.ts",
    outfile: BUNDLE,
    inputs: [...INPUTS, "scripts/commands/run-preview.ts", "packages/terraform-harness/src"],
  });
  let skipCdktfCreationStacks, useSynthCache;
  ({ runPreview, skipCdktfCreationStacks, useSynthCache } = run(BUNDLE));
  // Preview synthesizes a fixed, tested template: cdktf's creation stacks would only cost CPU.
  skipCdktfCreationStacks();
  // The template synthesized by an earlier preview of the same code and configuration
  // (app/preview/synth-cache.ts): the bundle is rewritten whenever one of its inputs changes.
  const bundle = fs.statSync(BUNDLE);
  useSynthCache({ dir: SYNTH_CACHE, codeVersion: `${bundle.size}-${bundle.mtimeMs}` });
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
