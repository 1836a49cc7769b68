import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ConfigError, parseOperatorConfig } from "../../../app/operator-config";
import { synthTemplates } from "../../../app/synth";
import { TEMPLATES } from "../../../app/registry";
import { planExpressions } from "@coder-cdktf/terraform-harness";
import { thrownMessage } from "../../support/thrown-message";

// Operator presets in coder-cdktf.jsonc (`templates.<id>.presets`): written into the template
// as data.coder_workspace_preset, checked at synth against the template's parameters and
// Coder's rules for prebuilds; every bad value fails with file:line:column, field and reason.

const KNOWN = TEMPLATES.map((t) => t.id);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function configText(template: string, presets: string): string {
  return `{\n  "templates": {\n    "${template}": {\n      "presets": ${presets},\n    },\n  },\n}\n`;
}

function synth(template: string, presets: string) {
  const config = parseOperatorConfig(configText(template, presets), "deploy.jsonc", KNOWN);
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "presets-"));
  dirs.push(outdir);
  const [t] = synthTemplates({ outdir, config, only: [template] });
  return t.model as Record<string, any>;
}

/** `deploy.jsonc:<line>:<column>` of the first `marker` in the config text. */
function positionOf(template: string, presets: string, marker: string): string {
  const text = configText(template, presets);
  const offset = text.indexOf(marker);
  if (offset < 0) throw new Error(`no ${marker} in the config`);
  const before = text.slice(0, offset).split("\n");
  return `deploy.jsonc:${before.length}:${before[before.length - 1].length + 1}`;
}

const APP = `{ "name": "App", "parameters": { "repository": "https://github.com/acme/app.git", "branch": "main" } }`;

describe("a valid preset", () => {
  it("becomes a coder_workspace_preset with its prebuilds, beside the template's size presets", () => {
    const tf = synth(
      "devcontainer",
      `[
        {
          "name": "Acme app (main)",
          "description": "The app repository, prebuilt",
          "icon": "/icon/git.svg",
          "parameters": { "repository": "https://github.com/acme/app.git", "branch": "main", "cpu": 4, "memory": "8" },
          "prebuilds": {
            "instances": 2,
            "expirationPolicy": { "ttlSeconds": 86400 },
            "scheduling": {
              "timezone": "Europe/Berlin",
              "schedule": [{ "cron": "* 8-18 * * 1-5", "instances": 3 }],
            },
          },
        },
      ]`,
    );
    const presets = tf.data.coder_workspace_preset;
    expect(Object.keys(presets).sort()).toEqual(["large", "medium", "org_acme_app_main", "small"]);
    const { "//": _metadata, ...preset } = presets.org_acme_app_main;
    expect(preset).toEqual({
      name: "Acme app (main)",
      description: "The app repository, prebuilt",
      icon: "/icon/git.svg",
      parameters: {
        repository: "https://github.com/acme/app.git",
        branch: "main",
        cpu: "4",
        memory: "8",
      },
      prebuilds: {
        instances: 2,
        expiration_policy: { ttl: 86400 },
        scheduling: {
          timezone: "Europe/Berlin",
          schedule: [{ cron: "* 8-18 * * 1-5", instances: 3 }],
        },
      },
    });
    // The template's default stays when the operator sets none.
    expect(presets.small.default).toBe(true);
  });

  it("keeps ${ and %{ in its texts as written: Terraform reads them back literally, never evaluates them", async () => {
    const written = {
      name: "Acme ${var.namespace}",
      description: '${file("/etc/hostname")} %{ if true }x%{ endif }',
      icon: '/icon/${upper("x")}.svg',
      parameters: { repository: "https://github.com/acme/app${x}%{y}.git", branch: "main" },
    };
    const tf = synth("devcontainer", JSON.stringify([written]));
    const [preset] = Object.values(tf.data.coder_workspace_preset).filter(
      (p: any) => p.name !== undefined && String(p.name).startsWith("Acme"),
    ) as any[];
    const { "//": _metadata, ...texts } = preset;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "preset-texts-"));
    dirs.push(dir);
    fs.writeFileSync(
      path.join(dir, "main.tf.json"),
      JSON.stringify({ output: { preset: { value: texts } } }),
    );
    expect((await planExpressions(dir)).values.preset).toEqual(written);
  });

  it("as the default replaces the template's default: exactly one stays", () => {
    const tf = synth(
      "kubernetes",
      `[{ "name": "Team", "default": true, "parameters": { "cpu": "6" } }]`,
    );
    const presets = tf.data.coder_workspace_preset;
    const defaults = Object.keys(presets).filter((k) => presets[k].default === true);
    expect(defaults).toEqual(["org_team"]);
  });
});

/** The reason a preset text with credentials in a URL is refused. */
const CREDENTIALS_REASON =
  "holds a URL with a user name or password in it (the value is not shown: it may be a token); " +
  "a preset ships in the template and in every workspace created from it, so give the URL " +
  "without them and let Coder provide credentials";

describe("a bad preset fails synth at its position, naming the field and the reason", () => {
  const cases: [string, string, string, string, string][] = [
    [
      "an unknown parameter",
      "kubernetes",
      `[{ "name": "X", "parameters": { "cpus": "4" } }]`,
      `"cpus"`,
      `templates.kubernetes.presets[0].parameters.cpus: preset "X": unknown parameter "cpus"; the template has: cpu, home_disk_size, memory`,
    ],
    [
      "a value outside the options",
      "kubernetes",
      `[{ "name": "X", "parameters": { "cpu": "3" } }]`,
      `"3"`,
      `templates.kubernetes.presets[0].parameters.cpu: preset "X": "3" is not one of the options of parameter "cpu" (2, 4, 6, 8)`,
    ],
    [
      "a value outside the validation",
      "kubernetes",
      `[{ "name": "X", "parameters": { "home_disk_size": 100000 } }]`,
      `100000`,
      `templates.kubernetes.presets[0].parameters.home_disk_size: preset "X": "100000" is outside 1 to 99999, the range of parameter "home_disk_size"`,
    ],
    [
      "a second default",
      "kubernetes",
      `[{ "name": "A", "default": true }, { "name": "B", "default": true }]`,
      `true }]`,
      `templates.kubernetes.presets[1].default: a second default preset (presets[0] is one); a template has at most one`,
    ],
    [
      "a name the template's preset has",
      "kubernetes",
      `[{ "name": "Small" }]`,
      `"Small"`,
      `templates.kubernetes.presets[0].name: "Small" is already the name of the template's preset`,
    ],
    [
      "a negative instance count",
      "kubernetes",
      `[{ "name": "X", "prebuilds": { "instances": -1 } }]`,
      `-1`,
      `templates.kubernetes.presets[0].prebuilds.instances: -1 is not allowed; it must be a whole number ≥ 0`,
    ],
    [
      "a fractional instance count in a schedule",
      "kubernetes",
      `[{ "name": "X", "prebuilds": { "instances": 1, "scheduling": { "timezone": "UTC", "schedule": [{ "cron": "* 8-18 * * 1-5", "instances": 1.5 }] } } }]`,
      `1.5`,
      `templates.kubernetes.presets[0].prebuilds.scheduling.schedule[0].instances: 1.5 is not allowed; it must be a whole number ≥ 0`,
    ],
    [
      "a cron with a minute",
      "kubernetes",
      `[{ "name": "X", "prebuilds": { "instances": 1, "scheduling": { "timezone": "UTC", "schedule": [{ "cron": "0 8 * * *", "instances": 1 }] } } }]`,
      `"0 8`,
      `templates.kubernetes.presets[0].prebuilds.scheduling.schedule[0].cron: "0 8 * * *" is not allowed; the minute field must be "*" (a schedule covers whole hours); the format is "* HOUR DAY-OF-MONTH MONTH DAY-OF-WEEK", e.g. "* 8-18 * * 1-5"`,
    ],
    [
      "a cron hour out of range",
      "kubernetes",
      `[{ "name": "X", "prebuilds": { "instances": 1, "scheduling": { "timezone": "UTC", "schedule": [{ "cron": "* 8-24 * * *", "instances": 1 }] } } }]`,
      `"* 8-24`,
      `templates.kubernetes.presets[0].prebuilds.scheduling.schedule[0].cron: "* 8-24 * * *" is not allowed; the hour field "8-24" is outside 0-23`,
    ],
    [
      "a cron with a step (Coder's schedule check refuses it)",
      "kubernetes",
      `[{ "name": "X", "prebuilds": { "instances": 1, "scheduling": { "timezone": "UTC", "schedule": [{ "cron": "* */2 * * *", "instances": 1 }] } } }]`,
      `"* */2`,
      `templates.kubernetes.presets[0].prebuilds.scheduling.schedule[0].cron: "* */2 * * *" is not allowed; the hour field "*/2" is not "*", a number, a range a-b or a comma list of them (Coder refuses steps and names)`,
    ],
    [
      "two schedules active at the same hour",
      "kubernetes",
      `[{ "name": "X", "prebuilds": { "instances": 1, "scheduling": { "timezone": "UTC", "schedule": [{ "cron": "* 8-18 * * 1-5", "instances": 2 }, { "cron": "* 17-20 * * 5", "instances": 1 }] } } }]`,
      `"* 17-20`,
      `templates.kubernetes.presets[0].prebuilds.scheduling.schedule[1].cron: "* 17-20 * * 5" overlaps schedule[0] ("* 8-18 * * 1-5"); Coder refuses schedules active at the same hour`,
    ],
    [
      "an unknown timezone",
      "kubernetes",
      `[{ "name": "X", "prebuilds": { "instances": 1, "scheduling": { "timezone": "Europe/Atlantis", "schedule": [{ "cron": "* * * * *", "instances": 1 }] } } }]`,
      `"Europe/Atlantis"`,
      `templates.kubernetes.presets[0].prebuilds.scheduling.timezone: "Europe/Atlantis" is not an IANA time zone (e.g. "UTC", "Europe/Berlin")`,
    ],
    [
      "a ttl Coder refuses",
      "kubernetes",
      `[{ "name": "X", "prebuilds": { "instances": 1, "expirationPolicy": { "ttlSeconds": 60 } } }]`,
      `60`,
      `templates.kubernetes.presets[0].prebuilds.expirationPolicy.ttlSeconds: 60 is not allowed; it must be 0 (never expire) or a whole number of seconds from 3600 (1 hour) to 31536000 (1 year)`,
    ],
    [
      "an unknown field",
      "kubernetes",
      `[{ "name": "X", "prebuild": { "instances": 1 } }]`,
      `"prebuild"`,
      `templates.kubernetes.presets[0].prebuild: unknown field; allowed: name, description, icon, default, parameters, prebuilds`,
    ],
    [
      "a devcontainer preset without a repository",
      "devcontainer",
      `[{ "name": "X", "parameters": { "branch": "main" }, "prebuilds": { "instances": 1 } }]`,
      `{ "branch"`,
      `templates.devcontainer.presets[0].parameters: preset "X" does not set parameter "repository"; a devcontainer preset is a repository to work on, and a prebuild must know what to build`,
    ],
    [
      // An http(s) URL with any userinfo is refused for the whole file before presets are read
      // (operator-config.test.ts); an ssh URL with a password reaches the presets' own scan
      // (issue 32 item 6), which never shows the value.
      "a repository with a password in it",
      "devcontainer",
      `[{ "name": "X", "parameters": { "repository": "ssh://bot:hunter2@github.com/acme/app.git" } }]`,
      `"ssh://bot`,
      `templates.devcontainer.presets[0].parameters.repository: ${CREDENTIALS_REASON}`,
    ],
    [
      "a password in a URL of a description",
      "kubernetes",
      `[{ "name": "X", "description": "mirror at ftp://ci:hunter2@files.example.com" }]`,
      `"mirror`,
      `templates.kubernetes.presets[0].description: ${CREDENTIALS_REASON}`,
    ],
    [
      "a password behind git's transport prefix in a parameter value",
      "devcontainer",
      `[{ "name": "X", "parameters": { "branch": "ssh::ssh://git:hunter2@github.com/x" } }]`,
      `"ssh::`,
      `templates.devcontainer.presets[0].parameters.branch: ${CREDENTIALS_REASON}`,
    ],
    [
      "Dev Container variables (issue 32 item 6: a parameter that may hold secrets)",
      "devcontainer",
      `[{ "name": "X", "parameters": { "repository": "https://github.com/acme/app.git", "devcontainer_variables": "NPM_TOKEN=hunter2" } }]`,
      `"NPM_TOKEN`,
      `templates.devcontainer.presets[0].parameters.devcontainer_variables: preset "X": parameter "devcontainer_variables" may hold secrets, so no preset may set it (the value is not shown): a preset's value ships in the template (main.tf), shows in the preset form and reaches every workspace created from it. Leave it to each user (their Coder user secrets or their own workspace setting)`,
    ],
  ];

  it.each(cases)("%s", (_what, template, presets, marker, expected) => {
    const message = thrownMessage(ConfigError, () => synth(template, presets));
    expect(message).toBe(`${positionOf(template, presets, marker)}: ${expected}`);
    expect(message).not.toContain("hunter2");
  });

  it("a presets field that is not a list", () => {
    const presets = `{ "name": "X" }`;
    const message = thrownMessage(ConfigError, () =>
      parseOperatorConfig(configText("kubernetes", presets), "deploy.jsonc", KNOWN),
    );
    expect(message).toBe(
      `${positionOf("kubernetes", presets, '{ "name"')}: templates.kubernetes.presets: an object is not allowed; expected a list of presets`,
    );
  });
});

it("accepts schedules that never meet: weekday office hours, weekend days, weekday nights", () => {
  const tf = synth(
    "kubernetes",
    `[{ "name": "X", "prebuilds": { "instances": 0, "scheduling": { "timezone": "UTC", "schedule": [
      { "cron": "* 8-18 * * 1-5", "instances": 3 },
      { "cron": "* * * * 0,6", "instances": 1 },
      { "cron": "* 0-7,19-23 * * 1-5", "instances": 0 },
    ] } } }]`,
  );
  expect(tf.data.coder_workspace_preset.org_x.prebuilds.scheduling.schedule).toHaveLength(3);
});

it("accepts a devcontainer preset for one repository and branch", () => {
  const tf = synth("devcontainer", `[${APP}]`);
  expect(tf.data.coder_workspace_preset.org_app.parameters).toEqual({
    repository: "https://github.com/acme/app.git",
    branch: "main",
  });
});
