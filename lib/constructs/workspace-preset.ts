import { Construct, Token } from "../core/cdk";
import { DataCoderWorkspacePreset } from "../../.gen/providers/coder/data-coder-workspace-preset";
import { escapeTemplateLiteral } from "../core/escape";
import { describeValue } from "../core/validate";
import type { WorkspaceParameter } from "./workspace-parameter";

/** A preset's pool of prebuilt workspaces (Coder's `prebuilds` block). */
export interface PresetPrebuilds {
  /** Workspaces kept ready outside the schedule (a whole number ≥ 0). */
  readonly instances: number;
  /**
   * An unclaimed prebuild older than this is deleted and built again, so the pool follows
   * new template versions and branch heads: 0 (never) or 3600 to 31536000 seconds.
   * @default never expires
   */
  readonly expirationPolicy?: { readonly ttlSeconds: number };
  /**
   * Pool sizes by time of day: each `cron` ("* HOUR DOM MONTH DAY-OF-WEEK", minute `*`)
   * names the hours during which `instances` workspaces are kept; outside every
   * schedule, `instances` of the block applies.
   * @default the same pool size at all times
   */
  readonly scheduling?: {
    readonly timezone: string;
    readonly schedule: readonly { readonly cron: string; readonly instances: number }[];
  };
}

export interface WorkspacePresetProps {
  /** The name users pick in the workspace form (unique per template). */
  readonly name: string;
  /** At most 128 characters. @default none */
  readonly description?: string;
  /** @default none */
  readonly icon?: string;
  /** Selected when the form opens; at most one preset of a template. @default false */
  readonly default?: boolean;
  /** Parameter name → value; each must be a value the parameter accepts. */
  readonly parameters: Readonly<Record<string, string>>;
  /** @default no prebuilt workspaces */
  readonly prebuilds?: PresetPrebuilds;
}

/**
 * A workspace preset (`data.coder_workspace_preset.<id>`): named parameter values a user
 * picks in the workspace form, optionally with a pool of prebuilt workspaces. A data source
 * keeps no state, so adding, renaming or removing presets never touches a workspace.
 */
export class WorkspacePreset extends Construct {
  public readonly preset: DataCoderWorkspacePreset;
  public readonly props: WorkspacePresetProps;

  constructor(scope: Construct, id: string, props: WorkspacePresetProps) {
    super(scope, id);
    this.props = props;
    const problem = presetShapeProblem(props);
    if (problem !== undefined)
      throw new Error(`${this.node.path}: ${problem.field}: ${problem.reason}`);
    const prebuilds = props.prebuilds;
    this.preset = new DataCoderWorkspacePreset(this, id, {
      name: literal(props.name),
      description: literal(props.description),
      icon: literal(props.icon),
      default: props.default,
      parameters: Object.fromEntries(
        Object.entries(props.parameters).map(([name, value]) => [name, literal(value)]),
      ),
      prebuilds:
        prebuilds === undefined
          ? undefined
          : {
              instances: prebuilds.instances,
              expirationPolicy:
                prebuilds.expirationPolicy === undefined
                  ? undefined
                  : { ttl: prebuilds.expirationPolicy.ttlSeconds },
              scheduling:
                prebuilds.scheduling === undefined
                  ? undefined
                  : {
                      timezone: literal(prebuilds.scheduling.timezone),
                      schedule: prebuilds.scheduling.schedule.map((s) => ({
                        ...s,
                        cron: literal(s.cron),
                      })),
                    },
            },
    });
  }

  /** Whether this preset is the template's default. */
  get isDefault(): boolean {
    return this.props.default === true && !this.defaultCleared;
  }

  private defaultCleared = false;

  /** Makes this preset a non-default one (an operator's default replaces the template's). */
  clearDefault(): void {
    this.defaultCleared = true;
    this.preset.resetDefault();
  }
}

/** What is wrong with a preset, naming the field in the props' (and the config's) terms. */
export interface PresetProblem {
  /** e.g. `parameters.cpu`, `prebuilds.scheduling.schedule[1].cron`. */
  readonly field: string;
  readonly reason: string;
}

/** Coder's range for `expiration_policy.ttl` (0 disables expiry). */
export const MIN_PREBUILD_TTL_SECONDS = 3600;
export const MAX_PREBUILD_TTL_SECONDS = 31536000;
/** Coder's limit on a preset's description. */
export const MAX_PRESET_DESCRIPTION = 128;

/**
 * The first rule of Coder's provider the preset breaks, apart from its parameters
 * ({@link presetParameterProblem}): name, description, instance counts, ttl, timezone, cron.
 */
export function presetShapeProblem(props: WorkspacePresetProps): PresetProblem | undefined {
  if (props.name.trim() === "") return { field: "name", reason: "must not be empty" };
  if (props.description !== undefined && props.description.length > MAX_PRESET_DESCRIPTION) {
    return {
      field: "description",
      reason: `is ${props.description.length} characters long; Coder allows at most ${MAX_PRESET_DESCRIPTION}`,
    };
  }
  const prebuilds = props.prebuilds;
  if (prebuilds === undefined) return undefined;
  const count = instanceCountProblem("prebuilds.instances", prebuilds.instances);
  if (count !== undefined) return count;
  const ttl = prebuilds.expirationPolicy?.ttlSeconds;
  if (
    ttl !== undefined &&
    !(
      Number.isInteger(ttl) &&
      (ttl === 0 || (ttl >= MIN_PREBUILD_TTL_SECONDS && ttl <= MAX_PREBUILD_TTL_SECONDS))
    )
  ) {
    return {
      field: "prebuilds.expirationPolicy.ttlSeconds",
      reason: `${describeValue(ttl)} is not allowed; it must be 0 (never expire) or a whole number of seconds from ${MIN_PREBUILD_TTL_SECONDS} (1 hour) to ${MAX_PREBUILD_TTL_SECONDS} (1 year)`,
    };
  }
  const scheduling = prebuilds.scheduling;
  if (scheduling === undefined) return undefined;
  if (!isTimeZone(scheduling.timezone)) {
    return {
      field: "prebuilds.scheduling.timezone",
      reason: `${describeValue(scheduling.timezone)} is not an IANA time zone (e.g. "UTC", "Europe/Berlin")`,
    };
  }
  if (scheduling.schedule.length === 0) {
    return { field: "prebuilds.scheduling.schedule", reason: "needs at least one entry" };
  }
  for (const [i, entry] of scheduling.schedule.entries()) {
    const field = `prebuilds.scheduling.schedule[${i}]`;
    const cron = prebuildCronProblem(entry.cron);
    if (cron !== undefined) {
      return {
        field: `${field}.cron`,
        reason: `${describeValue(entry.cron)} is not allowed; ${cron}`,
      };
    }
    const n = instanceCountProblem(`${field}.instances`, entry.instances);
    if (n !== undefined) return n;
    const earlier = scheduling.schedule.findIndex((other) =>
      prebuildSchedulesOverlap(other.cron, entry.cron),
    );
    if (earlier < i) {
      return {
        field: `${field}.cron`,
        reason: `${describeValue(entry.cron)} overlaps schedule[${earlier}] (${describeValue(scheduling.schedule[earlier].cron)}); Coder refuses schedules active at the same hour`,
      };
    }
  }
  return undefined;
}

function instanceCountProblem(field: string, value: number): PresetProblem | undefined {
  return Number.isInteger(value) && value >= 0
    ? undefined
    : { field, reason: `${describeValue(value)} is not allowed; it must be a whole number ≥ 0` };
}

/** Whether the runtime's time zone database knows `name` (Coder loads it with Go's time package). */
function isTimeZone(name: string): boolean {
  if (name.trim() === "" || name !== name.trim()) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const CRON_FIELDS: readonly { name: string; min: number; max: number }[] = [
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 6 },
];
const CRON_FORMAT = 'the format is "* HOUR DAY-OF-MONTH MONTH DAY-OF-WEEK", e.g. "* 8-18 * * 1-5"';

/**
 * The hours, days of month, months and days of week `cron` covers, or why it is not a
 * prebuild schedule: five fields, the minute `*` (a schedule covers whole hours), each other
 * field `*` or a comma list of numbers and `a-b` ranges inside the field's range. Steps and
 * names are refused: Coder's provider compares schedules by these sets and fails on them.
 */
function cronSets(cron: string): Set<number>[] | string {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return `it has ${fields.length} fields; ${CRON_FORMAT}`;
  if (fields[0] !== "*") {
    return `the minute field must be "*" (a schedule covers whole hours); ${CRON_FORMAT}`;
  }
  const sets: Set<number>[] = [];
  for (const [i, spec] of CRON_FIELDS.entries()) {
    const text = fields[i + 1];
    const values = new Set<number>();
    const items = text === "*" ? [`${spec.min}-${spec.max}`] : text.split(",");
    for (const item of items) {
      const match = /^(\d+)(?:-(\d+))?$/.exec(item);
      if (match === null) {
        return `the ${spec.name} field "${text}" is not "*", a number, a range a-b or a comma list of them (Coder refuses steps and names)`;
      }
      const from = Number(match[1]);
      const to = match[2] === undefined ? from : Number(match[2]);
      if (from < spec.min || to > spec.max) {
        return `the ${spec.name} field "${text}" is outside ${spec.min}-${spec.max}`;
      }
      if (from > to)
        return `the ${spec.name} field "${text}" has a range that ends before it starts`;
      for (let n = from; n <= to; n++) values.add(n);
    }
    sets.push(values);
  }
  return sets;
}

/** Why `cron` is not a prebuild schedule ({@link cronSets}), or undefined. */
export function prebuildCronProblem(cron: string): string | undefined {
  const sets = cronSets(cron);
  return typeof sets === "string" ? sets : undefined;
}

/**
 * Whether two valid schedules can be active at the same hour, which Coder refuses: months and
 * hours must meet, and the days: by day of week when either day of month is `*`, by day of
 * month when either day of week is `*`, else by either.
 */
export function prebuildSchedulesOverlap(a: string, b: string): boolean {
  const [sa, sb] = [cronSets(a), cronSets(b)];
  if (typeof sa === "string" || typeof sb === "string") return false;
  const meet = (x: Set<number>, y: Set<number>) => [...x].some((v) => y.has(v));
  const [, , domA, , dowA] = a.trim().split(/\s+/);
  const [, , domB, , dowB] = b.trim().split(/\s+/);
  const [HOUR, DOM, MONTH, DOW] = [0, 1, 2, 3];
  let days: boolean;
  if (domA === "*" || domB === "*") days = meet(sa[DOW], sb[DOW]);
  else if (dowA === "*" || dowB === "*") days = meet(sa[DOM], sb[DOM]);
  else days = meet(sa[DOM], sb[DOM]) || meet(sa[DOW], sb[DOW]);
  return meet(sa[MONTH], sb[MONTH]) && days && meet(sa[HOUR], sb[HOUR]);
}

/**
 * Why `value` is not a value parameter `parameter` accepts, or undefined: one of its options,
 * of its type, inside its validation's min/max and matching its regex. Values that are
 * tokens (known only when Terraform runs) are not checked.
 */
export function presetParameterProblem(
  parameter: WorkspaceParameter,
  value: string,
): string | undefined {
  // Before anything that shows the value: it may be a token.
  if (parameter.definition.mayHoldSecrets) {
    return (
      `parameter "${parameter.name}" may hold secrets, so no preset may set it (the value is ` +
      `not shown): a preset's value ships in the template (main.tf), shows in the preset form ` +
      `and reaches every workspace created from it. Leave it to each user (their Coder user ` +
      `secrets or their own workspace setting)`
    );
  }
  if (Token.isUnresolved(value)) return undefined;
  const { type, options, validation } = parameter.definition;
  const shown = describeValue(value);
  if (value === "") return `${shown} is not allowed; Coder refuses empty preset values`;
  if (options !== undefined) {
    const values = options.map((o) => o.value);
    return values.includes(value)
      ? undefined
      : `${shown} is not one of the options of parameter "${parameter.name}" (${values.join(", ")})`;
  }
  if (type === "number") {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n)) return `${shown} is not a number`;
    const min = validation?.min;
    const max = validation?.max;
    if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
      return `${shown} is outside ${min ?? "-∞"} to ${max ?? "∞"}, the range of parameter "${parameter.name}"`;
    }
  }
  if (type === "bool" && value !== "true" && value !== "false")
    return `${shown} is not true or false`;
  if (type === "list(string)") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed) || !parsed.every((v) => typeof v === "string")) {
      return `${shown} is not a JSON list of strings`;
    }
  }
  const regex = validation?.regex;
  if (regex !== undefined && !new RegExp(regex).test(value)) {
    const why = validation?.error ? `: ${validation.error}` : "";
    return `${shown} does not match the pattern of parameter "${parameter.name}"${why}`;
  }
  return undefined;
}

/**
 * A preset's text as Terraform must be given it: Terraform strings are templates, so a
 * literal `${` or `%{` (an operator's preset named "Team ${x}", a branch "x%{") is escaped
 * and shows as written, instead of being evaluated (`${file("/etc/hostname")}` read a file
 * of the provisioner) or failing synth. Tokens pass as they are.
 */
function literal<T extends string | undefined>(text: T): T {
  return (text === undefined || Token.isUnresolved(text) ? text : escapeTemplateLiteral(text)) as T;
}
