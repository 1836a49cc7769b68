import { Construct, Token, type TerraformProvider } from "../core/cdk";
import { SecretV1 } from "@cdktf/provider-kubernetes/lib/secret-v1";
import { TokenRequestV1 } from "@cdktf/provider-kubernetes/lib/token-request-v1";
import { hcl } from "../core/expr";
import type { WorkspaceObjectMeta } from "./workspace-labels";
import { checkConstructProp, TERRAFORM_NAME } from "../core/validate";

/** The shortest lifetime the API server (and the kubernetes provider) accept: 10 minutes. */
export const MIN_TOKEN_SECONDS = 600;

export interface SessionTokenProps {
  /**
   * Prefix of the addresses: `kubernetes_token_request_v1.<prefix>` and
   * `kubernetes_secret_v1.<prefix>_session`. @default the construct id
   */
  readonly resourcePrefix?: string;
  /** Provider of the cluster the service account lives on. @default the default kubernetes provider */
  readonly provider?: TerraformProvider;
  /** The service account's name (a reference to it, so the token waits for the account). */
  readonly serviceAccountName: string;
  /** The service account's namespace (the session Secret is created there too). */
  readonly namespace: string;
  /** Name of the session Secret the token is bound to. */
  readonly sessionName: string;
  readonly meta: WorkspaceObjectMeta;
  /** 1 while the workspace runs, 0 while it is stopped (`start_count`). */
  readonly count: number;
  /** Lifetime of each token, in seconds (at least {@link MIN_TOKEN_SECONDS}). */
  readonly expirationSeconds: number;
}

/**
 * A short-lived token for a service account, minted by the API server's TokenRequest each
 * time the workspace starts and bound to a session Secret that exists only while the
 * workspace runs. The API server accepts a bound token only while its object exists with
 * the same uid, so deleting the session Secret (a stop, a delete) revokes the token at once,
 * and without that the token expires after `expirationSeconds`. No
 * `kubernetes.io/service-account-token` Secret is ever created: nothing in the cluster holds
 * the token. The session Secret is empty (type Opaque). Both resources have
 * `count = start_count`, so every start plans a new token (a create after the stop's delete).
 */
export class SessionToken extends Construct {
  public readonly session: SecretV1;
  public readonly tokenRequest: TokenRequestV1;

  constructor(scope: Construct, id: string, props: SessionTokenProps) {
    super(scope, id);
    checkConstructProp(this, "resourcePrefix", props.resourcePrefix, TERRAFORM_NAME);
    const prefix = props.resourcePrefix ?? id;
    this.session = new SecretV1(this, `${prefix}_session`, {
      provider: props.provider,
      count: props.count,
      metadata: {
        name: props.sessionName,
        namespace: props.namespace,
        labels: props.meta.labels,
        annotations: props.meta.annotations,
      },
      type: "Opaque",
    });
    this.tokenRequest = new TokenRequestV1(this, prefix, {
      provider: props.provider,
      count: props.count,
      metadata: { name: props.serviceAccountName, namespace: props.namespace },
      spec: {
        expirationSeconds: props.expirationSeconds,
        boundObjectRef: {
          apiVersion: "v1",
          kind: "Secret",
          name: Token.asString(hcl`${this.session.fqn}[0].metadata[0].name`),
          uid: Token.asString(hcl`${this.session.fqn}[0].metadata[0].uid`),
        },
      },
    });
  }

  /**
   * The bearer token while the workspace runs, `""` while it is stopped; sensitive. Only for
   * building other sensitive values, e.g. a kubeconfig Secret.
   */
  get token(): string {
    return Token.asString(hcl`try(${this.tokenRequest.fqn}[0].token, "")`);
  }
}
