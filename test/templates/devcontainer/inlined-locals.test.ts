/**
 * The devcontainer template ships its locals flat, those that carry no decision of their own
 * folded into their readers (lib/private/inline-locals.ts), and that changes nothing a
 * workspace gets: a stopped first build, a start and the next start, applied from the files
 * synth ships and from the configuration with every step named (the model as one
 * cdk.tf.json), leave the same resources, values, sensitivity and outputs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  type ApplyResult,
  type PlanOptions,
  TerraformHarness,
} from "@coder-cdktf/terraform-harness";
import { LOCALS_FILE, localNames } from "../../../lib/private/locals-file";
import { withConfigurationInJson } from "../../support/configuration-in-json";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  STOPPED_FIRST_BUILD,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
} from "./synthesized";

jest.setTimeout(180_000);

let tf: TerraformHarness;
let template: SynthesizedDevcontainer;

beforeAll(async () => {
  tf = await TerraformHarness.start();
  template = synthesizeDevcontainer();
});
afterAll(async () => {
  await tf?.stop();
  template?.cleanup();
});

it("writes its locals flat, by name, fewer than its constructs name", () => {
  const text = fs.readFileSync(path.join(template.dir, LOCALS_FILE), "utf8");
  const named = Object.keys(template.config.locals);
  const shipped = localNames(text);
  expect(shipped.filter((n) => !named.includes(n))).toEqual([]);
  expect(shipped.length).toBeLessThan(named.length * 0.85);
  expect(text).not.toMatch(/\blayer_\d+\b/);
  // Every local a file reads is declared in locals.tf (comments aside).
  for (const file of fs.readdirSync(template.dir).filter((f) => /\.tf(\.json)?$/.test(f))) {
    const read = fs
      .readFileSync(path.join(template.dir, file), "utf8")
      .replace(/^\s*#.*$/gm, "")
      .match(/(?<![\w.$])local\.\w+/g);
    const undeclared = [...new Set(read ?? [])].filter((r) => !shipped.includes(r.slice(6)));
    expect({ file, undeclared }).toEqual({ file, undeclared: [] });
  }
});

it("applies a first build, a start and the next start the same as with every step named", async () => {
  const builds = async (dir: string) => {
    const stopped = await tf.apply(dir, STOPPED_FIRST_BUILD);
    const start: PlanOptions = {
      variables: REQUIRED_VARIABLES,
      parameters: { repository: REPOSITORY },
      fixtures: devcontainerFixtures(metadata()),
    };
    const started = await tf.apply(dir, { ...start, state: stopped });
    const next = await tf.apply(dir, { ...start, state: started });
    return [stopped, started, next].map(view);
  };
  const named = withConfigurationInJson(template.dir, template.config);
  try {
    const shipped = await builds(template.dir);
    expect(shipped[1].resources.map((r) => r.address)).toContain(
      "kubernetes_deployment_v1.main[0]",
    );
    expect(await builds(named.dir)).toEqual(shipped);
  } finally {
    named.cleanup();
  }
});

/**
 * What a build leaves: the resources with their values and sensitivity, the outputs, the
 * warnings. Random ids (terraform_data's UUIDs) differ from one apply to the next, so every
 * UUID is replaced by its first place of appearance.
 */
function view(applied: ApplyResult): {
  resources: { address: string; values: unknown; sensitive: unknown }[];
  outputs: unknown;
  warnings: unknown;
} {
  const text = JSON.stringify({
    resources: applied.resources.map((r) => ({
      address: r.address,
      values: r.values,
      sensitive: r.sensitive,
    })),
    outputs: applied.outputs,
    warnings: applied.warnings,
  });
  const seen = new Map<string, string>();
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  return JSON.parse(
    text.replace(uuid, (id) => {
      if (!seen.has(id)) seen.set(id, `<uuid ${seen.size}>`);
      return seen.get(id)!;
    }),
  );
}
