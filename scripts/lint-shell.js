#!/usr/bin/env node
// `npm run lint` (after eslint): ShellCheck, all severities, over every shell script the
// project ships or runs: *.sh under templates/, lib/, app/, test/
// and packages/, and .ci/run. Without
// shellcheck it fails and says how to install it (.ci/run does).
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "..");
/** Folders whose *.sh files are embedded into templates, run by them, or run by tests. */
const SCRIPT_ROOTS = ["templates", "lib", "app", "test", "packages"];
/** Shell scripts without the .sh suffix. */
const OTHER_SCRIPTS = [".ci/run"];
const INSTALL_HINT =
  "shellcheck is not installed: `apt-get install -y shellcheck` (Debian/Ubuntu), " +
  "`brew install shellcheck` (macOS); .ci/run installs it";

function shellScriptsUnder(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : shellScriptsUnder(file);
    return entry.isFile() && entry.name.endsWith(".sh") ? [file] : [];
  });
}

/** Every script to check, relative to `root`, sorted. */
function shellScripts(root = ROOT) {
  return [
    ...SCRIPT_ROOTS.flatMap((dir) => shellScriptsUnder(path.join(root, dir))),
    ...OTHER_SCRIPTS.map((file) => path.join(root, file)).filter((f) => fs.existsSync(f)),
  ]
    .map((file) => path.relative(root, file).split(path.sep).join("/"))
    .sort();
}

/** Runs shellcheck on the scripts under `root`; returns the exit status and what to print. */
function lintShell(root = ROOT, shellcheck = "shellcheck") {
  const version = spawnSync(shellcheck, ["--version"], { encoding: "utf8" });
  if (version.error || version.status !== 0) return { status: 2, output: INSTALL_HINT };
  const scripts = shellScripts(root);
  if (scripts.length === 0) return { status: 0, output: "" };
  const run = spawnSync(shellcheck, ["--format=gcc", ...scripts], { cwd: root, encoding: "utf8" });
  const output = `${run.stdout}${run.stderr}`.trim();
  return { status: run.status === 0 && output === "" ? 0 : 1, output };
}

module.exports = { shellScripts, lintShell, INSTALL_HINT };

if (require.main === module) {
  const { status, output } = lintShell();
  if (output) process.stderr.write(`${output}\n`);
  process.exit(status);
}
