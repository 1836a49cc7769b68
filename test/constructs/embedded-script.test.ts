/**
 * embeddedScript(), synth-level: the file ships beside cdk.tf.json, where the assignments go
 * and how each value is written. (test/templates/devcontainer/embedded-script.test.ts plans a
 * script and runs it with sh.)
 */
import { TerraformOutput, TerraformVariable } from "../../lib/core/cdk";
import { assignmentLine, embeddedScript, shellQuote } from "../../lib/core/embedded-script";
import { readProjectFile } from "../../lib/core/project-root";
import { type ShippedFile, shippedFiles } from "../../lib/core/shipped-file";
import { synthConstruct } from "./construct-stack";

const WITHOUT_SHEBANG = "test/constructs/fixtures/script-without-shebang.txt";
const WITH_SHEBANG = "templates/devcontainer/scripts/after-lifecycle.sh";

/** The path Terraform reads a shipped script from. */
const shipped = (name: string) => `"\${path.module}/scripts/${name}"`;

it("ships a script without #! as it is and puts the assignments before its text", () => {
  let files: ShippedFile[] = [];
  const tf = synthConstruct((stack) => {
    new TerraformOutput(stack, "script", {
      value: embeddedScript(stack, WITHOUT_SHEBANG, [{ name: "GREETING", value: "hi" }]),
    });
    files = shippedFiles(stack);
  });
  expect(tf.output.script.value).toBe(
    `GREETING='hi'\n\${file(${shipped("script-without-shebang.txt")})}`,
  );
  expect(files.map((f) => [f.source, f.path])).toEqual([
    [WITHOUT_SHEBANG, "scripts/script-without-shebang.txt"],
  ]);
});

it("keeps the #! line first, then the assignments in order, then the file after its #! line", () => {
  const tf = synthConstruct((stack) => {
    new TerraformOutput(stack, "script", {
      value: embeddedScript(stack, WITH_SHEBANG, [
        { name: "A_ONE", value: "1" },
        { name: "B_TWO", value: "2" },
      ]),
    });
  });
  const shebang = readProjectFile(WITH_SHEBANG).split("\n")[0];
  expect(tf.output.script.value).toBe(
    `${shebang}\nA_ONE='1'\nB_TWO='2'\n` +
      `\${trimprefix(file(${shipped("after-lifecycle.sh")}), ${JSON.stringify(`${shebang}\n`)})}`,
  );
});

it("leaves the script's text out of the configuration", () => {
  const tf = synthConstruct((stack) => {
    new TerraformOutput(stack, "script", { value: embeddedScript(stack, WITH_SHEBANG) });
  });
  const body = readProjectFile(WITH_SHEBANG).split("\n").slice(1).join("\n");
  expect(body.length).toBeGreaterThan(200);
  expect(JSON.stringify(tf)).not.toContain(body.split("\n").find((l) => l.length > 40));
});

it("quotes literal values at synth time, ' as '\\'' and ${ escaped for Terraform", () => {
  expect(assignmentLine({ name: "X", value: "it's ${HOME}" })).toBe(`X='it'\\''s $\${HOME}'`);
  expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
});

it("base64-encodes literal values at synth time", () => {
  expect(assignmentLine({ name: "X", value: "echo ${x} 'y'", encoding: "base64" })).toBe(
    `X='${Buffer.from("echo ${x} 'y'").toString("base64")}'`,
  );
});

it("writes apply-time values as Terraform expressions: replace() for quoted, base64encode() for base64", () => {
  const tf = synthConstruct((stack) => {
    const v = new TerraformVariable(stack, "v", { type: "string" });
    new TerraformOutput(stack, "quoted", {
      value: assignmentLine({ name: "Q", value: v.stringValue }),
    });
    new TerraformOutput(stack, "encoded", {
      value: assignmentLine({ name: "E", value: v.stringValue, encoding: "base64" }),
    });
  });
  expect(tf.output.quoted.value).toBe(`Q='\${replace(var.v, "'", "'\\\\''")}'`);
  expect(tf.output.encoded.value).toBe("E='${base64encode(var.v)}'");
});

it("refuses an assignment whose name is not an upper-case shell variable name", () => {
  // Anything else would reach the script as shell code: the name is written unquoted.
  for (const name of ["lower", "xA", "Ax", "1A", "A-B", "A B", "A;rm", "A\nB", ""]) {
    expect(() => assignmentLine({ name, value: "v" })).toThrow(
      `embedded script: "${name}" is not an upper-case shell variable name`,
    );
  }
  expect(assignmentLine({ name: "_A1", value: "v" })).toBe("_A1='v'");
});
