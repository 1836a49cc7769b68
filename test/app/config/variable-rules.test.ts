/**
 * Template variables with a known shape carry rules (lib/core/template-variable.ts). An operator's
 * default from coder-cdktf.jsonc that breaks one fails synth at the value's position, with the
 * field and the reason; a value given at push time is refused by the same rule, written as the
 * variable's Terraform `validation` block.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ConfigError, parseOperatorConfig } from "../../../app/operator-config";
import { TEMPLATES } from "../../../app/registry";
import { synthTemplates } from "../../../app/synth";
import { TerraformError, TerraformHarness } from "@coder-cdktf/terraform-harness";
import { thrownMessage } from "../../support/thrown-message";

jest.setTimeout(120_000);

const scratch: string[] = [];
afterAll(() => scratch.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** Synthesizes every template listed in `text` (a config file named deploy.jsonc). */
function synthWith(text: string) {
  const config = parseOperatorConfig(
    text,
    "deploy.jsonc",
    TEMPLATES.map((t) => t.id),
  );
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "variable-rules-"));
  scratch.push(outdir);
  return synthTemplates({ outdir, config });
}

/** The message of the ConfigError `fn` throws. */
function configError(fn: () => unknown): string {
  return thrownMessage(ConfigError, fn);
}

/** A config setting one variable of one template, the value on line 3. */
const oneVariable = (template: string, name: string, value: unknown) =>
  `{ "templates": {\n  "${template}": { "variables": {\n    "${name}": ${JSON.stringify(value)} } } } }`;

const DNS_LABEL =
  "a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)";

describe("an operator's variable default that breaks the variable's rule", () => {
  it.each([
    [
      "devcontainer",
      "max_cpu",
      -4,
      "deploy.jsonc:3:16: templates.devcontainer.variables.max_cpu: -4 is not allowed; max_cpu must be a number greater than 0",
    ],
    [
      "devcontainer",
      "max_memory",
      0,
      "deploy.jsonc:3:19: templates.devcontainer.variables.max_memory: 0 is not allowed; max_memory must be a number greater than 0",
    ],
    [
      "devcontainer",
      "max_disk",
      0,
      "deploy.jsonc:3:17: templates.devcontainer.variables.max_disk: 0 is not allowed; max_disk must be a number greater than 0",
    ],
    [
      "devcontainer",
      "max_extended_resources",
      { gpu: 1 },
      'deploy.jsonc:3:31: templates.devcontainer.variables.max_extended_resources: {"gpu":1} is not allowed; max_extended_resources must be a map of extended resource names (a domain, "/", a name, e.g. "nvidia.com/gpu") to whole numbers of at least 1',
    ],
    [
      "devcontainer",
      "max_forwarded_ports",
      500,
      "deploy.jsonc:3:28: templates.devcontainer.variables.max_forwarded_ports: 500 is not allowed; max_forwarded_ports must be a whole number from 0 to 100",
    ],
    [
      "devcontainer",
      "lifecycle_timeout_minutes",
      1441,
      "deploy.jsonc:3:34: templates.devcontainer.variables.lifecycle_timeout_minutes: 1441 is not allowed; lifecycle_timeout_minutes must be a whole number from 0 to 1440",
    ],
    [
      "devcontainer",
      "namespace",
      "",
      `deploy.jsonc:3:18: templates.devcontainer.variables.namespace: "" is not allowed; namespace must be ${DNS_LABEL}`,
    ],
    [
      "devcontainer",
      "devcontainer_builder_endpoint",
      "devcontainer-builder:8080",
      'deploy.jsonc:3:38: templates.devcontainer.variables.devcontainer_builder_endpoint: "devcontainer-builder:8080" is not allowed; devcontainer_builder_endpoint must be an https:// URL, or an http:// URL to a Service in the cluster (one label, or a name with a .svc label such as builder.ns.svc.cluster.local), without credentials (git tokens are sent there)',
    ],
    [
      "devcontainer",
      "devcontainer_builder_endpoint",
      "http://builder.example.com:8080",
      'deploy.jsonc:3:38: templates.devcontainer.variables.devcontainer_builder_endpoint: "http://builder.example.com:8080" is not allowed; devcontainer_builder_endpoint must be an https:// URL, or an http:// URL to a Service in the cluster (one label, or a name with a .svc label such as builder.ns.svc.cluster.local), without credentials (git tokens are sent there)',
    ],
    [
      "kubernetes",
      "namespace",
      "Coder_Workspaces",
      `deploy.jsonc:3:18: templates.kubernetes.variables.namespace: "Coder_Workspaces" is not allowed; namespace must be ${DNS_LABEL}`,
    ],
    [
      "packer-builder",
      "max_memory",
      1.5,
      "deploy.jsonc:3:19: templates.packer-builder.variables.max_memory: 1.5 is not allowed; max_memory must be a whole number greater than 0",
    ],
    [
      "packer-builder",
      "harvester_api_server",
      "http://harvester.example.com",
      'deploy.jsonc:3:29: templates.packer-builder.variables.harvester_api_server: "http://harvester.example.com" is not allowed; harvester_api_server must be an https:// URL without credentials (https://host[:port][/path])',
    ],
    [
      "packer-builder",
      "repository_url",
      "https://bot:hunter2@git.example.com/infra.git",
      // Refused before any rule, without echoing the value (operator-config.test.ts).
      "deploy.jsonc:3:23: templates.packer-builder.variables.repository_url: an http(s) URL with a user name or password in it is not allowed (the value is not shown: it may be a token). Credentials in this file would ship in the template and in every workspace's scripts; give the URL without them and let Coder provide credentials (external auth, push-time variables).",
    ],
  ])("%s %s = %j fails synth at the value", (template, name, value, message) => {
    expect(configError(() => synthWith(oneVariable(template, name, value)))).toBe(message);
  });

  it("a value of the wrong type is still reported as a type error first", () => {
    expect(configError(() => synthWith(oneVariable("devcontainer", "max_cpu", "-4")))).toBe(
      'deploy.jsonc:3:16: templates.devcontainer.variables.max_cpu: "-4" is not allowed; the variable has type number (a number)',
    );
  });

  it("values that follow the rules become the defaults in main.tf", () => {
    const built = synthWith(
      '{ "templates": {\n' +
        '  "devcontainer": { "variables": { "namespace": "dev-ws", "max_cpu": 0.5, "max_forwarded_ports": 0, "image_pull_secret_name": "" } },\n' +
        '  "packer-builder": { "variables": { "max_memory": 16, "repository_url": "git@git.example.com:infra/core.git" } } } }',
    );
    const variables = (id: string) => built.find((t) => t.id === id)!.model.variable;
    expect(variables("devcontainer")).toMatchObject({
      namespace: { default: "dev-ws" },
      max_cpu: { default: 0.5 },
      max_forwarded_ports: { default: 0 },
      image_pull_secret_name: { default: "" },
    });
    expect(variables("packer-builder")).toMatchObject({
      max_memory: { default: 16 },
      repository_url: { default: "git@git.example.com:infra/core.git" },
    });
  });
});

describe("the same rules at push time", () => {
  let tf: TerraformHarness;
  let stacks: Map<string, string>;
  beforeAll(async () => {
    tf = await TerraformHarness.start();
    stacks = new Map(synthWith("{}").map((t) => [t.id, t.dir]));
  });
  afterAll(() => tf?.stop());

  /** The error details of a plan that Terraform refuses. */
  async function refusal(id: string, variables: Record<string, unknown>): Promise<string[]> {
    const error = await tf.plan(stacks.get(id)!, { variables }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TerraformError);
    return (error as TerraformError).diagnostics
      .filter((d) => d.severity === "error")
      .map((d) => `${d.summary}: ${d.detail.split("\n")[0]}`);
  }

  it("kubernetes: a namespace that is not a DNS-1123 label fails the plan", async () => {
    expect(await refusal("kubernetes", { namespace: "Coder_Workspaces" })).toEqual([
      `Invalid value for variable: namespace must be ${DNS_LABEL}.`,
    ]);
  });

  it.each([
    ["https://ghp_0123456789abcdefTOKEN@github.com/org/infra.git"],
    ["https://bot:hunter2@git.example.com/infra.git"],
    ["https::https://ghp_0123456789abcdefTOKEN@github.com/org/infra.git"],
  ])("packer-builder: repository_url %s (credentials in the URL) fails the plan", async (url) => {
    expect(
      await refusal("packer-builder", {
        harvester_api_server: "https://harvester.example.com/k8s/clusters/local",
        image: "registry.example.com/packer-builder:1.4.0",
        repository_url: url,
      }),
    ).toEqual([
      "Invalid value for variable: repository_url must be a git URL without credentials in it (no password, no user name in an http(s) URL; credentials come from Coder, not the URL).",
    ]);
  });

  const DEVCONTAINER_REQUIRED = {
    namespace: "coder-workspaces",
    devcontainer_builder_endpoint: "http://devcontainer-builder:8080",
  };

  it.each([
    ["https://ci-bot:glpat-SECRET123@artifacts.example.com/ext.vsix?X-Amz-Signature=abc"],
    ["HTTPS://glpat-SECRET123@artifacts.example.com/ext.vsix"],
  ])("devcontainer: vscode_extension %s (credentials in the URL) fails the plan", async (url) => {
    const errors = await refusal("devcontainer", {
      ...DEVCONTAINER_REQUIRED,
      vscode_extension: url,
    });
    expect(errors).toEqual([
      'Invalid value for variable: vscode_extension must be a Marketplace ID, an http(s):// URL of a VSIX with no user name or password in it, or "".',
    ]);
    expect(errors.join("\n")).not.toContain("SECRET123");
  });

  it("devcontainer: a vscode_extension with a line break fails the plan", async () => {
    const errors = await refusal("devcontainer", {
      ...DEVCONTAINER_REQUIRED,
      vscode_extension: "https://artifacts.example.com/ext.vsix\noutput = /tmp/x",
    });
    expect(errors).toEqual([
      "Invalid value for variable: vscode_extension must be free of line breaks and other control characters.",
    ]);
  });

  it("devcontainer: a Marketplace ID and a VSIX URL with a signed query pass vscode_extension's rule", async () => {
    for (const value of [
      "acme.our-extension",
      "https://artifacts.example.com/@scope/ext.vsix?X-Amz-Signature=a@b",
      "",
    ]) {
      // max_cpu fails the plan, so that it stops at the variables.
      const errors = await refusal("devcontainer", {
        ...DEVCONTAINER_REQUIRED,
        vscode_extension: value,
        max_cpu: -4,
      });
      expect([value, errors]).toEqual([
        value,
        ["Invalid value for variable: max_cpu must be a number greater than 0."],
      ]);
    }
  });

  it("devcontainer: a negative max_cpu and 500 port slots fail the plan, each with its rule", async () => {
    const errors = await refusal("devcontainer", {
      namespace: "coder-workspaces",
      devcontainer_builder_endpoint: "http://devcontainer-builder:8080",
      max_cpu: -4,
      max_forwarded_ports: 500,
    });
    expect(errors.sort()).toEqual([
      "Invalid value for variable: max_cpu must be a number greater than 0.",
      "Invalid value for variable: max_forwarded_ports must be a whole number from 0 to 100.",
    ]);
  });
});
