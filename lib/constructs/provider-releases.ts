/**
 * The provider releases a template is checked against: the schemas the project vendors
 * (schemas/README.md says where each came from) and the schema of any release in between,
 * derived from the nearest vendored one and the feature table (provider-features.ts).
 *
 * A template's bound admits a range of releases; the tests validate and plan every template
 * against both ends: the oldest its bound admits and the newest release known. A minor
 * release can remove a type (coder 2.18.0 removed `data.coder_secret`), so one schema is not
 * enough: that is the lesson behind this file.
 */
import { readProjectFile } from "../core/project-root";
import {
  compareVersions,
  newestRelease,
  PROVIDER_ADDRESSES,
  PROVIDER_ATTRIBUTES,
  PROVIDER_TYPES,
  type ProviderAttributeFeature,
  type ProviderTypeFeature,
  VENDORED_RELEASES,
} from "./provider-features";

/** A schema block as `terraform providers schema -json` writes it (what derivation touches). */
interface SchemaBlock {
  attributes?: Record<string, unknown>;
  block_types?: Record<string, { block?: SchemaBlock }>;
}

/** A `terraform providers schema -json` document. */
export interface ProviderSchemaDocument {
  readonly format_version?: string;
  readonly provider_schemas: Record<
    string,
    {
      provider?: unknown;
      resource_schemas?: Record<string, { block?: SchemaBlock }>;
      data_source_schemas?: Record<string, { block?: SchemaBlock }>;
    }
  >;
}

/** Whether the feature table says `version` has a type (added by then, not removed yet). */
export function typeExistsIn(feature: ProviderTypeFeature, version: string): boolean {
  return (
    compareVersions(feature.since, version) <= 0 &&
    (feature.until === undefined || compareVersions(version, feature.until) < 0)
  );
}

/**
 * The schema document of `provider` at `version`: the oldest vendored release at or after
 * it, without every type and attribute the feature table says came later or was gone by then.
 * What the table does not list (features no template uses) stays as the vendored release
 * has it: the derived schema is exact for what the templates use, which is what it checks.
 * Fails for a version newer than every vendored release (no schema can be known for it).
 */
export function releaseSchema(
  provider: string,
  version: string,
  read: (file: string) => string = readProjectFile,
): ProviderSchemaDocument {
  const base = VENDORED_RELEASES.find(
    (r) => r.provider === provider && compareVersions(r.version, version) >= 0,
  );
  if (!base) {
    throw new Error(
      `no schema of ${provider} ${version}: the newest vendored release is ${newestRelease(provider)} (schemas/README.md)`,
    );
  }
  const document = JSON.parse(read(base.file)) as ProviderSchemaDocument;
  const address = PROVIDER_ADDRESSES[provider];
  const schemas = address === undefined ? undefined : document.provider_schemas[address];
  if (!schemas) throw new Error(`${base.file}: not a ${provider} provider schema`);
  for (const feature of PROVIDER_TYPES.filter((t) => t.provider === provider)) {
    if (!typeExistsIn(feature, version)) removeType(schemas, feature.type);
  }
  for (const feature of PROVIDER_ATTRIBUTES.filter((a) => a.provider === provider)) {
    if (compareVersions(feature.since, version) > 0) removeAttribute(schemas, feature);
  }
  return document;
}

type ProviderEntry = ProviderSchemaDocument["provider_schemas"][string];

function typeMap(schemas: ProviderEntry, type: string) {
  return type.startsWith("data.")
    ? { map: schemas.data_source_schemas, name: type.slice("data.".length) }
    : { map: schemas.resource_schemas, name: type };
}

function removeType(schemas: ProviderEntry, type: string): void {
  const { map, name } = typeMap(schemas, type);
  if (map) delete map[name];
}

/** Removes the attribute or block at the feature's dotted path (blocks down to its last name). */
function removeAttribute(schemas: ProviderEntry, feature: ProviderAttributeFeature): void {
  const { map, name } = typeMap(schemas, feature.type);
  let block = map?.[name]?.block;
  const names = feature.path.split(".");
  const last = names.pop() as string;
  for (const step of names) block = block?.block_types?.[step]?.block;
  if (!block) return;
  delete block.attributes?.[last];
  delete block.block_types?.[last];
}
