import { Construct, type TerraformProvider } from "../core/cdk";
import { NamespaceV1 } from "@cdktf/provider-kubernetes/lib/namespace-v1";
import type { WorkspaceObjectMeta } from "./workspace-labels";

export interface WorkspaceNamespaceProps {
  /** The address: `kubernetes_namespace_v1.<resourceName>`. @default the construct id */
  readonly resourceName?: string;
  /** Provider of the cluster the namespace is created on. @default the default kubernetes provider */
  readonly provider?: TerraformProvider;
  /** The namespace's name: a DNS-1123 label of at most 63 characters. */
  readonly name: string;
  readonly meta: WorkspaceObjectMeta;
  /** 1 to create it, 0 not to (e.g. an opt-in variable). It must not follow start_count. */
  readonly count: number;
}

/**
 * A namespace of one workspace's own: it holds what the workspace creates there and, when
 * the workspace is deleted (`terraform destroy`), its deletion deletes all of it. It has no
 * start_count: it survives stops like the identities that live in it.
 */
export class WorkspaceNamespace extends Construct {
  public readonly namespace: NamespaceV1;

  constructor(scope: Construct, id: string, props: WorkspaceNamespaceProps) {
    super(scope, id);
    this.namespace = new NamespaceV1(this, props.resourceName ?? id, {
      provider: props.provider,
      count: props.count,
      metadata: {
        name: props.name,
        labels: props.meta.labels,
        annotations: props.meta.annotations,
      },
    });
  }
}
