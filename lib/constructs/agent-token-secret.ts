import { Construct, Token } from "../core/cdk";
import { SecretV1 } from "@cdktf/provider-kubernetes/lib/secret-v1";
import { hcl } from "../core/expr";
import type { WorkspaceAgent } from "./workspace-agent";
import type { WorkspaceData } from "./workspace-data";
import type { WorkspaceObjectMeta } from "./workspace-labels";

/** The key of the agent's token in its Secret. */
export const AGENT_TOKEN_SECRET_KEY = "token";

/** Where a container reads the agent's token from: a Secret's name and key. */
export interface AgentTokenSecretRef {
  /** The Secret's name, as a reference (so the pod is created after the Secret). */
  readonly secretName: string;
  /** The key holding the token. */
  readonly key: string;
}

export interface AgentTokenSecretProps {
  /** The address: `kubernetes_secret_v1.<resourceName>`. @default "agent_token" */
  readonly resourceName?: string;
  readonly workspace: WorkspaceData;
  readonly agent: WorkspaceAgent;
  /** The pod's namespace: a `secretKeyRef` reads only a Secret of its own namespace. */
  readonly namespace: string;
  /** Labels and annotations, e.g. `workspaceObjectMeta(ws, "agent-token")`. */
  readonly meta: WorkspaceObjectMeta;
  /** @default `coder-<workspace id>-agent-token` */
  readonly name?: string;
}

/**
 * `kubernetes_secret_v1.agent_token`: the agent's token, which the workspace container reads
 * through `secretKeyRef` (CODER_AGENT_TOKEN). As a literal env value it was in the Deployment's
 * pod template, which anyone with `view` on the namespace reads, and the token's scope is
 * `all` (issue 43.2); a Secret's data is what `view` does not show.
 *
 * Its count follows the workspace's start_count, like the pod: it is created with the
 * Deployment and deleted with it at every stop, so a stopped workspace leaves no token in the
 * namespace. Nothing is lost: it only copies `coder_agent.<name>.token` (Terraform state is
 * where the token lives), and the devcontainer template's agent gets a new token at each first
 * start after a stop anyway (its attributes follow the started image, and every `coder_agent`
 * attribute is ForceNew), so the Secret written at the start holds the token of the build that
 * runs. The `lifetime-resources-survive-stop` policy knows this Secret for what it is: data
 * that is only an agent's token.
 */
export class AgentTokenSecret extends Construct implements AgentTokenSecretRef {
  public readonly secret: SecretV1;
  public readonly secretName: string;
  public readonly key = AGENT_TOKEN_SECRET_KEY;

  constructor(scope: Construct, id: string, props: AgentTokenSecretProps) {
    super(scope, id);
    this.secret = new SecretV1(this, props.resourceName ?? "agent_token", {
      count: props.workspace.startCount,
      metadata: {
        name: props.name ?? `coder-${props.workspace.id}-agent-token`,
        namespace: props.namespace,
        labels: props.meta.labels,
        annotations: props.meta.annotations,
      },
      type: "Opaque",
      data: { [AGENT_TOKEN_SECRET_KEY]: props.agent.token },
    });
    this.secretName = Token.asString(hcl`${this.secret.fqn}[0].metadata[0].name`);
  }
}
