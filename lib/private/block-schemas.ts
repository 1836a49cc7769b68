/**
 * The schema blocks of resources and data sources, read from the vendored
 * provider schemas (schemas/*.schema.json, `terraform providers schema -json` documents).
 * Writing a body in HCL needs them: Terraform JSON writes a block and an object-typed
 * argument alike, HCL native syntax does not (`metadata { … }` against `labels = { … }`).
 * The secret-hygiene tests read which attributes are sensitive from them.
 */
import * as fs from "fs";
import * as path from "path";
import { projectRoot } from "../core/project-root";

/** The part of a schema block this project reads: attributes and nested block types. */
export interface BlockSchema {
  readonly attributes?: Readonly<
    Record<string, { readonly sensitive?: boolean; readonly nested_type?: BlockSchema }>
  >;
  readonly block_types?: Readonly<Record<string, { readonly block: BlockSchema }>>;
}

/** Block schemas by `resource.<type>` and `data.<type>`. */
export type BlockSchemas = ReadonlyMap<string, BlockSchema>;

/** Terraform's built-in resource types (provider terraform.io/builtin/terraform): no blocks. */
const BUILTIN: Readonly<Record<string, BlockSchema>> = { "resource.terraform_data": {} };

let cached: BlockSchemas | undefined;

/** The block schemas of every vendored provider, and of the built-in types; read once. */
export function vendoredBlockSchemas(): BlockSchemas {
  if (cached === undefined) cached = readBlockSchemas(path.join(projectRoot(), "schemas"));
  return cached;
}

/** Reads the block schemas of the provider schema documents in `dir`. */
export function readBlockSchemas(dir: string): BlockSchemas {
  const schemas = new Map<string, BlockSchema>(Object.entries(BUILTIN));
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".schema.json"))
    .sort();
  for (const file of files) {
    const document = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as {
      provider_schemas?: Record<string, ProviderSchema>;
    };
    for (const provider of Object.values(document.provider_schemas ?? {})) {
      for (const [kind, key] of [
        ["resource", "resource_schemas"],
        ["data", "data_source_schemas"],
      ] as const) {
        for (const [type, schema] of Object.entries(provider[key] ?? {})) {
          schemas.set(`${kind}.${type}`, schema.block);
        }
      }
    }
  }
  return schemas;
}

interface ProviderSchema {
  readonly resource_schemas?: Record<string, { readonly block: BlockSchema }>;
  readonly data_source_schemas?: Record<string, { readonly block: BlockSchema }>;
}
