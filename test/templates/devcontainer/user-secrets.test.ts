/**
 * User secrets and the workspace's variables Secret (issue 35 item 2, issue 32 item 4): a
 * `${localEnv:NAME}` value comes from the user's Coder secret of that name (data.coder_secret)
 * before the "Dev Container variables" parameter, reaches the pod only through the workspace's
 * kubernetes Secret, and appears in no parameter, pod spec or non-sensitive value.
 */
import {
  TerraformHarness,
  type ApplyResult,
  type PlanOptions,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  STOPPED_FIRST_BUILD,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
} from "./synthesized";
import { planOccurrences } from "./plan-occurrences";

jest.setTimeout(120_000);

const NPM_SECRET = "npm-user-secret-7d1e";
const SECRET = "kubernetes_secret_v1.devcontainer_variables";

const localEnv = (name: string) => ({
  kind: "localEnv",
  name,
  default: null,
  used_in: [`remoteEnv.${name}`],
});

describe("devcontainer template: user secrets and the variables Secret", () => {
  let tf: TerraformHarness;
  let template: SynthesizedDevcontainer;
  let stopped: ApplyResult;
  const withSecrets = (overrides: Partial<PlanOptions> = {}): PlanOptions => ({
    state: stopped,
    variables: { ...REQUIRED_VARIABLES, user_secrets: ["NPM_TOKEN", "MULTI_LINE"] },
    parameters: {
      repository: REPOSITORY,
      devcontainer_variables: "NPM_TOKEN=from-the-parameter\nOTHER=x",
    },
    userSecrets: { NPM_TOKEN: NPM_SECRET, MULTI_LINE: "first\nSECOND=injected" },
    fixtures: devcontainerFixtures(
      metadata({ variables: [localEnv("NPM_TOKEN"), localEnv("REGION")] }),
    ),
    ...overrides,
  });
  const variablesText = (plan: PlanResult): unknown =>
    (plan.resource(SECRET).after as { data: Record<string, string> }).data.DC_VARIABLES;

  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = synthesizeDevcontainer();
    stopped = await tf.apply(template.dir, STOPPED_FIRST_BUILD);
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("declares each listed user secret, with help that says how to create it", async () => {
    const plan = await tf.plan(template.dir, withSecrets());
    const read = plan.dataSources("coder_secret").map((d) => [d.address, d.values.env]);
    expect(read.sort()).toEqual([
      ['data.coder_secret.user["MULTI_LINE"]', "MULTI_LINE"],
      ['data.coder_secret.user["NPM_TOKEN"]', "NPM_TOKEN"],
    ]);
    const help = plan.dataSources("coder_secret")[0].values.help_message as string;
    expect(help).toContain("coder secret create <name> --env");
    expect(help).toContain("${localEnv:");
  });

  it("gives ${localEnv:NPM_TOKEN} the user secret's value before the parameter's line", async () => {
    const plan = await tf.plan(template.dir, withSecrets());
    // The parameter's NPM_TOKEN line is left out; the secret's comes last, so it wins.
    expect(variablesText(plan)).toBe(`OTHER=x\nNPM_TOKEN=${NPM_SECRET}`);
    // Only Terraform's sensitive places hold it: the data source and the Secret's data.
    expect(
      planOccurrences(plan, NPM_SECRET)
        .map((o) => o)
        .sort((a, b) => a.place.localeCompare(b.place)),
    ).toEqual([
      { place: 'data.coder_secret.user["NPM_TOKEN"].value', sensitive: true },
      { place: `${SECRET}.data.DC_VARIABLES`, sensitive: true },
    ]);
    // A variable a user secret provides is not reported missing; the others still are.
    const missing = plan.checkFailures().find((m) => m.startsWith("Dev Container variables"));
    expect(missing).toContain("missing: REGION.");
  });

  it("never makes a secret with a line break into more variable lines, and names none in the log", async () => {
    const plan = await tf.plan(template.dir, withSecrets());
    expect(String(variablesText(plan))).not.toContain("SECOND=injected");
    expect(String(variablesText(plan))).not.toContain("MULTI_LINE");
    for (const warning of plan.warnings) {
      expect(`${warning.summary}\n${warning.detail}`).not.toMatch(/MULTI_LINE|first|injected/);
    }
  });

  it("fails a start of a user without a listed secret, as Coder does, with the help", async () => {
    await expect(tf.plan(template.dir, withSecrets({ userSecrets: {} }))).rejects.toThrow(
      /Missing required secret: environment variable "NPM_TOKEN"[\s\S]*coder secret create/,
    );
  });

  it("reads no secret in a prebuild: the claim's build does", async () => {
    const plan = await tf.plan(
      template.dir,
      withSecrets({
        userSecrets: {},
        workspace: { is_prebuild: true, prebuild_count: 1 },
      }),
    );
    expect(plan.dataSources("coder_secret")).toEqual([]);
    expect(variablesText(plan)).toBe("NPM_TOKEN=from-the-parameter\nOTHER=x");
  });

  it("changes the Secret in place and leaves the Deployment alone when the variables change", async () => {
    const started = await tf.apply(template.dir, withSecrets());
    const plan = await tf.plan(
      template.dir,
      withSecrets({
        state: started,
        parameters: { repository: REPOSITORY, devcontainer_variables: "OTHER=y" },
      }),
    );
    expect(plan.resource(SECRET).actions).toEqual(["update"]);
    expect(plan.resource("kubernetes_deployment_v1.main[0]").actions).toEqual(["no-op"]);
    expect(plan.resource("kubernetes_persistent_volume_claim_v1.data").actions).toEqual(["no-op"]);
    // A stop (whose build reads every secret as "") removes the pod, never the Secret.
    const stop = await tf.plan(
      template.dir,
      withSecrets({ state: started, userSecrets: {}, workspace: { startCount: 0 } }),
    );
    expect(stop.resource("kubernetes_deployment_v1.main[0]").actions).toEqual(["delete"]);
    expect(stop.resource(SECRET).actions).not.toContain("delete");
    expect(variablesText(stop)).toBe("NPM_TOKEN=from-the-parameter\nOTHER=x");
  });
});
