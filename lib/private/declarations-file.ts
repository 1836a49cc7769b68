/**
 * A template's variables, module calls and check blocks, written in HCL native syntax to
 * main.tf with its resources (resources-file.ts) instead of cdk.tf.json: an operator reading
 * the template finds what it asks for (the variables, in the order Coder shows them), what
 * it calls and what it checks beside what it creates, as in a hand-written template.
 *
 * Terraform JSON gives each of these arguments a kind, which the HCL keeps: a variable's
 * `type` is a type expression (written bare), its `default` and `description` and a module's
 * `source` and `version` are literal strings (their `${` escaped), the other arguments are
 * expressions (templates in JSON). A check's scoped data source is written from its schema;
 * a check whose data source has none stays in cdk.tf.json with it.
 */
import type { BlockSchemas } from "./block-schemas";
import {
  type HclBlock,
  type HclBodyItem,
  HclExpressionText,
  hclValueOf,
  type HclWriterValue,
  literalAsTemplate,
} from "./hcl-writer";
import { asObject, blockList, list, reference, resourceBlock } from "./resources-file";

type Json = Record<string, unknown>;

/** A variable's arguments, in the order main.tf writes them; `validation` blocks follow. */
const VARIABLE_ARGUMENTS = ["type", "description", "default", "sensitive", "nullable", "ephemeral"];

/** A module call's meta-arguments, written first in this order. */
const MODULE_META = ["source", "version", "count", "for_each", "providers", "depends_on"];

/** What {@link splitDeclarations} returns. */
export interface SplitDeclarations {
  /** The `variable` blocks, in the configuration's order (Coder lists them so). */
  readonly variables: readonly HclBlock[];
  /** The `module` and then the `check` blocks. */
  readonly calls: readonly HclBlock[];
  /** The configuration without them. */
  readonly rest: Json;
}

/**
 * Takes the `variable`, `module` and `check` blocks out of `config` (Terraform JSON) as HCL
 * blocks; `schemas` write a check's scoped data source.
 */
export function splitDeclarations(config: Json, schemas: BlockSchemas): SplitDeclarations {
  const rest: Json = { ...config };
  const variables = Object.entries(asObject(config.variable, "variable")).map(([name, body]) =>
    variableBlock(name, asObject(body, `var.${name}`)),
  );
  delete rest.variable;
  const calls = Object.entries(asObject(config.module, "module")).map(([name, body]) =>
    moduleBlock(name, asObject(body, `module.${name}`)),
  );
  delete rest.module;
  const kept: Json = {};
  for (const [name, body] of Object.entries(asObject(config.check, "check"))) {
    const block = checkBlock(name, asObject(body, `check.${name}`), schemas);
    if (block === undefined) kept[name] = body;
    else calls.push(block);
  }
  if (Object.keys(kept).length > 0) rest.check = kept;
  else delete rest.check;
  return { variables, calls, rest };
}

function variableBlock(name: string, body: Json): HclBlock {
  const where = `var.${name}`;
  const unknown = Object.keys(body).filter(
    (k) => k !== "//" && k !== "validation" && !VARIABLE_ARGUMENTS.includes(k),
  );
  if (unknown.length > 0) throw new Error(`${where}: cannot write ${unknown.join(", ")} in HCL`);
  const items: HclBodyItem[] = [];
  for (const key of VARIABLE_ARGUMENTS) {
    if (!(key in body)) continue;
    const value = body[key];
    const at = `${where}.${key}`;
    const written =
      key === "type"
        ? typeExpression(value, at)
        : key === "sensitive" || key === "nullable" || key === "ephemeral"
          ? hclValueOf(value, at)
          : literal(value, at);
    items.push({ kind: "attribute", name: key, value: written });
  }
  for (const [i, rule] of blocks(body.validation, `${where}.validation`).entries()) {
    items.push({
      kind: "block",
      block: conditionBlock("validation", rule, `${where}.validation[${i}]`),
    });
  }
  return { type: "variable", labels: [name], body: items };
}

function moduleBlock(name: string, body: Json): HclBlock {
  const where = `module.${name}`;
  const rank = (key: string) => {
    const i = MODULE_META.indexOf(key);
    return i >= 0 ? i : MODULE_META.length;
  };
  const entries = Object.entries(body)
    .filter(([key]) => key !== "//")
    .sort(([a], [b]) => rank(a) - rank(b));
  const items: HclBodyItem[] = entries.map(([key, value]): HclBodyItem => {
    const at = `${where}.${key}`;
    if (key === "source" || key === "version") {
      return { kind: "attribute", name: key, value: literal(value, at) };
    }
    if (key === "depends_on") {
      return {
        kind: "attribute",
        name: key,
        value: list(value, at).map((v, i) => reference(v, `${at}[${i}]`)),
      };
    }
    if (key === "providers") {
      const passed = asObject(value, at);
      return {
        kind: "attribute",
        name: key,
        value: new HclExpressionText(
          `{ ${Object.entries(passed)
            .map(([inner, outer]) => `${inner} = ${reference(outer, `${at}.${inner}`).expression}`)
            .join(", ")} }`,
        ),
      };
    }
    if (key === "provisioner" || key === "lifecycle") {
      throw new Error(`${at}: a module call takes no ${key}`);
    }
    return { kind: "attribute", name: key, value: hclValueOf(value, at) };
  });
  return { type: "module", labels: [name], body: items };
}

/** A check block, or undefined when its scoped data source has no schema to write it from. */
function checkBlock(name: string, body: Json, schemas: BlockSchemas): HclBlock | undefined {
  const where = `check.${name}`;
  const items: HclBodyItem[] = [];
  for (const [type, byName] of Object.entries(asObject(body.data, `${where}.data`))) {
    const schema = schemas.get(`data.${type}`);
    if (schema === undefined) return undefined;
    for (const [dataName, dataBody] of Object.entries(asObject(byName, `${where}.data.${type}`))) {
      items.push({ kind: "block", block: resourceBlock("data", type, dataName, dataBody, schema) });
    }
  }
  const unknown = Object.keys(body).filter((k) => k !== "//" && k !== "data" && k !== "assert");
  if (unknown.length > 0) throw new Error(`${where}: cannot write ${unknown.join(", ")} in HCL`);
  for (const [i, rule] of blocks(body.assert, `${where}.assert`).entries()) {
    items.push({ kind: "block", block: conditionBlock("assert", rule, `${where}.assert[${i}]`) });
  }
  return { type: "check", labels: [name], body: items };
}

/** A `validation` or `assert` block: its condition and error_message are expressions. */
function conditionBlock(type: string, rule: Json, where: string): HclBlock {
  const body = Object.entries(rule)
    .filter(([key]) => key !== "//")
    .map(([key, value]): HclBodyItem => ({
      kind: "attribute",
      name: key,
      value: hclValueOf(value, `${where}.${key}`),
    }));
  return { type, labels: [], body };
}

/** A variable's type: JSON gives the type expression as a string (`"list(string)"`). */
function typeExpression(value: unknown, where: string): HclExpressionText {
  if (typeof value !== "string") {
    throw new Error(`${where}: expected a type expression, got ${JSON.stringify(value)}`);
  }
  return new HclExpressionText(value);
}

/** A literal value (no string in it interpolates), for a file written as templates. */
function literal(value: unknown, where: string): HclWriterValue {
  if (typeof value === "string") return literalAsTemplate(value);
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map((v, i) => literal(v, `${where}[${i}]`));
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Json).map(([k, v]) => [
        literalAsTemplate(k),
        literal(v, `${where}.${k}`),
      ]),
    );
  }
  throw new Error(`${where}: ${typeof value} cannot be written in HCL`);
}

/** A nested block given as one object or a list of them (absent or null: none). */
function blocks(value: unknown, where: string): Json[] {
  return value === undefined ? [] : blockList(value, where);
}
