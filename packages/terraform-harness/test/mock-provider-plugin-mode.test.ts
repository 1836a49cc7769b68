/**
 * The mock provider started by Terraform itself through dev_overrides (the way a developer can
 * use it by hand), with go-plugin's AutoMTLS handshake and with TLS disabled.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mockProviderEntry } from "../src/mock-provider-bundle";
import { runTerraform } from "../src/terraform-cli";

describe("mock provider in plugin mode (dev_overrides)", () => {
  let dir: string;
  let env: Record<string, string>;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "mock-plugin-"));
    const providers = join(dir, "providers");
    const config = join(dir, "config");
    for (const d of [providers, config]) mkdirSync(d);
    symlinkSync(mockProviderEntry(), join(providers, "terraform-provider-coder"));
    writeFileSync(
      join(dir, "dev.tfrc"),
      `provider_installation {\n  dev_overrides {\n    "coder/coder" = "${providers}"\n  }\n  direct {}\n}\n`,
    );
    writeFileSync(
      join(config, "main.tf.json"),
      JSON.stringify({
        terraform: { required_providers: { coder: { source: "coder/coder" } } },
        data: { coder_workspace: { me: {} } },
        resource: { coder_agent: { main: { os: "linux", arch: "amd64" } } },
        output: { name: { value: "${data.coder_workspace.me.name}" } },
      }),
    );
    writeFileSync(
      join(dir, "fixtures.json"),
      JSON.stringify({ data_sources: { coder_workspace: { name: "from-fixture" } } }),
    );
    env = {
      TF_CLI_CONFIG_FILE: join(dir, "dev.tfrc"),
      TFMOCK_FIXTURES: join(dir, "fixtures.json"),
    };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("plans over AutoMTLS with a self-signed certificate", async () => {
    const cwd = join(dir, "config");
    await runTerraform(["plan", "-input=false", "-lock=false", "-out=tfplan"], { cwd, env });
    const show = JSON.parse((await runTerraform(["show", "-json", "tfplan"], { cwd, env })).stdout);
    expect(show.planned_values.outputs.name.value).toBe("from-fixture");
    expect(show.resource_changes[0].change.after_unknown).toMatchObject({ id: true, token: true });
  });

  it("validates with TF_DISABLE_PLUGIN_TLS (plain gRPC)", async () => {
    const cwd = join(dir, "config");
    const run = await runTerraform(["validate", "-json"], {
      cwd,
      env: { ...env, TF_DISABLE_PLUGIN_TLS: "1" },
    });
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: true, error_count: 0 });
  });
});
