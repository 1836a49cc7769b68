/**
 * embeddedScript(): values Terraform interpolates into a script stay inert shell words, and the
 * script's own ${…} survives Terraform. Planned with the real CLI, then run with sh.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformOutput, TerraformVariable } from "../../../lib/core/cdk";
import { assignmentLine, embeddedScript } from "../../../lib/core/embedded-script";
import { planExpressions } from "@coder-cdktf/terraform-harness";
import { runScript } from "../../support/run-script";

jest.setTimeout(60_000);

const HOSTILE = `it's "quoted" $(touch /tmp/pwned) \${HOME} %{ if } \`id\`\nsecond line`;

it("prepends quoted and base64 assignments that the script reads back unchanged", async () => {
  const plan = await planExpressions(
    (stack) => {
      const text = new TerraformVariable(stack, "text", { type: "string" });
      new TerraformOutput(stack, "script", {
        value: embeddedScript(stack, "test/templates/devcontainer/fixtures/print-inputs.sh", [
          { name: "TEXT", value: text.stringValue },
          { name: "LITERAL", value: "it's ${literal}" },
          { name: "ENCODED", value: text.stringValue, encoding: "base64" },
        ]),
      });
    },
    { text: HOSTILE },
  );
  const script = plan.values.script as string;
  expect(script.split("\n")[0]).toBe("#!/bin/sh");
  expect(script).toContain("${NOT_EXPANDED_BY_TERRAFORM}");

  const dir = mkdtempSync(join(tmpdir(), "embedded-script-"));
  try {
    const file = join(dir, "script.sh");
    writeFileSync(file, script);
    const run = await runScript({ script: file, env: { PATH: process.env.PATH ?? "" } });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(`${HOSTILE}|it's \${literal}|${HOSTILE}|`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("rejects names that are not upper-case shell variables", () => {
  expect(() => assignmentLine({ name: "lower", value: "x" })).toThrow(/shell variable name/);
  expect(() => assignmentLine({ name: "A-B", value: "x" })).toThrow(/shell variable name/);
});
