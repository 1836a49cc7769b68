/**
 * The suite's jest environment (shared-mock-environment.ts): one mock provider process per
 * worker, handed to every test file's harness (harness-setup.ts), replaced once it died, and
 * ended with the worker.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import { sharedMockProcess } from "@coder-cdktf/terraform-harness/src/shared-mock";

const ROOT = join(__dirname, "..", "..");

/** The mock provider process a harness uses (private to it; read for the test). */
function pidOf(tf: TerraformHarness): number | undefined {
  return (tf as unknown as { server: { pid?: number } }).server.pid;
}

/** Whether a process with this id runs (an ended one its parent has yet to reap does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true; // no /proc: kill(pid, 0) is all there is
  }
}

/** Resolves once `condition` holds (checked every 10 ms), or rejects after `ms`. */
async function until(condition: () => boolean, ms = 10000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "shared-mock-env-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("hands this file's harnesses the worker's process, which their stop() leaves running", async () => {
  const mock = await sharedMockProcess();
  expect(mock?.running).toBe(true);
  const a = await TerraformHarness.start();
  const b = await TerraformHarness.start();
  expect([pidOf(a), pidOf(b)]).toEqual([mock?.pid, mock?.pid]);
  await a.stop();
  await b.stop();
  expect(mock?.running).toBe(true);
  expect(alive(mock!.pid!)).toBe(true);
});

it("replaces the worker's process once it died, so a file that killed it breaks no other", async () => {
  const dead = await sharedMockProcess();
  process.kill(dead!.pid!, "SIGKILL");
  await until(() => !dead!.running);
  const tf = await TerraformHarness.start();
  try {
    expect(pidOf(tf)).not.toBe(dead?.pid);
    expect(alive(pidOf(tf)!)).toBe(true);
    expect(pidOf(tf)).toBe((await sharedMockProcess())?.pid);
  } finally {
    await tf.stop();
  }
});

it("is one process for the test files of a jest run in band, and ends when jest does", async () => {
  const pids = join(dir, "pids");
  const files = ["first", "second"].map((name) => {
    const file = join(dir, `${name}.test.js`);
    // Plain JavaScript: what a harness in each file would be handed (harness-setup.ts).
    writeFileSync(
      file,
      [
        `const { SHARED_MOCK_GLOBAL, mockEnvironment } = require(${JSON.stringify(
          join(ROOT, "packages", "terraform-harness", "src", "shared-mock.ts"),
        )});`,
        `test("records the worker's mock", async () => {`,
        `  const mock = await globalThis[SHARED_MOCK_GLOBAL](mockEnvironment(process.env));`,
        `  require("fs").appendFileSync(${JSON.stringify(pids)}, mock.pid + "\\n");`,
        `});`,
        ``,
      ].join("\n"),
    );
    return file;
  });
  const config = {
    rootDir: ROOT,
    roots: [dir],
    testEnvironment: "<rootDir>/test/support/shared-mock-environment.ts",
    transform: { "^.+\\.ts$": "<rootDir>/scripts/ts.js" },
    ci: true,
  };
  // In band: both files in this one jest process, which must exit with the mock idle.
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, "node_modules", "jest", "bin", "jest.js"),
      "--config",
      JSON.stringify(config),
      "--runInBand",
      "--runTestsByPath",
      ...files,
    ],
    { cwd: ROOT, encoding: "utf8", timeout: 50000 },
  );
  expect(run.stderr).toContain("Tests:       2 passed, 2 total");
  expect(run.status).toBe(0);
  const recorded = readFileSync(pids, "utf8").trim().split("\n").map(Number);
  expect(recorded).toHaveLength(2);
  expect(recorded[1]).toBe(recorded[0]);
  // Its stdin closed with jest: it exits rather than outlive the run.
  await until(() => !alive(recorded[0]));
});
