/**
 * The tests of optional tools (BusyBox, ShellCheck: test/support/optional-tools.ts) report as
 * skipped, with the reason, on a machine without them (a fresh machine with Node and
 * Terraform only), instead of failing or disappearing. Runs jest itself on test files that
 * use each, with a PATH that has every host tool except busybox and shellcheck.
 */
import { existsSync, readdirSync, symlinkSync } from "node:fs";
import { delimiter, join } from "node:path";
import { projectRoot } from "../../../../lib/core/project-root";
import { runJest } from "../../../support/run-jest";
import { tempDirs } from "../../../support/run-script";

const ROOT = projectRoot();
const HIDDEN = ["busybox", "shellcheck"];
const dirs = tempDirs();
afterAll(() => dirs.cleanup());

/** A PATH of one folder linking every executable of the host PATH but {@link HIDDEN}. */
function pathWithoutOptionalTools(): string {
  const bin = dirs.make("no-optional-tools");
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir || !existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (HIDDEN.includes(name) || existsSync(join(bin, name))) continue;
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  return bin;
}

interface Result {
  readonly ancestorTitles: string[];
  readonly title: string;
  readonly status: string;
}

let results: Result[];
let status: number | null;
beforeAll(() => {
  // The project's transform and roots, without the global setup (no template is needed).
  const run = runJest(
    { roots: ["<rootDir>/test"], testEnvironment: "node" },
    [
      "--json",
      "--runTestsByPath",
      join(ROOT, "test", "templates", "devcontainer", "scripts", "seed-home.test.ts"),
      join(ROOT, "test", "constructs", "agent-skill.test.ts"),
      join(ROOT, "test", "core", "shellcheck.test.ts"),
    ],
    { env: { ...process.env, PATH: pathWithoutOptionalTools() } },
  );
  const report = JSON.parse(run.stdout) as { testResults: { assertionResults: Result[] }[] };
  results = report.testResults.flatMap((r) => r.assertionResults);
  status = run.status;
}, 120_000);

const named = (text: string) =>
  results.filter((r) => [...r.ancestorTitles, r.title].some((t) => t.includes(text)));

test("without BusyBox the script tests' BusyBox variants are skipped and say why; the host variants still run", () => {
  const busybox = named("with busybox tools");
  expect(busybox.length).toBeGreaterThan(0);
  for (const r of busybox) {
    expect(r.status).toBe("pending");
    expect(r.ancestorTitles.join(" ")).toContain("skipped: BusyBox is not installed");
  }
  const host = named("with host tools");
  expect(host.length).toBe(busybox.length);
  expect(host.map((r) => r.status)).toEqual(host.map(() => "passed"));
});

test("without BusyBox install-agent-skill.sh's busybox sh cases are skipped and say why; sh and bash still run", () => {
  const busybox = named("install-agent-skill.sh with busybox sh");
  expect(busybox.length).toBeGreaterThan(0);
  expect(busybox.map((r) => r.status)).toEqual(busybox.map(() => "pending"));
  expect(busybox[0].ancestorTitles[0]).toContain("[skipped: BusyBox is not installed");
  for (const shell of ["sh", "bash"]) {
    const ran = results.filter(
      (r) => r.ancestorTitles[0] === `install-agent-skill.sh with ${shell}`,
    );
    expect(ran.length).toBe(busybox.length);
    expect(ran.map((r) => r.status)).toEqual(ran.map(() => "passed"));
  }
});

test("without shellcheck its own verdict's test is skipped and says why; the rest passes", () => {
  const finding = named("a finding fails it");
  expect(finding.map((r) => [r.status, r.title])).toEqual([
    ["pending", "a finding fails it, naming file and line [skipped: shellcheck is not installed]"],
  ]);
  const failed = results.filter((r) => r.status === "failed");
  expect(failed.map((r) => r.title)).toEqual([]);
  expect(status).toBe(0);
});
