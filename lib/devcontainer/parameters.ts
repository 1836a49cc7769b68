import { Construct } from "../core/cdk";
import { escapeTemplateLiteral } from "../core/escape";
import { WorkspaceParameter } from "../constructs/workspace-parameter";
import { WORKSPACE_SIZES } from "../constructs/size-presets";
import { GIT_BRANCH_ERROR, GIT_BRANCH_PATTERN } from "./git-branch-name";
import { REPOSITORY_URL_ERROR, REPOSITORY_URL_PATTERN } from "./git-hosts";

/**
 * The workspace form of the devcontainer template, in order. Names, types, defaults,
 * options and mutability are a contract with existing workspaces (their stored values),
 * and with the VS Code extension, which bumps `rebuild` through Coder's API.
 *
 * Coder evaluates parameters once when the template is imported, so nothing here can
 * depend on the repository's devcontainer.json.
 */
export class DevcontainerParameters extends Construct {
  public readonly repository: WorkspaceParameter;
  public readonly branch: WorkspaceParameter;
  /** Cores: the workspace's CPU limit unless the repository asks for more. */
  public readonly cpu: WorkspaceParameter;
  /** GiB: the memory limit unless the repository asks for more. */
  public readonly memory: WorkspaceParameter;
  /** GiB: the PVC size at creation unless the repository asks for more. */
  public readonly diskSize: WorkspaceParameter;
  /** Raw `NAME=value` lines for `${localEnv:NAME}`; may hold secrets. */
  public readonly devcontainerVariables: WorkspaceParameter;
  /** A counter: a new value rebuilds the image under a new tag. */
  public readonly rebuild: WorkspaceParameter;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.repository = new WorkspaceParameter(this, "repository", {
      order: 1,
      displayName: "Git repository",
      description:
        "The git repository to work on (https://, ssh:// or git@host:path; no credentials in " +
        "the URL). Its " +
        ".devcontainer/devcontainer.json (or .devcontainer.json) defines the workspace; " +
        "without one the workspace gets the fallback image.",
      icon: "/icon/git.svg",
      mutable: false,
      validation: { regex: REPOSITORY_URL_PATTERN, error: REPOSITORY_URL_ERROR },
    });
    this.branch = new WorkspaceParameter(this, "branch", {
      order: 2,
      displayName: "Branch",
      description: "The branch whose Dev Container configuration is built and checked out.",
      default: "main",
      icon: "/icon/git.svg",
      mutable: false,
      validation: { regex: GIT_BRANCH_PATTERN, error: GIT_BRANCH_ERROR },
    });
    this.cpu = new WorkspaceParameter(this, "cpu", {
      order: 3,
      displayName: "CPU",
      description: "Number of CPU cores.",
      default: WORKSPACE_SIZES[0],
      icon: "/icon/memory.svg",
      mutable: true,
      options: WORKSPACE_SIZES.map((n) => ({ name: `${n} Cores`, value: n })),
    });
    this.memory = new WorkspaceParameter(this, "memory", {
      order: 4,
      displayName: "Memory",
      description: "Amount of memory in GiB.",
      default: WORKSPACE_SIZES[0],
      icon: "/icon/memory.svg",
      mutable: true,
      options: WORKSPACE_SIZES.map((n) => ({ name: `${n} GiB`, value: n })),
    });
    this.diskSize = new WorkspaceParameter(this, "disk_size", {
      order: 5,
      displayName: "Disk size",
      description:
        "Size in GiB of the persistent disk (the home and /workspaces). It is fixed when the " +
        "workspace is created.",
      type: "number",
      default: "10",
      icon: "/emojis/1f4be.png",
      mutable: false,
      validation: { min: 1, max: 99999 },
    });
    this.devcontainerVariables = new WorkspaceParameter(this, "devcontainer_variables", {
      order: 6,
      displayName: "Dev Container variables",
      // Literal ${…}: escaped, as Terraform strings are templates.
      description: escapeTemplateLiteral(
        "Values for ${localEnv:NAME} in devcontainer.json: one NAME=value per line. Changes " +
          "apply on the next restart. Anyone who can see this workspace's settings can read them.",
      ),
      type: "string",
      default: "",
      icon: "/icon/docker.svg",
      mutable: true,
      formType: "textarea",
      mayHoldSecrets: true,
    });
    this.rebuild = new WorkspaceParameter(this, "rebuild", {
      order: 7,
      displayName: "Rebuild",
      description:
        "Increase to rebuild the image from the branch's latest commit on the next start. " +
        "The working copy in the workspace is left as it is.",
      type: "number",
      default: "0",
      icon: "/icon/docker.svg",
      mutable: true,
    });
  }
}
