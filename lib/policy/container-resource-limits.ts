import { soleExpression } from "./expressions";
import {
  isKubernetesType,
  isRecord,
  type PolicyContext,
  PolicyRule,
  singleBlock,
  type SynthesizedElement,
  walkBlocks,
} from "./policy-rule";

/** Limits every container must carry. */
const REQUIRED_LIMITS = ["cpu", "memory"] as const;

/**
 * Every container and init container has CPU and memory limits: a workspace shares nodes
 * with others, and one without limits can starve them. The rule fails closed: a limits map
 * that is an expression passes only when it can be proven to hold cpu and memory, i.e.
 * it is a local whose synthesized value is a literal map naming both, or its construct
 * declared the keys with `declareLimits` (lib/policy/policy-rule.ts). Anything else (an
 * object written as an expression, `hcl\`{}\``, a lookup) is a violation.
 */
export class ContainerResourceLimits extends PolicyRule {
  readonly id = "container-resource-limits";

  check(element: SynthesizedElement, context: PolicyContext): string[] {
    if (element.kind !== "resource" || !isKubernetesType(element.type)) return [];
    const reasons: string[] = [];
    walkBlocks(element.body, ({ name, block, path }) => {
      if (name !== "container" && name !== "init_container") return;
      const label = `${element.address} ${path} (${name} "${String(block.name ?? "?")}")`;
      const resources = singleBlock(block.resources);
      if (resources === undefined) {
        reasons.push(
          `${label}: has no resources block; set limits for ${REQUIRED_LIMITS.join(" and ")}`,
        );
        return;
      }
      const limits = resources.limits;
      const keys = isRecord(limits) ? Object.keys(limits) : provenKeys(limits, context);
      if (keys === undefined) {
        reasons.push(
          `${label}: its limits are an expression the policy cannot prove to hold ` +
            `${REQUIRED_LIMITS.join(" and ")}; write them as a map, or declare the keys with declareLimits()`,
        );
        return;
      }
      if (keys === null) {
        reasons.push(
          `${label}: has no resource limits; set limits for ${REQUIRED_LIMITS.join(" and ")}`,
        );
        return;
      }
      const present = (k: string) =>
        keys.includes(k) && !(isRecord(limits) && (limits[k] === undefined || limits[k] === null));
      const missing = REQUIRED_LIMITS.filter((k) => !present(k));
      if (missing.length > 0) reasons.push(`${label}: has no ${missing.join(" or ")} limit`);
    });
    return reasons;
  }
}

/**
 * The keys an expression-valued limits map is known to hold: declared by its construct, or
 * read from a local whose value is a literal map. `null` when there are no limits at all,
 * undefined when an expression cannot be proven.
 */
function provenKeys(limits: unknown, context: PolicyContext): readonly string[] | null | undefined {
  if (limits === undefined || limits === null) return null;
  if (typeof limits !== "string" || !limits.includes("${")) return null;
  const declared = context.declaredLimitKeys(limits);
  if (declared !== undefined) return declared;
  const expression = soleExpression(limits);
  const local =
    expression === undefined ? undefined : /^local\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(expression);
  if (!local) return undefined;
  const value = context.localValue(local[1]);
  if (!isRecord(value)) return undefined;
  return Object.keys(value).filter((k) => value[k] !== null && value[k] !== undefined);
}
