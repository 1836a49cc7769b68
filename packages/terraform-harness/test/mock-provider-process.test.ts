/**
 * The mock provider's long-lived process: started, asked for servers, stopped; and the CPU
 * record the benchmark reads (TFMOCK_CPU_LOG).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockProviderProcess } from "../src/mock-provider-process";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

it("opens a reattach set for each provider and records its CPU time when it stops", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mock-process-"));
  dirs.push(dir);
  const log = join(dir, "cpu.log");
  const mock = await MockProviderProcess.start({ TFMOCK_CPU_LOG: log });
  const servers = await mock.open(join(dir, "no-fixtures.json"));
  const reattach = JSON.parse(servers.reattach) as Record<string, { Addr: { Network: string } }>;
  expect(Object.keys(reattach).sort()).toEqual([
    "registry.terraform.io/coder/coder",
    "registry.terraform.io/deepspacecartel/devcontainer-builder",
    "registry.terraform.io/hashicorp/kubernetes",
  ]);
  expect(Object.values(reattach).map((r) => r.Addr.Network)).toEqual(["unix", "unix", "unix"]);
  await servers.close();
  await mock.stop();
  const lines = readFileSync(log, "utf8").trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(Number(lines[0])).toBeGreaterThan(1000); // microseconds: a Node start takes more
});
