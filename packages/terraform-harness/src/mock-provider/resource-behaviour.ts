/**
 * What the mock does with values: plan, apply, read data sources, import and upgrade state.
 * Only the shape of the values matters; no provider-side validation happens here.
 */
import * as crypto from "node:crypto";
import {
  type CtyType,
  DynamicValue,
  fromJson,
  toJson,
  Unknown,
  UNKNOWN,
  zeroValue,
} from "./cty-values";
import { attributeType, blockType, type SchemaBlock } from "./provider-schemas";

/** A decoded cty value (cty-values.ts). */
type Value = unknown;
/** An object value, or a fixture's plain JSON object, by attribute name. */
type Obj = Record<string, Value>;
/** Fields of an object value (the schema says it is one). */
const fields = (v: Value): Obj => v as Obj;

/** A value a real provider derives from configuration when no fixture names it. */
export interface DerivedValue {
  readonly type: string;
  readonly attribute: string;
  /** The value, or undefined when the configuration gives none (then the zero value). */
  readonly derive: (config: Obj) => Value;
  readonly source: string;
}

/** The derived values: they keep plans realistic without a fixture for every read. */
export const DERIVED_VALUES: readonly DerivedValue[] = [
  {
    type: "coder_parameter",
    attribute: "value",
    // A parameter nobody answered takes its default.
    derive: (config) => (config.default === null ? undefined : config.default),
    source:
      "coder/terraform-provider-coder v2.17 provider/parameter.go parameterDataSource ReadContext (value: the default when no value is given)",
  },
  {
    type: "coder_secret",
    attribute: "id",
    // The id names what the secret is matched by.
    derive: (config) =>
      config.env
        ? `env:${String(config.env)}`
        : config.file
          ? `file:${String(config.file)}`
          : undefined,
    source: "coder/terraform-provider-coder v2.17 provider/secret.go ReadContext (id)",
  },
];

/**
 * PlanResourceChange: a create turns every null computed attribute into unknown ("known
 * after apply"), in nested blocks and nested attributes too; an update or a destroy plans
 * exactly the proposed state.
 */
export function planChange(block: SchemaBlock, priorState: Value, proposedNewState: Value): Value {
  if (proposedNewState === null || priorState !== null) return proposedNewState;
  return markComputedUnknown(proposedNewState, block);
}

function markComputedUnknown(object: Value, block: SchemaBlock): Obj {
  const result = { ...fields(object) };
  for (const [name, attribute] of Object.entries(block.attributes || {})) {
    const value = result[name];
    if (attribute.computed && value === null) {
      result[name] = UNKNOWN;
    } else if (attribute.nested_type && value !== null && !(value instanceof Unknown)) {
      const nestedBlock = { attributes: attribute.nested_type.attributes };
      result[name] = mapNested(attribute.nested_type.nesting_mode, value, (v) =>
        markComputedUnknown(v, nestedBlock),
      );
    }
  }
  for (const [name, nested] of Object.entries(block.block_types || {})) {
    const value = result[name];
    if (value !== null && !(value instanceof Unknown)) {
      result[name] = mapNested(nested.nesting_mode, value, (v) =>
        markComputedUnknown(v, nested.block || {}),
      );
    }
  }
  return result;
}

/** Applies `fn` to each object of a nested value (single object, list/set, or map). */
function mapNested(mode: string, value: Value, fn: (object: Value) => Value): Value {
  if (mode === "single" || mode === "group") return fn(value);
  if (mode === "map")
    return Object.fromEntries(Object.entries(fields(value)).map(([k, v]) => [k, fn(v)]));
  return (value as Value[]).map((v) => (v === null || v instanceof Unknown ? v : fn(v)));
}

/**
 * ApplyResourceChange: the planned state with every unknown filled, from the fixture when it
 * names the attribute, else a placeholder (id "<type>-<hash of the known values>", strings "",
 * numbers 0, bools false, empty collections).
 */
export function applyChange(
  typeName: string,
  block: SchemaBlock,
  plannedState: Value,
  fixture: Obj,
): Value {
  if (plannedState === null) return null;
  const type = blockType(block);
  const filled = fields(fillUnknowns(plannedState, type, fixture));
  if (fields(plannedState).id instanceof Unknown && fixture.id === undefined) {
    filled.id = `${typeName}-${stableHash(plannedState)}`;
  }
  if (typeName.startsWith("kubernetes_"))
    assignServerValues(typeName, fields(plannedState), filled, fixture);
  return filled;
}

/**
 * What the API server gives every object it creates and the kubernetes provider reads back:
 * a fresh `metadata.uid` (a UUID, new for each object, so a recreated object never has its
 * predecessor's uid), and for a TokenRequest the minted `token`: a JWT naming the service
 * account and the object it is bound to, different for every request
 * (pkg/registry/core/serviceaccount/storage/token.go; the provider stores status.token).
 * A fixture that names the value wins.
 */
function assignServerValues(typeName: string, planned: Obj, filled: Obj, fixture: Obj): void {
  const [meta] = (Array.isArray(planned.metadata) ? planned.metadata : []) as (Obj | undefined)[];
  const fixtureMeta = (Array.isArray(fixture.metadata) ? fixture.metadata[0] : undefined) as
    Obj | undefined;
  // A kubernetes object's value has its one metadata block (read only where it is needed).
  const filledMeta = (): Obj => (filled.metadata as Obj[])[0] as Obj;
  if (meta && meta.uid instanceof Unknown && fixtureMeta?.uid === undefined) {
    filledMeta().uid = crypto.randomUUID();
  }
  if (typeName !== "kubernetes_token_request_v1") return;
  if (!(planned.token instanceof Unknown) || fixture.token !== undefined) return;
  const [spec] = (Array.isArray(filled.spec) ? filled.spec : []) as (Obj | undefined)[];
  const [bound] = (spec && Array.isArray(spec.bound_object_ref) ? spec.bound_object_ref : []) as (
    Obj | undefined
  )[];
  const namespace = String(filledMeta().namespace);
  const claims = {
    sub: `system:serviceaccount:${namespace}:${String(filledMeta().name)}`,
    jti: crypto.randomUUID(),
    exp: Math.floor(Date.now() / 1000) + Number(spec?.expiration_seconds || 3600),
    ...(bound
      ? {
          "kubernetes.io": {
            [String(bound.kind).toLowerCase()]: { name: bound.name, uid: bound.uid },
          },
        }
      : {}),
  };
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  filled.token = `${part({ alg: "RS256", typ: "JWT" })}.${part(claims)}.${crypto.randomBytes(32).toString("base64url")}`;
}

function fillUnknowns(value: Value, type: CtyType, fixture: Value): Value {
  if (value instanceof Unknown) {
    return fixture !== undefined ? fromJson(fixture, type) : zeroValue(type);
  }
  if (value === null || typeof type === "string") return value;
  const at = (key: string | number): Value =>
    fixture !== null && typeof fixture === "object"
      ? (fixture as Record<string | number, Value>)[key]
      : undefined;
  switch (type[0]) {
    case "list":
    case "set": {
      const element = type[1];
      return (value as Value[]).map((v, i) => fillUnknowns(v, element, at(i)));
    }
    case "tuple": {
      const elements = type[1];
      return (value as Value[]).map((v, i) => fillUnknowns(v, elements[i] as CtyType, at(i)));
    }
    case "map": {
      const element = type[1];
      return Object.fromEntries(
        Object.entries(fields(value)).map(([k, v]) => [k, fillUnknowns(v, element, at(k))]),
      );
    }
    case "object":
      return Object.fromEntries(
        Object.entries(type[1]).map(([k, t]) => [k, fillUnknowns(fields(value)[k], t, at(k))]),
      );
    default:
      return value;
  }
}

/**
 * ReadDataSource: the configuration with each null computed attribute taken from the
 * fixture, else derived from configuration, else its type's zero value. Fully known.
 * A fixture may set an attribute to null explicitly: real providers return null for
 * what they do not know (an older service's collections), and templates must cope.
 */
export function readDataSource(
  typeName: string,
  block: SchemaBlock,
  config: Value,
  fixture: Obj,
): Obj {
  const derived = DERIVED_VALUES.filter((d) => d.type === typeName);
  const plainConfig = fields(toJson(config));
  const result = { ...fields(config) };
  for (const [name, attribute] of Object.entries(block.attributes || {})) {
    if (!attribute.computed || result[name] !== null) continue;
    const type = attributeType(attribute);
    let value = fixture[name];
    const derivation = derived.find((d) => d.attribute === name);
    if (value === undefined && derivation) value = derivation.derive(plainConfig);
    if (value === undefined) result[name] = zeroValue(type);
    else result[name] = value === null ? null : fromJson(value, type);
  }
  return result;
}

/** ImportResourceState: an object with the imported id and fixture values, the rest null. */
export function importState(block: SchemaBlock, id: string, fixture: Obj): Value {
  return fromJson({ ...fixture, id }, blockType(block));
}

/** UpgradeResourceState: the stored JSON read into the current schema's type. */
export function upgradeState(block: SchemaBlock, rawJson: string): Value {
  return fromJson(JSON.parse(rawJson), blockType(block));
}

function stableHash(value: Value): string {
  const text = JSON.stringify(value, (_key, v: Value) =>
    v instanceof Unknown ? "(unknown)" : v instanceof DynamicValue ? v.value : v,
  );
  return crypto.createHash("sha256").update(text).digest("hex").slice(0, 8);
}
