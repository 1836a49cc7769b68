/**
 * A template's resources and data sources, written in HCL native syntax (main.tf) instead of
 * cdk.tf.json. Terraform re-parses each `.tf.json` string as a template at every use (the
 * graph builders, validation, planning and the apply-graph check each read every argument),
 * and a `.tf` file once: with the locals in locals.tf too, a devcontainer plan takes ~11% less
 * CPU again, a module batch of 44 workspaces ~18% (docs/performance.md).
 *
 * Blocks and arguments look alike in JSON, so the body of each type is written from its
 * provider schema (block-schemas.ts); a type without a vendored schema stays in cdk.tf.json,
 * which Terraform reads with main.tf as one configuration. Meta-arguments keep their meaning:
 * `depends_on`, `provider` and the `lifecycle` lists become the references they name.
 */
import type { BlockSchema, BlockSchemas } from "./block-schemas";
import { soleInterpolation } from "./hcl-template";
import {
  type HclBlock,
  type HclBodyItem,
  HclExpressionText,
  hclValueOf,
  renderHclFile,
} from "./hcl-writer";

/** The file beside cdk.tf.json that holds the resources and data sources. */
export const RESOURCES_FILE = "main.tf";

const HEADER =
  "# The template's variables, resources, data sources, modules and checks, synthesized by\n" +
  "# coder-cdktf with cdk.tf.json and locals.tf (one configuration). Generated: change the\n" +
  "# constructs, not this file.\n";

/** Meta-arguments written first, in this order; `lifecycle` goes last. */
const LEADING_META = ["count", "for_each", "provider", "depends_on"];

/** The kinds of top-level blocks main.tf holds, in the order it holds them. */
const KINDS = ["data", "resource"] as const;

type Json = Record<string, unknown>;

/** What {@link splitResources} returns. */
export interface SplitResources {
  /** The blocks written, in main.tf's order. */
  readonly blocks: readonly HclBlock[];
  /** main.tf's text of `blocks` alone, or undefined when no block could be written. */
  readonly hcl: string | undefined;
  /** The configuration without the blocks written to main.tf. */
  readonly rest: Json;
}

/**
 * Writes the `data` and `resource` blocks of `config` (Terraform JSON) whose types have a
 * schema in `schemas` as main.tf, and returns the configuration without them.
 */
export function splitResources(config: Json, schemas: BlockSchemas): SplitResources {
  const blocks: HclBlock[] = [];
  const rest: Json = { ...config };
  for (const kind of KINDS) {
    const kept: Record<string, unknown> = {};
    for (const [type, byName] of Object.entries(asObject(config[kind], kind))) {
      const schema = schemas.get(`${kind}.${type}`);
      if (schema === undefined) {
        kept[type] = byName;
        continue;
      }
      for (const [name, body] of Object.entries(asObject(byName, `${kind}.${type}`))) {
        blocks.push(resourceBlock(kind, type, name, body, schema));
      }
    }
    if (Object.keys(kept).length > 0) rest[kind] = kept;
    else delete rest[kind];
  }
  if (blocks.length === 0) return { blocks, hcl: undefined, rest: config };
  return { blocks, hcl: renderMainFile(blocks), rest };
}

/** main.tf's text: its header and `blocks`. */
export function renderMainFile(blocks: readonly HclBlock[]): string {
  return HEADER + renderHclFile(blocks, "template");
}

/**
 * The `data` or `resource` block `<type>.<name>` whose JSON body is `body`, written from the
 * type's schema (also a check's scoped data source: declarations-file.ts).
 */
export function resourceBlock(
  kind: "data" | "resource",
  type: string,
  name: string,
  body: unknown,
  schema: BlockSchema,
): HclBlock {
  const where = `${kind === "data" ? "data." : ""}${type}.${name}`;
  return {
    type: kind,
    labels: [type, name],
    body: bodyItems(asObject(body, where), schema, where, true),
  };
}

/** The body of a block: arguments, nested blocks, and (at the top) meta-arguments. */
function bodyItems(body: Json, schema: BlockSchema, where: string, top: boolean): HclBodyItem[] {
  const rank = (key: string): number => {
    if (!top) return LEADING_META.length;
    const leading = LEADING_META.indexOf(key);
    return leading >= 0
      ? leading
      : key === "lifecycle"
        ? LEADING_META.length + 1
        : LEADING_META.length;
  };
  const entries = Object.entries(body)
    .filter(([key]) => key !== "//")
    .sort(([a], [b]) => rank(a) - rank(b));
  const items: HclBodyItem[] = [];
  for (const [key, value] of entries) {
    const at = `${where}.${key}`;
    if (top && (key === "provider" || key === "depends_on")) {
      const refs =
        key === "provider"
          ? reference(value, at)
          : list(value, at).map((v, i) => reference(v, `${at}[${i}]`));
      items.push({ kind: "attribute", name: key, value: refs });
    } else if (top && key === "lifecycle") {
      items.push({
        kind: "block",
        block: { type: key, labels: [], body: lifecycleItems(asObject(value, at), at) },
      });
    } else if (top && (key === "provisioner" || key === "connection")) {
      throw new Error(`${at}: provisioners are not written to ${RESOURCES_FILE}`);
    } else if (key === "dynamic") {
      items.push(...dynamicBlocks(asObject(value, at), schema, at));
    } else if (schema.block_types?.[key] !== undefined) {
      const nested = schema.block_types[key].block;
      for (const [i, item] of blockList(value, at).entries()) {
        items.push({
          kind: "block",
          block: { type: key, labels: [], body: bodyItems(item, nested, `${at}[${i}]`, false) },
        });
      }
    } else {
      items.push({ kind: "attribute", name: key, value: hclValueOf(value, at) });
    }
  }
  return items;
}

/** `dynamic "<name>" { for_each, iterator, labels, content { … } }` for each JSON entry. */
function dynamicBlocks(dynamic: Json, schema: BlockSchema, where: string): HclBodyItem[] {
  const items: HclBodyItem[] = [];
  for (const [name, specs] of Object.entries(dynamic)) {
    const at = `${where}.${name}`;
    const nested = schema.block_types?.[name]?.block;
    if (nested === undefined) throw new Error(`${at}: the schema has no block "${name}"`);
    for (const spec of blockList(specs, at)) {
      const body: HclBodyItem[] = [];
      for (const [key, value] of Object.entries(spec)) {
        if (key === "content") {
          const content = bodyItems(
            asObject(value, `${at}.content`),
            nested,
            `${at}.content`,
            false,
          );
          body.push({ kind: "block", block: { type: "content", labels: [], body: content } });
        } else if (key === "iterator") {
          body.push({ kind: "attribute", name: key, value: reference(value, `${at}.${key}`) });
        } else {
          body.push({ kind: "attribute", name: key, value: hclValueOf(value, `${at}.${key}`) });
        }
      }
      items.push({ kind: "block", block: { type: "dynamic", labels: [name], body } });
    }
  }
  return items;
}

/** A `lifecycle` body: its reference lists as references, conditions as blocks. */
function lifecycleItems(lifecycle: Json, where: string): HclBodyItem[] {
  return Object.entries(lifecycle).flatMap(([key, value]): HclBodyItem[] => {
    const at = `${where}.${key}`;
    if (key === "ignore_changes" && value === "all") {
      return [{ kind: "attribute", name: key, value: new HclExpressionText("all") }];
    }
    if (key === "ignore_changes" || key === "replace_triggered_by") {
      const refs = list(value, at).map((v, i) => reference(v, `${at}[${i}]`));
      return [{ kind: "attribute", name: key, value: refs }];
    }
    if (key === "precondition" || key === "postcondition") {
      return blockList(value, at).map((condition, i) => ({
        kind: "block",
        block: { type: key, labels: [], body: bodyItems(condition, {}, `${at}[${i}]`, false) },
      }));
    }
    return [{ kind: "attribute", name: key, value: hclValueOf(value, at) }];
  });
}

/** A reference or traversal given as a JSON string (`"a.b"` or `"${a.b}"`), bare. */
export function reference(value: unknown, where: string): HclExpressionText {
  if (typeof value !== "string")
    throw new Error(`${where}: expected a reference, got ${JSON.stringify(value)}`);
  const text = soleInterpolation(value) ?? value;
  if (!/^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*|\[("[^"]*"|\d+|\*)\])*$/.test(text)) {
    throw new Error(`${where}: ${JSON.stringify(value)} is not a reference`);
  }
  return new HclExpressionText(text);
}

/** A nested block given as one object or a list of them (null: none). */
export function blockList(value: unknown, where: string): Json[] {
  if (value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v, i) => asObject(v, `${where}[${i}]`));
}

export function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value))
    throw new Error(`${where}: expected a list, got ${JSON.stringify(value)}`);
  return value;
}

export function asObject(value: unknown, where: string): Json {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${where}: expected an object, got ${JSON.stringify(value)}`);
  }
  return value as Json;
}
