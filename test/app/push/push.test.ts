import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { projectRoot } from "../../../lib/core/project-root";
import { itWithShellcheck } from "../../support/shellcheck";
import { fakeCli, SHA, SUBJECT, type FakeCli } from "./fake-cli";

// `npm run push` end to end, run the way npm runs it (scripts/push.js: scripts/commands/push.ts bundled),
// against a fake `coder` on PATH that records its argv and the folder it was given, and a fake
// `git` that says which commit the templates come from (1a2b3c4, clean, unless a case says).

const root = projectRoot();

let cli: FakeCli;
let work: string;
let bin: string;
let emptyConfig: string;

beforeAll(() => {
  cli = fakeCli();
  ({ work, bin, defaultConfig: emptyConfig } = cli);
});

afterAll(() => cli.cleanup());

/** A config for kubernetes with this namespace. */
function cfg(namespace: string): string {
  const file = path.join(work, `ns-${namespace}.jsonc`);
  fs.writeFileSync(
    file,
    `{ "templates": { "kubernetes": { "variables": { "namespace": "${namespace}" } } } }`,
  );
  return file;
}

function runPush(name: string, args: string[], env: Record<string, string> = {}) {
  return cli.run("push", name, args, env);
}

/** A variables file with packer-builder's required variables (it has no configured ones). */
function packerVars(): string {
  const file = path.join(work, "packer-vars.yaml");
  fs.writeFileSync(
    file,
    "harvester_api_server: https://harvester.example.com\n" +
      "image: registry.example.com/packer:1\n" +
      "repository_url: https://git.example.com/images.git\n",
  );
  return file;
}

describe("npm run push", () => {
  itWithShellcheck("uses a fake coder and a fake git that pass shellcheck", () => {
    const run = spawnSync(
      "shellcheck",
      [path.join(__dirname, "fake-coder.sh"), path.join(__dirname, "fake-git.sh")],
      { encoding: "utf8" },
    );
    expect(run.error).toBeUndefined();
    expect(run.stdout).toBe("");
    expect(run.status).toBe(0);
  });

  it("synthesizes, pushes with tags, variables file, version name, message and --ignore-lockfile, then sets display metadata", () => {
    const varsFile = path.join(work, "vars.yaml");
    fs.writeFileSync(varsFile, "namespace: coder-workspaces\n");
    const run = runPush("ok", ["kubernetes", "--variables-file", varsFile, "-m", "first version"]);
    expect(run.stderr).not.toContain("push failed");
    expect(run.status).toBe(0);
    const stack = path.join(run.outdir, "stacks", "kubernetes");
    const [version, push, edit, ...rest] = run.calls();
    expect(rest).toEqual([]);
    // The CLI's release decides the flags; the fake says v2.24.1 by default.
    expect(version.args).toEqual(["version"]);
    expect(run.stderr).toContain("coder CLI: ");
    expect(run.stderr).toContain("(v2.24.1)");
    expect(push.args).toEqual([
      "templates",
      "push",
      "kubernetes",
      "-d",
      stack,
      "--yes",
      "--provisioner-tag=-",
      "--variables-file",
      varsFile,
      "--name",
      SHA,
      "-m",
      "first version",
      "--ignore-lockfile",
    ]);
    // The folder Coder receives is the freshly synthesized template.
    expect(push.dir).toBe(stack);
    expect(push.files).toEqual(expect.arrayContaining(["README.md", "cdk.tf.json"]));
    expect(push.files.some((f) => f.startsWith("."))).toBe(false);
    expect(edit.args).toEqual([
      "templates",
      "edit",
      "kubernetes",
      "--display-name",
      "Kubernetes",
      "--description",
      "A container workspace on Kubernetes with a persistent home volume",
      "--icon",
      "/icon/k8s.png",
    ]);
    // Coder's own output is passed through, and the missing lock file is explained (the
    // registry is unreachable here: fake-cli.ts; provider-lock.test.ts locks from a mirror).
    expect(run.stdout).toContain("Uploading template files...");
    expect(run.stdout).toContain("Updated template metadata!");
    expect(run.stderr).toMatch(/providers are not locked, so --ignore-lockfile is passed/);
  });

  it("--dry-run prints the exact commands and runs nothing but `coder version`", () => {
    const run = runPush("dry", ["kubernetes", "--dry-run", "--message", "it's new"]);
    expect(run.status).toBe(0);
    expect(run.calls().map((c) => c.args)).toEqual([["version"]]);
    const stack = path.join(run.outdir, "stacks", "kubernetes");
    // The push the lock file is for: without --ignore-lockfile (provider-lock.test.ts).
    expect(run.stdout.split("\n")).toEqual([
      "terraform providers lock -platform=linux_amd64 -platform=linux_arm64 " +
        "registry.terraform.io/coder/coder registry.terraform.io/hashicorp/kubernetes",
      `coder templates push kubernetes -d ${stack} --yes --provisioner-tag=- --var namespace=coder-workspaces ` +
        `--name ${SHA} -m 'it'\\''s new'`,
      "coder templates edit kubernetes --display-name Kubernetes --description " +
        "'A container workspace on Kubernetes with a persistent home volume' --icon /icon/k8s.png",
      "",
    ]);
    expect(fs.existsSync(path.join(stack, "cdk.tf.json"))).toBe(true);
  });

  it("prints the same commands when run from source (scripts/ts.js scripts/commands/push.ts)", () => {
    const bundled = runPush("dry-bundled", ["kubernetes", "--dry-run"]);
    const dir = path.join(work, "dry-source");
    fs.mkdirSync(dir);
    const outdir = path.join(work, "dry-bundled", "out");
    const source = spawnSync(
      process.execPath,
      [
        path.join(root, "scripts", "ts.js"),
        path.join(root, "scripts", "commands", "push.ts"),
        "kubernetes",
        "--dry-run",
        "--config",
        emptyConfig,
        "--outdir",
        outdir,
      ],
      {
        cwd: dir,
        encoding: "utf8",
        env: {
          PATH: `${bin}:/usr/bin:/bin`,
          HOME: dir,
          CHECKPOINT_DISABLE: "1",
          FAKE_CODER_LOG: path.join(dir, "coder.log"),
        },
      },
    );
    expect(bundled.status).toBe(0);
    expect(source.status).toBe(0);
    expect(source.stdout).toContain("coder templates push kubernetes -d ");
    expect(source.stdout).toBe(bundled.stdout);
  });

  it("uses the Coder name and provisioner tags of the operator config", () => {
    const config = path.join(work, "deploy.jsonc");
    fs.writeFileSync(
      config,
      `{ "templates": { "kubernetes": { "name": "k8s-dev", "variables": { "namespace": "dev" }, "provisionerTags": { "zone": "b", "cluster": "dev" } } } }`,
    );
    const run = runPush("config", ["kubernetes", "--config", config]);
    expect(run.status).toBe(0);
    const [, push, edit] = run.calls();
    expect(push.args.slice(0, 3)).toEqual(["templates", "push", "k8s-dev"]);
    expect(push.args.slice(5, 10)).toEqual([
      "--yes",
      "--provisioner-tag",
      "cluster=dev",
      "--provisioner-tag",
      "zone=b",
    ]);
    expect(edit.args.slice(0, 3)).toEqual(["templates", "edit", "k8s-dev"]);
  });

  describe("configured variables (Coder keeps the last version's values for any it is not given)", () => {
    const writeConfig = (file: string, namespace: string) => {
      fs.writeFileSync(
        path.join(work, file),
        `{ "templates": { "kubernetes": { "variables": { "namespace": "${namespace}", "use_kubeconfig": false } } } }`,
      );
      return path.join(work, file);
    };

    it("a push after changing a configured variable passes its new value", () => {
      const first = runPush("vars-first", [
        "kubernetes",
        "--config",
        writeConfig("v1.jsonc", "team-a"),
      ]);
      expect(first.status).toBe(0);
      const second = runPush("vars-second", [
        "kubernetes",
        "--config",
        writeConfig("v2.jsonc", "team-b"),
      ]);
      expect(second.status).toBe(0);
      const pushArgs = (run: typeof first) => run.calls()[1].args;
      expect(pushArgs(first).slice(6, 11)).toEqual([
        "--provisioner-tag=-",
        "--var",
        "namespace=team-a",
        "--var",
        "use_kubeconfig=false",
      ]);
      expect(pushArgs(second).slice(7, 9)).toEqual(["--var", "namespace=team-b"]);
      // The new value is also the default in the uploaded files (main.tf holds the variables).
      const main = fs.readFileSync(
        path.join(second.outdir, "stacks", "kubernetes", "main.tf"),
        "utf8",
      );
      expect(/^variable "namespace" \{\n[\s\S]*?\n\}/m.exec(main)?.[0]).toMatch(
        /^ {2}default += "team-b"$/m,
      );
    });

    it("leaves a variable the operator's --variables-file sets to that file", () => {
      const varsFile = path.join(work, "ns.yaml");
      fs.writeFileSync(varsFile, "# per push\nnamespace: from-file\n");
      const run = runPush("vars-file-wins", [
        "kubernetes",
        "--config",
        writeConfig("v3.jsonc", "team-c"),
        "--variables-file",
        varsFile,
      ]);
      expect(run.status).toBe(0);
      expect(run.calls()[1].args.slice(6)).toEqual([
        "--provisioner-tag=-",
        "--var",
        "use_kubeconfig=false",
        "--variables-file",
        varsFile,
        "--name",
        SHA,
        "-m",
        SUBJECT,
        "--ignore-lockfile",
      ]);
    });

    it("passes no --var without configured variables", () => {
      const run = runPush("vars-none", [
        "packer-builder",
        "--dry-run",
        "--variables-file",
        packerVars(),
      ]);
      expect(run.status).toBe(0);
      expect(run.stdout).not.toContain("--var ");
    });

    it("refuses a variables file that is not a YAML map", () => {
      const bad = path.join(work, "list.yaml");
      fs.writeFileSync(bad, "- namespace\n");
      const run = runPush("vars-bad-file", ["kubernetes", "--variables-file", bad]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain("must be a YAML map of variable names to values");
    });
  });

  it("fails with the CLI's message and exit status when the push fails, and skips the edit", () => {
    const run = runPush("fail", ["kubernetes"], { FAKE_CODER_FAIL: "push" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("push failed (coder templates push exited with 1):");
    expect(run.stderr).toContain(
      "error: template import provisioning failed: terraform plan: exit status 1",
    );
    expect(run.calls().map((c) => c.args.slice(0, 2))).toEqual([
      ["version"],
      ["templates", "push"],
    ]);
  });

  it("reports a failed metadata edit after a successful push", () => {
    const run = runPush("edit-fail", ["kubernetes"], { FAKE_CODER_FAIL: "edit" });
    expect(run.status).toBe(3);
    expect(run.stderr).toContain("pushed kubernetes, but setting its display name");
    expect(run.stderr).toContain("error: update template metadata: forbidden");
  });

  describe("with a CLI older than v2.24 (no --provisioner-tag=-)", () => {
    it("pushes an untagged template without any tag flag and says the old tags are inherited", () => {
      const run = runPush("old-cli", ["kubernetes"], { FAKE_CODER_VERSION: "2.23.4" });
      expect(run.stderr).not.toContain("push failed");
      expect(run.status).toBe(0);
      const stack = path.join(run.outdir, "stacks", "kubernetes");
      const [version, push, edit, ...rest] = run.calls();
      expect(rest).toEqual([]);
      expect(version.args).toEqual(["version"]);
      expect(push.args).toEqual([
        "templates",
        "push",
        "kubernetes",
        "-d",
        stack,
        "--yes",
        "--var",
        "namespace=coder-workspaces",
        "--name",
        SHA,
        "-m",
        SUBJECT,
        "--ignore-lockfile",
      ]);
      expect(edit.args.slice(0, 3)).toEqual(["templates", "edit", "kubernetes"]);
      expect(run.stderr).toContain("(v2.23.4)");
      expect(run.stderr).toContain(
        "note: coder v2.23.4 does not understand --provisioner-tag=- (added in v2.24.0), so kubernetes " +
          "is pushed without any tag flag and Coder keeps the provisioner tags of its active version",
      );
      expect(run.stderr).toContain(`--provisioner-tag scope=organization`);
    });

    it("still passes a tagged template's tags", () => {
      const vars = packerVars();
      const run = runPush("old-cli-tagged", ["packer-builder", "--variables-file", vars], {
        FAKE_CODER_VERSION: "2.20.0",
      });
      expect(run.status).toBe(0);
      const [, push] = run.calls();
      expect(push.args.slice(5)).toEqual([
        "--yes",
        "--provisioner-tag",
        "cluster=harvester",
        "--variables-file",
        vars,
        "--name",
        SHA,
        "-m",
        SUBJECT,
        "--ignore-lockfile",
      ]);
      expect(run.stderr).not.toContain("does not understand");
    });

    it("is what the fake refuses, as the old CLI does: --provisioner-tag=- fails the push", () => {
      const log = path.join(work, "direct.log");
      const direct = spawnSync(
        path.join(bin, "coder"),
        ["templates", "push", "k", "-d", work, "--provisioner-tag=-"],
        {
          encoding: "utf8",
          env: { PATH: "/usr/bin:/bin", FAKE_CODER_LOG: log, FAKE_CODER_VERSION: "2.23.4" },
        },
      );
      expect(direct.status).toBe(1);
      expect(direct.stderr).toContain(`invalid tag format for "-". must be key=value`);
    });

    it("treats a CLI whose release cannot be told (a development build) like an old one", () => {
      const run = runPush("devel-cli", ["kubernetes", "--dry-run"], {
        FAKE_CODER_VERSION: "devel",
      });
      expect(run.status).toBe(0);
      expect(run.stdout).not.toContain("--provisioner-tag");
      expect(run.stderr).toContain("(version unknown)");
      expect(run.stderr).toContain("this coder CLI (its version is unknown) does not understand");
    });

    it("--dry-run prints the commands for the CLI found", () => {
      const run = runPush("old-dry", ["kubernetes", "--dry-run"], { FAKE_CODER_VERSION: "2.23.4" });
      expect(run.status).toBe(0);
      const stack = path.join(run.outdir, "stacks", "kubernetes");
      expect(run.stdout.split("\n")[1]).toBe(
        `coder templates push kubernetes -d ${stack} --yes --var namespace=coder-workspaces ` +
          `--name ${SHA} -m '${SUBJECT}'`,
      );
    });
  });

  it("--dry-run without a CLI prints the commands for the version it assumes, and says so", () => {
    const empty = path.join(work, "no-cli-bin");
    fs.mkdirSync(empty);
    const run = runPush("dry-no-cli", ["kubernetes", "--dry-run"], { PATH: empty });
    expect(run.status).toBe(0);
    expect(run.logExists()).toBe(false);
    expect(run.stderr).toContain(
      "note: no coder CLI found: these are the commands for Coder v2.24.0 or later (assumed)",
    );
    const stack = path.join(run.outdir, "stacks", "kubernetes");
    // No git either (PATH has neither): Coder names the version and writes its message.
    expect(run.stdout.split("\n")[0]).toBe(
      `coder templates push kubernetes -d ${stack} --yes --provisioner-tag=- ` +
        `--var namespace=coder-workspaces --ignore-lockfile`,
    );
    expect(run.stderr).toContain("Coder names the version and writes its message itself");
  });

  it("says plainly when coder is not on PATH, before synthesizing anything", () => {
    const empty = path.join(work, "empty-bin");
    fs.mkdirSync(empty);
    const run = runPush("no-cli", ["kubernetes"], { PATH: empty });
    expect(run.status).toBe(127);
    expect(run.stderr).toContain("the Coder CLI (`coder`) is not on PATH");
    expect(fs.existsSync(run.outdir)).toBe(false);
  });

  it("rejects an unknown template and a missing variables file with usage errors", () => {
    const unknown = runPush("unknown", ["nope"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown template "nope"; known: .*kubernetes/);
    const missing = runPush("missing-vars", ["kubernetes", "--variables-file", "nowhere.yaml"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("--variables-file nowhere.yaml: file not found");
  });

  describe("the version's name and message (Coder's change management: one version per commit)", () => {
    it("are the commit's short SHA and subject; a dirty checkout is marked, with a digest of what is pushed", () => {
      const dirty = runPush("git-dirty", ["kubernetes", "--dry-run"], { FAKE_GIT_DIRTY: "1" });
      expect(dirty.status).toBe(0);
      const name = /--name (\S+)/.exec(dirty.stdout)?.[1];
      expect(name).toMatch(new RegExp(`^${SHA}-dirty-[0-9a-f]{8}$`));
      expect(dirty.stdout).toContain(`-m '${SUBJECT} (with uncommitted changes)'`);
      expect(dirty.stderr).toContain(
        `note: the checkout has uncommitted changes: the version is named ${name}`,
      );
      // The same content gets the same name (Coder refuses it as the duplicate it is).
      const again = runPush("git-dirty-again", ["kubernetes", "--dry-run"], {
        FAKE_GIT_DIRTY: "1",
      });
      expect(/--name (\S+)/.exec(again.stdout)?.[1]).toBe(name);
      // Other content, another name.
      const other = runPush(
        "git-dirty-other",
        ["kubernetes", "--dry-run", "--config", cfg("team-z")],
        {
          FAKE_GIT_DIRTY: "1",
        },
      );
      expect(/--name (\S+)/.exec(other.stdout)?.[1]).not.toBe(name);
    });

    it("are Coder's own outside a git checkout, and --name/--message win over the commit", () => {
      const none = runPush("git-none", ["kubernetes", "--dry-run"], { FAKE_GIT_SHA: "none" });
      expect(none.status).toBe(0);
      expect(none.stdout).not.toContain("--name");
      expect(none.stdout).not.toContain(" -m ");
      const given = runPush("git-given", [
        "kubernetes",
        "--dry-run",
        "--name",
        "release_7.1",
        "-m",
        "Ship it",
      ]);
      expect(given.stdout).toContain("--name release_7.1 -m 'Ship it'");
    });

    it("refuses a name Coder would refuse, and --activate=false with no name to promote", () => {
      const bad = runPush("git-bad-name", ["kubernetes", "--dry-run", "--name", "v1 final"]);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain("--name v1 final: is not a version name Coder takes");
      const unnamed = runPush(
        "git-inactive-unnamed",
        ["kubernetes", "--dry-run", "--activate=false"],
        {
          FAKE_GIT_SHA: "none",
        },
      );
      expect(unnamed.status).toBe(2);
      expect(unnamed.stderr).toContain("--activate=false needs a version name");
      const wrong = runPush("activate-value", ["kubernetes", "--dry-run", "--activate=maybe"]);
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toContain('--activate takes true or false (got "maybe")');
    });
  });

  describe("the variables file, checked before anything runs", () => {
    it("refuses an unknown name with the closest one, at its line and column, and runs no coder command", () => {
      const file = path.join(work, "typo.yaml");
      fs.writeFileSync(file, "# per push\nnamespace: a\nuse_kubeconfg: true\n");
      const run = runPush("vars-typo", ["kubernetes", "--variables-file", file]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(
        `${file}:3:1: use_kubeconfg: unknown variable (did you mean "use_kubeconfig"?)`,
      );
      expect(run.logExists()).toBe(false);
    });

    it("names the required variables nothing sets", () => {
      const run = runPush("vars-required", ["packer-builder"]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(
        "required variables without a value: harvester_api_server, image, repository_url",
      );
      expect(run.logExists()).toBe(false);
      // A dry run names them and still prints the commands.
      const dry = runPush("vars-required-dry", ["packer-builder", "--dry-run"]);
      expect(dry.status).toBe(0);
      expect(dry.stderr).toContain(
        "note: packer-builder has required variables without a value: harvester_api_server, image, repository_url; a push stops here",
      );
      expect(dry.stdout).toContain("coder templates push packer-builder");
    });

    it("refuses a value of the wrong type without showing it", () => {
      const file = path.join(work, "typed.yaml");
      fs.writeFileSync(file, "memory_alert_threshold: high-ish\n");
      const run = runPush("vars-typed", ["kubernetes", "--variables-file", file]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(
        `${file}:1:25: memory_alert_threshold: the value is not a number`,
      );
      expect(run.stderr).not.toContain("high-ish");
    });
  });

  // --check-upgrade itself is tested with a fake coder that has workspaces (test/app/upgrade).
  it("--allow-data-loss goes only with --check-upgrade", () => {
    const alone = runPush("allow-data-loss", ["kubernetes", "--allow-data-loss"]);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain("--allow-data-loss only goes with --check-upgrade");
  });

  describe("npm run promote", () => {
    it("refuses a bad version name and an unknown template, and reports a failed promotion", () => {
      const bad = cli.run("promote", "promote-bad", ["kubernetes", "v 2"]);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain("version v 2: is not a version name Coder takes");
      const unknown = cli.run("promote", "promote-unknown", ["nope", "v2"]);
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toMatch(/unknown template "nope"/);
      const failed = cli.run("promote", "promote-failed", ["kubernetes", "v2"], {
        FAKE_CODER_FAIL: "promote",
      });
      expect(failed.status).toBe(1);
      expect(failed.stderr).toContain(
        "promote failed (coder templates versions promote exited with 1):",
      );
      expect(failed.calls().map((c) => c.args.slice(0, 3))).toEqual([
        ["version"],
        ["templates", "versions", "promote"],
      ]);
    });

    it("--dry-run prints the commands", () => {
      const run = cli.run("promote", "promote-dry", ["kubernetes", "abc1234", "--dry-run"]);
      expect(run.status).toBe(0);
      expect(run.stdout.split("\n")).toEqual([
        "coder templates versions promote --template kubernetes --template-version abc1234",
        "coder templates edit kubernetes --display-name Kubernetes --description " +
          "'A container workspace on Kubernetes with a persistent home volume' --icon /icon/k8s.png",
        "",
      ]);
    });
  });
});
