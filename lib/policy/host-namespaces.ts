import {
  isKubernetesType,
  mayEnable,
  type PolicyContext,
  PolicyRule,
  type SynthesizedElement,
  ungatedReason,
  walkBlocks,
} from "./policy-rule";

/** Each host namespace switch of a pod spec and the variable that may open it. */
export const HOST_NAMESPACE_GATES: Readonly<Record<string, string>> = {
  host_network: "allow_host_network",
  host_pid: "allow_host_pid",
  host_ipc: "allow_host_ipc",
};

/**
 * No pod in the node's network, PID or IPC namespace unless gated by the matching opt-in
 * variable (`allow_host_network`, `allow_host_pid`, `allow_host_ipc`): the host network
 * puts a workspace beside the kubelet and other pods' node ports.
 */
export class HostNamespaces extends PolicyRule {
  readonly id = "no-host-namespaces";

  check(element: SynthesizedElement, context: PolicyContext): string[] {
    if (element.kind !== "resource" || !isKubernetesType(element.type)) return [];
    const reasons: string[] = [];
    const inspect = (
      block: Record<string, unknown>,
      path: string,
      dynamicForEach: readonly unknown[],
    ) => {
      for (const [attribute, gate] of Object.entries(HOST_NAMESPACE_GATES)) {
        if (!mayEnable(block[attribute])) continue;
        const reason = ungatedReason(block[attribute], dynamicForEach, gate, context, attribute);
        if (reason)
          reasons.push(`${element.address} ${path ? `${path}.` : ""}${attribute}: ${reason}`);
      }
    };
    inspect(element.body, "", []);
    walkBlocks(element.body, ({ block, path, dynamicForEach }) =>
      inspect(block, path, dynamicForEach),
    );
    return reasons;
  }
}
