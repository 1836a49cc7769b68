/**
 * Issue 47: every size the template derives from a repository's hostRequirements or
 * customizations.kubernetes reads as a person writes a Kubernetes quantity (the largest binary
 * unit that holds it exactly; bytes only where none does; a repository's own quantity as
 * written), the same words on the workspace page, in the pod and in the warnings.
 *
 * The table is planned in one Terraform run: every case is an instance of one module batch
 * of the whole template (BadInputPlanner.planMany), on the stopped workspace's state.
 */
import {
  type PlanResult,
  TerraformHarness,
  type TerraformState,
} from "@coder-cdktf/terraform-harness";
import {
  BadInputPlanner,
  type DevcontainerMetadata,
  MAX_BATCH_SIZE,
  type PlannedWorkspace,
  VALID_METADATA,
} from "./bad-inputs";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  synthesizeDevcontainer,
} from "./synthesized";

jest.setTimeout(180_000);

/** What a devcontainer.json writes, in bytes as the service hands it on (1024-based units). */
function bytes(written: string): number {
  const match = /^(\d+(?:\.\d+)?)(kb|mb|gb|tb)?$/.exec(written);
  if (!match) throw new Error(`not a size: ${written}`);
  const power = ["", "kb", "mb", "gb", "tb"].indexOf(match[2] ?? "");
  return Number(match[1]) * 1024 ** power;
}

interface SizeCase {
  readonly name: string;
  /** The data source's host_requirements fields that the case sets. */
  readonly hostRequirements?: Readonly<Record<string, number>>;
  /** customizations.kubernetes' one entry. */
  readonly kubernetes?: Readonly<Record<string, unknown>>;
  readonly variables?: Readonly<Record<string, unknown>>;
  /** The workspace page's "Resources (reserved / limit)" line. */
  readonly page: string;
  readonly requests: Readonly<Record<string, string>>;
  readonly limits: Readonly<Record<string, string>>;
  /** The build log's warnings, exactly. @default [] */
  readonly warnings?: readonly string[];
}

const K8S = "customizations.kubernetes";

// Parameters CPU 2, Memory 2, Disk size 10; the default maxima (8 cores, 32 GiB memory,
// 128 GiB disk) unless a case sets its own.
const CASES: readonly SizeCase[] = [
  {
    name: 'cpus 4, memory "8gb", storage "32gb"',
    hostRequirements: { cpus: 4, memory_bytes: bytes("8gb"), storage_bytes: bytes("32gb") },
    page: "CPU 4 / 4 · memory 8Gi / 8Gi · disk 32Gi · from hostRequirements",
    requests: { cpu: "4", memory: "8Gi" },
    limits: { cpu: "4", memory: "8Gi" },
  },
  {
    name: 'memory "512mb"',
    hostRequirements: { memory_bytes: bytes("512mb") },
    page: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from hostRequirements",
    requests: { cpu: "250m", memory: "512Mi" },
    limits: { cpu: "2", memory: "2Gi" },
  },
  {
    name: 'memory "1.5gb": the largest unit that holds it exactly, not a rounded GiB',
    hostRequirements: { memory_bytes: bytes("1.5gb") },
    page: "CPU 250m / 2 · memory 1536Mi / 2Gi · disk 10Gi · from hostRequirements",
    requests: { cpu: "250m", memory: "1536Mi" },
    limits: { cpu: "2", memory: "2Gi" },
  },
  {
    name: 'memory "0.5gb"',
    hostRequirements: { memory_bytes: bytes("0.5gb") },
    page: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from hostRequirements",
    requests: { cpu: "250m", memory: "512Mi" },
    limits: { cpu: "2", memory: "2Gi" },
  },
  {
    name: 'storage "128gb": exactly max_disk',
    hostRequirements: { storage_bytes: bytes("128gb") },
    page: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 128Gi · from hostRequirements",
    requests: { cpu: "250m", memory: "512Mi" },
    limits: { cpu: "2", memory: "2Gi" },
  },
  {
    name: 'storage "1tb" within a larger max_disk',
    hostRequirements: { storage_bytes: bytes("1tb") },
    variables: { max_disk: 2048 },
    page: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 1Ti · from hostRequirements",
    requests: { cpu: "250m", memory: "512Mi" },
    limits: { cpu: "2", memory: "2Gi" },
  },
  {
    name: 'capped: memory "64gb" and storage "1tb" over the default maxima',
    hostRequirements: { memory_bytes: bytes("64gb"), storage_bytes: bytes("1tb") },
    page: "CPU 250m / 2 · memory 32Gi / 32Gi · disk 128Gi · from hostRequirements",
    requests: { cpu: "250m", memory: "32Gi" },
    limits: { cpu: "2", memory: "32Gi" },
    warnings: [
      "hostRequirements.memory 64Gi exceeds max_memory 32 GiB: reserving 32Gi",
      "hostRequirements.storage 1Ti exceeds max_disk 128 GiB: the disk is 128Gi",
    ],
  },
  {
    name: "capped at a maximum that is no whole GiB: the same exact form",
    hostRequirements: { cpus: 4, memory_bytes: bytes("4gb") },
    variables: { max_cpu: 1.5, max_memory: 1.5 },
    page: "CPU 1500m / 2 · memory 1536Mi / 2Gi · disk 10Gi · from hostRequirements",
    requests: { cpu: "1500m", memory: "1536Mi" },
    limits: { cpu: "2", memory: "2Gi" },
    warnings: [
      "hostRequirements.cpus 4 exceeds max_cpu 1.5: reserving 1500m",
      "hostRequirements.memory 4Gi exceeds max_memory 1.5 GiB: reserving 1536Mi",
    ],
  },
  {
    name: "fractional cpus: millicores",
    hostRequirements: { cpus: 2.5 },
    page: "CPU 2500m / 2500m · memory 512Mi / 2Gi · disk 10Gi · from hostRequirements",
    requests: { cpu: "2500m", memory: "512Mi" },
    limits: { cpu: "2500m", memory: "2Gi" },
  },
  {
    name: "Kubernetes quantities pass through as written (4G is not 4Gi)",
    kubernetes: {
      resources: { requests: { cpu: "500m", memory: "4G" }, limits: { memory: "8Gi" } },
      storage: "20G",
    },
    page: "CPU 500m / 2 · memory 4G / 8Gi · disk 20G · from customizations.kubernetes",
    requests: { cpu: "500m", memory: "4G" },
    limits: { cpu: "2", memory: "8Gi" },
  },
  {
    name: "no exact unit: bytes as they are (1000000000 and 15000000000 are no whole KiB)",
    hostRequirements: { memory_bytes: bytes("1000000000"), storage_bytes: bytes("15000000000") },
    page: "CPU 250m / 2 · memory 1000000000 / 2Gi · disk 15000000000 · from hostRequirements",
    requests: { cpu: "250m", memory: "1000000000" },
    limits: { cpu: "2", memory: "2Gi" },
  },
  {
    name: 'a unit below the largest: "4000mb" is 4000Mi (no whole Gi)',
    hostRequirements: { memory_bytes: bytes("4000mb") },
    page: "CPU 250m / 2 · memory 4000Mi / 4000Mi · disk 10Gi · from hostRequirements",
    requests: { cpu: "250m", memory: "4000Mi" },
    limits: { cpu: "2", memory: "4000Mi" },
  },
  {
    name: "hostRequirements ignored for customizations.kubernetes: named in the same form",
    hostRequirements: { cpus: 4, memory_bytes: bytes("1.5gb"), storage_bytes: bytes("64gb") },
    kubernetes: { resources: { requests: { memory: "2Gi" } }, storage: "20Gi" },
    page: "CPU 250m / 2 · memory 2Gi / 2Gi · disk 20Gi · from customizations.kubernetes",
    requests: { cpu: "250m", memory: "2Gi" },
    limits: { cpu: "2", memory: "2Gi" },
    warnings: [
      `hostRequirements cpus 4, memory 1536Mi ignored: ${K8S} resources are set`,
      `hostRequirements.storage 64Gi ignored: ${K8S} storage "20Gi" is used instead`,
    ],
  },
  {
    name: "bad input: a size that is not positive is named and ignored, as before",
    hostRequirements: { memory_bytes: -5 },
    page: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
    requests: { cpu: "250m", memory: "512Mi" },
    limits: { cpu: "2", memory: "2Gi" },
    warnings: ["hostRequirements.memory -5 bytes is not a positive size; it is ignored"],
  },
  {
    name: "too large to reserve: 1e30 bytes is capped with a warning, as before",
    hostRequirements: { memory_bytes: 1e30 },
    page: "CPU 250m / 2 · memory 32Gi / 32Gi · disk 10Gi · from hostRequirements",
    requests: { cpu: "250m", memory: "32Gi" },
    limits: { cpu: "2", memory: "32Gi" },
    // 1e30 reaches Terraform as the double 1000000000000000019884624838656, exactly
    // 909494701772928256 TiB: the text names the value itself, not a rounding of it.
    warnings: [
      "hostRequirements.memory 909494701772928256Ti exceeds max_memory 32 GiB: reserving 32Gi",
    ],
  },
];

function caseMetadata(c: SizeCase): DevcontainerMetadata {
  const configuration = JSON.parse(String(VALID_METADATA.configuration_json));
  return {
    ...VALID_METADATA,
    host_requirements: {
      cpus: null,
      memory_bytes: null,
      storage_bytes: null,
      gpu_json: null,
      ...c.hostRequirements,
    },
    configuration_json: JSON.stringify(
      c.kubernetes === undefined
        ? configuration
        : {
            ...configuration,
            customizations: { ...configuration.customizations, kubernetes: [c.kubernetes] },
          },
    ),
  };
}

let planner: BadInputPlanner;
let planned: PlannedWorkspace[];

beforeAll(async () => {
  // One batch: the cases share their parameters and are no more than a batch holds.
  expect(CASES.length).toBeLessThanOrEqual(MAX_BATCH_SIZE);
  planner = await BadInputPlanner.start();
  planned = await Promise.all(
    planner.planMany(
      CASES.map((c) => ({ metadata: caseMetadata(c), inputs: { variables: c.variables } })),
    ),
  );
});

afterAll(async () => {
  await planner?.stop();
});

describe.each(CASES.map((c, index) => [c.name, c, index] as const))(
  "%s",
  (_name, c: SizeCase, index: number) => {
    it("reads the same on the workspace page, in the pod and in the build log", () => {
      const workspace = planned[index];
      expect(workspace.resourcesSummary).toBe(c.page);
      expect(workspace.pod.requests).toEqual(c.requests);
      expect(workspace.pod.limits).toEqual(c.limits);
      expect(workspace.warnings).toEqual(c.warnings ?? []);
      expect(workspace.otherDiagnostics).toEqual([]);
    });
  },
);

type Json = Record<string, any>;

const CLAIM = "kubernetes_persistent_volume_claim_v1.data";
const claimOf = (resource: { readonly values?: unknown; readonly after?: unknown }): Json =>
  ((resource.values ?? resource.after) as Json).spec[0].resources[0].requests;
const diskItem = (plan: PlanResult): unknown =>
  ((plan.resource("coder_metadata.data_volume").after as Json).item as Json[]).find(
    (i) => i.key === "Disk size",
  )?.value;

describe('the data volume of a repository asking for "32gb"', () => {
  const asks32gb = {
    variables: REQUIRED_VARIABLES,
    parameters: { repository: REPOSITORY },
    fixtures: devcontainerFixtures(
      metadata({
        host_requirements: {
          cpus: null,
          memory_bytes: null,
          storage_bytes: bytes("32gb"),
          gpu_json: null,
        },
      }),
    ),
  };
  let tf: TerraformHarness;
  let template: ReturnType<typeof synthesizeDevcontainer>;
  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = synthesizeDevcontainer();
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("is created as 32Gi, and a claim the previous version sized in bytes is left alone", async () => {
    // A first build that starts: the claim is sized from the metadata read during apply.
    const created = await tf.apply(template.dir, asks32gb);
    const claim = created.resources.find((r) => r.address === CLAIM);
    expect(claim && claimOf(claim).storage).toBe("32Gi");
    const volume = created.resources.find((r) => r.address === "coder_metadata.data_volume");
    expect(((volume?.values as Json).item as Json[]).find((i) => i.key === "Disk size")).toEqual(
      expect.objectContaining({ value: "32Gi" }),
    );

    // The same workspace as the previous version created it: the claim holds the byte count
    // that version wrote for "32gb". The claim's size is fixed at creation (ignore_changes),
    // so today's "32Gi" plans neither a resize nor a replace, and the page keeps the claim's.
    const state = structuredClone(created.state) as Json;
    const saved = (state.resources as Json[]).find(
      (r) => `${r.type}.${r.name}` === CLAIM && r.mode === "managed",
    );
    saved!.instances[0].attributes.spec[0].resources[0].requests.storage = "34359738368";
    const plan = await tf.plan(template.dir, { ...asks32gb, state: state as TerraformState });
    expect(plan.resource(CLAIM).actions).toEqual(["no-op"]);
    expect(claimOf(plan.resource(CLAIM)).storage).toBe("34359738368");
    expect(diskItem(plan)).toBe("34359738368");
    const page = (plan.resource("coder_agent.main").after as Json).metadata.find(
      (m: Json) => m.key === "9_resources",
    ).script;
    expect(page).toContain("disk 32Gi");
  });
});
