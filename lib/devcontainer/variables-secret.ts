import { Construct, Token, type IResolvable } from "../core/cdk";
import { SecretV1 } from "@cdktf/provider-kubernetes/lib/secret-v1";
import { hcl, type HclValue } from "../core/hcl";
import type { WorkspaceObjectMeta } from "../constructs/workspace-labels";

/** The key of the Secret the pod's `DC_VARIABLES` is read from. */
export const VARIABLES_SECRET_KEY = "DC_VARIABLES";

export interface DevcontainerVariablesSecretProps {
  /** `coder-<workspace id>-variables`: one per workspace. */
  readonly name: string;
  readonly namespace: string;
  readonly meta: WorkspaceObjectMeta;
  /** The "Dev Container variables" parameter text (`NAME=value` lines). */
  readonly variablesText: string;
  /**
   * The user's secrets, name → value (DevcontainerUserSecrets.values): each non-empty value
   * without a line break replaces the parameter's lines of that name. @default none
   */
  readonly userSecrets?: IResolvable;
}

/**
 * The text the pod gets as DC_VARIABLES: the parameter's lines, without those of a name a
 * usable user secret gives (non-empty, no line break), then one `NAME=value` line per such
 * secret. The wrapper (dev-entrypoint.sh) takes a line's name as everything before its first
 * "=", and a later line of a name wins.
 */
export function variablesSecretText(variablesText: HclValue, userSecrets: HclValue): IResolvable {
  const usable = hcl`{ for name, value in ${userSecrets} : name => value if value != "" && !can(regex(${"[\r\n]"}, value)) }`;
  return hcl`join("\n", concat(
    [for line in split("\n", ${variablesText}) : line if !contains(keys(${usable}), split("=", line)[0])],
    [for name, value in ${usable} : format("%s=%s", name, value)]))`;
}

/**
 * `kubernetes_secret_v1.devcontainer_variables`: the workspace's `${localEnv:NAME}` values,
 * which the pod reads through `secretKeyRef` (DC_VARIABLES) instead of a literal env value:
 * a Deployment's spec is readable by whoever may list Deployments in the namespace, and a
 * literal would show every user's tokens there.
 *
 * One Secret per workspace, with no count: it is created with the workspace and destroyed with
 * it (a stop keeps it, as it keeps the data volume; the pod it feeds is gone). Its value is the
 * parameter's text with the lines of every name a user secret provides left out, then one
 * `NAME=value` line per such secret, last, so the user secret wins.
 */
export class DevcontainerVariablesSecret extends Construct {
  public readonly secret: SecretV1;
  /** The Secret's name, as a reference (so the pod is created after it). */
  public readonly secretName: string;

  constructor(scope: Construct, id: string, props: DevcontainerVariablesSecretProps) {
    super(scope, id);
    const text = variablesSecretText(props.variablesText, props.userSecrets ?? hcl`{}`);
    this.secret = new SecretV1(this, "devcontainer_variables", {
      metadata: {
        name: props.name,
        namespace: props.namespace,
        labels: props.meta.labels,
        annotations: props.meta.annotations,
      },
      type: "Opaque",
      data: { [VARIABLES_SECRET_KEY]: Token.asString(text) },
    });
    this.secretName = this.secret.metadata.name;
  }
}
