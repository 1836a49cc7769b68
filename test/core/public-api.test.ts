/**
 * The public API (lib/index.ts): named in package.json, the only lib/ path templates import,
 * a decision for every module (exported, or on the internal list docs/lib-reference.md keeps),
 * and docs/api/ generated from its current sources.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
  API_DOCS_CONFIG,
  API_DOCS_PAGE,
  API_ENTRY,
  publicApiFingerprint,
  reachableSources,
  recordedFingerprint,
} from "../../app/api-docs";
import { projectRoot } from "../../lib/core/project-root";

const root = projectRoot();
const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");

/** Modules a template must not use (docs/lib-reference.md, "Internal modules"). */
const INTERNAL = [
  "api-docs",
  "block-schemas",
  "cdk",
  "check-block",
  "cli-args",
  "coder-cli",
  "coder-names",
  "coder-version",
  "construct-ids",
  "escape",
  "git-branch-name",
  "git-hosts",
  "hcl-files",
  "hcl-layout",
  "hcl-template",
  "hcl-writer",
  "kubernetes-quantities",
  "local-comments",
  "locals-file",
  "operator-config",
  "operator-presets",
  "project-root",
  "provider-features",
  "provider-releases",
  "provider-usage",
  "provisioner-docs",
  "provisioner-tags",
  "repository-values",
  "resources-file",
  "shipped-file",
  "template-addresses",
  "template-files",
  "template-push",
  "terraform-data",
  "variable-defaults",
  "workspace-tags",
];

/**
 * The modules of lib/devcontainer/ a template uses: the pattern and the inputs it is composed
 * from. The steps the pattern is made of are internal by their folder (issue 45).
 */
const DEVCONTAINER_PUBLIC = [
  "parameters",
  "quantity-caps",
  "source",
  "template-variables",
  "workspace",
];

test("package.json names lib/index.ts as the entry point", () => {
  const pkg = JSON.parse(read("package.json"));
  expect(pkg.types).toBe(API_ENTRY);
  expect(pkg.exports["."].types).toBe(`./${API_ENTRY}`);
});

test("every module of lib/ is either exported by lib/index.ts or on the internal list", () => {
  // Named exports only: `export { … } from "./module";`, never `export *`.
  expect(read(API_ENTRY)).not.toMatch(/^export \*/m);
  // (cdk.ts is internal: the index re-exports only its template-facing names.)
  const exported = [...read(API_ENTRY).matchAll(/^export \{[^}]*\} from "\.\/([^"]+)";$/gm)]
    .map((m) => m[1])
    .filter((m) => m !== "core/cdk");
  // The library's modules: lib/ but its policies (every stack applies them; none is used by name).
  const modules = ["core", "private", "constructs", "devcontainer"]
    .flatMap((dir) =>
      fs
        .readdirSync(path.join(root, "lib", dir))
        .filter((f) => f.endsWith(".ts"))
        .map((f) => `${dir}/${f}`),
    )
    .map((f) => f.replace(/\.ts$/, ""));
  // lib/private/ and the devcontainer steps are internal by their folder; other internal
  // modules are on the list.
  const internal = (m: string) =>
    m.startsWith("private/") ||
    (m.startsWith("devcontainer/") && !DEVCONTAINER_PUBLIC.includes(path.basename(m))) ||
    INTERNAL.includes(path.basename(m));
  const undecided = modules.filter((m) => !exported.includes(m) && !internal(m));
  expect(undecided).toEqual([]);
  expect(exported.filter(internal)).toEqual([]);
  // The internal list is documented where platform teams read it.
  const reference = read("docs/lib-reference.md");
  for (const m of INTERNAL) expect(reference).toContain(`\`${m}.ts\``);
});

test("templates import the library only through lib/index.ts", () => {
  for (const dir of fs.readdirSync(path.join(root, "templates"))) {
    const file = path.join("templates", dir, "index.ts");
    if (!fs.existsSync(path.join(root, file))) continue;
    const deep = [...read(file).matchAll(/from "(\.\.\/\.\.\/lib\/[^"]+)"/g)].map((m) => m[1]);
    expect({ file, deep }).toEqual({ file, deep: [] });
  }
});

test(`docs/api is generated from the current public API (\`npm run docs\` when this fails)`, () => {
  expect(recordedFingerprint(read(API_DOCS_PAGE))).toBe(publicApiFingerprint(root));
});

test("the fingerprint follows re-exports and changes with any source it reaches", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-docs-"));
  try {
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    for (const config of API_DOCS_CONFIG) write(config, "");
    write("lib/index.ts", 'export * from "./a";\nexport { b } from "./sub";\n');
    write("lib/a.ts", 'import { c } from "./c";\nexport const a = c;\n');
    write("lib/c.ts", "export const c = 1;\n");
    write("lib/sub/index.ts", 'export const b = 2;\nimport "fs";\n');
    write("lib/unused.ts", "export const u = 3;\n");
    expect(reachableSources(dir)).toEqual([
      "lib/a.ts",
      "lib/c.ts",
      "lib/index.ts",
      "lib/sub/index.ts",
    ]);
    const before = publicApiFingerprint(dir);
    write("lib/unused.ts", "export const u = 4;\n");
    expect(publicApiFingerprint(dir)).toBe(before);
    write("lib/c.ts", "/** documented */\nexport const c = 1;\n");
    expect(publicApiFingerprint(dir)).not.toBe(before);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
