/**
 * One mock provider process for many harnesses (src/shared-mock.ts): started once, handed to
 * every harness of its environment, replaced when it died; a harness's stop() closes its own
 * server sets and leaves the process to the others. The test sets its own SharedMock, so it
 * proves the same under the project's jest (whose environment shares one per worker) and
 * under the harness package's own.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockProviderProcess } from "../src/mock-provider-process";
import { RUN_CACHE_ENV } from "../src/run-cache";
import { mockEnvironment, setSharedMockProvider, SharedMock } from "../src/shared-mock";
import { TerraformHarness } from "../src/terraform-harness";

/** The mock provider process a harness uses (private to it; read for the test). */
function serverOf(tf: TerraformHarness): MockProviderProcess {
  return (tf as unknown as { server: MockProviderProcess }).server;
}

/** Resolves once `condition` holds (checked every 10 ms). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const shared = new SharedMock();
const environment = mockEnvironment(process.env);
let dir: string;

beforeAll(() => {
  // Every plan here must reach the mock: none may be read from the run's cache.
  delete process.env[RUN_CACHE_ENV];
  dir = mkdtempSync(join(tmpdir(), "shared-mock-"));
  writeFileSync(
    join(dir, "main.tf.json"),
    JSON.stringify({
      terraform: { required_providers: { coder: { source: "coder/coder" } } },
      resource: { coder_agent: { main: { os: "linux", arch: "amd64" } } },
    }),
  );
  setSharedMockProvider(shared.provider);
});
afterAll(async () => {
  await shared.stop();
  rmSync(dir, { recursive: true, force: true });
});

it("starts one process on first use, hands it to every caller and replaces it once it died", async () => {
  const first = await shared.get(environment);
  expect(await shared.get(environment)).toBe(first);
  expect(first?.running).toBe(true);
  process.kill(first!.pid!, "SIGKILL");
  await until(() => !first!.running);
  const next = await shared.get(environment);
  expect(next?.running).toBe(true);
  expect(next?.pid).not.toBe(first?.pid);
  // A test file that changes what the mock does (TFMOCK_*) gets no shared process.
  expect(shared.get({ ...environment, TFMOCK_LOG: join(dir, "calls.log") })).toBeUndefined();
});

it("is one process for two harnesses; stopping one leaves it, and its calls in flight, running", async () => {
  const mock = await shared.get(environment);
  const a = await TerraformHarness.start();
  const b = await TerraformHarness.start();
  expect(serverOf(a).pid).toBe(mock?.pid);
  expect(serverOf(b).pid).toBe(mock?.pid);
  // a's call has its server set (or is about to open it) when a stops: closing the set under
  // Terraform would have Terraform kill the process (go-plugin kills a reattached process
  // it cannot reach), so the call keeps it until Terraform ends.
  const planningA = a.plan(dir);
  const planningB = b.plan(dir);
  await a.stop();
  await expect(a.plan(dir)).rejects.toThrow("the TerraformHarness was stopped");
  for (const plan of await Promise.all([planningA, planningB])) {
    expect(plan.resource("coder_agent.main").after).toMatchObject({ os: "linux", arch: "amd64" });
  }
  expect(mock?.running).toBe(true);
  await b.stop();
  expect(mock?.running).toBe(true);
  expect(await shared.get(environment)).toBe(mock);
});

it("without a shared process a harness starts its own and stops it", async () => {
  const mock = await shared.get(environment);
  setSharedMockProvider(undefined);
  try {
    const tf = await TerraformHarness.start();
    const own = serverOf(tf);
    expect(own.pid).not.toBe(mock?.pid);
    await tf.stop();
    expect(own.running).toBe(false);
    expect(mock?.running).toBe(true);
  } finally {
    setSharedMockProvider(shared.provider);
  }
});
