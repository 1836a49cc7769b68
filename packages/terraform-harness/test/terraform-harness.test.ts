import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  collectResources,
  TerraformError,
  TerraformHarness,
  DEFAULT_WORKSPACE,
} from "../src/index";
import { runTerraform } from "../src/terraform-cli";
import { MODULE_STUBS_DIR, prepareWorkdir } from "../src/template-workdir";

const MOCK_TEMPLATE = join(__dirname, "testdata", "mock-template");
const MODULE_TEMPLATE = join(__dirname, "testdata", "module-template");

/** Fixture of the dev container the mock template reads. */
const DEVCONTAINER = {
  devcontainerbuilder_devcontainer: {
    host_requirements: { cpus: 6, memory_bytes: 8589934592 },
    remote_user: "vscode",
  },
};

/** The parts of a test template's main.tf.json that tests edit. */
interface TemplateConfig {
  resource: Record<string, Record<string, Record<string, unknown>>>;
  module: Record<string, Record<string, unknown>>;
  import?: unknown[];
}

/** A copy of `templateDir` with its main.tf.json changed by `edit`. */
function editedCopy(templateDir: string, edit: (config: TemplateConfig) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "harness-test-"));
  const config = JSON.parse(
    readFileSync(join(templateDir, "main.tf.json"), "utf8"),
  ) as TemplateConfig;
  edit(config);
  writeFileSync(join(dir, "main.tf.json"), JSON.stringify(config));
  return dir;
}

/** The nesting of kubernetes_deployment_v1 blocks down to the containers. */
interface DeploymentSpec {
  template: { spec: { container: Record<string, unknown>[] }[] }[];
}

/** The first container of a deployment's `after` / `afterUnknown` / `afterSensitive` / values. */
function firstContainer(values: Record<string, unknown>): Record<string, unknown> {
  return (values.spec as DeploymentSpec[])[0].template[0].spec[0].container[0];
}

describe("TerraformHarness with the mock providers", () => {
  let tf: TerraformHarness;
  const scratch: string[] = [];
  beforeAll(async () => (tf = await TerraformHarness.start()));
  afterAll(async () => {
    await tf.stop();
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  it("serves a release's schema per call, and fails naming a schema file that is missing or no schema", async () => {
    const dir = mkdtempSync(join(tmpdir(), "harness-schemas-"));
    scratch.push(dir);
    // The coder provider without coder_agent: the mock template's agent is then refused.
    const schema = JSON.parse(
      readFileSync(join(__dirname, "../../../schemas/coder.schema.json"), "utf8"),
    );
    delete schema.provider_schemas["registry.terraform.io/coder/coder"].resource_schemas
      .coder_agent;
    const release = join(dir, "coder-release.schema.json");
    writeFileSync(release, JSON.stringify(schema));
    const result = await tf.validate(MOCK_TEMPLATE, { schemaFiles: [release] });
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => d.summary).join("\n")).toMatch(/Invalid resource type/);
    await expect(tf.validate(MOCK_TEMPLATE)).resolves.toEqual({ valid: true, diagnostics: [] });
    const missing = join(dir, "missing.schema.json");
    await expect(tf.validate(MOCK_TEMPLATE, { schemaFiles: [missing] })).rejects.toThrow(missing);
    const notSchema = join(dir, "not-a-schema.json");
    writeFileSync(notSchema, JSON.stringify({ format_version: "1.0" }));
    await expect(tf.validate(MOCK_TEMPLATE, { schemaFiles: [notSchema] })).rejects.toThrow(
      `${notSchema}: not a provider schema`,
    );
  });

  it("validates the hand-written template", async () => {
    await expect(tf.validate(MOCK_TEMPLATE)).resolves.toEqual({ valid: true, diagnostics: [] });
  });

  it("reports a wrong attribute name as a validate diagnostic", async () => {
    const dir = editedCopy(
      MOCK_TEMPLATE,
      (c) => (c.resource.coder_agent.main.startup_scrip = "echo"),
    );
    scratch.push(dir);
    const result = await tf.validate(dir);
    expect(result.valid).toBe(false);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        detail: expect.stringContaining('No argument or block type is named "startup_scrip"'),
      }),
    ]);
  });

  it("plans a started workspace with fixtures, parameters and nested blocks", async () => {
    const plan = await tf.plan(MOCK_TEMPLATE, {
      fixtures: { data_sources: DEVCONTAINER },
      parameters: { memory: "16" },
      owner: { name: "bob", full_name: "Bob Builder" },
      workspace: { startCount: 1, name: "ws1" },
    });
    expect(plan.addresses()).toEqual([
      "coder_agent.main",
      "devcontainerbuilder_build.image",
      "kubernetes_deployment_v1.main[0]",
    ]);

    const agent = plan.resource("coder_agent.main");
    expect(agent.actions).toEqual(["create"]);
    expect(agent.after.env).toEqual({ GIT_AUTHOR_NAME: "Bob Builder" });
    expect(agent.afterUnknown).toMatchObject({ id: true, token: true, init_script: true });
    expect(agent.afterSensitive).toMatchObject({ token: true });

    const [deployment] = plan.resources("kubernetes_deployment_v1");
    expect(deployment.index).toBe(0);
    expect(deployment.after.metadata).toEqual([
      expect.objectContaining({ name: "coder-bob-ws1", namespace: "coder" }),
    ]);
    const container = firstContainer(deployment.after);
    // cpu parameter unanswered → its default "2"; memory answered → 16; devcontainer cpus 6.
    expect(container.resources).toEqual([{ limits: { cpu: "2", memory: "16Gi" } }]);
    expect(firstContainer(deployment.afterUnknown)).toMatchObject({
      image: true,
      command: [false, false, true],
    });
    // The token flows into env.value, which Terraform then marks sensitive.
    expect(firstContainer(deployment.afterSensitive).env).toEqual([
      { value: true, value_from: [] },
    ]);
    // Computed attributes in nested blocks become unknown on create.
    expect((deployment.afterUnknown.metadata as unknown[])[0]).toMatchObject({
      uid: true,
      resource_version: true,
    });

    const build = plan.resource("devcontainerbuilder_build.image");
    expect(build.after.image_spec).toEqual({
      registry: "registry.example.com",
      name: "app",
      tag: null,
    });
    expect(build.afterUnknown).toMatchObject({ image: true, resolved_tag: true, commit: true });

    expect(plan.outputs.workspace_name).toEqual({ value: "ws1", sensitive: false, unknown: false });
    expect(plan.outputs.devcontainer_cpus.value).toBe(6);
    expect(plan.outputs.remote_user.value).toBe("vscode");
    expect(plan.outputs.agent_id).toEqual({ value: undefined, sensitive: false, unknown: true });
    expect(plan.checkFailures()).toEqual([]);

    const parameters = plan
      .dataSources("coder_parameter")
      .map((d) => [d.values.name, d.values.value]);
    expect(parameters.sort()).toEqual([
      ["cpu", "2"],
      ["memory", "16"],
    ]);
  });

  it("keeps an attribute a fixture sets to null explicitly, and zero-fills the rest", async () => {
    const plan = await tf.plan(MOCK_TEMPLATE, {
      fixtures: {
        data_sources: {
          devcontainerbuilder_devcontainer: { host_requirements: { cpus: 2 }, remote_user: null },
        },
      },
    });
    const read = plan.dataSources("devcontainerbuilder_devcontainer")[0].values;
    expect(read.remote_user).toBeNull();
    expect(read.container_user).toBe("");
    expect(plan.outputs.remote_user.value).toBeNull();
  });

  it("plans no deployment for a stopped workspace", async () => {
    const plan = await tf.plan(MOCK_TEMPLATE, {
      fixtures: { data_sources: DEVCONTAINER },
      workspace: { startCount: 0 },
    });
    expect(plan.resources("kubernetes_deployment_v1")).toEqual([]);
    expect(plan.dataSources("coder_workspace")[0].values).toMatchObject({
      start_count: 0,
      transition: "stop",
      id: DEFAULT_WORKSPACE.id,
    });
    expect(() => plan.resource("kubernetes_deployment_v1.main[0]")).toThrow(
      /no resource kubernetes_deployment_v1.main\[0\] in the plan; planned: coder_agent.main, devcontainerbuilder_build.image/,
    );
  });

  it("returns a failed check block as a warning, matched parameters by name", async () => {
    const plan = await tf.plan(MOCK_TEMPLATE, {
      fixtures: { data_sources: DEVCONTAINER },
      parameters: { cpu: 12 },
      variables: { max_cpu: 4 },
    });
    expect(plan.checkFailures()).toEqual(["cpu parameter exceeds max_cpu; the pod is capped"]);
    expect(plan.warnings).toEqual([
      expect.objectContaining({ summary: "Check block assertion failed" }),
    ]);
    const [deployment] = plan.resources("kubernetes_deployment_v1");
    expect(firstContainer(deployment.after).resources).toEqual([
      { limits: { cpu: "4", memory: "4Gi" } },
    ]);
  });

  it("rejects variables the template does not declare", async () => {
    await expect(tf.plan(MOCK_TEMPLATE, { variables: { max_cpus: 4 } })).rejects.toThrow(
      /not declared.*max_cpus/s,
    );
  });

  it("applies with resource fixtures, then plans no changes on top of the state", async () => {
    const applied = await tf.apply(MOCK_TEMPLATE, {
      fixtures: {
        data_sources: DEVCONTAINER,
        resources: {
          coder_agent: { id: "agent-1", token: "fixture-agent-token" },
          devcontainerbuilder_build: { image: "registry.example.com/app:sha-1234567" },
        },
      },
    });
    expect(applied.outputs.agent_id).toEqual({ value: "agent-1", sensitive: false });
    const deployment = applied.resources.find(
      (r) => r.address === "kubernetes_deployment_v1.main[0]",
    );
    const container = firstContainer(deployment?.values ?? {});
    expect(container.image).toBe("registry.example.com/app:sha-1234567");
    expect(container.env).toEqual([
      { name: "CODER_AGENT_TOKEN", value: "fixture-agent-token", value_from: [] },
    ]);
    // Without a fixture an id is a deterministic placeholder and strings are empty.
    const build = applied.resources.find((r) => r.address === "devcontainerbuilder_build.image");
    expect(build?.values).toMatchObject({
      id: expect.stringMatching(/^devcontainerbuilder_build-[0-9a-f]{8}$/),
      commit: "",
    });

    const replan = await tf.plan(MOCK_TEMPLATE, {
      state: applied,
      fixtures: { data_sources: DEVCONTAINER },
    });
    expect(replan.resourceChanges.map((r) => [r.address, r.actions])).toEqual([
      ["coder_agent.main", ["no-op"]],
      ["devcontainerbuilder_build.image", ["no-op"]],
      ["kubernetes_deployment_v1.main[0]", ["no-op"]],
    ]);
    expect(replan.outputs.agent_id.value).toBe("agent-1");

    // The apply's resources come from the state file; `terraform show -json` of the same state
    // (the plan's prior state) gives the same addresses, values and sensitive places.
    const prior = replan.raw.prior_state as { values: { root_module: unknown } };
    const shown = collectResources(prior.values.root_module)
      .filter((r) => r.mode === "managed")
      .map((r) => [r.address, r.values, truePaths(r.sensitive_values)]);
    const read = applied.resources
      .filter((r) => r.mode === "managed")
      .map((r) => [r.address, r.values, truePaths(r.sensitive)]);
    expect(read).toEqual(shown);
    expect(read.map(([address, , sensitive]) => [address, sensitive])).toEqual([
      ["coder_agent.main", ["token"]],
      ["devcontainerbuilder_build.image", ["git_credentials", "registry_credentials"]],
      ["kubernetes_deployment_v1.main[0]", ["spec.0.template.0.spec.0.container.0.env.0.value"]],
    ]);

    // Without a refresh of the state, data sources are still read from the fixtures.
    const unrefreshed = await tf.plan(MOCK_TEMPLATE, {
      state: applied,
      refresh: false,
      fixtures: { data_sources: { devcontainerbuilder_devcontainer: { remote_user: "dev" } } },
    });
    expect(unrefreshed.resource("coder_agent.main").actions).toEqual(["no-op"]);
    expect(unrefreshed.outputs.remote_user.value).toBe("dev");
  });

  it("plans an import through ImportResourceState", async () => {
    const dir = editedCopy(MOCK_TEMPLATE, (c) => {
      c.import = [{ to: "devcontainerbuilder_build.image", id: "registry.example.com/app:v1" }];
    });
    scratch.push(dir);
    const plan = await tf.plan(dir, {
      fixtures: {
        data_sources: DEVCONTAINER,
        resources: {
          devcontainerbuilder_build: { repository: "https://git.example.com/team/app.git" },
        },
      },
    });
    const build = plan.resource("devcontainerbuilder_build.image");
    expect(build.before).toMatchObject({
      id: "registry.example.com/app:v1",
      repository: "https://git.example.com/team/app.git",
    });
    expect(plan.raw.resource_changes).toContainEqual(
      expect.objectContaining({
        address: "devcontainerbuilder_build.image",
        change: expect.objectContaining({ importing: { id: "registry.example.com/app:v1" } }),
      }),
    );
  });

  it("replaces registry modules with stubs that take the declared inputs", async () => {
    const plan = await tf.plan(MODULE_TEMPLATE);
    const inputs = plan.resource("module.vscode_web[0].terraform_data.inputs").after.input;
    expect(inputs).toMatchObject({
      accept_license: true,
      folder: "/home/coder/app",
      subdomain: false,
      port: 13338,
    });
    expect(plan.outputs.repo_dir.value).toBe("/home/coder/app");
  });

  it("runs `terraform init` and then a plan in a fresh workdir, as a provisioner's build does", async () => {
    const steps: { name: string; stdout: string }[] = [];
    await tf.initAndPlan(MODULE_TEMPLATE, {}, async (name, run) => {
      const result = (await run()) as { stdout?: string; run?: { stdout: string } };
      steps.push({ name, stdout: result.stdout ?? result.run?.stdout ?? "" });
    });
    expect(steps.map((s) => s.name)).toEqual(["init", "plan"]);
    // init installs the stub itself (no manifest written for it) and downloads no provider.
    expect(steps[0].stdout).toContain("vscode_web in .harness-modules/vscode-web");
    expect(steps[0].stdout).not.toMatch(/Installing|Downloading/);
    expect(steps[1].stdout).toContain('"module.vscode_web[0].terraform_data.inputs"');
  });

  it("writes the module manifest of stubs that `terraform get` writes", async () => {
    const stubs = readdirSync(MODULE_STUBS_DIR);
    expect(stubs.length).toBeGreaterThan(1);
    const source = mkdtempSync(join(tmpdir(), "harness-manifest-"));
    scratch.push(source);
    // Every stub, called under names that do not sort like the stubs, one of them twice.
    // An older release's stub (`name@version`) is called with that version.
    const module: Record<string, { source: string; version?: string }> = {};
    stubs.forEach((stub, n) => {
      const [name, version] = stub.split("@");
      module[`m${stubs.length - n}_${stub.replace(/[-@.]/g, "_")}`] = {
        source: `registry.coder.com/coder/${name}/coder`,
        ...(version ? { version } : {}),
      };
    });
    module.again = { source: `registry.coder.com/coder/${stubs[0]}/coder` };
    writeFileSync(join(source, "main.tf.json"), JSON.stringify({ module }));
    const workdir = prepareWorkdir(source);
    try {
      expect(workdir.moduleManifest).toBeDefined();
      await runTerraform(["get", "-no-color"], { cwd: workdir.dir });
      const written = readFileSync(join(workdir.dir, ".terraform", "modules", "modules.json"));
      expect(JSON.parse(workdir.moduleManifest ?? "")).toEqual(JSON.parse(written.toString()));
    } finally {
      workdir.cleanup();
    }
  });

  it("fails like Terraform on an input the real module does not declare", async () => {
    const dir = editedCopy(MODULE_TEMPLATE, (c) => (c.module.vscode_web.foldr = "/home/coder"));
    scratch.push(dir);
    const failure = tf.plan(dir);
    await expect(failure).rejects.toBeInstanceOf(TerraformError);
    // In JSON syntax Terraform words "Unsupported argument" this way.
    await expect(failure).rejects.toThrow(
      /Extraneous JSON object property: No argument or block type is named "foldr"/,
    );
  });

  it("fails with the source named when a registry module has no stub", async () => {
    const dir = editedCopy(MODULE_TEMPLATE, (c) => {
      c.module.vscode_web.source = "registry.coder.com/coder/no-such-module/coder";
    });
    scratch.push(dir);
    await expect(tf.plan(dir)).rejects.toThrow(
      /module "vscode_web": source "registry.coder.com\/coder\/no-such-module\/coder" cannot be fetched offline/,
    );
  });
});

/** The paths (`a.0.b`) where a sensitive mask (as `show -json` prints them) is `true`, sorted. */
function truePaths(mask: unknown, prefix = ""): string[] {
  if (mask === true) return [prefix];
  if (mask === null || typeof mask !== "object") return [];
  return Object.entries(mask)
    .flatMap(([k, v]) => truePaths(v, prefix ? `${prefix}.${k}` : k))
    .sort();
}
