/**
 * cty values as Terraform exchanges them in DynamicValue.msgpack, decoded into plain JS
 * following the cty type (the JSON type notation of provider schemas):
 *
 * - unknown        → an Unknown instance (ext 0; refined unknowns, ext 12, keep their bytes so
 *                    they can be sent back unchanged)
 * - null           → null
 * - string/bool    → string/boolean; number → number (or string, for numbers cty sent as text)
 * - list/set/tuple → array; map/object → plain object
 * - dynamic        → DynamicValue {type, value} (msgpack: [bin(type JSON), value])
 *
 * Encoding follows the type too: every object gets all of its attributes (cty rejects an
 * object with missing keys).
 */
import { decode, encode, ExtensionCodec } from "@msgpack/msgpack";

/** A cty type in the JSON notation of provider schemas ("string", ["list", "number"], …). */
export type CtyType =
  | string
  | readonly ["list" | "set" | "map", CtyType]
  | readonly ["tuple", readonly CtyType[]]
  | readonly ["object", Readonly<Record<string, CtyType>>];

type Obj = Record<string, unknown>;

/** An unknown value ("known after apply"). */
export class Unknown {
  /** `refinement`: the raw ext 12 payload, when Terraform refined it. */
  constructor(readonly refinement: Uint8Array | undefined) {}
}

/** The one unrefined unknown. */
export const UNKNOWN = new Unknown(undefined);

/** A value of type `dynamic`: carries its concrete type. */
export class DynamicValue {
  constructor(
    readonly type: CtyType,
    readonly value: unknown,
  ) {}
}

const UNKNOWN_EXT = 0;
const REFINED_UNKNOWN_EXT = 12;

const extensions = new ExtensionCodec();
extensions.register({
  type: UNKNOWN_EXT,
  encode: (v: unknown) => (v instanceof Unknown && !v.refinement ? new Uint8Array([0]) : null),
  decode: () => UNKNOWN,
});
extensions.register({
  type: REFINED_UNKNOWN_EXT,
  encode: (v: unknown) => (v instanceof Unknown && v.refinement ? v.refinement : null),
  decode: (data) => new Unknown(Uint8Array.from(data)),
});

/** Decodes DynamicValue.msgpack bytes of cty type `type`. */
export function decodeValue(bytes: Uint8Array | undefined, type: CtyType): unknown {
  if (!bytes || bytes.length === 0) return null;
  return fromWire(decode(bytes, { extensionCodec: extensions }), type);
}

/** Encodes `value` (of cty type `type`) as DynamicValue.msgpack bytes. */
export function encodeValue(value: unknown, type: CtyType): Buffer {
  return Buffer.from(encode(toWire(value, type), { extensionCodec: extensions }));
}

/** Converts a msgpack-decoded structure into our representation, guided by `type`. */
function fromWire(raw: unknown, type: CtyType): unknown {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof Unknown) return raw;
  if (type === "dynamic") {
    const [typeJson, inner] = raw as [Uint8Array, unknown];
    const concrete = JSON.parse(Buffer.from(typeJson).toString("utf8")) as CtyType;
    return new DynamicValue(concrete, fromWire(inner, concrete));
  }
  if (typeof type === "string") return raw;
  switch (type[0]) {
    case "list":
    case "set":
      return (raw as unknown[]).map((v) => fromWire(v, type[1]));
    case "tuple":
      return (raw as unknown[]).map((v, i) => fromWire(v, elementOf(type[1], i)));
    case "map":
      return mapValues(raw as Obj, (v) => fromWire(v, type[1]));
    case "object": {
      const result: Obj = {};
      for (const [name, attrType] of Object.entries(type[1]))
        result[name] = fromWire((raw as Obj)[name], attrType);
      return result;
    }
    default:
      throw new Error(`unsupported cty type ${JSON.stringify(type)}`);
  }
}

/** Converts our representation into what msgpack should write for `type`. */
function toWire(value: unknown, type: CtyType): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Unknown) return value;
  if (type === "dynamic") {
    const dynamic =
      value instanceof DynamicValue ? value : new DynamicValue(impliedType(value), value);
    return [Buffer.from(JSON.stringify(dynamic.type)), toWire(dynamic.value, dynamic.type)];
  }
  if (typeof type === "string") return primitive(value, type);
  switch (type[0]) {
    case "list":
    case "set":
      return (value as unknown[]).map((v) => toWire(v, type[1]));
    case "tuple":
      return (value as unknown[]).map((v, i) => toWire(v, elementOf(type[1], i)));
    case "map":
      return mapValues(value as Obj, (v) => toWire(v, type[1]));
    case "object": {
      const result: Obj = {};
      for (const [name, attrType] of Object.entries(type[1]))
        result[name] = toWire((value as Obj)[name], attrType);
      return result;
    }
    default:
      throw new Error(`unsupported cty type ${JSON.stringify(type)}`);
  }
}

/** Coerces a fixture's JSON primitive to the schema's primitive type, like Terraform would. */
function primitive(value: unknown, type: string): unknown {
  if (value instanceof DynamicValue) return primitive(value.value, type);
  switch (type) {
    case "string":
      return typeof value === "string"
        ? value
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value);
    case "number":
      return typeof value === "number" ? value : Number(value);
    case "bool":
      return typeof value === "boolean" ? value : value === "true";
    default:
      throw new Error(`unsupported primitive type ${type}`);
  }
}

/** The cty type a plain JSON value would get, for fixtures of dynamic attributes. */
export function impliedType(value: unknown): CtyType {
  if (value === null || value === undefined) return "dynamic";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return ["tuple", value.map(impliedType)];
  return ["object", mapValues(value as Obj, impliedType)];
}

/**
 * Converts our representation to plain JSON (dynamic values lose their wrapper). Unknown values
 * have no JSON form: they throw, or become `unknownAs` when one is given.
 */
export function toJson(value: unknown, unknownAs?: unknown): unknown {
  if (value instanceof Unknown) {
    if (unknownAs === undefined) throw new Error("an unknown value has no JSON form");
    return unknownAs;
  }
  if (value instanceof DynamicValue) return toJson(value.value, unknownAs);
  if (Array.isArray(value)) return value.map((v) => toJson(v, unknownAs));
  if (value !== null && typeof value === "object")
    return mapValues(value as Obj, (v) => toJson(v, unknownAs));
  return value;
}

/** Converts plain JSON (a fixture or a state file) into a value of `type`; missing keys become null. */
export function fromJson(json: unknown, type: CtyType): unknown {
  if (json === null || json === undefined) return null;
  if (type === "dynamic") return new DynamicValue(impliedType(json), json);
  if (typeof type === "string") return primitive(json, type);
  switch (type[0]) {
    case "list":
    case "set":
      return (json as unknown[]).map((v) => fromJson(v, type[1]));
    case "tuple":
      return (json as unknown[]).map((v, i) => fromJson(v, elementOf(type[1], i)));
    case "map":
      return mapValues(json as Obj, (v) => fromJson(v, type[1]));
    case "object": {
      const result: Obj = {};
      for (const [name, attrType] of Object.entries(type[1]))
        result[name] = fromJson((json as Obj)[name], attrType);
      return result;
    }
    default:
      throw new Error(`unsupported cty type ${JSON.stringify(type)}`);
  }
}

/** The placeholder a computed value of `type` gets when nothing else is known. */
export function zeroValue(type: CtyType): unknown {
  if (type === "dynamic") return null;
  if (type === "string") return "";
  if (type === "number") return 0;
  if (type === "bool") return false;
  if (typeof type === "string") return undefined;
  switch (type[0]) {
    case "tuple":
      return type[1].map(zeroValue);
    case "list":
    case "set":
      return [];
    case "map":
      return {};
    case "object":
      return mapValues(type[1], zeroValue);
  }
}

/** A tuple's element type (a value longer than its type has none: cty rejects it first). */
function elementOf(types: readonly CtyType[], index: number): CtyType {
  return types[index] as CtyType;
}

function mapValues<T, R>(
  object: Readonly<Record<string, T>>,
  fn: (value: T, key: string) => R,
): Record<string, R> {
  const result: Record<string, R> = {};
  for (const [key, value] of Object.entries(object)) result[key] = fn(value, key);
  return result;
}
