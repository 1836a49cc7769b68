import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  TerraformHarness,
  type ApplyResult,
  type DestroyResult,
} from "@coder-cdktf/terraform-harness";
import {
  REQUIRED_VARIABLES,
  synthPackerBuilder,
  TOKEN_SECRET_FIXTURES,
  type SynthesizedPackerBuilder,
  type TerraformJson,
} from "./synthesized-template";
import { writeHclFiles } from "../../../lib/private/hcl-files";

// Deleting a running workspace (`terraform destroy`, run by real Terraform against the mock
// providers): the pod's stop sweep needs the Harvester identity until the pod is gone. The
// Deployment's delete returns before its pod terminates; the volume's delete waits until no
// pod uses the claim (the provider polls until the PVC is gone, and Kubernetes' pvc-protection
// finalizer holds it while a pod mounts it). So the identity must be deleted after the volume.

const DEPLOYMENT = "kubernetes_deployment_v1.main[0]";
const VOLUME = "kubernetes_persistent_volume_claim_v1.persistent";
/**
 * What the sweep's kubectl needs: the Harvester identity, its token, the session Secret the
 * token is bound to (deleting it revokes the token) and the kubeconfig naming it.
 */
const SWEEP_CREDENTIALS = [
  "kubernetes_service_account_v1.harvester_identity",
  "kubernetes_role_binding_v1.harvester_identity_packer_dev_packer_builder",
  "kubernetes_role_binding_v1.harvester_identity_packer_dev_packer_builder_read",
  "kubernetes_secret_v1.harvester_identity_session[0]",
  "kubernetes_token_request_v1.harvester_identity[0]",
  "kubernetes_secret_v1.packer_kubeconfig",
];
/** In the per-workspace mode, the build namespace too: deleting it deletes every VM in it. */
const MODES: [string, Record<string, unknown>, string[]][] = [
  ["shared build namespace", {}, SWEEP_CREDENTIALS],
  [
    "per-workspace build namespace",
    { build_namespace_per_workspace: true },
    [...SWEEP_CREDENTIALS, "kubernetes_namespace_v1.build_namespace[0]"],
  ],
];

describe.each(MODES)("packer-builder destroy order, %s", (_mode, modeVariables, credentials) => {
  let tf: TerraformHarness;
  let template: SynthesizedPackerBuilder;
  let applied: ApplyResult;
  let destroyed: DestroyResult;

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
    const options = {
      variables: { ...REQUIRED_VARIABLES, ...modeVariables },
      fixtures: { resources: TOKEN_SECRET_FIXTURES },
    };
    applied = await tf.apply(template.dir, options);
    destroyed = await tf.destroy(template.dir, { ...options, state: applied });
  }, 120_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  /** Position of the `phase` event of `address`'s delete in the destroy's stream. */
  const at = (address: string, phase: "start" | "complete") => {
    const index = destroyed.events.findIndex(
      (e) => e.address === address && e.phase === phase && e.action === "delete",
    );
    if (index < 0) throw new Error(`no delete ${phase} of ${address} in the destroy`);
    return index;
  };

  it("deletes every resource of a running workspace", () => {
    const deleted = destroyed.events
      .filter((e) => e.phase === "complete" && e.action === "delete")
      .map((e) => e.address);
    const managed = applied.resources.filter((r) => r.mode === "managed").map((r) => r.address);
    expect(deleted.sort()).toEqual(managed.sort());
  });

  it("deletes the volume only after the Deployment, so its delete waits for the pod", () => {
    expect(at(VOLUME, "start")).toBeGreaterThan(at(DEPLOYMENT, "complete"));
  });

  it("keeps each of the sweep's credentials until the volume (and with it the pod) is gone", () => {
    for (const address of credentials) {
      expect([address, at(address, "start") > at(VOLUME, "complete")]).toEqual([address, true]);
    }
  });

  it("deletes the build namespace, if any, only after the identity that lives in it", () => {
    if (!credentials.includes("kubernetes_namespace_v1.build_namespace[0]")) {
      expect(applied.resources.map((r) => r.address)).not.toContain(
        "kubernetes_namespace_v1.build_namespace[0]",
      );
      return;
    }
    const namespace = at("kubernetes_namespace_v1.build_namespace[0]", "start");
    expect(namespace).toBeGreaterThan(
      at("kubernetes_service_account_v1.harvester_identity", "complete"),
    );
  });

  it("records the order in the state, where a later destroy reads it", () => {
    const resources = (applied.state.resources as Record<string, unknown>[]).filter(
      (r) => r.type === "kubernetes_persistent_volume_claim_v1" && r.name === "persistent",
    );
    const [instance] = resources[0].instances as { dependencies?: string[] }[];
    const base = (address: string) => address.replace(/\[\d+\]$/, "");
    expect(instance.dependencies).toEqual(expect.arrayContaining(credentials.map(base)));
  });

  it("changes nothing in a workspace created before the order existed (no replace, no update)", async () => {
    // The same template without the claim's depends_on: what existing workspaces were built with.
    const before = mkdtempSync(join(tmpdir(), "packer-before-order-"));
    try {
      cpSync(template.dir, before, { recursive: true });
      // Written as synth writes it (main.tf also holds the variables the harness reads).
      const withoutOrder = JSON.parse(JSON.stringify(template.config)) as TerraformJson;
      const claim = withoutOrder.resource.kubernetes_persistent_volume_claim_v1.persistent;
      expect(claim.depends_on).toBeDefined();
      delete claim.depends_on;
      writeHclFiles(before, withoutOrder);
      const options = {
        variables: { ...REQUIRED_VARIABLES, ...modeVariables },
        fixtures: { resources: TOKEN_SECRET_FIXTURES },
      };
      const old = await tf.apply(before, options);
      const plan = await tf.plan(template.dir, { ...options, state: old });
      const changed = plan.resourceChanges.filter(
        (r) => r.mode === "managed" && !r.actions.every((a) => a === "no-op"),
      );
      expect(changed.map((r) => `${r.address}: ${r.actions.join(",")}`)).toEqual([]);
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
  }, 60_000);
});
