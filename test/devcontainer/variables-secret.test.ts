/**
 * variablesSecretText (lib/devcontainer/variables-secret.ts): what the workspace's Secret gives
 * the pod as DC_VARIABLES, planned by Terraform. The wrapper takes a line's name as everything
 * before its first "=" and a later line wins (test/templates/devcontainer/dev-entrypoint.test.ts).
 */
import { TerraformOutput, TerraformVariable } from "../../lib/core/cdk";
import { variablesSecretText } from "../../lib/devcontainer/variables-secret";
import { planExpressions } from "@coder-cdktf/terraform-harness";

jest.setTimeout(60_000);

/** [what, parameter text, user secrets, expected text]. */
const CASES: [string, string, Record<string, string>, string][] = [
  ["no secrets: the parameter as typed", "A=1\r\n# note\nB=2=3", {}, "A=1\r\n# note\nB=2=3"],
  ["nothing at all", "", {}, ""],
  ["a secret replaces every line of its name", "T=a\nX=1\nT=b\r", { T: "s" }, "X=1\nT=s"],
  ["a secret without a line adds one", "X=1", { T: "s" }, "X=1\nT=s"],
  ["an empty secret (a stop's read) leaves the parameter's line", "T=a", { T: "" }, "T=a"],
  ["a secret with a line break is not used", "T=a", { T: "x\nY=injected" }, "T=a"],
  ["a carriage return counts as a line break", "", { T: "x\rY=1" }, ""],
  [
    "a line that only starts like the name is kept",
    "TOKEN=a\nT_X=b",
    { T: "s" },
    "TOKEN=a\nT_X=b\nT=s",
  ],
];

it.each(CASES.map((c, i) => [c[0], i] as const))("%s", async (_what, i) => {
  const [, text, secrets, expected] = CASES[i];
  const plan = await planExpressions(
    (stack) => {
      const t = new TerraformVariable(stack, "text", { type: "string" });
      const s = new TerraformVariable(stack, "secrets", { type: "map(string)", sensitive: true });
      new TerraformOutput(stack, "out", {
        value: variablesSecretText(t.stringValue, s.value),
        sensitive: true,
      });
    },
    { text, secrets },
  );
  expect(plan.values.out).toBe(expected);
});
