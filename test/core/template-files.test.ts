import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { App } from "../../lib/core/cdk";
import { projectRoot } from "../../lib/core/project-root";
import { shipTemplateFiles } from "../../app/template-files";
import { TemplateStack } from "../../lib/constructs/template-stack";

// The files a template ships beside its configuration, and the names it may not ship.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A template source folder with `files`, and an empty output folder. */
function folders(files: Record<string, string>): { source: string; out: string } {
  const source = fs.mkdtempSync(path.join(os.tmpdir(), "template-source-"));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "template-out-"));
  dirs.push(source, out);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(source, name)), { recursive: true });
    fs.writeFileSync(path.join(source, name), text);
  }
  return { source, out };
}

function stack(source: string, extraFiles: string[]): TemplateStack {
  return new TemplateStack(new App({ outdir: os.tmpdir() }), "t", {
    sourceDir: path.relative(projectRoot(), source),
    frontMatter: { displayName: "T", description: "A template", icon: "/icon/k8s.png" },
    extraFiles,
  });
}

it("ships the README with Coder's front matter and the listed files", () => {
  const { source, out } = folders({ "README.md": "# T\n", "docs/manual.md": "manual\n" });
  expect(shipTemplateFiles(stack(source, ["docs"]), out)).toEqual(["README.md", "docs/manual.md"]);
  expect(fs.readFileSync(path.join(out, "README.md"), "utf8")).toBe(
    '---\ndisplay_name: "T"\ndescription: "A template"\nicon: "/icon/k8s.png"\n---\n# T\n',
  );
  expect(fs.readFileSync(path.join(out, "docs/manual.md"), "utf8")).toBe("manual\n");
});

it.each(["cdk.tf.json", "main.tf", "locals.tf", "workspace_tags.tf"])(
  "refuses an extra file named %s, which synth writes",
  (name) => {
    const { source, out } = folders({ "README.md": "# T\n", [name]: "x" });
    expect(() => shipTemplateFiles(stack(source, [name]), out)).toThrow(
      `"${name}" is written by synth; ship it under another name`,
    );
  },
);

it("refuses a file coder templates push would skip, and a missing README", () => {
  const hidden = folders({ "README.md": "# T\n", "conf/.env": "x" });
  expect(() => shipTemplateFiles(stack(hidden.source, ["conf"]), hidden.out)).toThrow(
    '".env" would be skipped or refused by coder templates push',
  );
  const bare = folders({});
  expect(() => shipTemplateFiles(stack(bare.source, []), bare.out)).toThrow(
    "README.md: missing; every template ships a README",
  );
});
