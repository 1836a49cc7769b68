import { Construct } from "../core/cdk";
import { Script } from "../../.gen/providers/coder/script";
import { embeddedScript, type ShellAssignment } from "../core/embedded-script";
import { type Expr, hcl } from "../core/expr";
import type { DevcontainerWaitFor } from "./wait-for";

/**
 * The lifecycle hooks the login-blocking script can run, in order, with their input names:
 * those up to `waitFor` (DevcontainerWaitFor) get their script, the others "".
 */
export const LIFECYCLE_HOOKS: readonly (readonly [hook: string, variable: string])[] = [
  ["initializeCommand", "DC_HOOK_INITIALIZE_COMMAND"],
  ["onCreateCommand", "DC_HOOK_ON_CREATE_COMMAND"],
  ["updateContentCommand", "DC_HOOK_UPDATE_CONTENT_COMMAND"],
  ["postCreateCommand", "DC_HOOK_POST_CREATE_COMMAND"],
  ["postStartCommand", "DC_HOOK_POST_START_COMMAND"],
];

/**
 * The hooks after-lifecycle.sh runs in the background script when `waitFor` names an earlier
 * one, in order (initializeCommand and onCreateCommand always run before login).
 */
export const BACKGROUND_HOOKS: readonly (readonly [hook: string, variable: string])[] =
  LIFECYCLE_HOOKS.slice(2);

/** Where the background script records what it is doing, for the workspace page. */
export const BACKGROUND_STATE_FILE = "/tmp/devcontainer-lifecycle-background.state";

/**
 * The agent metadata script that shows {@link BACKGROUND_STATE_FILE} (one line the script
 * writes from fixed words and hook names): "starting" until the script has begun.
 */
export const BACKGROUND_STATE_METADATA_SCRIPT = `cat ${BACKGROUND_STATE_FILE} 2>/dev/null || echo starting`;

/** Where the postAttachCommand script records what it is doing, for the workspace page. */
export const POST_ATTACH_STATE_FILE = "/tmp/devcontainer-post-attach.state";

/** The agent metadata script that shows {@link POST_ATTACH_STATE_FILE} (fixed words, a hook name, numbers). */
export const POST_ATTACH_STATE_METADATA_SCRIPT = `cat ${POST_ATTACH_STATE_FILE} 2>/dev/null || echo starting`;

/** Where the scripts live, from the project root. */
export const SCRIPTS_DIR = "templates/devcontainer/scripts";

/**
 * The prelude of every script that runs a hook: it takes `${localEnv:NAME}` from the user's
 * own Coder secrets (DevcontainerUserSecrets).
 */
export const LOCALENV_SECRETS_SCRIPT = `${SCRIPTS_DIR}/local-env-secrets.sh`;

export interface DevcontainerScriptsProps {
  /**
   * 1 while starting, 0 when stopping (the scripts exist only with the pod), and 0 while the
   * workspace is an unclaimed prebuild (WorkspaceData.claimedStartCount).
   */
  readonly startCount: number;
  readonly agentId: string;
  /** The workspace folder (the hooks' working directory, and the clone target by default). */
  readonly workspaceFolder: Expr<string>;
  /**
   * Where the repository is cloned when not the workspace folder (workspaceMount's target,
   * {@link DevcontainerWorkspaceFolder.repositoryFolder}). @default the workspace folder
   */
  readonly repositoryFolder?: Expr<string>;
  /**
   * `"workspace"` when initializeCommand names the container's folder
   * (DevcontainerLocalWorkspaceFolder.initializeFolderVariable), else `""`: its
   * `$DEVCONTAINER_WORKSPACE_FOLDER` is then the clone. @default ""
   */
  readonly initializeFolderVariable?: Expr<string>;
  /** The `repository` and `branch` parameters. */
  readonly repository: Expr<string>;
  readonly branch: Expr<string>;
  /** The commit the image was built from, or "". */
  readonly commit: Expr<string>;
  /** Map of hook name → rendered sh script (hooks absent when unset). */
  readonly lifecycleScripts: Expr<Record<string, string>>;
  /** Which hooks run before login (`waitFor`). */
  readonly waitFor: DevcontainerWaitFor;
  /** The repository's VS Code extension IDs. */
  readonly vscodeExtensions: Expr<string[]>;
  /** The repository's merged VS Code settings as JSON text. */
  readonly vscodeSettings: Expr<string>;
  /** `var.vscode_extension`: the project's own extension (ID or VSIX URL), or "". */
  readonly ownExtension: Expr<string>;
  /**
   * The repository's `${localEnv:NAME}` names a user's Coder secret may give, space-separated
   * shell names ({@link DevcontainerUserSecrets.secretNames}). @default "" (none)
   */
  readonly localEnvSecretNames?: Expr<string>;
  /**
   * Seconds the login-blocking lifecycle script may run before the agent ends it (and the
   * user can log in); 0 is no limit. @default 0
   */
  readonly lifecycleTimeoutSeconds?: Expr<number>;
}

/**
 * The four `coder_script`s that run on every start (count = start_count):
 *
 * - `devcontainer_lifecycle` (blocks login): clones the branch on the first start, then
 *   runs the Dev Container hooks up to `waitFor` (default updateContentCommand);
 * - `devcontainer_lifecycle_background`: waits for it and, when it succeeded, runs the hooks
 *   after `waitFor` up to postStartCommand, in order, without blocking login; it records
 *   its state in {@link BACKGROUND_STATE_FILE} for the workspace page;
 * - `devcontainer_post_attach`: waits for the login-blocking script only and runs
 *   postAttachCommand when it succeeded (blocking login only when `waitFor` names it, and
 *   then for at most `lifecycleTimeoutSeconds`); it records its state in
 *   {@link POST_ATTACH_STATE_FILE};
 * - `devcontainer_vscode`: installs the extensions and merges the settings for both
 *   VS Code Desktop and vscode-web.
 *
 * Each embeds its .sh file with the inputs prepended: text as single-quoted words, hook
 * scripts and settings as base64, so repository content never meets a shell parser.
 */
export class DevcontainerScripts extends Construct {
  public readonly lifecycle: Script;
  public readonly background: Script;
  public readonly postAttach: Script;
  public readonly vscode: Script;

  constructor(scope: Construct, id: string, props: DevcontainerScriptsProps) {
    super(scope, id);
    const hook = (name: string) => hcl<string>`lookup(${props.lifecycleScripts}, ${name}, "")`;
    const blocking = (name: string) =>
      hcl<string>`${props.waitFor.blocksLogin(name)} ? ${hook(name)} : ""`.asString;
    const background = (name: string) =>
      hcl<string>`${props.waitFor.blocksLogin(name)} ? "" : ${hook(name)}`.asString;
    const common = { agentId: props.agentId, count: props.startCount, runOnStart: true };
    const hookScript = (file: string, inputs: readonly ShellAssignment[]) =>
      hookScriptText(this, props, file, inputs);

    this.lifecycle = new Script(this, "devcontainer_lifecycle", {
      ...common,
      displayName: "Dev Container lifecycle",
      icon: "/icon/docker.svg",
      startBlocksLogin: true,
      timeout: props.lifecycleTimeoutSeconds?.asNumber,
      script: hookScript("lifecycle.sh", [
        { name: "DC_WORKSPACE_FOLDER", value: props.workspaceFolder.asString },
        {
          name: "DC_REPOSITORY_FOLDER",
          value: (props.repositoryFolder ?? props.workspaceFolder).asString,
        },
        { name: "DC_REPOSITORY", value: props.repository.asString },
        { name: "DC_BRANCH", value: props.branch.asString },
        { name: "DC_COMMIT", value: props.commit.asString },
        {
          name: "DC_INITIALIZE_FOLDER_VARIABLE",
          value: props.initializeFolderVariable?.asString ?? "",
        },
        ...LIFECYCLE_HOOKS.map(([name, variable]) => ({
          name: variable,
          value: blocking(name),
          encoding: "base64" as const,
        })),
      ]),
    });
    this.background = new Script(this, "devcontainer_lifecycle_background", {
      ...common,
      displayName: "Dev Container lifecycle after login",
      icon: "/icon/docker.svg",
      startBlocksLogin: false,
      script: hookScript("after-lifecycle.sh", [
        { name: "DC_WORKSPACE_FOLDER", value: props.workspaceFolder.asString },
        { name: "DC_LOG_NAME", value: "devcontainer-lifecycle-after-login" },
        { name: "DC_STATE_FILE", value: BACKGROUND_STATE_FILE },
        ...BACKGROUND_HOOKS.map(([name, variable]) => ({
          name: variable,
          value: background(name),
          encoding: "base64" as const,
        })),
      ]),
    });
    this.postAttach = this.postAttachScript(props, common, hook("postAttachCommand"));
    this.vscode = new Script(this, "devcontainer_vscode", {
      ...common,
      displayName: "Dev Container VS Code extensions",
      icon: "/icon/code.svg",
      startBlocksLogin: false,
      script: embeddedScript(this, `${SCRIPTS_DIR}/vscode-extensions.sh`, [
        {
          name: "DC_VSCODE_EXTENSIONS",
          value: hcl<string>`join("\n", ${props.vscodeExtensions})`.asString,
        },
        {
          name: "DC_VSCODE_SETTINGS_B64",
          value: props.vscodeSettings.asString,
          encoding: "base64",
        },
        { name: "DC_VSCODE_OWN_EXTENSION", value: props.ownExtension.asString },
      ]),
    });
  }

  /** `devcontainer_post_attach`: postAttachCommand, after the login-blocking script. */
  private postAttachScript(
    props: DevcontainerScriptsProps,
    common: { readonly agentId: string; readonly count: number; readonly runOnStart: boolean },
    postAttachHook: Expr<string>,
  ): Script {
    // A postAttachCommand that blocks login (waitFor names it) gets the login-blocking
    // script's limit, from the agent (the coder_script timeout) and from the script itself a
    // little earlier, so that its state can say so on the workspace page (issue 43.7). One
    // that runs after login has none: it may be a dev server that never returns.
    const attachBlocks = props.waitFor.blocksLogin("postAttachCommand");
    const attachTimeout = hcl<number>`${attachBlocks} ? ${props.lifecycleTimeoutSeconds ?? 0} : 0`;
    return new Script(this, "devcontainer_post_attach", {
      ...common,
      displayName: "Dev Container postAttachCommand",
      icon: "/icon/docker.svg",
      startBlocksLogin: attachBlocks,
      timeout: attachTimeout.asNumber,
      script: hookScriptText(this, props, "after-lifecycle.sh", [
        { name: "DC_WORKSPACE_FOLDER", value: props.workspaceFolder.asString },
        { name: "DC_LOG_NAME", value: "devcontainer-post-attach" },
        { name: "DC_STATE_FILE", value: POST_ATTACH_STATE_FILE },
        {
          name: "DC_ATTACH_TIMEOUT_SECONDS",
          value: hcl<string>`tostring(${attachTimeout})`.asString,
        },
        {
          name: "DC_HOOK_POST_ATTACH_COMMAND",
          value: postAttachHook.asString,
          encoding: "base64",
        },
      ]),
    });
  }
}

/**
 * A shipped script that runs a hook, with its inputs: it first takes the user's own Coder
 * secrets for `${localEnv:NAME}` (the shared prelude, {@link LOCALENV_SECRETS_SCRIPT}).
 */
function hookScriptText(
  scope: Construct,
  props: DevcontainerScriptsProps,
  file: string,
  inputs: readonly ShellAssignment[],
): string {
  const secrets = {
    name: "DC_LOCALENV_SECRET_NAMES",
    value: props.localEnvSecretNames?.asString ?? "",
  };
  return embeddedScript(
    scope,
    `${SCRIPTS_DIR}/${file}`,
    [...inputs, secrets],
    [LOCALENV_SECRETS_SCRIPT],
  );
}
