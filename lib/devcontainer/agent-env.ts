import { Construct } from "../core/cdk";
import { Env } from "../../.gen/providers/coder/env";
import { type Expr, hcl } from "../core/expr";
import type { WorkspaceData } from "../constructs/workspace-data";

export interface DevcontainerAgentEnvProps {
  readonly workspace: WorkspaceData;
  /** The agent's id. */
  readonly agentId: string;
  /** The commit the image was built from, or "". */
  readonly imageCommit: Expr<string>;
  /** The `branch` parameter's value. */
  readonly branch: Expr<string>;
  /** The `rebuild` parameter's value. */
  readonly rebuild: Expr<string>;
  /**
   * Instances of the git author and committer variables: 0 where Coder's git-config module
   * sets them instead (two coder_env of one name would clash). @default the claimed count
   */
  readonly gitIdentityCount?: number;
}

/**
 * Environment the agent gives everything it starts (`coder_env`, no count):
 *
 * - `DEVCONTAINER_IMAGE_COMMIT`, `DEVCONTAINER_BRANCH`, `DEVCONTAINER_REBUILD`: read by the
 *   project's VS Code extension, which compares the image's commit with the branch and
 *   bumps `rebuild` through Coder's API when the configuration changed;
 * - the git author and committer, from the workspace owner. They exist only once a user owns
 *   the workspace (count = claimedCount): every attribute of a coder_env is ForceNew, so in a
 *   prebuild they would carry the `prebuilds` user and be replaced by the claim.
 */
export class DevcontainerAgentEnv extends Construct {
  public readonly variables: Env[];

  constructor(scope: Construct, id: string, props: DevcontainerAgentEnvProps) {
    super(scope, id);
    const owner = props.workspace.owner;
    const fullName = hcl<string>`coalesce(${owner.fullName}, ${owner.name})`;
    const always = undefined;
    const claimed = props.gitIdentityCount ?? props.workspace.claimedCount;
    const values: [string, string, string | Expr<string>, number | undefined][] = [
      ["devcontainer_image_commit", "DEVCONTAINER_IMAGE_COMMIT", props.imageCommit, always],
      ["devcontainer_branch", "DEVCONTAINER_BRANCH", props.branch, always],
      ["devcontainer_rebuild", "DEVCONTAINER_REBUILD", props.rebuild, always],
      ["git_author_name", "GIT_AUTHOR_NAME", fullName, claimed],
      ["git_committer_name", "GIT_COMMITTER_NAME", fullName, claimed],
      ["git_author_email", "GIT_AUTHOR_EMAIL", owner.email, claimed],
      ["git_committer_email", "GIT_COMMITTER_EMAIL", owner.email, claimed],
    ];
    this.variables = values.map(
      ([resourceName, name, value, count]) =>
        new Env(this, resourceName, {
          count,
          agentId: props.agentId,
          name,
          value: typeof value === "string" ? value : value.asString,
        }),
    );
  }
}
