/**
 * Scripts in main.tf and locals.tf are heredocs (lib/private/hcl-writer.ts): a heredoc must
 * give Terraform back exactly the bytes of the quoted string it replaces, and a string whose
 * bytes a heredoc cannot keep must stay quoted.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type HclBlock, hclHeredoc, hclQuoted, renderHclFile } from "../../lib/private/hcl-writer";
import { planExpressions } from "@coder-cdktf/terraform-harness";
import { terraformFmtCheck } from "../support/terraform-fmt";

/** Template strings (Terraform JSON's kind) that a heredoc can hold. */
const HEREDOC_CASES: readonly string[] = [
  "#!/bin/sh\necho one\n",
  '#!/bin/sh\nX=\'${replace("a\'b", "\'", "\'\\\\\'\'")}\'\n${upper("tail\\n")}',
  'quotes " and \\ backslashes\n  indented line\n\nafter a blank line\n',
  "escapes $${kept} and %%{kept}\nsecond\n",
  '${"starts with a sequence"}\n  then indented\n${lower("ENDS")}',
  "ends with two newlines\n\n",
  "unicode é ü 😀\n  and an indented line\n",
  "a tab\tinside\n",
];

/** Template strings a heredoc cannot hold: each stays a quoted string. */
const QUOTED_CASES: readonly string[] = [
  "one line",
  "ends with text\nno newline",
  "  every line\n  indented\n",
  "whitespace alone\n   \nline\n",
  "a carriage return\r\nline\n",
  'a strip marker\n${~ upper("x")}\n',
  "a line that is the marker\nEOT\n",
  "a combining mark\n\u0301starts this line\n",
];

describe("hclHeredoc", () => {
  it("writes multi-line strings as flush heredocs indented under the attribute", () => {
    expect(hclHeredoc("#!/bin/sh\necho one\n", "template", "  ")).toBe(
      "<<-EOT\n    #!/bin/sh\n    echo one\n  EOT",
    );
    expect(hclHeredoc('a\n${upper("b")}', "template", "")).toBe(
      '<<-EOT\n  a\n  ${upper("b")~}\nEOT',
    );
    expect(hclHeredoc("literal ${x}\n", "literal", "")).toBe("<<-EOT\n  literal $${x}\nEOT");
  });

  it.each(QUOTED_CASES)("keeps %j quoted", (text) => {
    expect(hclHeredoc(text, "template", "  ")).toBeUndefined();
  });

  it("gives Terraform the same values as the quoted strings, fmt-clean", async () => {
    const blocks: HclBlock[] = HEREDOC_CASES.flatMap((text, i): HclBlock[] => {
      const heredoc = hclHeredoc(text, "template", "  ");
      expect(heredoc).toBeDefined();
      return [
        {
          type: "output",
          labels: [`quoted_${i}`],
          body: [{ kind: "attribute" as const, name: "value", value: text }],
        },
        {
          type: "output",
          labels: [`heredoc_${i}`],
          body: [{ kind: "attribute" as const, name: "value", value: text }],
        },
      ];
    });
    // A list's last element too (a container's command after "sh", "-c").
    const command = ["sh", "-c", "x".repeat(100), HEREDOC_CASES[1]];
    blocks.push({
      type: "output",
      labels: ["list"],
      body: [{ kind: "attribute" as const, name: "value", value: command }],
    });
    // renderHclFile writes every multi-line attribute as a heredoc; the quoted twins are
    // written by hand.
    let text = renderHclFile(blocks, "template");
    HEREDOC_CASES.forEach((value, i) => {
      text = text.replace(
        new RegExp(`(output "quoted_${i}" \\{\\n  value = )<<-EOT\\n[\\s\\S]*?\\n  EOT`),
        (_m, head: string) => head + hclQuoted(value, "template"),
      );
    });
    expect(text.match(/<<-EOT/g)).toHaveLength(HEREDOC_CASES.length + 1);
    expect(terraformFmtCheck(text)).toEqual({ output: "", status: 0 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hcl-heredoc-"));
    try {
      fs.writeFileSync(path.join(dir, "main.tf"), text);
      const { values } = await planExpressions(dir);
      HEREDOC_CASES.forEach((_value, i) => {
        expect(typeof values[`quoted_${i}`]).toBe("string");
        expect(values[`heredoc_${i}`]).toBe(values[`quoted_${i}`]);
      });
      expect(values.list).toEqual(["sh", "-c", "x".repeat(100), values.quoted_1]);
      expect(values.heredoc_0).toBe("#!/bin/sh\necho one\n");
      expect(values.heredoc_1).toBe("#!/bin/sh\nX='a'\\''b'\nTAIL\n");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
