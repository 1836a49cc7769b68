/**
 * dev-entrypoint.sh, run for real: the environment the agent (here a fake init script that
 * dumps its environment) inherits from the `dev` container's wrapper.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../../src/core/project-root";
import { linkHostTools, runScript, tempDirs } from "../../support/run-script";

const SCRIPT = join(projectRoot(), "templates/devcontainer/scripts/dev-entrypoint.sh");
const dirs = tempDirs();
afterAll(() => dirs.cleanup());

const b64 = (text: string) => Buffer.from(text).toString("base64");

async function run(env: Record<string, string>) {
  const dir = dirs.make("dev-entrypoint");
  const bin = linkHostTools(join(dir, "bin"), [
    "sh",
    "env",
    "sed",
    "base64",
    "basename",
    "rm",
    "cat",
  ]);
  const dump = join(dir, "agent-env");
  const result = await runScript({
    script: SCRIPT,
    env: {
      PATH: `/image/bin:${bin}`,
      CODER_AGENT_TOKEN: "agent-token",
      DC_INIT_SCRIPT: `env > '${dump}'; echo "agent started as $USER"`,
      DC_REMOTE_USER: "vscode",
      DC_HOME: "/home/vscode",
      DC_WORKSPACE_FOLDER: "/workspaces/app",
      DC_ID: "ws-1",
      DC_ENV_FILE: join(dir, "devcontainer-env.sh"),
      ...env,
    },
  });
  let agentEnv: Record<string, string> = {};
  try {
    agentEnv = Object.fromEntries(
      readFileSync(dump, "utf8")
        .split("\n")
        .filter((l) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(l))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
  } catch {
    // the agent never started
  }
  return { result, agentEnv, envFile: join(dir, "devcontainer-env.sh") };
}

it("exports the folder, id, identity and localEnv values, then execs the agent without DC_* inputs", async () => {
  const { result, agentEnv } = await run({
    DC_VARIABLES: [
      "# a comment",
      "",
      "NPM_TOKEN=abc=def $HOME",
      "bad-name=1",
      "no equals sign",
      "=empty",
      "WIN=crlf\r",
    ].join("\n"),
  });
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toBe("agent started as vscode\n");
  expect(agentEnv).toMatchObject({
    DEVCONTAINER_WORKSPACE_FOLDER: "/workspaces/app",
    DEVCONTAINER_WORKSPACE_FOLDER_BASENAME: "app",
    DEVCONTAINER_ID: "ws-1",
    DEVCONTAINER_LOCALENV_NPM_TOKEN: "abc=def $HOME",
    DEVCONTAINER_LOCALENV_WIN: "crlf",
    HOME: "/home/vscode",
    USER: "vscode",
    LOGNAME: "vscode",
    CODER_AGENT_TOKEN: "agent-token",
  });
  expect(Object.keys(agentEnv).filter((k) => k.startsWith("DC_"))).toEqual([]);
  expect(
    Object.keys(agentEnv)
      .filter((k) => k.startsWith("DEVCONTAINER_LOCALENV_"))
      .sort(),
  ).toEqual(["DEVCONTAINER_LOCALENV_NPM_TOKEN", "DEVCONTAINER_LOCALENV_WIN"]);
  expect(result.stderr).toContain("'bad-name' is not a variable name");
  expect(result.stderr).toContain("a line without '=' was skipped");
  // Values never reach the log.
  expect(result.stderr).not.toContain("abc=def");
});

it("sources containerEnv then remoteEnv, unset variables expanding to empty", async () => {
  const { result, agentEnv, envFile } = await run({
    DC_CONTAINER_ENV: b64('export A="from-container"\nexport P="${PATH}:/extra"\n'),
    DC_REMOTE_ENV: b64('export A="${A}-then-remote"\nexport U="x${UNSET_VARIABLE}y"\n'),
  });
  expect(result.exitCode).toBe(0);
  expect(agentEnv.A).toBe("from-container-then-remote");
  expect(agentEnv.P).toMatch(/^\/image\/bin:.*:\/extra$/);
  expect(agentEnv.U).toBe("xy");
  expect(() => readFileSync(envFile)).toThrow();
});

it("fails before starting the agent when a required input is missing", async () => {
  const dir = dirs.make("dev-entrypoint-missing");
  const bin = linkHostTools(join(dir, "bin"), ["sh", "basename"]);
  const missing = await runScript({ script: SCRIPT, env: { PATH: bin } });
  expect(missing.exitCode).not.toBe(0);
  expect(missing.stderr).toMatch(/DC_WORKSPACE_FOLDER/);
});
