/**
 * What later builds of an existing workspace must never do: replace or delete its PVC or
 * its identities (ServiceAccounts, Secrets, RoleBindings). The mock asks for replacement on
 * the real providers' ForceNew attributes (metadata name/namespace, PVC access modes,
 * storage class, selectors, Secret type, role_ref), so these plans act as real ones would.
 */
import {
  type ApplyResult,
  destructiveChanges,
  expectNoReplace,
  type PlanOptions,
  STATEFUL_TYPES,
  TerraformHarness,
} from "@coder-cdktf/terraform-harness";
import { synthTemplate } from "../support/synth-template";
import { TEMPLATE_INPUTS } from "../prebuilds/template-inputs";

jest.setTimeout(120_000);

interface Scenario {
  readonly template: string;
  /** Inputs of the first, started build. */
  readonly first: PlanOptions;
}

/**
 * Each template's workspace as the prebuild-safe upgrade test builds it (the same inputs:
 * the run cache applies that first build once for both files).
 */
const SCENARIOS: Scenario[] = TEMPLATE_INPUTS.map(({ id, options }) => ({
  template: id,
  first: options,
}));

let tf: TerraformHarness;
beforeAll(async () => (tf = await TerraformHarness.start()));
afterAll(() => tf.stop());

describe.each(SCENARIOS)("template $template", ({ template, first }) => {
  const dir = () => synthTemplate(template).dir;
  let applied: ApplyResult;
  beforeAll(async () => {
    applied = await tf.apply(dir(), first);
  });

  it("keeps its PVC and identities across a restart, a stop and an owner's rename (its Deployment too)", async () => {
    const restart = await tf.plan(dir(), { ...first, state: applied, refresh: false });
    expectNoReplace(restart);
    const stop = await tf.plan(dir(), {
      ...first,
      state: applied,
      refresh: false,
      workspace: { startCount: 0 },
    });
    // What a stop deletes by design: packer-builder's session Secret (empty), whose deletion
    // revokes the workspace's Harvester token (test/templates/packer-builder/short-lived-token.test.ts),
    // and every template's copy of the agent token, which leaves with the pod (issue 43.2).
    expect(
      destructiveChanges(stop, STATEFUL_TYPES).map((c) => `${c.address}: ${c.actions}`),
    ).toEqual([
      "kubernetes_secret_v1.agent_token[0]: delete",
      ...(template === "packer-builder"
        ? ["kubernetes_secret_v1.harvester_identity_session[0]: delete"]
        : []),
    ]);
    // Labels and annotations carry the owner's name and email: an in-place update. The
    // Deployment's selector holds only the workspace id, so the pod is not replaced either.
    const renamed = await tf.plan(dir(), {
      ...first,
      state: applied,
      refresh: false,
      owner: { name: "alice2", email: "alice2@example.com" },
    });
    expectNoReplace(renamed, [...STATEFUL_TYPES, "kubernetes_deployment_v1"]);
    const deployments = renamed.resources("kubernetes_deployment_v1");
    expect(deployments.map((d) => d.actions)).toEqual([["update"]]);
    const claims = renamed.resources("kubernetes_persistent_volume_claim_v1");
    expect(claims.length).toBeGreaterThan(0);
    for (const claim of claims) expect(claim.actions).not.toContain("delete");
  });

  it("would replace the PVC if its namespace changed (the mock sees ForceNew)", async () => {
    if (template === "packer-builder") return; // its PVC's namespace is not a variable
    const moved = await tf.plan(dir(), {
      ...first,
      variables: { ...first.variables, namespace: "elsewhere" },
      state: applied,
      refresh: false,
    });
    expect(() => expectNoReplace(moved, ["kubernetes_persistent_volume_claim_v1"])).toThrow(
      /forced by metadata\.0\.namespace/,
    );
  });
});
