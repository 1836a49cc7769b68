import { App, TerraformStack, TerraformVariable } from "../../lib/core/cdk";
import { CheckBlock } from "../../lib/core/check-block";
import { hcl } from "../../lib/core/expr";
import { planExpressions } from "@coder-cdktf/terraform-harness";

describe("CheckBlock", () => {
  it("synthesizes check.<name>.assert with condition and error_message", () => {
    const stack = new TerraformStack(new App({ outdir: "/tmp/check-block-unused" }), "s");
    const cpu = new TerraformVariable(stack, "cpu", { type: "number" });
    new CheckBlock(stack, "cpu_fits", {
      assertions: [
        { condition: hcl`${cpu.numberValue} <= 8`, errorMessage: "too many cores" },
        {
          condition: hcl`${cpu.numberValue} > 0`,
          errorMessage: hcl`format("cpu is %d", ${cpu.numberValue})`.toString(),
        },
      ],
    });
    const tf = JSON.parse(JSON.stringify(stack.toTerraform()));
    expect(tf.check).toEqual({
      cpu_fits: {
        assert: [
          { condition: "${var.cpu <= 8}", error_message: "too many cores" },
          { condition: "${var.cpu > 0}", error_message: '${format("cpu is %d", var.cpu)}' },
        ],
      },
    });
  });

  it("rejects an invalid name and an empty assertion list", () => {
    const stack = new TerraformStack(new App({ outdir: "/tmp/check-block-unused" }), "s");
    expect(
      () =>
        new CheckBlock(stack, "a", {
          name: "no spaces",
          assertions: [{ condition: true, errorMessage: "x" }],
        }),
    ).toThrow(/not a valid check block name/);
    expect(() => new CheckBlock(stack, "b", { assertions: [] })).toThrow(/at least one assertion/);
  });

  it("plans: a failed assertion is a warning with its message, a passing one is silent", async () => {
    const plan = await planExpressions(
      (stack) => {
        const cpu = new TerraformVariable(stack, "cpu", { type: "number" });
        new CheckBlock(stack, "cpu_fits", {
          assertions: [{ condition: hcl`${cpu.numberValue} <= 8`, errorMessage: "cpu over 8" }],
        });
        new CheckBlock(stack, "cpu_positive", {
          name: "cpu_is_positive",
          assertions: [
            { condition: hcl`${cpu.numberValue} > 0`, errorMessage: "cpu not positive" },
          ],
        });
      },
      { cpu: 16 },
    );
    expect(plan.checkFailures).toEqual(["cpu over 8"]);
    expect(plan.warnings.map((w) => w.summary)).toEqual(["Check block assertion failed"]);
  });
});
