/**
 * A saved plan as tests see it: `terraform show -json` plus the plan's diagnostics, with
 * lookups by resource type and address.
 */
import { checkFailureMessages, type Diagnostic } from "./diagnostics";
import { isRecord } from "./json";
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

  /** error_message of each failed `check` assertion, in order. */
  checkFailures(): string[] {
    return checkFailureMessages(this.warnings);
  }
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
