/**
 * Where a secret value appears in a plan, and whether Terraform masks it there: the tests of
 * the devcontainer template's credentials (git tokens, user secrets) hold every occurrence to
 * the places they allow.
 */
import { collectResources, type PlanResult } from "@coder-cdktf/terraform-harness";

/** One place a value was found: its path in the plan or state, and whether Terraform masks it. */
export interface Occurrence {
  readonly place: string;
  readonly sensitive: boolean;
}

/** Every place under `value` holding `secret`, with `mask` (Terraform's sensitivity mirror). */
function occurrences(value: unknown, mask: unknown, place: string, secret: string): Occurrence[] {
  if (typeof value === "string") {
    return value.includes(secret) ? [{ place, sensitive: mask === true }] : [];
  }
  const sub = (key: string | number): unknown =>
    mask === true ? true : mask !== null && typeof mask === "object" ? (mask as any)[key] : false;
  if (Array.isArray(value)) {
    return value.flatMap((v, i) => occurrences(v, sub(i), `${place}[${i}]`, secret));
  }
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) =>
      occurrences(v, sub(k), `${place}.${k}`, secret),
    );
  }
  return [];
}

/** Where `secret` appears in a plan's resource changes, read data sources and outputs. */
export function planOccurrences(plan: PlanResult, secret: string): Occurrence[] {
  const found: Occurrence[] = [];
  for (const r of plan.resourceChanges) {
    found.push(...occurrences(r.after, r.afterSensitive, r.address, secret));
  }
  const prior = (plan.raw.prior_state ?? {}) as { values?: { root_module?: unknown } };
  for (const d of collectResources(prior.values?.root_module).filter((r) => r.mode === "data")) {
    found.push(...occurrences(d.values, d.sensitive_values, String(d.address), secret));
  }
  for (const [name, o] of Object.entries(plan.outputs)) {
    found.push(...occurrences(o.value, o.sensitive, `output.${name}`, secret));
  }
  return found;
}
