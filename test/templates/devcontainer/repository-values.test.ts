/**
 * Values from the repository (docs/security.md, issue 15 item 1): one test per row of the
 * table. Each plans the whole devcontainer template with real Terraform, on top of a stopped
 * workspace, with a hostile devcontainer.json as the data source returns it, and asserts where
 * the value lands (a module input, a script input, an app, the pod) and the build-log warning
 * that names the field and the value. The plan never fails. (The repository parameter's name,
 * which a workspace cannot change once created, is planned alone in
 * test/devcontainer/workspace-folder.test.ts.)
 */
import {
  BadInputPlanner,
  type DevcontainerMetadata,
  type PlanInputs,
  type PlannedWorkspace,
  saneWorkspaceProblems,
  VALID_METADATA,
} from "./bad-inputs";

jest.setTimeout(180_000);

/** The attack of issue 15: a second `url` in the VS Code Desktop link gets the session token. */
const URL_ATTACK = "/workspaces/app&url=https://attacker.example";
const SHELL_ATTACK = '/workspaces/app";id;"$(id)';

interface Row {
  readonly metadata: DevcontainerMetadata;
  readonly inputs?: PlanInputs;
  readonly check: (workspace: PlannedWorkspace) => void;
}

const runtime = (changes: Record<string, unknown>) => ({
  ...(VALID_METADATA.runtime as Record<string, unknown>),
  ...changes,
});

/** The `NAME='…'` input lines of the planned coder_scripts. */
const scriptInputs = (workspace: PlannedWorkspace) =>
  workspace.scripts.flatMap((script) => script.split("\n"));

const ROWS: Record<string, Row> = {
  "workspaceFolder never reaches the VS Code Desktop link with URL characters": {
    metadata: { workspace_folder: URL_ATTACK },
    check: (workspace) => {
      expect(workspace.moduleFolders.vscode_desktop).toBe("/workspaces/app");
      expect(workspace.warnings).toEqual([
        `workspaceFolder "${URL_ATTACK}" cannot be used as the workspace folder (it must be an absolute path other than / of letters, digits and . _ @ , ~ - /, without . or .. segments or unknown variables); the workspace uses /workspaces/app.`,
      ]);
    },
  },
  "workspaceFolder never reaches vscode-web, the scripts or the pod with shell characters": {
    metadata: { workspace_folder: SHELL_ATTACK },
    check: (workspace) => {
      expect(workspace.moduleFolders.vscode_web).toBe("/workspaces/app");
      expect(scriptInputs(workspace)).toContain("DC_WORKSPACE_FOLDER='/workspaces/app'");
      expect(workspace.pod.env.DC_WORKSPACE_FOLDER).toBe("/workspaces/app");
      expect(workspace.warnings).toEqual([
        expect.stringContaining(`workspaceFolder ${JSON.stringify(SHELL_ATTACK)} cannot be used`),
      ]);
    },
  },
  "remoteUser with shell characters never becomes USER or a home path": {
    metadata: { remote_user: "vscode$(id)", runtime: runtime({ remote_user_home: null }) },
    check: (workspace) => {
      expect(workspace.pod.env).toMatchObject({ DC_REMOTE_USER: "root", DC_HOME: "/root" });
      expect(workspace.warnings).toEqual([
        expect.stringMatching(/^remote_user "vscode\$\(id\)" is not a usable user name/),
      ]);
    },
  },
  "the image's home with shell characters is never mounted or exported": {
    metadata: { runtime: runtime({ remote_user_home: "/home/vscode;id" }) },
    check: (workspace) => {
      expect(workspace.pod.env.DC_HOME).toBe("/home/vscode");
      expect(workspace.pod.seedEnv.HOME_DIR).toBe("/home/vscode");
      expect(workspace.pod.mounts.map((m) => m.path)).not.toContain("/home/vscode;id");
      expect(workspace.warnings).toEqual([
        expect.stringMatching(
          /^runtime\.remote_user_home "\/home\/vscode;id" is not usable as the home directory .*; the home is \/home\/vscode\.$/,
        ),
      ]);
    },
  },
  "a mount target with shell characters is neither mounted nor created by seed-home": {
    metadata: {
      mounts: [
        {
          kind: "volume",
          source: "modules",
          target: "/workspaces/app/node_modules$(id)",
          read_only: null,
        },
      ],
    },
    check: (workspace) => {
      expect(workspace.pod.mounts.map((m) => m.path)).not.toContain(
        "/workspaces/app/node_modules$(id)",
      );
      expect(workspace.pod.seedEnv.MOUNT_POINT_DIRS).not.toContain("$(id)");
      expect(workspace.pod.seedEnv.VOLUME_DIRS).toBe("");
      expect(workspace.warnings).toEqual([
        expect.stringMatching(
          /^mounts\[0\]\.target "\/workspaces\/app\/node_modules\$\(id\)" is not an absolute path usable as a mount point/,
        ),
      ]);
    },
  },
  "a mount source that is not a volume name never becomes a subPath": {
    metadata: {
      mounts: [{ kind: "volume", source: "cache;id", target: "/cache", read_only: null }],
    },
    check: (workspace) => {
      expect(workspace.pod.mounts.map((m) => m.subPath)).not.toContain("volumes/cache;id");
      expect(workspace.pod.seedEnv.VOLUME_DIRS).toBe("");
      expect(workspace.warnings).toEqual([
        expect.stringContaining('mounts[0].source "cache;id" is not a volume name'),
      ]);
    },
  },
  "a forwardPorts label is cut to 64 bytes of UTF-8 on a character boundary": {
    metadata: {
      forward_ports: [
        { port: 3000, label: "é".repeat(40), protocol: null, on_auto_forward: null },
        { port: 3001, label: `${"a".repeat(63)}🇫🇷 flag`, protocol: null, on_auto_forward: null },
        { port: 3002, label: "x".repeat(64), protocol: null, on_auto_forward: null },
      ],
    },
    check: (workspace) => {
      expect(workspace.ports).toEqual([
        { displayName: "é".repeat(32), url: "http://localhost:3000" },
        { displayName: "a".repeat(63), url: "http://localhost:3001" },
        { displayName: "x".repeat(64), url: "http://localhost:3002" },
      ]);
      expect(workspace.warnings).toEqual([
        `portsAttributes label "${"é".repeat(40)}" of forwardPorts[0] is longer than 64 bytes; the app is named "${"é".repeat(32)}".`,
        `portsAttributes label "${"a".repeat(63)}🇫🇷 flag" of forwardPorts[1] is longer than 64 bytes; the app is named "${"a".repeat(63)}".`,
      ]);
    },
  },
  "forwardPorts past the first 1000 entries are not read": {
    metadata: {
      forward_ports: [
        ...Array.from({ length: 1000 }, () => ({
          port: 3000,
          label: null,
          protocol: null,
          on_auto_forward: null,
        })),
        { port: 4000, label: null, protocol: null, on_auto_forward: null },
      ],
    },
    check: (workspace) => {
      expect(workspace.ports.map((p) => p.url)).toEqual(["http://localhost:3000"]);
      expect(workspace.warnings).toEqual([
        "forwardPorts lists 1001 entries; only the first 1000 are read.",
        "forwardPorts lists port 3000 more than once; it gets one app.",
      ]);
    },
  },
  "a forwardPorts protocol never becomes the app URL's scheme or host": {
    metadata: {
      forward_ports: [
        { port: 3000, label: "x", protocol: "https://attacker.example/#", on_auto_forward: null },
      ],
    },
    check: (workspace) => {
      expect(workspace.ports).toEqual([{ displayName: "x", url: "http://localhost:3000" }]);
    },
  },
  "an extension ID that is not one never reaches code-server's command line": {
    metadata: {
      extensions: [
        "ms-python.python",
        "--extensions-dir=/tmp/x",
        "a.b;id",
        "esbenp.prettier-vscode@11.0.0",
      ],
    },
    check: (workspace) => {
      expect(workspace.vscodeExtensions).toEqual([
        "ms-python.python",
        "esbenp.prettier-vscode@11.0.0",
      ]);
      expect(workspace.warnings).toEqual([
        'customizations.vscode.extensions "--extensions-dir=/tmp/x" is not an extension ID (publisher.name, optionally @version); it is not installed.',
        'customizations.vscode.extensions "a.b;id" is not an extension ID (publisher.name, optionally @version); it is not installed.',
      ]);
    },
  },
  "lifecycle hooks, env scripts and settings reach the scripts only as base64": {
    metadata: {
      lifecycle_scripts: { postStartCommand: "echo '$(id)'\n" },
      env_scripts: { remoteEnv: "export X=\"'$(id)'\"\n" },
      settings_json: '{"x": "\'$(id)\'"}',
    },
    check: (workspace) => {
      const b64 = (text: string) => Buffer.from(text).toString("base64");
      expect(scriptInputs(workspace)).toEqual(
        expect.arrayContaining([
          `DC_HOOK_POST_START_COMMAND='${b64("echo '$(id)'\n")}'`,
          `DC_VSCODE_SETTINGS_B64='${b64('{"x": "\'$(id)\'"}')}'`,
        ]),
      );
      expect(workspace.pod.env.DC_REMOTE_ENV).toBe(b64("export X=\"'$(id)'\"\n"));
      expect(workspace.scripts.join("\n")).not.toContain("$(id)");
    },
  },
  "a variable name that is not one never reaches the variables metadata script": {
    metadata: {
      variables: [
        { kind: "localEnv", name: "X;id", default: null, used_in: ["postCreateCommand"] },
        { kind: "localEnv", name: "TOKEN", default: null, used_in: ["postCreateCommand"] },
      ],
    },
    check: (workspace) => {
      const metadata = workspace.plan.resource("coder_agent.main").after.metadata as {
        key: string;
        script: string;
      }[];
      const script = metadata.find((m) => m.key === "7_devcontainer_variables")?.script;
      expect(script?.split("\n")[0]).toBe("names='TOKEN'");
      expect(workspace.variablesMessage).toContain("not set here: TOKEN.");
    },
  },
  "runtime hostname and host aliases with shell characters never reach the pod": {
    metadata: {
      runtime: runtime({
        hostname: "box$(id)",
        host_aliases: [{ ip: "10.0.0.1", hostnames: ["db;id", "db"] }],
      }),
    },
    check: (workspace) => {
      expect(workspace.pod.hostname).toBeNull();
      expect(workspace.pod.hostAliases).toEqual([{ ip: "10.0.0.1", hostnames: ["db"] }]);
      expect(workspace.warnings).toEqual([
        expect.stringContaining('runtime.hostname "box$(id)" is not a valid pod hostname'),
        expect.stringContaining('runtime.host_aliases[0].hostnames: ["db;id"]'),
      ]);
    },
  },
  "no repository value reaches a label or an annotation": {
    metadata: {
      workspace_folder: URL_ATTACK,
      remote_user: "evil$(id)",
      forward_ports: [{ port: 3000, label: "evil$(id)", protocol: null, on_auto_forward: null }],
      configuration_json: JSON.stringify({
        customizations: { kubernetes: [{ nodeSelector: { pool: "evil" } }] },
      }),
    },
    inputs: { variables: { allow_node_placement: true } },
    check: (workspace) => {
      const metadata = [
        "kubernetes_deployment_v1.main[0]",
        "kubernetes_persistent_volume_claim_v1.data",
      ]
        .map((address) => workspace.plan.resource(address).after.metadata)
        .flatMap((m) => (Array.isArray(m) ? m : []))
        .map((m: Record<string, unknown>) => JSON.stringify([m.labels, m.annotations]));
      expect(metadata).toHaveLength(2);
      for (const text of metadata) expect(text).not.toMatch(/evil|attacker/);
    },
  },
  "control characters never reach the build log": {
    metadata: {
      warnings: ["runArgs \u001b]0;owned\u0007 --x\nnot supported\r"],
      mounts: [{ kind: "bind", source: null, target: "/x\u001b[2J", read_only: null }],
    },
    check: (workspace) => {
      expect(workspace.warnings).toEqual([
        "runArgs  ]0;owned  --x not supported ",
        'mounts[0]: kind "bind" is not supported (only volume and tmpfs); the mount at "/x\\u001b[2J" is not mounted.',
      ]);
    },
  },
  "service warnings reach the build log as text, never a script": {
    metadata: { warnings: ["runArgs '$(id)' is not supported"] },
    check: (workspace) => {
      expect(workspace.warnings).toEqual(["runArgs '$(id)' is not supported"]);
      const metadata = workspace.plan.resource("coder_agent.main").after.metadata as {
        key: string;
        script: string;
      }[];
      expect(metadata.find((m) => m.key === "8_devcontainer_warnings")?.script).toBe(
        "echo '1 - see the build log'",
      );
    },
  },
};

let planner: BadInputPlanner;
const plans = new Map<string, Promise<PlannedWorkspace>>();

beforeAll(async () => {
  planner = await BadInputPlanner.start();
  const rows = Object.entries(ROWS);
  const planned = planner.planMany(
    rows.map(([, row]) => ({
      metadata: { ...VALID_METADATA, ...row.metadata },
      inputs: row.inputs,
    })),
  );
  rows.forEach(([name], index) => plans.set(name, planned[index]));
  await Promise.allSettled(planned);
});

afterAll(async () => {
  await planner?.stop();
});

describe("values from the repository", () => {
  it.each(Object.keys(ROWS))("%s", async (name) => {
    const workspace = await (plans.get(name) ?? Promise.reject(new Error("not planned")));
    ROWS[name].check(workspace);
    expect(saneWorkspaceProblems(workspace)).toEqual([]);
  });
});
