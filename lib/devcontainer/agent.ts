import { Construct } from "../core/cdk";
import { item, standardMetadata } from "../constructs/agent-metadata";
import { type Expr, hcl } from "../core/expr";
import { WorkspaceAgent, type WorkspaceAgentProps } from "../constructs/workspace-agent";

export interface DevcontainerAgentProps {
  /** "Dev Container variables": prints `unset: …` or `all set` (DevcontainerWarnings). */
  readonly variablesMetadataScript: Expr<string>;
  /** "Dev Container warnings": prints `none` or `<n> - see the build log` (DevcontainerWarnings). */
  readonly warningsMetadataScript: Expr<string>;
  /** The "Resources (reserved / limit)" text (DevcontainerSizing.summary). */
  readonly resourcesSummary: Expr<string>;
  /**
   * "Dev Container lifecycle after login": prints what the non-blocking lifecycle script
   * (the hooks after waitFor) is doing or what failed. @default none shown
   */
  readonly backgroundLifecycleScript?: string;
  /**
   * "Dev Container postAttachCommand": prints what the postAttachCommand script is doing, or
   * that it timed out. @default none shown
   */
  readonly postAttachScript?: string;
  /** The Pod Security level the pod meets (DevcontainerRuntime.levelMet). @default none shown */
  readonly podSecurityLevel?: Expr<string>;
  /** @default "amd64" */
  readonly arch?: string;
  /** Memory and data-volume alerts. @default none */
  readonly resourcesMonitoring?: WorkspaceAgentProps["resourcesMonitoring"];
}

/**
 * `coder_agent.main` of the devcontainer template (no count, so its token survives stops).
 * No `dir` (deprecated): terminals and SSH start in $HOME, while the IDEs open the
 * workspace folder. The built-in VS Code button is off, as the vscode-desktop module
 * replaces it. The metadata shows the Dev Container's state first, then the usual stats.
 */
export class DevcontainerAgent extends Construct {
  public readonly agent: WorkspaceAgent;

  constructor(scope: Construct, id: string, props: DevcontainerAgentProps) {
    super(scope, id);
    // The summary is echoed as one single-quoted word.
    const resourcesScript =
      hcl<string>`format("echo '%s'", replace(${props.resourcesSummary}, "'", "'\\''"))`.asString;
    this.agent = new WorkspaceAgent(this, "agent", {
      arch: props.arch,
      displayApps: { vscode: false },
      resourcesMonitoring: props.resourcesMonitoring,
      // Kept at "all": the repository is cloned and pushed with the owner's external auth
      // token through the agent (GIT_ASKPASS), which no_user_data would block.
      apiKeyScope: "all",
      metadata: [
        item(
          "Dev Container variables",
          "7_devcontainer_variables",
          props.variablesMetadataScript.asString,
          60,
        ),
        item("Resources (reserved / limit)", "9_resources", resourcesScript, 3600),
        item(
          "Dev Container warnings",
          "8_devcontainer_warnings",
          props.warningsMetadataScript.asString,
          3600,
        ),
        ...(props.backgroundLifecycleScript === undefined
          ? []
          : [
              item(
                "Dev Container lifecycle after login",
                "8_devcontainer_lifecycle_after_login",
                props.backgroundLifecycleScript,
                10,
              ),
            ]),
        ...(props.postAttachScript === undefined
          ? []
          : [
              item(
                "Dev Container postAttachCommand",
                "8_devcontainer_post_attach",
                props.postAttachScript,
                10,
              ),
            ]),
        ...(props.podSecurityLevel === undefined
          ? []
          : [
              item(
                "Pod Security",
                "9_pod_security",
                // One of three fixed words, safe to echo.
                hcl<string>`format("echo %s", ${props.podSecurityLevel})`.asString,
                3600,
              ),
            ]),
        ...standardMetadata("Data Disk"),
      ],
    });
  }

  get id(): string {
    return this.agent.id;
  }
}
