import {
  isKubernetesType,
  mayEnable,
  type PolicyContext,
  PolicyRule,
  type SynthesizedElement,
  ungatedReason,
  walkBlocks,
} from "./policy-rule";

/** The variable a template declares to let operators opt in to privileged containers. */
export const PRIVILEGED_GATE = "allow_privileged";

/**
 * No privileged container and no unconfined seccomp profile, unless the value is gated by
 * the operator's opt-in variable `allow_privileged` (bool, default false): the
 * devcontainer template writes `privileged = var.allow_privileged && <repository asks>`.
 */
export class PrivilegedContainers extends PolicyRule {
  readonly id = "no-privileged-containers";

  check(element: SynthesizedElement, context: PolicyContext): string[] {
    if (element.kind !== "resource" || !isKubernetesType(element.type)) return [];
    const reasons: string[] = [];
    walkBlocks(element.body, ({ name, block, path, dynamicForEach }) => {
      if (name === "security_context" && mayEnable(block.privileged)) {
        const reason = ungatedReason(
          block.privileged,
          dynamicForEach,
          PRIVILEGED_GATE,
          context,
          "a privileged container",
        );
        if (reason) reasons.push(`${element.address} ${path}.privileged: ${reason}`);
      }
      if (name === "seccomp_profile" && mayBeUnconfined(block.type)) {
        const reason = ungatedReason(
          block.type,
          dynamicForEach,
          PRIVILEGED_GATE,
          context,
          "an Unconfined seccomp profile",
        );
        if (reason) reasons.push(`${element.address} ${path}.type: ${reason}`);
      }
    });
    return reasons;
  }
}

/** A literal other than Unconfined is fine; an expression may evaluate to it. */
function mayBeUnconfined(value: unknown): boolean {
  if (typeof value !== "string") return false;
  return value === "Unconfined" || value.includes("${");
}
