import { Construct, type ITerraformDependable } from "../core/cdk";
import { PersistentVolumeClaimV1 } from "@cdktf/provider-kubernetes/lib/persistent-volume-claim-v1";
import type { WorkspaceObjectMeta } from "./workspace-labels";
import {
  ACCESS_MODES,
  checkConstructProp,
  DNS_LABEL,
  DNS_SUBDOMAIN,
  QUANTITY,
  TERRAFORM_NAME,
} from "../core/validate";

export interface DataVolumeProps {
  /**
   * The address: `kubernetes_persistent_volume_claim_v1.<resourceName>`. Renaming it
   * deletes users' data. @default the construct id
   */
  readonly resourceName?: string;
  readonly name: string;
  readonly namespace: string;
  /** Size at creation, e.g. `"10Gi"`. Later changes are ignored (see the class doc). */
  readonly size: string;
  readonly meta: WorkspaceObjectMeta;
  /** @default the cluster's default storage class */
  readonly storageClassName?: string;
  /** ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod. @default ["ReadWriteOnce"] */
  readonly accessModes?: readonly string[];
  /**
   * Created before the claim and, above all, deleted after it. A claim's delete waits until
   * no pod mounts it (see the class doc), so whatever a pod still needs while it terminates
   * (e.g. the credentials of a stop script) belongs here. @default []
   */
  readonly dependsOn?: readonly ITerraformDependable[];
}

/**
 * The persistent volume of a workspace (a PVC). It has no count: it outlives
 * stops and is deleted only with the workspace. Its address
 * (`kubernetes_persistent_volume_claim_v1.<resourceName>`) is a contract:
 * renaming it deletes users' data.
 *
 * The requested size is fixed at creation (`ignore_changes`): a value that
 * changes between builds would otherwise make Terraform try to resize, which
 * many storage classes cannot do, or replace the claim.
 *
 * Its delete is the one step of a `terraform destroy` that waits for the pod: the
 * kubernetes provider polls until the claim is gone, and Kubernetes keeps a claim that a
 * scheduled pod mounts (the `kubernetes.io/pvc-protection` finalizer) until that pod
 * object is removed, i.e. after its termination grace period and its stop scripts.
 */
export class DataVolume extends Construct {
  public readonly claim: PersistentVolumeClaimV1;

  constructor(scope: Construct, id: string, props: DataVolumeProps) {
    super(scope, id);
    checkConstructProp(this, "resourceName", props.resourceName, TERRAFORM_NAME);
    checkConstructProp(this, "name", props.name, DNS_SUBDOMAIN);
    checkConstructProp(this, "namespace", props.namespace, DNS_LABEL);
    checkConstructProp(this, "size", props.size, QUANTITY);
    checkConstructProp(this, "storageClassName", props.storageClassName, DNS_SUBDOMAIN);
    checkConstructProp(this, "accessModes", props.accessModes, ACCESS_MODES);
    this.claim = new PersistentVolumeClaimV1(this, props.resourceName ?? id, {
      dependsOn: props.dependsOn ? [...props.dependsOn] : undefined,
      metadata: {
        name: props.name,
        namespace: props.namespace,
        labels: props.meta.labels,
        annotations: props.meta.annotations,
      },
      waitUntilBound: false,
      spec: {
        accessModes: [...(props.accessModes ?? ["ReadWriteOnce"])],
        storageClassName: props.storageClassName,
        resources: { requests: { storage: props.size } },
      },
      lifecycle: { ignoreChanges: ["spec[0].resources[0].requests"] },
    });
  }

  /** The claim's name, for the pod's volume. */
  get claimName(): string {
    return this.claim.metadata.name;
  }
}
