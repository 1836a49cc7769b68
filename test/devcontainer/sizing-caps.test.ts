/**
 * The operator's caps at their boundary, planned by real Terraform (one batch): a request
 * equal to max_cpu or max_memory is within the cap (no warning, reserved as asked), and a
 * request over max_cpu is reserved at the cap also where the limit is compared with it
 * (cpu_request_amount), so a limit between the cap and the request stays. Written for the
 * mutants that survived test/devcontainer/sizing.test.ts (docs/testing.md, "Mutation testing").
 */
import { type MappingCase, plannedMappingCases } from "./mapping-stack";

const GIB = 1073741824;
const K8S = "customizations.kubernetes";

const CASES: [string, MappingCase, Record<string, unknown>][] = [
  [
    "hostRequirements.cpus equal to max_cpu is within it",
    { hostRequirements: { cpus: 8 }, maxCpu: 8 },
    {
      summary: "CPU 8 / 8 · memory 512Mi / 2Gi · disk 10Gi · from hostRequirements",
      warnings: [],
      requests: { cpu: "8", memory: "512Mi" },
    },
  ],
  [
    "a customizations.kubernetes cpu request equal to max_cpu is within it",
    { kubernetes: [{ resources: { requests: { cpu: "8" } } }], maxCpu: 8 },
    {
      summary: "CPU 8 / 8 · memory 512Mi / 2Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [],
      requests: { cpu: "8", memory: "512Mi" },
    },
  ],
  [
    "hostRequirements.memory equal to max_memory is within it",
    { hostRequirements: { memory_bytes: 32 * GIB }, maxMemory: 32 },
    {
      summary: "CPU 250m / 2 · memory 32Gi / 32Gi · disk 10Gi · from hostRequirements",
      warnings: [],
      requests: { cpu: "250m", memory: "32Gi" },
    },
  ],
  [
    "a cpu request over max_cpu is compared with the limit at the cap: a limit between them stays",
    { kubernetes: [{ resources: { requests: { cpu: "16" }, limits: { cpu: "10" } } }], maxCpu: 8 },
    {
      summary: "CPU 8 / 10 · memory 512Mi / 2Gi · disk 10Gi · from customizations.kubernetes",
      warnings: [`${K8S} resources.requests["cpu"] = "16" exceeds max_cpu 8: reserving 8`],
      requests: { cpu: "8", memory: "512Mi" },
      limits: { cpu: "10", memory: "2Gi" },
    },
  ],
];

describe("DevcontainerSizing at the caps (planned)", () => {
  const results = plannedMappingCases(
    "sizing",
    CASES.map(([, c]) => c),
  );

  it.each(CASES.map(([name, , expected], index) => [name, index, expected] as const))(
    "%s",
    (_name, index, expected) => {
      const result = results()[index];
      expect({
        summary: result.summary,
        warnings: result.warnings,
        requests: result.requests,
        ...(expected.limits ? { limits: result.limits } : {}),
      }).toEqual(expected);
    },
  );
});
