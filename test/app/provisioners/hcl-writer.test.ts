import { spawnSync } from "child_process";
import { hclQuoted, HclReference, renderHclFile } from "../../../lib/private/hcl-writer";
import { terraformEnvironment } from "@coder-cdktf/terraform-harness/src/terraform-cli";

// The HCL writer behind workspace_tags.tf: escaping, and the layout terraform fmt keeps.

describe("hclQuoted", () => {
  it("escapes quotes, backslashes and control characters", () => {
    expect(hclQuoted('a "b" \\c\nd\te\r\u0001', "template")).toBe(
      '"a \\"b\\" \\\\c\\nd\\te\\r\\u0001"',
    );
  });

  it("escapes interpolation and directives in literals only", () => {
    expect(hclQuoted("${x} %{if}", "literal")).toBe('"$${x} %%{if}"');
    expect(hclQuoted("${x} $${y}", "template")).toBe('"${x} $${y}"');
  });

  it("copies a template's sequences as the expressions they are, escaping only its text", () => {
    expect(hclQuoted('say "${join("\\n", [x, "}"])}"\n', "template")).toBe(
      '"say \\"${join("\\n", [x, "}"])}\\"\\n"',
    );
  });
});

describe("renderHclFile", () => {
  const file = renderHclFile(
    [
      {
        type: "data",
        labels: ["coder_parameter", "zone"],
        body: [
          { kind: "attribute", name: "name", value: "zone" },
          { kind: "attribute", name: "display_name", value: 'Zone "A"' },
          { kind: "attribute", name: "order", value: 3 },
          { kind: "attribute", name: "mutable", value: false },
          { kind: "attribute", name: "tags", value: ["a", null] },
          {
            kind: "block",
            block: {
              type: "option",
              labels: [],
              body: [{ kind: "attribute", name: "value", value: "a" }],
            },
          },
          { kind: "block", block: { type: "validation", labels: [], body: [] } },
        ],
      },
      {
        type: "data",
        labels: ["coder_workspace_tags", "t"],
        body: [
          { kind: "attribute", name: "id", value: "x" },
          {
            kind: "attribute",
            name: "tags",
            value: { zone: new HclReference("data.coder_parameter.zone.value"), "long-key": "x" },
          },
          { kind: "attribute", name: "count", value: 1 },
        ],
      },
    ],
    "literal",
  );

  it("writes blocks, aligned attributes (a value over several lines stands alone), lists and objects", () => {
    expect(file).toBe(
      [
        'data "coder_parameter" "zone" {',
        '  name         = "zone"',
        '  display_name = "Zone \\"A\\""',
        "  order        = 3",
        "  mutable      = false",
        '  tags         = ["a", null]',
        "",
        "  option {",
        '    value = "a"',
        "  }",
        "",
        "  validation {}",
        "}",
        "",
        'data "coder_workspace_tags" "t" {',
        '  id = "x"',
        "  tags = {",
        '    "zone"     = data.coder_parameter.zone.value',
        '    "long-key" = "x"',
        "  }",
        "  count = 1",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("is left unchanged by terraform fmt", () => {
    const run = spawnSync("terraform", ["fmt", "-"], {
      input: file,
      encoding: "utf8",
      env: terraformEnvironment(),
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(file);
  });

  it("refuses names and references that are not plain HCL", () => {
    expect(() => new HclReference("var.x + 1")).toThrow("not a plain HCL reference");
    expect(() =>
      renderHclFile(
        [
          {
            type: "data",
            labels: ["a", "b"],
            body: [{ kind: "attribute", name: "a b", value: 1 }],
          },
        ],
        "literal",
      ),
    ).toThrow('not a valid HCL attribute name: "a b"');
  });
});
