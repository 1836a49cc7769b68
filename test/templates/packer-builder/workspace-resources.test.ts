import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  TerraformHarness,
  DEFAULT_WORKSPACE,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  REQUIRED_VARIABLES,
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
} from "./synthesized-template";

// The per-workspace resources of packer-builder, planned by Terraform against the mock
// providers: what exists in a started and in a stopped workspace, on which cluster
// (provider), under which name and in which namespace.

const WS = `coder-${String(DEFAULT_WORKSPACE.id)}`;
const HARVESTER = "kubernetes.harvester";
const WORKSPACE_CLUSTER = "kubernetes";

/** Every managed resource with no count: it outlives stops, dies with the workspace. */
const IDENTITY_RESOURCES: Record<string, { name: string; namespace: string; provider: string }> = {
  "kubernetes_service_account_v1.harvester_identity": {
    name: WS,
    namespace: "packer-dev",
    provider: HARVESTER,
  },
  "kubernetes_role_binding_v1.harvester_identity_packer_dev_packer_builder": {
    name: `${WS}-packer-builder`,
    namespace: "packer-dev",
    provider: HARVESTER,
  },
  "kubernetes_role_binding_v1.harvester_identity_packer_dev_packer_builder_read": {
    name: `${WS}-packer-builder-read`,
    namespace: "packer-dev",
    provider: HARVESTER,
  },
  "kubernetes_service_account_v1.workspace_identity": {
    name: WS,
    namespace: "packer-builder",
    provider: WORKSPACE_CLUSTER,
  },
  "kubernetes_secret_v1.packer_kubeconfig": {
    name: `${WS}-packer-kubeconfig`,
    namespace: "packer-builder",
    provider: WORKSPACE_CLUSTER,
  },
  "kubernetes_persistent_volume_claim_v1.persistent": {
    name: `${WS}-persistent`,
    namespace: "packer-builder",
    provider: WORKSPACE_CLUSTER,
  },
};
/** What exists only while the workspace runs, on Harvester: the token and its session. */
const SESSION_RESOURCES: Record<string, { name: string; namespace: string; provider: string }> = {
  "kubernetes_secret_v1.harvester_identity_session[0]": {
    name: `${WS}-session`,
    namespace: "packer-dev",
    provider: HARVESTER,
  },
  "kubernetes_token_request_v1.harvester_identity[0]": {
    name: WS,
    namespace: "packer-dev",
    provider: HARVESTER,
  },
};
const CODER_RESOURCES = [
  "coder_agent.main",
  "coder_metadata.persistent_volume",
  "coder_script.clone_repository[0]",
  "coder_script.sweep_build_vms",
  "coder_script.sweep_previous_build_vms",
];

/** provider_config_key of each resource in the plan's configuration (`kubernetes.harvester`…). */
function providerKeys(plan: PlanResult): Record<string, string> {
  const config = plan.raw.configuration as { root_module: { resources: Record<string, string>[] } };
  return Object.fromEntries(
    config.root_module.resources.map((r) => [r.address, r.provider_config_key]),
  );
}

function metadataOf(plan: PlanResult, address: string): Record<string, unknown> {
  return (plan.resource(address).after.metadata as Record<string, unknown>[])[0];
}

describe("packer-builder workspace resources", () => {
  let tf: TerraformHarness;
  let template: SynthesizedPackerBuilder;
  let started: PlanResult;
  let stopped: PlanResult;

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
    [started, stopped] = await Promise.all([
      tf.plan(template.dir, { variables: REQUIRED_VARIABLES }),
      tf.plan(template.dir, { variables: REQUIRED_VARIABLES, workspace: { startCount: 0 } }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("ships its README and the agents' manual beside cdk.tf.json", () => {
    const manual = readFileSync(join(template.dir, "subagents", "packer-builder.md"), "utf8");
    expect(manual).toContain("app.coder.io/workspace");
    expect(manual).toContain("PKR_VAR_kubeconfig");
    const readme = readFileSync(join(template.dir, "README.md"), "utf8");
    expect(readme).toMatch(/^---\ndisplay_name: "Packer image builder \(Harvester\)"\n/);
  });

  it("passes terraform validate as synthesized", async () => {
    await expect(tf.validate(template.dir)).resolves.toEqual({ valid: true, diagnostics: [] });
  });

  const managed = (plan: PlanResult) =>
    plan.resourceChanges
      .filter((r) => r.mode === "managed")
      .map((r) => r.address)
      .sort();

  it("plans the identity on both clusters, the volume, the agent and its scripts, and the pod, when started", () => {
    expect(managed(started)).toEqual(
      [
        ...Object.keys(IDENTITY_RESOURCES),
        ...Object.keys(SESSION_RESOURCES),
        ...CODER_RESOURCES,
        "kubernetes_deployment_v1.main[0]",
        // CODER_AGENT_TOKEN's Secret, only while the pod runs (issue 43.2).
        "kubernetes_secret_v1.agent_token[0]",
        "coder_metadata.pod[0]",
        // The agents' manual is installed at every start (tests: ai-agents.test.ts).
        "coder_script.agent_manual[0]",
      ].sort(),
    );
    expect(started.warnings).toEqual([]);
  });

  it("offers radio buttons for CPU and memory and a slider for the disk, with a message that says what to do", () => {
    const params = Object.fromEntries(
      started.dataSources("coder_parameter").map((d) => [d.values.name, d.values]),
    );
    expect(params.cpu.form_type).toBe("radio");
    expect(params.memory.form_type).toBe("radio");
    expect(params.disk_size).toMatchObject({
      type: "number",
      form_type: "slider",
      validation: [
        {
          min: 1,
          max: 1000,
          error: "Pick {min} to {max} GiB; the size cannot change after the workspace is created.",
        },
      ],
    });
  });

  it("describes the pod and the persistent volume on the workspace page", () => {
    const items = (address: string) =>
      (started.resource(address).after.item as { key: string; value: string }[]).map((i) => [
        i.key,
        i.value,
      ]);
    expect(items("coder_metadata.pod[0]")).toEqual([
      ["Image", REQUIRED_VARIABLES.image],
      ["Namespace", "packer-builder"],
      ["Node placement", "kubernetes.io/arch=amd64"],
      ["Build namespace (Harvester)", "packer-dev"],
    ]);
    expect(items("coder_metadata.persistent_volume")).toEqual([
      ["Disk size", "10Gi"],
      ["Namespace", "packer-builder"],
      ["Mounted at", "/persistent"],
    ]);
  });

  it("runs the agent for var.arch on nodes of that arch, alerts on memory and /persistent", async () => {
    const agent = started.resource("coder_agent.main").after as Record<string, any>;
    expect(agent.arch).toBe("amd64");
    expect(agent.api_key_scope).toBe("all");
    expect(agent.resources_monitoring).toEqual([
      {
        memory: [{ enabled: true, threshold: 80 }],
        volume: [{ enabled: true, path: "/persistent", threshold: 90 }],
      },
    ]);
    const podSpec = (plan: PlanResult) =>
      (plan.resource("kubernetes_deployment_v1.main[0]").after as any).spec[0].template[0].spec[0];
    expect(podSpec(started).node_selector).toEqual({ "kubernetes.io/arch": "amd64" });
    const arm = await tf.plan(template.dir, {
      variables: { ...REQUIRED_VARIABLES, arch: "arm64", disk_alert_threshold: 75 },
    });
    expect((arm.resource("coder_agent.main").after as any).arch).toBe("arm64");
    expect(podSpec(arm).node_selector).toEqual({ "kubernetes.io/arch": "arm64" });
    expect(
      (arm.resource("coder_agent.main").after as any).resources_monitoring[0].volume[0].threshold,
    ).toBe(75);
  });

  it.each(Object.entries(SESSION_RESOURCES))(
    "creates %s with its exact name, namespace and cluster while started",
    (address, expected) => {
      expect(providerKeys(started)[address.replace(/\[0\]$/, "")]).toBe(expected.provider);
      expect(metadataOf(started, address)).toMatchObject({
        name: expected.name,
        namespace: expected.namespace,
      });
    },
  );

  it("keeps everything but the pod and the Harvester token when stopped", () => {
    expect(managed(stopped)).toEqual(
      [...Object.keys(IDENTITY_RESOURCES), ...CODER_RESOURCES].sort(),
    );
    expect(stopped.warnings).toEqual([]);
  });

  it.each(Object.entries(IDENTITY_RESOURCES))(
    "creates %s with its exact name, namespace and cluster in both states",
    (address, expected) => {
      for (const plan of [started, stopped]) {
        expect(providerKeys(plan)[address]).toBe(expected.provider);
        expect(metadataOf(plan, address)).toMatchObject({
          name: expected.name,
          namespace: expected.namespace,
        });
        expect(metadataOf(plan, address).labels).toMatchObject({ "app.coder.io/workspace": WS });
      }
    },
  );

  it("puts the pod on the workspace cluster, named <ws> in packer-builder", () => {
    const address = "kubernetes_deployment_v1.main[0]";
    expect(providerKeys(started)["kubernetes_deployment_v1.main"]).toBe(WORKSPACE_CLUSTER);
    expect(metadataOf(started, address)).toMatchObject({ name: WS, namespace: "packer-builder" });
  });

  it("binds only the existing roles, to the workspace's own service accounts", () => {
    const bindings = started.resources("kubernetes_role_binding_v1").map((r) => ({
      roleRef: r.after.role_ref,
      subject: r.after.subject,
    }));
    const ref = (name: string) => [{ api_group: "rbac.authorization.k8s.io", kind: "Role", name }];
    const subject = (namespace: string) => [
      expect.objectContaining({ kind: "ServiceAccount", name: WS, namespace }),
    ];
    expect(bindings).toEqual(
      expect.arrayContaining([
        { roleRef: ref("packer-builder"), subject: subject("packer-dev") },
        { roleRef: ref("packer-builder-read"), subject: subject("packer-dev") },
      ]),
    );
    expect(bindings).toHaveLength(2);
  });

  it("binds the pod's own service account to nothing, on either cluster", () => {
    // The kubelet mounts the kubeconfig Secret with its own node credentials; the pod's
    // account needs no grant, and it has no token to use one with either.
    for (const plan of [started, stopped]) {
      const bound = [
        ...plan.resources("kubernetes_role_binding_v1"),
        ...plan.resources("kubernetes_cluster_role_binding_v1"),
      ].filter((r) =>
        (r.after.subject as Record<string, unknown>[]).some(
          (s) => s.kind === "ServiceAccount" && s.namespace === "packer-builder",
        ),
      );
      expect(bound.map((r) => r.address)).toEqual([]);
      const pod = plan.resourceChanges.filter((r) => r.type === "kubernetes_deployment_v1");
      for (const deployment of pod) {
        const spec = (deployment.after as any).spec[0].template[0].spec[0];
        expect(spec.service_account_name).toBe(WS);
      }
    }
    expect(
      started.resource("kubernetes_service_account_v1.workspace_identity").after,
    ).toMatchObject({
      automount_service_account_token: false,
    });
  });

  it("never mounts a token for either service account, nor stores one in a token Secret", () => {
    for (const address of [
      "kubernetes_service_account_v1.harvester_identity",
      "kubernetes_service_account_v1.workspace_identity",
    ]) {
      expect(started.resource(address).after.automount_service_account_token).toBe(false);
    }
    for (const plan of [started, stopped]) {
      const tokenSecrets = plan
        .resources("kubernetes_secret_v1")
        .filter((r) => r.after.type === "kubernetes.io/service-account-token");
      expect(tokenSecrets.map((r) => r.address)).toEqual([]);
    }
  });

  it("sanitizes the owner and workspace names in labels", async () => {
    const plan = await tf.plan(template.dir, {
      variables: REQUIRED_VARIABLES,
      workspace: { name: "My_Workspace" },
      owner: { name: "-Bob.Smith_" + "x".repeat(70) },
    });
    const labels = metadataOf(plan, "kubernetes_service_account_v1.harvester_identity")
      .labels as Record<string, string>;
    expect(labels["com.coder.workspace.name"]).toBe("my-workspace");
    expect(labels["com.coder.user.username"]).toBe(("bob.smith-" + "x".repeat(70)).slice(0, 62));
    for (const value of Object.values(labels)) {
      expect(value).toMatch(/^([a-z0-9]([a-z0-9_.-]{0,61}[a-z0-9])?)?$/i);
    }
  }, 60_000);

  it("fixes the volume size at creation", () => {
    const claim = started.resource("kubernetes_persistent_volume_claim_v1.persistent").after;
    expect(claim.spec).toMatchObject([{ resources: [{ requests: { storage: "10Gi" } }] }]);
    const config = template.config.resource.kubernetes_persistent_volume_claim_v1.persistent;
    expect(config.lifecycle.ignore_changes).toEqual(["spec[0].resources[0].requests"]);
  });
});
