/**
 * The mock provider's long-lived process: started, asked for servers, stopped; and the CPU
 * record the benchmark reads (TFMOCK_CPU_LOG).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockProviderProcess } from "../src/mock-provider-process";
import { runTerraform } from "../src/terraform-cli";

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

it("announces an optional schema, as the real providers do: one GetProviderSchema per run", async () => {
  // terraform-plugin-mux and the SDKs announce GetProviderSchemaOptional; Terraform then
  // serves every provider instance after the first from its own cache.
  const dir = mkdtempSync(join(tmpdir(), "mock-schema-"));
  dirs.push(dir);
  const log = join(dir, "calls.log");
  writeFileSync(
    join(dir, "main.tf.json"),
    JSON.stringify({
      terraform: { required_providers: { coder: { source: "coder/coder" } } },
      resource: {
        coder_agent: { main: { os: "linux", arch: "amd64" } },
        coder_env: { a: { agent_id: "${coder_agent.main.id}", name: "A", value: "1" } },
      },
    }),
  );
  const mock = await MockProviderProcess.start({ TFMOCK_LOG: log });
  const servers = await mock.open(join(dir, "no-fixtures.json"));
  try {
    await runTerraform(["plan", "-input=false", "-lock=false", "-out=tfplan"], {
      cwd: dir,
      env: { TF_REATTACH_PROVIDERS: servers.reattach },
    });
  } finally {
    await servers.close();
    await mock.stop();
  }
  const calls = readFileSync(log, "utf8").trim().split("\n");
  // Several instances of the provider were started (validate, plan), yet one schema call.
  expect(calls.filter((c) => c.includes(" ConfigureProvider")).length).toBeGreaterThan(0);
  expect(calls.filter((c) => c.includes(" GetProviderSchema"))).toEqual([
    "registry.terraform.io/coder/coder GetProviderSchema ",
  ]);
});
