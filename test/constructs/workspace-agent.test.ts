/**
 * WorkspaceAgent: `coder_agent.<name>` for a Linux workspace, without a count, so that its id
 * and token stay the same across stops.
 */
import { TerraformOutput } from "../../lib/core/cdk";
import { coderProvider } from "../../lib/constructs/providers";
import { WorkspaceAgent } from "../../lib/constructs/workspace-agent";
import { item } from "../../lib/constructs/agent-metadata";
import { synthConstruct } from "./construct-stack";

it("is coder_agent.main for linux/amd64 by default, without count, metadata or startup script", () => {
  const tf = synthConstruct((stack) => {
    coderProvider(stack);
    new WorkspaceAgent(stack, "agent");
  });
  expect(Object.keys(tf.resource.coder_agent)).toEqual(["main"]);
  const agent = tf.resource.coder_agent.main;
  expect(agent).toMatchObject({ os: "linux", arch: "amd64" });
  // No count: the agent outlives a stop, so the token a running pod holds stays valid.
  expect(agent).not.toHaveProperty("count");
  expect(agent).not.toHaveProperty("metadata");
  expect(agent).not.toHaveProperty("startup_script");
  expect(agent).not.toHaveProperty("display_apps");
});

it("takes its address, architecture, metadata, env, display apps and startup script from props", () => {
  const tf = synthConstruct((stack) => {
    coderProvider(stack);
    new WorkspaceAgent(stack, "agent", {
      resourceName: "dev",
      arch: "arm64",
      metadata: [item("Uptime", "2_uptime", "uptime", 30)],
      env: { EDITOR: "vim" },
      displayApps: { vscode: false, webTerminal: true },
      startupScript: "echo started",
    });
  });
  expect(Object.keys(tf.resource.coder_agent)).toEqual(["dev"]);
  expect(tf.resource.coder_agent.dev).toMatchObject({
    arch: "arm64",
    env: { EDITOR: "vim" },
    startup_script: "echo started",
    display_apps: { vscode: false, web_terminal: true },
    metadata: [
      { display_name: "Uptime", key: "2_uptime", script: "uptime", interval: 30, timeout: 1 },
    ],
  });
});

it("exposes id, token and init script as references to its own resource", () => {
  const tf = synthConstruct((stack) => {
    coderProvider(stack);
    const agent = new WorkspaceAgent(stack, "agent", { resourceName: "dev" });
    new TerraformOutput(stack, "id", { value: agent.id });
    new TerraformOutput(stack, "token", { value: agent.token, sensitive: true });
    new TerraformOutput(stack, "init", { value: agent.initScript });
  });
  expect(tf.output.id.value).toBe("${coder_agent.dev.id}");
  expect(tf.output.token.value).toBe("${coder_agent.dev.token}");
  expect(tf.output.init.value).toBe("${coder_agent.dev.init_script}");
});
