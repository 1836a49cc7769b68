/**
 * The "Dev Container variables" check (docs/security.md, "Secrets"): users put values such as
 * API tokens in that parameter, and check messages land in build logs, so a failed check names
 * the missing variables and never shows a value the user gave.
 */
import { TerraformHarness, type PlanResult } from "@coder-cdktf/terraform-harness";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
  STOPPED_FIRST_BUILD,
} from "./synthesized";

jest.setTimeout(120_000);

const VALUE = "user-secret-value-5e0c";

const localEnv = (name: string) => ({
  kind: "localEnv",
  name,
  default: null,
  used_in: [`remoteEnv.${name}`],
});

describe("devcontainer template: the Dev Container variables check", () => {
  let tf: TerraformHarness;
  let template: SynthesizedDevcontainer;
  let plan: PlanResult;

  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = synthesizeDevcontainer();
    // The metadata is read once the build exists (as in a workspace that was stopped).
    const stopped = await tf.apply(template.dir, STOPPED_FIRST_BUILD);
    plan = await tf.plan(template.dir, {
      state: stopped,
      variables: REQUIRED_VARIABLES,
      parameters: { repository: REPOSITORY, devcontainer_variables: `API_TOKEN=${VALUE}\n` },
      fixtures: devcontainerFixtures(
        metadata({ variables: [localEnv("API_TOKEN"), localEnv("REGION")] }),
      ),
    });
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("names the missing variable and shows no value the user gave", () => {
    const failures = plan.checkFailures();
    const message = failures.find((m) => m.startsWith("Dev Container variables not set here:"));
    expect(message).toContain("not set here: REGION.");
    expect(message).not.toContain("API_TOKEN");
    for (const warning of plan.warnings) {
      expect(`${warning.summary}\n${warning.detail}`).not.toContain(VALUE);
    }
  });
});
