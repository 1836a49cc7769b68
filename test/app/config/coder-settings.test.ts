import { parseOperatorConfig } from "../../../app/operator-config";
import {
  coderSettingsArgs,
  formatDuration,
  parseDuration,
} from "../../../app/coder-template-settings";

// templates.<id>.coderSettings: the template's settings in Coder, checked like the rest of the
// file (file:line:column, the field, the reason) and turned into `coder templates edit` flags.

const KNOWN = ["kubernetes", "devcontainer"];
const parse = (settings: string) =>
  parseOperatorConfig(
    `{\n  "templates": {\n    "kubernetes": {\n      "coderSettings": ${settings}\n    }\n  }\n}\n`,
    "deploy.jsonc",
    KNOWN,
  );
const errorOf = (settings: string) => {
  try {
    parse(settings);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("no error");
};

describe("coderSettings in the operator configuration", () => {
  it("reads every setting, durations in Go's form and weekdays in the week's order", () => {
    const config = parse(`{
        "defaultTtl": "8h", "activityBump": "90m", "failureTtl": "0",
        "dormancyThreshold": "14d", "dormancyAutoDeletion": "1d12h",
        "autostopRequirement": { "daysOfWeek": ["sunday", "saturday"], "weeks": 4 },
        "autostartDaysOfWeek": ["friday", "monday"],
        "requireActiveVersion": false, "allowUserAutostart": true, "allowUserAutostop": true,
        "allowUserCancelWorkspaceJobs": false, "deprecated": "use devcontainer",
        "abstract": "For agents", "private": true, "maxPortShareLevel": "organization"
      }`);
    expect(config.templates?.get("kubernetes")?.coderSettings).toEqual({
      defaultTtl: "8h",
      activityBump: "1h30m",
      failureTtl: "0s",
      dormancyThreshold: "336h",
      dormancyAutoDeletion: "36h",
      autostopRequirement: { daysOfWeek: ["saturday", "sunday"], weeks: 4 },
      autostartDaysOfWeek: ["monday", "friday"],
      requireActiveVersion: false,
      allowUserAutostart: true,
      allowUserAutostop: true,
      allowUserCancelWorkspaceJobs: false,
      deprecated: "use devcontainer",
      abstract: "For agents",
      private: true,
      maxPortShareLevel: "organization",
    });
  });

  it("is empty for a template without it", () => {
    const config = parseOperatorConfig(`{ "templates": { "kubernetes": {} } }`, "d.jsonc", KNOWN);
    expect(config.templates?.get("kubernetes")?.coderSettings).toEqual({});
  });

  it.each([
    [
      `{ "defaultTTL": "8h" }`,
      `deploy.jsonc:4:26: templates.kubernetes.coderSettings.defaultTTL: unknown setting (did you mean "defaultTtl"?)`,
    ],
    [
      `{ "defaultTtl": "45d" }`,
      `deploy.jsonc:4:40: templates.kubernetes.coderSettings.defaultTtl: "45d" is out of range; Coder takes 0s (none) or 1m to 30d`,
    ],
    [
      `{ "dormancyThreshold": "30s" }`,
      `deploy.jsonc:4:47: templates.kubernetes.coderSettings.dormancyThreshold: "30s" is out of range; Coder takes 0s (off) or at least 1m`,
    ],
    [
      `{ "activityBump": "1.5h" }`,
      `templates.kubernetes.coderSettings.activityBump: "1.5h" is not allowed; expected a duration such as "8h", "90m" or "14d"`,
    ],
    [
      `{ "activityBump": 3600 }`,
      `templates.kubernetes.coderSettings.activityBump: 3600 is not allowed; expected a duration`,
    ],
    [
      `{ "autostopRequirement": { "daysOfWeek": ["sundy"] } }`,
      `templates.kubernetes.coderSettings.autostopRequirement.daysOfWeek: "sundy" is not a weekday`,
    ],
    [
      `{ "autostopRequirement": { "daysOfWeek": [], "weeks": 17 } }`,
      `templates.kubernetes.coderSettings.autostopRequirement.weeks: 17 is not allowed; expected a whole number of weeks from 1 to 16`,
    ],
    [
      `{ "autostopRequirement": { "weeks": 2 } }`,
      `templates.kubernetes.coderSettings.autostopRequirement.daysOfWeek: is missing`,
    ],
    [
      `{ "autostartDaysOfWeek": [] }`,
      `templates.kubernetes.coderSettings.autostartDaysOfWeek: an empty list is not allowed: to forbid autostart, set allowUserAutostart to false`,
    ],
    [
      `{ "requireActiveVersion": "yes" }`,
      `templates.kubernetes.coderSettings.requireActiveVersion: "yes" is not allowed; expected true or false`,
    ],
    [
      `{ "private": false }`,
      `templates.kubernetes.coderSettings.private: false is not allowed; expected true (the CLI can only remove`,
    ],
    [
      `{ "maxPortShareLevel": "everyone" }`,
      `templates.kubernetes.coderSettings.maxPortShareLevel: "everyone" is not allowed; expected one of owner, authenticated, organization, public`,
    ],
    [
      `{ "abstract": "${"x".repeat(2049)}" }`,
      `templates.kubernetes.coderSettings.abstract: is 2049 characters; Coder takes at most 2048`,
    ],
    [`[]`, `templates.kubernetes.coderSettings: a list is not allowed; expected an object`],
  ])("refuses %s", (settings, message) => {
    expect(errorOf(settings)).toContain(message);
  });

  it("refuses an unknown field of the template with the closest name", () => {
    expect(() =>
      parseOperatorConfig(
        `{ "templates": { "kubernetes": { "coderSetings": {} } } }`,
        "d.jsonc",
        KNOWN,
      ),
    ).toThrow(`templates.kubernetes.coderSetings: unknown field (did you mean "coderSettings"?)`);
  });
});

describe("coder templates edit flags", () => {
  const V = (minor: number) => ({ major: 2, minor, patch: 0 });

  it("are in a fixed order, bools with =, weekday lists as one CSV item, all seven days as all, [] as none", () => {
    const { args, notes } = coderSettingsArgs(
      {
        allowUserAutostop: false,
        defaultTtl: "2h",
        autostopRequirement: { daysOfWeek: [] },
        autostartDaysOfWeek: [
          "monday",
          "tuesday",
          "wednesday",
          "thursday",
          "friday",
          "saturday",
          "sunday",
        ],
        private: true,
      },
      V(30),
    );
    expect(args).toEqual([
      "--default-ttl",
      "2h",
      "--autostop-requirement-weekdays",
      "none",
      "--autostart-requirement-weekdays",
      "all",
      "--allow-user-autostop=false",
      "--private=true",
    ]);
    expect(notes).toEqual([]);
  });

  it("leave out what the CLI cannot set and say so", () => {
    const settings = { abstract: "pick me", maxPortShareLevel: "public" as const };
    const old = coderSettingsArgs(settings, V(34));
    expect(old.args).toEqual([]);
    expect(old.notes.map((n) => n.split(" ")[0])).toEqual([
      "coderSettings.abstract",
      "coderSettings.maxPortShareLevel",
    ]);
    expect(coderSettingsArgs(settings, V(35)).args).toEqual(["--abstract", "pick me"]);
    // A development build: no dated flag.
    expect(coderSettingsArgs(settings, null).args).toEqual([]);
  });

  it.each([
    ["0", 0, "0s"],
    ["90s", 90_000, "1m30s"],
    ["1d", 86_400_000, "24h"],
    ["2h5m", 7_500_000, "2h5m"],
  ])("reads %s as %d ms, written %s", (text, ms, go) => {
    expect(parseDuration(text)).toBe(ms);
    expect(formatDuration(ms)).toBe(go);
  });

  it.each(["", "h", "1.5h", "-1h", "1w", "1h 30m"])("refuses the duration %p", (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
