/**
 * Fixtures for the devcontainer template's workspace scripts: a stand-in for the workspace
 * image (a home and a PATH of chosen host tools plus fakes) and a local origin repository.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { hostTool, linkHostTools, shellQuote, TempDirs } from "../../../support/run-script";
import { missingTool } from "../../../support/optional-tools";

/** The template's scripts, as the template embeds them. */
export const SCRIPTS_DIR = join(
  __dirname,
  "..",
  "..",
  "..",
  "..",
  "templates",
  "devcontainer",
  "scripts",
);

/** Path of one of the template's scripts, e.g. `scriptPath("lifecycle.sh")`. */
export function scriptPath(name: string): string {
  return join(SCRIPTS_DIR, name);
}

/**
 * The tools a minimal workspace image is assumed to have (coreutils or BusyBox equivalents).
 * Scripts that use anything else fail in these tests, which keeps the list honest.
 */
export const IMAGE_TOOLS: readonly string[] = [
  "sh",
  "base64",
  "basename",
  "cat",
  "chmod",
  "cp",
  "date",
  "env",
  "find",
  "grep",
  "gzip",
  "mkdir",
  "mv",
  "rm",
  "rmdir",
  "sed",
  "sleep",
  "tar",
  "tr",
  "uname",
];

/**
 * Where the image's basic tools come from: the host's with its `sh` (dash), the host's with
 * bash as the shell, or BusyBox (its `sh` too).
 */
export type ImageToolset = "host" | "bash" | "busybox";

/** Why the BusyBox variants cannot run here, or undefined when BusyBox is installed. */
export function busyboxMissing(): string | undefined {
  return missingTool("busybox");
}

/** The toolsets of {@link describeEachToolset} by default: the host's and BusyBox. */
export const HOST_AND_BUSYBOX: readonly ImageToolset[] = ["host", "busybox"];

/**
 * {@link HOST_AND_BUSYBOX} plus bash as the shell: for the tests of promises about data
 * (nothing a user had is lost), which hold under every shell an image may bring.
 */
export const EVERY_SHELL: readonly ImageToolset[] = ["host", "bash", "busybox"];

/**
 * Declares `body`'s tests once per toolset (the host's, GNU coreutils and dash, by default
 * with BusyBox, since many images are BusyBox-based). Without BusyBox its variants are
 * declared as skipped, with the reason in their name, so a run on a machine without it says
 * what it left out instead of passing quietly with fewer tests. `title` holds `%s` for the
 * toolset.
 */
export function describeEachToolset(
  title: string,
  body: (toolset: ImageToolset) => void,
  toolsets: readonly ImageToolset[] = HOST_AND_BUSYBOX,
): void {
  const missing = busyboxMissing();
  for (const toolset of toolsets) {
    const name = title.replace("%s", toolset);
    if (toolset === "busybox" && missing !== undefined) {
      describe.skip(`${name} [skipped: ${missing}]`, () => body(toolset));
    } else {
      describe(name, () => body(toolset));
    }
  }
}

/** {@link describeEachToolset} over {@link EVERY_SHELL}. */
export function describeEachShell(title: string, body: (toolset: ImageToolset) => void): void {
  describeEachToolset(title, body, EVERY_SHELL);
}

/** Options for {@link createImageSandbox}. */
export interface ImageSandboxProps {
  /** Put the host's git (and git-upload-pack, for fake ssh) on the PATH. @default true */
  readonly withGit?: boolean;
  /** Where {@link IMAGE_TOOLS}, the shell included, come from. @default "host" */
  readonly toolset?: ImageToolset;
}

/** A fake workspace: a home, a PATH (fakes first, then host tools) and a scratch root. */
export interface ImageSandbox {
  readonly root: string;
  readonly home: string;
  /** First on PATH: put fake executables here. */
  readonly fakeBin: string;
  /** The image's own tools, after {@link fakeBin} on PATH: a fake can hand over to one. */
  readonly toolBin: string;
  /** The `sh` of this image: pass it as `runScript({ shell })`. */
  readonly shell: string;
  /** The script's environment: HOME, PATH, LC_ALL=C, plus `extra`. */
  env(extra?: Readonly<Record<string, string>>): Record<string, string>;
}

export function createImageSandbox(dirs: TempDirs, props: ImageSandboxProps = {}): ImageSandbox {
  const root = dirs.make("dc-script");
  const home = join(root, "home");
  const fakeBin = join(root, "fake-bin");
  const toolBin = join(root, "tool-bin");
  mkdirSync(home, { recursive: true });
  mkdirSync(fakeBin, { recursive: true });
  if (props.toolset === "busybox") {
    mkdirSync(toolBin, { recursive: true });
    // BusyBox picks the applet from the name it is called by.
    for (const tool of IMAGE_TOOLS) symlinkSync(hostTool("busybox"), join(toolBin, tool));
  } else {
    linkHostTools(toolBin, IMAGE_TOOLS);
  }
  if (props.withGit !== false) linkHostTools(toolBin, ["git", "git-upload-pack"]);
  const path = `${fakeBin}:${toolBin}`;
  return {
    root,
    home,
    fakeBin,
    toolBin,
    // SCRIPT_TEST_SHELL=bash tries the host toolset's scripts under another shell.
    shell:
      props.toolset === "busybox"
        ? join(toolBin, "sh")
        : hostTool(props.toolset === "bash" ? "bash" : (process.env.SCRIPT_TEST_SHELL ?? "sh")),
    env(extra = {}) {
      // GIT_CONFIG_NOSYSTEM: the host's /etc/gitconfig must not change what git does here.
      return { HOME: home, PATH: path, LC_ALL: "C", GIT_CONFIG_NOSYSTEM: "1", ...extra };
    },
  };
}

/** Base64 of UTF-8 text, as Terraform's base64encode() produces it. */
export function base64(text: string): string {
  return Buffer.from(text, "utf8").toString("base64");
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Test Author",
  GIT_AUTHOR_EMAIL: "author@example.test",
  GIT_COMMITTER_NAME: "Test Author",
  GIT_COMMITTER_EMAIL: "author@example.test",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  // No `git maintenance run --auto` after each fixture commit: a process per commit that
  // changes nothing a test looks at. The scripts' own git runs keep git's defaults.
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "maintenance.auto",
  GIT_CONFIG_VALUE_0: "false",
};

function hostGitEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C", ...GIT_ENV };
}

/** Runs the host's git for fixtures (never through the sandbox's fakes). */
export function hostGit(cwd: string, args: readonly string[]): string {
  return execFileSync("git", args, { cwd, env: hostGitEnv(), encoding: "utf8" }).trim();
}

/**
 * Runs the host's git like {@link hostGit}, and returns what it wrote to stderr after what it
 * wrote to stdout, instead of passing stderr on to the test's output. Throws when it fails.
 */
export function hostGitWithErrors(cwd: string, args: readonly string[]): string {
  const result = spawnSync("git", args, { cwd, env: hostGitEnv(), encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  return `${result.stdout}${result.stderr}`.trim();
}

/**
 * Runs several host git commands in `cwd`, in order, stopping at the first that fails (which
 * throws), through one shell: one process started from the test instead of one per command.
 * Returns the last command's output.
 */
export function hostGitSteps(cwd: string, steps: readonly (readonly string[])[]): string {
  const script = steps.map((args) => ["git", ...args].map(shellQuote).join(" ")).join(" &&\n");
  return execFileSync("sh", ["-c", `set -e\n${script}`], {
    cwd,
    env: hostGitEnv(),
    encoding: "utf8",
  }).trim();
}

/** A local repository standing in for the remote. */
export interface OriginRepo {
  readonly path: string;
  /** The file:// URL of the repository. */
  readonly url: string;
  /** Writes the files on `branch` (created from the current HEAD if new), commits, returns the SHA. */
  commit(branch: string, files: Readonly<Record<string, string>>, message: string): string;
}

export function createOriginRepo(dir: string, branch = "main"): OriginRepo {
  mkdirSync(dir, { recursive: true });
  hostGitSteps(dir, [
    ["init", "-q"],
    ["symbolic-ref", "HEAD", `refs/heads/${branch}`],
  ]);
  return originRepoAt(dir);
}

/**
 * A copy of the repository `from` at `to`, made without git: objects, refs and commit SHAs
 * are the same, and nothing the copy does reaches `from`. Lets a test file build an origin
 * once and give each test its own.
 */
export function copyOriginRepo(from: string, to: string): OriginRepo {
  cpSync(from, to, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  return originRepoAt(to);
}

/** The branch HEAD of the repository in `dir` is on, read from .git/HEAD. */
function currentBranch(dir: string): string | undefined {
  const head = readFileSync(join(dir, ".git", "HEAD"), "utf8").trim();
  return head.startsWith("ref: refs/heads/") ? head.slice("ref: refs/heads/".length) : undefined;
}

function originRepoAt(dir: string): OriginRepo {
  return {
    path: dir,
    url: `file://${dir}`,
    commit(onBranch, files, message) {
      if (currentBranch(dir) !== onBranch) {
        const exists = hostGit(dir, ["branch", "--list", onBranch]).length > 0 ? [] : ["-b"];
        hostGit(dir, ["checkout", "-q", ...exists, onBranch]);
      }
      for (const [name, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), content);
      }
      return hostGitSteps(dir, [
        ["add", "-A"],
        ["commit", "-q", "--allow-empty", "-m", message],
        ["rev-parse", "HEAD"],
      ]);
    },
  };
}
