import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, Fn, TerraformOutput, TerraformStack, TerraformVariable } from "../../lib/core/cdk";
import { planExpressions } from "@coder-cdktf/terraform-harness/src/plan-expressions";
import { TerraformError } from "@coder-cdktf/terraform-harness/src/terraform-cli";

describe("planExpressions", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "pe-test-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("plans an inline stack: variables in, outputs out", async () => {
    const plan = await planExpressions(
      (stack) => {
        const cpu = new TerraformVariable(stack, "cpu", { type: "number" });
        new TerraformOutput(stack, "limit", { value: Fn.min([cpu.numberValue, 4]) });
        new TerraformOutput(stack, "label", { value: `cpu-${cpu.stringValue}` });
      },
      { cpu: 8 },
    );
    expect(plan.values).toEqual({ limit: 4, label: "cpu-8" });
    expect(plan.outputs.limit).toEqual({ value: 4, sensitive: false, unknown: false });
    expect(plan.checkFailures).toEqual([]);
  });

  it("plans a stack built on the caller's App, keeping sensitive values visible", async () => {
    const app = new App({ outdir: tempDir() });
    const stack = new TerraformStack(app, "sizing");
    const token = new TerraformVariable(stack, "token", { type: "string", sensitive: true });
    new TerraformOutput(stack, "header", { value: `Bearer ${token.stringValue}`, sensitive: true });
    const plan = await planExpressions(stack, { token: "s3cret" });
    expect(plan.outputs.header).toEqual({
      value: "Bearer s3cret",
      sensitive: true,
      unknown: false,
    });
  });

  it("returns failed check blocks as warnings and check failures", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "main.tf.json"),
      JSON.stringify({
        variable: { memory_gb: { type: "number" } },
        output: { memory: { value: "${var.memory_gb * 1024}" } },
        check: {
          fits: {
            assert: [
              { condition: "${var.memory_gb <= 16}", error_message: "memory_gb exceeds the node" },
              { condition: "${var.memory_gb >= 1}", error_message: "never shown" },
            ],
          },
        },
      }),
    );
    const plan = await planExpressions(dir, { memory_gb: 32 });
    expect(plan.values.memory).toBe(32768);
    expect(plan.checkFailures).toEqual(["memory_gb exceeds the node"]);
    expect(plan.warnings).toEqual([
      expect.objectContaining({ severity: "warning", summary: "Check block assertion failed" }),
    ]);
  });

  it("rejects with Terraform's diagnostics when a variable validation fails", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "main.tf.json"),
      JSON.stringify({
        variable: {
          cpu: {
            type: "number",
            validation: [{ condition: "${var.cpu > 0}", error_message: "cpu must be positive" }],
          },
        },
      }),
    );
    const failure = planExpressions(dir, { cpu: 0 });
    await expect(failure).rejects.toBeInstanceOf(TerraformError);
    await expect(failure).rejects.toThrow(/cpu must be positive/);
  });

  it("throws on a variable the configuration does not declare", async () => {
    await expect(
      planExpressions((stack) => new TerraformVariable(stack, "cpu", { type: "number" }), {
        cpu: 1,
        cpus: 2,
      }),
    ).rejects.toThrow(/not declared.*cpus/s);
  });
});
