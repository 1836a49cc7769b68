/**
 * Issue 32.3 through the whole template (real Terraform, mock providers): what a repository
 * asks for in customizations.kubernetes never escapes the operator's maxima, and the disk's
 * maximum never shrinks a disk that already exists.
 */
import {
  type ApplyResult,
  TerraformHarness,
  type PlanOptions,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  STOPPED_FIRST_BUILD,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
} from "./synthesized";

jest.setTimeout(120_000);

type Json = Record<string, any>;

/** The repository: GPUs, ephemeral storage and a disk far over any sensible maximum. */
const GREEDY = metadata({
  configuration_json: JSON.stringify({
    customizations: {
      kubernetes: [
        {
          resources: {
            requests: { cpu: "64", memory: "256Gi", "ephemeral-storage": "50Ti" },
            limits: { "nvidia.com/gpu": "64", "amd.com/gpu": "16" },
          },
          storage: "900Ti",
        },
      ],
    },
  }),
});

const claimSize = (plan: PlanResult): string =>
  (plan.resource("kubernetes_persistent_volume_claim_v1.data").after as Json).spec[0].resources[0]
    .requests.storage;
const devResources = (plan: PlanResult): Json =>
  (plan.resource("kubernetes_deployment_v1.main[0]").after as Json).spec[0].template[0].spec[0]
    .container[0].resources[0];
const summary = (plan: PlanResult): string =>
  (plan.resource("coder_agent.main").after as Json).metadata.find((m: Json) =>
    String(m.script).includes("CPU"),
  ).script;

describe("devcontainer template: the operator's maxima (issue 32.3)", () => {
  let tf: TerraformHarness;
  let template: SynthesizedDevcontainer;
  let built: ApplyResult;
  const greedy: PlanOptions = {
    variables: { ...REQUIRED_VARIABLES, max_cpu: 2, max_memory: 4 },
    parameters: { repository: REPOSITORY },
    fixtures: devcontainerFixtures(GREEDY),
  };

  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = synthesizeDevcontainer();
    // A workspace's first build, stopped: later starts read the metadata during plan.
    built = await tf.apply(template.dir, STOPPED_FIRST_BUILD);
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("reserves no more GPUs, ephemeral storage or disk than the maxima allow", async () => {
    const plan = await tf.plan(template.dir, { ...greedy, state: built });
    expect(devResources(plan)).toEqual({
      requests: { cpu: "2", memory: "4Gi", "ephemeral-storage": "32Gi" },
      limits: { cpu: "2", memory: "4Gi", "nvidia.com/gpu": "1" },
    });
    expect(summary(plan)).toContain("disk 128Gi");
    const warnings = plan.checkFailures().join("\n");
    expect(warnings).toContain(
      'customizations.kubernetes resources["amd.com/gpu"] = "16": not an extended resource the template variable max_extended_resources allows (nvidia.com/gpu), ignored',
    );
    expect(warnings).toContain(
      'customizations.kubernetes resources["nvidia.com/gpu"] = "64" exceeds max_extended_resources["nvidia.com/gpu"] = 1: the limit is 1',
    );
    expect(warnings).toContain(
      'customizations.kubernetes storage = "900Ti" exceeds max_disk 128 GiB: the disk is 128Gi',
    );
    expect(plan.kubernetesApi().violations).toEqual([]);
  });

  it("takes the operator's own maxima, AMD GPUs included", async () => {
    const plan = await tf.plan(template.dir, {
      ...greedy,
      state: built,
      variables: {
        ...greedy.variables,
        max_disk: 500,
        max_ephemeral_storage: 100,
        max_extended_resources: { "amd.com/gpu": 2 },
      },
    });
    expect(devResources(plan).limits).toEqual({ cpu: "2", memory: "4Gi", "amd.com/gpu": "2" });
    expect(devResources(plan).requests["ephemeral-storage"]).toBe("100Gi");
    expect(summary(plan)).toContain("disk 500Gi");
  });

  it("creates a new workspace's disk no larger than max_disk", async () => {
    // A first build that starts: the claim is sized from the metadata read during apply.
    const created = await tf.apply(template.dir, greedy);
    const claim = created.resources.find(
      (r) => r.address === "kubernetes_persistent_volume_claim_v1.data",
    );
    expect((claim?.values as Json).spec[0].resources[0].requests.storage).toBe("128Gi");
  });

  it("never shrinks an existing disk: a claim created larger keeps its size, in place", async () => {
    // A workspace created before max_disk (the old template had no maximum) has a 900Ti
    // claim: its first build, started, sized the claim from the metadata read during apply.
    const before = await tf.apply(template.dir, {
      ...greedy,
      variables: { ...greedy.variables, max_disk: 1_000_000 },
    });
    const created = before.resources.find(
      (r) => r.address === "kubernetes_persistent_volume_claim_v1.data",
    );
    expect((created?.values as Json).spec[0].resources[0].requests.storage).toBe("900Ti");

    const plan = await tf.plan(template.dir, { ...greedy, state: before });
    // The template now asks for 128Gi, and the claim is left alone: no update (Kubernetes
    // refuses to shrink a claim), no replace (that would delete the user's data).
    expect(summary(plan)).toContain("disk 128Gi");
    expect(plan.resource("kubernetes_persistent_volume_claim_v1.data").actions).toEqual(["no-op"]);
    expect(claimSize(plan)).toBe("900Ti");
    // The workspace page names the size the disk has.
    const volume = plan.resource("coder_metadata.data_volume");
    expect(volume.actions).toEqual(["no-op"]);
    expect((volume.after as Json).item).toContainEqual(
      expect.objectContaining({ key: "Disk size", value: "900Ti" }),
    );
  });
});
