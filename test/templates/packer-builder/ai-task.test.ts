import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TerraformHarness, type PlanResult } from "@coder-cdktf/terraform-harness";
import {
  REQUIRED_VARIABLES,
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
} from "./synthesized-template";

// Coder Tasks in packer-builder: off by default; with ai_task = true the Claude Code module
// (pinned) runs with the shipped manual as its instructions, and the workspace's identity
// (pod service account, kubeconfig, agent env) is exactly what it is without the task.

describe("packer-builder AI task", () => {
  let tf: TerraformHarness;
  let template: SynthesizedPackerBuilder;
  let off: PlanResult;
  let on: PlanResult;
  let onStopped: PlanResult;

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
    const withTask = { ...REQUIRED_VARIABLES, ai_task: true, ai_task_anthropic_api_key: "sk-test" };
    [off, on, onStopped] = await Promise.all([
      tf.plan(template.dir, { variables: REQUIRED_VARIABLES }),
      tf.plan(template.dir, { variables: withTask }),
      tf.plan(template.dir, { variables: withTask, workspace: { startCount: 0 } }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  const taskAddresses = (plan: PlanResult) =>
    plan
      .addresses()
      .filter((a) => a.startsWith("coder_ai_task") || a.startsWith("module.claude_code"));

  it("is off by default", () => {
    expect(taskAddresses(off)).toEqual([]);
  });

  it("with ai_task, plans the task and the pinned Claude Code module while started, none when stopped", () => {
    expect(taskAddresses(on)).toEqual([
      "coder_ai_task.task[0]",
      "module.claude_code[0].coder_env.claude_api_key[0]",
      "module.claude_code[0].terraform_data.inputs",
    ]);
    expect(template.config.module.claude_code).toMatchObject({
      source: "registry.coder.com/coder/claude-code/coder",
      version: "4.9.2",
    });
    expect(taskAddresses(onStopped)).toEqual([]);
  });

  it("gives the agent the manual as instructions, the clone as workdir, and the three Packer variables in its prompt", () => {
    const inputs = on.resource("module.claude_code[0].terraform_data.inputs").after as any;
    const manual = readFileSync(
      join(__dirname, "../../../templates/packer-builder/subagents/packer-builder.md"),
      "utf8",
    );
    expect(inputs.input.system_prompt).toBe(manual);
    expect(inputs.input.workdir).toBe("/persistent/ggl_core_infra");
    expect(inputs.input.report_tasks).toBe(true);
    expect(inputs.input.ai_prompt).toContain(
      "-var kubeconfig=/etc/packer-kubeconfig.yaml -var namespace=packer-dev -var output_namespace=packer-dev",
    );
  });

  it("passes the API key from a sensitive variable, never a default", () => {
    expect(template.config.module.claude_code.claude_api_key).toBe(
      "${var.ai_task_anthropic_api_key}",
    );
    expect(template.config.variable.ai_task_anthropic_api_key).toMatchObject({
      sensitive: true,
      default: "",
    });
    // It reaches the agent's environment, and Terraform keeps it masked there.
    const env = on.resource("module.claude_code[0].coder_env.claude_api_key[0]");
    expect(env.after.name).toBe("ANTHROPIC_API_KEY");
    expect((env.afterSensitive as any).value).toBe(true);
  });

  it("changes nothing of the identity model: same pod, service account, kubeconfig and agent env", () => {
    for (const address of [
      "kubernetes_deployment_v1.main[0]",
      "coder_agent.main",
      "kubernetes_service_account_v1.workspace_identity",
      "kubernetes_secret_v1.packer_kubeconfig",
      "kubernetes_service_account_v1.harvester_identity",
    ]) {
      expect({ address, after: on.resource(address).after }).toEqual({
        address,
        after: off.resource(address).after,
      });
    }
    const bindings = (plan: PlanResult) => plan.resources("kubernetes_role_binding_v1").length;
    expect(bindings(on)).toBe(bindings(off));
  });
});
