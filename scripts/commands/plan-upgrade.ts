// `npm run plan-upgrade -- <template> [--workspace owner/name]… [--all] [--state <file>]…
//                         [--json] [--variables-file <file.yaml>] [--config <file.jsonc>]
//                         [--outdir <dir>] [--parallel <n>]`
//
// Before a push: what the new version of a template does to each existing workspace at its
// next start. The template is synthesized as `npm run push` would (same configuration, same
// variables file), each workspace's state is read with `coder state pull` (read-only) or from
// a saved file, and the version is planned on it with real Terraform (app/upgrade/). Exits 3
// when any workspace would lose data, 1 when one could not be planned, 2 on a usage error.
//
// Run through scripts/plan-upgrade.js (a plain node launcher that runs it bundled).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCommandLine, UsageError } from "../../app/cli-args";
import { loadConfigFor } from "../../app/load-config";
import { synthTemplates } from "../../app/synth";
import { CoderCliError } from "../../app/upgrade/coder-states";
import {
  exitStatus,
  EXIT_FAILED,
  renderUpgradeJson,
  renderUpgradeText,
} from "../../app/upgrade/render-upgrade";
import { templateIdFor } from "../../app/template-id";
import { checkUpgrade } from "../../app/upgrade/upgrade-check";
import { redact } from "../../app/upgrade/redact";

export { skipCdktfCreationStacks } from "../../lib/private/creation-stacks";

const USAGE =
  "usage: npm run plan-upgrade -- <template> [--workspace owner/name]... [--all] [--state <file>]... " +
  "[--json] [--variables-file <file.yaml>] [--config <file.jsonc>] [--outdir <dir>] [--parallel <n>]";

const EXIT_USAGE = 2;

export interface Output {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Runs the command; resolves to its exit status. */
export async function runPlanUpgrade(argv: readonly string[], output: Output): Promise<number> {
  // Everything the command writes goes through the redaction (app/upgrade/redact.ts).
  const io: Output = {
    stdout: (text) => output.stdout(redact(text)),
    stderr: (text) => output.stderr(redact(text)),
  };
  try {
    return await planUpgradeCommand(argv, io);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    io.stderr(`plan-upgrade: ${message}\n`);
    return e instanceof UsageError ? EXIT_USAGE : EXIT_FAILED;
  }
}

async function planUpgradeCommand(argv: readonly string[], io: Output): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      workspace: { type: "string", multiple: true, default: [] },
      all: { type: "boolean", default: false },
      state: { type: "string", multiple: true, default: [] },
      json: { type: "boolean", default: false },
      "variables-file": { type: "string" },
      config: { type: "string" },
      outdir: { type: "string" },
      parallel: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    USAGE,
  );
  if (values.help) throw new UsageError(USAGE);
  if (positionals.length !== 1) {
    throw new UsageError(
      `${positionals.length === 0 ? "name the template to plan" : `one template at a time (got ${positionals.join(", ")})`}\n${USAGE}`,
    );
  }
  const parallel = values.parallel === undefined ? undefined : Number(values.parallel);
  if (parallel !== undefined && !(Number.isInteger(parallel) && parallel >= 1 && parallel <= 64)) {
    throw new UsageError(`--parallel ${values.parallel}: expected a number from 1 to 64\n${USAGE}`);
  }
  const config = loadConfigFor(values.config === undefined ? [] : ["--config", values.config]);
  const id = templateIdFor(positionals[0], config?.templates, USAGE);
  const outdir = values.outdir ?? mkdtempSync(join(tmpdir(), "plan-upgrade-"));
  const [template] = synthTemplates({ outdir, only: [id], config });
  io.stderr(`synthesized ${template.name} in ${template.dir}\n`);
  let report;
  try {
    report = await checkUpgrade(template, {
      stateFiles: values.state,
      workspaces: values.workspace,
      all: values.all,
      variablesFile: values["variables-file"],
      parallel,
    });
  } catch (e) {
    if (e instanceof CoderCliError) {
      io.stderr(`plan-upgrade: ${e.message}\n`);
      return EXIT_FAILED;
    }
    throw e;
  }
  io.stdout(values.json ? renderUpgradeJson(report) : renderUpgradeText(report));
  return exitStatus(report);
}
