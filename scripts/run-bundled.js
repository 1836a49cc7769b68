// Runs one command of scripts/commands/ bundled with everything it imports into
// build/<command>.js (only when a source changed) and with V8's code cache, as `npm run synth`
// does (synth-bundle.js). Transpiling and loading cdktf and the constructs from source was
// most of a push's own time, and of every case of the tests that run these commands.
// Used by scripts/push.js, promote.js, preview.js and plan-upgrade.js. The harness is an
// input: push runs the upgrade check (plan-upgrade) when asked.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");

const BUILD = path.join(__dirname, "..", "build");

/** Bundles `entry` into build/<name>.js when a source changed; exits 1 when that fails. */
function bundled(entry, name, label) {
  const { bundleEntry, INPUTS } = require("./synth-bundle");
  const bundle = path.join(BUILD, `${name}.js`);
  try {
    bundleEntry({
      entry,
      outfile: bundle,
      inputs: [...INPUTS, entry, "packages/terraform-harness/src"],
    });
  } catch (error) {
    process.stderr.write(`${label}: ${error && error.message ? error.message : error}\n`);
    process.exit(1);
  }
  return bundle;
}

/**
 * Removes `dir` and all it holds, again while it fails with ENOTEMPTY: on a Ctrl-C a child
 * (Terraform winding down, the mock provider) may still add files to its work dir while the
 * tree is removed, and a plain rmSync then throws, which turns exit 130 into 1. Once its
 * folder is gone the child cannot add anything, so a few tries are enough. The same loop as
 * app/upgrade/push-hook.ts's: this file cannot import app/ before the bundle loads.
 */
function removeTreeSync(dir) {
  for (let attempt = 1; ; attempt++) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    } catch (error) {
      if (error.code !== "ENOTEMPTY" || attempt === 50) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/** A command that runs itself from process.argv.slice(2) when its bundle loads (push, promote). */
function runBundled(command) {
  process.env.CHECKPOINT_DISABLE = "1";
  const bundle = bundled(`scripts/commands/${command}.ts`, command, command);
  require("./synth-bundle").run(bundle);
}

/**
 * A command whose bundle exports `main(argv, io)` and plans with the harness (preview,
 * plan-upgrade). Every temp folder of the run (the synthesized template, the harness's work
 * dirs, which hold the configuration, the Dev Container variables or a workspace's state, the
 * mock's sockets) is made in one private folder, removed when the process exits, also on
 * Ctrl-C or SIGTERM, which would otherwise leave them behind; Terraform and the mock inherit
 * TMPDIR. `on`, not `once`: each of the plans running in parallel may pass the signal on, and
 * a second one without a handler would kill the process before the folder is removed.
 * `prepare(exports, bundle)` returns the main function; the template is synthesized from
 * tested code, so cdktf's creation stacks (which only cost CPU) are skipped.
 */
function runPlanningCommand({ entry, name, tmpPrefix, label, prepare }) {
  process.env.CHECKPOINT_DISABLE = "1";
  const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  process.env.TMPDIR = runTmp;
  process.on("exit", () => removeTreeSync(runTmp));
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ]) {
    process.on(signal, () => process.exit(code));
  }
  const fail = (error) => `${label}: ${error && error.message ? error.message : error}\n`;
  const bundle = bundled(entry, name, label);
  let main;
  try {
    const exports = require("./synth-bundle").run(bundle);
    exports.skipCdktfCreationStacks();
    main = prepare(exports, bundle);
  } catch (error) {
    process.stderr.write(fail(error));
    process.exit(1);
  }
  main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(fail(error));
      process.exitCode = 1;
    },
  );
}

module.exports = { BUILD, runBundled, runPlanningCommand };
