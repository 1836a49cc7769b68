import { Construct, Token, type TerraformProvider } from "../core/cdk";
import { SecretV1 } from "@cdktf/provider-kubernetes/lib/secret-v1";
import { hcl } from "../core/expr";
import type { WorkspaceObjectMeta } from "./workspace-labels";

/** Key of the kubeconfig in the Secret (a file name when the Secret is mounted). */
export const KUBECONFIG_SECRET_KEY = "config";

export interface KubeconfigSecretProps {
  /** The address: `kubernetes_secret_v1.<resourceName>`. @default the construct id */
  readonly resourceName?: string;
  /** Provider of the cluster the Secret is created on. @default the default kubernetes provider */
  readonly provider?: TerraformProvider;
  readonly name: string;
  readonly namespace: string;
  readonly meta: WorkspaceObjectMeta;
  /** API server URL written into the kubeconfig, e.g. `https://harvester.example.com/k8s/clusters/local`. */
  readonly server: string;
  /**
   * The cluster's CA certificate, PEM (e.g. a token Secret's `ca.crt`); base64-encoded into
   * the file. When it is `""` at apply time the file has no `certificate-authority-data`, and
   * clients verify the server with their own trust store.
   */
  readonly caCertificate: string;
  /** The bearer token of the identity (e.g. a token Secret's `token`). */
  readonly token: string;
  /** Default namespace of the kubeconfig's only context. */
  readonly defaultNamespace: string;
  /** Name of the cluster entry. @default "cluster" */
  readonly clusterName?: string;
  /** Name of the user entry and of the context. @default "default" */
  readonly userName?: string;
}

/**
 * A Secret holding a kubeconfig for one token identity: one cluster (server + CA data),
 * one user (the bearer token) and one context with a default namespace, rendered with
 * `yamlencode` at apply time. The content is sensitive in Terraform (Secret data) and
 * never goes into an argument, label, output or log: pods mount it as a file.
 */
export class KubeconfigSecret extends Construct {
  public readonly secret: SecretV1;

  constructor(scope: Construct, id: string, props: KubeconfigSecretProps) {
    super(scope, id);
    const cluster = props.clusterName ?? "cluster";
    const user = props.userName ?? "default";
    const document = {
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        {
          name: cluster,
          // No CA data when there is no CA: a client then verifies with its own trust store.
          cluster: hcl`merge({ server = ${props.server} }, ${props.caCertificate} == "" ? {} : { "certificate-authority-data" = base64encode(${props.caCertificate}) })`,
        },
      ],
      users: [{ name: user, user: { token: props.token } }],
      contexts: [{ name: user, context: { cluster, user, namespace: props.defaultNamespace } }],
      "current-context": user,
    };
    this.secret = new SecretV1(this, props.resourceName ?? id, {
      provider: props.provider,
      metadata: {
        name: props.name,
        namespace: props.namespace,
        labels: props.meta.labels,
        annotations: props.meta.annotations,
      },
      type: "Opaque",
      data: { [KUBECONFIG_SECRET_KEY]: Token.asString(hcl`yamlencode(${document})`) },
    });
  }

  /** The Secret's name (a reference, so the pod waits for the Secret). */
  get secretName(): string {
    return this.secret.metadata.name;
  }
}
