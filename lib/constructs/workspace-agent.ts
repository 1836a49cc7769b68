import { Construct } from "../core/cdk";
import {
  Agent,
  type AgentDisplayApps,
  type AgentMetadata,
  type AgentResourcesMonitoring,
} from "../../.gen/providers/coder/agent";

export interface WorkspaceAgentProps {
  /** The agent's address: `coder_agent.<resourceName>`. A contract with existing workspaces. @default "main" */
  readonly resourceName?: string;
  /** @default "amd64" */
  readonly arch?: string;
  /** Live stats shown on the workspace page (see agent-metadata.ts). @default [] */
  readonly metadata?: readonly AgentMetadata[];
  /** Built-in apps; leave unset for the provider's defaults. @default provider defaults */
  readonly displayApps?: AgentDisplayApps;
  /** Environment for everything the agent starts. @default {} */
  readonly env?: Record<string, string>;
  /** @default no startup script */
  readonly startupScript?: string;
  /** Memory and volume alerts (lib/constructs/resources-monitoring.ts). @default none */
  readonly resourcesMonitoring?: AgentResourcesMonitoring;
  /**
   * What the agent's token may reach: `no_user_data` keeps it from the owner's external
   * auth tokens and git SSH key, for a workspace that needs neither. @default provider's ("all")
   */
  readonly apiKeyScope?: "all" | "no_user_data";
}

/**
 * The Coder agent of a Linux workspace (`coder_agent.main` by default). It has no count:
 * it exists while the workspace is stopped, so its id and token are stable.
 */
export class WorkspaceAgent extends Construct {
  public readonly agent: Agent;

  constructor(scope: Construct, id: string, props: WorkspaceAgentProps = {}) {
    super(scope, id);
    this.agent = new Agent(this, props.resourceName ?? "main", {
      os: "linux",
      arch: props.arch ?? "amd64",
      metadata: props.metadata ? [...props.metadata] : undefined,
      displayApps: props.displayApps,
      env: props.env,
      startupScript: props.startupScript,
      resourcesMonitoring: props.resourcesMonitoring,
      apiKeyScope: props.apiKeyScope,
    });
  }

  get id(): string {
    return this.agent.id;
  }

  /** Sensitive: only ever passed to the pod through an env var. */
  get token(): string {
    return this.agent.token;
  }

  get initScript(): string {
    return this.agent.initScript;
  }
}
