/**
 * The CPU architecture of a workspace: one template variable sets both the agent's `arch`
 * (which agent binary its init script downloads) and the pod's `kubernetes.io/arch` node
 * selector, so the pod never lands on a node whose CPU cannot run that binary.
 */
import type { Construct } from "../core/cdk";
import { TemplateVariable } from "../core/template-variable";
import { oneOf } from "../core/validate";

/** The node label the template always sets: the agent binary is built for one architecture. */
export const ARCH_NODE_LABEL = "kubernetes.io/arch";

/** Architectures Coder builds agents for on Linux that Kubernetes nodes report. */
export const WORKSPACE_ARCHES = ["amd64", "arm64"] as const;

/** `var.arch` (default amd64): the workspace image must be built for it. */
export function workspaceArchVariable(scope: Construct): TemplateVariable {
  return new TemplateVariable(scope, "arch", {
    type: "string",
    default: "amd64",
    nullable: false,
    description:
      "CPU architecture of the workspace nodes (amd64 or arm64): the agent is downloaded for it and pods run only on nodes labelled kubernetes.io/arch with it. The image must be built for it.",
    rules: [oneOf(WORKSPACE_ARCHES)],
  });
}

/** The pod's node selector for `arch`. */
export function archNodeSelector(arch: string): Record<string, string> {
  return { [ARCH_NODE_LABEL]: arch };
}
