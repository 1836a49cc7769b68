/**
 * Coder Tasks for a workspace (opt-in): `coder_ai_task` tells Coder the workspace can run
 * a task, `data.coder_task` carries the prompt the user typed when starting it, and the
 * Claude Code module from Coder's registry (pinned; its AgentAPI web app is the task's
 * app) runs the agent in the workspace with an operating manual as its system prompt.
 *
 * The agent is a process of the Coder agent: it gets the agent's environment (so the same
 * kubeconfig and namespaces as a user's terminal) and nothing else. Nothing here adds an
 * identity, a token or a mount.
 */
import { Construct, Token, type IResolvable } from "../core/cdk";
import { AiTask } from "../../.gen/providers/coder/ai-task";
import { DataCoderTask } from "../../.gen/providers/coder/data-coder-task";
import { hcl } from "../core/hcl";
import { RegistryModule } from "./registry-module";

export const CLAUDE_CODE_MODULE = "registry.coder.com/coder/claude-code/coder";
/** The last release with Tasks support built in (its `task_app_id` output). */
export const CLAUDE_CODE_VERSION = "4.9.2";

export interface WorkspaceAiTaskProps {
  /** 1 while starting, 0 when stopping. */
  readonly startCount: number;
  /** Whether the template offers Tasks (a `var.*` bool). */
  readonly enabled: IResolvable;
  readonly agentId: string;
  /** Where the agent starts (the repository clone). */
  readonly workdir: string;
  /** The agent's standing instructions: an HCL expression (e.g. `file(…)` of a shipped manual). */
  readonly systemPrompt: string;
  /** Appended to the user's prompt, e.g. values the manual says to always pass. @default "" */
  readonly promptSuffix?: string;
  /** Sensitive `var.*` with the Anthropic API key ("" to use the module's other sign-ins). */
  readonly apiKey: string;
}

/** `data.coder_task.me`, `module.claude_code` and `coder_ai_task.task`. */
export class WorkspaceAiTask extends Construct {
  public readonly task: DataCoderTask;
  public readonly agentModule: RegistryModule;
  public readonly aiTask: AiTask;

  constructor(scope: Construct, id: string, props: WorkspaceAiTaskProps) {
    super(scope, id);
    const count = Token.asNumber(hcl`${props.enabled} ? ${props.startCount} : 0`);
    this.task = new DataCoderTask(this, "me", {});
    const prompt = Token.asString(
      hcl`join("\n\n", compact([${this.task.prompt}, ${props.promptSuffix ?? ""}]))`,
    );
    this.agentModule = new RegistryModule(this, "claude_code", {
      source: CLAUDE_CODE_MODULE,
      version: CLAUDE_CODE_VERSION,
      count,
      inputs: {
        agent_id: props.agentId,
        workdir: props.workdir,
        ai_prompt: prompt,
        system_prompt: props.systemPrompt,
        claude_api_key: props.apiKey,
        report_tasks: true,
      },
    });
    this.aiTask = new AiTask(this, "task", {
      count,
      appId: Token.asString(hcl`${this.agentModule.module.fqn}[0].task_app_id`),
    });
  }
}
