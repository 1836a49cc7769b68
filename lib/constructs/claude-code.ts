/**
 * Claude Code in the workspace (opt-in), for users who want an agent in their own terminal
 * besides Coder Agents (which run in Coder's control plane and need nothing in the workspace).
 * The registry's claude-code module (pinned) installs the CLI; a `coder_app` opens it in the
 * working directory. It signs in as the workspace's owner, never with a key the template
 * holds:
 *
 * - `ai_gateway`: through Coder's AI Gateway (Premium, Coder >= 2.30). The module points
 *   Claude Code at `<access URL>/api/v2/aibridge/anthropic` with the owner's own session
 *   token; the deployment holds the provider keys, and usage is the user's.
 * - `user_secret`: with the user's own Anthropic API key, a Coder user secret that sets
 *   `ANTHROPIC_API_KEY` (`coder secret create … --env ANTHROPIC_API_KEY`). The agent puts it
 *   into every terminal and app it starts; the template never declares or reads it (coder
 *   provider 2.18.0 removed `data.coder_secret`), and the app says how to create the secret
 *   when it is not there. No template-wide key exists in either mode.
 *
 * Everything is counted by the start count it is given (the template passes the claimed one:
 * an unclaimed prebuild belongs to Coder's `prebuilds` user, whose token must not sign in).
 */
import { Construct, Token } from "../core/cdk";
import { shellQuote } from "../core/embedded-script";
import { type Expr, hcl } from "../core/expr";
import { TemplateVariable } from "../core/template-variable";
import { oneOf } from "../core/validate";
import { RegistryModule } from "./registry-module";
import type { WorkspaceAgent } from "./workspace-agent";
import { WorkspaceApp } from "./workspace-app";

export const CLAUDE_CODE_MODULE = "registry.coder.com/coder/claude-code/coder";
/** v5: install and sign-in only (no Tasks, no AgentAPI); the AI Gateway input. */
export const CLAUDE_CODE_VERSION = "5.4.0";
/** How Claude Code signs in; see the module comment. */
export const CLAUDE_CODE_AUTH_MODES = ["ai_gateway", "user_secret"] as const;
export type ClaudeCodeAuth = (typeof CLAUDE_CODE_AUTH_MODES)[number];
/** The environment variable Claude Code reads its API key from, and the user secret's target. */
export const ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY";

/** The template variables `claude_code` (bool) and `claude_code_auth`. */
export class ClaudeCodeVariables extends Construct {
  public readonly enabled: TemplateVariable;
  public readonly auth: TemplateVariable;

  constructor(scope: Construct, id = "claude_code_variables") {
    super(scope, id);
    this.enabled = new TemplateVariable(scope, "claude_code", {
      type: "bool",
      default: false,
      nullable: false,
      description:
        "Install Claude Code in each workspace, signed in as the workspace's owner (see claude_code_auth). " +
        "Coder Agents need nothing in the workspace and work without it.",
    });
    this.auth = new TemplateVariable(scope, "claude_code_auth", {
      type: "string",
      default: "ai_gateway",
      nullable: false,
      rules: [oneOf(CLAUDE_CODE_AUTH_MODES)],
      description:
        "How Claude Code signs in: \"ai_gateway\" (Coder's AI Gateway with the owner's session token; Premium, Coder >= 2.30) " +
        `or "user_secret" (each user's own API key, a Coder user secret with the environment target ${ANTHROPIC_API_KEY_ENV}).`,
    });
  }
}

export interface ClaudeCodeProps {
  readonly agent: WorkspaceAgent;
  /** 1 while it should run (the claimed start count), else 0. */
  readonly startCount: number;
  /** Whether the template offers it (a `var.*` bool). */
  readonly enabled: Expr<boolean>;
  /** `"ai_gateway"` or `"user_secret"` (a `var.*` string). */
  readonly auth: string;
  /** Where Claude Code opens (the repository clone); a literal path. */
  readonly workdir: string;
}

/** What the app prints, in `user_secret` mode, when the user's secret is not in its environment. */
export const MISSING_API_KEY_HINT =
  `Claude Code signs in with your own Anthropic API key here: create a Coder user secret that sets ` +
  `${ANTHROPIC_API_KEY_ENV} (coder secret create anthropic-api-key --env ${ANTHROPIC_API_KEY_ENV}, ` +
  `or Secrets in your account settings), then restart the workspace.`;

/** `module.<id>` (claude-code) and `coder_app.<id>`. */
export class ClaudeCode extends Construct {
  public readonly agentModule: RegistryModule;
  public readonly app: WorkspaceApp;

  constructor(scope: Construct, id: string, props: ClaudeCodeProps) {
    super(scope, `${id}_agent`);
    if (!props.workdir.startsWith("/") || Token.isUnresolved(props.workdir)) {
      throw new Error(`${this.node.path}: workdir must be a literal absolute path`);
    }
    const count = Token.asNumber(hcl`${props.enabled} ? ${props.startCount} : 0`);
    const gateway = Token.asAny(hcl`${props.auth} == "ai_gateway"`);
    this.agentModule = new RegistryModule(this, id, {
      source: CLAUDE_CODE_MODULE,
      version: CLAUDE_CODE_VERSION,
      count,
      inputs: {
        agent_id: props.agent.id,
        workdir: props.workdir,
        enable_ai_gateway: gateway,
      },
    });
    // The hint names the variable only: the app's command never reads or prints its value.
    const keyCheck = `[ -n "\${${ANTHROPIC_API_KEY_ENV}:-}" ] || echo ${shellQuote(MISSING_API_KEY_HINT)}; `;
    const command = `cd ${shellQuote(props.workdir)} && claude`;
    this.app = new WorkspaceApp(this, id, {
      agent: props.agent,
      slug: "claude-code",
      displayName: "Claude Code",
      icon: "/icon/claude.svg",
      command: Token.asString(
        hcl`${props.auth} == "user_secret" ? ${keyCheck + command} : ${command}`,
      ),
      openIn: "slim-window",
      count,
    });
  }
}
