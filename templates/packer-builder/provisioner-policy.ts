/**
 * The admission policy that limits the provisioner's Harvester identity (the user of
 * `/kubeconfig.yaml`) to what packer-builder makes with it: a ValidatingAdmissionPolicy and its
 * binding, generated from the names the template uses and the roles it binds
 * (`npm run admission-policy -- --provisioner-user <name>`, scripts/commands/admission-policy.ts).
 *
 * Why: the per-workspace mode needs that identity to create namespaces, and ServiceAccounts,
 * Secrets, tokens and RoleBindings in them, before they exist: RBAC can only grant that
 * cluster-wide. With it the identity (and any template pushed to the provisioners that hold
 * the kubeconfig) could create or delete any namespace, bind any role it holds or may `bind`
 * to anyone (itself included) in any namespace, and mint a token for any ServiceAccount of the
 * cluster. RBAC cannot say "only namespaces named like this, only these roles, only to these
 * accounts", so the policy says it in CEL. For requests by that identity only:
 *
 * - namespaces: created, updated and deleted only when named `packer-<workspace id>` (a UUID:
 *   never the shared `packer-dev` nor any other) and labeled as the template's, before and
 *   after the change;
 * - RoleBindings: only in the identity namespace, a `packer-<workspace id>` namespace or a
 *   namespace of a configured binding; only of the roles the template binds there (the
 *   operator's configuration, else the defaults), never a built-in broad ClusterRole
 *   (`cluster-admin`, `admin`, `edit`, `system:*`); and only to workspace ServiceAccounts
 *   (`coder-<workspace id>` in the identity namespace or a `packer-<workspace id>` one);
 * - ServiceAccounts, Secrets and ServiceAccount tokens (TokenRequests): only named
 *   `coder-<workspace id>` or `coder-<workspace id>-…`, in the identity namespace or a
 *   `packer-<workspace id>` one.
 *
 * Reads (get, list, watch) do not go through admission: what the identity can still read is
 * in docs/security.md ("The provisioner's identity on Harvester") and
 * docs/templates/packer-builder.md.
 */
import type { RoleBindingTarget } from "../../lib";
import {
  celString,
  denyingBinding,
  GENERATED_OBJECT_LABELS,
  objectsYaml,
} from "./admission-policy";
import type { PolicyValidation } from "./admission-policy";

/** What the policy is generated from: the identity, and the names and roles the template uses. */
export interface ProvisionerPolicyNames {
  /** The Kubernetes username of the `/kubeconfig.yaml` identity (`kubectl auth whoami`). */
  readonly provisionerUser: string;
  /** The shared identity namespace (the template's identityNamespace). */
  readonly identityNamespace: string;
  /** What a workspace's own namespace is called before its workspace id (`packer-`). */
  readonly buildNamespacePrefix: string;
  /** What every workspace identity's name starts with before the workspace id (`coder-`). */
  readonly identityPrefix: string;
  /** The label the template puts on the namespaces it creates. */
  readonly namespaceLabel: { readonly key: string; readonly value: string };
  /** The roles the template binds to each workspace identity (identityRoleBindingsOf). */
  readonly bindings: readonly RoleBindingTarget[];
  /** Name of the policy and of its binding. @default "packer-builder-provisioner" */
  readonly name?: string;
}

/** Built-in ClusterRoles no binding the policy admits may name (nor any `system:…`). */
export const NEVER_BOUND_CLUSTER_ROLES = ["cluster-admin", "admin", "edit"];

/** A workspace id as Coder makes it (a lowercase UUID), as a regular expression. */
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** `text` with the regular-expression metacharacters escaped (for RE2, in a CEL string). */
function regexLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A built-in ClusterRole that grants (nearly) everything: never in the allow-list. */
function isNeverBound(binding: RoleBindingTarget): boolean {
  return (
    binding.roleKind === "ClusterRole" &&
    (NEVER_BOUND_CLUSTER_ROLES.includes(binding.roleName) || binding.roleName.startsWith("system:"))
  );
}

/**
 * The roles a RoleBinding of the identity may name, per namespace, as `Kind/name`: in the
 * identity namespace the configured ones; in a workspace's own namespace the ClusterRoles of
 * the same names (the template binds those there); elsewhere the configured ones of that
 * namespace. Fails on a configured built-in broad ClusterRole (allowUnsafe in the template):
 * the policy never admits one, so the operator decides between the entry and the policy.
 */
export function allowedRoles(names: ProvisionerPolicyNames): {
  readonly buildNamespaces: readonly string[];
  readonly byNamespace: ReadonlyMap<string, readonly string[]>;
} {
  names.bindings.forEach((binding, i) => {
    if (isNeverBound(binding)) {
      throw new Error(
        `identityRoleBindings[${i}] binds the ClusterRole ${binding.roleName} (allowUnsafe): the provisioner policy never admits a binding of it; remove the entry or do not apply that policy`,
      );
    }
  });
  const byNamespace = new Map<string, string[]>();
  for (const { namespace, roleKind, roleName } of names.bindings) {
    const roles = byNamespace.get(namespace) ?? [];
    byNamespace.set(namespace, [...roles, `${roleKind}/${roleName}`]);
  }
  const buildNamespaces = names.bindings
    .filter((b) => b.namespace === names.identityNamespace)
    .map((b) => `ClusterRole/${b.roleName}`);
  return { buildNamespaces, byNamespace };
}

/** The policy's variables, in order (standard CEL only, like the build namespaces' policy). */
export function provisionerPolicyVariables(
  names: ProvisionerPolicyNames,
): { name: string; expression: string }[] {
  const roles = allowedRoles(names);
  const list = (items: readonly string[]) => `[${items.map(celString).join(", ")}]`;
  const byNamespace = `{${[...roles.byNamespace]
    .map(([ns, r]) => `${celString(ns)}: ${list(r)}`)
    .join(", ")}}`;
  const buildName = celString(`^${regexLiteral(names.buildNamespacePrefix)}${UUID}$`);
  const templateNamespace = (o: string) =>
    `${o} != null && has(${o}.metadata.name) && ${o}.metadata.name.matches(variables.buildNamespaceName) && has(${o}.metadata.labels) && ${celString(names.namespaceLabel.key)} in ${o}.metadata.labels && ${o}.metadata.labels[${celString(names.namespaceLabel.key)}] == ${celString(names.namespaceLabel.value)}`;
  return [
    { name: "buildNamespaceName", expression: buildName },
    {
      name: "identityName",
      expression: celString(`^${regexLiteral(names.identityPrefix)}${UUID}(-.+)?$`),
    },
    // A subject: exactly a workspace identity (never its Secrets' names, nor anything else).
    {
      name: "accountName",
      expression: celString(`^${regexLiteral(names.identityPrefix)}${UUID}$`),
    },
    // The namespaces the template makes its objects in: the shared one, and the workspaces' own.
    {
      name: "inTemplateNamespace",
      expression: `request.namespace == ${celString(names.identityNamespace)} || request.namespace.matches(variables.buildNamespaceName)`,
    },
    { name: "newNamespaceOwned", expression: templateNamespace("object") },
    { name: "oldNamespaceOwned", expression: templateNamespace("oldObject") },
    {
      name: "allowedRoles",
      expression: `request.namespace.matches(variables.buildNamespaceName) ? ${list(roles.buildNamespaces)} : request.namespace in ${byNamespace} ? ${byNamespace}[request.namespace] : []`,
    },
    // What the request writes: the new object's name, else (UPDATE, DELETE, a token) the request's.
    {
      name: "targetName",
      expression: `object != null && has(object.metadata) && has(object.metadata.name) && request.subResource == '' ? object.metadata.name : request.name`,
    },
  ];
}

/** A RoleBinding `o` binds an allowed role, never a broad one, to workspace accounts only. */
function roleBindingAllowed(o: string, names: ProvisionerPolicyNames): string {
  const identityNamespace = celString(names.identityNamespace);
  return (
    `(${o} == null || (${o}.roleRef.apiGroup == 'rbac.authorization.k8s.io' && ` +
    `(${o}.roleRef.kind + '/' + ${o}.roleRef.name) in variables.allowedRoles && ` +
    `has(${o}.subjects) && ${o}.subjects.all(s, s.kind == 'ServiceAccount' && ` +
    `s.name.matches(variables.accountName) && has(s.namespace) && ` +
    `(s.namespace == ${identityNamespace} || s.namespace.matches(variables.buildNamespaceName)))))`
  );
}

/** The validations, each refusing one thing, for the resource it names. */
export function provisionerPolicyValidations(names: ProvisionerPolicyNames): PolicyValidation[] {
  const on = (resource: string, check: string) =>
    `request.resource.resource != ${celString(resource)} || (${check})`;
  const me = "request.userInfo.username";
  const broad = (o: string) =>
    `(${o} != null && ${o}.roleRef.kind == 'ClusterRole' && (${o}.roleRef.name in ${`[${NEVER_BOUND_CLUSTER_ROLES.map(celString).join(", ")}]`} || ${o}.roleRef.name.startsWith('system:')))`;
  const roles = allowedRoles(names);
  const allowed = [
    ...[...roles.byNamespace].map(([ns, r]) => `in ${ns}: ${r.join(", ")}`),
    `in ${names.buildNamespacePrefix}<workspace id>: ${roles.buildNamespaces.join(", ") || "none"}`,
  ].join("; ");
  const namespaceRule = `'named ${names.buildNamespacePrefix}<workspace id> and labeled ${names.namespaceLabel.key}=${names.namespaceLabel.value}'`;
  return [
    {
      expression: on(
        "namespaces",
        `(request.operation == 'DELETE' || variables.newNamespaceOwned) && (request.operation == 'CREATE' || variables.oldNamespaceOwned)`,
      ),
      messageExpression: `${me} + ' creates, changes and deletes only namespaces ' + ${namespaceRule} + ', before and after the change'`,
      reason: "Forbidden",
    },
    {
      expression: on("rolebindings", `!${broad("object")} && !${broad("oldObject")}`),
      messageExpression: `${me} + ' may never bind cluster-admin, admin, edit or a system: ClusterRole'`,
      reason: "Forbidden",
    },
    {
      expression: on(
        "rolebindings",
        `${roleBindingAllowed("object", names)} && ${roleBindingAllowed("oldObject", names)}`,
      ),
      messageExpression: `'a RoleBinding of ' + ${me} + ' binds only the roles the template binds, to its workspace service accounts (${names.identityPrefix}<workspace id>): ' + ${celString(allowed)}`,
      reason: "Forbidden",
    },
    {
      // RoleBindings are placed by the allow-list (a configured binding may be elsewhere).
      expression: `request.resource.resource == 'namespaces' || ((request.resource.resource == 'rolebindings' || variables.inTemplateNamespace) && variables.targetName.matches(variables.identityName))`,
      messageExpression: `${me} + ' writes service accounts, Secrets, tokens and RoleBindings only named ${names.identityPrefix}<workspace id>[-…], and all but RoleBindings only in ${names.identityNamespace} or a ${names.buildNamespacePrefix}<workspace id> namespace'`,
      reason: "Forbidden",
    },
  ];
}

/** The ValidatingAdmissionPolicy and its binding (every namespace: the identity's requests only). */
export function provisionerPolicyObjects(names: ProvisionerPolicyNames): Record<string, unknown>[] {
  const name = names.name ?? "packer-builder-provisioner";
  const writes = ["CREATE", "UPDATE", "DELETE"];
  return [
    {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicy",
      metadata: { name, labels: GENERATED_OBJECT_LABELS },
      spec: {
        failurePolicy: "Fail",
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: [""],
              apiVersions: ["v1"],
              operations: [...writes],
              resources: ["namespaces", "serviceaccounts", "secrets"],
            },
            {
              apiGroups: [""],
              apiVersions: ["v1"],
              operations: ["CREATE"],
              resources: ["serviceaccounts/token"],
            },
            {
              apiGroups: ["rbac.authorization.k8s.io"],
              apiVersions: ["v1"],
              operations: [...writes],
              resources: ["rolebindings"],
            },
          ],
        },
        matchConditions: [
          {
            name: "provisioner-identity",
            expression: `request.userInfo.username == ${celString(names.provisionerUser)}`,
          },
        ],
        variables: provisionerPolicyVariables(names),
        validations: provisionerPolicyValidations(names),
      },
    },
    // No namespaceSelector: a Namespace object would be matched by its own labels, and a
    // namespace about to be made has none yet.
    denyingBinding(name, name),
  ];
}

/** The objects as one YAML file for `kubectl apply -f`. */
export function provisionerPolicyYaml(names: ProvisionerPolicyNames): string {
  const header =
    `# Generated by coder-cdktf (npm run admission-policy -- --provisioner-user …) for the\n` +
    `# packer-builder template: limits ${names.provisionerUser} to the namespaces, accounts, Secrets,\n` +
    `# tokens and RoleBindings the template makes. Apply on Harvester: kubectl apply -f <this file>.\n` +
    `# What it refuses and what the identity can still do: docs/security.md.\n`;
  return objectsYaml(header, provisionerPolicyObjects(names));
}
