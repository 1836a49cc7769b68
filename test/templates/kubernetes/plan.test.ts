import {
  TerraformHarness,
  DEFAULT_WORKSPACE,
  DEFAULT_OWNER,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import { planDecisions, withConfigurationInJson } from "../../support/configuration-in-json";
import { planVariants } from "../../support/plan-variants";
import { type SynthesizedTemplate, synthTemplate } from "../../support/synth-template";

// The `kubernetes` template, planned by real Terraform against the mock
// providers: what exists when started and stopped, and the pod it asks for.

const NAMESPACE = "coder-workspaces";
const WS_ID = String(DEFAULT_WORKSPACE.id);

let harness: TerraformHarness;
let template: SynthesizedTemplate;

beforeAll(async () => {
  template = synthTemplate("kubernetes");
  harness = await TerraformHarness.start();
});

afterAll(async () => {
  await harness?.stop();
  template?.cleanup();
});

function plan(
  startCount: 0 | 1,
  parameters: Record<string, string> = {},
  variables: Record<string, unknown> = {},
): Promise<PlanResult> {
  return harness.plan(template.dir, {
    variables: { namespace: NAMESPACE, ...variables },
    workspace: { startCount },
    parameters,
  });
}

// `terraform plan` runs the validate walk before it plans and fails on its errors (the harness
// rejects), so a plan of the template as synthesized is a `terraform validate` of it too.
it("validates", async () => {
  // The started workspace's plan below (the run cache runs it once).
  await expect(plan(1, { cpu: "4", memory: "6", home_disk_size: "20" })).resolves.toBeDefined();
});

describe("a started workspace", () => {
  let p: PlanResult;
  beforeAll(async () => {
    p = await plan(1, { cpu: "4", memory: "6", home_disk_size: "20" });
  });

  it("plans the same from one cdk.tf.json, as cdktf writes it, as from its JSON and HCL files", async () => {
    const inJson = withConfigurationInJson(template.dir, template.config);
    try {
      const again = await harness.plan(inJson.dir, {
        variables: { namespace: NAMESPACE },
        workspace: { startCount: 1 },
        parameters: { cpu: "4", memory: "6", home_disk_size: "20" },
      });
      expect(planDecisions(again)).toEqual(planDecisions(p));
    } finally {
      inJson.cleanup();
    }
  });

  it("plans the agent, the home volume, one Deployment, their metadata and code-server", () => {
    expect(p.addresses().sort()).toEqual([
      "coder_agent.main",
      "coder_metadata.home_volume",
      "coder_metadata.pod[0]",
      "kubernetes_deployment_v1.main[0]",
      "kubernetes_persistent_volume_claim_v1.home",
      "kubernetes_secret_v1.agent_token[0]",
      "module.code_server[0].terraform_data.inputs",
      // Dotfiles and git identity: test/templates/user-config-modules.test.ts.
      "module.dotfiles[0].coder_script.dotfiles",
      "module.dotfiles[0].terraform_data.inputs",
      "module.git_config[0].coder_env.git_author_email[0]",
      "module.git_config[0].coder_env.git_author_name",
      "module.git_config[0].coder_env.git_commmiter_email[0]",
      "module.git_config[0].coder_env.git_commmiter_name",
      "module.git_config[0].coder_script.git_user_config",
      "module.git_config[0].terraform_data.inputs",
    ]);
  });

  it("opens code-server, pinned, in the home", () => {
    expect(template.config.module).toMatchObject({
      code_server: { source: "registry.coder.com/coder/code-server/coder", version: "1.5.2" },
    });
    const inputs = p.resource("module.code_server[0].terraform_data.inputs").after as any;
    expect(inputs.input).toMatchObject({ folder: "/home/coder", order: 1, subdomain: false });
  });

  it("asks for the home disk size with a placeholder and a message that says what to do", () => {
    const [disk] = p
      .dataSources("coder_parameter")
      .filter((d) => d.values.name === "home_disk_size");
    expect(disk.values).toMatchObject({
      styling: '{"placeholder":"GB, e.g. 10"}',
      validation: [
        {
          min: 1,
          max: 99999,
          error: "Enter a whole number of GB from {min} to {max}; the size cannot change later.",
        },
      ],
    });
    const forms = Object.fromEntries(
      p.dataSources("coder_parameter").map((d) => [d.values.name, d.values.form_type]),
    );
    expect(forms).toMatchObject({ cpu: "radio", memory: "radio" });
  });

  it("runs an amd64 agent on amd64 nodes by default", () => {
    expect((p.resource("coder_agent.main").after as any).arch).toBe("amd64");
    expect(podSpec(p).node_selector).toEqual({ "kubernetes.io/arch": "amd64" });
  });

  it("alerts at 80% memory and 90% of the home volume, and keeps the agent's full API scope", () => {
    const agent = p.resource("coder_agent.main").after as any;
    expect(agent.resources_monitoring).toEqual([
      {
        memory: [{ enabled: true, threshold: 80 }],
        volume: [{ enabled: true, path: "/home/coder", threshold: 90 }],
      },
    ]);
    expect(agent.api_key_scope).toBe("all");
  });

  it("describes the pod and the home volume on the workspace page", () => {
    const items = (address: string) =>
      (p.resource(address).after as any).item.map((i: any) => [i.key, i.value]);
    expect(items("coder_metadata.pod[0]")).toEqual([
      ["Image", "codercom/enterprise-base:ubuntu"],
      ["Namespace", NAMESPACE],
      ["Node placement", "kubernetes.io/arch=amd64"],
      ["CPU / memory limit", "4 cores / 6 GB"],
    ]);
    expect(items("coder_metadata.home_volume")).toEqual([
      ["Home disk", "20Gi"],
      ["Namespace", NAMESPACE],
      ["Mounted at", "/home/coder"],
    ]);
  });

  it("sizes the pod from the parameters: small requests, chosen limits", () => {
    const container = podSpec(p).container[0];
    expect(container.resources[0]).toEqual({
      requests: { cpu: "250m", memory: "512Mi" },
      limits: { cpu: "4", memory: "6Gi" },
    });
  });

  it("runs the agent as uid 1000, non-root, without privilege escalation", () => {
    const spec = podSpec(p);
    expect(spec.security_context[0]).toMatchObject({
      run_as_user: "1000",
      run_as_group: "1000",
      fs_group: "1000",
      run_as_non_root: true,
    });
    expect(spec.container[0].security_context[0].allow_privilege_escalation).toBe(false);
  });

  // The provider sends unset security_context fields as false; the container's own
  // run_as_non_root must not override the pod's true (docs/security.md).
  it("meets the Pod Security restricted level, as the API server receives the pod", () => {
    expect(podSpec(p).container[0].security_context[0]).toMatchObject({
      run_as_non_root: true,
      allow_privilege_escalation: false,
      privileged: false,
      capabilities: [{ drop: ["ALL"] }],
      seccomp_profile: [{ type: "RuntimeDefault" }],
    });
    expect(p.podSecurityLevel("kubernetes_deployment_v1.main[0]")).toBe("restricted");
  });

  it("mounts no ServiceAccount token into the pod (issue 32 item 5)", () => {
    expect(podSpec(p).automount_service_account_token).toBe(false);
  });

  it("passes the agent token only through an env var read from the workspace's Secret", () => {
    const dep = p.resource("kubernetes_deployment_v1.main[0]");
    const env = podSpec(p).container[0].env;
    expect(env.map((e: { name: string }) => e.name)).toEqual(["CODER_AGENT_TOKEN"]);
    // Issue 43.2: no value in the pod spec, which `view` on the namespace reads.
    expect(env[0].value ?? "").toBe("");
    expect(env[0].value_from[0].secret_key_ref[0]).toMatchObject({
      name: `coder-${DEFAULT_WORKSPACE.id}-agent-token`,
      key: "token",
    });
    const secret = p.resource("kubernetes_secret_v1.agent_token[0]");
    expect((secret.after.metadata as any[])[0].namespace).toBe(
      (dep.after.metadata as any[])[0].namespace,
    );
    expect(secret.afterSensitive.data).toBe(true);
    // The command is the agent's init script, which carries no token.
    expect((dep.afterUnknown as any).spec[0].template[0].spec[0].container[0].command).toEqual([
      false,
      false,
      true,
    ]);
  });

  it("names and labels the Deployment after the workspace and its owner", () => {
    const meta = (p.resource("kubernetes_deployment_v1.main[0]").after as any).metadata[0];
    expect(meta.name).toBe(`coder-${WS_ID}`);
    expect(meta.namespace).toBe(NAMESPACE);
    expect(meta.labels).toEqual({
      "app.kubernetes.io/name": "coder-workspace",
      "app.kubernetes.io/instance": `coder-workspace-${WS_ID}`,
      "app.kubernetes.io/part-of": "coder",
      "com.coder.resource": "true",
      "com.coder.workspace.id": WS_ID,
      "com.coder.workspace.name": DEFAULT_WORKSPACE.name,
      "com.coder.user.id": DEFAULT_OWNER.id,
      "com.coder.user.username": DEFAULT_OWNER.name,
    });
    expect(meta.annotations).toEqual({ "com.coder.user.email": DEFAULT_OWNER.email });
  });

  it("mounts the home volume at /home/coder from the workspace's claim", () => {
    const spec = podSpec(p);
    expect(spec.container[0].volume_mount[0]).toMatchObject({
      name: "home",
      mount_path: "/home/coder",
    });
    expect(spec.volume[0].persistent_volume_claim[0].claim_name).toBe(`coder-${WS_ID}-home`);
  });

  it("requests the chosen home disk size", () => {
    const pvc = p.resource("kubernetes_persistent_volume_claim_v1.home").after as any;
    expect(pvc.metadata[0].name).toBe(`coder-${WS_ID}-home`);
    expect(pvc.spec[0].resources[0].requests).toEqual({ storage: "20Gi" });
    expect(pvc.spec[0].access_modes).toEqual(["ReadWriteOnce"]);
  });
});

/**
 * Plans that differ from the defaults only in template variables, one Terraform run per
 * workspace state (test/support/plan-variants.ts).
 */
let started: Record<"arm64" | "thresholds" | "defaults", PlanResult>;
let stopped: Record<"jetbrains" | "defaults", PlanResult>;
beforeAll(async () => {
  const variants = (startCount: 0 | 1) => ({
    variables: { namespace: NAMESPACE },
    workspace: { startCount },
    parameters: {},
  });
  started = await planVariants(harness, template.dir, variants(1), {
    arm64: { arch: "arm64" },
    thresholds: { memory_alert_threshold: 70, disk_alert_threshold: 95 },
    defaults: {},
  });
  stopped = await planVariants(harness, template.dir, variants(0), {
    jetbrains: { jetbrains: true },
    defaults: {},
  });
});

describe("template variables", () => {
  it("arch=arm64 sets the agent's arch and the pod's node selector together", () => {
    const p = started.arm64;
    expect((p.resource("coder_agent.main").after as any).arch).toBe("arm64");
    expect(podSpec(p).node_selector).toEqual({ "kubernetes.io/arch": "arm64" });
  });

  it("refuses an arch Coder has no agent for", async () => {
    await expect(plan(1, {}, { arch: "386" })).rejects.toThrow(
      /arch must be one of "amd64", "arm64"/,
    );
  });

  it("sets the alert thresholds", () => {
    const p = started.thresholds;
    const monitoring = (p.resource("coder_agent.main").after as any).resources_monitoring[0];
    expect(monitoring.memory[0].threshold).toBe(70);
    expect(monitoring.volume[0].threshold).toBe(95);
  });

  it("jetbrains=true adds the JetBrains module and its IDE picker; off by default", async () => {
    const off = started.defaults;
    expect(off.addresses().filter((a) => a.includes("jetbrains"))).toEqual([]);
    const on = await plan(1, { jetbrains_ides: '["IU","PY"]' }, { jetbrains: true });
    const inputs = on.resource("module.jetbrains[0].terraform_data.inputs").after as any;
    expect(inputs.input).toMatchObject({
      folder: "/home/coder",
      coder_parameter_order: 4,
      coder_app_order: 2,
    });
    const [picker] = on
      .dataSources("coder_parameter")
      .filter((d) => d.address.includes("jetbrains"));
    expect(picker.values).toMatchObject({ name: "jetbrains_ides", form_type: "multi-select" });
    expect(stopped.jetbrains.addresses().filter((a) => a.startsWith("module."))).toEqual([]);
  });
});

describe("a stopped workspace", () => {
  it("keeps the agent, the home volume and its metadata, and has no pod or IDE", () => {
    const p = stopped.defaults;
    expect(p.addresses().sort()).toEqual([
      "coder_agent.main",
      "coder_metadata.home_volume",
      "kubernetes_persistent_volume_claim_v1.home",
    ]);
    const pvc = p.resource("kubernetes_persistent_volume_claim_v1.home").after as any;
    expect(pvc.spec[0].resources[0].requests).toEqual({ storage: "10Gi" });
  });
});

function podSpec(p: PlanResult): any {
  return (p.resource("kubernetes_deployment_v1.main[0]").after as any).spec[0].template[0].spec[0];
}
