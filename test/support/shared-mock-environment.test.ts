/**
 * The suite's jest environment (shared-mock-environment.ts): one mock provider process per
 * worker, handed to every test file's harness (harness-setup.ts), replaced once it died, and
 * ended with the worker.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import { sharedMockProcess } from "@coder-cdktf/terraform-harness/src/shared-mock";
import { projectRoot } from "../../lib/core/project-root";
import { runJest } from "./run-jest";

const ROOT = projectRoot();

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

it("is one process for the test files of a jest run in band, and ends before jest does", () => {
  // One log, in order: each file's mock, the mock's CPU record (TFMOCK_CPU_LOG, written as it
  // exits) and jest's exit.
  const log = join(dir, "events.log");
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
        `  require("fs").appendFileSync(${JSON.stringify(log)}, "mock " + mock.pid + "\\n");`,
        `});`,
        ``,
      ].join("\n"),
    );
    return file;
  });
  const globalSetup = join(dir, "global-setup.js");
  writeFileSync(
    globalSetup,
    `module.exports = () => process.on("exit", () => require("fs").appendFileSync(${JSON.stringify(
      log,
    )}, "jest exited\\n"));\n`,
  );
  // In band: both files in this one jest process, which must exit with the mock idle.
  const run = runJest(
    {
      roots: [dir],
      testEnvironment: "<rootDir>/test/support/shared-mock-environment.ts",
      globalSetup,
    },
    ["--runInBand", "--runTestsByPath", ...files],
    // A jest the mock kept alive would never end.
    { env: { ...process.env, TFMOCK_CPU_LOG: log }, timeout: 50000 },
  );
  expect(run.stderr).toContain("Tests:       2 passed, 2 total");
  expect(run.status).toBe(0);
  const [first, second, cpu, last, ...rest] = readFileSync(log, "utf8").trim().split("\n");
  expect(first).toMatch(/^mock \d+$/);
  expect(second).toBe(first);
  // Stopped before jest exited (so jest reaped it and counts its CPU time), not left behind.
  expect(cpu).toMatch(/^\d+$/);
  expect([last, ...rest]).toEqual(["jest exited"]);
  expect(alive(Number(first.split(" ")[1]))).toBe(false);
});
