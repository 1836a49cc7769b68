import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { synthTemplates } from "../../app/synth";
import { TEMPLATES } from "../../app/registry";
import { projectRoot } from "../../lib/core/project-root";
import { App } from "../../lib/core/cdk";
import { inlineLocals } from "../../lib/private/inline-locals";
import { LOCALS_FILE, localNames } from "../../lib/private/locals-file";
import { RESOURCES_FILE } from "../../lib/private/resources-file";
import { terraformFmtCheck } from "../support/terraform-fmt";
import { shippedFiles } from "../../lib/core/shipped-file";

// What `coder templates push -d cdktf.out/stacks/<template>` needs, checked on
// every template: the files, their size, no backend, no host paths, and
// byte-identical output from two runs.

// Coder refuses an archive over 1 MiB (coder/coder#3749) and stores every version: the budget
// keeps a wide margin. 288 KiB when the locals were layered (each reference named its layer,
// members indented under it), which made locals.tf ~18% larger. 320 KiB since 2026-12-06:
// the Feature entrypoints, the user's environment probe, the postAttach timeout and the
// git-credential record added ~16 KiB to the devcontainer template.
const MAX_TEMPLATE_BYTES = 320 * 1024;

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p).map((f) => path.join(e.name, f)) : [e.name];
  });
}

describe("synthesized templates", () => {
  let first: string;
  let second: string;
  const models = new Map<string, Record<string, any>>();

  beforeAll(() => {
    first = fs.mkdtempSync(path.join(os.tmpdir(), "synth-a-"));
    second = fs.mkdtempSync(path.join(os.tmpdir(), "synth-b-"));
    for (const t of synthTemplates({ outdir: first })) models.set(t.id, t.model);
    synthTemplates({ outdir: second });
  });

  afterAll(() => {
    fs.rmSync(first, { recursive: true, force: true });
    fs.rmSync(second, { recursive: true, force: true });
  });

  it("leaves in a template's folder only what it writes: nothing of an earlier run stays to be pushed", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "synth-again-"));
    try {
      synthTemplates({ outdir: dir, only: ["kubernetes"] });
      const stack = path.join(dir, "stacks", "kubernetes");
      fs.writeFileSync(path.join(stack, "stale.tf"), 'output "x" { value = 1 }\n');
      fs.writeFileSync(
        path.join(stack, ".terraform.lock.hcl"),
        "# a lock the template no longer ships\n",
      );
      synthTemplates({ outdir: dir, only: ["kubernetes"] });
      expect(listFiles(stack).sort()).toEqual(
        listFiles(path.join(second, "stacks", "kubernetes")).sort(),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes one folder per template", () => {
    expect(fs.readdirSync(path.join(first, "stacks")).sort()).toEqual(
      TEMPLATES.map((t) => t.id).sort(),
    );
  });

  describe.each(TEMPLATES.map((t) => t.id))("%s", (id) => {
    const dir = () => path.join(first, "stacks", id);
    const config = () => JSON.parse(fs.readFileSync(path.join(dir(), "cdk.tf.json"), "utf8"));

    it("is a pushable template folder: cdk.tf.json and README.md, no hidden or state files", () => {
      const files = listFiles(dir());
      expect(files).toContain("cdk.tf.json");
      expect(files).toContain("README.md");
      for (const f of files) {
        // The provider lock file is the one hidden file Coder uploads.
        const hidden = f.split(path.sep).some((part) => part.startsWith("."));
        expect({ file: f, hidden: hidden && f !== ".terraform.lock.hcl" }).toEqual({
          file: f,
          hidden: false,
        });
        expect(f).not.toMatch(/tfstate|tfvars/);
      }
    });

    it("stays under 288 KiB", () => {
      const total = listFiles(dir()).reduce((n, f) => n + fs.statSync(path.join(dir(), f)).size, 0);
      expect(total).toBeLessThanOrEqual(MAX_TEMPLATE_BYTES);
    });

    it("has no backend, requires Terraform >= 1.5 and pins provider sources and versions", () => {
      const tf = config().terraform;
      expect(tf.backend).toBeUndefined();
      expect(tf.required_version).toBe(">= 1.9.0");
      // The bounds come from the feature table (test/constructs/provider-features.test.ts).
      expect(tf.required_providers.coder).toEqual({
        source: "coder/coder",
        version: expect.stringMatching(/^>= 2\.\d+\.\d+$/),
      });
      expect(tf.required_providers.kubernetes).toEqual({
        source: "hashicorp/kubernetes",
        version: expect.stringMatching(/^>= 2\.\d+\.\d+, < 4\.0\.0$/),
      });
    });

    /** The configuration's own files: cdk.tf.json and the `.tf` files beside it. */
    const configurationText = () =>
      listFiles(dir())
        .filter((f) => /\.tf(\.json)?$/.test(f))
        .map((f) => fs.readFileSync(path.join(dir(), f), "utf8"))
        .join("\n");

    it("holds no absolute path of the machine that synthesized it", () => {
      const text = configurationText();
      expect(text).not.toContain(projectRoot());
      expect(text).not.toContain(first);
    });

    it("writes its locals to locals.tf and its resources and data sources to main.tf, none to cdk.tf.json", () => {
      const model = models.get(id)!;
      for (const key of ["locals", "resource", "data"]) expect(config()).not.toHaveProperty(key);
      const read = (name: string) =>
        fs.existsSync(path.join(dir(), name))
          ? fs.readFileSync(path.join(dir(), name), "utf8")
          : "";
      // The model names every step; locals.tf ships those inline-locals.ts does not fold.
      const shipped = inlineLocals(model).locals as Record<string, unknown> | undefined;
      expect(localNames(read(LOCALS_FILE)).sort()).toEqual(Object.keys(shipped ?? {}).sort());
      const blocks = [
        ...read(RESOURCES_FILE).matchAll(/^(data|resource) "(\w+)" "(\w+)" \{\}?$/gm),
      ];
      const declared = (kind: string) =>
        Object.entries(model[kind] ?? {}).flatMap(([type, byName]) =>
          Object.keys(byName as object).map((name) => `${kind} ${type} ${name}`),
        );
      expect(blocks.map((m) => `${m[1]} ${m[2]} ${m[3]}`).sort()).toEqual(
        [...declared("data"), ...declared("resource")].sort(),
      );
    });

    it("writes every .tf file as terraform fmt writes it", () => {
      const files = listFiles(dir()).filter((f) => f.endsWith(".tf"));
      expect(files).toContain(RESOURCES_FILE);
      for (const f of files) {
        const text = fs.readFileSync(path.join(dir(), f), "utf8");
        expect({ file: f, ...terraformFmtCheck(text) }).toEqual({ file: f, output: "", status: 0 });
      }
    });

    it("groups locals.tf by the construct that declares each local, under a comment naming it", () => {
      const file = path.join(dir(), LOCALS_FILE);
      if (!fs.existsSync(file)) {
        expect(models.get(id)!.locals ?? {}).toEqual({});
        return;
      }
      const text = fs.readFileSync(file, "utf8");
      // Every locals block has its owner's comment right above it.
      const comments = text
        .split("\n")
        .flatMap((line, i, lines) => (line === "locals {" ? [lines[i - 1]] : []));
      expect(comments.length).toBeGreaterThan(0);
      for (const comment of comments) expect(comment).toMatch(/^# \S+ \([A-Za-z]+\)$/);
    });

    it("is byte-identical when synthesized twice", () => {
      for (const f of listFiles(dir())) {
        const a = fs.readFileSync(path.join(dir(), f));
        const b = fs.readFileSync(path.join(second, "stacks", id, f));
        expect({ file: f, same: a.equals(b) }).toEqual({ file: f, same: true });
      }
    });

    it("gives every coder_parameter an order, unique within the template", () => {
      const params = Object.values(config().data?.coder_parameter ?? {}) as { order: number }[];
      const orders = params.map((p) => p.order);
      expect(orders.every((o) => Number.isInteger(o))).toBe(true);
      expect(new Set(orders).size).toBe(orders.length);
    });

    it("writes template variables in the order the template declares them (Coder shows file order)", () => {
      const stack = TEMPLATES.find((t) => t.id === id)!.create(new App({ outdir: first }));
      expect(Object.keys(models.get(id)!.variable ?? {})).toEqual(stack.declaredVariableNames());
      // All of them in main.tf, one block each, in that order: the order Coder reads.
      const main = fs.readFileSync(path.join(dir(), RESOURCES_FILE), "utf8");
      const inMain = [...main.matchAll(/^variable "([^"]+)" \{/gm)].map((m) => m[1]);
      expect(inMain).toEqual(stack.declaredVariableNames());
      expect(config().variable).toBeUndefined();
    });

    it("writes variables, modules and checks to main.tf, none to cdk.tf.json", () => {
      const main = fs.readFileSync(path.join(dir(), RESOURCES_FILE), "utf8");
      const model = models.get(id)!;
      for (const kind of ["variable", "module", "check"]) {
        const names = Object.keys(model[kind] ?? {});
        const written = [...main.matchAll(new RegExp(`^${kind} "([^"]+)" \\{`, "gm"))].map(
          (m) => m[1],
        );
        expect({ kind, names: written }).toEqual({ kind, names });
        expect({ kind, inJson: config()[kind] }).toEqual({ kind, inJson: undefined });
      }
    });

    it("ships every extra file and folder it lists, byte for byte", () => {
      const stack = TEMPLATES.find((t) => t.id === id)!.create(new App({ outdir: second }));
      for (const extra of stack.extraFiles) {
        const source = path.join(projectRoot(), stack.sourceDir, extra);
        const sources = fs.statSync(source).isDirectory()
          ? listFiles(source).map((f) => path.join(extra, f))
          : [extra];
        expect(sources.length).toBeGreaterThan(0);
        for (const rel of sources) {
          const shipped = fs.readFileSync(path.join(dir(), rel));
          expect({
            rel,
            same: shipped.equals(fs.readFileSync(path.join(projectRoot(), stack.sourceDir, rel))),
          }).toEqual({ rel, same: true });
        }
      }
    });

    it("ships each file its configuration reads with file(), byte for byte, and only those", () => {
      const stack = TEMPLATES.find((t) => t.id === id)!.create(new App({ outdir: second }));
      // In cdk.tf.json the quotes are escaped (\"), in .tf files they are not.
      const text = configurationText();
      const read = [...text.matchAll(/file\(\\?"\$\{path\.module\}\/([^"\\]+)\\?"\)/g)].map(
        (m) => m[1],
      );
      const shipped = shippedFiles(stack);
      expect([...new Set(read)].sort()).toEqual(shipped.map((f) => f.path));
      for (const file of shipped) {
        const same = fs
          .readFileSync(path.join(dir(), file.path))
          .equals(fs.readFileSync(path.join(projectRoot(), file.source)));
        expect({ file: file.path, same }).toEqual({ file: file.path, same: true });
      }
    });

    it("ships a README whose front matter names the template for Coder", () => {
      const readme = fs.readFileSync(path.join(dir(), "README.md"), "utf8");
      const m = /^---\ndisplay_name: "(.+)"\ndescription: "(.+)"\nicon: "(.+)"\n---\n# /.exec(
        readme,
      );
      expect(m).not.toBeNull();
    });
  });
});
