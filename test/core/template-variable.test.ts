/**
 * lib/core/template-variable.ts: a TemplateVariable's default reaches the template as given.
 * cdktf writes a variable's attributes with snake_case keys and did so into the default too,
 * so a map of node labels lost its dots and slashes; an operator's default from
 * coder-cdktf.jsonc (app/variable-defaults.ts) took the same path.
 */
import { applyVariableDefaults } from "../../app/variable-defaults";
import { TerraformOutput } from "../../lib/core/cdk";
import { hcl } from "../../lib/core/expr";
import { TemplateVariable } from "../../lib/core/template-variable";
import { planExpressions } from "@coder-cdktf/terraform-harness";
import { synthConstruct } from "../constructs/construct-stack";

jest.setTimeout(60_000);

const NODE_LABELS = { "nvidia.com/gpu.present": "true", "kubernetes.io/arch": "amd64" };
const TOLERATIONS = [{ key: "nvidia.com/gpu", operator: "Exists", effectName: "NoSchedule" }];

it("writes a map default's keys as given, and object keys inside a list default", () => {
  const tf = synthConstruct((stack) => {
    new TemplateVariable(stack, "gpu_nodes", {
      type: "map(string)",
      default: NODE_LABELS,
      description: "Node labels of GPU nodes.",
    });
    new TemplateVariable(stack, "gpu_tolerations", {
      type: "list(object({ key = string, operator = string, effectName = string }))",
      default: TOLERATIONS,
      description: "Taints of GPU nodes.",
    });
    new TemplateVariable(stack, "plain", { type: "string", default: "a_b", description: "d" });
  });
  expect(tf.variable.gpu_nodes.default).toEqual(NODE_LABELS);
  expect(tf.variable.gpu_tolerations.default).toEqual(TOLERATIONS);
  expect(tf.variable.plain.default).toBe("a_b");
  // The variable's own attributes keep cdktf's names.
  expect(Object.keys(tf.variable.gpu_nodes).sort()).toEqual(["default", "description", "type"]);
});

it("writes an operator's map default as given", () => {
  const tf = synthConstruct((stack) => {
    new TemplateVariable(stack, "gpu_nodes", { type: "map(string)", description: "d" });
    applyVariableDefaults("t", stack, { gpu_nodes: NODE_LABELS }, () => "coder-cdktf.jsonc:1:1");
  });
  expect(tf.variable.gpu_nodes.default).toEqual(NODE_LABELS);
});

it("gives Terraform the default under its real keys", async () => {
  const plan = await planExpressions((stack) => {
    const nodes = new TemplateVariable(stack, "gpu_nodes", {
      type: "map(string)",
      default: NODE_LABELS,
      description: "d",
    });
    new TerraformOutput(stack, "present", { value: `\${${nodes.fqn}["nvidia.com/gpu.present"]}` });
  });
  expect(plan.values.present).toBe("true");
});

it("reads as an Expr of its declared type, and refuses another type at synth", () => {
  const tf = synthConstruct((stack) => {
    const on = new TemplateVariable(stack, "on", { type: "bool", default: false });
    const count = new TemplateVariable(stack, "count_of", { type: "number", default: 1 });
    const name = new TemplateVariable(stack, "name", { type: "string", default: "a" });
    const names = new TemplateVariable(stack, "names", { type: "list(string)", default: [] });
    new TerraformOutput(stack, "read", {
      value: hcl`${on.booleanExpr} ? ${count.numberExpr} : length(concat([${name.stringExpr}], ${names.stringListExpr}))`,
    });
    expect(() => name.booleanExpr).toThrow("variable name is string, not bool");
    expect(() => on.stringListExpr).toThrow("variable on is bool, not list(string)");
  });
  expect(tf.output.read.value).toBe(
    "${var.on ? var.count_of : length(concat([var.name], var.names))}",
  );
});
