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
import * as fs from "node:fs";

/** A fixture file's entries by type (each a plain object of values, a matcher, or a list). */
type FixtureEntries = Record<string, unknown>;

interface Fixtures {
  readonly data_sources: FixtureEntries;
  readonly resources: FixtureEntries;
}

/** A matcher entry: `values` apply when `match` is a subset of the configuration. */
interface Matcher {
  readonly match?: unknown;
  readonly values?: Record<string, unknown>;
}

export class FixtureFile {
  private loaded: Fixtures = { data_sources: {}, resources: {} };
  private stamp = "";

  /** `file`: path of the JSON file; none means no fixtures. */
  constructor(private readonly file: string | undefined) {}

  /** Re-reads the file when its size or mtime changed, so a long-lived server sees edits. */
  current(): Fixtures {
    if (!this.file || !fs.existsSync(this.file)) return this.loaded;
    const stat = fs.statSync(this.file);
    const stamp = `${stat.size}:${stat.mtimeMs}`;
    if (stamp !== this.stamp) {
      const parsed = JSON.parse(fs.readFileSync(this.file, "utf8")) as Partial<Fixtures>;
      this.loaded = { data_sources: parsed.data_sources || {}, resources: parsed.resources || {} };
      this.stamp = stamp;
    }
    return this.loaded;
  }

  /** The merged fixture values for one read/apply (`config`: the configuration as plain JSON). */
  valuesFor(kind: "data" | "resource", typeName: string, config: unknown): Record<string, unknown> {
    const fixtures = this.current()[kind === "data" ? "data_sources" : "resources"];
    const raw = fixtures[typeName];
    if (raw === undefined) return {};
    const entries = Array.isArray(raw) ? raw : [raw];
    const merged: Record<string, unknown> = {};
    for (const entry of entries as unknown[]) {
      const isMatcher =
        !!entry && typeof entry === "object" && ("match" in entry || "values" in entry);
      const matcher = entry as Matcher;
      if (isMatcher && matcher.match && !isSubset(matcher.match, config)) continue;
      const values = isMatcher ? matcher.values || {} : (entry as Record<string, unknown>);
      for (const [name, value] of Object.entries(values)) {
        if (!(name in merged)) merged[name] = value;
      }
    }
    return merged;
  }
}

/** True when every key of `subset` (recursively) equals the same key in `value`. */
export function isSubset(subset: unknown, value: unknown): boolean {
  if (subset === null || typeof subset !== "object") return subset === value;
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(subset)) {
    return (
      Array.isArray(value) &&
      subset.length === value.length &&
      subset.every((s, i) => isSubset(s, value[i]))
    );
  }
  const fields = value as Record<string, unknown>;
  return Object.entries(subset).every(([key, s]) => isSubset(s, fields[key]));
}
