import { Construct } from "../core/cdk";
import { Script } from "../../.gen/providers/coder/script";
import { typedConstructId } from "../core/construct-ids";
import { checkConstructProp, NON_EMPTY_STRING, wholeNumberBetween } from "../core/validate";
import type { WorkspaceAgent } from "./workspace-agent";

export interface WorkspaceScriptProps {
  readonly agent: WorkspaceAgent;
  /** Name in the workspace's build log and agent logs. */
  readonly displayName: string;
  /**
   * The script (a `#!` line first), e.g. from `embeddedScript()`, which ships it as a file and
   * quotes its inputs.
   */
  readonly script: string;
  /** Run when the agent starts. @default true (unless runOnStop or cron is set) */
  readonly runOnStart?: boolean;
  /** Run when the workspace stops. @default false */
  readonly runOnStop?: boolean;
  /** Run on a schedule (six-field cron, seconds first). @default none */
  readonly cron?: string;
  /** Users cannot log in until it finished. @default false */
  readonly startBlocksLogin?: boolean;
  /** Seconds before the agent gives up on it; 0 is no limit. @default 0 */
  readonly timeoutSeconds?: number;
  /** @default none */
  readonly icon?: string;
  /** Instances, e.g. the workspace's start_count. @default 1 */
  readonly count?: number;
}

/**
 * A `coder_script.<id>`: a script the agent runs at start, at stop or on a schedule. The
 * construct id rule is construct-ids.ts's: it may share its id with a `coder_app`.
 */
export class WorkspaceScript extends Construct {
  public readonly script: Script;

  constructor(scope: Construct, id: string, props: WorkspaceScriptProps) {
    super(scope, typedConstructId(scope, "coder_script", id));
    checkConstructProp(this, "displayName", props.displayName, NON_EMPTY_STRING);
    if (props.timeoutSeconds !== undefined) {
      checkConstructProp(
        this,
        "timeoutSeconds",
        props.timeoutSeconds,
        wholeNumberBetween(0, 86400),
      );
    }
    const scheduled = props.runOnStop === true || props.cron !== undefined;
    this.script = new Script(this, id, {
      agentId: props.agent.id,
      displayName: props.displayName,
      script: props.script,
      runOnStart: props.runOnStart ?? !scheduled,
      runOnStop: props.runOnStop ?? false,
      cron: props.cron,
      startBlocksLogin: props.startBlocksLogin ?? false,
      timeout: props.timeoutSeconds,
      icon: props.icon,
      count: props.count,
    });
  }
}
