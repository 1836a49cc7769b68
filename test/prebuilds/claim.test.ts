/**
 * Prebuilt workspaces, for every template, through real Terraform (mock providers): a
 * workspace is applied as a prebuild (owner `prebuilds`, is_prebuild = true), then a user
 * claims it (same id, new name and owner, is_prebuild_claim = true). The claim must replace
 * and delete nothing, and must not restart the pod; what belongs to the user is created at
 * the claim and carries the new owner.
 *
 * The mock provider asks for replacement on the real providers' ForceNew attributes (for
 * coder_agent, any attribute), so the claim plan's actions are the real plan's; the agent's
 * attributes are also compared here one by one, so a failure names the one that changed.
 */
import {
  DEFAULT_WORKSPACE,
  destructiveChanges,
  TerraformHarness,
  type ApplyResult,
  type PlanOptions,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import { synthTemplate, type SynthesizedTemplate } from "../support/synth-template";
import { REPOSITORY } from "../templates/devcontainer/synthesized";
import { TEMPLATE_INPUTS as CASES } from "./template-inputs";

jest.setTimeout(180_000);

/** Coder's system user that owns unclaimed prebuilds. */
const PREBUILDS_OWNER = {
  id: "c42fdf75-3097-471c-8c33-fb52454d81c0",
  name: "prebuilds",
  full_name: "",
  email: "prebuilds@system",
  groups: [],
  session_token: "prebuilds-session-token",
  ssh_public_key: "ssh-ed25519 AAAAprebuilds",
  ssh_private_key: "prebuilds-ssh-private-key",
};
const CLAIMING_OWNER = {
  id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  name: "bob",
  full_name: "Bob Builder",
  email: "bob@example.com",
  groups: ["Everyone"],
  session_token: "bob-session-token",
  ssh_public_key: "ssh-ed25519 AAAAbob",
  ssh_private_key: "bob-ssh-private-key",
};
const PREBUILD_WORKSPACE = {
  startCount: 1 as const,
  name: "prebuild-7f3k2",
  is_prebuild: true,
  is_prebuild_claim: false,
  prebuild_count: 1,
};
const CLAIMED_WORKSPACE = {
  startCount: 1 as const,
  name: "bobs-app",
  is_prebuild: false,
  is_prebuild_claim: true,
  prebuild_count: 0,
};

/**
 * Attributes left out of the one-by-one comparison of the agent: its id, and what no claim
 * can change (os, arch, auth). Any change of any attribute replaces a coder_agent
 * (provider/agent.go marks them all ForceNew; so does the mock): the agent gets a new token
 * and the running pod's agent loses its connection.
 */
const AGENT_NOT_COMPARED = ["id", "os", "arch", "auth"];

function at(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[part];
  }
  return current;
}

/**
 * The coder_agent attributes (but AGENT_NOT_COMPARED) that `plan` changes on top of
 * `prebuild`, or leaves unknown until apply.
 */
function agentChanges(prebuild: ApplyResult, plan: PlanResult): string[] {
  const state = new Map(prebuild.resources.map((r) => [r.address, r.values]));
  const changes: string[] = [];
  for (const change of plan.resources("coder_agent")) {
    const before = state.get(change.address);
    if (before === undefined) continue;
    for (const key of Object.keys(before).filter((k) => !AGENT_NOT_COMPARED.includes(k))) {
      const unknown = at(change.afterUnknown, [key]) === true;
      if (unknown || JSON.stringify(before[key]) !== JSON.stringify(at(change.after, [key]))) {
        changes.push(`${change.address}: ${key}`);
      }
    }
  }
  return changes;
}

/** Dotfiles and git identity (Coder's modules): the user's, created at the claim. */
const USER_CONFIG_AT_CLAIM = [
  "module.dotfiles[0].coder_script.dotfiles",
  "module.dotfiles[0].terraform_data.inputs",
  "module.git_config[0].coder_env.git_author_email[0]",
  "module.git_config[0].coder_env.git_author_name",
  "module.git_config[0].coder_env.git_commmiter_email[0]",
  "module.git_config[0].coder_env.git_commmiter_name",
  "module.git_config[0].coder_script.git_user_config",
  "module.git_config[0].terraform_data.inputs",
];

/** What runs as, or describes, the user: absent from the prebuild, created by the claim. */
const CREATED_AT_CLAIM: Readonly<Record<string, readonly string[]>> = {
  kubernetes: USER_CONFIG_AT_CLAIM,
  devcontainer: [
    "coder_script.devcontainer_lifecycle[0]",
    "coder_script.devcontainer_lifecycle_background[0]",
    "coder_script.devcontainer_post_attach[0]",
    "coder_script.devcontainer_vscode[0]",
    ...USER_CONFIG_AT_CLAIM,
  ].sort(),
  "packer-builder": ["coder_script.clone_repository[0]"],
};

describe.each(CASES)("template $id: claiming a prebuilt workspace", ({ id, options }) => {
  let tf: TerraformHarness;
  let template: SynthesizedTemplate;
  let prebuild: ApplyResult;
  let claimPlan: PlanResult;
  let claimed: ApplyResult;
  const claimOptions = (): PlanOptions => ({
    ...options,
    workspace: CLAIMED_WORKSPACE,
    owner: CLAIMING_OWNER,
    state: prebuild,
  });

  beforeAll(async () => {
    template = synthTemplate(id);
    tf = await TerraformHarness.start();
    prebuild = await tf.apply(template.dir, {
      ...options,
      workspace: PREBUILD_WORKSPACE,
      owner: PREBUILDS_OWNER,
    });
    // The claim's plan, and its apply as `terraform apply` of that saved plan.
    ({ plan: claimPlan, applied: claimed } = await tf.planAndApply(template.dir, claimOptions()));
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("keeps the prebuild's pod, volume and identities: the claim replaces and deletes nothing", () => {
    expect(prebuild.resources.some((r) => r.type === "kubernetes_deployment_v1")).toBe(true);
    // Every resource, the Deployment included: the mock asks for replacement where the real
    // providers do, so a changed selector or name would show here as delete + create.
    expect(destructiveChanges(claimPlan)).toEqual([]);
    expect(agentChanges(prebuild, claimPlan)).toEqual([]);
  });

  it("does not restart the pod: the Deployment's pod template stays as the prebuild left it", () => {
    const deployment = claimPlan.resources("kubernetes_deployment_v1")[0];
    const before = prebuild.resources.find((r) => r.address === deployment.address)!.values;
    expect(at(deployment.afterUnknown, ["spec", 0, "template"])).toBeFalsy();
    expect(at(deployment.after, ["spec", 0, "template"])).toEqual(
      at(before, ["spec", 0, "template"]),
    );
  });

  it("names no Kubernetes object after the owner or the workspace name", () => {
    const names = prebuild.resources
      .filter((r) => r.type.startsWith("kubernetes_"))
      .map((r) => String(at(r.values, ["metadata", 0, "name"])));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(name).toContain(String(DEFAULT_WORKSPACE.id));
      expect(name).not.toMatch(/prebuild/);
    }
  });

  it("creates what belongs to the user at the claim, and nothing else", () => {
    const created = claimPlan.resourceChanges
      .filter((r) => r.mode === "managed" && r.actions.includes("create"))
      .map((r) => r.address)
      .sort();
    expect(created).toEqual(CREATED_AT_CLAIM[id]);
    const prebuilt = prebuild.resources.map((r) => r.address);
    const after = claimed.resources.map((r) => r.address);
    for (const address of CREATED_AT_CLAIM[id]) {
      expect([address, prebuilt.includes(address), after.includes(address)]).toEqual([
        address,
        false,
        true,
      ]);
    }
  });

  it("moves the owner labels of the Deployment to the new owner in place", () => {
    const deployment = claimPlan.resources("kubernetes_deployment_v1")[0];
    expect(deployment.actions).toEqual(["update"]);
    const labels = at(deployment.after, ["metadata", 0, "labels"]) as Record<string, string>;
    expect(labels["com.coder.user.username"]).toBe("bob");
    expect(labels["com.coder.workspace.name"]).toBe("bobs-app");
    const after = claimed.resources.find((r) => r.address === deployment.address)!;
    expect(at(after.values, ["metadata", 0, "labels", "com.coder.user.id"])).toBe(
      CLAIMING_OWNER.id,
    );
  });
});

describe("template devcontainer: what belongs to the user waits for the claim", () => {
  let tf: TerraformHarness;
  let template: SynthesizedTemplate;
  const options = CASES.find((c) => c.id === "devcontainer")!.options;
  let prebuild: ApplyResult;
  let claimed: ApplyResult;

  beforeAll(async () => {
    template = synthTemplate("devcontainer");
    tf = await TerraformHarness.start();
    prebuild = await tf.apply(template.dir, {
      ...options,
      workspace: PREBUILD_WORKSPACE,
      owner: PREBUILDS_OWNER,
    });
    claimed = await tf.apply(template.dir, {
      ...options,
      workspace: CLAIMED_WORKSPACE,
      owner: CLAIMING_OWNER,
      state: prebuild,
    });
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  const userResources = (applied: ApplyResult) =>
    applied.resources
      .filter(
        (r) =>
          r.type === "coder_script" ||
          (r.type === "coder_env" && String(r.values.name).startsWith("GIT_")),
      )
      .map((r) => r.address)
      .sort();

  it("builds the image and starts the pod in the prebuild, without the git identity or the scripts", () => {
    const addresses = prebuild.resources.map((r) => r.address);
    expect(addresses).toContain("devcontainerbuilder_build.workspace");
    expect(addresses).toContain("kubernetes_deployment_v1.main[0]");
    expect(addresses).toContain("kubernetes_persistent_volume_claim_v1.data");
    expect(userResources(prebuild)).toEqual([]);
    expect(
      JSON.stringify(
        prebuild.resources.filter((r) => r.mode === "managed" && r.type.startsWith("coder_")),
      ),
    ).not.toContain("prebuilds@system");
  });

  it("creates the scripts and the git identity of the new owner at the claim", () => {
    expect(userResources(claimed)).toEqual([
      "coder_script.devcontainer_lifecycle[0]",
      "coder_script.devcontainer_lifecycle_background[0]",
      "coder_script.devcontainer_post_attach[0]",
      "coder_script.devcontainer_vscode[0]",
      "module.dotfiles[0].coder_script.dotfiles",
      "module.git_config[0].coder_env.git_author_email[0]",
      "module.git_config[0].coder_env.git_author_name",
      "module.git_config[0].coder_env.git_commmiter_email[0]",
      "module.git_config[0].coder_env.git_commmiter_name",
      "module.git_config[0].coder_script.git_user_config",
    ]);
    const env = Object.fromEntries(
      claimed.resources
        .filter((r) => r.type === "coder_env")
        .map((r) => [String(r.values.name), r.values.value]),
    );
    expect(env).toMatchObject({
      GIT_AUTHOR_NAME: "Bob Builder",
      GIT_COMMITTER_NAME: "Bob Builder",
      GIT_AUTHOR_EMAIL: "bob@example.com",
      GIT_COMMITTER_EMAIL: "bob@example.com",
    });
    const lifecycle = claimed.resources.find(
      (r) => r.address === "coder_script.devcontainer_lifecycle[0]",
    )!;
    expect(String(lifecycle.values.script)).toContain(REPOSITORY);
  });

  it("keeps the prebuild's image: the claim does not rebuild", () => {
    const build = (applied: ApplyResult) =>
      applied.resources.find((r) => r.address === "devcontainerbuilder_build.workspace")!.values;
    expect(build(claimed).id).toBe(build(prebuild).id);
    expect(build(claimed).image_spec).toEqual(build(prebuild).image_spec);
  });
});
