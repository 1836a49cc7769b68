/**
 * waitFor through the template's Terraform (mock providers), then the planned scripts run for
 * real: the hooks up to waitFor go to the login-blocking lifecycle script, the later ones (up to
 * postStartCommand) to the non-blocking background script, postAttachCommand to its own, which
 * blocks login only when waitFor names it. A bad waitFor is a build-log warning and the default.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PlanResult } from "@coder-cdktf/terraform-harness";
import { BACKGROUND_STATE_FILE, POST_ATTACH_STATE_FILE } from "../../../lib/devcontainer/scripts";
import { runScript, tempDirs } from "../../support/run-script";
import { BadInputPlanner } from "./bad-inputs";
import { createImageSandbox } from "./scripts/helpers";
import { metadata, scriptInput, withScriptInputs } from "./synthesized";

jest.setTimeout(120_000);

const dirs = tempDirs();

/** Each hook appends its name to $HOOK_LOG; postStartCommand runs until $STOP exists. */
const HOOKS: Record<string, string> = {
  initializeCommand: 'echo initializeCommand >> "$HOOK_LOG"\n',
  onCreateCommand: 'echo onCreateCommand >> "$HOOK_LOG"\n',
  updateContentCommand: 'echo updateContentCommand >> "$HOOK_LOG"\n',
  postCreateCommand: 'echo postCreateCommand >> "$HOOK_LOG"\n',
  postStartCommand:
    'echo postStartCommand >> "$HOOK_LOG"\ni=0\nuntil [ -e "$STOP" ] || [ "$i" -ge 300 ]; do sleep 0.1; i=$((i + 1)); done\n',
  postAttachCommand: 'echo postAttachCommand >> "$HOOK_LOG"\n',
};

const VARIABLE_OF: Record<string, string> = {
  initializeCommand: "DC_HOOK_INITIALIZE_COMMAND",
  onCreateCommand: "DC_HOOK_ON_CREATE_COMMAND",
  updateContentCommand: "DC_HOOK_UPDATE_CONTENT_COMMAND",
  postCreateCommand: "DC_HOOK_POST_CREATE_COMMAND",
  postStartCommand: "DC_HOOK_POST_START_COMMAND",
  postAttachCommand: "DC_HOOK_POST_ATTACH_COMMAND",
};

const CASES = {
  unset: undefined,
  onCreateCommand: "onCreateCommand",
  updateContentCommand: "updateContentCommand",
  postCreateCommand: "postCreateCommand",
  postStartCommand: "postStartCommand",
  postAttachCommand: "postAttachCommand",
  unknownHook: "initializeCommand",
  notAString: 7,
} as const;
type CaseName = keyof typeof CASES;

/** The hooks each script gets for a waitFor (what a user of the Dev Containers tools gets). */
const EXPECTED: Record<CaseName, { blocking: string[]; background: string[] }> = {
  unset: {
    blocking: ["initializeCommand", "onCreateCommand", "updateContentCommand"],
    background: ["postCreateCommand", "postStartCommand"],
  },
  onCreateCommand: {
    blocking: ["initializeCommand", "onCreateCommand"],
    background: ["updateContentCommand", "postCreateCommand", "postStartCommand"],
  },
  updateContentCommand: {
    blocking: ["initializeCommand", "onCreateCommand", "updateContentCommand"],
    background: ["postCreateCommand", "postStartCommand"],
  },
  postCreateCommand: {
    blocking: ["initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand"],
    background: ["postStartCommand"],
  },
  postStartCommand: {
    blocking: Object.keys(HOOKS).slice(0, 5),
    background: [],
  },
  postAttachCommand: {
    blocking: Object.keys(HOOKS).slice(0, 5),
    background: [],
  },
  unknownHook: {
    blocking: ["initializeCommand", "onCreateCommand", "updateContentCommand"],
    background: ["postCreateCommand", "postStartCommand"],
  },
  notAString: {
    blocking: ["initializeCommand", "onCreateCommand", "updateContentCommand"],
    background: ["postCreateCommand", "postStartCommand"],
  },
};

/** The hooks a planned script carries (non-empty base64 inputs), decoded back to names. */
function hooksIn(script: string): string[] {
  return Object.entries(VARIABLE_OF)
    .filter(([, variable]) => (scriptInput(script, variable) ?? "") !== "")
    .map(([hook, variable]) => {
      expect(Buffer.from(scriptInput(script, variable)!, "base64").toString("utf8")).toBe(
        HOOKS[hook],
      );
      return hook;
    });
}

describe("devcontainer template: waitFor", () => {
  let planner: BadInputPlanner;
  const plans = {} as Record<CaseName, PlanResult>;

  beforeAll(async () => {
    planner = await BadInputPlanner.start();
    const names = Object.keys(CASES) as CaseName[];
    const planned = await Promise.all(
      planner.planMany(
        names.map((name) => ({
          metadata: metadata({
            lifecycle_scripts: HOOKS,
            configuration_json: JSON.stringify(
              CASES[name] === undefined ? {} : { waitFor: CASES[name] },
            ),
          }),
        })),
      ),
    );
    names.forEach((name, n) => (plans[name] = planned[n].plan));
  });
  afterAll(async () => {
    await planner?.stop();
    dirs.cleanup();
  });

  const script = (name: CaseName, resource: string) =>
    String(plans[name].resource(`coder_script.${resource}[0]`).after.script);

  it.each(Object.keys(CASES) as CaseName[])(
    "waitFor %s: the hooks up to it block login, the later ones run after login in order",
    (name) => {
      expect(hooksIn(script(name, "devcontainer_lifecycle"))).toEqual(EXPECTED[name].blocking);
      expect(hooksIn(script(name, "devcontainer_lifecycle_background"))).toEqual(
        EXPECTED[name].background,
      );
      expect(hooksIn(script(name, "devcontainer_post_attach"))).toEqual(["postAttachCommand"]);
      const blocks = (resource: string) =>
        plans[name].resource(`coder_script.${resource}[0]`).after.start_blocks_login;
      expect(blocks("devcontainer_lifecycle")).toBe(true);
      expect(blocks("devcontainer_lifecycle_background")).toBe(false);
      expect(blocks("devcontainer_post_attach")).toBe(name === "postAttachCommand");
    },
  );

  it("a waitFor that is no hook it can name is a build-log warning naming the value, never a failed plan", () => {
    const warningsOf = (name: CaseName) =>
      plans[name].checkFailures().filter((m) => m.includes("waitFor"));
    expect(warningsOf("unknownHook").join("\n")).toMatch(
      /waitFor "initializeCommand" is not one of onCreateCommand, .*postAttachCommand; login waits for updateContentCommand/,
    );
    expect(warningsOf("notAString").join("\n")).toMatch(/waitFor 7 is not one of/);
    expect(warningsOf("unset")).toEqual([]);
    expect(warningsOf("postStartCommand")).toEqual([]);
  });

  // Issue 43.7: a login-blocking postAttachCommand had no timeout.
  it("gives a login-blocking postAttachCommand lifecycle_timeout_minutes (agent and script), and one after login none", async () => {
    const attach = (plan: PlanResult) =>
      plan.resource("coder_script.devcontainer_post_attach[0]").after;
    const limit = (plan: PlanResult) =>
      scriptInput(String(attach(plan).script), "DC_ATTACH_TIMEOUT_SECONDS");
    expect(attach(plans.postAttachCommand).timeout).toBe(3600);
    expect(limit(plans.postAttachCommand)).toBe("3600");
    expect(attach(plans.postAttachCommand).timeout).toBe(
      plans.postAttachCommand.resource("coder_script.devcontainer_lifecycle[0]").after.timeout,
    );
    for (const name of ["unset", "postStartCommand", "notAString"] as const) {
      expect(attach(plans[name]).timeout).toBe(0);
      expect(limit(plans[name])).toBe("0");
    }
    const lifecycleScripts = { postAttachCommand: HOOKS.postAttachCommand };
    const configuration_json = JSON.stringify({ waitFor: "postAttachCommand" });
    const [short, none] = await Promise.all([
      planner.plan(metadata({ lifecycle_scripts: lifecycleScripts, configuration_json }), {
        variables: { lifecycle_timeout_minutes: 5 },
      }),
      planner.plan(metadata({ lifecycle_scripts: lifecycleScripts, configuration_json }), {
        variables: { lifecycle_timeout_minutes: 0 },
      }),
    ]);
    expect(attach(short.plan).timeout).toBe(300);
    expect(limit(short.plan)).toBe("300");
    expect(attach(none.plan).timeout).toBe(0);
    expect(scriptInput(String(attach(short.plan).script), "DC_STATE_FILE")).toBe(
      POST_ATTACH_STATE_FILE,
    );
    const item = (
      plans.postAttachCommand.resource("coder_agent.main").after.metadata as Record<
        string,
        unknown
      >[]
    ).find((m) => m.display_name === "Dev Container postAttachCommand");
    expect(item?.script).toBe(`cat ${POST_ATTACH_STATE_FILE} 2>/dev/null || echo starting`);
  });

  it("shows the background script's state on the workspace page", () => {
    const item = (
      plans.unset.resource("coder_agent.main").after.metadata as Record<string, unknown>[]
    ).find((m) => m.display_name === "Dev Container lifecycle after login");
    expect(item?.script).toBe(`cat ${BACKGROUND_STATE_FILE} 2>/dev/null || echo starting`);
  });

  it("by default, the planned scripts run for real: login waits for updateContentCommand only, and a postStartCommand that never ends holds neither login nor postAttachCommand", async () => {
    const sandbox = createImageSandbox(dirs, { withGit: false });
    const folder = join(sandbox.root, "workspaces", "app");
    mkdirSync(join(folder, ".git"), { recursive: true });
    writeFileSync(join(folder, ".git", "devcontainer-cloned"), "");
    const hookLog = join(sandbox.root, "hooks.log");
    const stop = join(sandbox.root, "stop");
    const stateFile = join(sandbox.root, "background.state");
    const env = sandbox.env({
      HOOK_LOG: hookLog,
      STOP: stop,
      DC_STATUS_FILE: join(sandbox.root, "lifecycle.status"),
      DC_WAIT_INTERVAL_SECONDS: "0.1",
    });
    const write = (resource: string) => {
      const file = join(sandbox.root, `${resource}.sh`);
      const inputs: Record<string, string> = { DC_WORKSPACE_FOLDER: folder };
      if (resource === "devcontainer_lifecycle_background") inputs.DC_STATE_FILE = stateFile;
      if (resource === "devcontainer_lifecycle") inputs.DC_REPOSITORY_FOLDER = folder;
      writeFileSync(file, withScriptInputs(script("unset", resource), inputs));
      return file;
    };
    const run = (resource: string, timeoutMs = 20_000) =>
      runScript({ script: write(resource), shell: sandbox.shell, env, timeoutMs });

    // As the agent starts them: all three at once.
    const background = run("devcontainer_lifecycle_background", 40_000);
    const postAttach = run("devcontainer_post_attach");
    try {
      const lifecycle = await run("devcontainer_lifecycle");
      expect(lifecycle.exitCode).toBe(0);
      expect(readFileSync(hookLog, "utf8").split("\n").slice(0, 3)).toEqual([
        "initializeCommand",
        "onCreateCommand",
        "updateContentCommand",
      ]);
      const attached = await postAttach;
      expect(attached.exitCode).toBe(0);
      expect(readFileSync(hookLog, "utf8")).toContain("postAttachCommand\n");
      expect(readFileSync(stateFile, "utf8")).toMatch(/^(waiting|running)/);
    } finally {
      writeFileSync(stop, "");
    }
    const after = await background;
    expect(after.exitCode).toBe(0);
    expect(after.output).toMatch(/^devcontainer-lifecycle-after-login: running postStartCommand$/m);
    const log = readFileSync(hookLog, "utf8");
    expect(log.indexOf("postCreateCommand")).toBeLessThan(log.indexOf("postStartCommand"));
    expect(readFileSync(stateFile, "utf8")).toBe("done\n");
  });
});
