import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { MISSING_API_KEY_HINT } from "../../../lib/constructs/claude-code";
import { join } from "node:path";
import { TerraformHarness, type PlanResult } from "@coder-cdktf/terraform-harness";
import {
  REQUIRED_VARIABLES,
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
} from "./synthesized-template";

// AI in packer-builder without Coder Tasks and without a shared key: the manual is installed
// as a workspace skill for Coder Agents (and Claude Code) at every start; Claude Code in the
// workspace is opt-in and signs in as the owner (AI Gateway) or with the owner's own user
// secret. The workspace's identity (pod, service accounts, kubeconfig, agent env) is the
// same with or without it.

const MANUAL = readFileSync(
  join(__dirname, "../../../templates/packer-builder/subagents/packer-builder.md"),
  "utf8",
);

const CLAUDE_CODE_ON = { ...REQUIRED_VARIABLES, claude_code: true };

describe("packer-builder AI agents", () => {
  let tf: TerraformHarness;
  let template: SynthesizedPackerBuilder;
  let off: PlanResult;
  let gateway: PlanResult;
  let userSecret: PlanResult;
  let stopped: PlanResult;
  let prebuild: PlanResult;

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
    const on = CLAUDE_CODE_ON;
    [off, gateway, userSecret, stopped, prebuild] = await Promise.all([
      tf.plan(template.dir, { variables: REQUIRED_VARIABLES }),
      tf.plan(template.dir, { variables: on }),
      tf.plan(template.dir, { variables: { ...on, claude_code_auth: "user_secret" } }),
      tf.plan(template.dir, { variables: on, workspace: { startCount: 0 } }),
      tf.plan(template.dir, { variables: on, workspace: { is_prebuild: true } }),
    ]);
  }, 180_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  const agentAddresses = (plan: PlanResult) =>
    plan
      .addresses()
      .filter((a) => a.startsWith("module.claude_code") || a.startsWith("coder_app.claude_code"));
  // Data sources the template reads that hold a credential: none, in every mode.
  const secrets = (plan: PlanResult) =>
    plan.resourceChanges.filter((c) => c.mode === "data" && /secret/.test(c.type));

  it("declares no Coder Task and no template-wide AI key", () => {
    expect(template.config.resource.coder_ai_task).toBeUndefined();
    expect(template.config.data.coder_task).toBeUndefined();
    const variables = Object.keys(template.config.variable);
    // (harvester_token_hours is the Harvester token's lifetime, a number: no credential.)
    expect(variables.filter((v) => /ai_task|api_key|anthropic|token(?!_hours)/i.test(v))).toEqual(
      [],
    );
    // Nothing of the template's own configuration gives the module a key or token.
    const inputs = template.config.module.claude_code;
    expect(Object.keys(inputs).sort()).toEqual([
      "//",
      "agent_id",
      "count",
      "enable_ai_gateway",
      "source",
      "version",
      "workdir",
    ]);
  });

  it("installs the manual as a skill at every start, verbatim, also with Claude Code off", () => {
    const script = off.resource("coder_script.agent_manual[0]").after as Record<string, string>;
    expect(script.display_name).toBe("Install the agent manual");
    expect(script.run_on_start).toBe(true);
    const b64 = /^SKILL_B64='([A-Za-z0-9+/=]+)'$/m.exec(script.script);
    expect(b64).not.toBeNull();
    expect(Buffer.from(b64![1], "base64").toString("utf8")).toBe(MANUAL);
    expect(script.script).toMatch(/^SKILL_NAME='packer-builder'$/m);
    expect(stopped.addresses()).not.toContain("coder_script.agent_manual[0]");
  });

  it("keeps the addresses of the volume and the identities; only the Task's are gone", () => {
    const contract = readFileSync(join(__dirname, "../../addresses/packer-builder.txt"), "utf8")
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("#"));
    expect(contract).toEqual(
      expect.arrayContaining([
        "kubernetes_persistent_volume_claim_v1.persistent",
        "kubernetes_service_account_v1.harvester_identity",
        "kubernetes_service_account_v1.workspace_identity",
        "kubernetes_secret_v1.packer_kubeconfig",
        "coder_agent.main",
        "module.claude_code",
      ]),
    );
    expect(contract.filter((a) => /coder_ai_task|coder_task/.test(a))).toEqual([]);
  });

  it("is off by default: no Claude Code, no secret requirement", () => {
    expect(agentAddresses(off)).toEqual([]);
    expect(secrets(off)).toEqual([]);
  });

  it("with the AI Gateway, signs in with the owner's session token at the gateway's URL", () => {
    expect(agentAddresses(gateway)).toEqual([
      "coder_app.claude_code[0]",
      "module.claude_code[0].coder_env.anthropic_auth_token[0]",
      "module.claude_code[0].coder_env.anthropic_base_url[0]",
      "module.claude_code[0].terraform_data.inputs",
    ]);
    const inputs = gateway.resource("module.claude_code[0].terraform_data.inputs").after as any;
    expect(inputs.input).toMatchObject({
      workdir: "/persistent/ggl_core_infra",
      enable_ai_gateway: true,
      anthropic_api_key_set: false,
      claude_code_oauth_token_set: false,
    });
    const token = gateway.resource("module.claude_code[0].coder_env.anthropic_auth_token[0]");
    expect(token.after.name).toBe("ANTHROPIC_AUTH_TOKEN");
    expect((token.afterSensitive as any).value).toBe(true);
    expect(
      gateway.resource("module.claude_code[0].coder_env.anthropic_base_url[0]").after.value,
    ).toBe("https://coder.example.com/api/v2/aibridge/anthropic");
    expect(secrets(gateway)).toEqual([]);
  });

  it("with user secrets, declares nothing and sets no env itself: the agent brings the owner's own", () => {
    expect(secrets(userSecret)).toEqual([]);
    expect(agentAddresses(userSecret)).toEqual([
      "coder_app.claude_code[0]",
      "module.claude_code[0].terraform_data.inputs",
    ]);
    expect(
      (userSecret.resource("module.claude_code[0].terraform_data.inputs").after as any).input,
    ).toMatchObject({ enable_ai_gateway: false, anthropic_api_key_set: false });
  });

  it("with user secrets, the app says how to create the secret when the owner has none", () => {
    const command = String(userSecret.resource("coder_app.claude_code[0]").after.command);
    // The check names the variable and never prints it; then Claude Code starts as usual.
    expect(command).toBe(
      `[ -n "\${ANTHROPIC_API_KEY:-}" ] || echo '${MISSING_API_KEY_HINT}'; cd '/persistent/ggl_core_infra' && claude`,
    );
    for (const [env, shown] of [
      [{ ANTHROPIC_API_KEY: "sk-ant-own" }, ""],
      [{}, MISSING_API_KEY_HINT],
    ] as const) {
      const run = spawnSync("sh", ["-c", command.replace(/ && claude$/, "")], {
        env: { PATH: process.env.PATH ?? "", ...env },
        encoding: "utf8",
      });
      expect(run.stdout.trim()).toBe(shown);
      expect(run.stdout).not.toContain("sk-ant-own");
    }
  });

  it("opens Claude Code in the clone from a terminal app", () => {
    expect(gateway.resource("coder_app.claude_code[0]").after).toMatchObject({
      slug: "claude-code",
      command: "cd '/persistent/ggl_core_infra' && claude",
    });
  });

  it("runs nothing of Claude Code when stopped or in an unclaimed prebuild", () => {
    expect(agentAddresses(stopped)).toEqual([]);
    expect(agentAddresses(prebuild)).toEqual([]);
    expect(secrets(prebuild)).toEqual([]);
  });

  it("refuses an unknown sign-in method at plan", async () => {
    await expect(
      tf.plan(template.dir, {
        variables: { ...REQUIRED_VARIABLES, claude_code: true, claude_code_auth: "shared_key" },
      }),
    ).rejects.toThrow(/claude_code_auth must be one of "ai_gateway", "user_secret"/);
  });

  it("changes nothing of the identity model: same pod, service accounts, kubeconfig and agent env", () => {
    for (const address of [
      "kubernetes_deployment_v1.main[0]",
      "coder_agent.main",
      "kubernetes_service_account_v1.workspace_identity",
      "kubernetes_secret_v1.packer_kubeconfig",
      "kubernetes_service_account_v1.harvester_identity",
    ]) {
      expect({ address, after: gateway.resource(address).after }).toEqual({
        address,
        after: off.resource(address).after,
      });
    }
    const bindings = (plan: PlanResult) => plan.resources("kubernetes_role_binding_v1").length;
    expect(bindings(gateway)).toBe(bindings(off));
  });
});
