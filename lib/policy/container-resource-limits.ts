import {
  isKubernetesType,
  isRecord,
  PolicyRule,
  type SynthesizedElement,
  walkBlocks,
} from "./policy-rule";

/** Limits every container must carry. */
const REQUIRED_LIMITS = ["cpu", "memory"] as const;

/**
 * Every container and init container has CPU and memory limits: a workspace shares nodes
 * with others, and one without limits can starve them. A limits map that is an expression
 * (computed at plan time) passes; a literal map must name cpu and memory.
 */
export class ContainerResourceLimits extends PolicyRule {
  readonly id = "container-resource-limits";

  check(element: SynthesizedElement): string[] {
    if (!isKubernetesType(element.type)) return [];
    const reasons: string[] = [];
    walkBlocks(element.body, ({ name, block, path }) => {
      if (name !== "container" && name !== "init_container") return;
      const label = `${element.address} ${path} (${name} "${String(block.name ?? "?")}")`;
      const resources = single(block.resources);
      if (resources === undefined) {
        reasons.push(
          `${label}: has no resources block; set limits for ${REQUIRED_LIMITS.join(" and ")}`,
        );
        return;
      }
      const limits = resources.limits;
      if (typeof limits === "string" && limits.includes("${")) return;
      if (!isRecord(limits)) {
        reasons.push(
          `${label}: has no resource limits; set limits for ${REQUIRED_LIMITS.join(" and ")}`,
        );
        return;
      }
      const missing = REQUIRED_LIMITS.filter((k) => limits[k] === undefined || limits[k] === null);
      if (missing.length > 0) reasons.push(`${label}: has no ${missing.join(" or ")} limit`);
    });
    return reasons;
  }
}

/** A single nested block as cdktf writes it: an object, or a one-element list. */
function single(value: unknown): Record<string, unknown> | undefined {
  if (isRecord(value)) return value;
  if (Array.isArray(value) && isRecord(value[0])) return value[0];
  return undefined;
}
