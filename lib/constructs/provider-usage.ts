/**
 * What a synthesized configuration uses of each provider: the resource and data source types,
 * every argument and nested block it writes (a dotted path through blocks, e.g.
 * `spec.template.spec.security_context.fs_group_change_policy`), and the attributes it reads
 * by reference (`data.coder_workspace.me.is_prebuild`). The vendored provider schemas
 * (schemas/*.schema.json) tell arguments from blocks; map-valued arguments (labels) are one
 * path. Modules are listed with their source and version. Read by the provider bounds
 * (provider-features.ts) and their test.
 */
import { readProjectFile } from "../core/project-root";

/** One use: `type` (`data.` prefixed for data sources) and an attribute path, or none for the type. */
export interface ProviderUse {
  readonly provider: string;
  readonly type: string;
  readonly path?: string;
}

/** A module call: its registry source and exact version. */
export interface ModuleUse {
  readonly source: string;
  readonly version: string;
}

interface SchemaBlock {
  readonly attributes?: Record<string, unknown>;
  readonly block_types?: Record<string, { readonly block: SchemaBlock }>;
}

interface ProviderSchemas {
  readonly resources: Record<string, SchemaBlock>;
  readonly dataSources: Record<string, SchemaBlock>;
}

/** Local provider name → vendored schema file and its key in `provider_schemas`. */
const SCHEMAS: Readonly<Record<string, { file: string; key: string }>> = {
  coder: { file: "schemas/coder.schema.json", key: "registry.terraform.io/coder/coder" },
  kubernetes: {
    file: "schemas/kubernetes.schema.json",
    key: "registry.terraform.io/hashicorp/kubernetes",
  },
};

const META_ARGUMENTS = new Set([
  "//",
  "count",
  "for_each",
  "depends_on",
  "provider",
  "lifecycle",
  "connection",
  "provisioner",
]);

const loaded = new Map<string, ProviderSchemas>();

/** The vendored schema of `provider` (read once per process). */
export function providerSchema(provider: string): ProviderSchemas | undefined {
  const where = SCHEMAS[provider];
  if (!where) return undefined;
  let schemas = loaded.get(provider);
  if (!schemas) {
    const json = JSON.parse(readProjectFile(where.file)) as {
      provider_schemas: Record<
        string,
        {
          resource_schemas?: Record<string, { block: SchemaBlock }>;
          data_source_schemas?: Record<string, { block: SchemaBlock }>;
        }
      >;
    };
    const p = json.provider_schemas[where.key];
    const blocks = (m: Record<string, { block: SchemaBlock }> = {}) =>
      Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.block]));
    schemas = {
      resources: blocks(p.resource_schemas),
      dataSources: blocks(p.data_source_schemas),
    };
    loaded.set(provider, schemas);
  }
  return schemas;
}

/** The provider whose schemas hold `type` (by its local-name prefix), if vendored. */
function providerOf(type: string): string | undefined {
  const prefix = type.split("_")[0];
  return SCHEMAS[prefix] ? prefix : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Paths written in one block body, following the schema into nested blocks. */
function walk(body: unknown, block: SchemaBlock, prefix: string, out: Set<string>): void {
  const bodies = Array.isArray(body) ? body : [body];
  for (const b of bodies) {
    if (!isRecord(b)) continue;
    for (const [key, value] of Object.entries(b)) {
      if (META_ARGUMENTS.has(key)) continue;
      if (key === "dynamic" && isRecord(value)) {
        for (const [name, dyn] of Object.entries(value)) {
          const nested = block.block_types?.[name];
          out.add(prefix + name);
          if (nested && isRecord(dyn)) walk(dyn.content, nested.block, `${prefix}${name}.`, out);
        }
        continue;
      }
      out.add(prefix + key);
      const nested = block.block_types?.[key];
      if (nested) walk(value, nested.block, `${prefix}${key}.`, out);
    }
  }
}

/** References `type.name.attribute` and `data.type.name.attribute` in any string of `tf`. */
const REFERENCE =
  /(?<![\w.])(data\.)?((?:coder|kubernetes)_[a-z0-9_]+)\.[A-Za-z_][\w-]*(?:\[[^\]]*\])?\.([a-z_][a-z0-9_]*)/g;

/** Every use of a vendored provider in a Terraform JSON configuration, deduplicated and sorted. */
export function providerUses(tf: Record<string, unknown>): ProviderUse[] {
  const found = new Map<string, ProviderUse>();
  const add = (use: ProviderUse) => found.set(`${use.provider} ${use.type} ${use.path ?? ""}`, use);
  for (const [kind, prefix] of [
    ["resource", ""],
    ["data", "data."],
  ] as const) {
    const section = tf[kind];
    if (!isRecord(section)) continue;
    for (const [type, blocks] of Object.entries(section)) {
      const provider = providerOf(type);
      const schema = provider ? providerSchema(provider) : undefined;
      const block = schema?.[kind === "data" ? "dataSources" : "resources"][type];
      if (!provider || !isRecord(blocks)) continue;
      // A type the newest schema lacks (removed, or never there) is still a use: the feature
      // table then says which releases have it, or that none does.
      add({ provider, type: prefix + type });
      if (!block) continue;
      const paths = new Set<string>();
      for (const body of Object.values(blocks)) walk(body, block, "", paths);
      for (const path of paths) add({ provider, type: prefix + type, path });
    }
  }
  for (const m of JSON.stringify(tf).matchAll(REFERENCE)) {
    const [, data, type, attribute] = m;
    const provider = providerOf(type);
    const block = provider
      ? providerSchema(provider)?.[data ? "dataSources" : "resources"][type]
      : undefined;
    if (provider && block?.attributes?.[attribute] !== undefined) {
      add({ provider, type: (data ?? "") + type, path: attribute });
    }
  }
  return [...found.values()].sort((a, b) =>
    `${a.provider} ${a.type} ${a.path ?? ""}`.localeCompare(
      `${b.provider} ${b.type} ${b.path ?? ""}`,
    ),
  );
}

/** The module calls of `tf` (registry modules carry an exact version). */
export function moduleUses(tf: Record<string, unknown>): ModuleUse[] {
  const modules = isRecord(tf.module) ? tf.module : {};
  return Object.values(modules)
    .filter(isRecord)
    .map((m) => ({ source: String(m.source), version: String(m.version ?? "") }));
}
