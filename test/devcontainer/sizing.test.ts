/**
 * Sizing (spec §10) planned by real Terraform: every case below is one instance of
 * the constructs in a single configuration, planned once.
 */
import { type MappingCase, plannedMappingCases } from "./mapping-stack";

const GIB = 1073741824;

interface SizingExpectation {
  readonly summary: string;
  readonly warnings?: string[];
  readonly requests?: Record<string, string>;
  readonly limits?: Record<string, string>;
  readonly diskSize?: string;
}

const DEFAULT_REQUESTS = { cpu: "250m", memory: "512Mi" };
const DEFAULT_LIMITS = { cpu: "2", memory: "2Gi" };
const K8S = "customizations.kubernetes";

const CASES: [string, MappingCase, SizingExpectation][] = [
  [
    "keys the template does not read are named, a typo among them",
    { kubernetes: [{ resource: { limits: { cpu: "4" } }, affinity: {}, storage: "20Gi" }] },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 20Gi · from customizations.kubernetes",
      warnings: [
        `${K8S} "affinity" is not a setting this template reads (resources, storage, nodeSelector, tolerations); it is ignored.`,
        `${K8S} "resource" is not a setting this template reads (resources, storage, nodeSelector, tolerations); it is ignored.`,
      ],
      limits: DEFAULT_LIMITS,
    },
  ],
  [
    "hugepages over max_memory are dropped: the node sets that memory aside",
    {
      kubernetes: [
        { resources: { limits: { "hugepages-1Gi": "1000Gi", "hugepages-2Mi": "64Mi" } } },
      ],
    },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · hugepages-2Mi 64Mi / 64Mi · from customizations.kubernetes",
      warnings: [
        `${K8S} resources.limits["hugepages-1Gi"] = "1000Gi": more than max_memory (32 GiB): hugepages are memory the node sets aside, ignored`,
      ],
    },
  ],
  [
    "a zero cpu or memory limit is dropped: the kubelet reads it as no limit",
    {
      kubernetes: [{ resources: { requests: { cpu: "0" }, limits: { cpu: "0", memory: "0Gi" } } }],
    },
    {
      summary: "CPU 0 / 2 · memory 512Mi / 2Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [
        `${K8S} resources.limits["cpu"] = "0": invalid quantity (a zero limit is no limit to Kubernetes), ignored`,
        `${K8S} resources.limits["memory"] = "0Gi": invalid quantity (a zero limit is no limit to Kubernetes), ignored`,
      ],
      requests: { cpu: "0", memory: "512Mi" },
      limits: DEFAULT_LIMITS,
    },
  ],
  [
    "pieces of the wrong type are named and ignored",
    {
      kubernetes: [
        { resources: "large" },
        { resources: { requests: ["cpu=2"], limits: 4 } },
        7,
        null,
      ],
    },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [
        `${K8S}: 7 is not an object, ignored`,
        `${K8S} resources: "large" is not an object, ignored`,
        `${K8S} resources.requests: ["cpu=2"] is not an object, ignored`,
        `${K8S} resources.limits: 4 is not an object, ignored`,
      ],
      requests: DEFAULT_REQUESTS,
      limits: DEFAULT_LIMITS,
      diskSize: "10Gi",
    },
  ],
  // --- §10.6 worked examples -------------------------------------------------------------
  [
    "example: nothing",
    {},
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [],
      requests: DEFAULT_REQUESTS,
      limits: DEFAULT_LIMITS,
      diskSize: "10Gi",
    },
  ],
  [
    "example: the docs' customizations.kubernetes",
    {
      kubernetes: [
        {
          resources: {
            requests: { cpu: "2", memory: "4Gi", "ephemeral-storage": "5Gi" },
            limits: { cpu: "6", memory: "8Gi", "nvidia.com/gpu": "1" },
          },
          storage: "50Gi",
        },
      ],
    },
    {
      summary:
        "CPU 2 / 6 · memory 4Gi / 8Gi · disk 50Gi · ephemeral-storage 5Gi / none · nvidia.com/gpu 1 / 1 · from customizations.kubernetes",
      warnings: [],
      requests: { cpu: "2", memory: "4Gi", "ephemeral-storage": "5Gi" },
      limits: { cpu: "6", memory: "8Gi", "nvidia.com/gpu": "1" },
      diskSize: "50Gi",
    },
  ],
  [
    "example: hostRequirements cpus 4, memory 4 GiB",
    { hostRequirements: { cpus: 4, memory_bytes: 4294967296 } },
    {
      summary: "CPU 4 / 4 · memory 4Gi / 4Gi · disk 10Gi · from hostRequirements",
      warnings: [],
      requests: { cpu: "4", memory: "4Gi" },
      limits: { cpu: "4", memory: "4Gi" },
    },
  ],
  [
    "example: hostRequirements cpus 16 (over the cap)",
    { hostRequirements: { cpus: 16 } },
    {
      summary: "CPU 8 / 8 · memory 512Mi / 2Gi · disk 10Gi · from hostRequirements",
      warnings: ["hostRequirements.cpus 16 exceeds max_cpu 8: reserving 8"],
      requests: { cpu: "8", memory: "512Mi" },
      limits: { cpu: "8", memory: "2Gi" },
    },
  ],
  [
    "example: K8S limits cpu 4 only",
    { kubernetes: [{ resources: { limits: { cpu: "4" } } }] },
    {
      summary: "CPU 250m / 4 · memory 512Mi / 2Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [],
      requests: DEFAULT_REQUESTS,
      limits: { cpu: "4", memory: "2Gi" },
    },
  ],
  [
    "example: K8S requests memory 100Gi (over the cap)",
    { kubernetes: [{ resources: { requests: { memory: "100Gi" } } }] },
    {
      summary: "CPU 250m / 2 · memory 32Gi / 32Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [
        `${K8S} resources.requests["memory"] = "100Gi" exceeds max_memory 32 GiB: reserving 32Gi`,
      ],
      requests: { cpu: "250m", memory: "32Gi" },
      limits: { cpu: "2", memory: "32Gi" },
    },
  ],
  // --- caps --------------------------------------------------------------------------------
  [
    "hostRequirements memory over the cap: the cap, in the unit it is written in",
    { hostRequirements: { memory_bytes: 64 * GIB } },
    {
      summary: "CPU 250m / 2 · memory 32Gi / 32Gi · disk 10Gi · from hostRequirements",
      warnings: ["hostRequirements.memory 64Gi exceeds max_memory 32 GiB: reserving 32Gi"],
    },
  ],
  [
    "fractional caps from the template variables",
    { hostRequirements: { cpus: 4, memory_bytes: GIB }, maxCpu: 2.5, maxMemory: 0.5 },
    {
      summary: "CPU 2500m / 2500m · memory 512Mi / 2Gi · disk 10Gi · from hostRequirements",
      warnings: [
        "hostRequirements.cpus 4 exceeds max_cpu 2.5: reserving 2500m",
        "hostRequirements.memory 1Gi exceeds max_memory 0.5 GiB: reserving 512Mi",
      ],
    },
  ],
  [
    "a cap that is no whole number of bytes is written in GiB as given, never rounded",
    { kubernetes: [{ resources: { requests: { memory: "1Gi" } } }], maxMemory: 0.1 },
    {
      summary: "CPU 250m / 2 · memory 0.1Gi / 2Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [
        `${K8S} resources.requests["memory"] = "1Gi" exceeds max_memory 0.1 GiB: reserving 0.1Gi`,
      ],
      requests: { cpu: "250m", memory: "0.1Gi" },
    },
  ],
  [
    "K8S cpu request over the cap keeps its larger limit (limits are not capped)",
    { kubernetes: [{ resources: { requests: { cpu: "16" }, limits: { cpu: "32" } } }] },
    {
      summary: "CPU 8 / 32 · memory 512Mi / 2Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [`${K8S} resources.requests["cpu"] = "16" exceeds max_cpu 8: reserving 8`],
    },
  ],
  [
    "hostRequirements below the parameters: limits are the parameters",
    {
      hostRequirements: { cpus: 2, memory_bytes: 2 * GIB },
      cpu: "4",
      memory: "8",
      diskSize: "50",
    },
    {
      summary: "CPU 2 / 4 · memory 2Gi / 8Gi · disk 50Gi · from hostRequirements",
      warnings: [],
      limits: { cpu: "4", memory: "8Gi" },
      diskSize: "50Gi",
    },
  ],
  [
    "fractional hostRequirements cpus, in millicores",
    { hostRequirements: { cpus: 2.5 } },
    {
      summary: "CPU 2500m / 2500m · memory 512Mi / 2Gi · disk 10Gi · from hostRequirements",
      warnings: [],
    },
  ],
  // --- limits below requests and defaults ---------------------------------------------------
  [
    "K8S limits below the 250m/512Mi defaults lower the requests",
    { kubernetes: [{ resources: { limits: { cpu: "100m", memory: "256Mi" } } }] },
    {
      summary:
        "CPU 100m / 100m · memory 256Mi / 256Mi · disk 10Gi · from customizations.kubernetes",
      warnings: [],
      requests: { cpu: "100m", memory: "256Mi" },
      limits: { cpu: "100m", memory: "256Mi" },
    },
  ],
  [
    "K8S limits below the requests are raised to them",
    {
      kubernetes: [
        {
          resources: { requests: { cpu: "2", memory: "4Gi" }, limits: { cpu: "1", memory: "1Gi" } },
        },
      ],
    },
    {
      summary: "CPU 2 / 2 · memory 4Gi / 4Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [
        `${K8S} resources.limits["cpu"] = "1" is below the request 2: the limit is raised to it`,
        `${K8S} resources.limits["memory"] = "1Gi" is below the request 4Gi: the limit is raised to it`,
      ],
    },
  ],
  [
    "quantities with fractions keep the repository's text",
    { kubernetes: [{ resources: { requests: { cpu: ".5", memory: "1.5Gi" } } }] },
    {
      summary: "CPU .5 / 2 · memory 1.5Gi / 2Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [],
    },
  ],
  // --- invalid input ------------------------------------------------------------------------
  [
    "invalid quantities are dropped with warnings",
    {
      kubernetes: [
        {
          resources: {
            requests: { cpu: "1e3", memory: "-1", "ephemeral-storage": "12Q" },
            limits: { cpu: "" },
          },
        },
      ],
    },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [
        `${K8S} resources.requests["cpu"] = "1e3": invalid quantity, ignored`,
        `${K8S} resources.requests["ephemeral-storage"] = "12Q": invalid quantity, ignored`,
        `${K8S} resources.requests["memory"] = "-1": invalid quantity, ignored`,
        `${K8S} resources.limits["cpu"] = "": invalid quantity, ignored`,
      ],
      requests: DEFAULT_REQUESTS,
      limits: DEFAULT_LIMITS,
    },
  ],
  [
    "extended resources and hugepages the API server would refuse are dropped with warnings",
    {
      maxExtendedResources: { "example.com/bar": 2, "example.com/foo": 1, "nvidia.com/gpu": 1 },
      kubernetes: [
        {
          resources: {
            requests: { "example.com/foo": "0.5" },
            limits: {
              "nvidia.com/gpu": "0.5",
              "example.com/foo": "500m",
              "hugepages-2Mi": "3Mi",
              "example..com/x": "1",
              "foo.kubernetes.io/x": "1",
              "xkubernetes.io/gpu": "1",
              "hugepages-1Gi": "2Gi",
              "example.com/bar": "2",
            },
          },
        },
      ],
    },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · example.com/bar 2 / 2 · hugepages-1Gi 2Gi / 2Gi · from customizations.kubernetes",
      warnings: [
        `${K8S} resources.requests["example.com/foo"] = "0.5": invalid quantity (an extended resource must be a whole number), ignored`,
        `${K8S} resources.limits["example..com/x"] = "1": invalid resource name, ignored`,
        `${K8S} resources.limits["example.com/foo"] = "500m": invalid quantity (an extended resource must be a whole number), ignored`,
        `${K8S} resources.limits["foo.kubernetes.io/x"] = "1": invalid resource name (kubernetes.io names are reserved for standard resources), ignored`,
        `${K8S} resources.limits["hugepages-2Mi"] = "3Mi": invalid quantity (hugepages must be a positive multiple of the page size), ignored`,
        `${K8S} resources.limits["nvidia.com/gpu"] = "0.5": invalid quantity (an extended resource must be a whole number), ignored`,
        `${K8S} resources.limits["xkubernetes.io/gpu"] = "1": invalid resource name (kubernetes.io names are reserved for standard resources), ignored`,
      ],
      limits: { cpu: "2", memory: "2Gi", "example.com/bar": "2", "hugepages-1Gi": "2Gi" },
    },
  ],
  [
    "extended resource names the API server refuses (qualified names, requests. prefix, long domains) are dropped",
    {
      maxExtendedResources: { [`${"a".repeat(244)}/x`]: 2, [`example.com/${"g".repeat(63)}`]: 1 },
      kubernetes: [
        {
          resources: {
            requests: { "requests.example.com/gpu": "1" },
            limits: {
              [`example.com/${"g".repeat(64)}`]: "1",
              [`example.com/${"g".repeat(63)}`]: "1",
              "a.-b.com/gpu": "1",
              [`${"a".repeat(254)}/x`]: "1",
              [`${"a".repeat(245)}/x`]: "1",
              [`${"a".repeat(244)}/x`]: "2",
              "requests.example.com/gpu": "1",
            },
          },
        },
      ],
    },
    {
      summary: `CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · ${"a".repeat(244)}/x 2 / 2 · example.com/${"g".repeat(63)} 1 / 1 · from customizations.kubernetes`,
      warnings: [
        `${K8S} resources.requests["requests.example.com/gpu"] = "1": invalid resource name (the prefix "requests." is reserved for resource quotas), ignored`,
        `${K8S} resources.limits["a.-b.com/gpu"] = "1": invalid resource name, ignored`,
        `${K8S} resources.limits["${"a".repeat(245)}/x"] = "1": invalid resource name (an extended resource's domain may have at most 244 characters), ignored`,
        `${K8S} resources.limits["${"a".repeat(254)}/x"] = "1": invalid resource name, ignored`,
        `${K8S} resources.limits["example.com/${"g".repeat(64)}"] = "1": invalid resource name, ignored`,
        `${K8S} resources.limits["requests.example.com/gpu"] = "1": invalid resource name (the prefix "requests." is reserved for resource quotas), ignored`,
      ],
      limits: {
        cpu: "2",
        memory: "2Gi",
        [`${"a".repeat(244)}/x`]: "2",
        [`example.com/${"g".repeat(63)}`]: "1",
      },
    },
  ],
  [
    "an empty storage means unset, without a warning",
    { kubernetes: [{ storage: "" }] },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [],
      diskSize: "10Gi",
    },
  ],
  [
    "values of the wrong type are invalid; numbers are converted",
    {
      kubernetes: [
        {
          resources: {
            requests: { cpu: true, memory: null },
            limits: { cpu: 2, memory: { a: 1 } },
          },
        },
      ],
    },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [
        `${K8S} resources.requests["cpu"] = true: invalid quantity, ignored`,
        `${K8S} resources.requests["memory"] = null: invalid quantity, ignored`,
        `${K8S} resources.limits["memory"] = {"a":1}: invalid quantity, ignored`,
      ],
      limits: { cpu: "2", memory: "2Gi" },
    },
  ],
  [
    "invalid resource names are dropped; hugepages pass through as limits",
    {
      kubernetes: [
        {
          resources: {
            requests: { "nvidia com/gpu": "1", "Foo/bar": "1", gpu: "1", "hugepages-2Mi": "1Gi" },
            limits: { "example.com/-x": "1" },
          },
        },
      ],
    },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · hugepages-2Mi 1Gi / 1Gi · from customizations.kubernetes",
      warnings: [
        `${K8S} resources.requests["Foo/bar"] = "1": invalid resource name, ignored`,
        `${K8S} resources.requests["gpu"] = "1": invalid resource name, ignored`,
        `${K8S} resources.requests["nvidia com/gpu"] = "1": invalid resource name, ignored`,
        `${K8S} resources.limits["example.com/-x"] = "1": invalid resource name, ignored`,
      ],
      limits: { cpu: "2", memory: "2Gi", "hugepages-2Mi": "1Gi" },
    },
  ],
  [
    "an invalid storage quantity",
    { kubernetes: [{ storage: "lots" }] },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [`${K8S} storage = "lots": invalid quantity, ignored`],
      diskSize: "10Gi",
    },
  ],
  [
    "a storage of the wrong type",
    { kubernetes: [{ storage: true }] },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [`${K8S} storage = true: invalid quantity, ignored`],
    },
  ],
  // --- GPU ----------------------------------------------------------------------------------
  [
    "hostRequirements gpu true",
    { hostRequirements: { gpu_json: "true" } },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · nvidia.com/gpu 1 / 1 · from hostRequirements",
      warnings: [],
      requests: DEFAULT_REQUESTS,
      limits: { cpu: "2", memory: "2Gi", "nvidia.com/gpu": "1" },
    },
  ],
  [
    'hostRequirements gpu "optional"',
    { hostRequirements: { gpu_json: '"optional"' } },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [],
      limits: DEFAULT_LIMITS,
    },
  ],
  [
    "hostRequirements gpu object",
    { hostRequirements: { gpu_json: '{"cores":2,"memory":"8gb"}' } },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · nvidia.com/gpu 1 / 1 · from hostRequirements",
      warnings: [],
    },
  ],
  [
    "hostRequirements gpu false",
    { hostRequirements: { gpu_json: "false" } },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [],
      limits: DEFAULT_LIMITS,
    },
  ],
  [
    "a K8S nvidia.com/gpu overrides the hostRequirements GPU",
    {
      maxExtendedResources: { "nvidia.com/gpu": 2 },
      hostRequirements: { gpu_json: "true" },
      kubernetes: [{ resources: { limits: { "nvidia.com/gpu": "2" } } }],
    },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · nvidia.com/gpu 2 / 2 · from customizations.kubernetes",
      warnings: [],
      limits: { cpu: "2", memory: "2Gi", "nvidia.com/gpu": "2" },
    },
  ],
  [
    "extended request and limit that differ: the limit is used",
    {
      maxExtendedResources: { "nvidia.com/gpu": 4 },
      kubernetes: [
        { resources: { requests: { "nvidia.com/gpu": "1" }, limits: { "nvidia.com/gpu": "2" } } },
      ],
    },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · nvidia.com/gpu 2 / 2 · from customizations.kubernetes",
      warnings: [
        `${K8S} resources["nvidia.com/gpu"]: the request "1" and the limit "2" differ; Kubernetes needs them equal, so the limit is used`,
      ],
      requests: DEFAULT_REQUESTS,
    },
  ],
  [
    "extended request and limit equal in value but not in text: no warning",
    {
      maxExtendedResources: { "example.com/fpga": 1 },
      kubernetes: [
        {
          resources: {
            requests: { "example.com/fpga": "1" },
            limits: { "example.com/fpga": "1.0" },
          },
        },
      ],
    },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · example.com/fpga 1.0 / 1.0 · from customizations.kubernetes",
      warnings: [],
    },
  ],
  // --- ephemeral storage ----------------------------------------------------------------------
  [
    "ephemeral-storage limit below its request is raised",
    {
      kubernetes: [
        {
          resources: {
            requests: { "ephemeral-storage": "10Gi" },
            limits: { "ephemeral-storage": "5Gi" },
          },
        },
      ],
    },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · ephemeral-storage 10Gi / 10Gi · from customizations.kubernetes",
      warnings: [
        `${K8S} resources.limits["ephemeral-storage"] = "5Gi" is below the request 10Gi: the limit is raised to it`,
      ],
      requests: { cpu: "250m", memory: "512Mi", "ephemeral-storage": "10Gi" },
      limits: { cpu: "2", memory: "2Gi", "ephemeral-storage": "10Gi" },
    },
  ],
  [
    "ephemeral-storage limit only",
    { kubernetes: [{ resources: { limits: { "ephemeral-storage": "3Gi" } } }] },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · ephemeral-storage 3Gi / 3Gi · from customizations.kubernetes",
      warnings: [],
      requests: DEFAULT_REQUESTS,
      limits: { cpu: "2", memory: "2Gi", "ephemeral-storage": "3Gi" },
    },
  ],
  // --- hostRequirements and customizations.kubernetes together ---------------------------------
  [
    "K8S resources win over hostRequirements cpus/memory",
    {
      hostRequirements: { cpus: 4, memory_bytes: 4 * GIB },
      kubernetes: [{ resources: { requests: { cpu: "1", memory: "2Gi" } } }],
    },
    {
      summary: "CPU 1 / 2 · memory 2Gi / 2Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [`hostRequirements cpus 4, memory 4Gi ignored: ${K8S} resources are set`],
    },
  ],
  [
    "a K8S memory limit alone also overrides hostRequirements",
    {
      hostRequirements: { memory_bytes: 4 * GIB },
      kubernetes: [{ resources: { limits: { memory: "1Gi" } } }],
    },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 1Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [`hostRequirements memory 4Gi ignored: ${K8S} resources are set`],
    },
  ],
  [
    "storage from both: the K8S storage wins",
    { hostRequirements: { storage_bytes: 100 * GIB }, kubernetes: [{ storage: "20Gi" }] },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 20Gi · from customizations.kubernetes",
      warnings: [`hostRequirements.storage 100Gi ignored: ${K8S} storage "20Gi" is used instead`],
      diskSize: "20Gi",
    },
  ],
  [
    "hostRequirements storage larger than the parameter: the byte count",
    { hostRequirements: { storage_bytes: 50 * GIB } },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 50Gi · from hostRequirements",
      warnings: [],
      diskSize: "50Gi",
    },
  ],
  [
    "hostRequirements storage smaller than the parameter: still named as the source",
    { hostRequirements: { storage_bytes: 5 * GIB } },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from hostRequirements",
      warnings: [],
      diskSize: "10Gi",
    },
  ],
  [
    "K8S storage smaller than the parameter: the parameter, source K8S",
    { kubernetes: [{ storage: "5Gi" }] },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [],
      diskSize: "10Gi",
    },
  ],
  [
    "HR cpus and K8S storage: both sources",
    { hostRequirements: { cpus: 4 }, kubernetes: [{ storage: "40Gi" }] },
    {
      summary:
        "CPU 4 / 4 · memory 512Mi / 2Gi · disk 40Gi · from customizations.kubernetes and hostRequirements",
      warnings: [],
    },
  ],
  // --- the operator's maxima (issue 32.3): nothing a repository asks for escapes them ----------
  [
    "the issue's repository: GPUs, ephemeral storage and a disk over every maximum",
    {
      maxCpu: 2,
      maxMemory: 4,
      kubernetes: [
        {
          resources: {
            requests: { "ephemeral-storage": "50Ti" },
            limits: { "nvidia.com/gpu": "64", "amd.com/gpu": "16" },
          },
          storage: "900Ti",
        },
      ],
    },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 128Gi · ephemeral-storage 32Gi / none · nvidia.com/gpu 1 / 1 · from customizations.kubernetes",
      warnings: [
        `${K8S} storage = "900Ti" exceeds max_disk 128 GiB: the disk is 128Gi`,
        `${K8S} resources.requests["ephemeral-storage"] = "50Ti" exceeds max_ephemeral_storage 32 GiB: reserving 32Gi`,
        `${K8S} resources["amd.com/gpu"] = "16": not an extended resource the template variable max_extended_resources allows (nvidia.com/gpu), ignored`,
        `${K8S} resources["nvidia.com/gpu"] = "64" exceeds max_extended_resources["nvidia.com/gpu"] = 1: the limit is 1`,
      ],
      requests: { cpu: "250m", memory: "512Mi", "ephemeral-storage": "32Gi" },
      limits: { cpu: "2", memory: "2Gi", "nvidia.com/gpu": "1" },
      diskSize: "128Gi",
    },
  ],
  [
    "an operator's own maxima: the listed names up to their most, the disk up to max_disk",
    {
      maxDisk: 20,
      maxEphemeralStorage: 4,
      maxExtendedResources: { "amd.com/gpu": 2, "example.com/fpga": 1 },
      hostRequirements: { storage_bytes: 64 * GIB, gpu_json: "true" },
      kubernetes: [
        {
          resources: {
            requests: { "ephemeral-storage": "1Gi" },
            limits: { "ephemeral-storage": "8Gi", "amd.com/gpu": "1", "nvidia.com/gpu": "1" },
          },
        },
      ],
    },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 20Gi · amd.com/gpu 1 / 1 · ephemeral-storage 1Gi / 4Gi · from customizations.kubernetes and hostRequirements",
      warnings: [
        "hostRequirements.storage 64Gi exceeds max_disk 20 GiB: the disk is 20Gi",
        `${K8S} resources.limits["ephemeral-storage"] = "8Gi" exceeds max_ephemeral_storage 4 GiB: the limit is 4Gi`,
        "hostRequirements.gpu true asks for a GPU; nvidia.com/gpu is not in the template variable max_extended_resources (amd.com/gpu, example.com/fpga), so none is requested",
        `${K8S} resources["nvidia.com/gpu"] = "1": not an extended resource the template variable max_extended_resources allows (amd.com/gpu, example.com/fpga), ignored`,
      ],
      limits: { cpu: "2", memory: "2Gi", "ephemeral-storage": "4Gi", "amd.com/gpu": "1" },
      diskSize: "20Gi",
    },
  ],
  [
    "max_disk never lowers the user's own Disk size, and an empty map allows no extended resource",
    {
      diskSize: "200",
      maxExtendedResources: {},
      hostRequirements: { storage_bytes: 500 * GIB },
      kubernetes: [{ resources: { limits: { "nvidia.com/gpu": "1", "hugepages-2Mi": "64Mi" } } }],
    },
    {
      summary:
        "CPU 250m / 2 · memory 512Mi / 2Gi · disk 200Gi · hugepages-2Mi 64Mi / 64Mi · from customizations.kubernetes and hostRequirements",
      warnings: [
        "hostRequirements.storage 500Gi exceeds max_disk 128 GiB: the disk is 200Gi",
        `${K8S} resources["nvidia.com/gpu"] = "1": not an extended resource the template variable max_extended_resources allows (none), ignored`,
      ],
      diskSize: "200Gi",
    },
  ],
  // --- merging contributors ---------------------------------------------------------------------
  [
    "entries merge per key in contributor order; non-objects are skipped with a warning",
    {
      kubernetes: [
        { resources: { requests: { cpu: "1", memory: "1Gi" } }, storage: "30Gi" },
        "not an object",
        null,
        { resources: { requests: { cpu: "3" } }, storage: "" },
      ],
    },
    {
      summary: "CPU 3 / 3 · memory 1Gi / 2Gi · disk 30Gi · from customizations.kubernetes",
      // An empty storage means unset: the earlier entry's 30Gi counts, silently. A null
      // entry is unset too; a string is a mistake worth naming.
      warnings: [`${K8S}: "not an object" is not an object, ignored`],
      requests: { cpu: "3", memory: "1Gi" },
    },
  ],
  // --- stopped workspace / malformed configuration -------------------------------------------------
  [
    "stopped workspace: configuration {} and no host requirements",
    { configuration: {}, hostRequirements: null },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [],
      requests: DEFAULT_REQUESTS,
      limits: DEFAULT_LIMITS,
      diskSize: "10Gi",
    },
  ],
  [
    "configuration null",
    { configuration: null },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [],
    },
  ],
  [
    "configuration of the wrong shapes",
    {
      configuration: { customizations: { kubernetes: { resources: { requests: { cpu: "4" } } } } },
    },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [],
    },
  ],
  [
    "resources.requests that is not an object",
    { kubernetes: [{ resources: { requests: ["cpu", "4"], limits: "8" } }] },
    {
      summary: "CPU 250m / 2 · memory 512Mi / 2Gi · disk 10Gi · from the parameters",
      warnings: [
        `${K8S} resources.requests: ["cpu","4"] is not an object, ignored`,
        `${K8S} resources.limits: "8" is not an object, ignored`,
      ],
    },
  ],
  [
    "inputs marked sensitive still give a plain summary",
    {
      hostRequirements: { cpus: 4 },
      kubernetes: [{ storage: "20Gi" }],
      sensitiveInputs: true,
    },
    {
      summary:
        "CPU 4 / 4 · memory 512Mi / 2Gi · disk 20Gi · from customizations.kubernetes and hostRequirements",
      warnings: [],
    },
  ],
];

describe("DevcontainerSizing (planned)", () => {
  const results = plannedMappingCases(
    "sizing",
    CASES.map(([, c]) => c),
  );

  it.each(CASES.map(([name, , expected], index) => [name, index, expected] as const))(
    "%s",
    (_name, index, expected) => {
      const result = results()[index];
      expect(result.summary).toBe(expected.summary);
      expect(result.summarySensitive).toBe(false);
      expect(result.warnings).toEqual(expected.warnings ?? []);
      if (expected.requests) expect(result.requests).toEqual(expected.requests);
      if (expected.limits) expect(result.limits).toEqual(expected.limits);
      if (expected.diskSize) expect(result.diskSize).toBe(expected.diskSize);
    },
  );
});
