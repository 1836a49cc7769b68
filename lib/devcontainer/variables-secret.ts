import { Construct } from "../core/cdk";
import { SecretV1 } from "@cdktf/provider-kubernetes/lib/secret-v1";
import type { WorkspaceObjectMeta } from "../constructs/workspace-labels";
import type { Expr } from "../core/expr";

/** The key of the Secret the pod's `DC_VARIABLES` is read from. */
export const VARIABLES_SECRET_KEY = "DC_VARIABLES";

export interface DevcontainerVariablesSecretProps {
  /** `coder-<workspace id>-variables`: one per workspace. */
  readonly name: string;
  readonly namespace: string;
  readonly meta: WorkspaceObjectMeta;
  /** The "Dev Container variables" parameter text (`NAME=value` lines). */
  readonly variablesText: Expr<string>;
}

/**
 * `kubernetes_secret_v1.devcontainer_variables`: the workspace's `${localEnv:NAME}` values,
 * which the pod reads through `secretKeyRef` (DC_VARIABLES) instead of a literal env value:
 * a Deployment's spec is readable by whoever may list Deployments in the namespace, and a
 * literal would show every user's tokens there.
 *
 * One Secret per workspace, with no count: it is created with the workspace and destroyed with
 * it (a stop keeps it, as it keeps the data volume; the pod it feeds is gone). Its value is the
 * parameter's text as the user wrote it; the user's own Coder secrets never pass through the
 * template (DevcontainerUserSecrets: the agent hands them to the lifecycle scripts).
 */
export class DevcontainerVariablesSecret extends Construct {
  public readonly secret: SecretV1;
  /** The Secret's name, as a reference (so the pod is created after it). */
  public readonly secretName: string;

  constructor(scope: Construct, id: string, props: DevcontainerVariablesSecretProps) {
    super(scope, id);
    this.secret = new SecretV1(this, "devcontainer_variables", {
      metadata: {
        name: props.name,
        namespace: props.namespace,
        labels: props.meta.labels,
        annotations: props.meta.annotations,
      },
      type: "Opaque",
      data: { [VARIABLES_SECRET_KEY]: props.variablesText.asString },
    });
    this.secretName = this.secret.metadata.name;
  }
}
