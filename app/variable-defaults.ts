/**
 * Applies an operator's template-variable defaults to a stack's TerraformVariables at
 * synth, so a deployment's values ship inside the template instead of being typed at
 * every push. Unknown names, values of the wrong type and values that break the
 * variable's rules (a TemplateVariable's, the same ones its `validation` blocks check at
 * push time) fail synth at the config's position; sensitive variables never take a default from the file (it would be
 * uploaded with the template): they are set at push time with --variables-file.
 */
import { TerraformVariable, type IConstruct } from "../lib/core/cdk";
import { ConfigError } from "./operator-config";
import { TemplateVariable } from "../lib/core/template-variable";
import { describeValue } from "../lib/core/validate";
import { didYouMean } from "./closest-name";

/** Where a value came from, for messages (`file:line:column`). */
export type PositionOf = (variableName: string, part: "key" | "value") => string;

export function applyVariableDefaults(
  templateId: string,
  stack: IConstruct,
  values: Readonly<Record<string, unknown>>,
  positionOf: PositionOf,
): void {
  const variables = new Map(
    stack.node
      .findAll()
      .filter((c): c is TerraformVariable => c instanceof TerraformVariable)
      .map((v) => [v.node.id, v] as const),
  );
  for (const [name, value] of Object.entries(values)) {
    const field = `templates.${templateId}.variables.${name}`;
    const variable = variables.get(name);
    if (variable === undefined) {
      const known = [...variables.keys()].sort();
      throw new ConfigError(
        `${positionOf(name, "key")}: ${field}: unknown variable "${name}"${didYouMean(name, known)}; template "${templateId}" has: ${known.join(", ") || "(none)"}`,
      );
    }
    if (variable.sensitive === true) {
      throw new ConfigError(
        `${positionOf(name, "key")}: ${field}: the variable is sensitive and a default here would be uploaded with the template; ` +
          `pass it at push time with --variables-file`,
      );
    }
    const expected = expectedKind(variable.type);
    if (!matchesKind(value, expected.kind)) {
      throw new ConfigError(
        `${positionOf(name, "value")}: ${field}: ${describeValue(value)} is not allowed; the variable has type ${variable.type ?? "any"} (${expected.description})`,
      );
    }
    const broken = variable instanceof TemplateVariable ? variable.brokenRule(value) : undefined;
    if (broken !== undefined) {
      throw new ConfigError(
        `${positionOf(name, "value")}: ${field}: ${describeValue(value)} is not allowed; ${name} must be ${broken.requirement}`,
      );
    }
    replaceDefault(variable, value);
  }
  // Rules across variables, once every default of the file is in place.
  const defaultOf = (name: string): unknown => variables.get(name)?.default;
  for (const name of Object.keys(values)) {
    const variable = variables.get(name);
    if (!(variable instanceof TemplateVariable)) continue;
    const broken = variable.crossRules.find((rule) => !rule.test(values[name], defaultOf));
    if (broken !== undefined) {
      throw new ConfigError(
        `${positionOf(name, "value")}: templates.${templateId}.variables.${name}: ` +
          `${describeValue(values[name])} is not allowed; ${name} must be ${broken.requirement}`,
      );
    }
  }
}

type Kind = "string" | "number" | "bool" | "list" | "object" | "any";

function expectedKind(type: string | undefined): { kind: Kind; description: string } {
  const t = (type ?? "any").replace(/\s+/g, "");
  if (t === "string") return { kind: "string", description: "a string" };
  if (t === "number") return { kind: "number", description: "a number" };
  if (t === "bool") return { kind: "bool", description: "true or false" };
  if (/^(list|set|tuple)\b/.test(t)) return { kind: "list", description: "a list" };
  if (/^(map|object)\b/.test(t)) return { kind: "object", description: "an object" };
  return { kind: "any", description: "any value" };
}

function matchesKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "bool":
      return typeof value === "boolean";
    case "list":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "any":
      return value !== null;
  }
}

/**
 * Sets the variable's default as if it had been passed to its constructor. Not
 * addOverride(): cdktf deep-merges overrides, which would append to a list default
 * and merge into a map default instead of replacing them.
 */
function replaceDefault(variable: TerraformVariable, value: unknown): void {
  Object.defineProperty(variable, "default", { value, writable: false, enumerable: true });
}
