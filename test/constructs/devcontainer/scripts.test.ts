/**
 * DevcontainerScripts: the four coder_scripts of a start. Each embeds its .sh file with its
 * inputs prepended: text as quoted words, repository-controlled scripts and settings as base64.
 */
import { TerraformVariable } from "../../../lib/core/cdk";
import { Expr } from "../../../lib/core/expr";
import { coderProvider } from "../../../lib/constructs/providers";
import { WorkspaceAgent } from "../../../lib/constructs/workspace-agent";
import { WorkspaceData } from "../../../lib/constructs/workspace-data";
import { readProjectFile } from "../../../lib/core/project-root";
import {
  BACKGROUND_HOOKS,
  DevcontainerScripts,
  LIFECYCLE_HOOKS,
  SCRIPTS_DIR,
} from "../../../lib/devcontainer/scripts";
import { DevcontainerWaitFor } from "../../../lib/devcontainer/wait-for";
import { fromStack, withShippedFiles } from "../../support/shipped-scripts";
import { synthConstruct, type TerraformJson } from "../construct-stack";

let scripts: Record<string, any>;
let readShipped: (path: string) => string;
beforeAll(() => {
  const tf: TerraformJson = synthConstruct((stack) => {
    readShipped = fromStack(stack);
    coderProvider(stack);
    const ws = new WorkspaceData(stack, "workspace");
    const agent = new WorkspaceAgent(stack, "agent");
    const v = (name: string, type = "string") => new TerraformVariable(stack, name, { type });
    new DevcontainerScripts(stack, "scripts", {
      startCount: ws.startCount,
      agentId: agent.id,
      workspaceFolder: Expr.of<string>(v("folder").stringValue),
      repository: Expr.of<string>(v("repository").stringValue),
      branch: Expr.of<string>(v("branch").stringValue),
      commit: Expr.of<string>(v("commit").stringValue),
      lifecycleScripts: Expr.of<Record<string, string>>(v("hooks", "map(string)").value),
      waitFor: new DevcontainerWaitFor(stack, "wait_for", {
        configuration: Expr.of(v("configuration", "any").value),
      }),
      vscodeExtensions: Expr.of<string[]>(v("extensions", "list(string)").listValue),
      vscodeSettings: Expr.of<string>(v("settings").stringValue),
      ownExtension: Expr.of<string>(v("own_extension").stringValue),
      localEnvSecretNames: Expr.of<string>(v("secret_names").stringValue),
    });
  });
  scripts = tf.resource.coder_script;
});

/** The `NAME='…'` lines the script starts with (after the #! line). */
function assignments(script: string): string[] {
  return script
    .split("\n")
    .slice(1)
    .filter((line) => /^[A-Z_][A-Z0-9_]*='/.test(line));
}

/**
 * `NAME='${base64encode(lookup(var.hooks, "<hook>", ""))}'` (the nesting may add parentheses),
 * the lookup behind a condition on `local.login_blocking_hooks` when `blocking` is given: the
 * hook's script when it blocks login (true) or when it does not (false), else "".
 */
function base64OfHook(hook: string, blocking?: boolean): RegExp {
  const lookup = `lookup\\(var\\.hooks, "${hook}", ""\\)`;
  if (blocking === undefined) {
    return new RegExp(`^[A-Z_]+='\\$\\{base64encode\\(+${lookup}\\)+\\}'$`);
  }
  const condition = `contains\\(local\\.login_blocking_hooks, "${hook}"\\)`;
  const branches = blocking ? `${lookup}\\)? : ""` : `""\\)? : \\(?${lookup}`;
  return new RegExp(
    `^[A-Z_]+='\\$\\{base64encode\\(+${condition}\\)? \\? \\(?${branches}\\)+\\}'$`,
  );
}

it("declares the four scripts, each run on start by the agent while the workspace runs", () => {
  expect(Object.keys(scripts).sort()).toEqual([
    "devcontainer_lifecycle",
    "devcontainer_lifecycle_background",
    "devcontainer_post_attach",
    "devcontainer_vscode",
  ]);
  for (const s of Object.values(scripts)) {
    expect(s).toMatchObject({
      count: "${data.coder_workspace.me.start_count}",
      agent_id: "${coder_agent.main.id}",
      run_on_start: true,
    });
    expect(s.script.startsWith("#!")).toBe(true);
  }
});

it("blocks login for the lifecycle script, for postAttachCommand only when waitFor names it", () => {
  expect(scripts.devcontainer_lifecycle.start_blocks_login).toBe(true);
  expect(scripts.devcontainer_lifecycle_background.start_blocks_login).toBe(false);
  expect(scripts.devcontainer_post_attach.start_blocks_login).toBe(
    '${contains(local.login_blocking_hooks, "postAttachCommand")}',
  );
  expect(scripts.devcontainer_vscode.start_blocks_login).toBe(false);
});

it("gives the lifecycle script the folders, repository, branch, commit and each hook as base64", () => {
  const lines = assignments(scripts.devcontainer_lifecycle.script);
  expect(lines.map((l) => l.split("=")[0])).toEqual([
    "DC_WORKSPACE_FOLDER",
    "DC_REPOSITORY_FOLDER",
    "DC_REPOSITORY",
    "DC_BRANCH",
    "DC_COMMIT",
    "DC_INITIALIZE_FOLDER_VARIABLE",
    ...LIFECYCLE_HOOKS.map(([, variable]) => variable),
    "DC_LOCALENV_SECRET_NAMES",
  ]);
  expect(lines.at(-1)).toBe(
    `DC_LOCALENV_SECRET_NAMES='\${replace(var.secret_names, "'", "'\\\\''")}'`,
  );
  // Without a repository folder of its own, the clone goes to the workspace folder.
  expect(lines[1]).toBe(lines[0].replace("DC_WORKSPACE_FOLDER", "DC_REPOSITORY_FOLDER"));
  expect(lines[2]).toBe(`DC_REPOSITORY='\${replace(var.repository, "'", "'\\\\''")}'`);
  LIFECYCLE_HOOKS.forEach(([hook], i) => {
    expect(lines[6 + i]).toMatch(base64OfHook(hook, true));
  });
});

it("gives the background script the folder, its log name, its state file and the later hooks as base64", () => {
  const lines = assignments(scripts.devcontainer_lifecycle_background.script);
  expect(lines.map((l) => l.split("=")[0])).toEqual([
    "DC_WORKSPACE_FOLDER",
    "DC_LOG_NAME",
    "DC_STATE_FILE",
    ...BACKGROUND_HOOKS.map(([, variable]) => variable),
    "DC_LOCALENV_SECRET_NAMES",
  ]);
  BACKGROUND_HOOKS.forEach(([hook], i) => {
    expect(lines[3 + i]).toMatch(base64OfHook(hook, false));
  });
});

it("gives post-attach the folder, its log name and its hook as base64", () => {
  const lines = assignments(scripts.devcontainer_post_attach.script);
  expect(lines.map((l) => l.split("=")[0])).toEqual([
    "DC_WORKSPACE_FOLDER",
    "DC_LOG_NAME",
    "DC_STATE_FILE",
    "DC_ATTACH_TIMEOUT_SECONDS",
    "DC_HOOK_POST_ATTACH_COMMAND",
    "DC_LOCALENV_SECRET_NAMES",
  ]);
  expect(lines[4]).toMatch(base64OfHook("postAttachCommand"));
});

it("gives the VS Code script the extensions one per line, the settings as base64 and the own extension", () => {
  const lines = assignments(scripts.devcontainer_vscode.script);
  expect(lines.map((l) => l.split("=")[0])).toEqual([
    "DC_VSCODE_EXTENSIONS",
    "DC_VSCODE_SETTINGS_B64",
    "DC_VSCODE_OWN_EXTENSION",
  ]);
  expect(lines[0]).toContain('join("\\n", var.extensions)');
  expect(lines[1]).toBe("DC_VSCODE_SETTINGS_B64='${base64encode(var.settings)}'");
});

it("reads each script's own text from its shipped file, so only the inputs interpolate", () => {
  const files: Record<string, string> = {
    devcontainer_lifecycle: "lifecycle.sh",
    devcontainer_lifecycle_background: "after-lifecycle.sh",
    devcontainer_post_attach: "after-lifecycle.sh",
    devcontainer_vscode: "vscode-extensions.sh",
  };
  for (const [name, s] of Object.entries(scripts)) {
    const source = readProjectFile(`${SCRIPTS_DIR}/${files[name]}`);
    const lines = (s.script as string).split("\n");
    expect(lines[0]).toBe(source.split("\n")[0]);
    // The scripts that run hooks start with the shared prelude, read from its own file.
    const prelude = name === "devcontainer_vscode" ? [] : [lines.at(-2)];
    if (prelude.length > 0) {
      expect(lines.at(-2)).toBe(
        '${chomp(replace(file("${path.module}/scripts/local-env-secrets.sh"), "/^(#.*\\n)+/", ""))}',
      );
    }
    expect(lines.slice(1, -1 - prelude.length).every((l) => /^[A-Z_][A-Z0-9_]*='/.test(l))).toBe(
      true,
    );
    expect(lines.at(-1)).toBe(
      `\${trimprefix(file("\${path.module}/scripts/${files[name]}"), ` +
        `${JSON.stringify(`${lines[0]}\n`)})}`,
    );
    expect(
      withShippedFiles(s.script, readShipped)
        .split("\n")
        .slice(lines.length - 1),
    ).toEqual(source.split("\n").slice(1));
  }
});
