/**
 * workspaceMount's target through the template's Terraform (mock providers), then the planned
 * lifecycle script run for real: where workspaceMount names a target, the repository belongs
 * there (the clone goes there, the PVC's workspace-folder/ is mounted there), and
 * workspaceFolder is only where the IDEs open and the hooks run.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { PlanResult } from "@coder-cdktf/terraform-harness";
import { runScript, tempDirs } from "../../support/run-script";
import { BadInputPlanner } from "./bad-inputs";
import { base64, createImageSandbox, createOriginRepo } from "./scripts/helpers";
import { EMPTY_RUNTIME, metadata, scriptInput, withScriptInputs } from "./synthesized";

jest.setTimeout(120_000);

const dirs = tempDirs();
type Json = Record<string, any>;

const CUML_MOUNT =
  "source=${localWorkspaceFolder},target=/home/coder/cuml,type=bind,consistency=cached";

const withMount = (workspaceMount: string | undefined, workspaceFolder: string) =>
  metadata({
    remote_user: "coder",
    runtime: {
      ...EMPTY_RUNTIME,
      remote_user_uid: 1000,
      remote_user_gid: 1000,
      remote_user_home: "/home/coder",
    },
    workspace_folder: workspaceFolder,
    configuration_json: JSON.stringify(workspaceMount === undefined ? {} : { workspaceMount }),
    lifecycle_scripts: { onCreateCommand: 'pwd > "$HOOK_LOG"\n' },
  });

const CASES = {
  cuml: withMount(CUML_MOUNT, "/home/coder/cuml"),
  subfolder: withMount(
    "type=bind,source=${localWorkspaceFolder},target=/src/${localWorkspaceFolderBasename}",
    "/src/app/python",
  ),
  wholeWorkspaces: withMount(
    "source=${localWorkspaceFolder},target=/workspaces,type=bind",
    "/workspaces/app",
  ),
  badTarget: withMount("source=x,target=relative/path,type=bind", "/workspaces/app"),
  noMount: withMount(undefined, "/workspaces/app"),
} as const;
type CaseName = keyof typeof CASES;

describe("devcontainer template: workspaceMount's target", () => {
  let planner: BadInputPlanner;
  const plans = {} as Record<CaseName, PlanResult>;
  const warnings = {} as Record<CaseName, readonly string[]>;

  beforeAll(async () => {
    planner = await BadInputPlanner.start();
    const names = Object.keys(CASES) as CaseName[];
    const planned = await Promise.all(planner.planMany(names.map((n) => ({ metadata: CASES[n] }))));
    names.forEach((name, n) => {
      plans[name] = planned[n].plan;
      warnings[name] = planned[n].warnings;
    });
  });
  afterAll(async () => {
    await planner?.stop();
    dirs.cleanup();
  });

  const lifecycle = (name: CaseName) =>
    String(plans[name].resource("coder_script.devcontainer_lifecycle[0]").after.script);
  const mounts = (name: CaseName): string[][] =>
    (
      plans[name].resource("kubernetes_deployment_v1.main[0]").after as Json
    ).spec[0].template[0].spec[0].container[0].volume_mount.map((m: Json) => [
      m.sub_path,
      m.mount_path,
    ]);
  const ideFolder = (name: CaseName) =>
    (plans[name].resource("module.vscode_web[0].terraform_data.inputs").after.input as Json).folder;

  it.each([
    ["cuml", "/home/coder/cuml", "/home/coder/cuml"],
    ["subfolder", "/src/app", "/src/app/python"],
    ["wholeWorkspaces", "/workspaces", "/workspaces/app"],
    ["badTarget", "/workspaces/app", "/workspaces/app"],
    ["noMount", "/workspaces/app", "/workspaces/app"],
  ] as const)("%s: clones into %s, opens and runs the hooks in %s", (name, repository, folder) => {
    expect(scriptInput(lifecycle(name), "DC_REPOSITORY_FOLDER")).toBe(repository);
    expect(scriptInput(lifecycle(name), "DC_WORKSPACE_FOLDER")).toBe(folder);
    expect(ideFolder(name)).toBe(folder);
  });

  it("mounts the PVC's workspace-folder/ at the repository folder when it is outside /workspaces and the home", () => {
    expect(mounts("subfolder")).toContainEqual(["workspace-folder", "/src/app"]);
    expect(mounts("cuml")).toContainEqual(["workspace-folder", "/home/coder/cuml"]);
    expect(mounts("wholeWorkspaces")).toContainEqual([
      "workspace-folder",
      "/mnt/.devcontainer-unused-workspace-folder",
    ]);
  });

  it("a target that cannot hold the repository is a build-log warning naming it; the clone goes to the workspace folder", () => {
    expect(warnings.badTarget.join("\n")).toMatch(
      /workspaceMount's target "relative\/path" cannot hold the repository.*cloned into the workspace folder \/workspaces\/app/,
    );
    expect(warnings.cuml.filter((w) => w.includes("workspaceMount"))).toEqual([]);
  });

  it("the planned lifecycle script, run for real, clones into the target and runs the hooks from the workspace folder", async () => {
    const sandbox = createImageSandbox(dirs);
    const origin = createOriginRepo(join(sandbox.root, "origin"));
    origin.commit("main", { "python/setup.py": "print('cuml')\n", "README.md": "cuml\n" }, "init");
    const repositoryFolder = join(sandbox.root, "src", "app");
    const workspaceFolder = join(repositoryFolder, "python");
    const hookLog = join(sandbox.root, "hook.log");
    const script = withScriptInputs(lifecycle("subfolder"), {
      DC_WORKSPACE_FOLDER: workspaceFolder,
      DC_REPOSITORY_FOLDER: repositoryFolder,
      DC_REPOSITORY: origin.url,
      DC_COMMIT: "",
    });
    expect(scriptInput(script, "DC_HOOK_ON_CREATE_COMMAND")).toBe(base64('pwd > "$HOOK_LOG"\n'));
    const file = join(sandbox.root, "lifecycle.sh");
    writeFileSync(file, script);
    mkdirSync(workspaceFolder, { recursive: true });
    const run = await runScript({
      script: file,
      shell: sandbox.shell,
      env: sandbox.env({ HOOK_LOG: hookLog, DC_STATUS_FILE: join(sandbox.root, "status") }),
    });
    expect(run.exitCode).toBe(0);
    expect(existsSync(join(repositoryFolder, ".git", "devcontainer-cloned"))).toBe(true);
    expect(readFileSync(join(repositoryFolder, "python", "setup.py"), "utf8")).toBe(
      "print('cuml')\n",
    );
    expect(existsSync(join(workspaceFolder, ".git"))).toBe(false);
    expect(readFileSync(hookLog, "utf8")).toBe(`${workspaceFolder}\n`);
  });
});
