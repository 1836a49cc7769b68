/**
 * "No replace, no delete": what a plan on top of an existing workspace's state must not do to
 * the objects that hold users' data and identities. The mock asks for replacement where the
 * real providers do (ForceNew attributes, mock-provider/validation-rules.ts FORCE_NEW), so a
 * plan's actions are the real plan's.
 */
import { isRecord } from "./json";
import type { PlanResult, PlannedResource } from "./plan-result";

/** Resource types whose replacement loses a user's data or identity. */
export const STATEFUL_TYPES: readonly string[] = [
  "kubernetes_persistent_volume_claim_v1",
  "kubernetes_service_account_v1",
  "kubernetes_secret_v1",
  "kubernetes_role_binding_v1",
];

/** A planned change that deletes an object, by itself or as part of a replacement. */
export interface DestructiveChange {
  readonly address: string;
  readonly actions: readonly string[];
  /** The attributes that force the replacement (show -json `replace_paths`), dotted. */
  readonly replacePaths: readonly string[];
}

/** Changes of `plan` that delete or replace a resource, optionally only of `types`. */
export function destructiveChanges(
  plan: PlanResult,
  types?: readonly string[],
): DestructiveChange[] {
  const raw = Array.isArray(plan.raw.resource_changes) ? plan.raw.resource_changes : [];
  const replacePaths = new Map<string, string[]>();
  for (const change of raw.filter(isRecord)) {
    const detail = isRecord(change.change) ? change.change : {};
    const paths = Array.isArray(detail.replace_paths) ? detail.replace_paths : [];
    replacePaths.set(
      String(change.address),
      paths.map((p) => (Array.isArray(p) ? p.join(".") : String(p))),
    );
  }
  return plan.resourceChanges
    .filter((r: PlannedResource) => r.mode === "managed" && r.actions.includes("delete"))
    .filter((r) => !types || types.includes(r.type))
    .map((r) => ({
      address: r.address,
      actions: r.actions,
      replacePaths: replacePaths.get(r.address) ?? [],
    }));
}

/**
 * Throws, naming each address and the attributes that force it, when `plan` deletes or
 * replaces a resource of `types` (@default STATEFUL_TYPES).
 */
export function expectNoReplace(plan: PlanResult, types: readonly string[] = STATEFUL_TYPES): void {
  const found = destructiveChanges(plan, types);
  if (found.length === 0) return;
  const lines = found.map(
    (c) =>
      `  ${c.address}: ${c.actions.join(", ")}` +
      (c.replacePaths.length > 0 ? ` (forced by ${c.replacePaths.join(", ")})` : ""),
  );
  throw new Error(
    `the plan deletes or replaces what existing workspaces keep:\n${lines.join("\n")}`,
  );
}
