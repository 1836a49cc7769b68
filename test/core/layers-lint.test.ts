/**
 * The layering lint rule (eslint/layers.mjs, in `npm run lint`) can fail: each fixture is
 * linted by ESLint with the project's own configuration, as if it were a file at the given
 * path. An import up the layer table, product code importing test/, a template importing
 * lib/private/ or a raw provider binding, the library using the plan harness, and the harness reaching into the
 * project all fail, naming both sides; imports down the table pass.
 */
import { spawnSync } from "node:child_process";
import { projectRoot } from "../../lib/core/project-root";

const ROOT = projectRoot();

/** The messages of `rule` (the layering rule unless named) for each fixture, from one ESLint process. */
function lintFixtures(
  fixtures: readonly (readonly [string, string])[],
  rule = "layers/layering",
): string[][] {
  // ESLint's config loader needs real dynamic imports, which jest's module system has not.
  const script = `
    const { ESLint } = require("eslint");
    const path = require("path");
    const { fixtures, RULES } = JSON.parse(require("fs").readFileSync(0, "utf8"));
    (async () => {
      const eslint = new ESLint({ cwd: process.cwd() });
      const out = [];
      for (const [file, code] of fixtures) {
        const [r] = await eslint.lintText(code, { filePath: path.join(process.cwd(), file) });
        out.push(r.messages.filter((m) => RULES.includes(m.ruleId)).map((m) => m.message));
      }
      process.stdout.write(JSON.stringify(out));
    })();`;
  const run = spawnSync(process.execPath, ["-e", script], {
    cwd: ROOT,
    input: JSON.stringify({ fixtures, RULES: [rule] }),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[][];
}

/** [fixture path, code, what the one message must say]. */
const FORBIDDEN: readonly (readonly [string, string, string])[] = [
  [
    "lib/core/fixture.ts",
    'import { WorkspaceAgent } from "../constructs/workspace-agent";\nexport const a = WorkspaceAgent;\n',
    "lib/core/fixture.ts (core) imports lib/constructs/workspace-agent.ts (constructs): imports only point down",
  ],
  [
    "lib/core/fixture.ts",
    'import { hclQuoted } from "../private/hcl-writer";\nexport const q = hclQuoted;\n',
    "lib/core/fixture.ts (core) imports lib/private/hcl-writer.ts (private): imports only point down",
  ],
  [
    "lib/constructs/fixture.ts",
    'export { DevcontainerPod } from "../devcontainer/pod";\n',
    "(constructs) imports lib/devcontainer/pod.ts (devcontainer)",
  ],
  [
    "lib/devcontainer/fixture.ts",
    'import { synthTemplates } from "../../app/synth";\nexport const s = synthTemplates;\n',
    "(devcontainer) imports app/synth.ts (app)",
  ],
  [
    "templates/fixture/index.ts",
    'import { synthTemplates } from "../../app/synth";\nexport const s = synthTemplates;\n',
    "(templates) imports app/synth.ts (app)",
  ],
  [
    "templates/fixture/index.ts",
    'import { renderHclFile } from "../../lib/private/hcl-writer";\nexport const r = renderHclFile;\n',
    "(templates) imports lib/private/hcl-writer.ts (private): lib/private/ is internal",
  ],
  [
    "templates/fixture/index.ts",
    'import { Script } from "../../.gen/providers/coder/script";\nexport const s = Script;\n',
    "(templates) imports .gen/providers/coder/script/index.ts: templates compose the library's constructs",
  ],
  [
    "templates/fixture/index.ts",
    'import { DeploymentV1 } from "@cdktf/provider-kubernetes/lib/deployment-v1";\nexport const d = DeploymentV1;\n',
    "(templates) imports @cdktf/provider-kubernetes/lib/deployment-v1: templates compose the library's constructs",
  ],
  [
    "app/fixture.ts",
    'import { pushCommand } from "../scripts/commands/push";\nexport const p = pushCommand;\n',
    "(app) imports scripts/commands/push.ts (cli)",
  ],
  [
    "app/fixture.ts",
    'import { synthTemplate } from "../test/support/synth-template";\nexport const s = synthTemplate;\n',
    "(app) imports test/support/synth-template.ts (test): product code never imports test/",
  ],
  [
    "lib/constructs/fixture.ts",
    'import { TerraformHarness } from "@coder-cdktf/terraform-harness";\nexport const h = TerraformHarness;\n',
    "(constructs) imports @coder-cdktf/terraform-harness (harness): only app/ and scripts/",
  ],
  [
    "scripts/commands/fixture.ts",
    'import { TerraformHarness } from "../../packages/terraform-harness/src/terraform-harness";\nexport const h = TerraformHarness;\n',
    "(cli) imports packages/terraform-harness/src/terraform-harness.ts (harness): import the package",
  ],
  [
    "packages/terraform-harness/src/fixture.ts",
    'import { escapeTemplateLiteral } from "../../../lib/core/escape";\nexport const e = escapeTemplateLiteral;\n',
    "(harness) imports lib/core/escape.ts: the plan harness is a package of its own",
  ],
  [
    "scripts/fixture.js",
    'const { TerraformHarness } = require("../packages/terraform-harness/src");\nmodule.exports = TerraformHarness;\n',
    "(cli) imports packages/terraform-harness/src/index.ts (harness)",
  ],
];

const ALLOWED: readonly (readonly [string, string])[] = [
  [
    "lib/devcontainer/fixture.ts",
    'import { WorkspaceData } from "../constructs/workspace-data";\nexport const w = WorkspaceData;\n',
  ],
  [
    "lib/constructs/fixture.ts",
    'import { Fn } from "../core/cdk";\nimport { hclQuoted } from "../private/hcl-writer";\nexport const f = [Fn, hclQuoted];\n',
  ],
  [
    "lib/private/fixture.ts",
    'import { TerraformStack } from "../core/cdk";\nexport const s = TerraformStack;\n',
  ],
  [
    "app/fixture.ts",
    'import { TerraformHarness } from "@coder-cdktf/terraform-harness";\nexport const h = TerraformHarness;\n',
  ],
  [
    "scripts/commands/fixture.ts",
    'import { synthTemplates } from "../app/synth";\nexport const s = synthTemplates;\n',
  ],
  [
    "packages/terraform-harness/src/fixture.ts",
    'import { TerraformHarness } from "./terraform-harness";\nexport const h = TerraformHarness;\n',
  ],
  [
    "test/fixture.test.ts",
    'import { synthTemplates } from "../app/synth";\nexport const s = synthTemplates;\n',
  ],
];

let forbidden: string[][];
let allowed: string[][];
beforeAll(() => {
  const all = lintFixtures([...FORBIDDEN.map(([f, c]) => [f, c] as const), ...ALLOWED]);
  forbidden = all.slice(0, FORBIDDEN.length);
  allowed = all.slice(FORBIDDEN.length);
});

it.each(FORBIDDEN.map(([file, , message], i) => [file, message, i] as const))(
  "fails %s: %s",
  (file, message, i) => {
    expect(forbidden[i]).toHaveLength(1);
    expect(forbidden[i][0]).toContain(file);
    expect(forbidden[i][0]).toContain(message);
  },
);

it.each(ALLOWED.map(([file], i) => [file, i] as const))("passes %s", (_file, i) => {
  expect(allowed[i]).toEqual([]);
});

// Not a layer, but a lint rule of the tests' own: cdktf's Testing.app() without an outdir
// leaves a fresh cdktf.outdir.* folder in the temp dir on every call.
describe("Testing.app() without an outdir", () => {
  const code = (call: string) =>
    `import { Testing } from "../../lib/core/cdk";\nexport const app = ${call};\n`;
  let messages: string[][];
  beforeAll(() => {
    messages = lintFixtures(
      [
        ["test/core/fixture.test.ts", code("Testing.app()")],
        ["test/core/fixture.test.ts", code('Testing.app({ outdir: "out" })')],
      ],
      "no-restricted-syntax",
    );
  });

  it("fails, naming the helper to use", () => {
    expect(messages[0]).toEqual([expect.stringContaining("testApp() from test/support/test-app")]);
  });

  it("passes with an outdir", () => {
    expect(messages[1]).toEqual([]);
  });
});
