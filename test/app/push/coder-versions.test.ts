import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { fakeCli, SHA, SUBJECT, type FakeCli } from "./fake-cli";

// The exact argv of `npm run push` (templates push, then templates edit) and `npm run promote`
// (templates versions promote, then templates edit) for each coder CLI release operators run
// (2.20, 2.24, 2.30, 2.37 and the newest, 2.40), with every coderSettings field configured.
// The fake CLI takes each release's flags only (fake-coder.sh), so a flag a release lacks
// fails the run, as it would fail the real one.

let cli: FakeCli;
let config: string;
beforeAll(() => {
  cli = fakeCli();
  config = path.join(cli.work, "settings.jsonc");
  fs.writeFileSync(
    config,
    `{
  "templates": {
    "kubernetes": {
      "name": "k8s",
      "variables": { "namespace": "coder-workspaces" },
      "coderSettings": {
        "defaultTtl": "8h",
        "activityBump": "1h30m",
        "autostopRequirement": { "daysOfWeek": ["sunday"], "weeks": 2 },
        "autostartDaysOfWeek": ["friday", "monday", "tuesday", "wednesday", "thursday"],
        "failureTtl": "1h",
        "dormancyThreshold": "30d",
        "dormancyAutoDeletion": "7d",
        "requireActiveVersion": true,
        "allowUserAutostart": true,
        "allowUserAutostop": false,
        "allowUserCancelWorkspaceJobs": false,
        "deprecated": "",
        "abstract": "A general-purpose Linux container with a persistent home",
        "maxPortShareLevel": "authenticated",
      },
    },
  },
}`,
  );
});
afterAll(() => cli.cleanup());

const DISPLAY = [
  "--display-name",
  "Kubernetes",
  "--description",
  "A container workspace on Kubernetes with a persistent home volume",
  "--icon",
  "/icon/k8s.png",
];
/** What every release's `templates edit` takes, in the order push passes it. */
const SETTINGS = [
  "--default-ttl",
  "8h",
  "--activity-bump",
  "1h30m",
  "--autostop-requirement-weekdays",
  "sunday",
  "--autostop-requirement-weeks",
  "2",
  "--autostart-requirement-weekdays",
  "monday,tuesday,wednesday,thursday,friday",
  "--failure-ttl",
  "1h",
  "--dormancy-threshold",
  "720h",
  "--dormancy-auto-deletion",
  "168h",
  "--require-active-version=true",
  "--allow-user-autostart=true",
  "--allow-user-autostop=false",
  "--allow-user-cancel-workspace-jobs=false",
  "--deprecated",
  "",
];
const ABSTRACT = ["--abstract", "A general-purpose Linux container with a persistent home"];

const RELEASES: readonly {
  readonly version: string;
  /** The tag flags an untagged template is pushed with. */
  readonly tags: string[];
  /** What `templates edit` adds to SETTINGS. */
  readonly editExtra: string[];
}[] = [
  { version: "2.20.0", tags: [], editExtra: [] },
  { version: "2.24.1", tags: ["--provisioner-tag=-"], editExtra: [] },
  { version: "2.30.2", tags: ["--provisioner-tag=-"], editExtra: [] },
  { version: "2.37.0", tags: ["--provisioner-tag=-"], editExtra: ABSTRACT },
  { version: "2.40.1", tags: ["--provisioner-tag=-"], editExtra: ABSTRACT },
];

describe.each(RELEASES)("coder v$version", ({ version, tags, editExtra }) => {
  const env = { FAKE_CODER_VERSION: version };

  it("push: templates push with the version's name and message, then templates edit with the settings", () => {
    const run = cli.run("push", `push-${version}`, ["kubernetes", "--config", config], env);
    expect(run.stderr).not.toContain("failed");
    expect(run.status).toBe(0);
    const stack = path.join(run.outdir, "stacks", "kubernetes");
    const [, push, edit, ...rest] = run.calls();
    expect(rest).toEqual([]);
    expect(push.args).toEqual([
      "templates",
      "push",
      "k8s",
      "-d",
      stack,
      "--yes",
      ...tags,
      "--var",
      "namespace=coder-workspaces",
      "--name",
      SHA,
      "-m",
      SUBJECT,
      "--ignore-lockfile",
    ]);
    expect(edit.args).toEqual(["templates", "edit", "k8s", ...DISPLAY, ...SETTINGS, ...editExtra]);
    // What no release can set is said, not dropped in silence.
    expect(run.stderr).toContain("coderSettings.maxPortShareLevel (authenticated) is not applied");
    expect(run.stderr.includes("coderSettings.abstract is not applied")).toBe(
      editExtra.length === 0,
    );
  });

  it("push --activate=false, then promote: the edit waits for the promotion", () => {
    const staged = cli.run(
      "push",
      `stage-${version}`,
      ["kubernetes", "--config", config, "--activate=false", "--name", "v2.1.0-rc.1"],
      env,
    );
    expect(staged.status).toBe(0);
    const [, push, ...afterPush] = staged.calls();
    expect(afterPush).toEqual([]);
    expect(push.args.slice(6)).toEqual([
      ...tags,
      "--var",
      "namespace=coder-workspaces",
      "--name",
      "v2.1.0-rc.1",
      "-m",
      SUBJECT,
      "--activate=false",
      "--ignore-lockfile",
    ]);
    expect(staged.stderr).toContain("npm run promote -- k8s v2.1.0-rc.1");

    const promoted = cli.run(
      "promote",
      `promote-${version}`,
      ["k8s", "v2.1.0-rc.1", "--config", config],
      env,
    );
    expect(promoted.stderr).not.toContain("failed");
    expect(promoted.status).toBe(0);
    const [versionCall, promote, edit, ...rest] = promoted.calls();
    expect(rest).toEqual([]);
    expect(versionCall.args).toEqual(["version"]);
    expect(promote.args).toEqual([
      "templates",
      "versions",
      "promote",
      "--template",
      "k8s",
      "--template-version",
      "v2.1.0-rc.1",
    ]);
    expect(edit.args).toEqual(["templates", "edit", "k8s", ...DISPLAY, ...SETTINGS, ...editExtra]);
  });
});

it("says that a 2.20 CLI names a new template's first version itself", () => {
  const run = cli.run("push", "name-note", ["kubernetes", "--dry-run"], {
    FAKE_CODER_VERSION: "2.20.0",
  });
  expect(run.status).toBe(0);
  expect(run.stderr).toContain(
    `coder v2.20.0 names a new template's first version itself; --name ${SHA} applies to every later push (from v2.21.0 also to the first)`,
  );
  const newer = cli.run("push", "name-note-newer", ["kubernetes", "--dry-run"], {
    FAKE_CODER_VERSION: "2.21.0",
  });
  expect(newer.stderr).not.toContain("first version itself");
});

it("is a fake that refuses what a release lacks: --abstract before 2.35, push --display-name in every release", () => {
  const log = path.join(cli.work, "refusals.log");
  const coder = (version: string, ...args: string[]) =>
    spawnSync(path.join(cli.bin, "coder"), args, {
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", FAKE_CODER_LOG: log, FAKE_CODER_VERSION: version },
    });
  const old = coder("2.30.2", "templates", "edit", "k", "--abstract", "x");
  expect(old.status).toBe(1);
  expect(old.stderr).toContain("unknown flag: --abstract");
  expect(coder("2.35.0", "templates", "edit", "k", "--abstract", "x").status).toBe(0);
  const push = coder("2.40.1", "templates", "push", "k", "-d", cli.work, "--display-name", "K");
  expect(push.status).toBe(1);
  expect(push.stderr).toContain("unknown flag: --display-name");
});
