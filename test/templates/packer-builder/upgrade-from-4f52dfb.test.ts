import { join } from "node:path";
import {
  destructiveChanges,
  TerraformHarness,
  type ApplyResult,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  REQUIRED_VARIABLES,
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
} from "./synthesized-template";

// The upgrade of an existing workspace from the version before short-lived tokens (main at
// 4f52dfb, synthesized into test/upgrade/fixtures/packer-builder-4f52dfb): real Terraform
// applies the old template, then plans this one on its state, as Coder's next build would.
// Expected: the long-lived token Secret and the pod's reader binding go, the token and its
// session are created, the kubeconfig Secret is updated in place; the PVC, the service
// accounts and the Harvester bindings keep their addresses and are not touched.

const OLD_TEMPLATE = join(__dirname, "../../upgrade/fixtures/packer-builder-4f52dfb");
/** What the old version's token Secret held once the cluster filled it. */
const OLD_TOKEN_FIXTURES = {
  kubernetes_secret_v1: {
    match: { type: "kubernetes.io/service-account-token" },
    values: {
      data: {
        token: "old-long-lived-token",
        "ca.crt": "-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n",
      },
    },
  },
};
const DROPPED = [
  "kubernetes_secret_v1.harvester_identity_token",
  "kubernetes_role_binding_v1.workspace_identity_packer_builder_coder_workspace_pod_reader",
];

const changed = (plan: PlanResult) =>
  plan.resourceChanges
    .filter((r) => r.mode === "managed" && !r.actions.every((a) => a === "no-op"))
    .map((r) => `${r.address}: ${r.actions.join(",")}`)
    .sort();
const managedAddresses = (resources: readonly { address: string; mode: string }[]) =>
  resources.filter((r) => r.mode === "managed").map((r) => r.address.replace(/\[\d+\]$/, ""));

describe("packer-builder upgrade from 4f52dfb (long-lived token Secret)", () => {
  let tf: TerraformHarness;
  let template: SynthesizedPackerBuilder;
  let running: ApplyResult;
  let stoppedOld: ApplyResult;
  let runningUpgrade: PlanResult;
  let stoppedUpgrade: PlanResult;

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
    const old = { variables: REQUIRED_VARIABLES, fixtures: { resources: OLD_TOKEN_FIXTURES } };
    running = await tf.apply(OLD_TEMPLATE, old);
    stoppedOld = await tf.apply(OLD_TEMPLATE, { ...old, workspace: { startCount: 0 } });
    runningUpgrade = await tf.plan(template.dir, {
      variables: REQUIRED_VARIABLES,
      state: running,
    });
    stoppedUpgrade = await tf.plan(template.dir, {
      variables: REQUIRED_VARIABLES,
      state: stoppedOld,
      workspace: { startCount: 0 },
    });
  }, 180_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("plans, for a running workspace, exactly: drop the token Secret and the reader binding, mint a token, update the kubeconfig", () => {
    expect(changed(runningUpgrade)).toEqual(
      [
        ...DROPPED.map((a) => `${a}: delete`),
        "kubernetes_secret_v1.harvester_identity_session[0]: create",
        "kubernetes_token_request_v1.harvester_identity[0]: create",
        "kubernetes_secret_v1.packer_kubeconfig: update",
        "coder_script.sweep_previous_build_vms: create",
        // The stop sweep deletes every kind a build makes (issue 43.9): a new script.
        "coder_script.sweep_build_vms: delete,create",
        // The agents' manual installed as a skill at every start (no Coder Tasks any more).
        "coder_script.agent_manual[0]: create",
        // CODER_AGENT_TOKEN from a Secret (issue 43.2): created, and the pod spec updated in place.
        "kubernetes_secret_v1.agent_token[0]: create",
        "kubernetes_deployment_v1.main[0]: update",
      ].sort(),
    );
  });

  it("plans, for a stopped workspace, the same minus the token (minted at its next start)", () => {
    expect(changed(stoppedUpgrade)).toEqual(
      [
        ...DROPPED.map((a) => `${a}: delete`),
        "kubernetes_secret_v1.packer_kubeconfig: update",
        "coder_script.sweep_previous_build_vms: create",
        // The stop sweep deletes every kind a build makes (issue 43.9): a new script.
        "coder_script.sweep_build_vms: delete,create",
      ].sort(),
    );
  });

  it("replaces nothing: the PVC and the Coder-side kubeconfig Secret stay, only the dropped objects are deleted", () => {
    for (const plan of [runningUpgrade, stoppedUpgrade]) {
      const destructive = destructiveChanges(plan).map((c) => c.address);
      // The sweep's script is new (issue 43.9): Coder's record of it is replaced, harmlessly.
      expect(destructive.sort()).toEqual([...DROPPED, "coder_script.sweep_build_vms"].sort());
      const claim = plan.resource("kubernetes_persistent_volume_claim_v1.persistent");
      expect(claim.actions).toEqual(["no-op"]);
      expect(plan.resource("kubernetes_secret_v1.packer_kubeconfig").actions).toEqual(["update"]);
    }
  });

  it("keeps every other address of the old version (shared mode is the default)", () => {
    const before = new Set(managedAddresses(running.resources));
    const after = new Set(managedAddresses(runningUpgrade.resourceChanges));
    const kept = [...before].filter((a) => !DROPPED.includes(a));
    expect(kept.filter((a) => !after.has(a))).toEqual([]);
    expect([...after].filter((a) => !before.has(a)).sort()).toEqual([
      "coder_script.agent_manual",
      "coder_script.sweep_previous_build_vms",
      "kubernetes_secret_v1.agent_token",
      "kubernetes_secret_v1.harvester_identity_session",
      "kubernetes_token_request_v1.harvester_identity",
    ]);
    // The per-workspace namespace has count 0 in the shared mode: no instance is planned.
    expect(runningUpgrade.resourceChanges.map((r) => r.address)).not.toContain(
      "kubernetes_namespace_v1.build_namespace[0]",
    );
  });
});
