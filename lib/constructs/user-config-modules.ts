/**
 * The user's own configuration in a workspace, through Coder's registry modules (pinned):
 *
 * - `module.dotfiles`: applies the user's dotfiles repository (`coder dotfiles`) at every
 *   start. It adds the workspace parameters "Dotfiles URL" and "Dotfiles Branch" (mutable,
 *   empty by default: nothing is applied), whose value the module checks against its URL rule
 *   before it reaches its script.
 * - `module.git_config`: the git author and committer (environment) and `user.name` /
 *   `user.email` (`git config --global`) from the workspace owner's Coder account. Users cannot
 *   override them here: every commit, a Coder Agent's too, is attributed to the account that
 *   made it, which is what Coder's template guidance for agents asks for.
 *
 * Each has a template variable to opt out (`dotfiles`, `git_config`, default true). Both run as
 * the user, so neither exists while the workspace is an unclaimed prebuild (owned by Coder's
 * `prebuilds` user; every coder_env attribute is ForceNew, so the claim would replace them):
 * the template passes its claimed start count.
 */
import { Construct, Token } from "../core/cdk";
import { hcl } from "../core/expr";
import { TemplateVariable } from "../core/template-variable";
import { RegistryModule } from "./registry-module";

/** The pinned releases (coder/registry `release/coder/<name>/v<version>`). */
export const USER_CONFIG_MODULES = {
  dotfiles: { source: "registry.coder.com/coder/dotfiles/coder", version: "1.4.2" },
  gitConfig: { source: "registry.coder.com/coder/git-config/coder", version: "1.0.34" },
} as const;

export interface UserConfigModulesProps {
  /** The agent's id. */
  readonly agentId: string;
  /** 1 while it should run (the claimed start count), else 0. */
  readonly startCount: number;
  /** `order` of the dotfiles parameters: after the template's own. */
  readonly parameterOrder: number;
}

/** Variables `dotfiles` and `git_config`, `module.dotfiles` and `module.git_config`. */
export class UserConfigModules extends Construct {
  public readonly dotfilesEnabled: TemplateVariable;
  public readonly gitConfigEnabled: TemplateVariable;
  public readonly dotfiles: RegistryModule;
  public readonly gitConfig: RegistryModule;

  constructor(scope: Construct, id: string, props: UserConfigModulesProps) {
    super(scope, id);
    this.dotfilesEnabled = new TemplateVariable(scope, "dotfiles", {
      type: "bool",
      default: true,
      nullable: false,
      description:
        "Offer users the Dotfiles URL parameter and apply their dotfiles repository at every start (Coder's dotfiles module).",
    });
    this.gitConfigEnabled = new TemplateVariable(scope, "git_config", {
      type: "bool",
      default: true,
      nullable: false,
      description:
        "Set git's author, committer and user.name/user.email from the owner's Coder account (Coder's git-config module).",
    });
    const counted = (enabled: TemplateVariable) =>
      Token.asNumber(hcl`${enabled.booleanValue} ? ${props.startCount} : 0`);
    this.dotfiles = new RegistryModule(this, "dotfiles", {
      ...USER_CONFIG_MODULES.dotfiles,
      count: counted(this.dotfilesEnabled),
      inputs: { agent_id: props.agentId, coder_parameter_order: props.parameterOrder },
    });
    this.gitConfig = new RegistryModule(this, "git_config", {
      ...USER_CONFIG_MODULES.gitConfig,
      count: counted(this.gitConfigEnabled),
      inputs: {
        agent_id: props.agentId,
        allow_username_change: false,
        allow_email_change: false,
      },
    });
  }

  /** 1 when git-config is off (and the workspace claimed): for a template's own git identity. */
  public withoutGitConfig(count: number): number {
    return Token.asNumber(hcl`${this.gitConfigEnabled.booleanValue} ? 0 : ${count}`);
  }
}
