import { Construct, type TerraformProvider } from "../core/cdk";
import { ServiceAccountV1 } from "@cdktf/provider-kubernetes/lib/service-account-v1";
import { RoleBindingV1 } from "@cdktf/provider-kubernetes/lib/role-binding-v1";
import { SecretV1 } from "@cdktf/provider-kubernetes/lib/secret-v1";
import type { WorkspaceObjectMeta } from "./workspace-labels";
import {
  checkConstructProp,
  DNS_LABEL,
  DNS_SUBDOMAIN,
  oneOf,
  RBAC_ROLE_NAME,
  TERRAFORM_NAME,
} from "../core/validate";

/** One binding of an existing, externally owned role to the service account. */
export interface RoleBindingTarget {
  /** Namespace of the RoleBinding (where the granted permissions apply). */
  readonly namespace: string;
  /** `Role` (in `namespace`) or `ClusterRole` (its rules, limited to `namespace`). */
  readonly roleKind: "Role" | "ClusterRole";
  /** Name of the existing role. The template never creates or changes it. */
  readonly roleName: string;
}

/**
 * A binding whose namespace or role kind is decided at apply time (e.g. by a template
 * variable). The address is still made of `namespace` and `roleName`, so it stays the same
 * whatever the value turns out to be.
 */
export interface ScopedRoleBinding extends RoleBindingTarget {
  /** The namespace at apply time (an expression). @default `namespace` */
  readonly namespaceValue?: string;
  /** The role kind at apply time (an expression giving `Role` or `ClusterRole`). @default `roleKind` */
  readonly roleKindValue?: string;
}

/** The kinds of role a RoleBinding may reference. */
const ROLE_KIND = oneOf(["Role", "ClusterRole"]);

export interface ScopedServiceAccountProps {
  /**
   * Prefix of the resource addresses: `kubernetes_service_account_v1.<prefix>`,
   * `kubernetes_role_binding_v1.<prefix>_<namespace>_<role>` and
   * `kubernetes_secret_v1.<prefix>_token`. Addresses are a contract with existing
   * workspaces. @default the construct id
   */
  readonly resourcePrefix?: string;
  /** The provider of the cluster the identity lives on. @default the default kubernetes provider */
  readonly provider?: TerraformProvider;
  /** Name of the service account; the RoleBindings are `<name>-<role name>`, the token Secret `<name>-token`. */
  readonly name: string;
  /** Namespace of the service account (and of its token Secret). */
  readonly namespace: string;
  /**
   * The account's namespace at apply time, when an expression decides it (e.g. a namespace
   * per workspace or a shared one). @default `namespace`
   */
  readonly namespaceValue?: string;
  readonly meta: WorkspaceObjectMeta;
  /** Existing roles to bind. @default [] */
  readonly bindings?: readonly ScopedRoleBinding[];
  /**
   * Whether pods running as this account get its token mounted automatically.
   * @default false: a token is handed out only on purpose (the token Secret).
   */
  readonly automountToken?: boolean;
  /**
   * Create a long-lived token Secret (`kubernetes.io/service-account-token`) for the
   * account and wait until the cluster fills it in. Its `token` and `ca.crt` are
   * sensitive values (see {@link ScopedServiceAccount.tokenSecretData}). @default false
   */
  readonly tokenSecret?: boolean;
}

/**
 * A per-workspace identity: a ServiceAccount, RoleBindings to roles that exist already,
 * and optionally a token Secret. It only ever **binds** roles; the rules belong to
 * whoever manages the cluster. No count: the identity exists while the workspace is
 * stopped and is deleted with it (`terraform destroy`).
 */
export class ScopedServiceAccount extends Construct {
  public readonly serviceAccount: ServiceAccountV1;
  public readonly roleBindings: readonly RoleBindingV1[];
  public readonly tokenSecret?: SecretV1;

  constructor(scope: Construct, id: string, props: ScopedServiceAccountProps) {
    super(scope, id);
    checkConstructProp(this, "resourcePrefix", props.resourcePrefix, TERRAFORM_NAME);
    checkConstructProp(this, "name", props.name, DNS_SUBDOMAIN);
    checkConstructProp(this, "namespace", props.namespace, DNS_LABEL);
    (props.bindings ?? []).forEach((target, i) => {
      checkConstructProp(this, `bindings[${i}].namespace`, target.namespace, DNS_LABEL);
      checkConstructProp(this, `bindings[${i}].roleKind`, target.roleKind, ROLE_KIND);
      checkConstructProp(this, `bindings[${i}].roleName`, target.roleName, RBAC_ROLE_NAME);
    });
    const prefix = props.resourcePrefix ?? id;
    const metadata = (name: string, namespace: string) => ({
      name,
      namespace,
      labels: props.meta.labels,
      annotations: props.meta.annotations,
    });

    const namespace = props.namespaceValue ?? props.namespace;
    this.serviceAccount = new ServiceAccountV1(this, prefix, {
      provider: props.provider,
      metadata: metadata(props.name, namespace),
      automountServiceAccountToken: props.automountToken ?? false,
    });

    const seen = new Map<string, string>();
    this.roleBindings = (props.bindings ?? []).map((target) => {
      const address = `${prefix}_${addressPart(target.namespace)}_${addressPart(target.roleName)}`;
      const key = `${target.namespace}/${target.roleName}`;
      const other = seen.get(key);
      if (other !== undefined) {
        throw new Error(
          `${this.node.path}: ${target.roleKind} ${target.roleName} and ${other} ${target.roleName} ` +
            `would both be bound as ${target.namespace}/<name>-${target.roleName}; bind a role name once per namespace`,
        );
      }
      seen.set(key, target.roleKind);
      return new RoleBindingV1(this, address, {
        provider: props.provider,
        metadata: metadata(
          `${props.name}-${target.roleName}`,
          target.namespaceValue ?? target.namespace,
        ),
        roleRef: {
          apiGroup: "rbac.authorization.k8s.io",
          kind: target.roleKindValue ?? target.roleKind,
          name: target.roleName,
        },
        subject: [{ kind: "ServiceAccount", name: props.name, namespace }],
      });
    });

    if (props.tokenSecret) {
      this.tokenSecret = new SecretV1(this, `${prefix}_token`, {
        provider: props.provider,
        metadata: {
          ...metadata(`${props.name}-token`, namespace),
          annotations: {
            ...props.meta.annotations,
            "kubernetes.io/service-account.name": props.name,
          },
        },
        type: "kubernetes.io/service-account-token",
        waitForServiceAccountToken: true,
        dependsOn: [this.serviceAccount],
      });
    }
  }

  /** The account's name (a reference, so dependents wait for it). */
  get name(): string {
    return this.serviceAccount.metadata.name;
  }

  /**
   * The token Secret's `data` map (`token`, `ca.crt`, `namespace`), decoded, sensitive.
   * Only for building other sensitive values, e.g. a kubeconfig Secret.
   */
  get tokenSecretData(): { [key: string]: string } {
    if (!this.tokenSecret) {
      throw new Error(`${this.node.path}: no token Secret (set tokenSecret: true)`);
    }
    return this.tokenSecret.data;
  }
}

/** A namespace or role name as part of a Terraform address. */
function addressPart(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_");
}
