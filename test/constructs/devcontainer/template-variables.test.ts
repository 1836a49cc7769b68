/**
 * DevcontainerTemplateVariables: the devcontainer template's variables, a surface operators'
 * push scripts rely on: names, order, types, defaults and sensitivity.
 */
import { DevcontainerTemplateVariables } from "../../../lib/devcontainer/template-variables";
import { synthConstruct, type TerraformJson } from "../construct-stack";

let tf: TerraformJson;
let declared: string[];
beforeAll(() => {
  tf = synthConstruct((stack) => {
    new DevcontainerTemplateVariables(stack, "variables");
    declared = stack.declaredVariableNames();
  });
});

it("declares the variables in the documented order", () => {
  expect(declared).toEqual([
    "use_kubeconfig",
    "namespace",
    "devcontainer_builder_endpoint",
    "image_pull_secret_name",
    "accept_vscode_license",
    "allow_privileged",
    "pod_security_level",
    "subdomain_apps",
    "max_forwarded_ports",
    "lifecycle_timeout_minutes",
    "vscode_extension",
    "external_auth_id",
    "max_cpu",
    "max_memory",
    "allow_node_placement",
    "git_credentials_username",
    "git_credentials_token",
    "git_credentials_hosts",
    "external_auth_host",
    "user_secrets",
    "allow_template_git_token_fallback",
  ]);
  expect(Object.keys(tf.variable).sort()).toEqual([...declared].sort());
});

it("requires only the namespace and the builder endpoint (no default)", () => {
  const required = Object.entries(tf.variable)
    .filter(([, v]) => !("default" in (v as object)))
    .map(([name]) => name);
  expect(required.sort()).toEqual(["devcontainer_builder_endpoint", "namespace"]);
});

it.each([
  ["use_kubeconfig", "bool", false],
  ["image_pull_secret_name", "string", ""],
  ["accept_vscode_license", "bool", true],
  ["allow_privileged", "bool", false],
  ["pod_security_level", "string", "baseline"],
  ["subdomain_apps", "bool", true],
  ["max_forwarded_ports", "number", 10],
  ["lifecycle_timeout_minutes", "number", 60],
  ["vscode_extension", "string", "deepspacecartel.devcontainer-builder"],
  ["external_auth_id", "string", ""],
  ["max_cpu", "number", 8],
  ["max_memory", "number", 32],
  ["allow_node_placement", "bool", false],
  ["git_credentials_username", "string", ""],
  ["git_credentials_token", "string", ""],
  ["allow_template_git_token_fallback", "bool", false],
])("%s is a %s defaulting to %j", (name, type, value) => {
  expect(tf.variable[name]).toMatchObject({ type, default: value });
});

it("gates privileged access and node placement off by default", () => {
  expect(tf.variable.allow_privileged.default).toBe(false);
  expect(tf.variable.allow_node_placement.default).toBe(false);
  expect(tf.variable.allow_template_git_token_fallback.default).toBe(false);
});

it("marks the git token, and only it, sensitive", () => {
  const sensitive = Object.entries(tf.variable)
    .filter(([, v]) => (v as { sensitive?: boolean }).sensitive === true)
    .map(([name]) => name);
  expect(sensitive).toEqual(["git_credentials_token"]);
});

it("describes every variable for the operator", () => {
  for (const [name, v] of Object.entries(tf.variable)) {
    expect({ name, description: (v as { description?: string }).description }).toEqual({
      name,
      description: expect.stringMatching(/\S{3,}/),
    });
  }
});
