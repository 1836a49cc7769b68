/**
 * post-attach.sh (coder_script "devcontainer_post_attach"): waits for the lifecycle script's
 * status file, then runs postAttachCommand only after a success. Timeouts are injected.
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
        script: scriptPath("post-attach.sh"),
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
  describe("post-attach.sh", () => {
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
