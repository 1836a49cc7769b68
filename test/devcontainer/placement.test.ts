/**
 * Placement (spec §11) planned by real Terraform, all cases in one plan.
 */
import { WORKSPACE_POD_ANTI_AFFINITY } from "../../lib/constructs/workspace-deployment";
import { type MappingCase, plannedMappingCases } from "./mapping-stack";

interface PlacementExpectation {
  readonly nodeSelector: Record<string, string>;
  readonly tolerations: Record<string, string | null>[];
  readonly warnings: string[];
}

const ARCH = { "kubernetes.io/arch": "amd64" };
const OFF = "ignored: the template variable allow_node_placement is off";
const invalid = (json: string) =>
  `customizations.kubernetes tolerations: ${json} is not a valid toleration, ignored`;
const toleration = (fields: Record<string, string>) => ({
  key: null,
  operator: null,
  value: null,
  effect: null,
  toleration_seconds: null,
  ...fields,
});

const GPU_TOLERATION = { key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" };

const CASES: [string, MappingCase, PlacementExpectation][] = [
  [
    "nodeSelector with placement off",
    { kubernetes: [{ nodeSelector: { pool: "gpu" } }] },
    {
      nodeSelector: ARCH,
      tolerations: [],
      warnings: [`customizations.kubernetes nodeSelector ${OFF}`],
    },
  ],
  [
    "nodeSelector and tolerations with placement off: one warning",
    { kubernetes: [{ nodeSelector: { pool: "gpu" }, tolerations: [GPU_TOLERATION] }] },
    {
      nodeSelector: ARCH,
      tolerations: [],
      warnings: [`customizations.kubernetes nodeSelector and tolerations ${OFF}`],
    },
  ],
  [
    "tolerations only, placement off",
    { kubernetes: [{ tolerations: [GPU_TOLERATION] }] },
    {
      nodeSelector: ARCH,
      tolerations: [],
      warnings: [`customizations.kubernetes tolerations ${OFF}`],
    },
  ],
  [
    "placement on: selectors merge, the template's arch wins",
    {
      allowNodePlacement: true,
      kubernetes: [
        { nodeSelector: { pool: "cpu", zone: "a" } },
        { nodeSelector: { pool: "gpu", "kubernetes.io/arch": "arm64" } },
      ],
    },
    {
      nodeSelector: { "kubernetes.io/arch": "amd64", pool: "gpu", zone: "a" },
      tolerations: [],
      warnings: [
        'customizations.kubernetes nodeSelector["kubernetes.io/arch"] = "arm64" ignored: the template sets "amd64"',
      ],
    },
  ],
  [
    "placement on: a repository arch equal to the template's is no warning",
    { allowNodePlacement: true, kubernetes: [{ nodeSelector: { "kubernetes.io/arch": "amd64" } }] },
    { nodeSelector: ARCH, tolerations: [], warnings: [] },
  ],
  [
    "placement on: a number becomes its text, a bool is no label value",
    { allowNodePlacement: true, kubernetes: [{ nodeSelector: { disk: 1, ssd: true } }] },
    {
      nodeSelector: { ...ARCH, disk: "1" },
      tolerations: [],
      warnings: [
        'customizations.kubernetes nodeSelector["ssd"] = true is not a valid node label, ignored',
      ],
    },
  ],
  [
    "placement on: valid tolerations kept, invalid ones dropped with their JSON",
    {
      allowNodePlacement: true,
      kubernetes: [
        {
          tolerations: [
            GPU_TOLERATION,
            { key: "dedicated", value: "dev" },
            {
              key: "k",
              operator: "Equal",
              value: "v",
              effect: "NoExecute",
              tolerationSeconds: 300,
            },
            { operator: "Equal", value: "x" },
            { key: "a", operator: "Exists", value: "b" },
            { key: "a", operator: "In" },
            { key: "a", effect: "NoSchedule", tolerationSeconds: 60 },
            { key: "a", effect: "NoExecute", tolerationSeconds: 1.5 },
            { key: "a", effect: "Sometimes" },
            { operator: "Exists" },
          ],
        },
        { tolerations: [GPU_TOLERATION] },
        { tolerations: "not a list" },
      ],
    },
    {
      nodeSelector: ARCH,
      tolerations: [
        toleration(GPU_TOLERATION),
        toleration({ key: "dedicated", value: "dev" }),
        toleration({
          key: "k",
          operator: "Equal",
          value: "v",
          effect: "NoExecute",
          toleration_seconds: "300",
        }),
        toleration({ operator: "Exists" }),
      ],
      warnings: [
        'customizations.kubernetes tolerations: "not a list" is not a list, ignored',
        invalid('{"operator":"Equal","value":"x"}'),
        invalid('{"key":"a","operator":"Exists","value":"b"}'),
        invalid('{"key":"a","operator":"In"}'),
        invalid('{"effect":"NoSchedule","key":"a","tolerationSeconds":"60"}'),
        invalid('{"effect":"NoExecute","key":"a","tolerationSeconds":"1.5"}'),
        invalid('{"effect":"Sometimes","key":"a"}'),
      ],
    },
  ],
  [
    "placement on: a toleration that is not an object",
    { allowNodePlacement: true, kubernetes: [{ tolerations: ["x"] }] },
    { nodeSelector: ARCH, tolerations: [], warnings: [invalid('"x"')] },
  ],
  [
    "placement on: numbers in a toleration become strings",
    {
      allowNodePlacement: true,
      kubernetes: [{ tolerations: [{ key: 5, operator: "Equal", value: 10 }] }],
    },
    {
      nodeSelector: ARCH,
      tolerations: [toleration({ key: "5", operator: "Equal", value: "10" })],
      warnings: [],
    },
  ],
  [
    'placement on: effect "" (all effects) is sent as null, which the provider accepts',
    {
      allowNodePlacement: true,
      kubernetes: [{ tolerations: [{ key: "gpu", operator: "Exists", effect: "" }] }],
    },
    {
      nodeSelector: ARCH,
      tolerations: [toleration({ key: "gpu", operator: "Exists" })],
      warnings: [],
    },
  ],
  [
    "placement on: toleration keys and values the API server refuses are dropped",
    {
      allowNodePlacement: true,
      kubernetes: [
        {
          tolerations: [
            { key: "bad key", operator: "Exists" },
            { key: "-a", value: "x" },
            { key: "a", value: 1e100 },
            { key: "a", value: "has space" },
            { key: "example.com/gpu", value: "x".repeat(63) },
          ],
        },
      ],
    },
    {
      nodeSelector: ARCH,
      tolerations: [toleration({ key: "example.com/gpu", value: "x".repeat(63) })],
      warnings: [
        invalid('{"key":"bad key","operator":"Exists"}'),
        invalid('{"key":"-a","value":"x"}'),
        invalid(`{"key":"a","value":"1${"0".repeat(100)}"}`),
        invalid('{"key":"a","value":"has space"}'),
      ],
    },
  ],
  [
    "placement on: selector labels the API server refuses are dropped with warnings",
    {
      allowNodePlacement: true,
      kubernetes: [{ nodeSelector: { "bad key": "x", pool: 1e100, zone: "a b", ok: "yes" } }],
    },
    {
      nodeSelector: { ...ARCH, ok: "yes" },
      tolerations: [],
      warnings: [
        'customizations.kubernetes nodeSelector["bad key"] = "x" is not a valid node label, ignored',
        `customizations.kubernetes nodeSelector["pool"] = "1${"0".repeat(100)}" is not a valid node label, ignored`,
        'customizations.kubernetes nodeSelector["zone"] = "a b" is not a valid node label, ignored',
      ],
    },
  ],
  [
    "pieces of the wrong type are named, whether placement is on or off",
    {
      kubernetes: [{ nodeSelector: ["pool=gpu"], tolerations: { key: "gpu" } }, "gpu-pool"],
    },
    {
      nodeSelector: ARCH,
      tolerations: [],
      warnings: [
        'customizations.kubernetes nodeSelector: ["pool=gpu"] is not an object, ignored',
        'customizations.kubernetes tolerations: {"key":"gpu"} is not a list, ignored',
      ],
    },
  ],
  [
    "placement on: selector values that are no string or number are dropped, not sent as empty",
    {
      allowNodePlacement: true,
      kubernetes: [
        { nodeSelector: { b: true, o: { a: 1 }, l: ["x"], n: null, "kubernetes.io/arch": false } },
      ],
    },
    {
      nodeSelector: ARCH,
      tolerations: [],
      warnings: [
        'customizations.kubernetes nodeSelector["b"] = true is not a valid node label, ignored',
        'customizations.kubernetes nodeSelector["l"] = ["x"] is not a valid node label, ignored',
        'customizations.kubernetes nodeSelector["n"] = null is not a valid node label, ignored',
        'customizations.kubernetes nodeSelector["o"] = {"a":1} is not a valid node label, ignored',
        'customizations.kubernetes nodeSelector["kubernetes.io/arch"] = false ignored: the template sets "amd64"',
      ],
    },
  ],
  [
    "placement on: a toleration field of the wrong type makes the toleration invalid",
    {
      allowNodePlacement: true,
      kubernetes: [
        {
          tolerations: [
            { key: "k", value: true, effect: "NoSchedule" },
            { key: "k", operator: ["Exists"] },
            { key: "j", tolerationSeconds: { a: 1 }, effect: "NoExecute" },
            { key: "ok", operator: "Exists", effect: "NoExecute", tolerationSeconds: 60 },
          ],
        },
      ],
    },
    {
      nodeSelector: ARCH,
      tolerations: [
        toleration({
          key: "ok",
          operator: "Exists",
          effect: "NoExecute",
          toleration_seconds: "60",
        }),
      ],
      warnings: [
        invalid('{"effect":"NoSchedule","key":"k","value":true}'),
        invalid('{"key":"k","operator":["Exists"]}'),
        invalid('{"effect":"NoExecute","key":"j","tolerationSeconds":{"a":1}}'),
      ],
    },
  ],
  [
    "stopped workspace: no configuration",
    { configuration: {}, allowNodePlacement: true },
    { nodeSelector: ARCH, tolerations: [], warnings: [] },
  ],
  [
    "configuration null, placement off",
    { configuration: null },
    { nodeSelector: ARCH, tolerations: [], warnings: [] },
  ],
];

describe("DevcontainerPlacement (planned)", () => {
  const results = plannedMappingCases(
    "placement",
    CASES.map(([, c]) => c),
  );

  it.each(CASES.map(([name, , expected], index) => [name, index, expected] as const))(
    "%s",
    (_name, index, expected) => {
      expect(results()[index].nodeSelector).toEqual(expected.nodeSelector);
      expect(results()[index].tolerations).toEqual(expected.tolerations);
      expect(results()[index].placementWarnings).toEqual(expected.warnings);
    },
  );

  it("spreads workspaces with a preferred anti-affinity on the workspace label", () => {
    const preferred =
      WORKSPACE_POD_ANTI_AFFINITY.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
    expect(preferred).toEqual([
      {
        weight: 1,
        podAffinityTerm: {
          topologyKey: "kubernetes.io/hostname",
          labelSelector: [
            {
              matchExpressions: [
                { key: "app.kubernetes.io/name", operator: "In", values: ["coder-workspace"] },
              ],
            },
          ],
        },
      },
    ]);
  });
});
