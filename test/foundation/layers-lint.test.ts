/**
 * The layering lint rule (eslint/layers.mjs, in `npm run lint`): an import that points up the
 * layer table of docs/architecture.md fails lint, naming both layers; one down the table
 * passes; product code importing test/ fails; the imports that predate the rule
 * (eslint/layers-baseline.json) pass until the files move. Fixtures are linted as if they
 * were files at the given paths.
 */
import { spawnSync } from "node:child_process";
import { projectRoot } from "../../lib/project-root";

const ROOT = projectRoot();

/**
 * ESLint's messages of the layering rule for each fixture, from one ESLint process (its
 * config loader needs real dynamic imports, which jest's module system has not).
 */
function lintFixtures(fixtures: readonly (readonly [string, string])[]): string[][] {
  const script = `
    const { ESLint } = require("eslint");
    const path = require("path");
    const fixtures = JSON.parse(require("fs").readFileSync(0, "utf8"));
    (async () => {
      const eslint = new ESLint({ cwd: process.cwd() });
      const out = [];
      for (const [file, code] of fixtures) {
        const [r] = await eslint.lintText(code, { filePath: path.join(process.cwd(), file) });
        out.push(r.messages.filter((m) => m.ruleId === "layers/layering").map((m) => m.message));
      }
      process.stdout.write(JSON.stringify(out));
    })();`;
  const run = spawnSync(process.execPath, ["-e", script], {
    cwd: ROOT,
    input: JSON.stringify(fixtures),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[][];
}

const UP: readonly (readonly [string, string, string, string])[] = [
  [
    "lib/fixture.ts",
    'import { TEMPLATES } from "../templates";\nexport const t = TEMPLATES;\n',
    "base",
    "templates",
  ],
  [
    "lib/devcontainer/fixture.ts",
    'export { synthTemplates } from "../../templates/synth";\n',
    "mapping",
    "templates",
  ],
  [
    "lib/workspace-fixture.ts",
    'import { DevcontainerPod } from "./devcontainer/workspace-pod";\nexport const p = DevcontainerPod;\n',
    "L2",
    "mapping",
  ],
  [
    "lib/preview/fixture.ts",
    'import { TerraformHarness } from "../../test/harness";\nexport const h = TerraformHarness;\n',
    "tools",
    "test",
  ],
];
const DOWN: readonly (readonly [string, string])[] = [
  [
    "lib/devcontainer/fixture.ts",
    'import { WorkspaceData } from "../workspace-data";\nexport const w = WorkspaceData;\n',
  ],
  [
    "templates/fixture/index.ts",
    'import { TemplateStack } from "../../lib";\nexport const s = TemplateStack;\n',
  ],
  [
    "test/fixture.test.ts",
    'import { TEMPLATES } from "../templates";\nexport const t = TEMPLATES;\n',
  ],
];
const CONFIG_IMPORT =
  'import { ConfigError } from "../lib/operator-config";\nexport const c = ConfigError;\n';
/** templates/synth.ts reading the operator configuration predates the rule; another file may not. */
const BASELINE: readonly (readonly [string, string])[] = [
  ["templates/synth.ts", CONFIG_IMPORT],
  ["templates/other.ts", CONFIG_IMPORT],
];

let up: string[][];
let down: string[][];
let baseline: string[][];
beforeAll(() => {
  const all = lintFixtures([...UP.map(([f, c]) => [f, c] as const), ...DOWN, ...BASELINE]);
  up = all.slice(0, UP.length);
  down = all.slice(UP.length, UP.length + DOWN.length);
  baseline = all.slice(UP.length + DOWN.length);
});

it.each(UP.map(([file, , from, to], i) => [file, from, to, i] as const))(
  "fails %s (%s) importing up the table (%s)",
  (file, from, to, i) => {
    expect(up[i]).toHaveLength(1);
    expect(up[i][0]).toContain(`${file} (${from}) imports`);
    expect(up[i][0]).toContain(`(${to}): imports only point down the layer table`);
  },
);

it.each(DOWN.map(([file], i) => [file, i] as const))(
  "passes %s importing down the table (tests import anything)",
  (_file, i) => {
    expect(down[i]).toEqual([]);
  },
);

it("allows the imports that predate the rule (eslint/layers-baseline.json), and only those", () => {
  expect(baseline[0]).toEqual([]);
  expect(baseline[1]).toHaveLength(1);
});
