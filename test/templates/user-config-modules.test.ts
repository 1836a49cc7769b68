/**
 * Dotfiles and git identity in the kubernetes and devcontainer templates: Coder's dotfiles and
 * git-config modules (pinned; planned against their stubs), on by default, off by variable,
 * absent while stopped and in an unclaimed prebuild. In devcontainer the template's own git
 * identity variables stand in when git-config is off, never both.
 */
import {
  DEFAULT_OWNER,
  TerraformHarness,
  type PlanOptions,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import { USER_CONFIG_MODULES } from "../../lib/constructs/user-config-modules";
import { synthTemplate, type SynthesizedTemplate } from "../support/synth-template";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES as DEVCONTAINER_VARIABLES,
} from "./devcontainer/synthesized";

jest.setTimeout(180_000);

const BASE: Record<string, PlanOptions> = {
  kubernetes: { variables: { namespace: "coder-workspaces" } },
  devcontainer: {
    variables: DEVCONTAINER_VARIABLES,
    parameters: { repository: REPOSITORY },
    fixtures: devcontainerFixtures(metadata()),
  },
};
const PARAMETER_ORDER: Record<string, number> = { kubernetes: 10, devcontainer: 20 };

const userConfig = (plan: PlanResult) =>
  plan
    .addresses()
    .filter((a) => a.startsWith("module.dotfiles") || a.startsWith("module.git_config"));
const gitEnv = (plan: PlanResult) =>
  plan
    .resources("coder_env")
    .filter((r) => /^GIT_(AUTHOR|COMMITTER)_/.test(String(r.after.name)))
    .map((r) => [r.address, r.after.name, r.after.value]);

describe.each(["kubernetes", "devcontainer"])("%s", (id) => {
  let tf: TerraformHarness;
  let template: SynthesizedTemplate<Record<string, any>>;
  let on: PlanResult;
  let off: PlanResult;
  let stopped: PlanResult;
  let prebuild: PlanResult;

  beforeAll(async () => {
    template = synthTemplate(id);
    tf = await TerraformHarness.start();
    const base = BASE[id];
    const vars = (extra: Record<string, unknown>) => ({ ...base.variables, ...extra });
    [on, off, stopped, prebuild] = await Promise.all([
      tf.plan(template.dir, { ...base, workspace: { startCount: 1 } }),
      tf.plan(template.dir, {
        ...base,
        variables: vars({ dotfiles: false, git_config: false }),
        workspace: { startCount: 1 },
      }),
      tf.plan(template.dir, { ...base, workspace: { startCount: 0 } }),
      tf.plan(template.dir, { ...base, workspace: { startCount: 1, is_prebuild: true } }),
    ]);
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("pins both modules to the releases their stubs copy", () => {
    expect(template.config.module.dotfiles).toMatchObject(USER_CONFIG_MODULES.dotfiles);
    expect(template.config.module.git_config).toMatchObject(USER_CONFIG_MODULES.gitConfig);
  });

  it("applies the user's dotfiles and sets their git identity by default, while started", () => {
    expect(userConfig(on)).toEqual([
      "module.dotfiles[0].coder_script.dotfiles",
      "module.dotfiles[0].terraform_data.inputs",
      "module.git_config[0].coder_env.git_author_email[0]",
      "module.git_config[0].coder_env.git_author_name",
      "module.git_config[0].coder_env.git_commmiter_email[0]",
      "module.git_config[0].coder_env.git_commmiter_name",
      "module.git_config[0].coder_script.git_user_config",
      "module.git_config[0].terraform_data.inputs",
    ]);
    // The identity is the owner's Coder account, and only the module sets it.
    const name = String(DEFAULT_OWNER.full_name || DEFAULT_OWNER.name);
    expect(gitEnv(on)).toEqual([
      [
        "module.git_config[0].coder_env.git_author_email[0]",
        "GIT_AUTHOR_EMAIL",
        DEFAULT_OWNER.email,
      ],
      ["module.git_config[0].coder_env.git_author_name", "GIT_AUTHOR_NAME", name],
      [
        "module.git_config[0].coder_env.git_commmiter_email[0]",
        "GIT_COMMITTER_EMAIL",
        DEFAULT_OWNER.email,
      ],
      ["module.git_config[0].coder_env.git_commmiter_name", "GIT_COMMITTER_NAME", name],
    ]);
  });

  it("asks for the dotfiles repository after the template's parameters, and not for a git name", () => {
    const params = on
      .dataSources("coder_parameter")
      .filter((p) => p.address.startsWith("module."))
      .map((p) => [p.address, p.values.name, p.values.order, p.values.default, p.values.mutable]);
    expect(params).toEqual([
      [
        "module.dotfiles[0].data.coder_parameter.dotfiles_branch[0]",
        "dotfiles_branch",
        PARAMETER_ORDER[id],
        "",
        true,
      ],
      [
        "module.dotfiles[0].data.coder_parameter.dotfiles_uri[0]",
        "dotfiles_uri",
        PARAMETER_ORDER[id],
        "",
        true,
      ],
    ]);
    const inputs = on.resource("module.git_config[0].terraform_data.inputs").after as any;
    expect(inputs.input).toMatchObject({ allow_username_change: false, allow_email_change: false });
  });

  it("refuses a dotfiles URL the module's rule rejects, at plan", async () => {
    await expect(
      tf.plan(template.dir, {
        ...BASE[id],
        parameters: { ...BASE[id].parameters, dotfiles_uri: "https://x.example.com/a;rm -rf ~" },
        workspace: { startCount: 1 },
      }),
    ).rejects.toThrow(/Must be a valid dotfiles repository URL/);
  });

  it("leaves both out when the operator opts out", () => {
    expect(userConfig(off)).toEqual([]);
  });

  it("runs neither while stopped nor in an unclaimed prebuild", () => {
    expect(userConfig(stopped)).toEqual([]);
    expect(userConfig(prebuild)).toEqual([]);
    expect(gitEnv(prebuild)).toEqual([]);
  });

  if (id === "devcontainer") {
    it("updates a workspace of the previous release: its git variables give way to the module's, nothing else is destroyed", async () => {
      // The previous release set the identity itself, as the template still does with
      // git_config = false; the update with the defaults replaces those four variables.
      const base = BASE[id];
      const previous = await tf.apply(template.dir, {
        ...base,
        variables: { ...base.variables, git_config: false, dotfiles: false },
        workspace: { startCount: 1 },
      });
      const update = await tf.plan(template.dir, {
        ...base,
        workspace: { startCount: 1 },
        state: previous,
      });
      const changed = update.resourceChanges.filter(
        (r) => r.mode === "managed" && !(r.actions.length === 1 && r.actions[0] === "no-op"),
      );
      expect(
        changed.filter((r) => r.actions.includes("delete")).map((r) => [r.address, r.actions]),
      ).toEqual([
        ["coder_env.git_author_email[0]", ["delete"]],
        ["coder_env.git_author_name[0]", ["delete"]],
        ["coder_env.git_committer_email[0]", ["delete"]],
        ["coder_env.git_committer_name[0]", ["delete"]],
      ]);
      expect(
        changed
          .filter((r) => !r.actions.includes("delete"))
          .every((r) => r.address.startsWith("module.") && r.actions.join() === "create"),
      ).toBe(true);
    });

    it("keeps its own git identity variables only when git-config is off", () => {
      expect(gitEnv(off).map(([address, envName]) => [address, envName])).toEqual([
        ["coder_env.git_author_email[0]", "GIT_AUTHOR_EMAIL"],
        ["coder_env.git_author_name[0]", "GIT_AUTHOR_NAME"],
        ["coder_env.git_committer_email[0]", "GIT_COMMITTER_EMAIL"],
        ["coder_env.git_committer_name[0]", "GIT_COMMITTER_NAME"],
      ]);
    });
  }
});
