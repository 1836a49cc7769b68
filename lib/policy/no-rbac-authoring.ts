import { PolicyRule, type SynthesizedElement } from "./policy-rule";

/**
 * Roles, ClusterRoles and ClusterRoleBindings of any provider version
 * (`kubernetes_role`, `kubernetes_role_v1`, `kubernetes_cluster_role(_v1)`,
 * `kubernetes_cluster_role_binding(_v1)`).
 */
const RBAC_AUTHORING = /^kubernetes_(role|cluster_role|cluster_role_binding)(_v\d+)?$/;

/**
 * Templates only bind roles that cluster administrators own (a namespaced RoleBinding);
 * they never write permission rules, nor grant anything cluster-wide. A workspace build
 * runs with the provisioner's credentials, so a template that could author rules could
 * grant itself anything the provisioner can.
 */
export class NoRbacAuthoring extends PolicyRule {
  readonly id = "no-rbac-authoring";

  check(element: SynthesizedElement): string[] {
    if (element.kind !== "resource" || !RBAC_AUTHORING.test(element.type)) return [];
    const what = element.type.includes("binding")
      ? "a ClusterRoleBinding grants permissions cluster-wide"
      : "it writes RBAC rules";
    return [
      `${element.address}: templates must not author RBAC (${what}); bind an existing, ` +
        `administrator-owned Role with a namespaced RoleBinding instead`,
    ];
  }
}
