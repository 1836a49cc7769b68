/**
 * Test support: many sizing or placement cases in one Terraform run, each an instance of one
 * module (the construct with its inputs as variables), so that a single `terraform plan`
 * evaluates them all.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, TerraformOutput, TerraformStack, TerraformVariable } from "../../lib/core/cdk";
import { DevcontainerKubernetesCustomizations } from "../../lib/devcontainer/kubernetes-customizations";
import { DevcontainerPlacement } from "../../lib/devcontainer/placement";
import { DevcontainerSizing } from "../../lib/devcontainer/sizing";
import {
  DEFAULT_MAX_DISK_GIB,
  DEFAULT_MAX_EPHEMERAL_STORAGE_GIB,
  DEFAULT_MAX_EXTENDED_RESOURCES,
} from "../../lib/devcontainer/quantity-caps";
import {
  type ModuleBatch,
  planExpressions,
  prepareModuleBatch,
} from "@coder-cdktf/terraform-harness";
import { Expr, hcl } from "../../lib/core/expr";
import { writeShippedFiles } from "../../lib/core/shipped-file";
import { writeHclFiles } from "../../lib/private/hcl-files";

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
  /** @default the template variables' defaults (128, 32, { "nvidia.com/gpu" = 1 }) */
  readonly maxDisk?: number;
  readonly maxEphemeralStorage?: number;
  readonly maxExtendedResources?: Record<string, number>;
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

/** Which construct the cases exercise. */
export type MappingKind = "sizing" | "placement";

/**
 * Builds on a fresh stack the configuration of ONE case: its inputs as variables, the
 * construct's values as outputs (the module every case of {@link plannedMappingCases} is an
 * instance of). `sensitive_inputs` marks the data-source inputs sensitive, as values derived
 * from the data source can be.
 */
export function mappingStack(
  outdir: string,
  kind: MappingKind,
): { stack: TerraformStack; outputs: string[] } {
  const stack = new TerraformStack(new App({ outdir }), "mapping");
  const variable = (name: string, type: string) => new TerraformVariable(stack, name, { type });
  const sensitiveInputs = variable("sensitive_inputs", "bool");
  const input = (name: string) => {
    const value = variable(name, "any").value;
    // Not a conditional: its result would carry the marks of both branches.
    return hcl`{ "true" = sensitive(${value}), "false" = ${value} }[tostring(${sensitiveInputs.value})]`;
  };
  const configuration = input("configuration");
  const customizations = new DevcontainerKubernetesCustomizations(stack, "k8s", { configuration });
  const values: Record<string, unknown> = {
    // The check of the case's inputs: marked sensitive exactly when the case asks for it.
    inputs_sensitive: hcl`issensitive(${configuration})`,
  };
  if (kind === "sizing") {
    const sizing = new DevcontainerSizing(stack, "sizing", {
      customizations,
      hostRequirements: input("host_requirements"),
      cpu: Expr.of<string>(variable("cpu", "string").stringValue),
      memory: Expr.of<string>(variable("memory", "string").stringValue),
      diskSize: Expr.of<string>(variable("disk_size", "string").stringValue),
      maxCpu: Expr.of<number>(variable("max_cpu", "number").numberValue),
      maxMemory: Expr.of<number>(variable("max_memory", "number").numberValue),
      maxDisk: Expr.of<number>(variable("max_disk", "number").numberValue),
      maxEphemeralStorage: Expr.of<number>(variable("max_ephemeral_storage", "number").numberValue),
      maxExtendedResources: Expr.of<Record<string, number>>(
        variable("max_extended_resources", "map(number)").value,
      ),
    });
    Object.assign(values, {
      summary: sizing.summary,
      requests: sizing.requests,
      limits: sizing.limits,
      disk_size: sizing.diskSize,
      warnings: sizing.warnings,
    });
  } else {
    const placement = new DevcontainerPlacement(stack, "placement", {
      customizations,
      allowNodePlacement: Expr.of<boolean>(variable("allow", "bool").value),
    });
    Object.assign(values, {
      node_selector: placement.nodeSelector,
      tolerations: placement.tolerations,
      placement_warnings: placement.warnings,
    });
  }
  for (const [name, value] of Object.entries(values)) {
    new TerraformOutput(stack, `output_${name}`, { value }).overrideLogicalId(name);
  }
  return { stack, outputs: Object.keys(values) };
}

/** The module's variables for one case (every variable set, so no root fallback is used). */
function caseVariables(kind: MappingKind, c: MappingCase): Record<string, unknown> {
  const configuration =
    c.configuration !== undefined
      ? c.configuration
      : { customizations: { kubernetes: c.kubernetes ?? [] } };
  const common = { sensitive_inputs: c.sensitiveInputs === true, configuration };
  return kind === "sizing"
    ? {
        ...common,
        host_requirements:
          c.hostRequirements === undefined ? null : fullHostRequirements(c.hostRequirements),
        cpu: c.cpu ?? "2",
        memory: c.memory ?? "2",
        disk_size: c.diskSize ?? "10",
        max_cpu: c.maxCpu ?? 8,
        max_memory: c.maxMemory ?? 32,
        max_disk: c.maxDisk ?? DEFAULT_MAX_DISK_GIB,
        max_ephemeral_storage: c.maxEphemeralStorage ?? DEFAULT_MAX_EPHEMERAL_STORAGE_GIB,
        max_extended_resources: c.maxExtendedResources ?? DEFAULT_MAX_EXTENDED_RESOURCES,
      }
    : { ...common, allow: c.allowNodePlacement ?? false };
}

/**
 * Plans `cases` of one construct in a single Terraform run (in beforeAll) and returns a
 * getter for their results, in order; the temp folders are removed in afterAll. The cases are
 * instances of one module (prepareModuleBatch): the construct is synthesized and validated
 * once, not once per case. Root outputs `c<n>_<name>` read each instance's outputs; only the
 * summary is declared non-sensitive, so a summary that kept a sensitive input's mark fails
 * the plan, as in a template.
 */
export function plannedMappingCases(
  kind: MappingKind,
  cases: readonly MappingCase[],
): () => MappingResult[] {
  let results: MappingResult[] = [];
  let outdir: string;
  let batch: ModuleBatch | undefined;
  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), `${kind}-test-`));
    const { stack, outputs: names } = mappingStack(outdir, kind);
    App.of(stack).synth();
    const dir = join(outdir, "stacks", stack.node.id);
    // As app/synth.ts does: what is planned is what a template ships.
    writeShippedFiles(stack, dir);
    writeHclFiles(dir);
    const keys = cases.map((_, index) => `c${index}`);
    const prepared = prepareModuleBatch(
      dir,
      Object.fromEntries(keys.map((key, index) => [key, caseVariables(kind, cases[index])])),
    );
    batch = prepared;
    const outputs: Record<string, unknown> = {};
    keys.forEach((key, index) => {
      for (const name of names) {
        outputs[`${key}_${name}`] = {
          value: `\${${prepared.instanceAddress(key)}.${name}}`,
          sensitive: cases[index].sensitiveInputs === true && name !== "summary",
        };
      }
    });
    writeFileSync(join(batch.dir, "outputs.tf.json"), JSON.stringify({ output: outputs }));
    // The root's copies of the module variables need values; every instance sets its own.
    const plan = await planExpressions(batch.dir, caseVariables(kind, {}));
    expect(plan.warnings).toEqual([]);
    results = cases.map((c, index) => {
      expect(plan.values[`c${index}_inputs_sensitive`]).toBe(c.sensitiveInputs === true);
      return mappingResult(plan.values, plan.outputs, index);
    });
  });
  afterAll(() => {
    batch?.cleanup();
    rmSync(outdir, { recursive: true, force: true });
  });
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
