"use strict";
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
const { decode, encode, ExtensionCodec } = require("@msgpack/msgpack");

/** An unknown value ("known after apply"). */
class Unknown {
  /** @param {Uint8Array | undefined} refinement raw ext 12 payload, when Terraform refined it */
  constructor(refinement) {
    this.refinement = refinement;
  }
}

/** The one unrefined unknown. */
const UNKNOWN = new Unknown(undefined);

/** A value of type `dynamic`: carries its concrete type. */
class DynamicValue {
  constructor(type, value) {
    this.type = type;
    this.value = value;
  }
}

const UNKNOWN_EXT = 0;
const REFINED_UNKNOWN_EXT = 12;

const extensions = new ExtensionCodec();
extensions.register({
  type: UNKNOWN_EXT,
  encode: (v) => (v instanceof Unknown && !v.refinement ? new Uint8Array([0]) : null),
  decode: () => UNKNOWN,
});
extensions.register({
  type: REFINED_UNKNOWN_EXT,
  encode: (v) => (v instanceof Unknown && v.refinement ? v.refinement : null),
  decode: (data) => new Unknown(Uint8Array.from(data)),
});

/** Decodes DynamicValue.msgpack bytes of cty type `type`. */
function decodeValue(bytes, type) {
  if (!bytes || bytes.length === 0) return null;
  return fromWire(decode(bytes, { extensionCodec: extensions }), type);
}

/** Encodes `value` (of cty type `type`) as DynamicValue.msgpack bytes. */
function encodeValue(value, type) {
  return Buffer.from(encode(toWire(value, type), { extensionCodec: extensions }));
}

/** Converts a msgpack-decoded structure into our representation, guided by `type`. */
function fromWire(raw, type) {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof Unknown) return raw;
  if (type === "dynamic") {
    const [typeJson, inner] = raw;
    const concrete = JSON.parse(Buffer.from(typeJson).toString("utf8"));
    return new DynamicValue(concrete, fromWire(inner, concrete));
  }
  if (typeof type === "string") return raw;
  const [kind, element] = type;
  switch (kind) {
    case "list":
    case "set":
      return raw.map((v) => fromWire(v, element));
    case "tuple":
      return raw.map((v, i) => fromWire(v, element[i]));
    case "map":
      return mapValues(raw, (v) => fromWire(v, element));
    case "object": {
      const result = {};
      for (const [name, attrType] of Object.entries(element))
        result[name] = fromWire(raw[name], attrType);
      return result;
    }
    default:
      throw new Error(`unsupported cty type ${JSON.stringify(type)}`);
  }
}

/** Converts our representation into what msgpack should write for `type`. */
function toWire(value, type) {
  if (value === null || value === undefined) return null;
  if (value instanceof Unknown) return value;
  if (type === "dynamic") {
    const dynamic =
      value instanceof DynamicValue ? value : new DynamicValue(impliedType(value), value);
    return [Buffer.from(JSON.stringify(dynamic.type)), toWire(dynamic.value, dynamic.type)];
  }
  if (typeof type === "string") return primitive(value, type);
  const [kind, element] = type;
  switch (kind) {
    case "list":
    case "set":
      return value.map((v) => toWire(v, element));
    case "tuple":
      return value.map((v, i) => toWire(v, element[i]));
    case "map":
      return mapValues(value, (v) => toWire(v, element));
    case "object": {
      const result = {};
      for (const [name, attrType] of Object.entries(element))
        result[name] = toWire(value[name], attrType);
      return result;
    }
    default:
      throw new Error(`unsupported cty type ${JSON.stringify(type)}`);
  }
}

/** Coerces a fixture's JSON primitive to the schema's primitive type, like Terraform would. */
function primitive(value, type) {
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
function impliedType(value) {
  if (value === null || value === undefined) return "dynamic";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return ["tuple", value.map(impliedType)];
  return ["object", mapValues(value, impliedType)];
}

/**
 * Converts our representation to plain JSON (dynamic values lose their wrapper). Unknown values
 * have no JSON form: they throw, or become `unknownAs` when one is given.
 */
function toJson(value, unknownAs) {
  if (value instanceof Unknown) {
    if (unknownAs === undefined) throw new Error("an unknown value has no JSON form");
    return unknownAs;
  }
  if (value instanceof DynamicValue) return toJson(value.value, unknownAs);
  if (Array.isArray(value)) return value.map((v) => toJson(v, unknownAs));
  if (value !== null && typeof value === "object")
    return mapValues(value, (v) => toJson(v, unknownAs));
  return value;
}

/** Converts plain JSON (a fixture or a state file) into a value of `type`; missing keys become null. */
function fromJson(json, type) {
  if (json === null || json === undefined) return null;
  if (type === "dynamic") return new DynamicValue(impliedType(json), json);
  if (typeof type === "string") return primitive(json, type);
  const [kind, element] = type;
  switch (kind) {
    case "list":
    case "set":
      return json.map((v) => fromJson(v, element));
    case "tuple":
      return json.map((v, i) => fromJson(v, element[i]));
    case "map":
      return mapValues(json, (v) => fromJson(v, element));
    case "object": {
      const result = {};
      for (const [name, attrType] of Object.entries(element))
        result[name] = fromJson(json[name], attrType);
      return result;
    }
    default:
      throw new Error(`unsupported cty type ${JSON.stringify(type)}`);
  }
}

/** The placeholder a computed value of `type` gets when nothing else is known. */
function zeroValue(type) {
  if (type === "dynamic") return null;
  if (type === "string") return "";
  if (type === "number") return 0;
  if (type === "bool") return false;
  const [kind, element] = type;
  if (kind === "list" || kind === "set" || kind === "tuple") {
    return kind === "tuple" ? element.map(zeroValue) : [];
  }
  if (kind === "map") return {};
  return mapValues(element, zeroValue);
}

function mapValues(object, fn) {
  const result = {};
  for (const [key, value] of Object.entries(object)) result[key] = fn(value, key);
  return result;
}

module.exports = {
  Unknown,
  UNKNOWN,
  DynamicValue,
  decodeValue,
  encodeValue,
  fromJson,
  toJson,
  zeroValue,
  impliedType,
};
