/**
 * ShellCheck runs in `npm run lint` (scripts/lint-shell.js), not in the tests, so that
 * `npm test` needs nothing but Node and Terraform. This file proves the lint step looks at the
 * scripts that matter, reports a finding, and says how to install shellcheck when it is
 * missing; the findings themselves are lint's.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDirs } from "../support/run-script";
import { itWithShellcheck } from "../support/shellcheck";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const lint = require("../../scripts/lint-shell.js") as {
  shellScripts(root?: string): string[];
  lintShell(root?: string, shellcheck?: string): { status: number; output: string };
  INSTALL_HINT: string;
};

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

test("npm run lint checks the templates' scripts, the test fakes and the CI script", () => {
  expect(lint.shellScripts()).toEqual(
    expect.arrayContaining([
      "templates/devcontainer/scripts/lifecycle.sh",
      "templates/devcontainer/scripts/after-lifecycle.sh",
      "templates/devcontainer/scripts/seed-home.sh",
      "templates/devcontainer/scripts/vscode-extensions.sh",
      "templates/packer-builder/scripts/bootstrap.sh",
      "templates/packer-builder/scripts/sweep-build-vms.sh",
      "test/app/push/fake-coder.sh",
      ".ci/run",
    ]),
  );
});

test("without shellcheck it fails and says how to install it", () => {
  const result = lint.lintShell(dirs.make("no-scripts"), "shellcheck-that-is-not-installed");
  expect(result).toEqual({ status: 2, output: lint.INSTALL_HINT });
  expect(result.output).toContain("apt-get install -y shellcheck");
});

itWithShellcheck("a finding fails it, naming file and line", () => {
  const root = dirs.make("bad-script");
  mkdirSync(join(root, "templates"));
  writeFileSync(join(root, "templates", "bad.sh"), "#!/bin/sh\nrm -rf $1/x\n");
  const result = lint.lintShell(root);
  expect(result.status).toBe(1);
  expect(result.output).toMatch(/^templates\/bad\.sh:2:\d+: .*SC2086/m);
});
