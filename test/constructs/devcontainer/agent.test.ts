/**
 * DevcontainerAgent: coder_agent.main of the devcontainer template, its metadata showing the
 * Dev Container's state before the usual stats.
 */
import { execFileSync } from "node:child_process";
import { TerraformVariable } from "../../../lib/core/cdk";
import { Expr } from "../../../lib/core/expr";
import { coderProvider } from "../../../lib/constructs/providers";
import type { TemplateStack } from "../../../lib/constructs/template-stack";
import { DevcontainerAgent } from "../../../lib/devcontainer/agent";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import { synthConstruct, synthConstructToDir } from "../construct-stack";

function buildAgent(stack: TemplateStack): void {
  coderProvider(stack);
  const summary = new TerraformVariable(stack, "summary", { type: "string" });
  // The scripts are locals in a template: here variables, so the metadata must read them as given.
  const script = (name: string, text: string) =>
    Expr.of<string>(
      new TerraformVariable(stack, name, { type: "string", default: text }).stringValue,
    );
  new DevcontainerAgent(stack, "agent", {
    variablesMetadataScript: script("variables_script", "echo all set"),
    warningsMetadataScript: script("warnings_script", "echo none"),
    resourcesSummary: Expr.of<string>(summary.stringValue),
  });
}

it("is coder_agent.main without count, on amd64, with the built-in VS Code button off", () => {
  const agent = synthConstruct(buildAgent).resource.coder_agent.main;
  expect(agent).not.toHaveProperty("count");
  expect(agent).toMatchObject({ os: "linux", arch: "amd64", display_apps: { vscode: false } });
  // No deprecated `dir`, no startup script: the entrypoint and coder_scripts do the work.
  expect(agent).not.toHaveProperty("dir");
  expect(agent).not.toHaveProperty("startup_script");
});

it("lists the Dev Container items first, then the standard stats, with keys that sort that way", () => {
  const metadata: { key: string; display_name: string; script: string }[] =
    synthConstruct(buildAgent).resource.coder_agent.main.metadata;
  expect(metadata.map((m) => m.display_name)).toEqual([
    "Dev Container variables",
    "Resources (reserved / limit)",
    "Dev Container warnings",
    "CPU Usage",
    "RAM Usage",
    "Data Disk",
    "CPU Usage (Host)",
    "Memory Usage (Host)",
    "Load Average (Host)",
  ]);
  expect(metadata.slice(0, 3).map((m) => m.key)).toEqual([
    "7_devcontainer_variables",
    "9_resources",
    "8_devcontainer_warnings",
  ]);
  expect(metadata[0].script).toBe("${var.variables_script}");
  expect(metadata[2].script).toBe("${var.warnings_script}");
});

it("plans a resources script that echoes any summary verbatim, quotes and all", async () => {
  const summary = `2 / 4 cores; it's "$(id)" \${HOME} \`uname\``;
  const synthesized = synthConstructToDir(buildAgent);
  const harness = await TerraformHarness.start();
  try {
    const plan = await harness.plan(synthesized.dir, { variables: { summary } });
    const metadata = plan.resource("coder_agent.main").after.metadata as {
      key: string;
      script: string;
    }[];
    const script = metadata.find((m) => m.key === "9_resources")!.script;
    expect(execFileSync("sh", ["-c", script], { encoding: "utf8" })).toBe(`${summary}\n`);
  } finally {
    await harness.stop();
    synthesized.cleanup();
  }
});
