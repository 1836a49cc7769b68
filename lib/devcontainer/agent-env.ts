import { Construct, Token } from "../cdk";
import { Env } from "../../.gen/providers/coder/env";
import { hcl } from "../hcl";
import type { WorkspaceData } from "../workspace-data";

export interface DevcontainerAgentEnvProps {
  readonly workspace: WorkspaceData;
  /** The agent's id. */
  readonly agentId: string;
  /** The commit the image was built from, or "". */
  readonly imageCommit: string;
  /** The `branch` parameter's value. */
  readonly branch: string;
  /** The `rebuild` parameter's value. */
  readonly rebuild: string;
}

/**
 * Environment the agent gives everything it starts (`coder_env`, no count):
 *
 * - `DEVCONTAINER_IMAGE_COMMIT`, `DEVCONTAINER_BRANCH`, `DEVCONTAINER_REBUILD`: read by the
 *   project's VS Code extension, which compares the image's commit with the branch and
 *   bumps `rebuild` through Coder's API when the configuration changed;
 * - the git author and committer, from the workspace owner.
 */
export class DevcontainerAgentEnv extends Construct {
  public readonly variables: Env[];

  constructor(scope: Construct, id: string, props: DevcontainerAgentEnvProps) {
    super(scope, id);
    const owner = props.workspace.owner;
    const fullName = hcl`coalesce(${owner.fullName}, ${owner.name})`;
    const values: [string, string, string | ReturnType<typeof hcl>][] = [
      ["devcontainer_image_commit", "DEVCONTAINER_IMAGE_COMMIT", props.imageCommit],
      ["devcontainer_branch", "DEVCONTAINER_BRANCH", props.branch],
      ["devcontainer_rebuild", "DEVCONTAINER_REBUILD", props.rebuild],
      ["git_author_name", "GIT_AUTHOR_NAME", fullName],
      ["git_committer_name", "GIT_COMMITTER_NAME", fullName],
      ["git_author_email", "GIT_AUTHOR_EMAIL", owner.email],
      ["git_committer_email", "GIT_COMMITTER_EMAIL", owner.email],
    ];
    this.variables = values.map(
      ([resourceName, name, value]) =>
        new Env(this, resourceName, {
          agentId: props.agentId,
          name,
          value: typeof value === "string" ? value : Token.asString(value),
        }),
    );
  }
}
