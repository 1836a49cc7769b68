/**
 * Provider schemas, read from `terraform providers schema -json` documents (the vendored
 * schemas/*.schema.json), with the two views the mock needs: the protobuf Schema message
 * Terraform asks for, and the cty type of each resource's object value.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { HARNESS_SOURCE_DIR } from "../package-files";
import type { CtyType } from "./cty-values";

/** An attribute of a schema block, as `terraform providers schema -json` writes it. */
export interface SchemaAttribute {
  readonly type?: CtyType;
  readonly nested_type?: {
    readonly attributes?: Readonly<Record<string, SchemaAttribute>>;
    readonly nesting_mode: string;
  };
  readonly description?: string;
  readonly description_kind?: string;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  readonly sensitive?: boolean;
  readonly deprecated?: boolean;
  readonly write_only?: boolean;
}

/** A nested block type of a schema block. */
export interface SchemaNestedBlock {
  readonly block?: SchemaBlock;
  readonly nesting_mode: string;
  readonly min_items?: number;
  readonly max_items?: number;
}

/** A schema block. */
export interface SchemaBlock {
  readonly attributes?: Readonly<Record<string, SchemaAttribute>>;
  readonly block_types?: Readonly<Record<string, SchemaNestedBlock>>;
  readonly description?: string;
  readonly description_kind?: string;
  readonly deprecated?: boolean;
}

/** The schema of a provider, a resource type or a data source type. */
export interface Schema {
  readonly version?: number;
  readonly block?: SchemaBlock;
}

/** One provider's entry of a schema document's `provider_schemas`. */
interface ProviderSchemaDocument {
  readonly provider?: Schema;
  readonly resource_schemas?: Readonly<Record<string, Schema>>;
  readonly data_source_schemas?: Readonly<Record<string, Schema>>;
}

/** A protobuf message as protobufjs's fromObject takes it. */
type ProtoObject = Record<string, unknown>;

/**
 * Default schema directory: the repository's schemas/ (found from the package, not from
 * `__dirname`: the mock runs from a bundle in the package's build/ folder).
 */
export const DEFAULT_SCHEMA_DIR = path.resolve(HARNESS_SOURCE_DIR, "../../../schemas");

/**
 * Loads every provider from *.schema.json files in `dir`, keyed by full address, e.g.
 * registry.terraform.io/coder/coder.
 */
export function loadProviderSchemas(dir: string = DEFAULT_SCHEMA_DIR): Map<string, ProviderSchema> {
  const providers = new Map<string, ProviderSchema>();
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".schema.json"))
    .sort()) {
    for (const [address, schema] of loadProviderSchemaFile(path.join(dir, file))) {
      providers.set(address, schema);
    }
  }
  return providers;
}

/**
 * The providers of one `terraform providers schema -json` document. A file that cannot be
 * read, is not JSON or holds no provider fails with its path.
 */
export function loadProviderSchemaFile(file: string): Map<string, ProviderSchema> {
  let document: { provider_schemas?: Record<string, ProviderSchemaDocument> };
  try {
    document = JSON.parse(fs.readFileSync(file, "utf8")) as typeof document;
  } catch (error) {
    throw new Error(`${file}: not a provider schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const entries = Object.entries(document?.provider_schemas ?? {});
  if (entries.length === 0) {
    throw new Error(`${file}: not a provider schema: it has no "provider_schemas" entry`);
  }
  return new Map(
    entries.map(([address, schema]) => [address, new ProviderSchema(address, schema)]),
  );
}

/**
 * Finds a provider by a short name: the address's type ("devcontainer-builder"), or the
 * prefix of its resource types ("devcontainerbuilder").
 */
export function findProvider(
  providers: ReadonlyMap<string, ProviderSchema>,
  name: string,
): ProviderSchema {
  for (const provider of providers.values()) {
    if (provider.address.split("/").pop() === name || provider.typePrefixes().includes(name)) {
      return provider;
    }
  }
  throw new Error(`no provider schema named ${name} (have ${[...providers.keys()].join(", ")})`);
}

export class ProviderSchema {
  readonly provider: Schema;
  readonly resources: Readonly<Record<string, Schema>>;
  readonly dataSources: Readonly<Record<string, Schema>>;

  constructor(
    readonly address: string,
    schema: ProviderSchemaDocument,
  ) {
    this.provider = schema.provider || { version: 0, block: {} };
    this.resources = schema.resource_schemas || {};
    this.dataSources = schema.data_source_schemas || {};
  }

  typePrefixes(): string[] {
    const names = [...Object.keys(this.resources), ...Object.keys(this.dataSources)];
    return [...new Set(names.map((n) => n.split("_")[0] as string))];
  }

  /** The schema of a managed resource ("resource") or data source ("data") type. */
  schemaOf(kind: "resource" | "data", typeName: string): Schema {
    const schema = (kind === "data" ? this.dataSources : this.resources)[typeName];
    if (!schema) throw new Error(`${this.address} has no ${kind} type ${typeName}`);
    return schema;
  }

  /** The GetProviderSchema.Response message (provider-service.ts serializes it once). */
  toProto(): ProtoObject {
    const convert = (entries: Readonly<Record<string, Schema>>) =>
      Object.fromEntries(Object.entries(entries).map(([name, s]) => [name, schemaToProto(s)]));
    return {
      provider: schemaToProto(this.provider),
      resource_schemas: convert(this.resources),
      data_source_schemas: convert(this.dataSources),
      diagnostics: [],
      // As the real providers announce it (terraform-plugin-mux serverCapabilities, the SDKs):
      // Terraform then asks one instance per run for the schema and serves the rest from its
      // cache (~12 schema decodes fewer in a devcontainer apply).
      server_capabilities: { plan_destroy: false, get_provider_schema_optional: true },
      functions: {},
    };
  }
}

function schemaToProto(schema: Schema): ProtoObject {
  return { version: schema.version || 0, block: blockToProto(schema.block || {}) };
}

function blockToProto(block: SchemaBlock): ProtoObject {
  return {
    version: 0,
    attributes: sortedEntries(block.attributes).map(([name, a]) => attributeToProto(name, a)),
    block_types: sortedEntries(block.block_types).map(([name, nested]) => ({
      type_name: name,
      block: blockToProto(nested.block || {}),
      nesting: nested.nesting_mode.toUpperCase(),
      min_items: nested.min_items || 0,
      max_items: nested.max_items || 0,
    })),
    description: block.description || "",
    description_kind: kindOf(block.description_kind),
    deprecated: Boolean(block.deprecated),
  };
}

function attributeToProto(name: string, attribute: SchemaAttribute): ProtoObject {
  const proto: ProtoObject = {
    name,
    description: attribute.description || "",
    required: Boolean(attribute.required),
    optional: Boolean(attribute.optional),
    computed: Boolean(attribute.computed),
    sensitive: Boolean(attribute.sensitive),
    description_kind: kindOf(attribute.description_kind),
    deprecated: Boolean(attribute.deprecated),
    write_only: Boolean(attribute.write_only),
  };
  if (attribute.nested_type) {
    proto.nested_type = {
      attributes: sortedEntries(attribute.nested_type.attributes).map(([n, a]) =>
        attributeToProto(n, a),
      ),
      nesting: attribute.nested_type.nesting_mode.toUpperCase(),
    };
  } else {
    proto.type = Buffer.from(JSON.stringify(attribute.type));
  }
  return proto;
}

function kindOf(descriptionKind: string | undefined): string {
  return descriptionKind === "markdown" ? "MARKDOWN" : "PLAIN";
}

function sortedEntries<T>(object: Readonly<Record<string, T>> | undefined): [string, T][] {
  return Object.entries(object || {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The cty type of a block's object value. */
export function blockType(block: SchemaBlock): CtyType {
  const attributes: Record<string, CtyType> = {};
  for (const [name, attribute] of Object.entries(block.attributes || {})) {
    attributes[name] = attributeType(attribute);
  }
  for (const [name, nested] of Object.entries(block.block_types || {})) {
    attributes[name] = wrapNesting(nested.nesting_mode, blockType(nested.block || {}));
  }
  return ["object", attributes];
}

/** The cty type of an attribute (plain `type`, or a `nested_type` object). */
export function attributeType(attribute: SchemaAttribute): CtyType {
  // Every attribute has a `type` or a `nested_type`.
  if (!attribute.nested_type) return attribute.type as CtyType;
  const object = blockType({ attributes: attribute.nested_type.attributes ?? {} });
  return wrapNesting(attribute.nested_type.nesting_mode, object);
}

function wrapNesting(mode: string, objectType: CtyType): CtyType {
  switch (mode) {
    case "single":
    case "group":
      return objectType;
    case "list":
      return ["list", objectType];
    case "set":
      return ["set", objectType];
    case "map":
      return ["map", objectType];
    default:
      throw new Error(`unsupported nesting mode ${mode}`);
  }
}
