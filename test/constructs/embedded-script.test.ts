/**
 * embeddedScript(), synth-level: where the assignments go and how each value is written.
 * (test/devcontainer-template/embedded-script.test.ts plans a script and runs it with sh.)
 */
import { TerraformOutput, TerraformVariable } from "../../lib/cdk";
import { assignmentLine, embeddedScript, shellQuote } from "../../lib/embedded-script";
import { readProjectFile } from "../../lib/project-root";
import { synthConstruct } from "./construct-stack";

const WITHOUT_SHEBANG = "test/constructs/fixtures/script-without-shebang.txt";
const WITH_SHEBANG = "templates/devcontainer/scripts/post-attach.sh";

/** What Terraform makes of a template string without interpolations: `$${` → `${`, `%%{` → `%{`. */
function terraformUnescape(text: string): string {
  return text.replace(/\$\$\{/g, () => "${").replace(/%%\{/g, () => "%{");
}

/** `${` or `%{` that Terraform would evaluate (not preceded by the escaping `$` / `%`). */
const UNESCAPED = /(?<!\$)\$\{|(?<!%)%\{/;

it("puts the assignments at the top of a script without #!, and escapes its ${ and %{", () => {
  const script = embeddedScript(WITHOUT_SHEBANG, [{ name: "GREETING", value: "hi" }]);
  const [first, ...rest] = script.split("\n");
  expect(first).toBe("GREETING='hi'");
  const body = rest.join("\n");
  expect(body).not.toMatch(UNESCAPED);
  expect(terraformUnescape(body)).toBe(readProjectFile(WITHOUT_SHEBANG));
});

it("keeps the #! line first and puts the assignments right after it, in order", () => {
  const script = embeddedScript(WITH_SHEBANG, [
    { name: "A_ONE", value: "1" },
    { name: "B_TWO", value: "2" },
  ]);
  const [shebang, ...body] = readProjectFile(WITH_SHEBANG).split("\n");
  const lines = script.split("\n");
  expect(lines.slice(0, 3)).toEqual([shebang, "A_ONE='1'", "B_TWO='2'"]);
  expect(terraformUnescape(lines.slice(3).join("\n"))).toBe(body.join("\n"));
});

it("returns the file with only its ${ and %{ escaped when there are no assignments", () => {
  const script = embeddedScript(WITH_SHEBANG);
  expect(script).not.toMatch(UNESCAPED);
  expect(terraformUnescape(script)).toBe(readProjectFile(WITH_SHEBANG));
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
