/**
 * The layout of long expressions (lib/private/hcl-layout.ts) and the shared scanner's tokens
 * (lib/private/hcl-template.ts). That a laid-out expression plans the same values is shown by
 * locals-file.test.ts and by every template's "same plan" test.
 */
import { formatSequence, layoutExpression, LINE_LIMIT } from "../../lib/private/hcl-layout";
import { expressionTokens } from "../../lib/private/hcl-template";
import { terraformFmtCheck } from "../support/terraform-fmt";

describe("expressionTokens", () => {
  it("keeps strings whole, names with dashes, and line breaks only inside braces", () => {
    expect(expressionTokens('f(a-b, "x ${y}") [\n1]').map((t) => t.text)).toEqual([
      "f",
      "(",
      "a-b",
      ",",
      '"x ${y}"',
      ")",
      "[",
      "1",
      "]",
    ]);
    expect(expressionTokens("{\na = 1\n}").map((t) => t.kind)).toEqual([
      "open",
      "newline",
      "word",
      "op",
      "word",
      "newline",
      "close",
    ]);
  });

  it("refuses heredocs, comments and unbalanced brackets", () => {
    expect(() => expressionTokens("<<EOT\nx\nEOT")).toThrow("heredoc");
    expect(() => expressionTokens("a # b")).toThrow("comment");
    expect(() => expressionTokens("f(a]")).toThrow('unbalanced "]"');
  });
});

describe("layoutExpression", () => {
  it("spaces tokens as terraform fmt does", () => {
    expect(layoutExpression("{a=1, b = [ 1,2 ]}", 0, "")).toBe("{ a = 1, b = [1, 2] }");
    expect(layoutExpression("[for x in (y) : x if (x)]", 0, "")).toBe("[for x in(y) : x if(x)]");
    expect(layoutExpression('a - -1 * local.m ["k"]', 0, "")).toBe('a - -1 * local.m["k"]');
  });

  it("leaves an expression it cannot read to the caller", () => {
    expect(layoutExpression("<<EOT\nx\nEOT", 0, "")).toBeUndefined();
  });

  it("breaks a long call one argument per line, within the limit and fmt-clean", () => {
    const long = `concat(${Array.from({ length: 8 }, (_, i) => `[local.value_number_${i}]`).join(", ")})`;
    const text = layoutExpression(long, 6, "  ")!;
    expect(text.split("\n")).toEqual([
      "concat(",
      ...Array.from({ length: 8 }, (_, i) => `    [local.value_number_${i}]${i < 7 ? "," : ""}`),
      "  )",
    ]);
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(LINE_LIMIT);
    expect(terraformFmtCheck(`locals {\n  x = ${text}\n}\n`)).toEqual({ output: "", status: 0 });
  });

  it("formats template sequences inside strings as fmt does", () => {
    expect(formatSequence("%{ if var.n > 1 }")).toBe("%{if var.n > 1}");
    expect(formatSequence("${ f( a ) }")).toBe("${f(a)}");
    expect(formatSequence("${~ x ~}")).toBe("${~ x ~}");
  });
});
