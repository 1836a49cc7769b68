/**
 * The devcontainer template's locals are written in layers (lib/private/local-layers.ts), and
 * that changes nothing a workspace gets: a stopped first build, a start and the next start,
 * applied from the files synth ships and from the same configuration with flat locals (the
 * model as one cdk.tf.json), leave the same resources, values, sensitivity and outputs.
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

it("writes its locals as a few layers, every local a member of one", () => {
  const text = fs.readFileSync(path.join(template.dir, LOCALS_FILE), "utf8");
  const locals = Object.keys(template.config.locals);
  expect(localNames(text).sort()).toEqual([...locals].sort());
  const layers = text.match(/^ {2}layer_\d+ = \{$/gm) ?? [];
  expect(layers.length).toBeGreaterThan(1);
  expect(layers.length).toBeLessThan(locals.length / 4);
  // Nothing reads a local by its flat name any more, in any file (comments aside).
  for (const file of fs.readdirSync(template.dir).filter((f) => /\.tf(\.json)?$/.test(f))) {
    const flat = fs
      .readFileSync(path.join(template.dir, file), "utf8")
      .replace(/^\s*#.*$/gm, "")
      .match(/(?<![\w.$])local\.(?!layer_\d+\.)\w+/g);
    expect({ file, flat }).toEqual({ file, flat: null });
  }
});

it("applies a first build, a start and the next start the same as with flat locals", async () => {
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
  const flat = withConfigurationInJson(template.dir, template.config);
  try {
    const layered = await builds(template.dir);
    expect(layered[1].resources.map((r) => r.address)).toContain(
      "kubernetes_deployment_v1.main[0]",
    );
    expect(await builds(flat.dir)).toEqual(layered);
  } finally {
    flat.cleanup();
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
