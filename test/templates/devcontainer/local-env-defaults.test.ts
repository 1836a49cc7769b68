/**
 * `${localEnv:HOME}` and the other names every machine has, through the template's Terraform
 * (mock providers), then the planned `dev` wrapper run for real: with no local host, a name the
 * user did not set in Dev Container variables is the workspace user's own, never "" and never
 * reported missing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PlanResult } from "@coder-cdktf/terraform-harness";
import { VARIABLES_MESSAGE } from "../../../lib/devcontainer/warnings";
import { runScript, tempDirs } from "../../support/run-script";
import { BadInputPlanner } from "./bad-inputs";
import { createImageSandbox } from "./scripts/helpers";
import { metadata } from "./synthesized";

jest.setTimeout(120_000);

const dirs = tempDirs();
type Json = Record<string, any>;

const localEnv = (name: string, usedIn = "postCreateCommand") => ({
  kind: "localEnv",
  name,
  default: null,
  used_in: [usedIn],
});

describe("devcontainer template: ${localEnv:…} without a local host", () => {
  let planner: BadInputPlanner;
  let plan: PlanResult;
  let variablesMessage: string | undefined;

  beforeAll(async () => {
    planner = await BadInputPlanner.start();
    const [planned] = await Promise.all(
      planner.planMany([
        {
          metadata: metadata({
            lifecycle_scripts: {
              postCreateCommand: 'mkdir -p "$DEVCONTAINER_LOCALENV_HOME/.m2"\n',
            },
            env_scripts: {
              containerEnv: 'export MAVEN_HOME="${DEVCONTAINER_LOCALENV_HOME}/.m2"\n',
            },
            variables: [
              localEnv("HOME"),
              localEnv("USER", "containerEnv.WHO"),
              localEnv("PATH"),
              localEnv("SHELL"),
              localEnv("NPM_TOKEN"),
            ],
          }),
        },
      ]),
    );
    plan = planned.plan;
    variablesMessage = planned.variablesMessage;
  });
  afterAll(async () => {
    await planner?.stop();
    dirs.cleanup();
  });

  const dev = (): Json =>
    (plan.resource("kubernetes_deployment_v1.main[0]").after as Json).spec[0].template[0].spec[0]
      .container[0];
  const envOf = (): Record<string, string> =>
    Object.fromEntries(dev().env.map((e: Json) => [e.name, e.value]));

  it("asks only for the variables no machine has: HOME, USER, PATH and SHELL are never missing", () => {
    expect(variablesMessage).toBe(VARIABLES_MESSAGE.replace("%s", "NPM_TOKEN"));
    const item = (plan.resource("coder_agent.main").after.metadata as Json[]).find(
      (m) => m.key === "7_devcontainer_variables",
    );
    expect(item?.script.split("\n")[0]).toBe("names='NPM_TOKEN'");
  });

  it("gives the pod the workspace user's values for them", () => {
    expect(envOf().DC_LOCALENV_DEFAULTS).toBe("HOME=/home/vscode\nLOGNAME=vscode\nUSER=vscode");
  });

  it("the planned wrapper, run for real, expands ${localEnv:HOME} to the home: containerEnv and the hooks get /home/vscode/.m2", async () => {
    const sandbox = createImageSandbox(dirs, { withGit: false });
    const dump = join(sandbox.root, "agent-env");
    const script = join(sandbox.root, "dev-entrypoint.sh");
    const container = dev();
    expect(container.command.slice(0, 2)).toEqual(["sh", "-c"]);
    writeFileSync(script, container.command[2]);
    const env = envOf();
    const run = await runScript({
      script,
      shell: sandbox.shell,
      env: sandbox.env({
        ...env,
        CODER_AGENT_TOKEN: "token",
        DC_INIT_SCRIPT: `env > '${dump}'`,
      }),
    });
    expect(run.exitCode).toBe(0);
    const agentEnv = readFileSync(dump, "utf8");
    expect(agentEnv).toMatch(/^DEVCONTAINER_LOCALENV_HOME=\/home\/vscode$/m);
    expect(agentEnv).toMatch(/^DEVCONTAINER_LOCALENV_USER=vscode$/m);
    expect(agentEnv).toMatch(/^MAVEN_HOME=\/home\/vscode\/\.m2$/m);
  });
});
