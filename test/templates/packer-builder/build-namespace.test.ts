import { parse } from "yaml";
import {
  TerraformHarness,
  DEFAULT_WORKSPACE,
  type ApplyResult,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  REQUIRED_VARIABLES,
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
} from "./synthesized-template";
import { BUILD_NAMESPACE_PREFIX } from "../../../templates/packer-builder";

// The per-workspace build namespace (build_namespace_per_workspace = true), planned and
// applied by real Terraform against the mock providers: the template creates
// packer-<workspace id> on Harvester, puts the identity, its session and its token there,
// binds the ClusterRoles named like the shared mode's Roles there (bindings only), and
// points the kubeconfig, Packer's variables and the stop sweep at it. The default stays the
// shared namespace (upgrade-from-4f52dfb.test.ts: existing workspaces keep their addresses).

const ID = String(DEFAULT_WORKSPACE.id);
const WS = `coder-${ID}`;
const OWN = `${BUILD_NAMESPACE_PREFIX}${ID}`;
const VARIABLES = { ...REQUIRED_VARIABLES, build_namespace_per_workspace: true };
const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const metadataOf = (plan: PlanResult, address: string) =>
  (plan.resource(address).after.metadata as Record<string, any>[])[0];

describe("packer-builder per-workspace build namespace", () => {
  let tf: TerraformHarness;
  let template: SynthesizedPackerBuilder;
  let plan: PlanResult;
  let shared: PlanResult;
  let applied: ApplyResult;

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
    [plan, shared, applied] = await Promise.all([
      tf.plan(template.dir, { variables: VARIABLES }),
      tf.plan(template.dir, { variables: REQUIRED_VARIABLES }),
      tf.apply(template.dir, { variables: VARIABLES }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("creates packer-<workspace id> on Harvester: a DNS-1123 label of at most 63 characters", () => {
    const namespace = metadataOf(plan, "kubernetes_namespace_v1.build_namespace[0]");
    expect(namespace.name).toBe(OWN);
    expect(namespace.name).toMatch(DNS_1123_LABEL);
    // The longest a workspace id can make it: the prefix and a 36-character UUID.
    expect(BUILD_NAMESPACE_PREFIX.length + 36).toBeLessThanOrEqual(63);
    expect(namespace.labels).toMatchObject({ "app.coder.io/workspace": WS });
    expect(plan.kubernetesApi().violations).toEqual([]);
  });

  it("keeps the namespace across stops: it dies with the workspace", async () => {
    const stopped = await tf.plan(template.dir, {
      variables: VARIABLES,
      state: applied,
      workspace: { startCount: 0 },
      refresh: false,
    });
    expect(stopped.resource("kubernetes_namespace_v1.build_namespace[0]").actions).toEqual([
      "no-op",
    ]);
  });

  it("puts the identity, its session and its token in that namespace", () => {
    for (const address of [
      "kubernetes_service_account_v1.harvester_identity",
      "kubernetes_secret_v1.harvester_identity_session[0]",
      "kubernetes_token_request_v1.harvester_identity[0]",
    ]) {
      expect([address, metadataOf(plan, address).namespace]).toEqual([address, OWN]);
    }
  });

  it("binds the operators' ClusterRoles there, at the shared mode's addresses, and no Role", () => {
    const bindings = plan.resources("kubernetes_role_binding_v1").map((r) => ({
      address: r.address,
      namespace: (r.after.metadata as any)[0].namespace,
      roleRef: (r.after.role_ref as any)[0],
      subject: r.after.subject,
    }));
    const binding = (role: string) => ({
      address: `kubernetes_role_binding_v1.harvester_identity_packer_dev_${role.replace(/-/g, "_")}`,
      namespace: OWN,
      roleRef: { api_group: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role },
      subject: [expect.objectContaining({ kind: "ServiceAccount", name: WS, namespace: OWN })],
    });
    expect(bindings).toEqual([binding("packer-builder"), binding("packer-builder-read")]);
    expect(plan.resources("kubernetes_cluster_role_binding_v1")).toEqual([]);
    expect(plan.resources("kubernetes_role_v1")).toEqual([]);
  });

  it("points the kubeconfig, Packer's variables, the stop sweep and the workspace page at it", () => {
    const secret = applied.resources.find(
      (r) => r.address === "kubernetes_secret_v1.packer_kubeconfig",
    );
    const kubeconfig = parse((secret!.values.data as Record<string, string>).config);
    expect(kubeconfig.contexts[0].context.namespace).toBe(OWN);
    const agent = applied.resources.find((r) => r.address === "coder_agent.main")!.values as any;
    expect(agent.env).toMatchObject({ PKR_VAR_namespace: OWN, PKR_VAR_output_namespace: OWN });
    const sweep = applied.resources.find((r) => r.address === "coder_script.sweep_build_vms")!
      .values as any;
    expect(sweep.script).toContain(`\nSWEEP_NAMESPACE='${OWN}'\n`);
    const pod = applied.resources.find((r) => r.address === "coder_metadata.pod[0]")!.values as any;
    expect(pod.item).toContainEqual(
      expect.objectContaining({ key: "Build namespace (Harvester)", value: OWN }),
    );
  });

  it("changes nothing of the shared mode, which stays the default", () => {
    expect(shared.resourceChanges.map((r) => r.address)).not.toContain(
      "kubernetes_namespace_v1.build_namespace[0]",
    );
    expect(metadataOf(shared, "kubernetes_service_account_v1.harvester_identity").namespace).toBe(
      "packer-dev",
    );
    const kinds = shared
      .resources("kubernetes_role_binding_v1")
      .map((r) => [(r.after.metadata as any)[0].namespace, (r.after.role_ref as any)[0].kind]);
    expect(kinds).toEqual([
      ["packer-dev", "Role"],
      ["packer-dev", "Role"],
    ]);
  });
});
