import { soleInterpolation, templateParts } from "../../lib/private/hcl-template";

// Template strings split into their text and their sequences (lib/private/hcl-template.ts).

describe("templateParts", () => {
  it("splits text from interpolations and directives, keeping escapes in the text", () => {
    expect(templateParts("a $${b} ${c} %%{d} %{ if e }f%{ endif }")).toEqual([
      { kind: "literal", text: "a $${b} " },
      { kind: "sequence", text: "${c}" },
      { kind: "literal", text: " %%{d} " },
      { kind: "sequence", text: "%{ if e }" },
      { kind: "literal", text: "f" },
      { kind: "sequence", text: "%{ endif }" },
    ]);
  });

  it("follows brackets, strings and templates inside strings to the closing brace", () => {
    const sequence = '${f({ a = "}" }, "x${y["}"]}\\"z", [1])}';
    expect(templateParts(`<${sequence}>`)).toEqual([
      { kind: "literal", text: "<" },
      { kind: "sequence", text: sequence },
      { kind: "literal", text: ">" },
    ]);
  });

  it("refuses what it cannot follow, naming the string", () => {
    expect(() => templateParts("${x")).toThrow(
      'template "${x": an interpolation that is never closed is not supported here',
    );
    expect(() => templateParts('${f("x)}')).toThrow("a string that is never closed");
    expect(() => templateParts("${f(x]}")).toThrow('unbalanced "]"');
    expect(() => templateParts("${<<EOT\nx\nEOT\n}")).toThrow("a heredoc inside an interpolation");
    expect(() => templateParts("${x # note\n}")).toThrow("a comment inside an interpolation");
  });
});

describe("soleInterpolation", () => {
  it("gives the expression of a template that is one interpolation", () => {
    expect(soleInterpolation("${var.a}")).toBe("var.a");
    expect(soleInterpolation('${ { "k" = [1, "}"] } }')).toBe('{ "k" = [1, "}"] }');
  });

  it("is undefined for anything else", () => {
    for (const template of [
      "plain",
      "${a}${b}",
      "${a}-",
      "-${a}",
      "$${a}",
      "${~ a}",
      "${a ~}",
      "%{ if a }x%{ endif }",
    ]) {
      expect({ template, expression: soleInterpolation(template) }).toEqual({
        template,
        expression: undefined,
      });
    }
  });
});
