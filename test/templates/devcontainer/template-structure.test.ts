/**
 * The devcontainer template's synthesized configuration: the surface operators and existing
 * workspaces depend on (variables, parameters, providers, addresses), checked without Terraform.
 */
import { TerraformElement } from "../../../lib/core/cdk";
import { App } from "../../../lib/core/cdk";
import { DevcontainerTemplate } from "../../../templates/devcontainer";
import { synthesizeDevcontainer, type SynthesizedDevcontainer } from "./synthesized";
import { GIT_BRANCH_ERROR, GIT_BRANCH_PATTERN } from "../../../lib/devcontainer/git-branch-name";

let template: SynthesizedDevcontainer;
beforeAll(() => (template = synthesizeDevcontainer()));
afterAll(() => template.cleanup());

it("writes the template variables in the spec's order, with types, defaults and sensitivity", () => {
  // File order is what Coder shows; synth rewrites cdktf's sorted keys in declaration order.
  const declared = template.config.variable as Record<string, any>;
  const variables = Object.entries(declared).map(([name, v]) => [
    name,
    v.type,
    v.default,
    v.sensitive ?? false,
  ]);
  expect(variables).toEqual([
    ["use_kubeconfig", "bool", false, false],
    ["namespace", "string", undefined, false],
    ["devcontainer_builder_endpoint", "string", undefined, false],
    ["image_pull_secret_name", "string", "", false],
    ["accept_vscode_license", "bool", true, false],
    ["allow_privileged", "bool", false, false],
    ["pod_security_level", "string", "baseline", false],
    ["subdomain_apps", "bool", true, false],
    ["max_forwarded_ports", "number", 10, false],
    ["lifecycle_timeout_minutes", "number", 60, false],
    ["vscode_extension", "string", "deepspacecartel.devcontainer-builder", false],
    ["external_auth_id", "string", "", false],
    ["max_cpu", "number", 8, false],
    ["max_memory", "number", 32, false],
    ["allow_node_placement", "bool", false, false],
    ["git_credentials_username", "string", "", false],
    ["git_credentials_token", "string", "", true],
    ["git_credentials_hosts", "list(string)", [], false],
    ["external_auth_host", "string", "", false],
    ["user_secrets", "list(string)", [], false],
    ["allow_template_git_token_fallback", "bool", false, false],
    ["max_disk", "number", 128, false],
    ["max_ephemeral_storage", "number", 32, false],
    ["max_extended_resources", "map(number)", { "nvidia.com/gpu": 1 }, false],
    ["memory_alert_threshold", "number", 80, false],
    ["disk_alert_threshold", "number", 90, false],
    ["dotfiles", "bool", true, false],
    ["git_config", "bool", true, false],
  ]);
});

it("declares the workspace parameters with order, type, default, mutability and icons", () => {
  const params = Object.values(template.config.data.coder_parameter as Record<string, any>)
    .sort((a, b) => a.order - b.order)
    .map((p) => [p.order, p.name, p.display_name, p.type, p.default, p.mutable, p.icon]);
  expect(params).toEqual([
    [1, "repository", "Git repository", "string", undefined, false, "/icon/git.svg"],
    [2, "branch", "Branch", "string", "main", false, "/icon/git.svg"],
    [3, "cpu", "CPU", "string", "2", true, "/icon/memory.svg"],
    [4, "memory", "Memory", "string", "2", true, "/icon/memory.svg"],
    [5, "disk_size", "Disk size", "number", "10", false, "/emojis/1f4be.png"],
    [
      6,
      "devcontainer_variables",
      "Dev Container variables",
      "string",
      "",
      true,
      "/icon/docker.svg",
    ],
    [7, "rebuild", "Rebuild", "number", "0", true, "/icon/docker.svg"],
  ]);
  const p = template.config.data.coder_parameter;
  const options = (name: string) => p[name].option.map((o: any) => [o.name, o.value]);
  expect(options("cpu")).toEqual([
    ["2 Cores", "2"],
    ["4 Cores", "4"],
    ["6 Cores", "6"],
    ["8 Cores", "8"],
  ]);
  expect(options("memory")).toEqual([
    ["2 GiB", "2"],
    ["4 GiB", "4"],
    ["6 GiB", "6"],
    ["8 GiB", "8"],
  ]);
  expect(p.disk_size.validation).toEqual({ min: 1, max: 99999 });
  expect(p.devcontainer_variables.form_type).toBe("textarea");
  // Literal ${localEnv:…} in a description must not become an interpolation.
  expect(p.devcontainer_variables.description).toContain("$${localEnv:NAME}");
});

it("configures the three providers and asks for external auth only when configured", () => {
  const tf = template.config;
  expect(tf.terraform.required_providers.devcontainerbuilder).toEqual({
    source: "deepspacecartel/devcontainer-builder",
    version: ">= 0.3.0, < 2.0.0",
  });
  expect(tf.provider.devcontainerbuilder).toEqual([
    { endpoint: "${var.devcontainer_builder_endpoint}" },
  ]);
  expect(tf.provider.kubernetes[0].config_path).toBe(
    '${var.use_kubeconfig ? "~/.kube/config" : null}',
  );
  expect(tf.data.coder_external_auth.git).toMatchObject({
    count: '${var.external_auth_id != "" ? 1 : 0}',
    id: "${var.external_auth_id}",
  });
});

it("replaces the build when the rebuild tracker changes, never for a new token", () => {
  const build = template.config.resource.devcontainerbuilder_build.workspace;
  expect(build.count).toBeUndefined();
  expect(build.lifecycle).toEqual({
    ignore_changes: ["git_credentials"],
    replace_triggered_by: ["terraform_data.rebuild"],
    // The branch's rule again before the service gets it (branch-parameter.test.ts).
    precondition: [
      {
        condition: `\${can(regex(${JSON.stringify(GIT_BRANCH_PATTERN)}, data.coder_parameter.branch.value))}`,
        error_message: GIT_BRANCH_ERROR,
      },
    ],
  });
  expect(build.registry_credentials).toBeUndefined();
  expect(template.config.resource.terraform_data.rebuild.input).toBe(
    "${data.coder_parameter.rebuild.value}",
  );
  const data = template.config.data.devcontainerbuilder_devcontainer.workspace;
  expect(data.count).toBe("${data.coder_workspace.me.start_count}");
  // One instance's metadata without the sensitive registry_credentials (see DevcontainerSource).
  expect(template.config.locals.dc).toBe(
    '${one([for metadata in data.devcontainerbuilder_devcontainer.workspace : { for attribute, value in metadata : attribute => value if attribute != "registry_credentials" }])}',
  );
});

it("pins the IDE modules and counts them by start_count (vscode-web also by the license)", () => {
  const modules = template.config.module;
  expect(modules.vscode_web).toMatchObject({
    source: "registry.coder.com/coder/vscode-web/coder",
    version: "1.6.2",
    count: "${var.accept_vscode_license ? data.coder_workspace.me.start_count : 0}",
  });
  expect(modules.vscode_desktop).toMatchObject({
    source: "registry.coder.com/coder/vscode-desktop/coder",
    version: "1.3.0",
    count: "${data.coder_workspace.me.start_count}",
  });
});

it("gives every local, resource and data source its own address", () => {
  const app = new App({ outdir: template.dir });
  const stack = new DevcontainerTemplate(app, "devcontainer");
  const seen = new Map<string, string>();
  for (const node of stack.node.findAll()) {
    if (!(node instanceof TerraformElement)) continue;
    const json = node.toTerraform() as Record<string, Record<string, unknown>>;
    const kind = Object.keys(json).find((k) => k !== "//") ?? "";
    const inner = json[kind] ?? {};
    const type = kind === "resource" || kind === "data" ? Object.keys(inner)[0] : "";
    const address = `${kind}.${type}.${node.friendlyUniqueId}`;
    expect(seen.get(address) ?? node.node.path).toBe(node.node.path);
    seen.set(address, node.node.path);
  }
  expect(seen.size).toBeGreaterThan(100);
});

it("keeps the agent free of dir and startup_script, with the metadata in file order", () => {
  const agent = template.config.resource.coder_agent.main;
  expect(agent.dir).toBeUndefined();
  expect(agent.startup_script).toBeUndefined();
  expect(agent.display_apps).toEqual({ vscode: false });
  expect(agent.metadata.map((m: any) => [m.key, m.display_name, m.interval, m.timeout])).toEqual([
    ["7_devcontainer_variables", "Dev Container variables", 60, 1],
    ["9_resources", "Resources (reserved / limit)", 3600, 1],
    ["8_devcontainer_warnings", "Dev Container warnings", 3600, 1],
    ["8_devcontainer_lifecycle_after_login", "Dev Container lifecycle after login", 10, 1],
    ["8_devcontainer_post_attach", "Dev Container postAttachCommand", 10, 1],
    ["9_pod_security", "Pod Security", 3600, 1],
    ["0_cpu_usage", "CPU Usage", 10, 1],
    ["1_ram_usage", "RAM Usage", 10, 1],
    ["3_home_disk", "Data Disk", 60, 1],
    ["4_cpu_usage_host", "CPU Usage (Host)", 10, 1],
    ["5_mem_usage_host", "Memory Usage (Host)", 10, 1],
    ["6_load_host", "Load Average (Host)", 60, 1],
  ]);
});
