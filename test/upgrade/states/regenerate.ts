// Regenerates the applied states of earlier template versions that test/upgrade/plan-upgrade
// plans today's templates on:
//
//   node scripts/ts.js test/upgrade/states/regenerate.ts [<commit>] [--only <name>]… [--out <dir>]
//
// (default: STATES_COMMIT, every case, into this folder; --out writes elsewhere, as the test
// that holds the files to what this writes does).
//
// For each template: the project at <commit> (from git, into a temp folder sharing this
// checkout's node_modules) synthesizes it with its default configuration, and the plan
// harness applies that version's first start with the inputs the upgrade tests use
// (test/prebuilds/template-inputs.ts). The state is written as
// test/upgrade/states/<template>.tfstate.json, with a fixed lineage so that a rerun writes the
// same bytes. Run it when the fixtures should follow a newer release, and update STATES_COMMIT.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { TerraformHarness, type PlanOptions } from "@coder-cdktf/terraform-harness";
import { synthAtCommit } from "../../../scripts/synth-at-commit";
import { useStackConfigurations } from "../../../app/harness-configuration";
import { stackConfiguration } from "../../../lib/private/stack-configuration";
import { TEMPLATE_INPUTS } from "../../prebuilds/template-inputs";
import { fixtureState, STATE_CASES, STATES_COMMIT, stateFile } from "./state-cases";

const root = path.resolve(__dirname, "..", "..", "..");

async function main(commit: string, only: readonly string[], out: string): Promise<void> {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), `states-${commit}-`));
  try {
    const stacks = synthAtCommit(commit, tree);
    useStackConfigurations();
    const tf = await TerraformHarness.start();
    try {
      for (const c of STATE_CASES.filter((c) => only.length === 0 || only.includes(c.name))) {
        const inputs = TEMPLATE_INPUTS.find((t) => t.id === c.template)!.options;
        const dir = path.join(stacks, c.template);
        const config = stackConfiguration(dir) as { variable?: Record<string, unknown> };
        const declared = Object.keys(config.variable ?? {});
        // Only the variables that version declares (a later one may have added some).
        const variables = Object.fromEntries(
          Object.entries(inputs.variables ?? {}).filter(([name]) => declared.includes(name)),
        );
        const options: PlanOptions = {
          ...inputs,
          ...(c.resourceFixtures ? { fixtures: { resources: c.resourceFixtures } } : {}),
          variables,
          workspace: { ...c.workspace, template_name: c.template },
          owner: c.owner,
        };
        const applied = await tf.apply(dir, options);
        const file = path.join(out, path.basename(stateFile(c.name)));
        fs.writeFileSync(file, `${JSON.stringify(fixtureState(applied.state), null, 1)}\n`);
        process.stdout.write(`wrote ${path.relative(root, file)} (${c.template} at ${commit})\n`);
      }
    } finally {
      await tf.stop();
    }
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
}

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  options: { only: { type: "string", multiple: true, default: [] }, out: { type: "string" } },
  allowPositionals: true,
});
main(
  positionals[0] ?? STATES_COMMIT,
  values.only ?? [],
  values.out ?? path.dirname(stateFile("x")),
).catch((e: unknown) => {
  process.stderr.write(`regenerate: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
