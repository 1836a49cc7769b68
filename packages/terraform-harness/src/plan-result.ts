/**
 * A saved plan as tests see it: `terraform show -json` plus the plan's diagnostics, with
 * lookups by resource type and address.
 */
import { CHECK_FAILED_SUMMARY, checkFailureMessages, type Diagnostic } from "./diagnostics";
import { isRecord } from "./json";
import { coderViolations } from "./coder-rules";
import { type ApiValidation, validateKubernetesObjects } from "./kubernetes-api";
import { type PlannedOutput, plannedOutputs } from "./planned-outputs";

/** One entry of the plan's resource_changes. */
export interface PlannedResource {
  /** Full address, e.g. `kubernetes_deployment_v1.main[0]` or `module.web[0].terraform_data.inputs`. */
  readonly address: string;
  readonly mode: "managed" | "data";
  readonly type: string;
  readonly name: string;
  /** count index or for_each key; undefined for a single instance. */
  readonly index: number | string | undefined;
  /** e.g. ["create"], ["no-op"], ["delete", "create"]. */
  readonly actions: readonly string[];
  /** Planned values; attributes known only after apply are absent or null here. */
  readonly after: Record<string, unknown>;
  /** Mirrors `after` with `true` where a value is unknown until apply. */
  readonly afterUnknown: Record<string, unknown>;
  /** Mirrors `after` with `true` where a value is sensitive. */
  readonly afterSensitive: Record<string, unknown>;
  /** Prior values (null for a create). */
  readonly before: Record<string, unknown> | null;
}

/** A data source read during plan (from the plan's prior state). */
export interface ReadDataSource {
  readonly address: string;
  readonly type: string;
  readonly index: number | string | undefined;
  readonly values: Record<string, unknown>;
}

export class PlanResult {
  readonly resourceChanges: readonly PlannedResource[];
  readonly outputs: Record<string, PlannedOutput>;
  /** Warnings of the plan, failed `check` blocks among them. */
  readonly warnings: readonly Diagnostic[];

  /**
   * @param raw `terraform show -json tfplan`
   * @param diagnostics diagnostics printed by `terraform plan -json`
   */
  constructor(
    readonly raw: Record<string, unknown>,
    diagnostics: readonly Diagnostic[],
  ) {
    const changes = Array.isArray(raw.resource_changes) ? raw.resource_changes : [];
    this.resourceChanges = changes.filter(isRecord).map(toPlannedResource);
    this.outputs = plannedOutputs(raw);
    this.warnings = diagnostics.filter((d) => d.severity === "warning");
  }

  /** Managed resources of `type` (in modules too), in plan order. */
  resources(type: string): PlannedResource[] {
    return this.resourceChanges.filter((r) => r.mode === "managed" && r.type === type);
  }

  /** The resource change at `address`; throws listing the known addresses when absent. */
  resource(address: string): PlannedResource {
    const found = this.resourceChanges.find((r) => r.address === address);
    if (!found) {
      throw new Error(
        `no resource ${address} in the plan; planned: ${this.addresses().join(", ") || "(none)"}`,
      );
    }
    return found;
  }

  /** Addresses of all resource changes, sorted. */
  addresses(): string[] {
    return this.resourceChanges.map((r) => r.address).sort();
  }

  /** Data sources of `type` read during plan, with their values. */
  dataSources(type: string): ReadDataSource[] {
    const prior = isRecord(this.raw.prior_state) ? this.raw.prior_state : {};
    const values = isRecord(prior.values) ? prior.values : {};
    return collectResources(values.root_module)
      .filter((r) => r.mode === "data" && r.type === type)
      .map((r) => ({
        address: String(r.address),
        type: String(r.type),
        index: r.index as number | string | undefined,
        values: isRecord(r.values) ? r.values : {},
      }));
  }

  private api: ApiValidation | undefined;

  /**
   * The planned Kubernetes objects checked with the API server's rules, and the Pod Security
   * level each planned pod meets (kubernetes-api.ts); with Coder's cross-resource rules
   * (coder-rules.ts) among the violations.
   */
  kubernetesApi(): ApiValidation {
    if (!this.api) {
      const api = validateKubernetesObjects(this);
      this.api = { ...api, violations: [...api.violations, ...coderViolations(this)] };
    }
    return this.api;
  }

  /** The Pod Security level of the pod planned at `address` (a Deployment or Pod). */
  podSecurityLevel(address: string): string {
    const pod = this.kubernetesApi().pods.find((p) => p.address === address);
    if (!pod) throw new Error(`no planned pod at ${address}`);
    return pod.level;
  }

  /** error_message of each failed `check` assertion, in order. */
  checkFailures(): string[] {
    return checkFailureMessages(this.warnings);
  }

  /**
   * The part of this plan inside the module instance `moduleAddress` (e.g. one instance of a
   * module batch), as a plan of that module alone would show it: resource and data source
   * addresses relative to the instance, its failed checks (from the plan's check results,
   * since Terraform's check diagnostics do not say which instance failed), and the plan's
   * other warnings, which cannot be attributed to an instance. It has no outputs.
   */
  instance(moduleAddress: string): PlanResult {
    const prefix = `${moduleAddress}.`;
    const strip = (address: unknown): string =>
      String(address).startsWith(prefix) ? String(address).slice(prefix.length) : String(address);
    const changes = (Array.isArray(this.raw.resource_changes) ? this.raw.resource_changes : [])
      .filter(isRecord)
      .filter((c) => String(c.address).startsWith(prefix))
      .map((c) => ({ ...c, address: strip(c.address) }));
    const prior = isRecord(this.raw.prior_state) ? this.raw.prior_state : {};
    const priorValues = isRecord(prior.values) ? prior.values : {};
    const module = findChildModule(priorValues.root_module, moduleAddress);
    const failures = instanceCheckFailures(this.raw.checks, moduleAddress).map(
      (message): Diagnostic => ({
        severity: "warning",
        summary: CHECK_FAILED_SUMMARY,
        detail: message,
      }),
    );
    const others = this.warnings.filter((d) => d.summary !== CHECK_FAILED_SUMMARY);
    return new PlanResult(
      {
        resource_changes: changes,
        prior_state: { values: { root_module: module ? relativeModule(module, strip) : {} } },
      },
      [...failures, ...others],
    );
  }
}

/** The child module at `address` in `show -json` values, searched recursively. */
function findChildModule(module: unknown, address: string): Record<string, unknown> | undefined {
  if (!isRecord(module)) return undefined;
  if (module.address === address) return module;
  const children = Array.isArray(module.child_modules) ? module.child_modules : [];
  for (const child of children) {
    const found = findChildModule(child, address);
    if (found) return found;
  }
  return undefined;
}

/** A `show -json` module with every address passed through `strip`. */
function relativeModule(
  module: Record<string, unknown>,
  strip: (address: unknown) => string,
): Record<string, unknown> {
  const resources = Array.isArray(module.resources) ? module.resources.filter(isRecord) : [];
  const children = Array.isArray(module.child_modules) ? module.child_modules.filter(isRecord) : [];
  return {
    resources: resources.map((r) => ({ ...r, address: strip(r.address) })),
    child_modules: children.map((c) => ({
      ...relativeModule(c, strip),
      address: strip(c.address),
    })),
  };
}

/** The problems of the failed check instances directly in `moduleAddress`, in plan order. */
function instanceCheckFailures(checks: unknown, moduleAddress: string): string[] {
  const messages: string[] = [];
  for (const check of Array.isArray(checks) ? checks.filter(isRecord) : []) {
    const address = isRecord(check.address) ? check.address : {};
    if (address.kind !== "check") continue;
    for (const instance of Array.isArray(check.instances) ? check.instances.filter(isRecord) : []) {
      const at = isRecord(instance.address) ? instance.address : {};
      if (at.module !== moduleAddress || instance.status !== "fail") continue;
      const problems = Array.isArray(instance.problems) ? instance.problems.filter(isRecord) : [];
      messages.push(...problems.map((p) => String(p.message)));
    }
  }
  return messages;
}

function toPlannedResource(change: Record<string, unknown>): PlannedResource {
  const detail = isRecord(change.change) ? change.change : {};
  const asObject = (v: unknown) => (isRecord(v) ? v : {});
  return {
    address: String(change.address),
    mode: change.mode === "data" ? "data" : "managed",
    type: String(change.type),
    name: String(change.name),
    index: change.index as number | string | undefined,
    actions: Array.isArray(detail.actions) ? detail.actions.map(String) : [],
    after: asObject(detail.after),
    afterUnknown: asObject(detail.after_unknown),
    afterSensitive: asObject(detail.after_sensitive),
    before: isRecord(detail.before) ? detail.before : null,
  };
}

/** All resources of a module in `show -json` values, child modules included. */
export function collectResources(module: unknown): Record<string, unknown>[] {
  if (!isRecord(module)) return [];
  const own = Array.isArray(module.resources) ? module.resources.filter(isRecord) : [];
  const children = Array.isArray(module.child_modules) ? module.child_modules : [];
  return [...own, ...children.flatMap(collectResources)];
}
