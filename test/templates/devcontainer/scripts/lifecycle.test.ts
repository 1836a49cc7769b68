/**
 * lifecycle.sh (coder_script "devcontainer_lifecycle"), run for real with sh, the host's git,
 * a file:// origin and fake executables on PATH.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  hostTool,
  readRecordedCalls,
  runScript,
  ScriptRun,
  shellQuote,
  tempDirs,
  writeFakeExecutable,
  writeRecordingExecutable,
} from "../../../support/run-script";
import {
  base64,
  describeEachToolset,
  describeEachShell,
  createImageSandbox,
  copyOriginRepo,
  createOriginRepo,
  hostGit,
  hostGitSteps,
  hostGitWithErrors,
  ImageSandbox,
  ImageToolset,
  OriginRepo,
  scriptPath,
} from "./helpers";

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

interface Workspace {
  readonly sandbox: ImageSandbox;
  readonly origin: OriginRepo;
  /** The commit the image was "built" from. */
  readonly builtCommit: string;
  readonly folder: string;
  readonly statusFile: string;
  /** Where the recording git wrapper (when installed) logs its argv. */
  readonly gitCalls: string;
  run(extra?: Readonly<Record<string, string>>): Promise<ScriptRun>;
}

/** The origin as the image was built from it: made once for this file, copied by each test. */
let builtOrigin: { readonly path: string; readonly builtCommit: string } | undefined;
function originAsBuilt(): { readonly path: string; readonly builtCommit: string } {
  if (builtOrigin === undefined) {
    const origin = createOriginRepo(join(dirs.make("dc-origin"), "origin"));
    const builtCommit = origin.commit(
      "main",
      { "README.md": "built\n", ".devcontainer/devcontainer.json": "{}\n" },
      "the built commit",
    );
    builtOrigin = { path: origin.path, builtCommit };
  }
  return builtOrigin;
}

function createWorkspace(options: { withGit?: boolean; toolset: ImageToolset }): Workspace {
  const sandbox = createImageSandbox(dirs, options);
  const { path: asBuilt, builtCommit } = originAsBuilt();
  const origin = copyOriginRepo(asBuilt, join(sandbox.root, "origin"));
  const folder = join(sandbox.root, "workspaces", "app");
  const statusFile = join(sandbox.root, "devcontainer-lifecycle.status");
  return {
    sandbox,
    origin,
    builtCommit,
    folder,
    statusFile,
    gitCalls: join(sandbox.root, "git-calls"),
    run(extra = {}) {
      return runScript({
        script: scriptPath("lifecycle.sh"),
        shell: sandbox.shell,
        env: sandbox.env({
          DC_WORKSPACE_FOLDER: folder,
          DC_REPOSITORY: origin.url,
          DC_BRANCH: "main",
          DC_COMMIT: builtCommit,
          DC_STATUS_FILE: statusFile,
          ...extra,
        }),
      });
    },
  };
}

/** Puts a git on PATH that records its argv and then runs the real one. */
function recordGitCalls(ws: Workspace): void {
  writeRecordingExecutable(
    ws.sandbox.fakeBin,
    "git",
    ws.gitCalls,
    `exec ${shellQuote(hostTool("git"))} "$@"`,
  );
}

function headOf(folder: string): string {
  return hostGit(folder, ["rev-parse", "HEAD"]);
}

function statusOf(ws: Workspace): string | undefined {
  return existsSync(ws.statusFile) ? readFileSync(ws.statusFile, "utf8") : undefined;
}

/** Shell code for {@link stopOnceAt}: stop the script instead of running git. */
const STOP_BEFORE = 'kill -KILL "$PPID"; exit 137';
/** Shell code for {@link stopOnceAt}: run git, then stop the script. */
const STOP_AFTER = '"$real" "$@"; kill -KILL "$PPID"; exit 137';

/** Puts a git on PATH that runs `action` at its first `git <step>` only ($real: the real git). */
function stopOnceAt(ws: Workspace, step: string, action: string): void {
  const once = join(ws.sandbox.root, "interrupted-once");
  writeFakeExecutable(
    ws.sandbox.fakeBin,
    "git",
    [
      `real=${shellQuote(hostTool("git"))}`,
      `if [ "$1" = ${shellQuote(step)} ] && [ ! -e ${shellQuote(once)} ]; then`,
      `  : > ${shellQuote(once)}`,
      `  ${action}`,
      "fi",
      'exec "$real" "$@"',
    ].join("\n"),
  );
}

/**
 * Commits, on the origin's main, a file whose name is too long for any file system: every
 * checkout of it fails, after writing the other files. Returns the commit.
 */
function commitUnwritableFile(origin: OriginRepo): string {
  const blob = hostGit(origin.path, ["hash-object", "-w", "README.md"]);
  const name = `a-name-too-long-${"x".repeat(300)}`;
  return hostGitSteps(origin.path, [
    ["update-index", "--add", "--cacheinfo", "100644", blob, name],
    ["commit", "-q", "-m", "a file no checkout can write"],
    ["rev-parse", "HEAD"],
  ]);
}

describeEachToolset("with %s tools", (toolset) => {
  describe("lifecycle.sh: the clone", () => {
    test("initializes a repository in place, fetches only the branch and checks out the built commit", async () => {
      const ws = createWorkspace({ toolset });
      // The branch moved on after the build: the clone must still land on the built commit.
      const newer = ws.origin.commit("main", { "README.md": "newer\n" }, "after the build");
      ws.origin.commit("other", { "OTHER.md": "x\n" }, "another branch");
      // A volume mount point that already exists inside the folder.
      mkdirSync(join(ws.folder, "node_modules", "pkg"), { recursive: true });
      writeFileSync(join(ws.folder, "node_modules", "pkg", "index.js"), "module.exports = 1;\n");
      recordGitCalls(ws);

      const run = await ws.run();

      expect(run.exitCode).toBe(0);
      expect(headOf(ws.folder)).toBe(ws.builtCommit);
      expect(hostGit(ws.folder, ["symbolic-ref", "--short", "HEAD"])).toBe("main");
      expect(hostGit(ws.folder, ["rev-parse", "--abbrev-ref", "main@{upstream}"])).toBe(
        "origin/main",
      );
      expect(hostGit(ws.folder, ["rev-parse", "origin/main"])).toBe(newer);
      expect(hostGit(ws.folder, ["for-each-ref", "--format=%(refname)"]).split("\n")).toEqual([
        "refs/heads/main",
        "refs/remotes/origin/main",
      ]);
      expect(existsSync(join(ws.folder, ".git", "devcontainer-cloned"))).toBe(true);
      expect(readFileSync(join(ws.folder, "node_modules", "pkg", "index.js"), "utf8")).toContain(
        "1",
      );
      expect(statusOf(ws)).toBe("0\n");
      expect(existsSync(`${ws.statusFile}.tmp`)).toBe(false);
      expect(run.output).toContain(ws.builtCommit.slice(0, 7));

      const calls = readRecordedCalls(ws.gitCalls);
      expect(calls.map((argv) => argv[0])).not.toContain("clone");
      expect(calls).toEqual(
        expect.arrayContaining([
          ["init", "-q"],
          ["symbolic-ref", "HEAD", "refs/heads/main"],
          ["remote", "add", "origin", ws.origin.url],
          ["fetch", "origin", "+refs/heads/main:refs/remotes/origin/main"],
          ["checkout", "-q", "-B", "main", ws.builtCommit],
        ]),
      );
    });

    test.each([
      ["https://ghp_s3cr3t@git.invalid/r.git", "https://***@git.invalid/r.git"],
      ["https::https://ghp_s3cr3t@git.invalid/r.git", "https::https://***@git.invalid/r.git"],
    ])("logs %s as %s: a token in the URL never reaches the log", async (url, shown) => {
      const ws = createWorkspace({ toolset });
      const run = await ws.run({ DC_REPOSITORY: url, GIT_TERMINAL_PROMPT: "0" });
      expect(run.exitCode).toBe(1);
      expect(run.output).toContain(`cloning branch main of ${shown} into`);
      expect(run.output).not.toContain("s3cr3t");
    });

    test("without a built commit, checks out the branch head", async () => {
      const ws = createWorkspace({ toolset });
      const head = ws.origin.commit("main", { "README.md": "head\n" }, "head");
      const run = await ws.run({ DC_COMMIT: "" });
      expect(run.exitCode).toBe(0);
      expect(headOf(ws.folder)).toBe(head);
    });

    test("never hands git a built commit that is not a commit id, and clones the branch", async () => {
      const ws = createWorkspace({ toolset });
      const head = ws.origin.commit("main", { "README.md": "head\n" }, "head");
      const marker = join(ws.sandbox.root, "upload-pack-ran");
      for (const bad of [`--upload-pack=touch ${marker}`, "main", ws.builtCommit.slice(0, 12)]) {
        rmSync(ws.folder, { recursive: true, force: true });
        const run = await ws.run({ DC_COMMIT: bad });
        expect({ bad, exitCode: run.exitCode }).toEqual({ bad, exitCode: 0 });
        expect(run.output).toContain("the build's commit is not a commit id");
        expect(headOf(ws.folder)).toBe(head);
      }
      expect(existsSync(marker)).toBe(false);
    });

    test("fetches the built commit by SHA when the branch no longer contains it", async () => {
      const ws = createWorkspace({ toolset });
      const elsewhere = ws.origin.commit(
        "rewritten",
        { "README.md": "gone\n" },
        "force-pushed away",
      );
      const run = await ws.run({ DC_COMMIT: elsewhere });
      expect(run.exitCode).toBe(0);
      expect(headOf(ws.folder)).toBe(elsewhere);
      expect(hostGit(ws.folder, ["symbolic-ref", "--short", "HEAD"])).toBe("main");
    });

    test("a failed fetch removes .git, exits 1 and never logs credentials from the URL", async () => {
      const ws = createWorkspace({ toolset });
      // Nothing listens on the loopback discard port, so the fetch fails at once.
      const run = await ws.run({
        DC_REPOSITORY: "https://someone:s3cret-token@127.0.0.1:9/app.git",
      });
      expect(run.exitCode).toBe(1);
      expect(statusOf(ws)).toBe("1\n");
      expect(existsSync(join(ws.folder, ".git"))).toBe(false);
      expect(run.output).toMatch(/clone failed/);
      expect(run.output).not.toContain("s3cret-token");
    });

    test("files in the way fail a first checkout, are listed and left alone", async () => {
      const ws = createWorkspace({ toolset });
      mkdirSync(ws.folder, { recursive: true });
      writeFileSync(join(ws.folder, "README.md"), "mine\n");
      const run = await ws.run();
      expect(run.exitCode).toBe(1);
      expect(run.output).toContain("README.md");
      expect(existsSync(join(ws.folder, ".git"))).toBe(false);
      expect(readFileSync(join(ws.folder, "README.md"), "utf8")).toBe("mine\n");
    });
  });

  describe("lifecycle.sh: ssh URLs and known_hosts", () => {
    /** A fake ssh that serves the local origin, and a fake ssh-keyscan; both record argv. */
    function fakeSsh(ws: Workspace): { sshCalls: string; keyscanCalls: string } {
      const sshCalls = join(ws.sandbox.root, "ssh-calls");
      const keyscanCalls = join(ws.sandbox.root, "keyscan-calls");
      // git passes the remote command (git-upload-pack '<path>') as the last argument.
      writeRecordingExecutable(
        ws.sandbox.fakeBin,
        "ssh",
        sshCalls,
        'for last in "$@"; do :; done\nexec sh -c "$last"',
      );
      writeRecordingExecutable(
        ws.sandbox.fakeBin,
        "ssh-keyscan",
        keyscanCalls,
        'for host in "$@"; do :; done\necho "|1|fakehash ssh-ed25519 AAAAC3NzaFAKE$host"',
      );
      return { sshCalls, keyscanCalls };
    }

    test("scp-style: records the host key once with ssh-keyscan -H, then clones over ssh", async () => {
      const ws = createWorkspace({ toolset });
      const { sshCalls, keyscanCalls } = fakeSsh(ws);
      const knownHosts = join(ws.sandbox.home, ".ssh", "known_hosts");

      const first = await ws.run({ DC_REPOSITORY: `git@git.example.test:${ws.origin.path}` });

      expect(first.exitCode).toBe(0);
      expect(readRecordedCalls(keyscanCalls)).toEqual([["-H", "git.example.test"]]);
      expect(readFileSync(knownHosts, "utf8")).toContain(
        "ssh-ed25519 AAAAC3NzaFAKEgit.example.test",
      );
      expect(readRecordedCalls(sshCalls)[0]).toContain("git@git.example.test");
      expect(headOf(ws.folder)).toBe(ws.builtCommit);

      // A second workspace folder for the same host: the key is known, no new scan.
      writeFileSync(knownHosts, "git.example.test ssh-ed25519 AAAAC3NzaKNOWN\n");
      const second = await ws.run({
        DC_REPOSITORY: `git@git.example.test:${ws.origin.path}`,
        DC_WORKSPACE_FOLDER: join(ws.sandbox.root, "workspaces", "second"),
      });
      expect(second.exitCode).toBe(0);
      expect(readRecordedCalls(keyscanCalls)).toHaveLength(1);
    });

    test("ssh:// with a port scans that port", async () => {
      const ws = createWorkspace({ toolset });
      const { keyscanCalls } = fakeSsh(ws);
      const run = await ws.run({
        DC_REPOSITORY: `ssh://git@git.example.test:2222${ws.origin.path}`,
      });
      expect(run.exitCode).toBe(0);
      expect(readRecordedCalls(keyscanCalls)).toEqual([["-H", "-p", "2222", "git.example.test"]]);
      expect(headOf(ws.folder)).toBe(ws.builtCommit);
    });

    test("https and file URLs never scan", async () => {
      const ws = createWorkspace({ toolset });
      const { keyscanCalls } = fakeSsh(ws);
      expect((await ws.run()).exitCode).toBe(0);
      expect(readRecordedCalls(keyscanCalls)).toEqual([]);
    });
  });

  describe("lifecycle.sh: an image without git", () => {
    test("fails with exit 1 and tells the user which Feature to add", async () => {
      const ws = createWorkspace({ withGit: false, toolset });
      const run = await ws.run();
      expect(run.exitCode).toBe(1);
      expect(statusOf(ws)).toBe("1\n");
      expect(run.output).toMatch(/no git/);
      expect(run.output).toContain("ghcr.io/devcontainers/features/git:1");
      expect(run.output).toMatch(/rebuild/);
    });

    test("never deletes an existing .git it cannot inspect, and keeps one it did not create", async () => {
      const ws = createWorkspace({ withGit: false, toolset });
      mkdirSync(join(ws.folder, ".git"), { recursive: true });
      writeFileSync(join(ws.folder, ".git", "HEAD"), "ref: refs/heads/main\n");
      const run = await ws.run();
      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(/did not create; keeping it \(this image has no git/);
      expect(readFileSync(join(ws.folder, ".git", "HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
    });

    test("an interrupted clone of its own is kept too, and the start fails: it cannot be redone", async () => {
      const ws = createWorkspace({ withGit: false, toolset });
      mkdirSync(join(ws.folder, ".git"), { recursive: true });
      writeFileSync(join(ws.folder, ".git", "devcontainer-clone-in-progress"), "");
      writeFileSync(join(ws.folder, ".git", "HEAD"), "ref: refs/heads/main\n");
      const run = await ws.run();
      expect(run.exitCode).toBe(1);
      expect(run.output).toContain("ghcr.io/devcontainers/features/git:1");
      expect(readFileSync(join(ws.folder, ".git", "HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
    });
  });

  describe("lifecycle.sh: hooks", () => {
    const hookNames = [
      ["DC_HOOK_INITIALIZE_COMMAND", "initializeCommand"],
      ["DC_HOOK_ON_CREATE_COMMAND", "onCreateCommand"],
      ["DC_HOOK_UPDATE_CONTENT_COMMAND", "updateContentCommand"],
      ["DC_HOOK_POST_CREATE_COMMAND", "postCreateCommand"],
      ["DC_HOOK_POST_START_COMMAND", "postStartCommand"],
    ] as const;

    function hookEnv(
      log: string,
      overrides: Partial<Record<(typeof hookNames)[number][1], string>> = {},
    ): Record<string, string> {
      const env: Record<string, string> = { HOOK_LOG: log };
      for (const [variable, hook] of hookNames) {
        const script = overrides[hook] ?? `echo "${hook} $(pwd)" >> "$HOOK_LOG"\n`;
        env[variable] = script === "" ? "" : base64(script);
      }
      return env;
    }

    test("run in order from the workspace folder, on every start, skipping empty ones", async () => {
      const ws = createWorkspace({ toolset });
      const log = join(ws.sandbox.root, "hooks.log");
      const env = hookEnv(log, { updateContentCommand: "" });

      expect((await ws.run(env)).exitCode).toBe(0);
      expect((await ws.run(env)).exitCode).toBe(0);

      const once = [
        "initializeCommand",
        "onCreateCommand",
        "postCreateCommand",
        "postStartCommand",
      ];
      expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(
        [...once, ...once].map((hook) => `${hook} ${ws.folder}`),
      );
      const hookDir = join(ws.sandbox.home, ".cache", "devcontainer-lifecycle");
      expect(readFileSync(join(hookDir, "postStartCommand.sh"), "utf8")).toContain(
        "postStartCommand",
      );
      expect(existsSync(join(hookDir, "updateContentCommand.sh"))).toBe(false);
      expect(statusOf(ws)).toBe("0\n");
    });

    test("the first failing hook ends the script with its status, written to the status file", async () => {
      const ws = createWorkspace({ toolset });
      const log = join(ws.sandbox.root, "hooks.log");
      const run = await ws.run(hookEnv(log, { postCreateCommand: "exit 7\n" }));

      expect(run.exitCode).toBe(7);
      expect(statusOf(ws)).toBe("7\n");
      expect(run.output).toMatch(/postCreateCommand failed/);
      const ran = readFileSync(log, "utf8").trim().split("\n");
      expect(ran.map((line) => line.split(" ")[0])).toEqual([
        "initializeCommand",
        "onCreateCommand",
        "updateContentCommand",
      ]);
    });

    test("a stale status file from an earlier run is removed first", async () => {
      const ws = createWorkspace({ withGit: false, toolset });
      writeFileSync(ws.statusFile, "0\n");
      // Hold the script in a hook and look at the status file meanwhile.
      const observed = join(ws.sandbox.root, "observed");
      mkdirSync(ws.folder, { recursive: true });
      mkdirSync(join(ws.folder, ".git"));
      writeFileSync(join(ws.folder, ".git", "devcontainer-cloned"), "");
      const hook = `if [ -e ${shellQuote(ws.statusFile)} ]; then echo present; else echo absent; fi > ${shellQuote(observed)}\n`;
      const run = await ws.run({ DC_HOOK_ON_CREATE_COMMAND: base64(hook) });
      expect(run.exitCode).toBe(0);
      expect(readFileSync(observed, "utf8")).toBe("absent\n");
      expect(statusOf(ws)).toBe("0\n");
    });
  });
});

// Recovery and "never touched again" are git's work; BusyBox would only repeat them.
describe("with host tools", () => {
  const toolset: ImageToolset = "host";
  describe("lifecycle.sh: interrupted clones", () => {
    interface Interruption {
      readonly name: string;
      readonly step: "fetch" | "checkout";
      /** Shell code run once, instead of (or around) the real git at that step. */
      readonly action: string;
      readonly killed: boolean;
    }
    const interruptions: Interruption[] = [
      {
        name: "the fetch fails",
        step: "fetch",
        action: 'echo "fatal: simulated network failure" >&2; exit 128',
        killed: false,
      },
      {
        name: "the workspace stops during the fetch",
        step: "fetch",
        action: STOP_AFTER,
        killed: true,
      },
      {
        name: "the checkout fails",
        step: "checkout",
        action: 'echo "error: simulated checkout failure" >&2; exit 1',
        killed: false,
      },
      {
        name: "the workspace stops during the checkout, leaving a half-written file",
        step: "checkout",
        action: 'printf partial > README.md; kill -KILL "$PPID"; exit 137',
        killed: true,
      },
    ];

    test.each(interruptions)("$name: the next start recovers", async ({ step, action, killed }) => {
      const ws = createWorkspace({ toolset });
      stopOnceAt(ws, step, action);

      const first = await ws.run();
      if (killed) {
        expect(first.signal).toBe("SIGKILL");
        // A killed script leaves no status; the pod's /tmp would be gone anyway.
        expect(statusOf(ws)).toBeUndefined();
        expect(existsSync(join(ws.folder, ".git"))).toBe(true);
      } else {
        expect(first.exitCode).toBe(1);
        expect(statusOf(ws)).toBe("1\n");
        expect(existsSync(join(ws.folder, ".git"))).toBe(false);
      }
      expect(existsSync(join(ws.folder, ".git", "devcontainer-cloned"))).toBe(false);

      const second = await ws.run();

      expect(second.exitCode).toBe(0);
      expect(statusOf(ws)).toBe("0\n");
      if (killed) expect(second.output).toMatch(/interrupted clone/);
      expect(headOf(ws.folder)).toBe(ws.builtCommit);
      expect(readFileSync(join(ws.folder, "README.md"), "utf8")).toBe("built\n");
      expect(hostGit(ws.folder, ["status", "--porcelain"])).toBe("");
      expect(existsSync(join(ws.folder, ".git", "devcontainer-cloned"))).toBe(true);
    });
  });

  describe("lifecycle.sh: a working copy is never touched again", () => {
    test("local edits and another branch survive a rerun with a newer built commit", async () => {
      const ws = createWorkspace({ toolset });
      expect((await ws.run()).exitCode).toBe(0);
      writeFileSync(join(ws.folder, "NOTES.md"), "work in progress\n");
      const localHead = hostGitSteps(ws.folder, [
        ["checkout", "-q", "-b", "topic"],
        ["add", "NOTES.md"],
        ["commit", "-q", "-m", "local work"],
        ["rev-parse", "HEAD"],
      ]);
      writeFileSync(join(ws.folder, "README.md"), "edited, not committed\n");
      const rebuilt = ws.origin.commit("main", { "README.md": "rebuilt\n" }, "rebuild");
      recordGitCalls(ws);

      const run = await ws.run({ DC_COMMIT: rebuilt });

      expect(run.exitCode).toBe(0);
      expect(readRecordedCalls(ws.gitCalls)).toEqual([]);
      expect(hostGit(ws.folder, ["symbolic-ref", "--short", "HEAD"])).toBe("topic");
      expect(headOf(ws.folder)).toBe(localHead);
      expect(readFileSync(join(ws.folder, "README.md"), "utf8")).toBe("edited, not committed\n");
    });

    test("a working copy without the marker (an older template's clone) is kept and marked", async () => {
      const ws = createWorkspace({ toolset });
      mkdirSync(join(ws.sandbox.root, "workspaces"), { recursive: true });
      hostGit(join(ws.sandbox.root, "workspaces"), ["clone", "-q", ws.origin.url, ws.folder]);
      writeFileSync(join(ws.folder, "README.md"), "local edit\n");
      recordGitCalls(ws);

      const run = await ws.run();

      expect(run.exitCode).toBe(0);
      expect(existsSync(join(ws.folder, ".git", "devcontainer-cloned"))).toBe(true);
      expect(readFileSync(join(ws.folder, "README.md"), "utf8")).toBe("local edit\n");
      expect(readRecordedCalls(ws.gitCalls).map((argv) => argv[0])).not.toContain("fetch");
    });
  });
});

/** The marker this script's clone carries from before `git init` until it is finished. */
const IN_PROGRESS = join(".git", "devcontainer-clone-in-progress");

describeEachShell("with %s: nothing a working copy holds is lost", (toolset) => {
  /** A postStartCommand that leaves a file behind: proves the script ran to its end. */
  function hookRan(ws: Workspace): { env: Record<string, string>; file: string } {
    const file = join(ws.sandbox.root, "hook-ran");
    return {
      env: { DC_HOOK_POST_START_COMMAND: base64(`echo ran > ${shellQuote(file)}\n`) },
      file,
    };
  }

  /** Runs the script on a `.git` it did not create and checks that it kept it and went on. */
  async function expectKept(ws: Workspace, found: RegExp): Promise<void> {
    const hook = hookRan(ws);
    recordGitCalls(ws);
    const run = await ws.run(hook.env);
    expect(run.exitCode).toBe(0);
    expect(statusOf(ws)).toBe("0\n");
    expect(run.output).toMatch(found);
    expect(readFileSync(hook.file, "utf8")).toBe("ran\n");
    // Only questions: rev-parse and symbolic-ref -q.
    for (const argv of readRecordedCalls(ws.gitCalls))
      expect(argv[0] === "rev-parse" || (argv[0] === "symbolic-ref" && argv[1] === "-q")).toBe(
        true,
      );
  }

  test("an unborn branch with staged work is kept, not taken for an interrupted clone", async () => {
    const ws = createWorkspace({ toolset });
    mkdirSync(ws.folder, { recursive: true });
    writeFileSync(join(ws.folder, "draft.md"), "first draft\n");
    hostGitSteps(ws.folder, [
      ["init", "-q"],
      ["symbolic-ref", "HEAD", "refs/heads/start"],
      ["add", "draft.md"],
    ]);

    await expectKept(ws, /branch start has no commit yet; keeping it/);

    expect(hostGit(ws.folder, ["diff", "--cached", "--name-only"])).toBe("draft.md");
    expect(readFileSync(join(ws.folder, "draft.md"), "utf8")).toBe("first draft\n");
  });

  test("a repository with an extension the image's git does not know is kept", async () => {
    const ws = createWorkspace({ toolset });
    mkdirSync(join(ws.sandbox.root, "workspaces"), { recursive: true });
    hostGitSteps(join(ws.sandbox.root, "workspaces"), [
      ["clone", "-q", ws.origin.url, ws.folder],
      ["-C", ws.folder, "checkout", "-q", "-b", "local-only"],
      ["-C", ws.folder, "config", "core.repositoryformatversion", "1"],
      ["-C", ws.folder, "config", "extensions.notyetinvented", "true"],
    ]);
    writeFileSync(join(ws.folder, "README.md"), "uncommitted\n");
    const config = readFileSync(join(ws.folder, ".git", "config"), "utf8");

    await expectKept(ws, /cannot read \(.*notyetinvented.*\); keeping it/);

    expect(readFileSync(join(ws.folder, ".git", "config"), "utf8")).toBe(config);
    expect(readFileSync(join(ws.folder, ".git", "HEAD"), "utf8")).toBe(
      "ref: refs/heads/local-only\n",
    );
    expect(readFileSync(join(ws.folder, "README.md"), "utf8")).toBe("uncommitted\n");
  });

  test("a linked worktree (a .git file) is kept, and the script goes on to its hooks", async () => {
    const ws = createWorkspace({ toolset });
    const main = join(ws.sandbox.root, "main-clone");
    mkdirSync(join(ws.sandbox.root, "workspaces"), { recursive: true });
    hostGitSteps(ws.sandbox.root, [
      ["clone", "-q", ws.origin.url, main],
      ["-C", main, "worktree", "add", "-q", "-b", "topic", ws.folder],
    ]);
    writeFileSync(join(ws.folder, "README.md"), "uncommitted\n");
    const link = readFileSync(join(ws.folder, ".git"), "utf8");

    await expectKept(ws, /\.git is a file pointing at .*main-clone.* \(a linked worktree/);

    expect(readFileSync(join(ws.folder, ".git"), "utf8")).toBe(link);
    expect(hostGit(ws.folder, ["symbolic-ref", "--short", "HEAD"])).toBe("topic");
    expect(readFileSync(join(ws.folder, "README.md"), "utf8")).toBe("uncommitted\n");
  });

  test("an empty .git (a start stopped as it created it) is replaced by the clone", async () => {
    const ws = createWorkspace({ toolset });
    mkdirSync(join(ws.folder, ".git"), { recursive: true });
    const run = await ws.run();
    expect(run.exitCode).toBe(0);
    expect(headOf(ws.folder)).toBe(ws.builtCommit);
    expect(existsSync(join(ws.folder, IN_PROGRESS))).toBe(false);
  });

  /** A postStartCommand that leaves a file behind, and the git calls of this start. */
  async function startAgain(
    ws: Workspace,
    extra: Record<string, string> = {},
  ): Promise<{ run: ScriptRun; calls: string[][] }> {
    const hook = hookRan(ws);
    rmSync(hook.file, { force: true });
    rmSync(ws.gitCalls, { force: true });
    recordGitCalls(ws);
    const run = await ws.run({ ...hook.env, ...extra });
    if (run.exitCode === 0) expect(readFileSync(hook.file, "utf8")).toBe("ran\n");
    return { run, calls: readRecordedCalls(ws.gitCalls) };
  }

  /** Git calls that only ask: what a start may run on a working copy it keeps. */
  function onlyQuestions(calls: string[][]): void {
    const questions = ["rev-parse", "for-each-ref", "cat-file", "rev-list", "status"];
    for (const argv of calls)
      expect([
        argv,
        questions.includes(argv[0]) || (argv[0] === "symbolic-ref" && argv[1] === "-q"),
      ]).toEqual([argv, true]);
  }

  /** What a working copy holds, as git and the files say. */
  function contents(folder: string): Record<string, string> {
    return {
      head: readFileSync(join(folder, ".git", "HEAD"), "utf8"),
      refs: hostGit(folder, ["for-each-ref", "--format=%(refname) %(objectname)"]),
      reflog: hostGit(folder, ["log", "-g", "--format=%H %gs", "HEAD"]),
      // With its errors: files git cannot read are reported there, not as status lines.
      status: hostGitWithErrors(folder, ["status", "--porcelain", "--untracked-files=all"]),
      readme: existsSync(join(folder, "README.md"))
        ? readFileSync(join(folder, "README.md"), "utf8")
        : "(none)",
    };
  }

  test("the audit: a checkout that can never write one file keeps its partial copy once, and the user's branch, commit and edits survive every later start", async () => {
    const ws = createWorkspace({ toolset });
    const unwritable = commitUnwritableFile(ws.origin);
    const env = { DC_COMMIT: unwritable };
    // Start 1 is stopped as its checkout begins: start 2 retries, overwriting files in the way.
    stopOnceAt(ws, "checkout", STOP_BEFORE);
    expect((await ws.run(env)).signal).toBe("SIGKILL");

    const second = await startAgain(ws, env);

    expect(second.run.exitCode).toBe(1);
    expect(statusOf(ws)).toBe("1\n");
    expect(second.run.output).toMatch(/File name too long/);
    expect(second.run.output).toMatch(
      /checkout failed after it had set main and written part of the files/,
    );
    expect(second.run.output).toMatch(
      /keeping this partial working copy as yours; the clone is not retried/,
    );
    expect(second.calls).toContainEqual(["checkout", "-q", "-f", "-B", "main", unwritable]);
    expect(existsSync(join(ws.folder, IN_PROGRESS))).toBe(false);
    expect(existsSync(join(ws.folder, ".git", "devcontainer-cloned"))).toBe(true);
    expect(readFileSync(join(ws.folder, "README.md"), "utf8")).toBe("built\n");

    // Coder lets the user in after a failed start: a branch, a commit, edits.
    writeFileSync(join(ws.folder, "NOTES.md"), "committed work\n");
    const work = hostGitSteps(ws.folder, [
      ["checkout", "-q", "-b", "work"],
      ["add", "NOTES.md"],
      ["commit", "-q", "-m", "the user's work"],
      ["rev-parse", "HEAD"],
    ]);
    writeFileSync(join(ws.folder, "README.md"), "edited, not committed\n");
    writeFileSync(join(ws.folder, "scratch.txt"), "untracked\n");
    const before = contents(ws.folder);

    for (const start of [3, 4]) {
      const { run, calls } = await startAgain(ws, env);
      expect([start, run.exitCode, statusOf(ws)]).toEqual([start, 0, "0\n"]);
      expect(run.output).toMatch(/already cloned; leaving it as it is/);
      expect(calls).toEqual([]);
    }
    expect(contents(ws.folder)).toEqual(before);
    expect(headOf(ws.folder)).toBe(work);
    expect(hostGit(ws.folder, ["symbolic-ref", "--short", "HEAD"])).toBe("work");
    expect(readFileSync(join(ws.folder, "README.md"), "utf8")).toBe("edited, not committed\n");
    expect(readFileSync(join(ws.folder, "scratch.txt"), "utf8")).toBe("untracked\n");
  });

  test("after a stop during the fetch, the retry overwrites no file in the way, and a later start clones once it is moved", async () => {
    const ws = createWorkspace({ toolset });
    mkdirSync(ws.folder, { recursive: true });
    writeFileSync(join(ws.folder, "README.md"), "mine\n");
    stopOnceAt(ws, "fetch", STOP_AFTER);
    expect((await ws.run()).signal).toBe("SIGKILL");

    for (const start of [2, 3]) {
      const { run, calls } = await startAgain(ws);
      expect([start, run.exitCode]).toEqual([start, 1]);
      expect(run.output).toMatch(/README\.md/);
      expect(run.output).toMatch(/in the way are listed above/);
      expect(calls).toContainEqual(["checkout", "-q", "-B", "main", ws.builtCommit]);
      expect(readFileSync(join(ws.folder, "README.md"), "utf8")).toBe("mine\n");
      expect(existsSync(join(ws.folder, ".git"))).toBe(false);
    }

    rmSync(join(ws.folder, "README.md"));
    const { run } = await startAgain(ws);
    expect(run.exitCode).toBe(0);
    expect(headOf(ws.folder)).toBe(ws.builtCommit);
  });

  test.each<{ name: string; put: (folder: string) => void; listed: RegExp }>([
    {
      name: "a file where the checkout writes one (the folder is the user's home, say)",
      put: (folder) => writeFileSync(join(folder, "README.md"), "mine\n"),
      listed: /README\.md/,
    },
    {
      name: "a file where the checkout needs a directory",
      put: (folder) => writeFileSync(join(folder, ".devcontainer"), "mine\n"),
      listed: /\.devcontainer/,
    },
  ])(
    "after a stop as the checkout begins, with $name, the retry overwrites nothing of the user's",
    async ({ put, listed }) => {
      const ws = createWorkspace({ toolset });
      mkdirSync(ws.folder, { recursive: true });
      put(ws.folder);
      const before = readdirSync(ws.folder).map((name) => [
        name,
        readFileSync(join(ws.folder, name), "utf8"),
      ]);
      stopOnceAt(ws, "checkout", STOP_BEFORE);
      expect((await ws.run()).signal).toBe("SIGKILL");

      for (const start of [2, 3]) {
        const { run, calls } = await startAgain(ws);
        expect([start, run.exitCode]).toEqual([start, 1]);
        expect(run.output).toMatch(listed);
        expect(run.output).toMatch(/in the way are listed above/);
        expect(calls).toContainEqual(["checkout", "-q", "-B", "main", ws.builtCommit]);
        expect(existsSync(join(ws.folder, ".git"))).toBe(false);
        expect(
          readdirSync(ws.folder).map((name) => [name, readFileSync(join(ws.folder, name), "utf8")]),
        ).toEqual(before);
      }
    },
  );

  test.each([
    { name: "a stop during the fetch", step: "fetch", action: STOP_AFTER, force: [] },
    { name: "a stop as the checkout begins", step: "checkout", action: STOP_BEFORE, force: ["-f"] },
  ])(
    "$name, with nothing of the user's: the next start removes the clone and clones again",
    async ({ step, action, force }) => {
      const ws = createWorkspace({ toolset });
      stopOnceAt(ws, step, action);
      expect((await ws.run()).signal).toBe("SIGKILL");

      const { run, calls } = await startAgain(ws);

      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(
        /interrupted clone in .*, holding nothing but what it fetched; removing its \.git and cloning again/,
      );
      expect(calls).toEqual(
        expect.arrayContaining([
          ["init", "-q"],
          ["fetch", "origin", "+refs/heads/main:refs/remotes/origin/main"],
          ["checkout", "-q", ...force, "-B", "main", ws.builtCommit],
        ]),
      );
      expect(headOf(ws.folder)).toBe(ws.builtCommit);
      expect(hostGit(ws.folder, ["status", "--porcelain"])).toBe("");
      expect(existsSync(join(ws.folder, IN_PROGRESS))).toBe(false);
    },
  );

  /** A finished clone turned back into one in progress, as an earlier version left it. */
  async function leftInProgress(ws: Workspace): Promise<void> {
    expect((await ws.run()).exitCode).toBe(0);
    rmSync(join(ws.folder, ".git", "devcontainer-cloned"));
    writeFileSync(join(ws.folder, IN_PROGRESS), "");
  }

  test("a clone left in progress with its checkout complete and nothing added is finished in place", async () => {
    const ws = createWorkspace({ toolset });
    await leftInProgress(ws);
    writeFileSync(join(ws.folder, "untracked.txt"), "kept\n");
    hostGit(ws.folder, ["branch", "-q", "--unset-upstream"]);

    const { run, calls } = await startAgain(ws);

    expect(run.exitCode).toBe(0);
    expect(run.output).toMatch(/checkout complete and nothing added; finishing it/);
    expect(calls.map((argv) => argv[0])).not.toContain("init");
    expect(calls.map((argv) => argv[0])).not.toContain("checkout");
    expect(hostGit(ws.folder, ["rev-parse", "--abbrev-ref", "main@{upstream}"])).toBe(
      "origin/main",
    );
    expect(readFileSync(join(ws.folder, "untracked.txt"), "utf8")).toBe("kept\n");
    expect(existsSync(join(ws.folder, IN_PROGRESS))).toBe(false);
    expect(existsSync(join(ws.folder, ".git", "devcontainer-cloned"))).toBe(true);
  });

  test.each<{ name: string; found: RegExp; work: (ws: Workspace) => void }>([
    {
      name: "another branch",
      found: /holds branch work/,
      work: (ws) => hostGit(ws.folder, ["checkout", "-q", "-b", "work"]),
    },
    {
      name: "a commit on the branch",
      found: /holds commits that were not fetched/,
      work: (ws) => {
        writeFileSync(join(ws.folder, "NOTES.md"), "notes\n");
        hostGitSteps(ws.folder, [
          ["add", "NOTES.md"],
          ["commit", "-q", "-m", "mine"],
        ]);
      },
    },
    {
      name: "a commit only the reflog still names",
      found: /holds commits that were not fetched/,
      work: (ws) =>
        hostGitSteps(ws.folder, [
          ["commit", "-q", "--allow-empty", "-m", "mine"],
          ["reset", "-q", "--hard", ws.builtCommit],
        ]),
    },
    {
      name: "a stash",
      found: /holds refs\/stash, commits that were not fetched/,
      work: (ws) => {
        writeFileSync(join(ws.folder, "README.md"), "stashed\n");
        hostGit(ws.folder, ["stash", "-q"]);
      },
    },
    {
      name: "an edit of a tracked file",
      found: /holds uncommitted changes/,
      work: (ws) => writeFileSync(join(ws.folder, "README.md"), "edited\n"),
    },
    {
      name: "a deleted tracked file",
      found: /holds uncommitted changes/,
      work: (ws) => rmSync(join(ws.folder, "README.md")),
    },
    {
      name: "a staged new file",
      found: /holds uncommitted changes/,
      work: (ws) => {
        writeFileSync(join(ws.folder, "NEW.md"), "new\n");
        hostGit(ws.folder, ["add", "NEW.md"]);
      },
    },
    {
      name: "a detached HEAD",
      found: /holds a detached HEAD/,
      work: (ws) => hostGit(ws.folder, ["checkout", "-q", "--detach"]),
    },
  ])(
    "a clone an earlier version left in progress, holding $name, is kept as the user's working copy and not cloned again",
    async ({ found, work }) => {
      const ws = createWorkspace({ toolset });
      await leftInProgress(ws);
      work(ws);
      const before = contents(ws.folder);

      const { run, calls } = await startAgain(ws);

      expect(run.exitCode).toBe(0);
      expect(statusOf(ws)).toBe("0\n");
      expect(run.output).toMatch(found);
      expect(run.output).toMatch(
        /keeping it as your working copy: the clone is not retried and nothing in it is changed/,
      );
      onlyQuestions(calls);
      expect(contents(ws.folder)).toEqual(before);
      expect(existsSync(join(ws.folder, IN_PROGRESS))).toBe(false);
      expect(existsSync(join(ws.folder, ".git", "devcontainer-cloned"))).toBe(true);

      const again = await startAgain(ws);
      expect(again.run.exitCode).toBe(0);
      expect(again.run.output).toMatch(/already cloned/);
      expect(again.calls).toEqual([]);
      expect(contents(ws.folder)).toEqual(before);
    },
  );
});

// What a stop leaves is git's state and the image's tools' (mkdir, rmdir, rm): the host's and
// BusyBox's. bash runs the other paths above.
describeEachToolset("with %s tools: a stopped clone", (toolset) => {
  // The script's own process: the topmost ancestor running lifecycle.sh (git may run in a
  // command substitution's subshell).
  const killScript = [
    "p=$PPID; top=",
    'while [ "$p" -gt 1 ] && grep -q lifecycle.sh /proc/$p/cmdline 2>/dev/null; do',
    "  top=$p",
    '  while read -r key value; do [ "$key" = PPid: ] && p=$value && break; done < /proc/$p/status',
    "done",
    'kill -KILL "$top"; exit 137',
  ].join("\n");

  /**
   * Each start counts its own git calls; it is stopped at call $KILL_AT_GIT_CALL, before the
   * real git runs when $KILL_BEFORE is set, else right after; or right after its first
   * `git $KILL_AFTER`. The stopped call's first two arguments go to the returned file.
   */
  function stoppingGit(ws: Workspace): string {
    const count = join(ws.sandbox.root, "git-call-count");
    const stopped = join(ws.sandbox.root, "stopped-at");
    writeFakeExecutable(
      ws.sandbox.fakeBin,
      "git",
      [
        `real=${shellQuote(hostTool("git"))}`,
        `n=0; [ ! -e ${shellQuote(count)} ] || read -r n < ${shellQuote(count)}`,
        `n=$((n + 1)); echo "$n" > ${shellQuote(count)}`,
        'if [ "$n" = "${KILL_AT_GIT_CALL-}" ] || [ "$1" = "${KILL_AFTER-}" ]; then',
        '  if [ -n "${KILL_BEFORE-}" ]; then at=before; else at=after; "$real" "$@"; fi',
        `  echo "$at $1 $2" > ${shellQuote(stopped)}`,
        killScript.replace(/^/gm, "  "),
        "fi",
        'exec "$real" "$@"',
      ].join("\n"),
    );
    return stopped;
  }

  /**
   * Runs starts until one is not stopped: the first with `first`, then start n stopped at
   * its own git call n. Returns where each was stopped, and the last run.
   */
  async function stopAtEachCall(
    ws: Workspace,
    first: Record<string, string>,
    kept: string,
  ): Promise<{ stops: string[]; run: ScriptRun }> {
    const stopped = stoppingGit(ws);
    const count = join(ws.sandbox.root, "git-call-count");
    const stops: string[] = [];
    for (let start = 0; ; start++) {
      rmSync(count, { force: true });
      const run = await ws.run(start === 0 ? first : { KILL_AT_GIT_CALL: `${start}` });
      if (run.signal !== "SIGKILL" || start > 30) return { stops, run };
      stops.push(readFileSync(stopped, "utf8").trim());
      expect(readFileSync(kept, "utf8")).toBe("kept\n");
      // Whatever was left is marked as this script's, finished or not.
      expect([
        stops.at(-1),
        existsSync(join(ws.folder, IN_PROGRESS)) ||
          existsSync(join(ws.folder, ".git", "devcontainer-cloned")),
      ]).toEqual([stops.at(-1), true]);
    }
  }

  /** A volume mounted inside the folder, with content the clone must keep. */
  function volumeIn(ws: Workspace): string {
    const kept = join(ws.folder, "node_modules", "pkg", "index.js");
    mkdirSync(join(kept, ".."), { recursive: true });
    writeFileSync(kept, "kept\n");
    return kept;
  }

  function expectCloned(ws: Workspace, run: ScriptRun, kept: string): void {
    expect(run.exitCode).toBe(0);
    expect(statusOf(ws)).toBe("0\n");
    expect(
      hostGit(ws.folder, ["status", "--porcelain=2", "--branch", "--untracked-files=no"]),
    ).toBe(
      `# branch.oid ${ws.builtCommit}\n# branch.head main\n# branch.upstream origin/main\n# branch.ab +0 -0`,
    );
    expect(readFileSync(join(ws.folder, "README.md"), "utf8")).toBe("built\n");
    expect(existsSync(join(ws.folder, ".git", "devcontainer-cloned"))).toBe(true);
    expect(existsSync(join(ws.folder, IN_PROGRESS))).toBe(false);
    expect(readFileSync(kept, "utf8")).toBe("kept\n");
  }

  // The questions an interrupted clone is asked before it is removed: while .git is not a
  // repository yet, then with no branch yet.
  const notRepository = ["after symbolic-ref -q"];
  const noBranch = [
    "after symbolic-ref -q",
    "after for-each-ref --format=%(refname)",
    "after cat-file -e",
    "after rev-list -n",
  ];

  test("starts stopped before or after each git step of the clone in turn: the last one clones, nothing else is lost", async () => {
    const ws = createWorkspace({ toolset });
    const kept = volumeIn(ws);

    // The first start is stopped before its first git call (git init), the next one after
    // its first, the next after its second, and so on: one start per step. The questions
    // asked of an interrupted clone come first, so a start is stopped among them too.
    const { stops, run } = await stopAtEachCall(
      ws,
      { KILL_AT_GIT_CALL: "1", KILL_BEFORE: "1" },
      kept,
    );

    expect(stops).toEqual([
      "before init -q",
      ...notRepository,
      "after init -q",
      // Start n is stopped after its call n: start 3 at the third question, start 4 at the
      // fourth, start 5 after the init that follows them.
      ...noBranch.slice(2),
      "after init -q",
      "after symbolic-ref HEAD",
      "after remote add",
      "after fetch origin",
      // Now the built commit is there: the question about it is asked and answered.
      "after cat-file -e",
      // The question whether anything stands where the checkout writes (ls-tree).
      "after -c core.quotePath=false",
      "after checkout -q",
    ]);
    expectCloned(ws, run, kept);
  });

  test("starts stopped after the checkout, then at each git step that finishes it: the last one finishes it in place", async () => {
    const ws = createWorkspace({ toolset });
    const kept = volumeIn(ws);

    const { stops, run } = await stopAtEachCall(ws, { KILL_AFTER: "checkout" }, kept);

    expect(stops).toEqual([
      "after checkout -q",
      ...noBranch,
      "after status --porcelain",
      "after branch -q",
      "after rev-parse --short",
    ]);
    expectCloned(ws, run, kept);
  });
});

// The branch reaches git in argv and refspecs: under every shell an image may bring.
describeEachShell("with %s: the branch parameter", (toolset) => {
  test("never hands git a branch that is not a branch name git allows (issue 43.8)", async () => {
    const marker = join(dirs.make("dc-upload-pack"), "upload-pack-ran");
    const hostile = [
      `--upload-pack=touch ${marker}`,
      `main\n--upload-pack=touch ${marker}`,
      "main:refs/heads/other",
      "*",
      "a..b",
      "x.lock",
      "HEAD",
      "feature/",
      "main\x1b[31m",
    ];
    for (const branch of hostile) {
      const ws = createWorkspace({ toolset });
      recordGitCalls(ws);
      const run = await ws.run({ DC_BRANCH: branch });
      expect({ branch, exitCode: run.exitCode }).toEqual({ branch, exitCode: 1 });
      expect(run.output).toContain("is not a branch name git allows; not cloning");
      // Nothing reached git, and the log shows no control character.
      expect(readRecordedCalls(ws.gitCalls)).toEqual([]);
      expect([...run.output].filter((c) => c < " " && c !== "\n")).toEqual([]);
      expect(existsSync(join(ws.folder, ".git"))).toBe(false);
    }
    expect(existsSync(marker)).toBe(false);
    // Names git allows still clone.
    const ws = createWorkspace({ toolset });
    ws.origin.commit("feature/über-@x.1", { "README.md": "odd\n" }, "an odd name");
    const run = await ws.run({ DC_BRANCH: "feature/über-@x.1", DC_COMMIT: "" });
    expect(run.exitCode).toBe(0);
    expect(hostGit(ws.folder, ["symbolic-ref", "--short", "HEAD"])).toBe("feature/über-@x.1");
  });
});
