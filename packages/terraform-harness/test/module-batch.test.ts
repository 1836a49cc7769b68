import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  mergeStates,
  nestState,
  planExpressions,
  prepareModuleBatch,
  type PlanOptions,
  TerraformHarness,
} from "../src/index";
import { runTerraform } from "../src/terraform-cli";
import { prepareWorkdir, setConfigurationReader } from "../src/template-workdir";

const MOCK_TEMPLATE = join(__dirname, "testdata", "mock-template");
const MODULE_TEMPLATE = join(__dirname, "testdata", "module-template");

const OPTIONS: PlanOptions = {
  fixtures: {
    data_sources: {
      devcontainerbuilder_devcontainer: { host_requirements: { cpus: 6 }, remote_user: "vscode" },
    },
  },
};

const CPU_CHECK = "cpu parameter exceeds max_cpu; the pod is capped";

/** The hand-written template plus a provider block that reads a variable, as cdktf writes. */
function templateWithProviderBlock(): string {
  const dir = mkdtempSync(join(tmpdir(), "batch-test-"));
  const config = JSON.parse(readFileSync(join(MOCK_TEMPLATE, "main.tf.json"), "utf8")) as Record<
    string,
    Record<string, unknown>
  >;
  config.variable.use_kubeconfig = { type: "bool", default: false };
  config.provider = {
    coder: [{}],
    kubernetes: [{ config_path: '${var.use_kubeconfig ? "~/.kube/config" : null}' }],
  };
  writeFileSync(join(dir, "main.tf.json"), JSON.stringify(config));
  return dir;
}

/** spec[0].template[0].spec[0].container[0].resources[0].limits of a planned deployment. */
function limits(after: Record<string, unknown>): Record<string, unknown> {
  const spec = after.spec as {
    template: { spec: { container: { resources: { limits: Record<string, unknown> }[] }[] }[] }[];
  }[];
  return spec[0].template[0].spec[0].container[0].resources[0].limits;
}

describe("module batches", () => {
  let tf: TerraformHarness;
  let template: string;
  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = templateWithProviderBlock();
  });
  afterAll(async () => {
    await tf.stop();
    rmSync(template, { recursive: true, force: true });
  });

  it("plans each instance with its own variables, read back as the template alone plans", async () => {
    const batch = prepareModuleBatch(template, { capped: { max_cpu: 1 }, shared: {} });
    try {
      // The template may not configure providers inside a for_each module: they moved.
      const root = JSON.parse(readFileSync(join(batch.dir, "main.tf.json"), "utf8")) as {
        provider: Record<string, unknown>;
      };
      expect(Object.keys(root.provider).sort()).toEqual(["coder", "kubernetes"]);

      const [plan, alone] = await Promise.all([
        tf.plan(batch.dir, { ...OPTIONS, variables: { namespace: "team" } }),
        tf.plan(template, { ...OPTIONS, variables: { namespace: "team" } }),
      ]);
      const capped = plan.instance(batch.instanceAddress("capped"));
      const shared = plan.instance(batch.instanceAddress("shared"));

      expect(capped.addresses()).toEqual(alone.addresses());
      expect(shared.addresses()).toEqual(alone.addresses());
      const deployment = "kubernetes_deployment_v1.main[0]";
      // min(cpu parameter 2, the image's 6 cpus, max_cpu): the instance's own max_cpu wins.
      expect(limits(capped.resource(deployment).after).cpu).toBe("1");
      expect(limits(shared.resource(deployment).after).cpu).toBe("2");
      // The shared root variable reaches every instance.
      for (const instance of [capped, shared]) {
        expect(instance.resource(deployment).after.metadata).toMatchObject([{ namespace: "team" }]);
      }
      // A failed check belongs to the instance it failed in.
      expect(capped.checkFailures()).toEqual([CPU_CHECK]);
      expect(shared.checkFailures()).toEqual([]);
      expect(alone.checkFailures()).toEqual([]);
      // Data sources read in an instance, by their address in the template.
      expect(capped.dataSources("coder_parameter").map((d) => d.address)).toEqual(
        alone.dataSources("coder_parameter").map((d) => d.address),
      );
    } finally {
      batch.cleanup();
    }
  });

  it("gives every instance a copy of a state applied to the template alone", async () => {
    const applied = await tf.apply(template, { ...OPTIONS, workspace: { startCount: 0 } });
    const batch = prepareModuleBatch(template, { a: {}, b: {} });
    try {
      const state = mergeStates(
        batch.keys.map((k) => nestState(applied.state, batch.instanceAddress(k))),
      );
      const plan = await tf.plan(batch.dir, {
        ...OPTIONS,
        state,
        refresh: false,
        workspace: { startCount: 0 },
      });
      for (const key of batch.keys) {
        const instance = plan.instance(batch.instanceAddress(key));
        // Already applied in the copied state: nothing to create, the agent keeps its id.
        expect(instance.resource("coder_agent.main").actions).toEqual(["no-op"]);
        expect(instance.resource("coder_agent.main").after.id).toBe(
          applied.resources.find((r) => r.address === "coder_agent.main")?.values.id,
        );
      }
    } finally {
      batch.cleanup();
    }
  });

  it("passes an aliased provider configuration to the instances (packer-builder's harvester)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "batch-test-"));
    try {
      const config = JSON.parse(readFileSync(join(template, "main.tf.json"), "utf8")) as Record<
        string,
        Record<string, Record<string, Record<string, unknown>>>
      >;
      config.provider.kubernetes = [
        ...(config.provider.kubernetes as unknown as unknown[]),
        { alias: "other", config_path: '${var.use_kubeconfig ? "~/.kube/other" : null}' },
      ] as unknown as Record<string, Record<string, unknown>>;
      config.resource.kubernetes_deployment_v1.main.provider = "kubernetes.other";
      writeFileSync(join(dir, "main.tf.json"), JSON.stringify(config));

      const batch = prepareModuleBatch(dir, { capped: { max_cpu: 1 }, shared: {} });
      try {
        const [plan, alone] = await Promise.all([
          tf.plan(batch.dir, { ...OPTIONS, variables: { namespace: "team" } }),
          tf.plan(dir, { ...OPTIONS, variables: { namespace: "team" } }),
        ]);
        const deployment = "kubernetes_deployment_v1.main[0]";
        for (const key of batch.keys) {
          expect(plan.instance(batch.instanceAddress(key)).addresses()).toEqual(alone.addresses());
        }
        expect(
          limits(plan.instance(batch.instanceAddress("capped")).resource(deployment).after),
        ).toMatchObject({ cpu: "1" });
        // The instances' deployment is planned with the aliased configuration, as at the root.
        const providerOf = (address: string) =>
          (plan.raw.resource_changes as { address: string; provider_name: string }[]).find(
            (c) => c.address === address,
          )?.provider_name;
        expect(providerOf(`${batch.instanceAddress("shared")}.${deployment}`)).toBe(
          "registry.terraform.io/hashicorp/kubernetes",
        );
        const configuration = plan.raw.configuration as {
          root_module: { module_calls: Record<string, { module: { resources: unknown[] } }> };
        };
        expect(configuration.root_module.module_calls.instances.module.resources).toContainEqual(
          expect.objectContaining({
            address: "kubernetes_deployment_v1.main",
            provider_config_key: "kubernetes.other",
          }),
        );
      } finally {
        batch.cleanup();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("batches a configuration without providers, planned by planExpressions", async () => {
    const dir = mkdtempSync(join(tmpdir(), "batch-test-"));
    writeFileSync(
      join(dir, "main.tf.json"),
      JSON.stringify({
        variable: { n: { type: "number" } },
        output: { twice: { value: "${var.n * 2}" } },
      }),
    );
    const batch = prepareModuleBatch(dir, { a: { n: 2 }, b: {} });
    try {
      // Root outputs reading the instances' outputs, as a test adds them.
      writeFileSync(
        join(batch.dir, "outputs.tf.json"),
        JSON.stringify({
          output: Object.fromEntries(
            batch.keys.map((k) => [k, { value: `\${${batch.instanceAddress(k)}.twice}` }]),
          ),
        }),
      );
      const plan = await planExpressions(batch.dir, { n: 5 });
      expect(plan.values).toEqual({ a: 4, b: 10 });
    } finally {
      batch.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes the module manifest `terraform get` writes for a template that calls modules", async () => {
    const batch = prepareModuleBatch(MODULE_TEMPLATE, { a: {}, b: {} });
    const workdir = prepareWorkdir(batch.dir);
    try {
      // The batch's module and the stubs the template calls, in the template's directory.
      expect(JSON.parse(workdir.moduleManifest ?? "{}").Modules).toHaveLength(4);
      await runTerraform(["get", "-no-color"], { cwd: workdir.dir });
      const written = readFileSync(join(workdir.dir, ".terraform", "modules", "modules.json"));
      expect(JSON.parse(workdir.moduleManifest ?? "")).toEqual(JSON.parse(written.toString()));
    } finally {
      workdir.cleanup();
      batch.cleanup();
    }
  });

  it("rejects an instance variable the template does not declare, naming it", () => {
    expect(() => prepareModuleBatch(template, { a: { max_cpus: 2 } })).toThrow(
      /instance "a" sets max_cpus, which the template .* does not declare/,
    );
  });
});

/**
 * MODULE_TEMPLATE with its module calls and a variable in a `.tf` file, as the project's synth
 * writes them (main.tf), and the configuration its reader gives for it (the harness parses
 * no HCL). `clone` turns the git_clone call off.
 */
function moduleTemplateInHcl(): { dir: string; configuration: Record<string, unknown> } {
  const dir = mkdtempSync(join(tmpdir(), "batch-hcl-"));
  const json = JSON.parse(readFileSync(join(MODULE_TEMPLATE, "main.tf.json"), "utf8")) as Record<
    string,
    Record<string, Record<string, unknown>>
  >;
  const { module, ...rest } = json;
  writeFileSync(join(dir, "cdk.tf.json"), JSON.stringify(rest));
  const web = module.vscode_web;
  const clone = module.git_clone;
  writeFileSync(
    join(dir, "main.tf"),
    [
      'variable "clone" {',
      "  type    = bool",
      "  default = true",
      "}",
      "",
      'module "vscode_web" {',
      `  source         = "${String(web.source)}"`,
      `  version        = "${String(web.version)}"`,
      "  count          = data.coder_workspace.me.start_count",
      "  agent_id       = coder_agent.main.id",
      "  accept_license = true",
      '  folder         = "/home/coder/app"',
      "  subdomain      = false",
      "}",
      "",
      'module "git_clone" {',
      `  source   = "${String(clone.source)}"`,
      `  version  = "${String(clone.version)}"`,
      "  count    = var.clone ? data.coder_workspace.me.start_count : 0",
      "  agent_id = coder_agent.main.id",
      '  url      = "https://git.example.com/team/app.git"',
      '  base_dir = "/home/coder"',
      "}",
      "",
    ].join("\n"),
  );
  const configuration = {
    ...rest,
    variable: { clone: { type: "bool", default: true } },
    module: {
      vscode_web: web,
      git_clone: { ...clone, count: "${var.clone ? data.coder_workspace.me.start_count : 0}" },
    },
  };
  return { dir, configuration };
}

describe("module calls and variables in a .tf file", () => {
  let tf: TerraformHarness;
  let template: { dir: string; configuration: Record<string, unknown> };
  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = moduleTemplateInHcl();
    setConfigurationReader((dir) => (dir === template.dir ? template.configuration : {}));
  });
  afterAll(async () => {
    setConfigurationReader(() => ({}));
    await tf.stop();
    rmSync(template.dir, { recursive: true, force: true });
  });

  it("plans the calls as written against the stubs, as the same calls in JSON plan", async () => {
    const workdir = prepareWorkdir(template.dir);
    try {
      // The .tf file stays as the template ships it; the manifest points at the stubs.
      expect(readFileSync(join(workdir.dir, "main.tf"), "utf8")).toBe(
        readFileSync(join(template.dir, "main.tf"), "utf8"),
      );
      expect(JSON.parse(workdir.moduleManifest ?? "{}").Modules).toEqual(
        expect.arrayContaining([
          {
            Key: "git_clone",
            Source: "registry.coder.com/coder/git-clone/coder",
            Version: "2.0.3",
            Dir: ".harness-modules/git-clone",
          },
        ]),
      );
    } finally {
      workdir.cleanup();
    }
    const [inHcl, inJson] = await Promise.all([
      tf.plan(template.dir, { workspace: { startCount: 1 } }),
      tf.plan(MODULE_TEMPLATE, { workspace: { startCount: 1 } }),
    ]);
    expect(inHcl.addresses()).toEqual(inJson.addresses());
    expect(inHcl.addresses().some((a) => a.startsWith("module.git_clone[0]."))).toBe(true);
    expect(inHcl.outputs).toEqual(inJson.outputs);
  });

  it("batches the template with the variables of its .tf file", async () => {
    const batch = prepareModuleBatch(template.dir, { off: { clone: false }, on: {} });
    try {
      const plan = await tf.plan(batch.dir, { workspace: { startCount: 1 } });
      const cloned = (key: string) =>
        plan
          .instance(batch.instanceAddress(key))
          .addresses()
          .some((a) => a.startsWith("module.git_clone[0]."));
      expect({ off: cloned("off"), on: cloned("on") }).toEqual({ off: false, on: true });
    } finally {
      batch.cleanup();
    }
  });
});
