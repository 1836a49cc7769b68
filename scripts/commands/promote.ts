// `npm run promote -- <template> <version> [--dry-run] [--config coder-cdktf.jsonc]`
//
// Makes a version pushed with `npm run push -- <template> --activate=false` the template's
// active one (`coder templates versions promote`), then sets the template's display name,
// description, icon and the operator's coderSettings with `coder templates edit`: those
// belong to the template, not to a version, so a staged push leaves them to the promotion.
// `npm run promote` runs it bundled (scripts/promote.js).
import { parseCommandLine, UsageError } from "../../app/cli-args";
import { announceCoderVersion, findOnPath, runCoderStep, shellQuote } from "../../app/coder-cli";
import { versionNameProblem } from "../../app/git-version";
import { loadConfigFor } from "../../app/load-config";
import { createStack } from "../../app/synth";
import { TEMPLATES } from "../../app/registry";
import { templateIdFor } from "../../app/template-id";
import { planPromote } from "../../app/template-push";
import { App } from "../../lib/core/cdk";

const USAGE = "usage: npm run promote -- <template> <version> [--dry-run] [--config <file.jsonc>]";
const EXIT_NO_CLI = 127;
const EXIT_USAGE = 2;

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      "dry-run": { type: "boolean", default: false },
      config: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    USAGE,
  );
  if (values.help) throw new UsageError(USAGE);
  if (positionals.length !== 2) {
    throw new UsageError(`name the template and the version to promote\n${USAGE}`);
  }
  const [given, versionName] = positionals;
  const problem = versionNameProblem(versionName);
  if (problem !== undefined) throw new UsageError(`version ${versionName}: ${problem}\n${USAGE}`);
  const dryRun = values["dry-run"] === true;

  const coder = findOnPath("coder");
  if (coder === undefined && !dryRun) {
    process.stderr.write(
      "promote: the Coder CLI (`coder`) is not on PATH; `--dry-run` prints the commands without it.\n",
    );
    return EXIT_NO_CLI;
  }
  const config = loadConfigFor(values.config === undefined ? [] : ["--config", values.config]);
  const id = templateIdFor(given, config?.templates, USAGE);
  const definition = TEMPLATES.find((t) => t.id === id)!;
  // The template's front matter, from its stack (constructed, not synthesized).
  const stack = createStack(definition, new App(), config);
  const name = config?.templates?.get(id)?.name ?? id;

  const coderVersion = coder === undefined ? undefined : announceCoderVersion(coder);
  const plan = planPromote(name, versionName, {
    coderVersion,
    frontMatter: stack.frontMatter,
    coderSettings: config?.templates?.get(id)?.coderSettings,
  });
  for (const note of plan.notes) process.stderr.write(`note: ${note}\n`);
  if (dryRun || coder === undefined) {
    const edit = plan.edit === undefined ? "" : `coder ${shellQuote(plan.edit)}\n`;
    process.stdout.write(`coder ${shellQuote(plan.promote)}\n${edit}`);
    return 0;
  }
  const promoted = await runCoderStep(coder, plan.promote, "promote failed");
  if (promoted !== 0) return promoted;
  if (plan.edit !== undefined) {
    const edited = await runCoderStep(
      coder,
      plan.edit,
      `promoted ${versionName}, but setting ${name}'s display name, description, icon and settings failed`,
    );
    if (edited !== 0) return edited;
  }
  process.stderr.write(`promoted ${name} version ${versionName}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`promote: ${message}\n`);
    process.exit(e instanceof UsageError ? EXIT_USAGE : 1);
  },
);
