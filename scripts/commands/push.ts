// `npm run push -- <template> [--dry-run] [--variables-file f.yaml] [--message m]
//                 [--config coder-cdktf.jsonc] [--outdir cdktf.out]`
//
// Synthesizes one template, then publishes it with `coder templates push` (its static
// provisioner tags included) and sets its display name, description and icon with
// `coder templates edit`. It asks `coder version` first: flags differ by release
// (app/coder-version.ts). --dry-run prints the commands instead of running them.
// `npm run push` runs it bundled (scripts/push.js); from source: `node scripts/ts.js scripts/commands/push.ts …`.
import * as fs from "fs";
import * as path from "path";
import { parse as parseYaml } from "yaml";
import { parseCommandLine, UsageError } from "../../app/cli-args";
import { coderVersionOf, findOnPath, runStreaming, shellQuote } from "../../app/coder-cli";
import { formatCoderVersion, type CoderVersion } from "../../app/coder-version";
import { projectRoot } from "../../lib/core/project-root";
import { planPush } from "../../app/template-push";
import { TEMPLATES } from "../../app/registry";
import { loadConfigFor } from "../../app/load-config";
import { synthTemplates } from "../../app/synth";
import {
  checkUpgradeBeforePush,
  UPGRADE_CHECK_OPTIONS,
  UPGRADE_CHECK_USAGE,
  upgradeCheckRequest,
  type UpgradeCheckRequest,
} from "../../app/upgrade/push-hook";

const USAGE =
  "usage: npm run push -- <template> [--dry-run] [--variables-file <file.yaml>] [--message <text>] " +
  `[--config <file.jsonc>] [--outdir <dir>] ${UPGRADE_CHECK_USAGE}`;

/** Exit status when `coder` is missing, as a shell reports "command not found". */
const EXIT_NO_CLI = 127;
const EXIT_USAGE = 2;

interface PushArgs {
  readonly template: string;
  readonly dryRun: boolean;
  readonly variablesFile?: string;
  readonly message?: string;
  readonly config?: string;
  readonly outdir?: string;
  readonly upgradeCheck: UpgradeCheckRequest;
}

function readArgs(argv: readonly string[]): PushArgs {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      "dry-run": { type: "boolean", default: false },
      "variables-file": { type: "string" },
      message: { type: "string", short: "m" },
      config: { type: "string" },
      outdir: { type: "string" },
      help: { type: "boolean", short: "h" },
      ...UPGRADE_CHECK_OPTIONS,
    },
    USAGE,
  );
  if (values.help) throw new UsageError(USAGE);
  if (positionals.length !== 1) {
    throw new UsageError(
      `${positionals.length === 0 ? "name the template to push" : `one template at a time (got ${positionals.join(", ")})`}\n${USAGE}`,
    );
  }
  return {
    template: positionals[0],
    dryRun: values["dry-run"] === true,
    variablesFile: values["variables-file"],
    message: values.message,
    config: values.config,
    outdir: values.outdir,
    upgradeCheck: upgradeCheckRequest(values),
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
  // The flags a push may use depend on the CLI's release (app/coder-version.ts); a dry run
  // without a CLI prints the commands for the release planPush assumes.
  let coderVersion: CoderVersion | null | undefined;
  if (coder !== undefined) {
    coderVersion = coderVersionOf(coder) ?? null;
    const shown = coderVersion === null ? "version unknown" : formatCoderVersion(coderVersion);
    process.stderr.write(`coder CLI: ${coder} (${shown})\n`);
  }
  let variablesFile: string | undefined;
  let variablesFileNames: string[] = [];
  if (args.variablesFile !== undefined) {
    variablesFile = path.resolve(args.variablesFile);
    if (!fs.existsSync(variablesFile)) {
      throw new UsageError(`--variables-file ${args.variablesFile}: file not found`);
    }
    variablesFileNames = yamlMapKeys(args.variablesFile, fs.readFileSync(variablesFile, "utf8"));
  }

  const config = loadConfigFor(args.config === undefined ? [] : ["--config", args.config]);
  const id = templateId(args.template, config?.templates);
  const outdir = args.outdir ?? process.env.CDKTF_OUTDIR ?? path.join(projectRoot(), "cdktf.out");
  const [template] = synthTemplates({ outdir, only: [id], config });
  process.stderr.write(`synthesized ${template.dir}\n`);
  const refused = await checkUpgradeBeforePush(template, args.upgradeCheck, { variablesFile });
  if (refused !== undefined) return refused;

  const plan = planPush(template, {
    variablesFile,
    variablesFileNames,
    message: args.message,
    coderVersion,
  });
  for (const note of plan.notes) process.stderr.write(`note: ${note}\n`);
  if (args.dryRun || coder === undefined) {
    process.stdout.write(`coder ${shellQuote(plan.push)}\ncoder ${shellQuote(plan.edit)}\n`);
    return 0;
  }

  process.stderr.write(`running: coder ${shellQuote(plan.push)}\n`);
  const pushed = await runStreaming(coder, plan.push);
  if (pushed.exitCode !== 0) {
    process.stderr.write(
      `push failed: coder templates push exited with ${pushed.exitCode}` +
        (pushed.lastLines.length > 0 ? `:\n  ${pushed.lastLines.join("\n  ")}\n` : "\n"),
    );
    return pushed.exitCode;
  }
  process.stderr.write(`running: coder ${shellQuote(plan.edit)}\n`);
  const edited = await runStreaming(coder, plan.edit);
  if (edited.exitCode !== 0) {
    process.stderr.write(
      `pushed ${template.name}, but setting its display name, description and icon failed ` +
        `(coder templates edit exited with ${edited.exitCode})` +
        (edited.lastLines.length > 0 ? `:\n  ${edited.lastLines.join("\n  ")}\n` : "\n"),
    );
    return edited.exitCode;
  }
  process.stderr.write(`pushed ${template.name} from ${template.dir}\n`);
  return 0;
}

/**
 * The names a --variables-file sets (a YAML map, as Coder reads it). Only the names are
 * kept: the values may be secret and stay in the file.
 */
function yamlMapKeys(given: string, text: string): string[] {
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (e) {
    throw new UsageError(
      `--variables-file ${given}: not valid YAML (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`,
    );
  }
  if (parsed === null || parsed === undefined) return [];
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UsageError(
      `--variables-file ${given}: must be a YAML map of variable names to values`,
    );
  }
  return Object.keys(parsed);
}

/** The template id for a name given on the command line: an id, or a Coder name from the config. */
function templateId(given: string, configured?: ReadonlyMap<string, { name?: string }>): string {
  if (TEMPLATES.some((t) => t.id === given)) return given;
  for (const [id, settings] of configured ?? []) if (settings.name === given) return id;
  throw new UsageError(
    `unknown template "${given}"; known: ${TEMPLATES.map((t) => t.id).join(", ")}\n${USAGE}`,
  );
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`push: ${message}\n`);
    process.exit(e instanceof UsageError ? EXIT_USAGE : 1);
  },
);
