/**
 * applyVariableDefaults: an operator's template-variable defaults replace the declared ones at
 * synth; unknown names, wrong types and sensitive variables fail with the config's position.
 */
import { TerraformVariable } from "../../lib/core/cdk";
import { ConfigError } from "../../app/operator-config";
import type { TemplateStack } from "../../lib/constructs/template-stack";
import { applyVariableDefaults, type PositionOf } from "../../app/variable-defaults";
import { synthConstruct } from "./construct-stack";

const POSITION: PositionOf = (name, part) => `config.jsonc:${name}:${part}`;

function declare(stack: TemplateStack): void {
  new TerraformVariable(stack, "namespace", { type: "string" });
  new TerraformVariable(stack, "max_cpu", { type: "number", default: 8 });
  new TerraformVariable(stack, "allow", { type: "bool", default: false });
  new TerraformVariable(stack, "roles", { type: "list(string)", default: ["a", "b"] });
  new TerraformVariable(stack, "selector", { type: "map(string)", default: { a: "1" } });
  new TerraformVariable(stack, "anything", {});
  new TerraformVariable(stack, "token", { type: "string", default: "", sensitive: true });
}

function apply(values: Record<string, unknown>) {
  return synthConstruct((stack) => {
    declare(stack);
    applyVariableDefaults("kubernetes", stack, values, POSITION);
  });
}

it("sets each variable's default, keeping type and description", () => {
  const tf = apply({ namespace: "coder", max_cpu: 16, allow: true, anything: { k: [1] } });
  expect(tf.variable.namespace).toEqual({ type: "string", default: "coder" });
  expect(tf.variable.max_cpu.default).toBe(16);
  expect(tf.variable.allow.default).toBe(true);
  expect(tf.variable.anything.default).toEqual({ k: [1] });
});

it("replaces list and map defaults instead of merging into them", () => {
  const tf = apply({ roles: ["c"], selector: { b: "2" } });
  expect(tf.variable.roles.default).toEqual(["c"]);
  expect(tf.variable.selector.default).toEqual({ b: "2" });
});

it("leaves variables the operator did not name as declared", () => {
  const tf = apply({});
  expect(tf.variable.max_cpu.default).toBe(8);
  expect(tf.variable.namespace).not.toHaveProperty("default");
});

it("refuses an unknown variable at the key's position, listing the known ones", () => {
  expect(() => apply({ namespac: "x" })).toThrow(ConfigError);
  expect(() => apply({ namespac: "x" })).toThrow(
    /^config\.jsonc:namespac:key: templates\.kubernetes\.variables\.namespac: unknown variable "namespac".*allow, anything, max_cpu, namespace, roles, selector, token$/,
  );
});

it("refuses a default for a sensitive variable: it would be uploaded with the template", () => {
  expect(() => apply({ token: "secret" })).toThrow(
    /^config\.jsonc:token:key: .*sensitive.*--variables-file/,
  );
});

it.each([
  ["namespace", 1],
  ["max_cpu", "16"],
  ["allow", "true"],
  ["roles", "a,b"],
  ["selector", ["a"]],
  ["selector", null],
  ["anything", null],
])("refuses %s = %j, a value of the wrong type, at the value's position", (name, value) => {
  expect(() => apply({ [name]: value })).toThrow(
    new RegExp(
      `^config\\.jsonc:${name}:value: templates\\.kubernetes\\.variables\\.${name}: .* is not allowed`,
    ),
  );
});
