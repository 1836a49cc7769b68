/**
 * DevcontainerSource: the image build (never rebuilt by a stop, replaced by a new `rebuild`),
 * the metadata read while started, and the named locals the rest of the template reads.
 */
import { TerraformVariable } from "../../../lib/core/cdk";
import { coderProvider } from "../../../lib/constructs/providers";
import { WorkspaceData } from "../../../lib/constructs/workspace-data";
import { DevcontainerSource, devcontainerBuilderProvider } from "../../../lib/devcontainer/source";
import { Expr, hcl } from "../../../lib/core/expr";
import { synthConstruct, type TerraformJson } from "../construct-stack";

function synthSource(arch?: string): TerraformJson {
  return synthConstruct((stack) => {
    coderProvider(stack);
    const endpoint = new TerraformVariable(stack, "endpoint", { type: "string" });
    devcontainerBuilderProvider(stack, endpoint);
    const v = (name: string) =>
      Expr.of<string>(new TerraformVariable(stack, name, { type: "string" }).stringValue);
    new DevcontainerSource(stack, "source", {
      workspace: new WorkspaceData(stack, "workspace"),
      repository: v("repository"),
      branch: v("branch"),
      rebuild: v("rebuild"),
      gitCredentials: hcl`null`,
      arch,
    });
  });
}

let tf: TerraformJson;
beforeAll(() => (tf = synthSource()));

it("configures the builder provider by its endpoint alone (the provider's default build timeout)", () => {
  expect(tf.provider.devcontainerbuilder).toEqual([{ endpoint: "${var.endpoint}" }]);
});

it("builds without count, so a stop never rebuilds, under the workspace's own tag", () => {
  const build = tf.resource.devcontainerbuilder_build.workspace;
  expect(build).not.toHaveProperty("count");
  expect(build).toMatchObject({
    repository: "${var.repository}",
    branch: "${var.branch}",
    image_spec: { tag: "${local.image_tag}" },
  });
});

it("replaces the build when the rebuild tracker changes, and ignores a refreshed git token", () => {
  expect(tf.resource.terraform_data.rebuild).toEqual({ input: "${var.rebuild}" });
  expect(tf.resource.devcontainerbuilder_build.workspace.lifecycle).toMatchObject({
    ignore_changes: ["git_credentials"],
    // A bare reference, as Terraform wants it in JSON; "${…}" would be rejected.
    replace_triggered_by: ["terraform_data.rebuild"],
  });
});

it("checks the branch with git's rule again before the service gets it (issue 43.8)", () => {
  const [precondition] = tf.resource.devcontainerbuilder_build.workspace.lifecycle.precondition;
  expect(precondition.condition).toContain(", var.branch))}");
  expect(precondition.condition).toMatch(/^\$\{can\(regex\(/);
  expect(precondition.error_message).toMatch(/^The branch must be a branch name as git allows it/);
});

it("tags the image ws-<workspace id>-<rebuild>, lower case, sanitized and at most 128 characters", () => {
  const tag: string = tf.locals.image_tag;
  expect(tag).toContain('format("ws-%s-%s", data.coder_workspace.me.id, var.rebuild)');
  expect(tag).toMatch(
    /^\$\{substr\(replace\(lower\(.*\), "\/\[\^a-z0-9_\.-\]\/", "-"\), 0, 128\)\}$/,
  );
});

it("reads the built image's metadata only while started, for the nodes' platform", () => {
  const metadata = tf.data.devcontainerbuilder_devcontainer.workspace;
  expect(metadata).toEqual({
    count: "${data.coder_workspace.me.start_count}",
    registry: "${devcontainerbuilder_build.workspace.resolved_registry}",
    name: "${devcontainerbuilder_build.workspace.resolved_name}",
    tag: "${devcontainerbuilder_build.workspace.resolved_tag}",
    platform: '${format("linux/%s", local.arch)}',
  });
  expect(tf.locals.arch).toBe("amd64");
  expect(synthSource("arm64").locals.arch).toBe("arm64");
});

it("names each value in a local, and every local read from the metadata falls back with try()", () => {
  expect(Object.keys(tf.locals).sort()).toEqual(
    [
      "arch",
      "image_tag",
      "dc",
      "commit",
      "runtime",
      "lifecycle_scripts",
      "env_scripts",
      "env_script_warnings",
      "vscode_extensions",
      "extension_warnings",
      "vscode_settings",
      "host_requirements",
      "dc_warnings",
      // Each list the repository controls, as given and then cut to its cap (issue 32.2).
      "dc_warnings_given",
      "extensions_given",
      "extensions_read",
      "variables_given",
      "variables",
      "variable_warnings",
      "forward_ports_listed",
      "forward_ports_read",
      // What is decided per forwardPorts entry, once, by index.
      "forward_ports_numbers_valid",
      "forward_ports_labels",
      "forward_ports_labels_cut",
      "forward_ports_labels_too_long",
      "forward_ports_names",
      "ports",
      "ports_first_position",
      "ports_valid",
      "port_warnings",
      "dc_mounts",
      "dc_configuration",
      "dc_configuration_decoded",
      "configuration_warnings",
      // runArgs, read only for --memory, cut to its cap too.
      "run_args_given",
      "run_args_set_memory",
      "run_args_warnings",
      // The one control-character pattern every check shares (NamedLocals.shared).
      "control_characters",
    ].sort(),
  );
  // One instance's metadata without the sensitive registry_credentials (see DevcontainerSource).
  expect(tf.locals.dc).toBe(
    '${one([for metadata in data.devcontainerbuilder_devcontainer.workspace : { for attribute, value in metadata : attribute => value if attribute != "registry_credentials" }])}',
  );
  const fromMetadata = Object.entries(tf.locals).filter(
    ([, expression]) => typeof expression === "string" && expression.includes("local.dc."),
  );
  expect(fromMetadata.length).toBeGreaterThanOrEqual(12);
  for (const [name, expression] of fromMetadata) {
    expect({ name, expression }).toEqual({ name, expression: expect.stringMatching(/^\$\{try\(/) });
  }
});

it('gives the commit as "" when the service does not report one', () => {
  expect(tf.locals.commit).toBe(
    '${devcontainerbuilder_build.workspace.commit == null ? "" : devcontainerbuilder_build.workspace.commit}',
  );
});
