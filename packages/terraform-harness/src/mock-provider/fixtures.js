"use strict";
/**
 * Fixture values for computed attributes, read from a JSON file:
 *
 *   {
 *     "data_sources": { "<type>": <entry or list of entries> },
 *     "resources":    { "<type>": <entry or list of entries> }
 *   }
 *
 * An entry is either a plain object of attribute values, or `{ "match": {...}, "values": {...} }`
 * whose `match` must be a subset of the resource's configuration (compared as JSON). Every
 * matching entry contributes; for each attribute the first entry that names it wins, so list
 * specific entries before general ones. Values fill nested objects attribute by attribute.
 */
const fs = require("node:fs");

class FixtureFile {
  /** @param {string | undefined} file path of the JSON file; none means no fixtures */
  constructor(file) {
    this.file = file;
    this.loaded = { data_sources: {}, resources: {} };
    this.stamp = "";
  }

  /** Re-reads the file when its size or mtime changed, so a long-lived server sees edits. */
  current() {
    if (!this.file || !fs.existsSync(this.file)) return this.loaded;
    const stat = fs.statSync(this.file);
    const stamp = `${stat.size}:${stat.mtimeMs}`;
    if (stamp !== this.stamp) {
      const parsed = JSON.parse(fs.readFileSync(this.file, "utf8"));
      this.loaded = { data_sources: parsed.data_sources || {}, resources: parsed.resources || {} };
      this.stamp = stamp;
    }
    return this.loaded;
  }

  /**
   * The merged fixture values for one read/apply.
   * @param {"data" | "resource"} kind
   * @param {string} typeName
   * @param {object} config the configuration as plain JSON
   */
  valuesFor(kind, typeName, config) {
    const fixtures = this.current()[kind === "data" ? "data_sources" : "resources"];
    const raw = fixtures[typeName];
    if (raw === undefined) return {};
    const entries = Array.isArray(raw) ? raw : [raw];
    const merged = {};
    for (const entry of entries) {
      const isMatcher =
        entry && typeof entry === "object" && ("match" in entry || "values" in entry);
      if (isMatcher && entry.match && !isSubset(entry.match, config)) continue;
      const values = isMatcher ? entry.values || {} : entry;
      for (const [name, value] of Object.entries(values)) {
        if (!(name in merged)) merged[name] = value;
      }
    }
    return merged;
  }
}

/** True when every key of `subset` (recursively) equals the same key in `value`. */
function isSubset(subset, value) {
  if (subset === null || typeof subset !== "object") return subset === value;
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(subset)) {
    return (
      Array.isArray(value) &&
      subset.length === value.length &&
      subset.every((s, i) => isSubset(s, value[i]))
    );
  }
  return Object.entries(subset).every(([key, s]) => isSubset(s, value[key]));
}

module.exports = { FixtureFile, isSubset };
