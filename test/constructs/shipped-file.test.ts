/**
 * ShippedFile: a project file that ships in the template folder for file() to read.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, TerraformLocal, TerraformStack } from "../../lib/core/cdk";
import { readProjectFile } from "../../lib/core/project-root";
import { ShippedFile, shippedFiles, writeShippedFiles } from "../../lib/core/shipped-file";

const SCRIPT = "templates/devcontainer/scripts/after-lifecycle.sh";

/** What `value` synthesizes to as a local's value. */
function localValue(stack: TerraformStack, value: unknown): unknown {
  new TerraformLocal(stack, "probe", value).overrideLogicalId("probe");
  return (stack.toTerraform() as { locals: Record<string, unknown> }).locals.probe;
}

const newStack = () => new TerraformStack(new App({ outdir: tmpdir() }), "s");

it("is one file per path and stack, whoever asks for it", () => {
  const stack = newStack();
  const first = ShippedFile.of(stack, { source: SCRIPT, path: "scripts/after-lifecycle.sh" });
  const again = ShippedFile.of(stack, { source: SCRIPT, path: "scripts/after-lifecycle.sh" });
  expect(again).toBe(first);
  expect(shippedFiles(stack)).toEqual([first]);
  expect(localValue(stack, first.fileExpression())).toBe(
    '${file("${path.module}/scripts/after-lifecycle.sh")}',
  );
});

it("refuses two sources at one path, naming both", () => {
  const stack = newStack();
  ShippedFile.of(stack, { source: SCRIPT, path: "scripts/a.sh" });
  expect(() => ShippedFile.of(stack, { source: "README.md", path: "scripts/a.sh" })).toThrow(
    `shipped file "scripts/a.sh": both "${SCRIPT}" and "README.md" ship there`,
  );
});

it.each(["../a.sh", "/etc/passwd", "scripts/../a.sh", "a b.sh", "scripts//a.sh", ""])(
  "refuses %j as a path inside the template folder",
  (path) => {
    expect(() => ShippedFile.of(newStack(), { source: SCRIPT, path })).toThrow(
      `shipped file "${SCRIPT}": path "${path}" is not a plain relative path inside the template folder`,
    );
  },
);

describe("writeShippedFiles", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "shipped-"));
    dirs.push(dir);
    return dir;
  };

  it("copies each file into the folder, with its permission bits, and lists the paths", () => {
    const stack = newStack();
    ShippedFile.of(stack, { source: SCRIPT, path: "scripts/after-lifecycle.sh" });
    ShippedFile.of(stack, { source: "README.md", path: "docs/readme.md" });
    const dir = tempDir();
    expect(writeShippedFiles(stack, dir)).toEqual(["docs/readme.md", "scripts/after-lifecycle.sh"]);
    expect(readFileSync(join(dir, "scripts", "after-lifecycle.sh"), "utf8")).toBe(
      readProjectFile(SCRIPT),
    );
    const mode = (file: string) => statSync(file).mode & 0o777;
    expect(mode(join(dir, "scripts", "after-lifecycle.sh"))).toBe(
      mode(join(__dirname, "..", "..", SCRIPT)),
    );
  });

  it("fails with the source and the path when the source is missing", () => {
    const stack = newStack();
    ShippedFile.of(stack, { source: "templates/nope.sh", path: "scripts/nope.sh" });
    expect(() => writeShippedFiles(stack, tempDir())).toThrow(
      "templates/nope.sh: file not found (shipped as scripts/nope.sh)",
    );
  });
});
