/**
 * Every shell script the project ships passes shellcheck (all severities). CI installs
 * shellcheck; without it this test fails instead of passing silently.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

const PROJECT_ROOT = join(__dirname, "..", "..");
/** Folders whose *.sh files are embedded into templates, run by them, or run by tests. */
const SCRIPT_ROOTS = ["templates", "lib", "test"];
/** Shell scripts without the .sh suffix. */
const OTHER_SCRIPTS = [".ci/run"];

function shellScriptsUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : shellScriptsUnder(path);
    return entry.isFile() && entry.name.endsWith(".sh") ? [path] : [];
  });
}

describe("shellcheck", () => {
  const scripts = [
    ...SCRIPT_ROOTS.flatMap((root) => shellScriptsUnder(join(PROJECT_ROOT, root))),
    ...OTHER_SCRIPTS.map((file) => join(PROJECT_ROOT, file)),
  ].sort();

  test("finds the templates' scripts, the test fakes and the CI script", () => {
    const names = scripts.map((file) => relative(PROJECT_ROOT, file));
    expect(names).toEqual(
      expect.arrayContaining([
        "templates/devcontainer/scripts/lifecycle.sh",
        "templates/devcontainer/scripts/post-attach.sh",
        "templates/devcontainer/scripts/seed-home.sh",
        "templates/devcontainer/scripts/vscode-extensions.sh",
        "templates/packer-builder/scripts/bootstrap.sh",
        "templates/packer-builder/scripts/sweep-build-vms.sh",
        "test/push/fake-coder.sh",
        ".ci/run",
      ]),
    );
  });

  test("reports no findings on any of them", () => {
    const version = spawnSync("shellcheck", ["--version"], { encoding: "utf8" });
    if (version.error || version.status !== 0) {
      throw new Error(
        "shellcheck is not installed: run `apt-get install -y shellcheck` (CI installs it).",
      );
    }
    const run = spawnSync("shellcheck", ["--format=gcc", ...scripts], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
    });
    const findings = `${run.stdout}${run.stderr}`
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => line.replace(`${PROJECT_ROOT}/`, ""));
    expect(findings).toEqual([]);
    expect(run.status).toBe(0);
  });
});
