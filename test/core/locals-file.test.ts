/**
 * Locals written in HCL (lib/private/locals-file.ts): the text, and real Terraform planning the same
 * values from locals.tf as from the cdk.tf.json cdktf writes.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { writeHclFiles } from "../../lib/private/hcl-files";
import { LOCALS_FILE, localNames, renderLocalsFile } from "../../lib/private/locals-file";
import { planExpressions } from "@coder-cdktf/terraform-harness";
import { terraformFmtCheck } from "../support/terraform-fmt";

jest.setTimeout(60_000);

/** Locals of every shape cdktf can write, with the values Terraform gives them. */
const LOCALS: Record<string, unknown> = {
  number: "${1 + 2}",
  object: '${{ "a.b/c" = var.n, "q\\"uote" = "}" }}',
  list: ["${var.n}", 2.5, true, null, "x"],
  template: 'n=${var.n} "quoted" $${not} %%{not} ${join("\\n", ["a", "b"])}\ttab',
  directive: "%{ if var.n > 1 }big%{ else }small%{ endif }",
  nested: { "key with space": { inner: "${local.number * 2}" }, "${var.k}": "dynamic key" },
  multiline: '${var.n > 1 ?\n  "yes" :\n  "no"}',
  plain: "C:\\path\\n",
  // Long enough to be broken over lines (lib/private/hcl-layout.ts).
  long_for:
    '${[for i, s in ["alpha", "beta", "gamma", "delta"] : { index = i, name = upper(s), long = format("%s-%s-%s", s, s, s) } if length(s) > 4 && !contains(["gamma"], s)]}',
  long_conditional:
    '${var.n > 100 ? "a very long string that is here to make the line long" : var.n > 5 ? "another long string to make it longer still" : "the last one"}',
  long_merge:
    '${merge([for k in ["one", "two", "three"] : { (k) = length(k) } if k != "never-ever-this-key-of-great-length"]...)}',
  long_map:
    "${{ for k, v in { alpha = 1, beta = 2, gamma = 3, delta = 4, epsilon = 5 } : k => v * var.n if v % 2 == 1 }}",
};

const EXPECTED: Record<string, unknown> = {
  number: 3,
  object: { "a.b/c": 7, 'q"uote': "}" },
  list: [7, 2.5, true, null, "x"],
  template: 'n=7 "quoted" ${not} %{not} a\nb\ttab',
  directive: "big",
  nested: { "key with space": { inner: 6 }, kk: "dynamic key" },
  multiline: "yes",
  plain: "C:\\path\\n",
  long_for: [
    { index: 0, name: "ALPHA", long: "alpha-alpha-alpha" },
    { index: 3, name: "DELTA", long: "delta-delta-delta" },
  ],
  long_conditional: "another long string to make it longer still",
  long_merge: { one: 3, two: 3, three: 5 },
  long_map: { alpha: 7, gamma: 21, epsilon: 35 },
};

function configuration(locals: Record<string, unknown>): Record<string, unknown> {
  return {
    variable: { n: { type: "number" }, k: { type: "string" } },
    locals,
    output: Object.fromEntries(
      Object.keys(locals).map((name) => [name, { value: `\${local.${name}}` }]),
    ),
  };
}

describe("renderLocalsFile", () => {
  const text = renderLocalsFile(LOCALS);

  it("writes one-interpolation strings as expressions and other strings as templates", () => {
    expect(text).toContain("  number    = 1 + 2\n");
    expect(text).toContain('  object    = { "a.b/c" = var.n, "q\\"uote" = "}" }\n');
    expect(text).toContain(
      '  template  = "n=${var.n} \\"quoted\\" $${not} %%{not} ${join("\\n", ["a", "b"])}\\ttab"\n',
    );
    expect(text).toContain('  list      = [var.n, 2.5, true, null, "x"]\n');
    // Line breaks in a short expression go: only whitespace changes (hcl-layout.ts).
    expect(text).toContain('  multiline = var.n > 1 ? "yes" : "no"\n');
  });

  it("breaks long expressions over lines as terraform fmt leaves them", () => {
    expect(terraformFmtCheck(text)).toEqual({ output: "", status: 0 });
    expect(text).toContain(
      [
        "  long_for = [",
        '    for i, s in ["alpha", "beta", "gamma", "delta"] : {',
        "      index = i",
        "      name  = upper(s)",
        '      long  = format("%s-%s-%s", s, s, s)',
        "    }",
        '    if length(s) > 4 && !contains(["gamma"], s)',
        "  ]",
      ].join("\n"),
    );
    expect(text).toContain(
      [
        "  long_conditional = (",
        "    var.n > 100",
        '    ? "a very long string that is here to make the line long"',
        '    : var.n > 5 ? "another long string to make it longer still" : "the last one"',
        "  )",
      ].join("\n"),
    );
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(100);
  });

  it("names every local it declares, and only those", () => {
    expect(localNames(text).sort()).toEqual(Object.keys(LOCALS).sort());
  });

  it("groups locals by construct, in the groups' order, under a comment naming each", () => {
    const grouped = renderLocalsFile(LOCALS, [
      { owner: "second (Second)", names: ["template", "number"] },
      { owner: "first (First)", names: ["list"] },
    ]);
    const lines = grouped.split("\n");
    const at = (line: string) => lines.indexOf(line);
    expect(at("# second (Second)")).toBe(at("locals {") - 1);
    expect(
      at("  template = " + lines[at("# second (Second)") + 2].split(" = ")[1]),
    ).toBeGreaterThan(0);
    expect(lines[at("# second (Second)") + 2]).toMatch(/^ {2}template = /);
    expect(lines[at("# second (Second)") + 3]).toMatch(/^ {2}number {3}= 1 \+ 2$/);
    expect(at("# first (First)")).toBeGreaterThan(at("# second (Second)"));
    expect(lines[at("# first (First)") + 2]).toMatch(/^ {2}list = /);
    // The rest follow, in one block of their own.
    expect(grouped).toContain("# declared outside any construct\nlocals {\n  object ");
    expect(localNames(grouped).sort()).toEqual(Object.keys(LOCALS).sort());
  });

  it("writes a local's why above it, wrapped, ending the alignment of the lines before", () => {
    const why = "Because " + "the reason is long enough to wrap ".repeat(4) + "here.";
    const explained = renderLocalsFile({ a: "${1}", number: "${2}", bb: "${3}" }, [
      { owner: "one (One)", names: ["a", "number", "bb"], whys: { number: why } },
    ]);
    expect(explained).toContain(
      "  a = 1\n" +
        "  # Because the reason is long enough to wrap the reason is long enough to wrap the reason is long\n" +
        "  # enough to wrap the reason is long enough to wrap here.\n" +
        "  number = 2\n" +
        "  bb     = 3\n",
    );
    expect(terraformFmtCheck(explained)).toEqual({ output: "", status: 0 });
    expect(localNames(explained)).toEqual(["a", "number", "bb"]);
  });

  it("refuses a name Terraform would not accept", () => {
    expect(() => renderLocalsFile({ "a b": "x" })).toThrow(
      'local "a b": not a valid Terraform name',
    );
  });
});

describe("writeHclFiles: locals", () => {
  const dirs: string[] = [];
  const stackDir = (config: Record<string, unknown>): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "locals-file-"));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, "cdk.tf.json"), JSON.stringify(config, null, 2));
    return dir;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it("leaves a configuration without locals as it is", () => {
    const dir = stackDir({ output: { x: { value: 1 } } });
    expect(writeHclFiles(dir)).toEqual({ output: { x: { value: 1 } } });
    expect(fs.existsSync(path.join(dir, LOCALS_FILE))).toBe(false);
  });

  it("plans the same values from locals.tf as from the locals in cdk.tf.json", async () => {
    const variables = { n: 7, k: "kk" };
    const inJson = await planExpressions(stackDir(configuration(LOCALS)), variables);
    const dir = stackDir(configuration(LOCALS));
    expect(writeHclFiles(dir)).toEqual(configuration(LOCALS));
    expect(JSON.parse(fs.readFileSync(path.join(dir, "cdk.tf.json"), "utf8"))).not.toHaveProperty(
      "locals",
    );
    const inHcl = await planExpressions(dir, variables);
    expect(inJson.values).toEqual(EXPECTED);
    expect(inHcl.values).toEqual(inJson.values);
  });
});
