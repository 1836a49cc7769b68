/**
 * The BusyBox variants of the script tests report as skipped, with the reason, on a machine
 * without BusyBox (a fresh machine with Node and Terraform only), instead of failing or
 * disappearing. Runs jest itself on one script test file with a PATH that has every host
 * tool except busybox.
 */
import { existsSync, readdirSync, symlinkSync } from "node:fs";
import { delimiter, join } from "node:path";
import { projectRoot } from "../../../../lib/core/project-root";
import { runJest } from "../../../support/run-jest";
import { tempDirs } from "../../../support/run-script";

const ROOT = projectRoot();
const dirs = tempDirs();
afterAll(() => dirs.cleanup());

/** A PATH of one folder linking every executable of the host PATH but `busybox`. */
function pathWithoutBusybox(): string {
  const bin = dirs.make("no-busybox");
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir || !existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (name === "busybox" || existsSync(join(bin, name))) continue;
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  return bin;
}

test("without BusyBox its variants are skipped and say why; the host variants still run", () => {
  // The project's transform and roots, without the global setup (no template is needed).
  const run = runJest(
    { roots: ["<rootDir>/test"], testEnvironment: "node" },
    [
      "--json",
      "--runTestsByPath",
      join(ROOT, "test", "templates", "devcontainer", "scripts", "seed-home.test.ts"),
    ],
    { env: { ...process.env, PATH: pathWithoutBusybox() } },
  );
  const report = JSON.parse(run.stdout) as {
    testResults: { assertionResults: { ancestorTitles: string[]; status: string }[] }[];
  };
  const results = report.testResults.flatMap((r) => r.assertionResults);
  const byToolset = (name: string) =>
    results.filter((r) => r.ancestorTitles.some((t) => t.includes(`with ${name} tools`)));
  const busybox = byToolset("busybox");
  expect(busybox.length).toBeGreaterThan(0);
  for (const r of busybox) {
    expect(r.status).toBe("pending");
    expect(r.ancestorTitles.join(" ")).toContain("skipped: BusyBox is not installed");
  }
  const host = byToolset("host");
  expect(host.length).toBe(busybox.length);
  expect(host.map((r) => r.status)).toEqual(host.map(() => "passed"));
  expect(run.status).toBe(0);
});
