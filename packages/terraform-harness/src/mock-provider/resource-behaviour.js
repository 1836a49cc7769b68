"use strict";
/**
 * What the mock does with values: plan, apply, read data sources, import and upgrade state.
 * Only the shape of the values matters; no provider-side validation happens here.
 */
const crypto = require("node:crypto");
const { Unknown, UNKNOWN, DynamicValue, fromJson, toJson, zeroValue } = require("./cty-values");
const { attributeType, blockType } = require("./provider-schemas");

/**
 * Values a real provider derives from configuration when no fixture names them; they keep
 * plans realistic without a fixture for every read.
 */
const DERIVED_DEFAULTS = {
  // A parameter nobody answered takes its default.
  coder_parameter: { value: (config) => (config.default === null ? undefined : config.default) },
  // provider/secret.go: the id names what the secret is matched by.
  coder_secret: {
    id: (config) =>
      config.env ? `env:${config.env}` : config.file ? `file:${config.file}` : undefined,
  },
};

/**
 * PlanResourceChange: a create turns every null computed attribute into unknown ("known
 * after apply"), in nested blocks and nested attributes too; an update or a destroy plans
 * exactly the proposed state.
 */
function planChange(block, priorState, proposedNewState) {
  if (proposedNewState === null || priorState !== null) return proposedNewState;
  return markComputedUnknown(proposedNewState, block);
}

function markComputedUnknown(object, block) {
  const result = { ...object };
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
function mapNested(mode, value, fn) {
  if (mode === "single" || mode === "group") return fn(value);
  if (mode === "map") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fn(v)]));
  return value.map((v) => (v === null || v instanceof Unknown ? v : fn(v)));
}

/**
 * ApplyResourceChange: the planned state with every unknown filled, from the fixture when it
 * names the attribute, else a placeholder (id "<type>-<hash of the known values>", strings "",
 * numbers 0, bools false, empty collections).
 */
function applyChange(typeName, block, plannedState, fixture) {
  if (plannedState === null) return null;
  const type = blockType(block);
  const filled = fillUnknowns(plannedState, type, fixture);
  if (plannedState.id instanceof Unknown && fixture.id === undefined) {
    filled.id = `${typeName}-${stableHash(plannedState)}`;
  }
  return filled;
}

function fillUnknowns(value, type, fixture) {
  if (value instanceof Unknown) {
    return fixture !== undefined ? fromJson(fixture, type) : zeroValue(type);
  }
  if (value === null || typeof type === "string") return value;
  const [kind, element] = type;
  const at = (key) => (fixture !== null && typeof fixture === "object" ? fixture[key] : undefined);
  switch (kind) {
    case "list":
    case "set":
      return value.map((v, i) => fillUnknowns(v, element, at(i)));
    case "tuple":
      return value.map((v, i) => fillUnknowns(v, element[i], at(i)));
    case "map":
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, fillUnknowns(v, element, at(k))]),
      );
    case "object":
      return Object.fromEntries(
        Object.entries(element).map(([k, t]) => [k, fillUnknowns(value[k], t, at(k))]),
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
function readDataSource(typeName, block, config, fixture) {
  const derived = DERIVED_DEFAULTS[typeName] || {};
  const plainConfig = toJson(config);
  const result = { ...config };
  for (const [name, attribute] of Object.entries(block.attributes || {})) {
    if (!attribute.computed || result[name] !== null) continue;
    const type = attributeType(attribute);
    let value = fixture[name];
    if (value === undefined && derived[name]) value = derived[name](plainConfig);
    if (value === undefined) result[name] = zeroValue(type);
    else result[name] = value === null ? null : fromJson(value, type);
  }
  return result;
}

/** ImportResourceState: an object with the imported id and fixture values, the rest null. */
function importState(block, id, fixture) {
  return fromJson({ ...fixture, id }, blockType(block));
}

/** UpgradeResourceState: the stored JSON read into the current schema's type. */
function upgradeState(block, rawJson) {
  return fromJson(JSON.parse(rawJson), blockType(block));
}

function stableHash(value) {
  const text = JSON.stringify(value, (_key, v) =>
    v instanceof Unknown ? "(unknown)" : v instanceof DynamicValue ? v.value : v,
  );
  return crypto.createHash("sha256").update(text).digest("hex").slice(0, 8);
}

module.exports = { planChange, applyChange, readDataSource, importState, upgradeState };
