/**
 * Locals written in HCL (lib/locals-file.ts): the text, and real Terraform planning the same
 * values from locals.tf as from the cdk.tf.json cdktf writes.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { writeHclFiles } from "../../lib/hcl-files";
import { LOCALS_FILE, localNames, renderLocalsFile } from "../../lib/locals-file";
import { planExpressions } from "../harness";

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
    expect(text).toContain('  multiline = (\n    var.n > 1 ?\n    "yes" :\n    "no"\n  )\n');
  });

  it("names every local it declares, and only those", () => {
    expect(localNames(text).sort()).toEqual(Object.keys(LOCALS).sort());
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
