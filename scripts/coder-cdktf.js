#!/usr/bin/env node
// The project's command line, as package.json's `bin`: `npx coder-cdktf <command> [args…]`
// runs what `npm run <command> -- [args…]` runs, without npm's `> coder-cdktf@… <script>`
// banner on stdout (so `npx coder-cdktf preview --json …` prints only the JSON). Each command
// runs in this process, with its own launcher, as if that launcher had been started with the
// same arguments.
"use strict";
const path = require("path");
const Module = require("module");

/** command → the launcher `npm run <command>` starts (package.json scripts). */
const COMMANDS = {
  synth: { launcher: "synth.js", what: "write every template to cdktf.out/stacks/" },
  push: { launcher: "push.js", what: "synthesize one template and push it to Coder" },
  promote: { launcher: "promote.js", what: "make a version pushed with --activate=false active" },
  preview: { launcher: "preview.js", what: "what a repository's devcontainer.json becomes" },
  "plan-upgrade": {
    launcher: "plan-upgrade.js",
    what: "what a template version does to every existing workspace",
  },
  "new-template": {
    source: "commands/new-template.ts",
    what: "scaffold a new template (templates/<id>/, its tests)",
  },
};

function usage() {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return (
    "usage: coder-cdktf <command> [args…]\n\n" +
    Object.entries(COMMANDS)
      .map(([name, c]) => `  ${name.padEnd(width)}  ${c.what}`)
      .join("\n") +
    "\n\n`coder-cdktf <command> --help` describes a command's arguments.\n"
  );
}

const [command, ...args] = process.argv.slice(2);
if (command === undefined || command === "--help" || command === "-h" || command === "help") {
  process.stdout.write(usage());
  process.exit(command === undefined ? 2 : 0);
}
const entry = Object.prototype.hasOwnProperty.call(COMMANDS, command)
  ? COMMANDS[command]
  : undefined;
if (entry === undefined) {
  process.stderr.write(`coder-cdktf: unknown command "${command}"\n${usage()}`);
  process.exit(2);
}
// No checkpoint lookup (cdktf and Terraform ask HashiCorp for newer versions) from any command.
process.env.CHECKPOINT_DISABLE = "1";
if (entry.launcher !== undefined) {
  const launcher = path.join(__dirname, entry.launcher);
  process.argv = [process.argv[0], launcher, ...args];
  require(launcher);
} else {
  // A TypeScript command run as the main module (it checks `require.main`), as scripts/ts.js does.
  require("./ts").register();
  process.argv = [process.argv[0], path.join(__dirname, entry.source), ...args];
  Module.runMain();
}
