import {
  isKubernetesType,
  type PolicyContext,
  PolicyRule,
  type SynthesizedElement,
  ungatedReason,
  walkBlocks,
} from "./policy-rule";

/** The variable a template declares to let operators opt in to hostPath volumes. */
export const HOST_PATH_GATE = "allow_host_path";

/**
 * No hostPath volume (in a pod spec or a PersistentVolume) unless it comes from a dynamic
 * block whose for_each is gated by the opt-in variable `allow_host_path`: a hostPath
 * volume reaches the node's file system, which a workspace never needs.
 */
export class HostPathVolumes extends PolicyRule {
  readonly id = "no-host-path-volumes";

  check(element: SynthesizedElement, context: PolicyContext): string[] {
    if (element.kind !== "resource" || !isKubernetesType(element.type)) return [];
    const reasons: string[] = [];
    walkBlocks(element.body, ({ name, block, path, dynamicForEach }) => {
      if (name !== "host_path") return;
      // Only a gate on the dynamic block can make the volume itself optional.
      const reason = ungatedReason(
        block,
        dynamicForEach,
        HOST_PATH_GATE,
        context,
        "a hostPath volume",
      );
      if (reason) reasons.push(`${element.address} ${path}: ${reason}`);
    });
    return reasons;
  }
}
