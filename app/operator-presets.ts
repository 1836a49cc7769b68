/**
 * The operator's workspace presets (coder-cdktf.jsonc `templates.<id>.presets`), checked at
 * synth against the template they are for and added to it as `data.coder_workspace_preset`s.
 * Every error names the position in the file, the field and the reason, like the rest of the
 * configuration: a preset that names a parameter the template lacks, or a value the
 * parameter refuses, would otherwise fail every workspace (and every prebuild) created from it.
 */
import type { IConstruct } from "../lib/core/cdk";
import { ConfigError } from "./operator-config";
import { containsUrlCredentials, describeValue, type Rule } from "../lib/core/validate";
import { WorkspaceParameter } from "../lib/constructs/workspace-parameter";
import {
  presetParameterProblem,
  presetShapeProblem,
  WorkspacePreset,
  type PresetPrebuilds,
  type WorkspacePresetProps,
} from "../lib/constructs/workspace-preset";

/** `file:line:column` of a field's value (or its name, with "key") in the config file. */
export type PresetPositionOf = (
  jsonPath: readonly (string | number)[],
  part?: "key" | "value",
) => string;

/** What a template asks of operator presets beyond its parameters' own options and rules. */
export interface OperatorPresetRules {
  /** Parameters every operator preset must set, with why. @default none */
  readonly required?: Readonly<Record<string, string>>;
  /** Extra rules for values of some parameters. @default none */
  readonly values?: Readonly<Record<string, Rule>>;
}

const PRESET_FIELDS = ["name", "description", "icon", "default", "parameters", "prebuilds"];
const PREBUILDS_FIELDS = ["instances", "expirationPolicy", "scheduling"];
const EXPIRATION_FIELDS = ["ttlSeconds"];
const SCHEDULING_FIELDS = ["timezone", "schedule"];
const SCHEDULE_FIELDS = ["cron", "instances"];

/**
 * Checks the operator's presets for template `templateId` and adds them to `stack`. An
 * operator preset marked `default` replaces the template's default preset; two such presets
 * are an error, and so is a name another preset already has.
 */
export function applyOperatorPresets(
  templateId: string,
  stack: IConstruct,
  presets: readonly unknown[],
  positionOf: PresetPositionOf,
  rules: OperatorPresetRules = {},
): WorkspacePreset[] {
  if (presets.length === 0) return [];
  const base = ["templates", templateId, "presets"];
  const fail = (path: readonly (string | number)[], reason: string, part?: "key"): never => {
    throw new ConfigError(
      `${positionOf([...base, ...path], part)}: ${fieldName(templateId, path)}: ${reason}`,
    );
  };
  const all = stack.node.findAll();
  const parameters = new Map(
    all
      .filter((c): c is WorkspaceParameter => c instanceof WorkspaceParameter)
      .map((p) => [p.name, p] as const),
  );
  const builtIn = all.filter((c): c is WorkspacePreset => c instanceof WorkspacePreset);
  const names = new Map<string, string>(
    builtIn.map((p) => [p.props.name, "the template's preset"]),
  );
  const ids = new Set(builtIn.map((p) => p.node.id));

  const checked = presets.map((raw, i) => {
    const props = presetProps(raw, [i], fail, parameters, rules);
    const other = names.get(props.name);
    if (other !== undefined) {
      fail([i, "name"], `${describeValue(props.name)} is already the name of ${other}`);
    }
    names.set(props.name, `presets[${i}]`);
    return props;
  });

  const defaults = checked.flatMap((p, i) => (p.default === true ? [i] : []));
  if (defaults.length > 1) {
    fail(
      [defaults[1], "default"],
      `a second default preset (presets[${defaults[0]}] is one); a template has at most one`,
    );
  }
  if (defaults.length === 1) for (const preset of builtIn) preset.clearDefault();

  return checked.map((props) => new WorkspacePreset(stack, uniqueId(props.name, ids), props));
}

type Fail = (path: readonly (string | number)[], reason: string, part?: "key") => never;

/**
 * Refuses every text of a preset (name, description, icon, parameter values, schedule) that
 * holds a URL with credentials, with the scan the URL rules use (lib/core/validate.ts),
 * naming the field and never the value: a preset ships in main.tf, the preset form and every
 * workspace created from it.
 */
function refuseCredentials(value: unknown, path: readonly (string | number)[], fail: Fail): void {
  if (typeof value === "string") {
    if (containsUrlCredentials(value)) {
      fail(
        path,
        "holds a URL with a user name or password in it (the value is not shown: it may be a " +
          "token); a preset ships in the template and in every workspace created from it, so " +
          "give the URL without them and let Coder provide credentials",
      );
    }
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => refuseCredentials(v, [...path, i], fail));
  } else if (typeof value === "object" && value !== null) {
    for (const [key, v] of Object.entries(value)) refuseCredentials(v, [...path, key], fail);
  }
}

/** One preset's props from its JSON value, or a ConfigError at the first bad field. */
function presetProps(
  raw: unknown,
  path: readonly (string | number)[],
  fail: Fail,
  parameters: ReadonlyMap<string, WorkspaceParameter>,
  rules: OperatorPresetRules,
): WorkspacePresetProps {
  refuseCredentials(raw, path, fail);
  const preset = object(raw, path, PRESET_FIELDS, fail);
  const name = preset.name;
  if (typeof name !== "string" || name.trim() === "") {
    fail([...path, ...(name === undefined ? [] : ["name"])], "needs a name (a non-empty string)");
  }
  const description = optionalString(preset, "description", path, fail);
  const icon = optionalString(preset, "icon", path, fail);
  if (preset.default !== undefined && typeof preset.default !== "boolean") {
    fail(
      [...path, "default"],
      `${describeValue(preset.default)} is not allowed; expected true or false`,
    );
  }

  const values: Record<string, string> = {};
  const given =
    preset.parameters === undefined
      ? {}
      : object(preset.parameters, [...path, "parameters"], undefined, fail);
  for (const [parameterName, value] of Object.entries(given)) {
    const at = [...path, "parameters", parameterName];
    const of = `preset "${name}": `;
    const parameter = parameters.get(parameterName);
    if (parameter === undefined) {
      fail(
        at,
        `${of}unknown parameter "${parameterName}"; the template has: ${[...parameters.keys()].sort().join(", ")}`,
        "key",
      );
    }
    const text = parameterText(value, parameter.definition.type);
    if (text === undefined) {
      fail(
        at,
        `${of}${describeValue(value)} is not allowed; expected a string, number or true/false`,
      );
    }
    const problem = presetParameterProblem(parameter, text);
    if (problem !== undefined) fail(at, `${of}${problem}`);
    const rule = rules.values?.[parameterName];
    if (rule !== undefined && !rule.test(text)) {
      fail(
        at,
        `${of}${describeValue(text)} is not allowed; ${parameterName} must be ${rule.requirement}`,
      );
    }
    values[parameterName] = text;
  }
  for (const [required, why] of Object.entries(rules.required ?? {})) {
    if (!(required in values)) {
      fail(
        [...path, ...(preset.parameters === undefined ? [] : ["parameters"])],
        `preset "${name}" does not set parameter "${required}"; ${why}`,
      );
    }
  }

  const props: WorkspacePresetProps = {
    name,
    description,
    icon,
    default: preset.default as boolean | undefined,
    parameters: values,
    prebuilds:
      preset.prebuilds === undefined
        ? undefined
        : prebuilds(preset.prebuilds, [...path, "prebuilds"], fail),
  };
  const problem = presetShapeProblem(props);
  if (problem !== undefined) fail([...path, ...fieldPath(problem.field)], problem.reason);
  return props;
}

function prebuilds(raw: unknown, path: readonly (string | number)[], fail: Fail): PresetPrebuilds {
  const block = object(raw, path, PREBUILDS_FIELDS, fail);
  const instances = requiredNumber(block, "instances", path, fail);
  let expirationPolicy: PresetPrebuilds["expirationPolicy"];
  if (block.expirationPolicy !== undefined) {
    const at = [...path, "expirationPolicy"];
    const policy = object(block.expirationPolicy, at, EXPIRATION_FIELDS, fail);
    expirationPolicy = { ttlSeconds: requiredNumber(policy, "ttlSeconds", at, fail) };
  }
  let scheduling: PresetPrebuilds["scheduling"];
  if (block.scheduling !== undefined) {
    const at = [...path, "scheduling"];
    const value = object(block.scheduling, at, SCHEDULING_FIELDS, fail);
    if (typeof value.timezone !== "string") {
      fail(
        [...at, ...(value.timezone === undefined ? [] : ["timezone"])],
        'needs a timezone (an IANA name such as "UTC")',
      );
    }
    if (!Array.isArray(value.schedule)) {
      fail(
        [...at, ...(value.schedule === undefined ? [] : ["schedule"])],
        "needs a schedule: a list of { cron, instances }",
      );
    }
    const schedule = value.schedule.map((entry: unknown, i: number) => {
      const entryAt = [...at, "schedule", i];
      const item = object(entry, entryAt, SCHEDULE_FIELDS, fail);
      if (typeof item.cron !== "string") {
        fail(
          [...entryAt, ...(item.cron === undefined ? [] : ["cron"])],
          'needs a cron (a string such as "* 8-18 * * 1-5")',
        );
      }
      return { cron: item.cron, instances: requiredNumber(item, "instances", entryAt, fail) };
    });
    scheduling = { timezone: value.timezone, schedule };
  }
  return { instances, expirationPolicy, scheduling };
}

/** A JSON object's fields, refusing other values and (with `allowed`) unknown fields. */
function object(
  raw: unknown,
  path: readonly (string | number)[],
  allowed: readonly string[] | undefined,
  fail: Fail,
): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    fail(path, `${describeKind(raw)} is not allowed; expected an object`);
  }
  const record = raw as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (allowed !== undefined && !allowed.includes(key)) {
      fail([...path, key], `unknown field; allowed: ${allowed.join(", ")}`, "key");
    }
  }
  return record;
}

function optionalString(
  record: Record<string, unknown>,
  key: string,
  path: readonly (string | number)[],
  fail: Fail,
): string | undefined {
  const value = record[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    fail([...path, key], `${describeKind(value)} is not allowed; expected a string`);
  }
  return value;
}

function requiredNumber(
  record: Record<string, unknown>,
  key: string,
  path: readonly (string | number)[],
  fail: Fail,
): number {
  const value = record[key];
  if (value === undefined) fail(path, `needs ${key} (a whole number)`);
  if (typeof value !== "number") {
    fail([...path, key], `${describeKind(value)} is not allowed; expected a whole number`);
  }
  return value;
}

/** A parameter value as Coder stores it (a string), or undefined for a value of no such form. */
function parameterText(value: unknown, type: string): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (type === "list(string)" && Array.isArray(value)) return JSON.stringify(value);
  return undefined;
}

function describeKind(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object" && value !== null) return "an object";
  return describeValue(value);
}

/** `templates.<id>.presets[0].prebuilds.instances` for a path below the presets list. */
function fieldName(templateId: string, path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (name, part) => (typeof part === "number" ? `${name}[${part}]` : `${name}.${part}`),
    `templates.${templateId}.presets`,
  );
}

/** `prebuilds.scheduling.schedule[1].cron` → ["prebuilds", "scheduling", "schedule", 1, "cron"]. */
function fieldPath(field: string): (string | number)[] {
  return field
    .split(/\.|(?=\[)/)
    .map((part) => (/^\[\d+\]$/.test(part) ? Number(part.slice(1, -1)) : part));
}

/**
 * `org_<name as a Terraform name>` (`data.coder_workspace_preset.org_…`), unique in the
 * template. A data source keeps no state, so the id may change with the name.
 */
function uniqueId(name: string, taken: Set<string>): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 48);
  const base = `org_${slug || "preset"}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}
