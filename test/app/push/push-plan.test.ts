import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { shellQuote } from "../../../app/coder-cli";
import { CODER_CLI_FEATURES, parseCoderVersion } from "../../../app/coder-version";
import { formatProvisionerTags, provisionerTagArgs } from "../../../app/provisioner-tags";
import { planPromote, planPush, TERRAFORM_LOCK_FILE } from "../../../app/template-push";

const V2_24 = { major: 2, minor: 24, patch: 1 };

// The commands `npm run push` builds, without running anything.

const frontMatter = {
  displayName: "Packer builder",
  description: "Builds images",
  icon: "/icon/packer.svg",
};

describe("planPush", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "push-plan-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("sends static tags in key order, and no --ignore-lockfile when a lock file ships", () => {
    fs.writeFileSync(path.join(dir, TERRAFORM_LOCK_FILE), "# lock\n");
    const plan = planPush(
      {
        name: "packer",
        dir,
        provisionerTags: { zone: "b", cluster: "harvester" },
        frontMatter,
      },
      { coderVersion: V2_24 },
    );
    expect(plan.push).toEqual([
      "templates",
      "push",
      "packer",
      "-d",
      dir,
      "--yes",
      "--provisioner-tag",
      "cluster=harvester",
      "--provisioner-tag",
      "zone=b",
    ]);
    expect(plan.notes).toEqual([]);
    expect(plan.edit).toEqual([
      "templates",
      "edit",
      "packer",
      "--display-name",
      "Packer builder",
      "--description",
      "Builds images",
      "--icon",
      "/icon/packer.svg",
    ]);
  });

  it("passes --ignore-lockfile without a lock file and says why", () => {
    const plan = planPush(
      { name: "k", dir, provisionerTags: {}, frontMatter },
      { message: "m", coderVersion: V2_24 },
    );
    expect(plan.push.slice(-4)).toEqual(["--provisioner-tag=-", "-m", "m", "--ignore-lockfile"]);
    expect(plan.notes[0]).toContain("so --ignore-lockfile is passed");
    expect(plan.notes[0]).toContain("`npm run push` writes one with `terraform providers lock`");
  });

  it("takes the lock step's word: a lock file to come, or why there is none", () => {
    const template = { name: "k", dir, provisionerTags: {}, frontMatter };
    const toCome = planPush(template, { coderVersion: V2_24, hasLockFile: true });
    expect(toCome.push).not.toContain("--ignore-lockfile");
    expect(toCome.notes).toEqual([]);
    const failed = planPush(template, {
      coderVersion: V2_24,
      hasLockFile: false,
      noLockFileNote: "the registry could not be reached",
    });
    expect(failed.push.at(-1)).toBe("--ignore-lockfile");
    expect(failed.notes).toEqual(["the registry could not be reached"]);
  });
});

describe("configured variables", () => {
  it("are passed with --var in name order, as text, except those the variables file sets", () => {
    const plan = planPush(
      {
        name: "k",
        dir: os.tmpdir(),
        provisionerTags: { a: "1" },
        frontMatter,
        configuredVariables: { namespace: "ns", max_cpu: 4, use_kubeconfig: true, image: "i:1" },
      },
      { coderVersion: V2_24, variablesFile: "/f.yaml", variablesFileNames: ["image"] },
    );
    expect(plan.push.slice(6)).toEqual([
      "--provisioner-tag",
      "a=1",
      "--var",
      "max_cpu=4",
      "--var",
      "namespace=ns",
      "--var",
      "use_kubeconfig=true",
      "--variables-file",
      "/f.yaml",
      "--ignore-lockfile",
    ]);
  });
});

/**
 * The items of one repeatable flag's argument as the coder CLI reads them (serpent's
 * StringArray: one line of Go's encoding/csv): `,` separates, a field in quotes may hold
 * `,`, `"` (doubled) and line breaks, and a bare `"` in an unquoted field is an error.
 */
function coderArrayItems(arg: string): string[] {
  const items: string[] = [];
  let at = 0;
  for (;;) {
    let field = "";
    if (arg[at] === '"') {
      for (at++; ; at++) {
        if (at >= arg.length) throw new Error(`unterminated quote in ${JSON.stringify(arg)}`);
        if (arg[at] === '"' && arg[at + 1] === '"') {
          field += '"';
          at++;
        } else if (arg[at] === '"') break;
        else field += arg[at];
      }
      at++;
      if (at < arg.length && arg[at] !== ",") throw new Error(`extraneous " in ${arg}`);
    } else {
      while (at < arg.length && arg[at] !== "," && arg[at] !== "\n") {
        if (arg[at] === '"') throw new Error(`bare " in non-quoted field: ${arg}`);
        field += arg[at++];
      }
    }
    items.push(field);
    if (at >= arg.length || arg[at] === "\n") return items;
    at++; // the comma
  }
}

/** name → value of every `flag` item of a push command, read as the coder CLI reads them. */
function readBack(push: readonly string[], flag: string): Record<string, string> {
  const values: Record<string, string> = {};
  push.forEach((arg, i) => {
    if (push[i - 1] !== flag) return;
    for (const item of coderArrayItems(arg)) {
      const eq = item.indexOf("=");
      values[item.slice(0, eq)] = item.slice(eq + 1);
    }
  });
  return values;
}

describe("values the coder CLI would split", () => {
  it("reach Coder as configured: a comma, a quote or a line break never adds or cuts a variable or a tag", () => {
    const variables = {
      allow_privileged: false,
      git_credentials_username: "ci-bot,allow_privileged=true",
      packer_plugin_source: 'github.com/acme/"harvester"',
      packer_plugin_path: "/opt/plugins/harvester\nrm -rf /",
      extra: ["a", "b"],
    };
    const tags = { cluster: "harvester,scope=user,owner=mallory", zone: "b" };
    const plan = planPush(
      {
        name: "k",
        dir: os.tmpdir(),
        provisionerTags: tags,
        frontMatter,
        configuredVariables: variables,
      },
      { coderVersion: V2_24 },
    );
    expect(readBack(plan.push, "--var")).toEqual({
      allow_privileged: "false",
      git_credentials_username: "ci-bot,allow_privileged=true",
      packer_plugin_source: 'github.com/acme/"harvester"',
      packer_plugin_path: "/opt/plugins/harvester\nrm -rf /",
      extra: '["a","b"]',
    });
    expect(readBack(plan.push, "--provisioner-tag")).toEqual(tags);
    // Plain items stay as they were.
    expect(plan.push).toContain("allow_privileged=false");
    expect(plan.push).toContain("zone=b");
  });
});

describe("the coder release", () => {
  const untagged = () => ({ name: "k", dir: os.tmpdir(), provisionerTags: {}, frontMatter });

  it.each([
    [{ major: 2, minor: 24, patch: 0 }, true],
    [{ major: 3, minor: 0, patch: 0 }, true],
    [{ major: 2, minor: 23, patch: 9 }, false],
    [{ major: 1, minor: 99, patch: 0 }, false],
    [null, false],
  ])("%p clears inherited tags: %p", (coderVersion, clears) => {
    const plan = planPush(untagged(), { coderVersion });
    expect(plan.push.includes("--provisioner-tag=-")).toBe(clears);
    expect(plan.notes.some((n) => n.includes("does not understand --provisioner-tag=-"))).toBe(
      !clears,
    );
  });

  it("is assumed to be v2.24 when unknown to a dry run, and the notes say so", () => {
    const plan = planPush(untagged());
    expect(plan.push).toContain("--provisioner-tag=-");
    expect(plan.notes[0]).toBe(
      "no coder CLI found: these are the commands for Coder v2.24.0 or later (assumed)",
    );
  });

  it.each([
    [
      "Coder v2.24.1+0123abc Tue Jun 17 2025\nhttps://github.com/coder/coder/commit/0123abc\n",
      { major: 2, minor: 24, patch: 1 },
    ],
    ["Coder v2.9.0-rc.1+abc\n", { major: 2, minor: 9, patch: 0 }],
    ["Coder v0.0.0-devel+abc\n", undefined],
    ["command not found\n", undefined],
  ])("parses %p", (output, expected) => {
    expect(parseCoderVersion(output)).toEqual(expected);
  });
});

describe("tag formatting", () => {
  it("clears tags for an untagged template and prints (untagged)", () => {
    expect(provisionerTagArgs({})).toEqual(["--provisioner-tag=-"]);
    expect(provisionerTagArgs({}, false)).toEqual([]);
    expect(provisionerTagArgs({ a: "1" }, false)).toEqual(["--provisioner-tag", "a=1"]);
    expect(formatProvisionerTags({})).toBe("(untagged)");
    expect(formatProvisionerTags({ b: "2", a: "1" })).toBe("a=1 b=2");
  });

  it("shell-quotes a printed command so it can be pasted", () => {
    expect(shellQuote(["push", "it's", "a b", "", "k=v", "--provisioner-tag=-"])).toBe(
      "push 'it'\\''s' 'a b' '' k=v --provisioner-tag=-",
    );
  });
});

describe("the version table decides where display metadata goes", () => {
  const template = () => ({
    name: "k",
    dir: os.tmpdir(),
    provisionerTags: { a: "1" },
    frontMatter,
  });

  it("today: templates edit sets display name, description and icon (no release pushes them)", () => {
    expect(CODER_CLI_FEATURES.pushMetadataFlags.since).toBeUndefined();
    const plan = planPush(template(), { coderVersion: { major: 2, minor: 40, patch: 1 } });
    expect(plan.push).not.toContain("--display-name");
    expect(plan.edit).toEqual([
      "templates",
      "edit",
      "k",
      "--display-name",
      "Packer builder",
      "--description",
      "Builds images",
      "--icon",
      "/icon/packer.svg",
    ]);
  });

  it("a release whose push takes them gets them on push, and no edit unless a setting needs one", () => {
    const features = {
      ...CODER_CLI_FEATURES,
      pushMetadataFlags: { since: { major: 2, minor: 41, patch: 0 }, source: "test" },
    };
    const newer = { major: 2, minor: 41, patch: 0 };
    const plan = planPush(template(), { coderVersion: newer, features });
    expect(plan.push.slice(-7)).toEqual([
      "--ignore-lockfile",
      "--display-name",
      "Packer builder",
      "--description",
      "Builds images",
      "--icon",
      "/icon/packer.svg",
    ]);
    expect(plan.edit).toBeUndefined();
    const withSettings = planPush(template(), {
      coderVersion: newer,
      features,
      coderSettings: { defaultTtl: "4h" },
    });
    expect(withSettings.edit).toEqual(["templates", "edit", "k", "--default-ttl", "4h"]);
    // The release before it still gets them from the edit.
    const older = planPush(template(), {
      coderVersion: { major: 2, minor: 40, patch: 9 },
      features,
    });
    expect(older.push).not.toContain("--display-name");
    expect(older.edit?.slice(3, 5)).toEqual(["--display-name", "Packer builder"]);
  });

  it("a version pushed inactive gets no edit: the promotion runs it", () => {
    const plan = planPush(template(), {
      coderVersion: V2_24,
      activate: false,
      versionName: "abc1234",
      coderSettings: { defaultTtl: "4h" },
    });
    expect(plan.push.slice(-3)).toEqual(["abc1234", "--activate=false", "--ignore-lockfile"]);
    expect(plan.edit).toBeUndefined();
    const promote = planPromote("k", "abc1234", {
      coderVersion: V2_24,
      frontMatter,
      coderSettings: { defaultTtl: "4h" },
    });
    expect(promote.promote).toEqual([
      "templates",
      "versions",
      "promote",
      "--template",
      "k",
      "--template-version",
      "abc1234",
    ]);
    expect(promote.edit?.slice(-2)).toEqual(["--default-ttl", "4h"]);
  });

  it("a CLI without templates versions promote (before 2.17) is told so", () => {
    const plan = planPromote("k", "v1", { coderVersion: { major: 2, minor: 16, patch: 3 } });
    expect(plan.notes[0]).toContain(
      "coder v2.16.3 has no `templates versions promote` (added in v2.17.0)",
    );
  });
});
