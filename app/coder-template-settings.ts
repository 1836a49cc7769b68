/**
 * A template's settings in Coder, as code: coder-cdktf.jsonc `templates.<id>.coderSettings`
 * (autostop, activity bump, autostop and autostart requirements, dormancy, failure cleanup,
 * require-active-version, who may change schedules, deprecation, the agents' abstract, the
 * port-share maximum). They live in Coder, not in the template's files: `npm run push` sets
 * them with `coder templates edit`, with the flags of the CLI it finds (app/coder-version.ts),
 * and `--dry-run` prints them. `templates edit` keeps every field it is not given, so a
 * setting left out of the file stays as it is in Coder.
 *
 * Ranges are Coder's own (coderd/templates.go, coderd/workspaces.go, coderd/schedule): a value
 * it would refuse is refused here at file:line:column, before anything runs.
 */
import type { Node as JsonNode } from "jsonc-parser";
import { didYouMean } from "./closest-name";
import { hasCliFeature, type CliFeatureName, type CoderVersion } from "./coder-version";

export const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Coder's port-share levels, lowest first (codersdk WorkspaceAgentPortShareLevel). */
export const PORT_SHARE_LEVELS = ["owner", "authenticated", "organization", "public"] as const;

/** The settings an operator gave; an absent one is left as it is in Coder. */
export interface CoderTemplateSettings {
  /** "Default autostop": a new workspace's time before shutdown (Go duration text). */
  readonly defaultTtl?: string;
  /** "Activity bump": how far activity pushes the shutdown back. */
  readonly activityBump?: string;
  /** Workspaces must restart on these days, every `weeks` weeks ([] = no requirement). */
  readonly autostopRequirement?: {
    readonly daysOfWeek: readonly Weekday[];
    readonly weeks?: number;
  };
  /** The days workspaces may autostart. */
  readonly autostartDaysOfWeek?: readonly Weekday[];
  /** "Failure cleanup": stop a workspace this long after a failed start ("0s" = off). */
  readonly failureTtl?: string;
  /** "Dormancy threshold": inactive this long → dormant ("0s" = off). */
  readonly dormancyThreshold?: string;
  /** "Dormancy auto-deletion": dormant this long → deleted ("0s" = off). */
  readonly dormancyAutoDeletion?: string;
  readonly requireActiveVersion?: boolean;
  readonly allowUserAutostart?: boolean;
  readonly allowUserAutostop?: boolean;
  readonly allowUserCancelWorkspaceJobs?: boolean;
  /** Marks the template deprecated with this message ("" = not deprecated). */
  readonly deprecated?: string;
  /** The longer text Coder Agents read to pick a template. */
  readonly abstract?: string;
  /** Removes the "everyone" group's access (only `true`: the CLI cannot grant it back). */
  readonly private?: true;
  /** The highest level a workspace user may share a port at. */
  readonly maxPortShareLevel?: (typeof PORT_SHARE_LEVELS)[number];
}

type SettingName = keyof CoderTemplateSettings;

/** Reports a bad value at a node: `file:line:col: field: problem` (operator-config's `fail`). */
export type Fail = (node: JsonNode, field: string, problem: string) => never;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface DurationRule {
  readonly kind: "duration";
  readonly min?: number;
  readonly max?: number;
  readonly why: string;
}

/** How each setting is written in the file, what bounds it, and the `templates edit` flag. */
const SETTINGS: Readonly<
  Record<
    SettingName,
    {
      readonly flag?: string;
      readonly feature?: CliFeatureName;
      readonly rule:
        | DurationRule
        | { readonly kind: "bool" | "true" | "text" | "weekdays" | "autostop" | "portShare" };
      readonly maxLength?: number;
    }
  >
> = {
  defaultTtl: {
    flag: "--default-ttl",
    // A new workspace's TTL: Coder takes 0 (none) or 1 minute to 30 days (coderd/workspaces.go).
    rule: { kind: "duration", min: MINUTE, max: 30 * DAY, why: "0s (none) or 1m to 30d" },
  },
  activityBump: {
    flag: "--activity-bump",
    rule: { kind: "duration", why: "0s (no bump) or more" },
  },
  autostopRequirement: {
    flag: "--autostop-requirement-weekdays",
    rule: { kind: "autostop" },
  },
  autostartDaysOfWeek: { flag: "--autostart-requirement-weekdays", rule: { kind: "weekdays" } },
  // Coder refuses a cleanup time under one minute (coderd/templates.go: minTTL).
  failureTtl: {
    flag: "--failure-ttl",
    rule: { kind: "duration", min: MINUTE, why: "0s (off) or at least 1m" },
  },
  dormancyThreshold: {
    flag: "--dormancy-threshold",
    rule: { kind: "duration", min: MINUTE, why: "0s (off) or at least 1m" },
  },
  dormancyAutoDeletion: {
    flag: "--dormancy-auto-deletion",
    rule: { kind: "duration", min: MINUTE, why: "0s (off) or at least 1m" },
  },
  requireActiveVersion: { flag: "--require-active-version", rule: { kind: "bool" } },
  allowUserAutostart: { flag: "--allow-user-autostart", rule: { kind: "bool" } },
  allowUserAutostop: { flag: "--allow-user-autostop", rule: { kind: "bool" } },
  allowUserCancelWorkspaceJobs: {
    flag: "--allow-user-cancel-workspace-jobs",
    rule: { kind: "bool" },
  },
  deprecated: { flag: "--deprecated", rule: { kind: "text" }, maxLength: 1024 },
  // templates.abstract is VARCHAR(2048) (coder/coder#25457).
  abstract: {
    flag: "--abstract",
    feature: "editAbstract",
    rule: { kind: "text" },
    maxLength: 2048,
  },
  private: { flag: "--private", rule: { kind: "true" } },
  // No release of `templates edit` has a flag for it (the API and the UI set it).
  maxPortShareLevel: { rule: { kind: "portShare" } },
};

export const CODER_SETTING_NAMES = Object.keys(SETTINGS) as readonly SettingName[];

/** Reads `templates.<id>.coderSettings` (an object node), or fails at the bad field. */
export function parseCoderSettings(
  node: JsonNode,
  field: string,
  fail: Fail,
  describe: (node: JsonNode) => string,
): CoderTemplateSettings {
  if (node.type !== "object") {
    fail(node, field, `${describe(node)} is not allowed; expected an object`);
  }
  const settings: Record<string, unknown> = {};
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    const key = String(keyNode.value);
    const name = `${field}.${key}`;
    if (!Object.prototype.hasOwnProperty.call(SETTINGS, key)) {
      fail(
        keyNode,
        name,
        `unknown setting${didYouMean(key, CODER_SETTING_NAMES)}; allowed: ${CODER_SETTING_NAMES.join(", ")}`,
      );
    }
    if (Object.prototype.hasOwnProperty.call(settings, key)) fail(keyNode, name, "is set twice");
    const spec = SETTINGS[key as SettingName];
    const value = readSetting(valueNode, name, spec.rule, fail, describe);
    if (spec.maxLength !== undefined && typeof value === "string") {
      if (value.length > spec.maxLength) {
        fail(
          valueNode,
          name,
          `is ${value.length} characters; Coder takes at most ${spec.maxLength}`,
        );
      }
    }
    Object.defineProperty(settings, key, { value, enumerable: true });
  }
  return settings as CoderTemplateSettings;
}

function readSetting(
  node: JsonNode,
  field: string,
  rule: (typeof SETTINGS)[SettingName]["rule"],
  fail: Fail,
  describe: (node: JsonNode) => string,
): unknown {
  const bad = (expected: string): never =>
    fail(node, field, `${describe(node)} is not allowed; expected ${expected}`);
  switch (rule.kind) {
    case "duration": {
      if (node.type !== "string") bad(`a duration such as "8h", "90m" or "14d" (${rule.why})`);
      const ms = parseDuration(String(node.value));
      if (ms === undefined) bad(`a duration such as "8h", "90m" or "14d" (${rule.why})`);
      const inRange =
        ms === 0 ||
        ((rule.min === undefined || ms! >= rule.min) &&
          (rule.max === undefined || ms! <= rule.max));
      if (!inRange) fail(node, field, `${describe(node)} is out of range; Coder takes ${rule.why}`);
      return formatDuration(ms!);
    }
    case "bool":
      if (node.type !== "boolean") bad("true or false");
      return node.value as boolean;
    case "true":
      if (node.value !== true) {
        bad(
          "true (the CLI can only remove the everyone group's access; grant it again on the template's Permissions page)",
        );
      }
      return true;
    case "text":
      if (node.type !== "string") bad("a string");
      return String(node.value);
    case "portShare":
      if (
        node.type !== "string" ||
        !(PORT_SHARE_LEVELS as readonly string[]).includes(node.value)
      ) {
        bad(`one of ${PORT_SHARE_LEVELS.join(", ")}`);
      }
      return node.value as string;
    case "weekdays": {
      const days = weekdayList(node, field, fail, describe);
      if (days.length === 0) {
        fail(
          node,
          field,
          "an empty list is not allowed: to forbid autostart, set allowUserAutostart to false",
        );
      }
      return days;
    }
    case "autostop":
      return readAutostopRequirement(node, field, fail, describe);
  }
}

/** `autostopRequirement`: the days workspaces must restart on and every how many weeks. */
function readAutostopRequirement(
  node: JsonNode,
  field: string,
  fail: Fail,
  describe: (node: JsonNode) => string,
): { daysOfWeek: Weekday[]; weeks?: number } {
  if (node.type !== "object") {
    fail(
      node,
      field,
      `${describe(node)} is not allowed; expected an object such as { "daysOfWeek": ["sunday"], "weeks": 1 }`,
    );
  }
  let daysOfWeek: Weekday[] | undefined;
  let weeks: number | undefined;
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    const key = String(keyNode.value);
    if (key === "daysOfWeek")
      daysOfWeek = weekdayList(valueNode, `${field}.daysOfWeek`, fail, describe);
    else if (key === "weeks") {
      // coderd/schedule: MaxTemplateAutostopRequirementWeeks = 16.
      if (
        valueNode.type !== "number" ||
        !Number.isInteger(valueNode.value) ||
        valueNode.value < 1 ||
        valueNode.value > 16
      ) {
        fail(
          valueNode,
          `${field}.weeks`,
          `${describe(valueNode)} is not allowed; expected a whole number of weeks from 1 to 16`,
        );
      }
      weeks = valueNode.value as number;
    } else {
      fail(
        keyNode,
        `${field}.${key}`,
        `unknown field${didYouMean(key, ["daysOfWeek", "weeks"])}; allowed: daysOfWeek, weeks`,
      );
    }
  }
  if (daysOfWeek === undefined) {
    fail(
      node,
      `${field}.daysOfWeek`,
      "is missing: the days workspaces must restart on ([] for none)",
    );
  }
  return weeks === undefined ? { daysOfWeek } : { daysOfWeek, weeks };
}

function weekdayList(
  node: JsonNode,
  field: string,
  fail: Fail,
  describe: (node: JsonNode) => string,
): Weekday[] {
  if (node.type !== "array") {
    fail(
      node,
      field,
      `${describe(node)} is not allowed; expected a list of weekdays such as ["saturday", "sunday"]`,
    );
  }
  const days: Weekday[] = [];
  for (const day of node.children ?? []) {
    if (day.type !== "string" || !(WEEKDAYS as readonly string[]).includes(day.value)) {
      fail(day, field, `${describe(day)} is not a weekday; expected one of ${WEEKDAYS.join(", ")}`);
    }
    if (days.includes(day.value)) fail(day, field, `${describe(day)} is listed twice`);
    days.push(day.value as Weekday);
  }
  // In the week's order, as Coder stores them (a bitmap from Monday).
  return WEEKDAYS.filter((d) => days.includes(d));
}

const UNIT_MS: Readonly<Record<string, number>> = { d: DAY, h: 60 * MINUTE, m: MINUTE, s: 1000 };

/** `"1h30m"`, `"14d"`, `"0"` → milliseconds; undefined when it is not such a duration. */
export function parseDuration(text: string): number | undefined {
  if (text === "0") return 0;
  if (!/^(\d+[dhms])+$/.test(text)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([dhms])/g))
    ms += Number(amount) * UNIT_MS[unit];
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** Milliseconds as Go's time.ParseDuration reads them: `336h`, `1h30m`, `0s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const text = `${h > 0 ? `${h}h` : ""}${m > 0 ? `${m}m` : ""}${s > 0 ? `${s}s` : ""}`;
  return text === "" ? "0s" : text;
}

/** The `coder templates edit` arguments for `settings`, and what the CLI cannot set. */
export function coderSettingsArgs(
  settings: CoderTemplateSettings,
  version: CoderVersion | null,
): { readonly args: string[]; readonly notes: string[] } {
  const args: string[] = [];
  const notes: string[] = [];
  for (const name of CODER_SETTING_NAMES) {
    const value = settings[name];
    if (value === undefined) continue;
    const spec = SETTINGS[name];
    if (spec.flag === undefined) {
      notes.push(
        `coderSettings.${name} (${String(value)}) is not applied: no release of \`coder templates edit\` ` +
          `has a flag for it. Set it on the template's Settings page (Port sharing) or through Coder's API ` +
          `(PATCH /api/v2/templates/<id>, max_port_share_level).`,
      );
      continue;
    }
    if (spec.feature !== undefined && !hasCliFeature(version, spec.feature)) {
      notes.push(
        `coderSettings.${name} is not applied: this coder CLI has no ${spec.flag} ` +
          `(see app/coder-version.ts); push with a newer CLI or set it on the template's Settings page.`,
      );
      continue;
    }
    if (name === "autostopRequirement") {
      const { daysOfWeek, weeks } = value as NonNullable<
        CoderTemplateSettings["autostopRequirement"]
      >;
      args.push(spec.flag, daysOfWeek.length === 0 ? "none" : daysOfWeek.join(","));
      if (weeks !== undefined) args.push("--autostop-requirement-weeks", String(weeks));
    } else if (name === "autostartDaysOfWeek") {
      const days = value as readonly Weekday[];
      args.push(spec.flag, days.length === WEEKDAYS.length ? "all" : days.join(","));
    } else if (typeof value === "boolean") {
      // A bool flag takes its value only after `=` (`--flag false` would be an argument).
      args.push(`${spec.flag}=${value}`);
    } else {
      args.push(spec.flag, String(value));
    }
  }
  return { args, notes };
}
