import {
  App,
  Fn,
  TerraformLocal,
  TerraformOutput,
  TerraformStack,
  TerraformVariable,
  Token,
} from "../../lib/core/cdk";
import { Expr, hcl, hclString } from "../../lib/core/expr";
import { planExpressions } from "@coder-cdktf/terraform-harness";

/** Synthesizes `build`'s elements and returns the stack's JSON. */
function synth(
  build: (stack: TerraformStack) => void,
): Record<string, Record<string, Record<string, unknown>>> {
  const app = new App({ outdir: "/tmp/hcl-test-unused" });
  const stack = new TerraformStack(app, "s");
  build(stack);
  return JSON.parse(JSON.stringify(stack.toTerraform()));
}

describe("hcl", () => {
  it("interpolates variable references as bare expressions", () => {
    const tf = synth((stack) => {
      const a = new TerraformVariable(stack, "a", { type: "number" });
      const b = new TerraformVariable(stack, "b", { type: "string" });
      new TerraformLocal(
        stack,
        "m",
        hcl`max(${a.numberValue}, tonumber(${b.stringValue}))`,
      ).overrideLogicalId("m");
    });
    expect(tf.locals.m).toBe("${max(var.a, tonumber(var.b))}");
  });
  it("quotes and escapes plain strings", () => {
    expect(hclString('a"b\\c\n${x}%{y}')).toBe('"a\\"b\\\\c\\n$${x}%%{y}"');
    const tf = synth((stack) => {
      new TerraformLocal(stack, "s", hcl`join(" · ", [${"CPU ${x}"}, ${'q"'}])`).overrideLogicalId(
        "s",
      );
    });
    expect(tf.locals.s).toBe('${join(" · ", ["CPU $${x}", "q\\""])}');
  });
  it("renders numbers, booleans, null, arrays and objects", () => {
    const tf = synth((stack) => {
      new TerraformLocal(
        stack,
        "v",
        hcl`[${1.5}, ${true}, ${null}, ${["a", 2]}, ${{ "nvidia.com/gpu": "1" }}]`,
      ).overrideLogicalId("v");
    });
    expect(tf.locals.v).toBe('${[1.5, true, null, ["a", 2], { "nvidia.com/gpu" = "1" }]}');
  });
  it("nests expressions in parentheses and references locals by name", () => {
    const tf = synth((stack) => {
      const x = new TerraformVariable(stack, "x", { type: "number" });
      const sum = hcl`${x.numberValue} + 1`;
      const local = new TerraformLocal(stack, "double", hcl`${sum} * 2`);
      local.overrideLogicalId("double");
      new TerraformOutput(stack, "o", { value: hcl`${local.asNumber} > 3` }).overrideLogicalId("o");
      new TerraformOutput(stack, "list", { value: hcl`length(${local.asList})` }).overrideLogicalId(
        "list",
      );
    });
    expect(tf.locals.double).toBe("${(var.x + 1) * 2}");
    expect(tf.output.o.value).toBe("${local.double > 3}");
    expect(tf.output.list.value).toBe("${length(local.double)}");
  });
  it("collapses line breaks of the TypeScript source and keeps HCL escapes raw", () => {
    const tf = synth((stack) => {
      const x = new TerraformVariable(stack, "x", { type: "string" });
      new TerraformLocal(
        stack,
        "l",
        hcl`
          split("\n",
            ${x.stringValue})
        `,
      ).overrideLogicalId("l");
    });
    expect(tf.locals.l).toBe('${split("\\n", var.x)}');
  });
  it("accepts cdktf function calls and map tokens", () => {
    const tf = synth((stack) => {
      const m = new TerraformVariable(stack, "m", { type: "map(string)" });
      new TerraformLocal(stack, "k", hcl`keys(${Token.asStringMap(m.value)})`).overrideLogicalId(
        "k",
      );
      new TerraformLocal(stack, "f", hcl`${Fn.lower(m.stringValue)} == "a"`).overrideLogicalId("f");
    });
    expect(tf.locals.k).toBe("${keys(var.m)}");
    expect(tf.locals.f).toBe('${lower(var.m) == "a"}');
  });
  it("rejects strings that mix text and tokens", () => {
    expect(() =>
      synth((stack) => {
        const x = new TerraformVariable(stack, "x", { type: "string" });
        new TerraformLocal(stack, "bad", hcl`upper(${`${x.stringValue}Gi`})`);
      }),
    ).toThrow(/mixes text and tokens/);
  });
});

describe("hcl (planned)", () => {
  it("evaluates to the literal strings and values it was given", async () => {
    const tricky = 'quote " backslash \\ newline \n template ${HOME} directive %{ if x } · done';
    const plan = await planExpressions(
      (stack) => {
        const n = new TerraformVariable(stack, "n", { type: "number" });
        const sum = hcl`${n.numberValue} + 1`;
        new TerraformOutput(stack, "text", { value: hcl`${tricky}` });
        new TerraformOutput(stack, "precedence", { value: hcl`${sum} * 2` });
        new TerraformOutput(stack, "object", {
          value: hcl`${{ "nvidia.com/gpu": "1", list: [1, true, null] }}`,
        });
      },
      { n: 2 },
    );
    expect(plan.values).toEqual({
      text: tricky,
      precedence: 6,
      object: { "nvidia.com/gpu": "1", list: [1, true, null] },
    });
  });
});

describe("Expr", () => {
  it("reads a token as it is, without parentheses inside another expression", () => {
    const json = synth((stack) => {
      const x = new TerraformVariable(stack, "x", { type: "number" });
      const read = Expr.of<number>(x.numberValue);
      new TerraformLocal(stack, "alone", read);
      new TerraformLocal(stack, "nested", hcl<number>`${read} * 2`);
      new TerraformLocal(stack, "sum", hcl<number>`${hcl<number>`${read} + 1`} * 2`);
    });
    expect(json.locals).toEqual({
      alone: "${var.x}",
      nested: "${var.x * 2}",
      sum: "${(var.x + 1) * 2}",
    });
  });

  it("converts to a binding's primitive tokens that resolve to the same expression", () => {
    const json = synth((stack) => {
      const x = new TerraformVariable(stack, "x", { type: "string" });
      const upper = hcl<string>`upper(${x.stringValue})`;
      new TerraformLocal(stack, "as_string", upper.asString);
      new TerraformLocal(stack, "as_list", upper.asList);
      new TerraformLocal(stack, "as_number", upper.asNumber);
      new TerraformLocal(stack, "as_map", upper.asStringMap);
    });
    expect(json.locals).toEqual({
      as_string: "${upper(var.x)}",
      as_list: "${upper(var.x)}",
      as_number: "${upper(var.x)}",
      as_map: "${upper(var.x)}",
    });
  });

  it("writes names, exact decimals and shipped files by rule, refusing anything else", () => {
    const json = synth((stack) => {
      new TerraformLocal(
        stack,
        "ref",
        hcl`[for entry in ${["a"]} : ${Expr.ref("entry.requests")}]`,
      );
      new TerraformLocal(stack, "number", hcl`${Expr.number("1152921504606846976")} * 2`);
      new TerraformLocal(stack, "file", hcl`chomp(${Expr.moduleFile("scripts/a-b_c.sh")})`);
    });
    expect(json.locals).toEqual({
      ref: '${[for entry in ["a"] : entry.requests]}',
      number: "${1152921504606846976 * 2}",
      file: '${chomp(file("${path.module}/scripts/a-b_c.sh"))}',
    });
    for (const bad of ["entry[0]", "a b", "x) || true", "", "a.", '"x"'])
      expect(() => Expr.ref(bad)).toThrow("is not a name or a dotted path of names");
    for (const bad of ["1e3", "0x10", "01", "1.", "1 + 1", ""])
      expect(() => Expr.number(bad)).toThrow("is not a decimal number");
    for (const bad of ["../x", "a/../b", "/abs", 'a"b', "a/${b}", "a//b", ""])
      expect(() => Expr.moduleFile(bad)).toThrow("is not a plain relative path");
  });
});
