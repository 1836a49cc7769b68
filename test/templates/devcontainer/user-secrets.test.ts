/**
 * User secrets as `${localEnv:NAME}` values (issue 42 item 1): the user's own Coder secret
 * (an environment variable the agent puts into the scripts it starts) wins over the "Dev
 * Container variables" line, which wins over the default. The template declares no secret
 * (coder provider 2.18.0 removed data.coder_secret) and never sees a value: the lifecycle
 * scripts take it at run time, and the metadata item says which names are still unset.
 */
import {
  TerraformHarness,
  type ApplyResult,
  type PlanOptions,
} from "@coder-cdktf/terraform-harness";
import { writeFileSync } from "node:fs";
import { runScript, tempDirs } from "../../support/run-script";
import { createImageSandbox, describeEachToolset } from "./scripts/helpers";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  scriptInput,
  STOPPED_FIRST_BUILD,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
} from "./synthesized";

jest.setTimeout(120_000);

const SECRET = "kubernetes_secret_v1.devcontainer_variables";
const HOOK_SCRIPTS = [
  "devcontainer_lifecycle",
  "devcontainer_lifecycle_background",
  "devcontainer_post_attach",
];
/** The last line of the shipped prelude (local-env-secrets.sh). */
const PRELUDE_END = "unset dc_localenv_name dc_localenv_value\n";

const localEnv = (name: string, used = `remoteEnv.${name}`) => ({
  kind: "localEnv",
  name,
  default: null,
  used_in: [used],
});

const dirs = tempDirs();
let tf: TerraformHarness;
let template: SynthesizedDevcontainer;
let stopped: ApplyResult;
const options = (overrides: Partial<PlanOptions> = {}): PlanOptions => ({
  state: stopped,
  variables: { ...REQUIRED_VARIABLES, user_secrets: ["NPM_TOKEN"] },
  parameters: {
    repository: REPOSITORY,
    devcontainer_variables: "NPM_TOKEN=from-the-parameter\nOTHER=x",
  },
  fixtures: devcontainerFixtures(
    metadata({
      variables: [
        localEnv("NPM_TOKEN"),
        localEnv("REGION"),
        localEnv("HOME"),
        // Hostile names never reach a shell word.
        localEnv("A;touch /tmp/pwned"),
        { kind: "containerEnv", name: "NOT_LOCAL", default: null, used_in: ["remoteEnv.X"] },
      ],
    }),
  ),
  ...overrides,
});

beforeAll(async () => {
  tf = await TerraformHarness.start();
  template = synthesizeDevcontainer();
  stopped = await tf.apply(template.dir, STOPPED_FIRST_BUILD);
});
afterAll(async () => {
  await tf?.stop();
  template?.cleanup();
  dirs.cleanup();
});

describe("devcontainer template: ${localEnv:NAME} from the user's own Coder secrets", () => {
  it("declares no coder_secret and gives each hook script the names a secret may give", async () => {
    const plan = await tf.plan(template.dir, options());
    expect(
      plan.resourceChanges.filter((c) => c.type.includes("secret") && c.mode === "data"),
    ).toEqual([]);
    for (const name of HOOK_SCRIPTS) {
      const script = String(plan.resource(`coder_script.${name}[0]`).after.script);
      // HOME is the container's, a hostile name is no shell name, containerEnv is not localEnv.
      expect(scriptInput(script, "DC_LOCALENV_SECRET_NAMES")).toBe("NPM_TOKEN REGION");
      // The prelude runs before the script's own code.
      expect(script.indexOf(PRELUDE_END)).toBeGreaterThan(
        script.indexOf("DC_LOCALENV_SECRET_NAMES="),
      );
      expect(script.indexOf(PRELUDE_END)).toBeLessThan(script.indexOf("set -u"));
    }
  });

  it("keeps the parameter's text as the user wrote it in the workspace's Secret", async () => {
    const plan = await tf.plan(template.dir, options());
    expect(
      (plan.resource(SECRET).after as { data: Record<string, string> }).data.DC_VARIABLES,
    ).toBe("NPM_TOKEN=from-the-parameter\nOTHER=x");
  });

  it("does not call a name the operator expects from user secrets missing, and says how to set the others", async () => {
    const plan = await tf.plan(template.dir, options({ parameters: { repository: REPOSITORY } }));
    const missing = plan.checkFailures().find((m) => m.startsWith("Dev Container variables"));
    expect(missing).toContain("not set here: REGION.");
    expect(missing).toContain("coder secret create <name> --env NAME");
    expect(missing).not.toContain("NPM_TOKEN");
  });

  it("changes the Secret in place and leaves the Deployment alone when the variables change", async () => {
    const started = await tf.apply(template.dir, options());
    const plan = await tf.plan(
      template.dir,
      options({
        state: started,
        parameters: { repository: REPOSITORY, devcontainer_variables: "OTHER=y" },
      }),
    );
    expect(plan.resource(SECRET).actions).toEqual(["update"]);
    expect(plan.resource("kubernetes_deployment_v1.main[0]").actions).toEqual(["no-op"]);
    const stop = await tf.plan(
      template.dir,
      options({ state: started, workspace: { startCount: 0 } }),
    );
    expect(stop.resource("kubernetes_deployment_v1.main[0]").actions).toEqual(["delete"]);
    expect(stop.resource(SECRET).actions).not.toContain("delete");
  });
});

describeEachToolset("the planned scripts' prelude and metadata under %s", (toolset) => {
  let prelude: string;
  let variablesScript: string;
  beforeAll(async () => {
    const plan = await tf.plan(template.dir, options());
    const script = String(plan.resource("coder_script.devcontainer_post_attach[0]").after.script);
    prelude = script.slice(0, script.indexOf(PRELUDE_END) + PRELUDE_END.length);
    const agent = plan.resource("coder_agent.main").after as {
      metadata: { display_name: string; script: string }[];
    };
    variablesScript = agent.metadata.find(
      (m) => m.display_name === "Dev Container variables",
    )!.script;
  });
  const run = async (script: string, env: Record<string, string>) => {
    const sandbox = createImageSandbox(dirs, { withGit: false, toolset });
    const file = `${sandbox.root}/script.sh`;
    writeFileSync(file, script);
    const result = await runScript({ script: file, shell: sandbox.shell, env: sandbox.env(env) });
    expect(result.stderr).toBe("");
    return result.stdout.trimEnd();
  };

  it("gives ${localEnv:NPM_TOKEN} the user's secret before the parameter's line, and nothing else", async () => {
    const out = await run(`${prelude}env | grep '^DEVCONTAINER_LOCALENV_'\n`, {
      NPM_TOKEN: "the-users-own 'secret' $(touch x)",
      DEVCONTAINER_LOCALENV_NPM_TOKEN: "from-the-parameter",
      DEVCONTAINER_LOCALENV_REGION: "eu-west-1",
      DEVCONTAINER_LOCALENV_HOME: "/home/vscode",
      HOME: "/root",
    });
    expect(out.split("\n").sort()).toEqual([
      "DEVCONTAINER_LOCALENV_HOME=/home/vscode",
      "DEVCONTAINER_LOCALENV_NPM_TOKEN=the-users-own 'secret' $(touch x)",
      "DEVCONTAINER_LOCALENV_REGION=eu-west-1",
    ]);
  });

  it("keeps the parameter's line when the secret is empty or absent", async () => {
    const out = await run(`${prelude}echo "$DEVCONTAINER_LOCALENV_NPM_TOKEN"\n`, {
      NPM_TOKEN: "",
      DEVCONTAINER_LOCALENV_NPM_TOKEN: "from-the-parameter",
    });
    expect(out).toBe("from-the-parameter");
  });

  it("reports the required names still unset and how to set them, never a value", async () => {
    const unset = await run(`${variablesScript}\n`, {});
    expect(unset).toBe(
      "unset: NPM_TOKEN, REGION. A secret: coder secret create <name> --env NAME (or Secrets in your account); " +
        "else a NAME=value line in Dev Container variables. Then restart.",
    );
    expect(
      await run(`${variablesScript}\n`, {
        NPM_TOKEN: "s3cret",
        DEVCONTAINER_LOCALENV_REGION: "eu",
      }),
    ).toBe("all set");
    expect(await run(`${variablesScript}\n`, { NPM_TOKEN: "s3cret" })).toMatch(/^unset: REGION\. /);
  });
});
