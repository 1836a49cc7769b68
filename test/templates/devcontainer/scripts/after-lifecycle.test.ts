/**
 * after-lifecycle.sh (coder_scripts "devcontainer_lifecycle_background" and
 * "devcontainer_post_attach"): waits for the lifecycle script's status file, then runs its
 * hooks in order, only after a success. Timeouts are injected.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runScript, ScriptRun, tempDirs } from "../../../support/run-script";
import {
  describeEachToolset,
  base64,
  createImageSandbox,
  ImageSandbox,
  ImageToolset,
  scriptPath,
} from "./helpers";

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

interface Attach {
  readonly sandbox: ImageSandbox;
  readonly folder: string;
  readonly statusFile: string;
  /** Written by the hook: its working directory. */
  readonly hookLog: string;
  run(extra?: Readonly<Record<string, string>>): Promise<ScriptRun>;
}

function createAttach(toolset: ImageToolset): Attach {
  const sandbox = createImageSandbox(dirs, { withGit: false, toolset });
  const folder = join(sandbox.root, "workspaces", "app");
  mkdirSync(folder, { recursive: true });
  const statusFile = join(sandbox.root, "devcontainer-lifecycle.status");
  const hookLog = join(sandbox.root, "post-attach.log");
  return {
    sandbox,
    folder,
    statusFile,
    hookLog,
    run(extra = {}) {
      return runScript({
        script: scriptPath("after-lifecycle.sh"),
        shell: sandbox.shell,
        env: sandbox.env({
          DC_WORKSPACE_FOLDER: folder,
          DC_HOOK_POST_ATTACH_COMMAND: base64('pwd > "$HOOK_LOG"\nexit 3\n'),
          DC_STATUS_FILE: statusFile,
          DC_WAIT_TIMEOUT_SECONDS: "1",
          DC_WAIT_INTERVAL_SECONDS: "0.1",
          HOOK_LOG: hookLog,
          ...extra,
        }),
        timeoutMs: 5000,
      });
    },
  };
}

describeEachToolset("with %s tools", (toolset) => {
  describe("after-lifecycle.sh with postAttachCommand", () => {
    test("without a hook it exits 0 at once, without waiting", async () => {
      const attach = createAttach(toolset);
      const run = await attach.run({
        DC_HOOK_POST_ATTACH_COMMAND: "",
        DC_WAIT_TIMEOUT_SECONDS: "30",
      });
      expect(run.exitCode).toBe(0);
      expect(run.output).toBe("");
      expect(run.durationMs).toBeLessThan(2000);
    });

    test("after status 0 it runs the hook from the workspace folder and exits with its status", async () => {
      const attach = createAttach(toolset);
      writeFileSync(attach.statusFile, "0\n");
      const run = await attach.run();
      expect(run.exitCode).toBe(3);
      expect(readFileSync(attach.hookLog, "utf8")).toBe(`${attach.folder}\n`);
      const hookFile = join(
        attach.sandbox.home,
        ".cache",
        "devcontainer-lifecycle",
        "postAttachCommand.sh",
      );
      expect(readFileSync(hookFile, "utf8")).toContain('pwd > "$HOOK_LOG"');
    });

    test("waits for a status that arrives later", async () => {
      const attach = createAttach(toolset);
      const pending = attach.run({ DC_WAIT_TIMEOUT_SECONDS: "4" });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(existsSync(attach.hookLog)).toBe(false);
      writeFileSync(attach.statusFile, "0\n");
      const run = await pending;
      expect(run.output).toMatch(/waiting/);
      expect(readFileSync(attach.hookLog, "utf8")).toBe(`${attach.folder}\n`);
    });

    test("a non-zero status means the hook does not run, and exit 1", async () => {
      const attach = createAttach(toolset);
      writeFileSync(attach.statusFile, "2\n");
      const run = await attach.run();
      expect(run.exitCode).toBe(1);
      expect(run.output).toMatch(/lifecycle script failed/);
      expect(run.output).toContain("2");
      expect(existsSync(attach.hookLog)).toBe(false);
    });

    test("gives up after the timeout with exit 1, and an empty status file does not count", async () => {
      const attach = createAttach(toolset);
      writeFileSync(attach.statusFile, "");
      const run = await attach.run();
      expect(run.exitCode).toBe(1);
      expect(run.output).toMatch(/did not finish within 1 seconds/);
      expect(existsSync(attach.hookLog)).toBe(false);
      expect(run.durationMs).toBeGreaterThanOrEqual(1000);
      expect(run.durationMs).toBeLessThan(4000);
    });

    // Issue 43.7: when waitFor makes postAttachCommand block login, the template gives the
    // script lifecycle_timeout_minutes as DC_ATTACH_TIMEOUT_SECONDS.
    test("ends a postAttachCommand that never returns at the timeout, with its children, and the state says so", async () => {
      const attach = createAttach(toolset);
      writeFileSync(attach.statusFile, "0\n");
      const stateFile = join(attach.sandbox.root, "post-attach.state");
      const childPid = join(attach.sandbox.root, "child.pid");
      const run = await attach.run({
        DC_HOOK_POST_ATTACH_COMMAND: base64(
          'pwd > "$HOOK_LOG"\nsleep 30 &\necho $! > "$CHILD_PID"\nwhile :; do sleep 1; done\n',
        ),
        DC_ATTACH_TIMEOUT_SECONDS: "2",
        DC_STATE_FILE: stateFile,
        CHILD_PID: childPid,
      });
      expect(run.exitCode).toBe(1);
      expect(readFileSync(attach.hookLog, "utf8")).toBe(`${attach.folder}\n`);
      expect(run.output).toMatch(/postAttachCommand did not finish within 2 seconds/);
      expect(readFileSync(stateFile, "utf8")).toBe(
        "postAttachCommand timed out after 2 seconds (lifecycle_timeout_minutes) and was ended; login no longer waits for it\n",
      );
      expect(run.durationMs).toBeLessThan(4500);
      // The hook's own background child went with it: gone, or a zombie its new parent has
      // not reaped yet (which kill -0 still finds).
      const pid = Number(readFileSync(childPid, "utf8"));
      const stat = `/proc/${pid}/stat`;
      const state = existsSync(stat) ? readFileSync(stat, "utf8").split(") ")[1][0] : "gone";
      expect(["gone", "Z", "X"]).toContain(state);
    });

    test("with a timeout, a hook that finishes in time keeps its exit status", async () => {
      const attach = createAttach(toolset);
      writeFileSync(attach.statusFile, "0\n");
      const stateFile = join(attach.sandbox.root, "post-attach.state");
      const run = await attach.run({ DC_ATTACH_TIMEOUT_SECONDS: "3", DC_STATE_FILE: stateFile });
      expect(run.exitCode).toBe(3);
      expect(readFileSync(attach.hookLog, "utf8")).toBe(`${attach.folder}\n`);
      expect(readFileSync(stateFile, "utf8")).toMatch(
        /^postAttachCommand failed with exit status 3/,
      );
      expect(run.durationMs).toBeLessThan(2500);
    });

    test("with a timeout, waiting for the lifecycle script counts against it", async () => {
      const attach = createAttach(toolset);
      const stateFile = join(attach.sandbox.root, "post-attach.state");
      const run = await attach.run({
        DC_WAIT_TIMEOUT_SECONDS: "30",
        DC_ATTACH_TIMEOUT_SECONDS: "1",
        DC_STATE_FILE: stateFile,
      });
      expect(run.exitCode).toBe(1);
      expect(existsSync(attach.hookLog)).toBe(false);
      expect(readFileSync(stateFile, "utf8")).toBe(
        "not run: timed out after 1 seconds (lifecycle_timeout_minutes) waiting for the lifecycle script\n",
      );
      expect(run.durationMs).toBeLessThan(3500);
    });

    test("follows a real lifecycle run", async () => {
      const attach = createAttach(toolset);
      // The folder is already a finished clone, so lifecycle.sh needs no git.
      mkdirSync(join(attach.folder, ".git"));
      writeFileSync(join(attach.folder, ".git", "devcontainer-cloned"), "");
      const env = attach.sandbox.env({
        DC_WORKSPACE_FOLDER: attach.folder,
        DC_REPOSITORY: "https://git.example.test/acme/app.git",
        DC_BRANCH: "main",
        DC_COMMIT: "",
        DC_STATUS_FILE: attach.statusFile,
      });
      const lifecycle = await runScript({
        script: scriptPath("lifecycle.sh"),
        shell: attach.sandbox.shell,
        env,
      });
      expect(lifecycle.exitCode).toBe(0);
      const run = await attach.run();
      expect(run.exitCode).toBe(3);
      expect(readFileSync(attach.hookLog, "utf8")).toBe(`${attach.folder}\n`);
    });
  });
});

/** A hook that appends its name and working directory to $HOOK_LOG, then exits with `status`. */
function recordingHook(name: string, status = 0): string {
  return base64(`printf '%s %s\\n' ${name} "$(pwd)" >> "$HOOK_LOG"\nexit ${status}\n`);
}

/**
 * A postStartCommand that starts a dev server in the foreground: it runs until the test writes
 * $STOP (or 20 s pass), so no process outlives the test.
 */
const FOREVER_HOOK = base64(
  'echo started >> "$HOOK_LOG"\ni=0\nuntil [ -e "$STOP" ] || [ "$i" -ge 200 ]; do sleep 0.1; i=$((i + 1)); done\n',
);

describeEachToolset("with %s tools", (toolset) => {
  describe("after-lifecycle.sh with the hooks after waitFor", () => {
    test("runs updateContent, postCreate and postStart in order from the workspace folder, recording its state", async () => {
      const attach = createAttach(toolset);
      const stateFile = join(attach.sandbox.root, "background.state");
      writeFileSync(attach.statusFile, "0\n");
      const run = await attach.run({
        DC_HOOK_POST_ATTACH_COMMAND: "",
        DC_HOOK_UPDATE_CONTENT_COMMAND: recordingHook("updateContentCommand"),
        DC_HOOK_POST_CREATE_COMMAND: recordingHook("postCreateCommand"),
        DC_HOOK_POST_START_COMMAND: recordingHook("postStartCommand"),
        DC_STATE_FILE: stateFile,
        DC_LOG_NAME: "devcontainer-background",
      });
      expect(run.exitCode).toBe(0);
      expect(readFileSync(attach.hookLog, "utf8")).toBe(
        ["updateContentCommand", "postCreateCommand", "postStartCommand"]
          .map((hook) => `${hook} ${attach.folder}\n`)
          .join(""),
      );
      expect(run.output).toMatch(/^devcontainer-background: running postCreateCommand$/m);
      expect(readFileSync(stateFile, "utf8")).toBe("done\n");
    });

    test("stops at the first failing hook with its status, and the state says which failed", async () => {
      const attach = createAttach(toolset);
      const stateFile = join(attach.sandbox.root, "background.state");
      writeFileSync(attach.statusFile, "0\n");
      const run = await attach.run({
        DC_HOOK_POST_ATTACH_COMMAND: "",
        DC_HOOK_POST_CREATE_COMMAND: recordingHook("postCreateCommand", 7),
        DC_HOOK_POST_START_COMMAND: recordingHook("postStartCommand"),
        DC_STATE_FILE: stateFile,
      });
      expect(run.exitCode).toBe(7);
      expect(readFileSync(attach.hookLog, "utf8")).toBe(`postCreateCommand ${attach.folder}\n`);
      expect(readFileSync(stateFile, "utf8")).toMatch(
        /^postCreateCommand failed with exit status 7/,
      );
    });

    test("after a failed lifecycle script nothing runs and the state says why", async () => {
      const attach = createAttach(toolset);
      const stateFile = join(attach.sandbox.root, "background.state");
      writeFileSync(attach.statusFile, "1\n");
      const run = await attach.run({
        DC_HOOK_POST_ATTACH_COMMAND: "",
        DC_HOOK_POST_START_COMMAND: recordingHook("postStartCommand"),
        DC_STATE_FILE: stateFile,
      });
      expect(run.exitCode).toBe(1);
      expect(existsSync(attach.hookLog)).toBe(false);
      expect(readFileSync(stateFile, "utf8")).toBe("not run: the lifecycle script failed\n");
    });

    test("a postStartCommand that never ends holds neither the login-blocking script nor postAttachCommand", async () => {
      const attach = createAttach(toolset);
      mkdirSync(join(attach.folder, ".git"));
      writeFileSync(join(attach.folder, ".git", "devcontainer-cloned"), "");
      const stop = join(attach.sandbox.root, "stop");
      const stateFile = join(attach.sandbox.root, "background.state");
      // The template's split for the default waitFor (updateContentCommand): onCreate and
      // updateContent before login, postCreate and postStart after.
      const lifecycle = await runScript({
        script: scriptPath("lifecycle.sh"),
        shell: attach.sandbox.shell,
        env: attach.sandbox.env({
          DC_WORKSPACE_FOLDER: attach.folder,
          DC_REPOSITORY: "https://git.example.test/acme/app.git",
          DC_BRANCH: "main",
          DC_COMMIT: "",
          DC_STATUS_FILE: attach.statusFile,
          DC_HOOK_ON_CREATE_COMMAND: recordingHook("onCreateCommand"),
          DC_HOOK_UPDATE_CONTENT_COMMAND: recordingHook("updateContentCommand"),
          DC_HOOK_POST_CREATE_COMMAND: "",
          DC_HOOK_POST_START_COMMAND: "",
          HOOK_LOG: attach.hookLog,
        }),
      });
      expect(lifecycle.exitCode).toBe(0);
      const background = attach.run({
        DC_HOOK_POST_ATTACH_COMMAND: "",
        DC_HOOK_POST_CREATE_COMMAND: recordingHook("postCreateCommand"),
        DC_HOOK_POST_START_COMMAND: FOREVER_HOOK,
        DC_STATE_FILE: stateFile,
        STOP: stop,
        DC_WAIT_TIMEOUT_SECONDS: "30",
      });
      try {
        const postAttach = await attach.run({
          DC_HOOK_POST_ATTACH_COMMAND: recordingHook("postAttachCommand"),
          DC_WAIT_TIMEOUT_SECONDS: "30",
        });
        expect(postAttach.exitCode).toBe(0);
        // postAttach is done while postStart still runs.
        expect(readFileSync(stateFile, "utf8")).toMatch(/^(running|waiting)/);
        const log = readFileSync(attach.hookLog, "utf8");
        expect(log).toContain(`postAttachCommand ${attach.folder}\n`);
        expect(log.startsWith(`onCreateCommand ${attach.folder}\nupdateContentCommand `)).toBe(
          true,
        );
      } finally {
        writeFileSync(stop, "");
      }
      const run = await background;
      expect(run.exitCode).toBe(0);
      expect(readFileSync(attach.hookLog, "utf8")).toMatch(
        /postCreateCommand .*\n(.*\n)*started\n/,
      );
      expect(readFileSync(stateFile, "utf8")).toBe("done\n");
    });

    test("without any hook it records none and exits at once", async () => {
      const attach = createAttach(toolset);
      const stateFile = join(attach.sandbox.root, "background.state");
      const run = await attach.run({
        DC_HOOK_POST_ATTACH_COMMAND: "",
        DC_STATE_FILE: stateFile,
        DC_WAIT_TIMEOUT_SECONDS: "30",
      });
      expect(run.exitCode).toBe(0);
      expect(run.output).toBe("");
      expect(readFileSync(stateFile, "utf8")).toBe("none\n");
    });
  });
});
