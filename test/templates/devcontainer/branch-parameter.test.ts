/**
 * The `branch` parameter (issue 43.8): git's rule for a branch name, in the parameter's
 * validation (which Coder, and the harness's mock, apply to the value before anything is
 * planned) and again in the image build's precondition, so that neither an option such as
 * `--upload-pack=…` nor a line break reaches the image builder or git. The lifecycle script's
 * own check is in scripts/lifecycle.test.ts ("the branch parameter").
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformHarness, type PlanOptions } from "@coder-cdktf/terraform-harness";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
} from "./synthesized";
import { writeHclFiles } from "../../../lib/private/hcl-files";

jest.setTimeout(120_000);

const HOSTILE = [
  ["an option", "--upload-pack=touch /tmp/pwned"],
  ["a line break and an option", "main\n--upload-pack=touch /tmp/pwned"],
  ["a refspec", "main:refs/heads/stolen"],
  ["a glob", "*"],
  ["a path out", "../../etc"],
  ["a lock file", "main.lock"],
  ["a reflog selector", "main@{1}"],
];

describe("devcontainer template: the branch parameter", () => {
  let tf: TerraformHarness;
  let template: SynthesizedDevcontainer;
  const options = (branch: string): PlanOptions => ({
    variables: REQUIRED_VARIABLES,
    parameters: { repository: REPOSITORY, branch },
    fixtures: devcontainerFixtures(metadata()),
  });

  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = synthesizeDevcontainer();
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it.each(HOSTILE)(
    "refuses %s, with a message that says what a branch may be",
    async (_, branch) => {
      await expect(tf.plan(template.dir, options(branch))).rejects.toThrow(
        // The parameter's validation, as Coder words it (coder provider, Validation.Valid).
        /The branch must be a branch name as git allows it \(git check-ref-format --branch\)[\s\S]*\(value "[\s\S]*" does not match/,
      );
    },
  );

  it("builds a branch name git allows, letters of any script and @ included", async () => {
    const plan = await tf.plan(template.dir, options("feature/über-@x.1"));
    const [build] = plan.resources("devcontainerbuilder_build");
    expect(build.after.branch).toBe("feature/über-@x.1");
  });

  it("refuses it again at the image build, should a value get past the parameter's validation", async () => {
    // The template as it would be without the parameter's validation.
    const dir = mkdtempSync(join(tmpdir(), "dc-branch-"));
    try {
      cpSync(template.dir, dir, { recursive: true });
      // Written as synth writes it (main.tf also holds the variables the harness reads).
      const withoutValidation = JSON.parse(JSON.stringify(template.config)) as Record<string, any>;
      const branch = withoutValidation.data.coder_parameter.branch;
      expect(branch.validation).toBeDefined();
      delete branch.validation;
      writeHclFiles(dir, withoutValidation);
      await expect(tf.plan(dir, options("--upload-pack=touch /tmp/pwned"))).rejects.toThrow(
        /Resource precondition failed[\s\S]*The branch must be a branch name as git allows it/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
