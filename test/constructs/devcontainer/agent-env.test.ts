/**
 * DevcontainerAgentEnv: the coder_env variables the VS Code extension and git read, present
 * whether or not the workspace runs.
 */
import { TerraformVariable } from "../../../lib/core/cdk";
import { Expr } from "../../../lib/core/expr";
import { coderProvider } from "../../../lib/constructs/providers";
import { WorkspaceAgent } from "../../../lib/constructs/workspace-agent";
import { WorkspaceData } from "../../../lib/constructs/workspace-data";
import { DevcontainerAgentEnv } from "../../../lib/devcontainer/agent-env";
import { synthConstruct, type TerraformJson } from "../construct-stack";

let env: Record<string, any>;
beforeAll(() => {
  const tf: TerraformJson = synthConstruct((stack) => {
    coderProvider(stack);
    const ws = new WorkspaceData(stack, "workspace");
    const agent = new WorkspaceAgent(stack, "agent");
    const input = (name: string) =>
      Expr.of<string>(new TerraformVariable(stack, name, { type: "string" }).stringValue);
    new DevcontainerAgentEnv(stack, "env", {
      workspace: ws,
      agentId: agent.id,
      imageCommit: input("image_commit"),
      branch: input("branch"),
      rebuild: input("rebuild"),
    });
  });
  env = tf.resource.coder_env;
});

it("declares one coder_env per variable, named after it, for the agent", () => {
  expect(Object.fromEntries(Object.entries(env).map(([address, e]) => [address, e.name]))).toEqual({
    devcontainer_image_commit: "DEVCONTAINER_IMAGE_COMMIT",
    devcontainer_branch: "DEVCONTAINER_BRANCH",
    devcontainer_rebuild: "DEVCONTAINER_REBUILD",
    git_author_name: "GIT_AUTHOR_NAME",
    git_committer_name: "GIT_COMMITTER_NAME",
    git_author_email: "GIT_AUTHOR_EMAIL",
    git_committer_email: "GIT_COMMITTER_EMAIL",
  });
  for (const e of Object.values(env)) expect(e.agent_id).toBe("${coder_agent.main.id}");
});

it("has no count for the image values: they exist while stopped too", () => {
  for (const name of ["devcontainer_image_commit", "devcontainer_branch", "devcontainer_rebuild"]) {
    expect(env[name]).not.toHaveProperty("count");
  }
});

it("creates the git identity only once a user owns the workspace (not in a prebuild)", () => {
  // coder_env is ForceNew: made for the prebuilds user, the claim would replace it.
  for (const name of [
    "git_author_name",
    "git_committer_name",
    "git_author_email",
    "git_committer_email",
  ]) {
    expect(env[name].count).toBe("${data.coder_workspace.me.is_prebuild ? 0 : 1}");
  }
});

it("passes the image commit, branch and rebuild counter through", () => {
  expect(env.devcontainer_image_commit.value).toBe("${var.image_commit}");
  expect(env.devcontainer_branch.value).toBe("${var.branch}");
  expect(env.devcontainer_rebuild.value).toBe("${var.rebuild}");
});

it("names the git author and committer by full name, else user name, and their e-mail", () => {
  const name =
    "${coalesce(data.coder_workspace_owner.me.full_name, data.coder_workspace_owner.me.name)}";
  expect(env.git_author_name.value).toBe(name);
  expect(env.git_committer_name.value).toBe(name);
  expect(env.git_author_email.value).toBe("${data.coder_workspace_owner.me.email}");
  expect(env.git_committer_email.value).toBe("${data.coder_workspace_owner.me.email}");
});
