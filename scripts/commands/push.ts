// `npm run push -- <template> [--dry-run] [--variables-file f.yaml] [--message m] [--name v]
//                 [--activate=false] [--check-upgrade [--allow-data-loss]]
//                 [--config coder-cdktf.jsonc] [--outdir cdktf.out] [--providers-mirror <dir|url>]`
//
// Synthesizes one template, checks the variables file against its variables, then publishes
// it with `coder templates push` (its static provisioner tags included, the version named
// after the git commit and described by its subject unless --name/--message say otherwise),
// and sets its display name, description, icon and the operator's coderSettings with
// `coder templates edit`. It asks `coder version` first: flags differ by release
// (app/coder-version.ts). Before the push it writes .terraform.lock.hcl into the folder with
// `terraform providers lock` (app/push/provider-lock.ts; --providers-mirror: from a mirror
// instead of the registry). --dry-run prints the commands instead of running them.
// This file reads the command line; the stages are app/push/pipeline.ts.
// `npm run push` runs it bundled (scripts/push.js); from source: `node scripts/ts.js scripts/commands/push.ts …`.
import { parseCommandLine, UsageError } from "../../app/cli-args";
import { pushTemplate, type PushArgs } from "../../app/push/pipeline";
import { versionNameProblem } from "../../app/git-version";

const USAGE =
  "usage: npm run push -- <template> [--dry-run] [--variables-file <file.yaml>] [--message <text>] " +
  "[--name <version>] [--activate=false] [--check-upgrade [--allow-data-loss]] " +
  "[--config <file.jsonc>] [--outdir <dir>] [--providers-mirror <dir or https URL>]";

const EXIT_USAGE = 2;

/** Options that take a value: the word after one of them is that value, never a flag. */
const VALUE_OPTIONS = [
  "--variables-file",
  "--message",
  "-m",
  "--name",
  "--config",
  "--outdir",
  "--providers-mirror",
];

/**
 * `--activate` as the coder CLI spells it: `--activate`, `--activate=true|false`; also
 * `--no-activate`. Node's parseArgs takes no value after a boolean, so it is read here.
 */
function readActivate(argv: readonly string[]): { activate: boolean; rest: string[] } {
  let activate = true;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (VALUE_OPTIONS.includes(arg)) {
      rest.push(arg, ...argv.slice(i + 1, i + 2));
      i++;
      continue;
    }
    const match = /^--activate(?:=(.*))?$/.exec(arg);
    if (match !== null) {
      if (match[1] !== undefined && match[1] !== "true" && match[1] !== "false") {
        throw new UsageError(`--activate takes true or false (got "${match[1]}")\n${USAGE}`);
      }
      activate = match[1] !== "false";
    } else if (arg === "--no-activate") activate = false;
    else rest.push(arg);
  }
  return { activate, rest };
}

function readArgs(argv: readonly string[]): PushArgs {
  const { activate, rest } = readActivate(argv);
  const { values, positionals } = parseCommandLine(
    rest,
    {
      "dry-run": { type: "boolean", default: false },
      "variables-file": { type: "string" },
      message: { type: "string", short: "m" },
      name: { type: "string" },
      "check-upgrade": { type: "boolean", default: false },
      "allow-data-loss": { type: "boolean", default: false },
      config: { type: "string" },
      outdir: { type: "string" },
      "providers-mirror": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    USAGE,
  );
  if (values.help) throw new UsageError(USAGE);
  if (positionals.length !== 1) {
    throw new UsageError(
      `${positionals.length === 0 ? "name the template to push" : `one template at a time (got ${positionals.join(", ")})`}\n${USAGE}`,
    );
  }
  if (values.name !== undefined) {
    const problem = versionNameProblem(values.name);
    if (problem !== undefined) throw new UsageError(`--name ${values.name}: ${problem}\n${USAGE}`);
  }
  if (values["allow-data-loss"] === true && values["check-upgrade"] !== true) {
    throw new UsageError(`--allow-data-loss only goes with --check-upgrade\n${USAGE}`);
  }
  return {
    template: positionals[0],
    dryRun: values["dry-run"] === true,
    variablesFile: values["variables-file"],
    message: values.message,
    name: values.name,
    activate,
    checkUpgrade: values["check-upgrade"] === true,
    allowDataLoss: values["allow-data-loss"] === true,
    config: values.config,
    outdir: values.outdir,
    providersMirror: values["providers-mirror"],
    usage: USAGE,
  };
}

/** Reads the command line and pushes; a usage error, thrown here too, rejects. */
async function main(argv: readonly string[]): Promise<number> {
  return pushTemplate(readArgs(argv), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`push: ${message}\n`);
    process.exit(e instanceof UsageError ? EXIT_USAGE : 1);
  },
);
