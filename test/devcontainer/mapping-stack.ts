/**
 * Test support: one Terraform configuration holding many sizing + placement cases,
 * each with its own variables, locals (prefix `c<n>_`) and outputs, so that a single
 * `terraform plan` evaluates them all.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, TerraformOutput, TerraformStack, TerraformVariable } from "../../src/core/cdk";
import { KubernetesCustomizations } from "../../src/devcontainer/kubernetes-customizations";
import { DevcontainerPlacement } from "../../src/devcontainer/placement";
import { DevcontainerSizing } from "../../src/devcontainer/sizing";
import { planExpressions } from "@coder-cdktf/terraform-harness";

/** The data source's host_requirements object (every attribute present, as the provider gives it). */
export interface HostRequirements {
  readonly cpus?: number | null;
  readonly memory_bytes?: number | null;
  readonly storage_bytes?: number | null;
  readonly gpu_json?: string | null;
}

/** One repository configuration and the template inputs it is planned with. */
export interface MappingCase {
  /** The decoded merged configuration; overrides `kubernetes`. */
  readonly configuration?: unknown;
  /** Shortcut: the `customizations.kubernetes` entries of the configuration. */
  readonly kubernetes?: readonly unknown[];
  /** null: the data source is absent (stopped workspace) or the service is old. */
  readonly hostRequirements?: HostRequirements | null;
  /** Workspace parameters as Coder gives them (strings). @default 2 / 2 / 10 */
  readonly cpu?: string;
  readonly memory?: string;
  readonly diskSize?: string;
  /** @default 8 / 32 */
  readonly maxCpu?: number;
  readonly maxMemory?: number;
  /** @default false */
  readonly allowNodePlacement?: boolean;
  /** Mark the data-source inputs sensitive, as values derived from the data source can be. */
  readonly sensitiveInputs?: boolean;
}

/** What each case plans to (the fields of the construct the case did not use are undefined). */
export interface MappingResult {
  readonly summary: string;
  readonly requests: Record<string, string>;
  readonly limits: Record<string, string>;
  readonly diskSize: string;
  readonly warnings: string[];
  readonly nodeSelector: Record<string, string>;
  readonly tolerations: Record<string, string | null>[];
  readonly placementWarnings: string[];
  readonly summarySensitive: boolean;
}

const OUTPUTS: Record<keyof Omit<MappingResult, "summarySensitive">, string> = {
  summary: "summary",
  requests: "requests",
  limits: "limits",
  diskSize: "disk_size",
  warnings: "warnings",
  nodeSelector: "node_selector",
  tolerations: "tolerations",
  placementWarnings: "placement_warnings",
};

/** Which construct the cases exercise (each adds its own locals, and plan time grows with them). */
export type MappingKind = "sizing" | "placement";

/** Builds the configuration for `cases` on a fresh stack; returns it with the variable values. */
export function mappingStack(
  outdir: string,
  kind: MappingKind,
  cases: readonly MappingCase[],
): { stack: TerraformStack; variables: Record<string, unknown> } {
  const stack = new TerraformStack(new App({ outdir }), "mapping");
  const variables: Record<string, unknown> = {};
  cases.forEach((c, index) => {
    const p = `c${index}_`;
    const variable = (name: string, type: string, value: unknown, sensitive = false) => {
      const v = new TerraformVariable(stack, `${p}${name}`, { type, sensitive });
      variables[`${p}${name}`] = value;
      return v;
    };
    const configuration =
      c.configuration !== undefined
        ? c.configuration
        : { customizations: { kubernetes: c.kubernetes ?? [] } };
    const hr = c.hostRequirements === undefined ? null : fullHostRequirements(c.hostRequirements);
    const sensitive = c.sensitiveInputs === true;
    const config = variable("configuration", "any", configuration, sensitive);
    const hostRequirements = variable("host_requirements", "any", hr, sensitive);
    const customizations = new KubernetesCustomizations(stack, `${p}k8s`, {
      configuration: config.value,
      localPrefix: p,
    });
    const values: Record<string, unknown> = {};
    if (kind === "sizing") {
      const sizing = new DevcontainerSizing(stack, `${p}sizing`, {
        customizations,
        hostRequirements: hostRequirements.value,
        cpu: variable("cpu", "string", c.cpu ?? "2").stringValue,
        memory: variable("memory", "string", c.memory ?? "2").stringValue,
        diskSize: variable("disk_size", "string", c.diskSize ?? "10").stringValue,
        maxCpu: variable("max_cpu", "number", c.maxCpu ?? 8).numberValue,
        maxMemory: variable("max_memory", "number", c.maxMemory ?? 32).numberValue,
        localPrefix: p,
      });
      Object.assign(values, {
        summary: sizing.summary,
        requests: sizing.requests,
        limits: sizing.limits,
        disk_size: sizing.diskSize,
        warnings: sizing.warnings,
      });
    } else {
      const placement = new DevcontainerPlacement(stack, `${p}placement`, {
        customizations,
        allowNodePlacement: variable("allow", "bool", c.allowNodePlacement ?? false).value,
        localPrefix: p,
      });
      Object.assign(values, {
        node_selector: placement.nodeSelector,
        tolerations: placement.tolerations,
        placement_warnings: placement.warnings,
      });
    }
    for (const [name, value] of Object.entries(values)) {
      // Only the summary must come out non-sensitive; the rest may keep the mark.
      new TerraformOutput(stack, `${p}output_${name}`, {
        value,
        sensitive: sensitive && name !== "summary",
      }).overrideLogicalId(`${p}${name}`);
    }
  });
  return { stack, variables };
}

/**
 * Plans `cases` of one construct in a single Terraform run (in beforeAll) and returns a
 * getter for their results, in order; the temp folder is removed in afterAll.
 */
export function plannedMappingCases(
  kind: MappingKind,
  cases: readonly MappingCase[],
): () => MappingResult[] {
  let results: MappingResult[] = [];
  let outdir: string;
  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), `${kind}-test-`));
    const { stack, variables } = mappingStack(outdir, kind, cases);
    const plan = await planExpressions(stack, variables);
    expect(plan.warnings).toEqual([]);
    results = cases.map((_, index) => mappingResult(plan.values, plan.outputs, index));
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));
  return () => results;
}

/** Reads case `index`'s results from planned output values. */
export function mappingResult(
  values: Record<string, unknown>,
  sensitivity: Record<string, { sensitive: boolean }>,
  index: number,
): MappingResult {
  const p = `c${index}_`;
  const result: Record<string, unknown> = {};
  for (const [key, output] of Object.entries(OUTPUTS)) result[key] = values[`${p}${output}`];
  result.summarySensitive = sensitivity[`${p}summary`]?.sensitive ?? false;
  return result as unknown as MappingResult;
}

function fullHostRequirements(hr: HostRequirements | null): Required<HostRequirements> | null {
  if (hr === null) return null;
  return {
    cpus: hr.cpus ?? null,
    memory_bytes: hr.memory_bytes ?? null,
    storage_bytes: hr.storage_bytes ?? null,
    gpu_json: hr.gpu_json ?? null,
  };
}
