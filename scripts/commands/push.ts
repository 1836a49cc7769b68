// `npm run push -- <template> [--dry-run] [--variables-file f.yaml] [--message m] [--name v]
//                 [--activate=false] [--check-upgrade [--allow-data-loss]]
//                 [--config coder-cdktf.jsonc] [--outdir cdktf.out]`
//
// Synthesizes one template, checks the variables file against its variables, then publishes
// it with `coder templates push` (its static provisioner tags included, the version named
// after the git commit and described by its subject unless --name/--message say otherwise),
// and sets its display name, description, icon and the operator's coderSettings with
// `coder templates edit`. It asks `coder version` first: flags differ by release
// (app/coder-version.ts). --dry-run prints the commands instead of running them.
// `npm run push` runs it bundled (scripts/push.js); from source: `node scripts/ts.js scripts/commands/push.ts …`.
import * as fs from "fs";
import * as path from "path";
import { parseCommandLine, UsageError } from "../../app/cli-args";
import { announceCoderVersion, findOnPath, runCoderStep, shellQuote } from "../../app/coder-cli";
import { projectRoot } from "../../lib/core/project-root";
import { planPush } from "../../app/template-push";
import { templateIdFor } from "../../app/template-id";
import { loadConfigFor } from "../../app/load-config";
import { checkUpgradeBeforePush } from "../../app/upgrade/push-hook";
import { synthTemplates } from "../../app/synth";
import {
  checkVariablesFile,
  requiredWithoutValue,
  VariablesFileError,
  type SynthesizedVariable,
} from "../../app/variables-file";
import {
  defaultVersionMessage,
  defaultVersionName,
  gitVersionOf,
  versionNameProblem,
} from "../../app/git-version";

const USAGE =
  "usage: npm run push -- <template> [--dry-run] [--variables-file <file.yaml>] [--message <text>] " +
  "[--name <version>] [--activate=false] [--check-upgrade [--allow-data-loss]] " +
  "[--config <file.jsonc>] [--outdir <dir>]";

/** Exit status when `coder` is missing, as a shell reports "command not found". */
const EXIT_NO_CLI = 127;
const EXIT_USAGE = 2;

interface PushArgs {
  readonly template: string;
  readonly dryRun: boolean;
  readonly variablesFile?: string;
  readonly message?: string;
  readonly name?: string;
  readonly activate: boolean;
  readonly checkUpgrade: boolean;
  readonly allowDataLoss: boolean;
  readonly config?: string;
  readonly outdir?: string;
}

/** Options that take a value: the word after one of them is that value, never a flag. */
const VALUE_OPTIONS = ["--variables-file", "--message", "-m", "--name", "--config", "--outdir"];

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
  };
}

async function main(argv: readonly string[]): Promise<number> {
  const args = readArgs(argv);
  // Check for the CLI first: no point synthesizing for a push that cannot run.
  const coder = findOnPath("coder");
  if (coder === undefined && !args.dryRun) {
    process.stderr.write(
      "push: the Coder CLI (`coder`) is not on PATH. Install it (your deployment serves it at " +
        "<CODER_URL>/bin/, or see https://coder.com/docs/install/cli), log in with " +
        "`coder login <CODER_URL>`, and run this again. `--dry-run` prints the commands without it.\n",
    );
    return EXIT_NO_CLI;
  }
  let variablesFile: string | undefined;
  if (args.variablesFile !== undefined) {
    variablesFile = path.resolve(args.variablesFile);
    if (!fs.existsSync(variablesFile)) {
      throw new UsageError(`--variables-file ${args.variablesFile}: file not found`);
    }
  }

  const config = loadConfigFor(args.config === undefined ? [] : ["--config", args.config]);
  const id = templateIdFor(args.template, config?.templates, USAGE);
  const outdir = args.outdir ?? process.env.CDKTF_OUTDIR ?? path.join(projectRoot(), "cdktf.out");
  const [template] = synthTemplates({ outdir, only: [id], config });
  process.stderr.write(`synthesized ${template.dir}\n`);

  // The variables, checked against the template before anything runs.
  const variables = (template.model.variable ?? {}) as Record<string, SynthesizedVariable>;
  const configured = Object.keys(template.configuredVariables);
  let variablesFileNames: readonly string[] = [];
  try {
    if (variablesFile !== undefined) {
      variablesFileNames = checkVariablesFile(
        args.variablesFile!,
        fs.readFileSync(variablesFile, "utf8"),
        variables,
        configured,
      ).names;
    } else {
      const missing = requiredWithoutValue(variables, configured);
      if (missing.length > 0 && args.dryRun) {
        // A dry run shows the commands anyway; the push itself would stop here.
        process.stderr.write(
          `note: ${template.name} has required variables without a value: ${missing.join(", ")}; ` +
            `a push stops here until templates.${id}.variables or --variables-file sets them\n`,
        );
      } else if (missing.length > 0) {
        throw new VariablesFileError(
          `${template.name}: required variable${missing.length > 1 ? "s" : ""} without a value: ` +
            `${missing.join(", ")}. Set ${missing.length > 1 ? "them" : "it"} under templates.${id}.variables ` +
            `in coder-cdktf.jsonc, or in a file given with --variables-file.`,
        );
      }
    }
  } catch (e) {
    if (e instanceof VariablesFileError) throw new UsageError(e.message);
    throw e;
  }

  // The version's name and message: given, else from the commit the templates come from.
  const git =
    args.name !== undefined && args.message !== undefined ? undefined : gitVersionOf(projectRoot());
  const versionName =
    args.name ?? (git === undefined ? undefined : defaultVersionName(git, template.dir));
  const message = args.message ?? (git === undefined ? undefined : defaultVersionMessage(git));
  if (git === undefined && (args.name === undefined || args.message === undefined)) {
    process.stderr.write(
      `note: ${projectRoot()} is not a git checkout (or git is missing): ` +
        `Coder names the version and writes its message itself\n`,
    );
  } else if (git?.dirty === true && args.name === undefined) {
    process.stderr.write(
      `note: the checkout has uncommitted changes: the version is named ${versionName} ` +
        `(commit ${git.shortSha}, marked dirty, with a digest of what is pushed)\n`,
    );
  }
  if (!args.activate && versionName === undefined) {
    throw new UsageError(
      `--activate=false needs a version name to promote later: give --name <version>\n${USAGE}`,
    );
  }

  // The flags a push may use depend on the CLI's release (app/coder-version.ts); a dry run
  // without a CLI prints the commands for the release planPush assumes.
  const coderVersion = coder === undefined ? undefined : announceCoderVersion(coder);

  // Before anything is pushed: what this version does to every workspace (plan-upgrade).
  const stop = await checkUpgradeBeforePush(
    template,
    { checkUpgrade: args.checkUpgrade, allowDataLoss: args.allowDataLoss },
    { variablesFile },
  );
  if (stop !== undefined) return stop;

  const plan = planPush(template, {
    variablesFile,
    variablesFileNames,
    message,
    versionName,
    activate: args.activate,
    coderSettings: config?.templates?.get(id)?.coderSettings,
    coderVersion,
  });
  for (const note of plan.notes) process.stderr.write(`note: ${note}\n`);
  if (args.dryRun || coder === undefined) {
    const edit = plan.edit === undefined ? "" : `coder ${shellQuote(plan.edit)}\n`;
    process.stdout.write(`coder ${shellQuote(plan.push)}\n${edit}`);
    return 0;
  }

  const pushed = await runCoderStep(coder, plan.push, "push failed");
  if (pushed !== 0) return pushed;
  if (plan.edit !== undefined) {
    const edited = await runCoderStep(
      coder,
      plan.edit,
      `pushed ${template.name}, but setting its display name, description, icon and settings failed`,
    );
    if (edited !== 0) return edited;
  }
  process.stderr.write(
    `pushed ${template.name} from ${template.dir}` +
      (versionName === undefined ? "" : ` as version ${versionName}`) +
      (args.activate ? "" : " (inactive)") +
      "\n",
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`push: ${message}\n`);
    process.exit(e instanceof UsageError ? EXIT_USAGE : 1);
  },
);
