/**
 * The general building blocks (lib/constructs/workspace-app.ts, workspace-script.ts, ide-modules.ts and
 * WorkspaceDeployment's scheduling props): a template written from them plans with real
 * Terraform, ids are unique per type, and tokens reach the dynamic blocks they need.
 */
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import {
  agentContainer,
  AgentTokenSecret,
  CodeServer,
  JetBrainsGateway,
  TemplateVariable,
  VscodeDesktop,
  VscodeWeb,
  WorkspaceAgent,
  WorkspaceApp,
  WorkspaceData,
  WorkspaceDeployment,
  workspaceObjectMeta,
  WorkspaceParameter,
  WorkspaceScript,
  coderProvider,
  type TemplateStack,
  type WorkspaceDeploymentProps,
} from "../../lib";
import { IDE_MODULES } from "../../lib/constructs/ide-modules";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import { synthConstruct, synthConstructToDir } from "./construct-stack";

/** The node labels of GPU nodes, as an operator sets them. */
const GPU_NODES = { gpu_node_selector: { "nvidia.com/gpu.present": "true" } };

const CPU_MEMORY = { limits: { cpu: "1", memory: "1Gi" } };

/** A Jupyter-with-GPUs workspace written only from the building blocks. */
function jupyterGpu(stack: TemplateStack, deployment: Partial<WorkspaceDeploymentProps> = {}) {
  coderProvider(stack);
  new KubernetesProvider(stack, "kubernetes", {});
  const workspace = new WorkspaceData(stack, "workspace");
  const agent = new WorkspaceAgent(stack, "agent");
  const gpus = new WorkspaceParameter(stack, "gpus", {
    displayName: "GPUs",
    description: "GPUs for the workspace.",
    type: "number",
    default: "0",
    order: 1,
    options: ["0", "1", "2"].map((v) => ({ name: v, value: v })),
  });
  const subdomain = new TemplateVariable(stack, "subdomain_apps", {
    type: "bool",
    default: false,
    description: "Serve apps on subdomains.",
  });
  const gpuNodes = new TemplateVariable(stack, "gpu_node_selector", {
    type: "map(string)",
    description: "Node labels of GPU nodes.",
  });
  const tolerations = new TemplateVariable(stack, "gpu_tolerations", {
    type: "list(object({ key = string, operator = string, effect = string }))",
    default: [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }],
    description: "Taints of GPU nodes.",
  });
  // The same id for an app and a script: ids are unique per type.
  new WorkspaceApp(stack, "jupyterlab", {
    agent,
    displayName: "JupyterLab",
    url: "http://localhost:8888",
    urlMode: subdomain.value,
    healthcheck: { url: "http://localhost:8888/api" },
    order: 1,
    share: "authenticated",
    count: workspace.startCount,
  });
  new WorkspaceScript(stack, "jupyterlab", {
    agent,
    displayName: "Start JupyterLab",
    script: "#!/bin/sh\nexec jupyter lab --no-browser\n",
  });
  new CodeServer(stack, "code_server", { workspace, agent, folder: "/home/jovyan", order: 2 });
  new VscodeWeb(stack, "vscode_web", {
    workspace,
    agent,
    folder: "/home/jovyan",
    acceptLicense: true,
  });
  new VscodeDesktop(stack, "vscode_desktop", { workspace, agent, folder: "/home/jovyan" });
  new JetBrainsGateway(stack, "jetbrains_gateway", {
    workspace,
    agent,
    folder: "/home/jovyan",
    ides: ["IU", "PY"],
    defaultIde: "PY",
  });
  new WorkspaceDeployment(stack, "deployment", {
    workspace,
    name: `coder-${workspace.id}`,
    namespace: "ns",
    meta: workspaceObjectMeta(workspace, "workspace"),
    pod: {
      securityContext: { runAsUser: "1000" },
      container: [
        agentContainer({
          name: "dev",
          image: "jupyter/base:1",
          agent,
          tokenSecret: new AgentTokenSecret(stack, "agent_token_secret", {
            workspace,
            agent,
            namespace: "ns",
            meta: workspaceObjectMeta(workspace, "agent-token"),
          }),
          resources: CPU_MEMORY,
        }),
      ],
    },
    extendedResources: { "nvidia.com/gpu": gpus.numberValue },
    nodeSelector: gpuNodes.value,
    tolerations: tolerations.value,
    ...deployment,
  });
}

describe("synthesized", () => {
  it("gives an app and a script the same id side by side: coder_app.jupyterlab, coder_script.jupyterlab", () => {
    const tf = synthConstruct((stack) => jupyterGpu(stack));
    expect(Object.keys(tf.resource.coder_app)).toEqual(["jupyterlab"]);
    expect(Object.keys(tf.resource.coder_script)).toEqual(["jupyterlab"]);
    expect(Object.keys(tf.module).sort()).toEqual([
      "code_server",
      "jetbrains_gateway",
      "vscode_desktop",
      "vscode_web",
    ]);
    expect(tf.module.code_server).toMatchObject({
      source: IDE_MODULES.codeServer.source,
      version: IDE_MODULES.codeServer.version,
      count: "${data.coder_workspace.me.start_count}",
    });
  });

  it("builds the toleration dynamic block from a token, without casts or override paths in the template", () => {
    const tf = synthConstruct((stack) => jupyterGpu(stack));
    const spec = tf.resource.kubernetes_deployment_v1.main.spec.template.spec;
    expect(spec.dynamic.toleration.for_each).toBe("${var.gpu_tolerations}");
    expect(spec.node_selector).toBe("${var.gpu_node_selector}");
  });

  it("says how to fix two blocks of one type with one id", () => {
    expect(() =>
      synthConstruct((stack) => {
        const agent = new WorkspaceAgent(stack, "agent");
        new WorkspaceApp(stack, "lab", { agent, displayName: "a", url: "http://localhost:1" });
        new WorkspaceApp(stack, "lab", { agent, displayName: "b", url: "http://localhost:2" });
      }),
    ).toThrow(
      "construct: there is already a coder_app.lab in this scope; give one of them another id",
    );
  });

  it.each([
    [{ slug: "Not_A_Slug" }, /slug = "Not_A_Slug": must be a slug/],
    [{ command: "bash" }, /give exactly one of url and command/],
    [
      { url: undefined, command: "bash", healthcheck: { url: "http://x" } },
      /a healthcheck needs a web app/,
    ],
  ])("refuses bad app props %j", (props, message) => {
    expect(() =>
      synthConstruct((stack) => {
        const agent = new WorkspaceAgent(stack, "agent");
        new WorkspaceApp(stack, "lab", {
          agent,
          displayName: "a",
          url: "http://localhost:1",
          ...props,
        });
      }),
    ).toThrow(message);
  });

  it("refuses scheduling set twice, as a prop and in the pod", () => {
    expect(() =>
      synthConstruct((stack) =>
        jupyterGpu(stack, {
          pod: { securityContext: { runAsUser: "1000" }, nodeSelector: { a: "b" }, container: [] },
        }),
      ),
    ).toThrow("set nodeSelector either as a prop or in pod.nodeSelector, not both");
  });

  it("pins JetBrains Gateway with the IDEs offered and the one preselected", () => {
    const tf = synthConstruct((stack) => jupyterGpu(stack));
    expect(tf.module.jetbrains_gateway).toMatchObject({
      source: IDE_MODULES.jetbrainsGateway.source,
      version: IDE_MODULES.jetbrainsGateway.version,
      jetbrains_ides: ["IU", "PY"],
      default: "PY",
      folder: "/home/jovyan",
    });
  });
});

describe("planned", () => {
  let harness: TerraformHarness;
  let synthesized: ReturnType<typeof synthConstructToDir>;
  beforeAll(async () => {
    synthesized = synthConstructToDir((stack) => jupyterGpu(stack));
    harness = await TerraformHarness.start();
  });
  afterAll(async () => {
    await harness?.stop();
    synthesized?.cleanup();
  });

  it("plans the app by path or by subdomain, with its healthcheck, order and sharing", async () => {
    const [byPath, bySubdomain] = await Promise.all([
      harness.plan(synthesized.dir, { variables: GPU_NODES }),
      harness.plan(synthesized.dir, { variables: { ...GPU_NODES, subdomain_apps: true } }),
    ]);
    const app = byPath.resource("coder_app.jupyterlab[0]").after as any;
    expect(app).toMatchObject({
      slug: "jupyterlab",
      url: "http://localhost:8888",
      subdomain: false,
      order: 1,
      share: "authenticated",
      healthcheck: [{ url: "http://localhost:8888/api", interval: 5, threshold: 6 }],
    });
    expect((bySubdomain.resource("coder_app.jupyterlab[0]").after as any).subdomain).toBe(true);
    expect(byPath.resource("coder_script.jupyterlab").after).toMatchObject({ run_on_start: true });
    expect(byPath.addresses()).toEqual(
      expect.arrayContaining(
        [
          "module.code_server[0]",
          "module.vscode_web[0]",
          "module.vscode_desktop[0]",
          "module.jetbrains_gateway[0]",
        ].map((m) => expect.stringContaining(m)),
      ),
    );
    // JetBrains Gateway (its pinned release's stand-in): an external button and the picker.
    const gateway = byPath.resource("module.jetbrains_gateway[0].coder_app.gateway").after as any;
    expect(gateway).toMatchObject({ slug: "gateway", external: true });
    expect(gateway.url).toMatch(/^jetbrains-gateway:\/\/connect#.*ide_product_code=PY/);
    const picker = byPath
      .dataSources("coder_parameter")
      .find((d) => d.address === "module.jetbrains_gateway[0].data.coder_parameter.jetbrains_ide");
    expect(picker?.values).toMatchObject({
      default: "PY",
      option: [{ value: "IU" }, { value: "PY" }],
    });
  });

  it("refuses a JetBrains product code the module does not know, as the module does", async () => {
    const bad = synthConstructToDir((stack) => {
      coderProvider(stack);
      const workspace = new WorkspaceData(stack, "workspace");
      const agent = new WorkspaceAgent(stack, "agent");
      new JetBrainsGateway(stack, "jetbrains_gateway", {
        workspace,
        agent,
        folder: "/home/coder",
        ides: ["IU", "XX"],
      });
    });
    try {
      await expect(harness.plan(bad.dir)).rejects.toThrow(
        "jetbrains_ides must hold JetBrains product codes",
      );
    } finally {
      bad.cleanup();
    }
  });

  it("requests the chosen GPUs on the selected, tolerated nodes", async () => {
    const plan = await harness.plan(synthesized.dir, {
      variables: GPU_NODES,
      fixtures: {
        data_sources: { coder_parameter: [{ match: { name: "gpus" }, values: { value: "2" } }] },
      },
    });
    const spec = (plan.resource("kubernetes_deployment_v1.main[0]").after as any).spec[0]
      .template[0].spec[0];
    expect(spec.container[0].resources[0].limits).toEqual({
      cpu: "1",
      memory: "1Gi",
      "nvidia.com/gpu": "2",
    });
    expect(spec.node_selector).toEqual({ "nvidia.com/gpu.present": "true" });
    expect(spec.toleration).toEqual([
      expect.objectContaining({ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }),
    ]);
  });
});
