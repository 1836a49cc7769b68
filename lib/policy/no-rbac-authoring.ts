import { literalManifestKind } from "./inspectable-resources";
import { PolicyRule, type SynthesizedElement } from "./policy-rule";

/**
 * Roles, ClusterRoles and ClusterRoleBindings of any provider version
 * (`kubernetes_role`, `kubernetes_role_v1`, `kubernetes_cluster_role(_v1)`,
 * `kubernetes_cluster_role_binding(_v1)`).
 */
const RBAC_AUTHORING = /^kubernetes_(role|cluster_role|cluster_role_binding)(_v\d+)?$/;

/** The same objects written as a generic manifest (`kubernetes_manifest`). */
const RBAC_KINDS = ["Role", "ClusterRole", "ClusterRoleBinding"];

/**
 * Templates only bind roles that cluster administrators own (a namespaced RoleBinding);
 * they never write permission rules, nor grant anything cluster-wide. A workspace build
 * runs with the provisioner's credentials, so a template that could author rules could
 * grant itself anything the provisioner can. A manifest whose kind is not a literal is
 * refused by the inspectable-resources rule.
 */
export class NoRbacAuthoring extends PolicyRule {
  readonly id = "no-rbac-authoring";

  check(element: SynthesizedElement): string[] {
    if (element.kind !== "resource") return [];
    const kind = /^kubernetes_manifest(_v\d+)?$/.test(element.type)
      ? literalManifestKind(element.body)
      : undefined;
    const authored = RBAC_AUTHORING.test(element.type) || RBAC_KINDS.includes(kind ?? "");
    if (!authored) return [];
    const what =
      element.type.includes("binding") || kind === "ClusterRoleBinding"
        ? "a ClusterRoleBinding grants permissions cluster-wide"
        : "it writes RBAC rules";
    return [
      `${element.address}${kind ? ` (kind ${kind})` : ""}: templates must not author RBAC (${what}); bind an existing, ` +
        `administrator-owned Role with a namespaced RoleBinding instead`,
    ];
  }
}
