/**
 * The devcontainer template through Terraform (mock providers): which objects exist while a
 * workspace is stopped and while it runs, the build's tag and credentials.
 */
import {
  DEFAULT_WORKSPACE,
  TerraformHarness,
  type PlanOptions,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import { planVariants } from "../../support/plan-variants";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
} from "./synthesized";

jest.setTimeout(120_000);

/**
 * Exist in both states: a stop never rebuilds, and the agent's token and the PVC outlive it.
 * The git identity comes from Coder's git-config module while started (its own test:
 * test/templates/user-config-modules.test.ts).
 */
const ALWAYS = [
  "coder_agent.main",
  "coder_env.devcontainer_branch",
  "coder_env.devcontainer_image_commit",
  "coder_env.devcontainer_rebuild",
  "coder_metadata.data_volume",
  "devcontainerbuilder_build.workspace",
  "kubernetes_persistent_volume_claim_v1.data",
  // The Dev Container variables, which the pod reads through secretKeyRef (issue 32 item 4).
  "kubernetes_secret_v1.devcontainer_variables",
  // The name of the credential the image was built with, kept with the build (issue 43.1).
  "terraform_data.git_credential",
  "terraform_data.rebuild",
];

const WHILE_STARTED = [
  // CODER_AGENT_TOKEN's Secret, only while the pod runs (issue 43.2).
  "kubernetes_secret_v1.agent_token[0]",
  ...Array.from({ length: 10 }, (_, i) => `coder_app.forwarded_port[${i}]`),
  "coder_metadata.pod_info[0]",
  "coder_script.devcontainer_lifecycle[0]",
  "coder_script.devcontainer_lifecycle_background[0]",
  "coder_script.devcontainer_post_attach[0]",
  "coder_script.devcontainer_vscode[0]",
  "data.devcontainerbuilder_devcontainer.workspace[0]",
  "kubernetes_deployment_v1.main[0]",
  "module.dotfiles[0].coder_script.dotfiles",
  "module.dotfiles[0].terraform_data.inputs",
  "module.git_config[0].coder_env.git_author_email[0]",
  "module.git_config[0].coder_env.git_author_name",
  "module.git_config[0].coder_env.git_commmiter_email[0]",
  "module.git_config[0].coder_env.git_commmiter_name",
  "module.git_config[0].coder_script.git_user_config",
  "module.git_config[0].terraform_data.inputs",
  "module.vscode_desktop[0].terraform_data.inputs",
  "module.vscode_web[0].terraform_data.inputs",
];

describe("devcontainer template: workspace states", () => {
  let tf: TerraformHarness;
  let template: SynthesizedDevcontainer;
  const base: PlanOptions = {
    variables: REQUIRED_VARIABLES,
    parameters: { repository: REPOSITORY },
    fixtures: devcontainerFixtures(metadata()),
  };
  /**
   * `base` where the user has linked GitHub (token `gho_usertoken`) but not GitLab (an empty
   * token, as Coder returns for an unlinked account): the data source's `id` is the
   * variable's value, so variants of one batch read one account or the other.
   */
  const LINKED_GITHUB_UNLINKED_GITLAB: PlanOptions = {
    ...base,
    fixtures: {
      ...devcontainerFixtures(metadata()),
      data_sources: {
        ...devcontainerFixtures(metadata()).data_sources,
        coder_external_auth: [
          { match: { id: "github" }, values: { access_token: "gho_usertoken" } },
          { match: { id: "gitlab" }, values: { access_token: "" } },
        ],
      },
    },
  };
  /**
   * A started workspace of a branch, rebuilt 3 times, whose owner has no full name: the
   * build's tag and the agent's environment read this one plan (the run cache plans it once).
   */
  const BRANCH_BUILD: PlanOptions = {
    ...base,
    parameters: { repository: REPOSITORY, branch: "feature/x", rebuild: "3" },
    workspace: { id: "8f14e45f-ceea-467f-a0e6-0a1b2c3d4e5f" },
    owner: { id: "o", name: "bob", full_name: "", email: "bob@example.com" },
  };
  const PREBUILD = { is_prebuild: true, prebuild_count: 1 };
  const NOT_A_PREBUILD = { is_prebuild: false, prebuild_count: 0 };
  const TEMPLATE_WIDE_CREDENTIALS = {
    git_credentials_username: "builder",
    git_credentials_token: "s3cret",
    git_credentials_hosts: ["github.com"],
    allow_template_git_token_fallback: true,
  };
  /**
   * Plans of a started workspace that differ only in template variables, one Terraform run
   * each group (test/support/plan-variants.ts). The user's GitHub account is linked, GitLab
   * is not (the token is only read where external_auth_id is set). `defaults` sets only the
   * required variables: the template as synthesized, outside a prebuild.
   */
  let started: Record<
    "defaults" | "license" | "externalAuth" | "unlinked" | "templateWide",
    PlanResult
  >;
  /** Plans of a prebuild (owner `prebuilds`, is_prebuild) that differ only in variables. */
  let prebuild: Record<"plain" | "templateWide", PlanResult>;

  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = synthesizeDevcontainer();
    started = await planVariants(
      tf,
      template.dir,
      { ...LINKED_GITHUB_UNLINKED_GITLAB, workspace: NOT_A_PREBUILD },
      {
        defaults: {},
        license: { accept_vscode_license: false, max_forwarded_ports: 2 },
        externalAuth: { external_auth_id: "github", external_auth_host: "github.com" },
        unlinked: { external_auth_id: "gitlab", external_auth_host: "github.com" },
        templateWide: { external_auth_id: "github", ...TEMPLATE_WIDE_CREDENTIALS },
      },
    );
    prebuild = await planVariants(
      tf,
      template.dir,
      { ...base, workspace: PREBUILD },
      { plain: {}, templateWide: TEMPLATE_WIDE_CREDENTIALS },
    );
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  // `terraform plan` runs the validate walk before it plans (and fails on its errors), so a
  // plan of the template as synthesized is a `terraform validate` of it too.
  it("passes terraform validate as synthesized", async () => {
    const plan = await tf.plan(template.dir, { ...base, workspace: { startCount: 0 } });
    expect(plan.warnings.filter((d) => !d.summary.startsWith("Check block assertion"))).toEqual([]);
  });

  it("keeps only the build, tracker, agent, env, PVC and variables Secret while stopped", async () => {
    const plan = await tf.plan(template.dir, { ...base, workspace: { startCount: 0 } });
    expect(plan.addresses()).toEqual(ALWAYS);
  });

  it("adds the metadata read, pod, scripts, IDE modules and port slots while started", () => {
    const plan = started.defaults;
    expect(plan.addresses()).toEqual([...ALWAYS, ...WHILE_STARTED].sort());
  });

  it("describes the pod (image, tag, commit, placement) and the data volume; alerts on memory and the home", () => {
    const plan = started.defaults;
    const items = (address: string) =>
      Object.fromEntries(
        (plan.resource(address).after.item as { key: string; value: unknown }[]).map((i) => [
          i.key,
          i.value,
        ]),
      );
    const pod = items("coder_metadata.pod_info[0]");
    expect(Object.keys(pod)).toEqual([
      "Image",
      "Image tag",
      "Commit",
      "Namespace",
      "Node placement",
      "Build git credential",
    ]);
    expect(pod["Build git credential"]).toBe("none");
    expect(pod["Image tag"]).toBe(`ws-${String(DEFAULT_WORKSPACE.id).toLowerCase()}-0`);
    // The selector depends on the built image's metadata: known at apply, from local.node_selector.
    const configured = (template.config as any).resource.coder_metadata.pod_info.item;
    expect(configured[4].value).toBe(
      '${join(", ", [for k, v in local.node_selector : format("%s=%s", k, v)])}',
    );
    expect(pod.Namespace).toBe(REQUIRED_VARIABLES.namespace);
    // The disk size may come from the repository's hostRequirements: known at apply. It is
    // the claim's own, fixed at creation (quantity-caps.test.ts: a later cap never shows less).
    expect(Object.keys(items("coder_metadata.data_volume"))).toEqual(["Disk size", "Namespace"]);
    expect(items("coder_metadata.data_volume").Namespace).toBe(REQUIRED_VARIABLES.namespace);
    expect((template.config as any).resource.coder_metadata.data_volume.item[0].value).toBe(
      '${kubernetes_persistent_volume_claim_v1.data.spec[0].resources[0].requests["storage"]}',
    );
    const agent = plan.resource("coder_agent.main").after as Record<string, any>;
    expect(agent.api_key_scope).toBe("all");
    expect(agent.resources_monitoring[0].memory).toEqual([{ enabled: true, threshold: 80 }]);
    expect(agent.resources_monitoring[0].volume).toEqual([
      expect.objectContaining({ enabled: true, threshold: 90 }),
    ]);
  });

  it("drops vscode-web without the license, and sizes the port slots by max_forwarded_ports", () => {
    const plan = started.license;
    const addresses = plan.addresses();
    expect(addresses.filter((a) => a.startsWith("module.vscode_web"))).toEqual([]);
    expect(addresses).toContain("module.vscode_desktop[0].terraform_data.inputs");
    expect(addresses.filter((a) => a.startsWith("coder_app."))).toEqual([
      "coder_app.forwarded_port[0]",
      "coder_app.forwarded_port[1]",
    ]);
  });

  // Coder's workspace ids are lower-case UUIDs; an upper-case one would also be an invalid
  // object name (the mock rejects it as the kubernetes provider does).
  it("builds the branch under the workspace's own tag", async () => {
    const plan = await tf.plan(template.dir, BRANCH_BUILD);
    const build = plan.resource("devcontainerbuilder_build.workspace");
    expect(build.actions).toEqual(["create"]);
    expect(build.after).toMatchObject({
      repository: REPOSITORY,
      branch: "feature/x",
      image_spec: { tag: "ws-8f14e45f-ceea-467f-a0e6-0a1b2c3d4e5f-3", registry: null, name: null },
      registry_credentials: null,
      git_credentials: null,
    });
    expect(plan.resource("terraform_data.rebuild").after.input).toBe("3");
  });

  it("keeps at most 128 characters of the tag", async () => {
    const plan = await tf.plan(template.dir, {
      ...base,
      parameters: { ...base.parameters, rebuild: "1".repeat(100) },
      workspace: { id: "8f14e45f-ceea-467f-a0e6-0a1b2c3d4e5f" },
    });
    const tag = (
      plan.resource("devcontainerbuilder_build.workspace").after.image_spec as {
        tag: string;
      }
    ).tag;
    expect(tag).toBe(`ws-8f14e45f-ceea-467f-a0e6-0a1b2c3d4e5f-${"1".repeat(88)}`);
    expect(tag).toHaveLength(128);
  });

  describe("git credentials of the build", () => {
    const credentials = (plan: PlanResult) => {
      const build = plan.resource("devcontainerbuilder_build.workspace");
      return {
        value: build.after.git_credentials,
        sensitive: build.afterSensitive.git_credentials,
        externalAuth: plan.dataSources("coder_external_auth").map((d) => d.address),
      };
    };

    it("sends none and asks for no account link by default", () => {
      expect(credentials(started.defaults)).toEqual({
        value: null,
        sensitive: true,
        externalAuth: [],
      });
    });

    it("uses the user's external auth token as oauth2", () => {
      const result = credentials(started.externalAuth);
      expect(result.value).toEqual({ username: "oauth2", token: "gho_usertoken" });
      expect(result.sensitive).toBeTruthy();
      expect(result.externalAuth).toEqual(["data.coder_external_auth.git[0]"]);
    });

    it("sends none for an empty external auth token (an unlinked account, the prebuilds user)", () => {
      const plan = started.unlinked;
      // The account was asked for, and Coder answered with no token.
      expect(plan.dataSources("coder_external_auth").map((d) => d.values.access_token)).toEqual([
        "",
      ]);
      expect(plan.resource("devcontainerbuilder_build.workspace").after.git_credentials).toBeNull();
    });

    describe("in a prebuild", () => {
      const failures = (plan: PlanResult) =>
        plan.checkFailures().filter((m) => m.startsWith("This is a prebuilt workspace"));

      it("says in the build log that a private repository needs template-wide credentials", () => {
        const [message] = failures(prebuild.plain);
        expect(message).toContain("allow_template_git_token_fallback on");
        expect(message).toContain("The clone into the workspace waits for the claim");
      });

      it("says nothing with template-wide credentials, or outside a prebuild", () => {
        expect(failures(prebuild.templateWide)).toEqual([]);
        expect(failures(started.defaults)).toEqual([]);
      });
    });

    it("uses the template-wide username and token, with the fallback on, where the user's token is for no host", () => {
      // external_auth_host is unset: the linked token goes nowhere (issue 43.1: it would win).
      const result = credentials(started.templateWide);
      expect(result.value).toEqual({ username: "builder", token: "s3cret" });
    });
  });

  it("exports the image commit, branch, rebuild and git identity to the agent", async () => {
    const plan = await tf.plan(template.dir, BRANCH_BUILD);
    const env = Object.fromEntries(
      plan.resources("coder_env").map((r) => [r.after.name, r.after.value]),
    );
    expect(env).toEqual({
      // Unknown until the build runs in this plan.
      DEVCONTAINER_IMAGE_COMMIT: undefined,
      DEVCONTAINER_BRANCH: "feature/x",
      DEVCONTAINER_REBUILD: "3",
      GIT_AUTHOR_NAME: "bob",
      GIT_COMMITTER_NAME: "bob",
      GIT_AUTHOR_EMAIL: "bob@example.com",
      GIT_COMMITTER_EMAIL: "bob@example.com",
    });
  });
});
