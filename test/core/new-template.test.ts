/**
 * `npm run new-template -- <id>` in a temporary copy of the project: the scaffold writes and
 * registers a template, records what the suite checks of every template, and the suite's
 * per-template tests then pass in the copy without a hand edit: the new template's own plan
 * test (real Terraform, mock providers), its snapshots and intent, and its addresses; the
 * README table and docs/provisioners.md list it.
 */
import { spawnSync } from "node:child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { TEMPLATES } from "../../app/registry";
import { projectRoot } from "../../lib/core/project-root";
import { HCL_FILES } from "../../lib/private/hcl-files";
import { className, idProblem, registered } from "../../scripts/commands/new-template";

jest.setTimeout(240_000);

const ROOT = projectRoot();
/** What the copy needs: sources, tests, docs and configuration; the rest is linked. */
const COPIED = [
  "lib",
  "app",
  "packages",
  "eslint",
  "templates",
  "test",
  "scripts",
  "schemas",
  "docs",
  "main.ts",
  "package.json",
  "tsconfig.json",
  "jest.config.js",
  "typedoc.config.cjs",
  "README.md",
  ".prettierrc.json",
  ".prettierignore",
];
const LINKED = ["node_modules", ".gen"];

let copy: string;
beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), "new-template-"));
  for (const entry of COPIED) {
    if (fs.existsSync(path.join(ROOT, entry))) {
      fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
    }
  }
  for (const entry of LINKED) fs.symlinkSync(path.join(ROOT, entry), path.join(copy, entry));
});
afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

function node(args: readonly string[]) {
  return spawnSync(process.execPath, args, {
    cwd: copy,
    encoding: "utf8",
    env: { ...process.env, CHECKPOINT_DISABLE: "1", CODER_CDKTF_TEST_SYNTH_DIR: "" },
  });
}

test("refuses an id Coder cannot name a template, or whose class another template has", () => {
  const registry = fs.readFileSync(path.join(ROOT, "app/registry.ts"), "utf8");
  expect(idProblem("a".repeat(31), registry)).toBeUndefined();
  expect(idProblem("a".repeat(32), registry)).toBe(
    `template id "${"a".repeat(32)}": 32 characters; Coder takes a template name of at most 31`,
  );
  expect(idProblem("../x", registry)).toBe('template id "../x": not a lowercase name');
  const withA1 = registered(registry, "a1");
  expect(idProblem("a-1", withA1)).toBe(
    'template id "a-1": its class A1Template is already in app/registry.ts; choose an id that differs in more than its dashes',
  );
  expect(idProblem("a-1", registry)).toBeUndefined();
});

test("derives the class from the id and registers it once, last", () => {
  expect(className("jupyter-lab")).toBe("JupyterLabTemplate");
  const registry = registered(
    fs.readFileSync(path.join(ROOT, "app/registry.ts"), "utf8"),
    "jupyter-lab",
  );
  expect(registry.match(/"jupyter-lab"/g)).toHaveLength(1);
  expect(registry).toContain('import { JupyterLabTemplate } from "../templates/jupyter-lab";');
  expect(registry).toMatch(/defineTemplate\("jupyter-lab", JupyterLabTemplate, .*\),\n\];/);
});

test("scaffolds a template that synthesizes, plans and passes the suite's per-template tests", () => {
  const scaffold = node([
    path.join(copy, "scripts/ts.js"),
    "scripts/commands/new-template.ts",
    "jupyter-lab",
  ]);
  expect({ status: scaffold.status, stderr: scaffold.stderr }).toEqual({ status: 0, stderr: "" });
  for (const file of [
    "templates/jupyter-lab/index.ts",
    "templates/jupyter-lab/README.md",
    "templates/jupyter-lab/intent.json",
    "test/templates/jupyter-lab/plan.test.ts",
    "test/addresses/jupyter-lab.txt",
  ]) {
    expect({ file, exists: fs.existsSync(path.join(copy, file)) }).toEqual({ file, exists: true });
  }
  // The generated docs list it (their own tests compare them with the registry).
  expect(fs.readFileSync(path.join(copy, "README.md"), "utf8")).toContain("[`jupyter-lab`]");
  expect(fs.readFileSync(path.join(copy, "docs/provisioners.md"), "utf8")).toContain(
    "`jupyter-lab`",
  );
  expect(fs.readFileSync(path.join(copy, "test/addresses/jupyter-lab.txt"), "utf8")).toContain(
    "kubernetes_deployment_v1.main",
  );
  // A second scaffold of the same id is refused, naming the folder.
  const again = node([
    path.join(copy, "scripts/ts.js"),
    "scripts/commands/new-template.ts",
    "jupyter-lab",
  ]);
  expect({ status: again.status, stderr: again.stderr }).toEqual({
    status: 2,
    stderr: "templates/jupyter-lab already exists\n",
  });

  const suite = node([
    path.join(copy, "node_modules/jest/bin/jest.js"),
    "--ci",
    // One process for the three files: a second worker would load cdktf once more.
    "--runInBand",
    "test/templates/jupyter-lab",
    "test/snapshots",
    "test/upgrade/addresses.test.ts",
  ]);
  expect({ status: suite.status, output: suite.status === 0 ? "" : suite.stderr }).toEqual({
    status: 0,
    output: "",
  });
  expect(suite.stderr).toMatch(/test\/templates\/jupyter-lab\/plan\.test\.ts/);
  // The new template's snapshots were recorded by the scaffold, and match: one per file synth
  // writes, for every template the registry holds now (however many that is).
  const snapshots = (TEMPLATES.length + 1) * (1 + HCL_FILES.length);
  expect(suite.stderr).toMatch(new RegExp(`Snapshots: +${snapshots} passed, ${snapshots} total`));
});
